//! Whole state graphs of small boards, for any number of players.
//!
//! Every position reachable from the start is enumerated once, by a depth-first search that
//! keeps the current line on a stack. A position is stored as one 64-bit word: its exact code
//! (the board in base players + 1, then the turn number of its key, see
//! [`crate::games::zobrist`]; at most 48 bits, so equal codes are equal positions, with no
//! hashing involved) and 16 bits of results (whether it is on the current line or finished, its
//! two-player value, the longest game from it). The words sit in an open-addressing table of
//! 8-byte slots that grows by half whenever it is three quarters full, so a stored position
//! costs 8 / load: 10.7 to 16 bytes.
//!
//! * A child that is on the current line closes a **cycle**; the actions from the start along
//!   the line, then the one back, are kept as a record.
//! * Without a cycle, the search's finishing order is a retrograde order: each position's
//!   **longest** game and, for two players, its **value** for the mover (negamax over the
//!   children's values, terminal positions by their returns) are known when it finishes.
//! * The move cap plays no part: positions have no move count, and the graph is the game's own
//!   (Windflowers' question is whether it has cycles at all). The caller passes a game whose cap
//!   cannot be reached ([`uncapped`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::error::{Error, Result};
use crate::games::zobrist::{turn_number, Zobrist};
use crate::games::{Game, OptionValue, Rules};

/// A graph to enumerate: positions with exact codes, their actions and children. Implemented
/// for every game ([`GameGraph`]) and by hand-made graphs in the tests.
pub trait Explore {
    /// A position.
    type Node: Clone;
    /// The exact code of a position: equal codes for equal positions only, below 2⁴⁸.
    fn code(&self, n: &Self::Node) -> Result<u64>;
    /// The player to move, `None` for a finished game.
    fn mover(&self, n: &Self::Node) -> Option<usize>;
    /// The legal actions, ascending, written into `out` (cleared first: the enumeration hands
    /// on the lists of finished positions).
    fn actions(&self, n: &Self::Node, out: &mut Vec<u32>);
    /// The position after action `a`.
    fn child(&self, n: &Self::Node, a: u32) -> Self::Node;
    /// A finished game's value for `player` (−1, 0 or +1), for two-player values.
    fn outcome(&self, n: &Self::Node, player: usize) -> i8;
    /// Number of players.
    fn players(&self) -> usize;
}

/// A game's positions as a graph.
pub struct GameGraph<R: Rules> {
    zobrist: Zobrist,
    radix: u64,
    /// The board codes are below this (radix^sites).
    boards: u64,
    _game: std::marker::PhantomData<R>,
}

impl<R: Rules> GameGraph<R> {
    /// The graph of `start`'s game; fails when a board code cannot fit 48 bits.
    pub fn new(start: &R) -> Result<GameGraph<R>> {
        let sites = start.board().num_sites();
        let radix = start.num_players() as u64 + 1;
        let boards = (0..sites).try_fold(1u64, |acc, _| acc.checked_mul(radix));
        match boards {
            Some(b) if b < 1 << 44 => Ok(GameGraph {
                zobrist: Zobrist::new(sites),
                radix,
                boards: b,
                _game: std::marker::PhantomData,
            }),
            _ => Err(Error::InvalidOption(format!(
                "state_graph: a board of {sites} sites with {} players is too large to store \
                 each position in one word; use a smaller board",
                start.num_players()
            ))),
        }
    }
}

impl<R: Rules> Explore for GameGraph<R> {
    type Node = R;
    fn code(&self, n: &R) -> Result<u64> {
        let mut board = 0u64;
        for &c in n.cells().iter().rev() {
            board = board * self.radix + c as u64;
        }
        let t = turn_number(n.key(), self.zobrist.board(n.cells()));
        let code = t
            .checked_mul(self.boards)
            .and_then(|x| x.checked_add(board))
            .filter(|&x| x < CODE_LIMIT);
        code.ok_or_else(|| {
            Error::InvalidOption(format!(
                "state_graph: {}'s position (turn number {t}) does not fit one word; use a \
                 smaller board or fewer options with state",
                n.game_name()
            ))
        })
    }
    fn mover(&self, n: &R) -> Option<usize> {
        n.current_player()
    }
    fn actions(&self, n: &R, out: &mut Vec<u32>) {
        n.legal_actions_into(out)
    }
    fn child(&self, n: &R, a: u32) -> R {
        let mut c = n.clone();
        c.apply_unchecked(a as usize);
        c
    }
    fn outcome(&self, n: &R, player: usize) -> i8 {
        n.returns().map_or(0, |r| r[player].round() as i8)
    }
    fn players(&self) -> usize {
        self.radix as usize - 1
    }
}

/// Codes stay below this; the slot keeps `code + 1` in its low 48 bits.
const CODE_LIMIT: u64 = (1 << 48) - 1;
const CODE_MASK: u64 = (1 << 48) - 1;
/// Slot state bits (48..50): on the current line, or finished.
const ON_LINE: u64 = 1 << 48;
const DONE: u64 = 2 << 48;
/// Value bits (50..52): 0 = −1, 1 = 0, 2 = +1.
const VALUE_SHIFT: u32 = 50;
/// Longest game from the position (52..64), saturating.
const LONGEST_SHIFT: u32 = 52;
const LONGEST_MAX: u32 = (1 << 12) - 1;

/// Why an enumeration ended early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphStop {
    /// The whole graph was enumerated.
    Complete,
    /// `max_positions` was reached.
    MaxPositions,
    /// The table would need more memory than allowed.
    Memory,
    /// The stop flag was raised (Ctrl-C).
    Interrupted,
}

impl GraphStop {
    /// The name Python's `StateGraph.stopped_by` gives.
    pub fn name(self) -> &'static str {
        match self {
            GraphStop::Complete => "complete",
            GraphStop::MaxPositions => "max_positions",
            GraphStop::Memory => "memory",
            GraphStop::Interrupted => "interrupted",
        }
    }
}

/// The result of an enumeration.
#[derive(Clone, Debug, PartialEq)]
pub struct StateGraph {
    /// Distinct positions found (all of them when complete).
    pub positions: u64,
    /// (position, action) pairs of the positions expanded.
    pub edges: u64,
    /// The longest game in actions, when complete and without a cycle.
    pub longest: Option<u64>,
    /// Actions from the start that return to a position already on the line, if any was found.
    pub cycle: Option<Vec<u32>>,
    /// Two players, complete and no cycle: the start's value for the player to move there
    /// (player 0 at the start of a game): −1, 0 or +1.
    pub value: Option<i8>,
    pub stopped_by: GraphStop,
    pub seconds: f64,
    /// Bytes of the position table at the end, and per position.
    pub table_bytes: usize,
    /// Longest games beyond 4,095 actions are not told apart (the longest is then a lower
    /// bound); false on every board solved so far.
    pub longest_saturated: bool,
}

/// The position table: open addressing over 8-byte slots, linear probing. Any length: a code's
/// home slot is its mixed code scaled to the length (a multiply and a shift, not a mask), so the
/// table can grow by half rather than double, which keeps it between half and three quarters
/// full after the first growth.
struct Slots {
    slots: Vec<u64>,
    len: usize,
    max_bytes: usize,
}

/// The table grows when an insertion would fill more than `LOAD_NUM / LOAD_DEN` of it.
const LOAD_NUM: usize = 3;
const LOAD_DEN: usize = 4;

impl Slots {
    fn new(max_bytes: usize) -> Slots {
        Slots {
            slots: vec![0; 1 << 16],
            len: 0,
            max_bytes,
        }
    }

    #[inline]
    fn home(&self, code: u64) -> usize {
        let h = crate::games::zobrist::mix64(code);
        ((u128::from(h) * self.slots.len() as u128) >> 64) as usize
    }

    /// The slot holding `code`, or the empty slot where it would go.
    #[inline]
    fn find(&self, code: u64) -> usize {
        let n = self.slots.len();
        let mut i = self.home(code);
        loop {
            let w = self.slots[i];
            if w == 0 || w & CODE_MASK == code + 1 {
                return i;
            }
            i += 1;
            if i == n {
                i = 0;
            }
        }
    }

    /// Inserts `code` with `meta`; false when the table may not grow.
    fn insert(&mut self, code: u64, meta: u64) -> bool {
        if LOAD_DEN * (self.len + 1) > LOAD_NUM * self.slots.len() && !self.grow() {
            return false;
        }
        let i = self.find(code);
        self.slots[i] = (code + 1) | meta;
        self.len += 1;
        true
    }

    fn grow(&mut self) -> bool {
        let cap = self.slots.len() + self.slots.len() / 2;
        // The old table and the new one live at once while rehashing.
        if (cap + self.slots.len()) * 8 > self.max_bytes {
            return false;
        }
        let old = std::mem::replace(&mut self.slots, vec![0; cap]);
        for w in old.into_iter().filter(|&w| w != 0) {
            let i = self.find((w & CODE_MASK) - 1);
            self.slots[i] = w;
        }
        true
    }
}

/// One position of the current line.
struct Frame<N> {
    node: N,
    code: u64,
    mover: usize,
    actions: Vec<u32>,
    next: usize,
    best: i8,
    longest: u32,
}

fn value_bits(v: i8) -> u64 {
    ((v + 1) as u64) << VALUE_SHIFT
}

fn value_of(w: u64) -> i8 {
    ((w >> VALUE_SHIFT) & 3) as i8 - 1
}

fn longest_of(w: u64) -> u32 {
    (w >> LONGEST_SHIFT) as u32 & LONGEST_MAX
}

/// Enumerates every position reachable from `start`, up to `max_positions` and `max_bytes` of
/// table; `stop` interrupts it.
pub fn enumerate<G: Explore>(
    g: &G,
    start: &G::Node,
    max_positions: Option<u64>,
    max_bytes: usize,
    stop: Option<&AtomicBool>,
) -> Result<StateGraph> {
    let t0 = Instant::now();
    let two = g.players() == 2;
    let mut table = Slots::new(max_bytes);
    let mut edges = 0u64;
    let mut cycle: Option<Vec<u32>> = None;
    let mut saturated = false;
    let mut stopped_by = GraphStop::Complete;
    let mut stack: Vec<Frame<G::Node>> = Vec::new();
    // The action lists of finished frames, reused by the next ones (no allocation per position).
    let mut spare: Vec<Vec<u32>> = Vec::new();
    let mut steps = 0u64;
    let limit = max_positions.unwrap_or(u64::MAX);

    // Opens `node` as a new frame (a running position) or stores it finished (a terminal one).
    let start_code = g.code(start)?;
    match g.mover(start) {
        None => {
            table.insert(start_code, DONE);
        }
        Some(m) => {
            table.insert(start_code, ON_LINE);
            let mut actions = Vec::new();
            g.actions(start, &mut actions);
            edges += actions.len() as u64;
            stack.push(Frame {
                node: start.clone(),
                code: start_code,
                mover: m,
                actions,
                next: 0,
                best: -2,
                longest: 0,
            });
        }
    }
    while let Some(top) = stack.last_mut() {
        steps += 1;
        if steps & 0xFFFF == 0 && stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            stopped_by = GraphStop::Interrupted;
            break;
        }
        if top.next == top.actions.len() {
            // Finished: its results are final (without a cycle).
            let f = stack.pop().expect("non-empty");
            spare.push(f.actions);
            let best = if two { f.best.clamp(-1, 1) } else { 0 };
            let i = table.find(f.code);
            table.slots[i] = (f.code + 1)
                | DONE
                | value_bits(best)
                | u64::from(f.longest.min(LONGEST_MAX)) << LONGEST_SHIFT;
            if let Some(parent) = stack.last_mut() {
                let v = if parent.mover == f.mover { best } else { -best };
                parent.best = parent.best.max(v);
                parent.longest = parent.longest.max(f.longest + 1);
                if f.longest + 1 > LONGEST_MAX {
                    saturated = true;
                }
            }
            continue;
        }
        let a = top.actions[top.next];
        top.next += 1;
        let child = g.child(&top.node, a);
        let (parent_mover, code) = (top.mover, g.code(&child)?);
        let i = table.find(code);
        let w = table.slots[i];
        if w != 0 {
            let top = stack.last_mut().expect("non-empty");
            if w & DONE != 0 {
                let v = match g.mover(&child) {
                    None => g.outcome(&child, parent_mover),
                    Some(m) if m == parent_mover => value_of(w),
                    Some(_) => -value_of(w),
                };
                top.best = top.best.max(v);
                top.longest = top.longest.max(longest_of(w) + 1);
            } else if cycle.is_none() {
                // Back to a position on the current line: the line from the start, then `a`.
                cycle = Some(stack.iter().map(|f| f.actions[f.next - 1]).collect());
            }
            continue;
        }
        if table.len as u64 >= limit {
            stopped_by = GraphStop::MaxPositions;
            break;
        }
        match g.mover(&child) {
            None => {
                if !table.insert(code, DONE) {
                    stopped_by = GraphStop::Memory;
                    break;
                }
                let top = stack.last_mut().expect("non-empty");
                top.best = top.best.max(g.outcome(&child, parent_mover));
                top.longest = top.longest.max(1);
            }
            Some(m) => {
                if !table.insert(code, ON_LINE) {
                    stopped_by = GraphStop::Memory;
                    break;
                }
                let mut actions = spare.pop().unwrap_or_default();
                g.actions(&child, &mut actions);
                edges += actions.len() as u64;
                stack.push(Frame {
                    node: child,
                    code,
                    mover: m,
                    actions,
                    next: 0,
                    best: -2,
                    longest: 0,
                });
            }
        }
    }
    let complete = stopped_by == GraphStop::Complete;
    let acyclic = complete && cycle.is_none();
    let (value, longest) = if acyclic {
        let w = table.slots[table.find(start_code)];
        let value = (two && g.mover(start).is_some()).then(|| value_of(w));
        (value, Some(u64::from(longest_of(w))))
    } else {
        (None, None)
    };
    Ok(StateGraph {
        positions: table.len as u64,
        edges,
        longest,
        cycle,
        value,
        stopped_by,
        seconds: t0.elapsed().as_secs_f64(),
        table_bytes: table.slots.len() * 8,
        longest_saturated: saturated,
    })
}

/// `game` with its move cap (if it has one) set beyond reach, for whole-graph analysis.
pub fn uncapped(game: &Game) -> Result<Game> {
    let mut options = game.options();
    let mut changed = false;
    for (k, v) in options.iter_mut() {
        if k == "max_moves" {
            *v = OptionValue::Int(1 << 40);
            changed = true;
        }
    }
    if !changed {
        return Ok(game.clone());
    }
    Game::make(game.name(), &options)
}

/// The whole state graph of `game` from its start (see the module docs).
pub fn state_graph(
    game: &Game,
    max_positions: Option<u64>,
    max_bytes: usize,
    stop: Option<&AtomicBool>,
) -> Result<StateGraph> {
    let game = uncapped(game)?;
    crate::games::each_state!(game.new_state(), s => {
        let g = GameGraph::new(&s)?;
        enumerate(&g, &s, max_positions, max_bytes, stop)
    })
}

#[cfg(test)]
mod tests;
