//! The Smallholder's measured play: the facts gathered at every position ([`Measure`]), kept
//! apart from the rules.

use super::*;
use crate::algo::FloodScratch;
use crate::games::Measure;

impl Measure for State {
    #[inline]
    fn random_action_counted(&self, rng: &mut Rng, _buf: &mut Vec<u32>) -> Option<(usize, usize)> {
        self.draw_counted(rng)
    }

    fn legal_count(&self, _buf: &mut Vec<u32>) -> usize {
        if self.over {
            return 0;
        }
        each_width!(&self.core, p => p.legal.count())
    }

    /// The sites where each player may place by the territory rule (a player who cannot place
    /// loses, so room to play is what matters).
    fn heuristic_into(&self, _scratch: &mut FloodScratch, out: &mut [u32]) {
        let rules = self.cfg.rules;
        each_width!(&self.core, pos => {
            for (p, o) in out.iter_mut().enumerate() {
                *o = pos.playable_sites(&rules, p).1.count() as u32;
            }
        });
    }
}
