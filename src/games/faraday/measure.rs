//! Faraday's measured play: the facts gathered at every position of a random game
//! ([`Measure`]), kept apart from the rules. The playout here makes exactly the draws of
//! [`Rules::random_action`]; a test holds its facts equal to a replay of the same game.

use super::*;
use crate::algo::FloodScratch;
use crate::games::{Measure, Observer};

impl Measure for State {
    fn random_action_counted(&self, rng: &mut Rng, buf: &mut Vec<u32>) -> Option<(usize, usize)> {
        if self.over {
            return None;
        }
        if self.phase == Phase::Placement && !self.forced {
            let p = self.to_move as usize;
            let count = self.legal.len(p);
            return Some((self.legal.get(p, rng.below(count)), count));
        }
        let action = self.random_action(rng, buf)?;
        Some((action, self.legal_count(buf)))
    }

    /// Accept and swap, as [`GameConfig::action_name`] names them.
    fn pie_actions(&self) -> Option<(u32, u32)> {
        let n = self.cells.len() as u32;
        Some((2 * n + 1, 2 * n + 2))
    }

    /// Nothing is ever removed.
    fn sites_stay_occupied(&self) -> bool {
        true
    }

    /// Each player's score as [`State::score_values`] counts it (the special scorings'
    /// products over [`Measure::heuristic_scale`]'s sites² / 4), the fills in `scratch`.
    fn heuristic_into(&self, scratch: &mut FloodScratch, out: &mut [u32]) {
        let cfg = &self.cfg;
        let mut g = [0usize; 2];
        largest_components(&cfg.board, cfg.group, &self.cells, scratch, &mut g);
        let v = if cfg.scoring.is_special() {
            [
                g[0] * self.stones[1] as usize,
                g[1] * self.stones[0] as usize,
            ]
        } else {
            g
        };
        out[0] = v[0] as u32;
        out[1] = v[1] as u32;
    }

    /// The same draws as [`Rules::random_action`]; the largest groups are kept by union-find
    /// as stones arrive (nothing is ever removed, and a swap only exchanges the owners of the
    /// groups), instead of a flood fill at every position.
    fn random_game_observed<O: Observer>(
        &mut self,
        rngs: &mut [Rng],
        buf: &mut Vec<u32>,
        _scratch: &mut FloodScratch,
        obs: &mut O,
    ) {
        let cfg = self.cfg.clone();
        let n = self.cells.len();
        let mut groups = UnionFind::new(n);
        let mut largest = [0usize; 2];
        // A stone of colour c has just been put on `site`.
        let mut add = |cells: &[i8], largest: &mut [usize; 2], site, c: usize| {
            let size = join_stone(&mut groups, &cfg.board, cfg.group, cells, site);
            largest[c] = largest[c].max(size);
        };
        for site in 0..n {
            if self.cells[site] > 0 {
                let c = self.cells[site] as usize - 1;
                add(&self.cells, &mut largest, site, c);
            }
        }
        let special = cfg.scoring.is_special();
        // Nothing is removed: the number of stones is a level that never decreases.
        let level = |state: &State| Some(state.stones[0] + state.stones[1]);
        obs.position(self.key(), level(self), &self.cells);
        while let Some(p) = self.current_player() {
            let Some((a, count)) = self.random_action_counted(&mut rngs[p], buf) else {
                break;
            };
            let mut k = [0u32; crate::games::MAX_PLAYERS];
            for c in 0..2 {
                let v = if special {
                    largest[c] * self.stones[1 - c] as usize
                } else {
                    largest[c]
                };
                k[c] = v as u32;
            }
            obs.decision(p, count, a as u32, &k);
            // The stone this action puts down, if any: (site, colour).
            let placed = match self.phase {
                Phase::Placement => Some((a, p)),
                Phase::Offer { .. } if a < 2 * n => Some((a % n, a / n)),
                _ => None,
            };
            let swap = self.phase == Phase::Choice && a == 2 * n + 2;
            self.apply_unchecked(a);
            if let Some((site, c)) = placed {
                add(&self.cells, &mut largest, site, c);
            }
            if swap {
                largest.swap(0, 1);
            }
            obs.position(self.key(), level(self), &self.cells);
        }
    }

    fn heuristic_scale(&self) -> (f64, u32) {
        let sites = self.cells.len();
        if self.cfg.scoring.is_special() {
            ((sites * sites) as f64 / 4.0, (sites * sites / 4) as u32)
        } else {
            (sites as f64, sites as u32)
        }
    }
}
