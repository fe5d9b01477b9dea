//! Windflowers' knowledge beyond its rules ([`Peek`], [`Knowledge`], [`Footprint`]), kept apart
//! from the rules.

use super::*;
use crate::games::knowledge::choose_by_score;
use crate::games::{ChildPeek, Footprint, Knowledge, Peek};

impl Footprint for State {
    fn heap_bytes(&self) -> usize {
        self.core.boxed_bytes()
    }
}

impl Peek for State {
    fn key_turn_number(&self) -> Option<u64> {
        Some(self.turn.key_number(&self.cfg))
    }

    /// A pass changes no cell, a placement or replacement one; only the turn moves on.
    #[inline]
    fn peek_child(&self, action: usize) -> Option<ChildPeek> {
        let placed = action < self.cfg.board.num_sites();
        self.peek_after(action, self.turn_after(placed))
    }

    /// Every placement leaves the same turn behind, and so does the pass: each is worked out
    /// once.
    fn peek_each<F: FnMut(Option<ChildPeek>)>(&self, actions: &[u32], mut f: F) {
        let (placement, pass) = (self.turn_after(true), self.turn_after(false));
        let sites = self.cfg.board.num_sites();
        for &a in actions {
            let a = a as usize;
            f(self.peek_after(a, if a < sites { placement } else { pass }));
        }
    }
}

impl Knowledge for State {
    /// The same draws as the default (two [`Rules::random_action`] draws a move with `pairs`),
    /// with the board's width chosen once per game and the legal set counted once per move.
    fn guided_playout<F: FnMut(usize, usize, Option<usize>) -> usize>(
        &mut self,
        rng: &mut Rng,
        _buf: &mut Vec<u32>,
        pairs: bool,
        knowledge: bool,
        mut choose: F,
    ) -> usize {
        let start = self.turn.moves;
        let (cfg, turn) = (&*self.cfg, &mut self.turn);
        let n = cfg.board.num_sites();
        let mut local = rng.clone();
        each_width!(&mut self.core, pos => {
            while !turn.over {
                let p = turn.to_move;
                let legal = pos.legal(p);
                // r = count, one past the last legal site, is the pass (as `Pos::draw`).
                let count = legal.count() + 1;
                let a = legal.nth(local.below(count)).unwrap_or(n);
                let b = pairs.then(|| legal.nth(local.below(count)).unwrap_or(n));
                let c = match b {
                    Some(b) if knowledge => {
                        let sa = pos.playout_score(cfg.players, p, a);
                        let sb = pos.playout_score(cfg.players, p, b);
                        choose_by_score(&mut choose, p, (a, sa), (b, sb))
                    }
                    _ => choose(p, a, b),
                };
                let placed = c < n;
                if placed {
                    pos.put(cfg.players, c, p);
                }
                turn.advance(cfg, placed);
            }
        });
        *rng = local;
        self.turn.moves - start
    }

    /// Playout knowledge (`playouts="knowledge"`): safe actions first, then the pass, then
    /// placements an opponent could replace at once (see `Pos::playout_score`). At equal
    /// iterations this beat MAST alone by more than preferring any non-pass action, or
    /// replacements, or also weighing the own stones a placement would expose
    /// (`docs/search.md`, "Playout knowledge").
    #[inline]
    fn playout_score(&self, action: usize) -> u32 {
        if self.turn.over {
            return 0;
        }
        let (players, p) = (self.cfg.players, self.turn.to_move);
        each_width!(&self.core, pos => pos.playout_score(players, p, action))
    }

    /// No: the exact solver orders Windflowers by history alone. Of the three orders measured
    /// on the ten variants of each board (`docs/solved/`, "Move order, per game"), the knowledge first
    /// took 1.64 G nodes on hex 3 and history alone 1.16 G; knowledge as history's tie-break
    /// was between (1.20 G), and the smaller boards were within a fifth either way.
    #[inline]
    fn solver_knowledge(&self) -> bool {
        false
    }
}

impl State {
    /// The turn number of the key and the player to move after a placement (`placed`) or a
    /// pass, `None` if that ends the game ([`Peek::peek_child`]).
    #[inline]
    fn turn_after(&self, placed: bool) -> Option<(u64, usize)> {
        let mut turn = self.turn.clone();
        turn.advance(&self.cfg, placed);
        (!turn.over).then(|| (turn.key_number(&self.cfg), turn.to_move))
    }

    /// The peek of `action`, given the turn it leaves ([`State::turn_after`]).
    #[inline]
    fn peek_after(&self, action: usize, after: Option<(u64, usize)>) -> Option<ChildPeek> {
        let placed = action < self.cfg.board.num_sites();
        after.map(|(turn_number, mover)| ChildPeek {
            cell: placed.then(|| (action, self.turn.to_move as i8 + 1)),
            turn_number,
            mover,
        })
    }
}
