//! Windflowers' measured play: the facts gathered at every position of a random game
//! ([`Measure`]), kept apart from the rules. The playout here makes exactly the draws of
//! [`Rules::random_action`]; a test holds its facts equal to a replay of the same game.

use super::*;
use crate::algo::FloodScratch;
use crate::games::{Measure, Observer};

impl Measure for State {
    #[inline]
    fn random_action_counted(&self, rng: &mut Rng, _buf: &mut Vec<u32>) -> Option<(usize, usize)> {
        if self.turn.over {
            return None;
        }
        let n = self.cfg.board.num_sites();
        let (drawn, count) =
            each_width!(&self.core, pos => pos.draw_counted(self.turn.to_move, rng));
        Some((drawn.unwrap_or(n), count))
    }

    fn legal_count(&self, _buf: &mut Vec<u32>) -> usize {
        if self.turn.over {
            return 0;
        }
        each_width!(&self.core, pos => pos.legal(self.turn.to_move).count() + 1)
    }

    /// Stones are replaced, never removed.
    fn sites_stay_occupied(&self) -> bool {
        true
    }

    /// Each player's base score (stones or largest group; at most the number of sites).
    #[inline]
    fn heuristic_into(&self, _scratch: &mut FloodScratch, out: &mut [u32]) {
        if self.cfg.scoring == Scoring::Stones {
            each_width!(&self.core, pos => out.copy_from_slice(&pos.stones[..out.len()]));
            return;
        }
        let base = each_width!(&self.core, pos => pos.base_scores(&self.cfg));
        for (o, &b) in out.iter_mut().zip(&base) {
            *o = b as u32;
        }
    }

    /// The same draws as [`Rules::random_action`], with the board's width chosen once per game.
    fn random_game_observed<O: Observer>(
        &mut self,
        rngs: &mut [Rng],
        _buf: &mut Vec<u32>,
        _scratch: &mut FloodScratch,
        obs: &mut O,
    ) {
        let (cfg, turn) = (&*self.cfg, &mut self.turn);
        let (n, sites) = (cfg.players, cfg.board.num_sites());
        let stones = cfg.scoring == Scoring::Stones;
        each_width!(&mut self.core, pos => {
            // The stone counts and their total (a level that never decreases: stones are
            // replaced, never removed) are kept here, in registers, rather than read back from
            // the position just written.
            let mut k = pos.stones;
            let mut level: u32 = k.iter().sum();
            let key = |pos: &Pos<_>, turn: &Turn| pos.zkey ^ zobrist::turn(turn.key_number(cfg));
            obs.position(key(pos, turn), Some(level), &pos.cells.as_flattened()[..sites]);
            while !turn.over {
                let p = turn.to_move;
                let (drawn, count) = pos.draw_counted(p, &mut rngs[p]);
                if !stones {
                    for (kp, b) in k.iter_mut().zip(pos.base_scores(cfg)) {
                        *kp = b as u32;
                    }
                }
                obs.decision(p, count, drawn.unwrap_or(sites) as u32, &k);
                if let Some(site) = drawn {
                    let old = pos.cells.as_flattened()[site];
                    pos.put(n, site, p);
                    if old > 0 {
                        if stones {
                            k[old as usize - 1] -= 1;
                        }
                    } else {
                        level += 1;
                    }
                    if stones {
                        k[p] += 1;
                    }
                }
                turn.advance(cfg, drawn.is_some());
                obs.position(key(pos, turn), Some(level), &pos.cells.as_flattened()[..sites]);
            }
        });
    }
}
