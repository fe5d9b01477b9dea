//! Subsume's measured play: the facts gathered at every position ([`Measure`]), kept apart
//! from the rules.

use super::*;
use crate::algo::FloodScratch;
use crate::games::Measure;

impl Measure for State {
    /// The open cells that pass the anti-blob rule (only the open ones are looked at).
    fn legal_count(&self, _buf: &mut Vec<u32>) -> usize {
        if self.outcome != Outcome::Running {
            return 0;
        }
        let p = self.to_move as usize;
        let open = self.open.as_slice();
        open.iter()
            .filter(|&&c| self.balanced(c as usize, p))
            .count()
    }

    /// The heuristic: each player's stones in play. Stones kept inside a settled loop
    /// (`remove_surrounded=false`) take no part, so they do not count; with the default options
    /// this is every stone on the board, as the default heuristic counts.
    fn heuristic_into(&self, _scratch: &mut FloodScratch, out: &mut [u32]) {
        for (o, set) in out.iter_mut().zip(&self.sets[..2]) {
            *o = set.iter().map(|w| w.count_ones()).sum();
        }
    }
}
