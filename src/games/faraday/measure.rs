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

    /// The offer actions left and the phase: the choice to accept keeps board and mover but
    /// ends the pie.
    fn position_phase(&self) -> u8 {
        let phase: u8 = match self.phase {
            Phase::Offer { .. } => 0,
            Phase::Choice => 1,
            Phase::Placement => 2,
        };
        phase | self.phase.offer_actions_left() << 2
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
    /// groups), and position keys by XOR of per-stone hashes, instead of a flood fill and a pass
    /// over the board at every position.
    fn random_game_observed<O: Observer>(
        &mut self,
        rngs: &mut [Rng],
        buf: &mut Vec<u32>,
        _scratch: &mut FloodScratch,
        obs: &mut O,
    ) {
        let cfg = self.cfg.clone();
        let n = self.cells.len();
        let stone_key =
            |site: usize, colour: usize| crate::games::mix64((site * 2 + colour) as u64 + 1);
        let mut groups = UnionFind::new(n);
        let mut largest = [0usize; 2];
        let mut board_key = 0u64;
        // A stone of colour c has just been put on `site`.
        let mut add = |cells: &[i8], largest: &mut [usize; 2], key: &mut u64, site, c: usize| {
            let size = join_stone(&mut groups, &cfg.board, cfg.group, cells, site);
            largest[c] = largest[c].max(size);
            *key ^= stone_key(site, c);
        };
        for site in 0..n {
            if self.cells[site] > 0 {
                let c = self.cells[site] as usize - 1;
                add(&self.cells, &mut largest, &mut board_key, site, c);
            }
        }
        let special = cfg.scoring.is_special();
        let key_of = |board_key: u64, state: &State| {
            crate::games::mix64(
                board_key ^ state.position_tag().wrapping_mul(0x9E37_79B9_7F4A_7C15),
            )
        };
        // Nothing is removed: the number of stones is a level that never decreases.
        let level = |state: &State| Some(state.stones[0] + state.stones[1]);
        obs.position(key_of(board_key, self), level(self), &self.cells);
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
                add(&self.cells, &mut largest, &mut board_key, site, c);
            }
            if swap {
                largest.swap(0, 1);
                board_key = (0..n)
                    .filter(|&s| self.cells[s] > 0)
                    .fold(0, |h, s| h ^ stone_key(s, self.cells[s] as usize - 1));
            }
            obs.position(key_of(board_key, self), level(self), &self.cells);
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
