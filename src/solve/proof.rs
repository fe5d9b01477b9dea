//! The moves of a proof of a root value, for `stonefield.proofs.write_proof` (which writes the
//! file) and its separate checker (`stonefield.proofs.verify_proof`, the rules alone).
//!
//! A claim "player P gets at least t" is proven by a tree: at P's positions one move, at the
//! other player's every legal action in the order [`Rules::legal_actions`] gives them (the order
//! the checker walks), down to finished games or to positions of P that plain minimax settles
//! within [`LEAF_POSITIONS`] positions, written as a leaf for the checker to settle itself.
//!
//! The proof is written as a graph: a position of P met again with the same board, key and
//! move count (a transposition) after its proof was complete is written as a reference to
//! the line of its first meeting ([`ProofLine::Same`]), and so is a position of the other
//! player reached by P's move ([`ProofLine::MoveSame`]: the move, and the line whose move
//! reached it first), so the proof grows with the distinct positions it needs, not with the
//! orders of moves that reach them. A move of P to a position already written is preferred to
//! any other.
//!
//! P's move at each of its positions is chosen by one alpha-beta searcher (`super::alphabeta`)
//! whose table lasts the whole walk, so the positions the proof visits again (transpositions,
//! and the positions below each one already searched) cost a probe: every move is solved, and
//! of those that keep the claim the one whose position cost the least work (the table's record
//! of the nodes searched for it) is taken, since a small search stands for a small proof below
//! it; of equal work, the one that leaves the other player the fewest replies.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::atomic::AtomicBool;

use super::alphabeta::Searcher;
use super::common::{outcome, Budget, Exact, Order, SolveOptions, Symmetry};
use super::table::TableMemory;
use crate::error::{Error, Result};
use crate::games::{Knowledge, Rules};

/// P's positions that plain minimax settles within this many positions become leaves.
pub const LEAF_POSITIONS: u64 = 200;

/// One line of a claim's proof, standing at a position of P: P's move, a leaf settled by the
/// checker's minimax, the same position as at an earlier line of the claim (its index among
/// the claim's lines), or P's move to a running position of the other player that the move of
/// an earlier line reached too; the proofs referred to are complete before this line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofLine {
    Move(u32),
    Leaf,
    Same(u32),
    MoveSame(u32, u32),
}

/// The lines of the proof that `player` gets at least `at_least` (+1, 0 or −1, by the
/// game's result for `player`) from `root`, which must hold; `None` when the budget of `opts`
/// (its time) or `stop` ended the walk first. An error when the claim does not hold (a
/// position where no move of `player` keeps it, or a finished game below it), or for a
/// position the solver does not take (see [`super::check_solvable`]).
pub fn proof_lines<R: Knowledge>(
    root: &R,
    player: usize,
    at_least: i32,
    opts: &SolveOptions,
    stop: Option<&AtomicBool>,
) -> Result<Option<Vec<ProofLine>>> {
    super::check_solvable(root)?;
    if player > 1 || !(-1..=1).contains(&at_least) {
        return Err(Error::InvalidOption(format!(
            "proof: a claim is of player 0 or 1 and at least -1, 0 or +1, not player {player} \
             and {at_least}"
        )));
    }
    let mut memory = TableMemory::new(opts.table_bytes)?;
    let table = memory.table();
    let symmetry = Symmetry::new(
        &opts.symmetries,
        root.board().num_sites(),
        root.num_players(),
    )?;
    let budget = Budget::new(None, opts.time, stop);
    let order = match opts.order {
        Order::Auto if root.solver_knowledge() => Order::Knowledge,
        Order::Auto => Order::History,
        o => o,
    };
    let searcher = Searcher::<R>::new(
        &table,
        &budget,
        symmetry.as_ref(),
        opts,
        root.num_actions(),
        order,
        None,
    );
    let mut walk = Walk {
        searcher,
        player,
        at_least,
        lines: Vec::new(),
        proven: HashMap::new(),
        proven_after: HashMap::new(),
    };
    let done = walk.prove(root)?;
    Ok(done.then_some(walk.lines))
}

/// A position as the writer tells positions apart: its key and a hash of its board and move
/// count (of its own, so that two positions are taken for one only if both 64-bit hashes
/// agree; 16 bytes, as a proof may hold a hundred million positions). The checker compares
/// the boards and move counts themselves.
type Identity = (u64, u64);

fn identity<R: Rules>(s: &R) -> Identity {
    let mut h = DefaultHasher::new();
    s.cells().hash(&mut h);
    s.move_count().hash(&mut h);
    (s.key(), h.finish())
}

struct Walk<'a, R: Knowledge> {
    searcher: Searcher<'a, R>,
    player: usize,
    at_least: i32,
    lines: Vec<ProofLine>,
    /// The positions of P whose proof is complete: the index of the line standing at each.
    proven: HashMap<Identity, u32>,
    /// The running positions of the other player reached by a move of P whose proof is
    /// complete: the index of the line of that move.
    proven_after: HashMap<Identity, u32>,
}

impl<R: Knowledge> Walk<'_, R> {
    /// Appends the proof below `s`; `false` when the budget stopped it.
    fn prove(&mut self, s: &R) -> Result<bool> {
        let Some(mover) = s.current_player() else {
            let got = outcome(s, self.player);
            if got < self.at_least {
                return Err(Error::InvalidOption(format!(
                    "proof: the claim does not hold: a game below the root ends {got:+} for \
                     player {}, not at least {:+}",
                    self.player, self.at_least
                )));
            }
            return Ok(true);
        };
        if mover != self.player {
            for a in s.legal_actions() {
                let mut child = s.clone();
                child.apply_unchecked(a as usize);
                if !self.prove(&child)? {
                    return Ok(false);
                }
            }
            return Ok(true);
        }
        let here = identity(s);
        if let Some(&line) = self.proven.get(&here) {
            self.lines.push(ProofLine::Same(line));
            return Ok(true);
        }
        let line = u32::try_from(self.lines.len()).map_err(|_| {
            Error::InvalidOption("proof: more than 2^32 lines in one claim".to_string())
        })?;
        let mut budget = LEAF_POSITIONS;
        if minimax(s, self.player, self.at_least, &mut budget) == Some(true) {
            self.lines.push(ProofLine::Leaf);
        } else {
            let Some(a) = self.keeping_move(s)? else {
                return Ok(false);
            };
            let mut child = s.clone();
            child.apply_unchecked(a as usize);
            let theirs = child.current_player().is_some_and(|p| p != self.player);
            let there = identity(&child);
            match self.proven_after.get(&there) {
                Some(&earlier) if theirs => self.lines.push(ProofLine::MoveSame(a, earlier)),
                _ => {
                    self.lines.push(ProofLine::Move(a));
                    if !self.prove(&child)? {
                        return Ok(false);
                    }
                    if theirs {
                        self.proven_after.insert(there, line);
                    }
                }
            }
        }
        self.proven.insert(here, line);
        Ok(true)
    }

    /// Whether the position `child`, just reached by a move of P, has its proof written
    /// already (so a move to it costs one line).
    fn written(&self, child: &R) -> bool {
        let there = identity(child);
        match child.current_player() {
            None => false,
            Some(p) if p == self.player => self.proven.contains_key(&there),
            Some(_) => self.proven_after.contains_key(&there),
        }
    }

    /// A move of the claiming player at `s` that keeps the claim (`None` when the budget
    /// stopped the search): the first, in the order of the actions, to a position whose proof
    /// is written already; else of those that keep it, the one whose position cost the search
    /// the least work (a small search, a small proof tree below it), then the one that leaves
    /// the other player the fewest replies, then the lowest.
    fn keeping_move(&mut self, s: &R) -> Result<Option<u32>> {
        let actions = s.legal_actions();
        let mut child = s.clone();
        for &a in &actions {
            child.clone_from(s);
            child.apply_unchecked(a as usize);
            if self.written(&child) {
                return Ok(Some(a));
            }
        }
        let mut best: Option<((u32, usize), u32)> = None;
        for a in actions {
            let mut child = s.clone();
            child.apply_unchecked(a as usize);
            match Exact::exact(&mut self.searcher, &child, self.player) {
                None => return Ok(None),
                Some(v) if v >= self.at_least => {
                    // A finished game costs nothing; a position the table lost, the most.
                    // Of equal work, the fewest replies of the other player (the branches
                    // the proof must follow below it).
                    let work = match child.current_player() {
                        None => (0, 0),
                        Some(p) => (
                            self.searcher
                                .table_entry(&child)
                                .map_or(u32::MAX, |(_, w)| w),
                            if p == self.player {
                                1
                            } else {
                                child.legal_actions().len()
                            },
                        ),
                    };
                    if best.is_none_or(|(w, _)| work < w) {
                        best = Some((work, a));
                    }
                }
                Some(_) => {}
            }
        }
        match best {
            Some((_, a)) => Ok(Some(a)),
            None => Err(Error::InvalidOption(format!(
                "proof: the claim does not hold: no move of player {} keeps at least {:+} at a \
                 position {} moves into the game",
                self.player,
                self.at_least,
                s.move_count()
            ))),
        }
    }
}

/// Plain minimax, the checker's own (`stonefield.proofs._minimax`, the same order and the same
/// count): can `player` make sure of at least `at_least` from `s`? Counts the positions it
/// visits down from `budget`; `None` once more are needed than it held.
pub fn minimax<R: Rules>(s: &R, player: usize, at_least: i32, budget: &mut u64) -> Option<bool> {
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    let Some(mover) = s.current_player() else {
        return Some(outcome(s, player) >= at_least);
    };
    let mine = mover == player;
    for a in s.legal_actions() {
        let mut child = s.clone();
        child.apply_unchecked(a as usize);
        if minimax(&child, player, at_least, budget)? == mine {
            return Some(mine);
        }
    }
    Some(!mine)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::options::OptionValue;
    use crate::games::Game;
    use crate::solve::solve;

    fn game(name: &str, opts: &[(&str, &str)]) -> Game {
        let opts: Vec<_> = opts
            .iter()
            .map(|(k, v)| (k.to_string(), OptionValue::parse_cli(v)))
            .collect();
        Game::make(name, &opts).unwrap()
    }

    fn opts(game: &Game) -> SolveOptions {
        SolveOptions {
            table_bytes: 16 << 20,
            max_moves: super::super::max_moves(game),
            symmetries: game.symmetries(),
            ..SolveOptions::default()
        }
    }

    /// Replays the lines as the checker does: every branch of the other player's, one move
    /// of the claimant's, each leaf settled by minimax, each reference to an earlier line
    /// compared with the position proven there (board, key, move count); `used` counts the
    /// lines, `done` holds the positions whose proof is complete by line, `done_after` the
    /// other player's positions reached by a line's move, once their proof is complete.
    struct Checker<'a> {
        lines: &'a [ProofLine],
        used: usize,
        done: HashMap<usize, (Vec<i8>, u64, usize)>,
        done_after: HashMap<usize, (Vec<i8>, u64, usize)>,
        references: usize,
    }

    impl Checker<'_> {
        fn check<R: Rules>(&mut self, s: &R, player: usize, at_least: i32) {
            let Some(mover) = s.current_player() else {
                assert!(outcome(s, player) >= at_least);
                return;
            };
            if mover != player {
                for a in s.legal_actions() {
                    let mut c = s.clone();
                    c.apply_unchecked(a as usize);
                    self.check(&c, player, at_least);
                }
                return;
            }
            let line = self.used;
            self.used += 1;
            let here = (s.cells().to_vec(), s.key(), s.move_count());
            match self.lines[line] {
                ProofLine::Leaf => {
                    let mut budget = 100_000;
                    assert_eq!(minimax(s, player, at_least, &mut budget), Some(true));
                }
                ProofLine::Move(a) => {
                    assert!(s.legal_actions().contains(&a));
                    let mut c = s.clone();
                    c.apply_unchecked(a as usize);
                    self.check(&c, player, at_least);
                    let theirs = c.current_player().is_some_and(|p| p != player);
                    if theirs {
                        let there = (c.cells().to_vec(), c.key(), c.move_count());
                        self.done_after.insert(line, there);
                    }
                }
                ProofLine::Same(k) => {
                    assert_eq!(self.done.get(&(k as usize)), Some(&here), "line {line}");
                    self.references += 1;
                }
                ProofLine::MoveSame(a, k) => {
                    assert!(s.legal_actions().contains(&a));
                    let mut c = s.clone();
                    c.apply_unchecked(a as usize);
                    assert!(c.current_player().is_some_and(|p| p != player));
                    let there = (c.cells().to_vec(), c.key(), c.move_count());
                    assert_eq!(self.done_after.get(&(k as usize)), Some(&there));
                    self.references += 1;
                }
            }
            self.done.insert(line, here);
        }
    }

    /// The lines of a won, a lost and a drawn position replay to the end (transpositions
    /// written as references to the line of their first meeting), and a claim the position
    /// does not hold is an error.
    #[test]
    fn proofs_replay_and_false_claims_are_refused() {
        let mut references = 0;
        for (name, opt) in [
            ("smallholder", vec![("board", "hex232323")]),
            (
                "smallholder",
                vec![("board", "hex232323"), ("ruleset", "stymie")],
            ),
            (
                "windflowers",
                vec![("grid", "trisquare"), ("size", "3"), ("max_moves", "6")],
            ),
        ] {
            let game = game(name, &opt);
            let root = game.new_state();
            let o = opts(&game);
            let value = solve(&root, &o, None).unwrap().value.unwrap();
            let mover = root.current_player().unwrap();
            let claims = match value {
                1 => vec![(mover, 1)],
                -1 => vec![(1 - mover, 1)],
                _ => vec![(mover, 0), (1 - mover, 0)],
            };
            for (p, t) in claims {
                let lines = proof_lines(&root, p, t, &o, None).unwrap().unwrap();
                assert!(!lines.is_empty());
                let mut checker = Checker {
                    lines: &lines,
                    used: 0,
                    done: HashMap::new(),
                    done_after: HashMap::new(),
                    references: 0,
                };
                checker.check(&root, p, t);
                assert_eq!(checker.used, lines.len(), "{name} {opt:?}");
                references += checker.references;
            }
            // One more than the value gives is not to be had.
            let (p, t) = match value {
                1 => (1 - mover, 0),
                -1 => (mover, 0),
                _ => (mover, 1),
            };
            let err = proof_lines(&root, p, t, &o, None).unwrap_err().to_string();
            assert!(err.contains("does not hold"), "{err}");
        }
        // Transpositions occur on these boards, and are written once.
        assert!(references > 0);
    }

    /// A raised stop flag ends the walk with no lines.
    #[test]
    fn a_stop_ends_the_walk() {
        let game = game("smallholder", &[("board", "hex3")]);
        let stop = AtomicBool::new(true);
        let got = proof_lines(&game.new_state(), 0, 1, &opts(&game), Some(&stop)).unwrap();
        assert_eq!(got, None);
    }
}
