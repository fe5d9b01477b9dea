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
    /// The board part of the position key, by site and cell value: `stones[site · radix + c]`,
    /// 0 for an empty cell (the stone table of [`Zobrist`], laid out for one lookup a cell).
    stones: Vec<u64>,
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
                stones: {
                    let z = Zobrist::new(sites);
                    (0..sites)
                        .flat_map(|s| {
                            let z = &z;
                            (0..radix as usize)
                                .map(move |c| if c == 0 { 0 } else { z.stone(s, c - 1) })
                        })
                        .collect()
                },
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
        // The board in base radix and the board part of its key, in one pass.
        let cells = n.cells();
        let mut board = 0u64;
        let mut zkey = 0u64;
        let r = self.radix as usize;
        for (s, &c) in cells.iter().enumerate().rev() {
            board = board * self.radix + c as u64;
            zkey ^= self.stones[s * r + c as usize];
        }
        let t = turn_number(n.key(), zkey);
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

/// A child of a running position, as its parent saw it when it was opened.
#[derive(Clone, Copy)]
struct Kid {
    action: u32,
    code: u64,
    /// The child's mover, [`FINISHED`] for a finished game.
    mover: u8,
    /// A finished child's value for the parent's mover.
    outcome: i8,
}

const FINISHED: u8 = u8::MAX;

/// One position of the current line.
struct Frame<N> {
    node: N,
    code: u64,
    mover: usize,
    /// The children not settled when the position was opened, explored in turn.
    kids: Vec<Kid>,
    next: usize,
    best: i8,
    longest: u32,
}

impl<N> Frame<N> {
    /// Folds in a child's value for this frame's mover and its longest game.
    fn fold(&mut self, value: i8, longest: u32) {
        self.best = self.best.max(value);
        self.longest = self.longest.max(longest + 1);
    }
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

/// A stored child's value for `parent_mover`.
fn stored_value(w: u64, kid: &Kid, parent_mover: usize) -> i8 {
    if kid.mover == FINISHED {
        kid.outcome
    } else if usize::from(kid.mover) == parent_mover {
        value_of(w)
    } else {
        -value_of(w)
    }
}

/// The enumeration's state between steps.
struct Walk<'g, G: Explore> {
    g: &'g G,
    table: Slots,
    stack: Vec<Frame<G::Node>>,
    /// The child lists of finished frames, reused by the next ones (no allocation per position).
    spare: Vec<Vec<Kid>>,
    actions: Vec<u32>,
    edges: u64,
    cycle: Option<Vec<u32>>,
    limit: u64,
}

impl<G: Explore> Walk<'_, G> {
    /// Stores a new position (`meta` ON_LINE or DONE); `Err` says why the walk must stop.
    fn insert(&mut self, code: u64, meta: u64) -> std::result::Result<(), GraphStop> {
        if self.table.len as u64 >= self.limit {
            return Err(GraphStop::MaxPositions);
        }
        if !self.table.insert(code, meta) {
            return Err(GraphStop::Memory);
        }
        Ok(())
    }

    /// Puts the running position `node` (already stored ON_LINE) on the line and settles
    /// every child that can be settled at once: those already finished, those on the line (a
    /// cycle) and finished games. Every child's slot is read before any is used, so that the
    /// table's cache misses overlap rather than follow one another.
    fn open(
        &mut self,
        node: G::Node,
        code: u64,
        mover: usize,
    ) -> Result<std::result::Result<(), GraphStop>> {
        let g = self.g;
        g.actions(&node, &mut self.actions);
        self.edges += self.actions.len() as u64;
        let mut kids = self.spare.pop().unwrap_or_default();
        kids.clear();
        for &a in &self.actions {
            let child = g.child(&node, a);
            let code = g.code(&child)?;
            let (m, outcome) = match g.mover(&child) {
                None => (FINISHED, g.outcome(&child, mover)),
                Some(m) => (m as u8, 0),
            };
            kids.push(Kid {
                action: a,
                code,
                mover: m,
                outcome,
            });
        }
        let mut touch = 0u64;
        for k in &kids {
            touch ^= self.table.slots[self.table.home(k.code)];
        }
        std::hint::black_box(touch);
        self.stack.push(Frame {
            node,
            code,
            mover,
            kids: Vec::new(),
            next: 0,
            best: -2,
            longest: 0,
        });
        let mut stop = Ok(());
        let mut keep = 0;
        for i in 0..kids.len() {
            let k = kids[i];
            let w = self.table.slots[self.table.find(k.code)];
            if w & DONE != 0 {
                let top = self.stack.last_mut().expect("just pushed");
                top.fold(stored_value(w, &k, mover), longest_of(w));
            } else if w != 0 {
                self.close_cycle(k.action);
            } else if k.mover == FINISHED {
                if let Err(why) = self.insert(k.code, DONE) {
                    stop = Err(why);
                    break;
                }
                let top = self.stack.last_mut().expect("just pushed");
                top.fold(k.outcome, 0);
            } else {
                kids[keep] = k;
                keep += 1;
            }
        }
        kids.truncate(keep);
        self.stack.last_mut().expect("just pushed").kids = kids;
        Ok(stop)
    }

    /// Records the line from the start to the top frame's position, then `action` back to a
    /// position on it, unless a cycle is already known.
    fn close_cycle(&mut self, action: u32) {
        if self.cycle.is_none() {
            let n = self.stack.len();
            let mut line: Vec<u32> = self.stack[..n - 1]
                .iter()
                .map(|f| f.kids[f.next - 1].action)
                .collect();
            line.push(action);
            self.cycle = Some(line);
        }
    }
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
    let mut walk = Walk {
        g,
        table: Slots::new(max_bytes),
        stack: Vec::new(),
        spare: Vec::new(),
        actions: Vec::new(),
        edges: 0,
        cycle: None,
        limit: max_positions.unwrap_or(u64::MAX),
    };
    let mut saturated = false;
    let mut stopped_by = GraphStop::Complete;
    let mut steps = 0u64;

    let start_code = g.code(start)?;
    match g.mover(start) {
        None => {
            walk.table.insert(start_code, DONE);
        }
        Some(m) => {
            walk.table.insert(start_code, ON_LINE);
            if let Err(why) = walk.open(start.clone(), start_code, m)? {
                stopped_by = why;
            }
        }
    }
    while stopped_by == GraphStop::Complete {
        let Some(top) = walk.stack.last_mut() else {
            break;
        };
        steps += 1;
        if steps & 0xFFFF == 0 && stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            stopped_by = GraphStop::Interrupted;
            break;
        }
        if top.next == top.kids.len() {
            // Finished: its results are final (without a cycle).
            let f = walk.stack.pop().expect("non-empty");
            let best = if two { f.best.clamp(-1, 1) } else { 0 };
            let i = walk.table.find(f.code);
            walk.table.slots[i] = (f.code + 1)
                | DONE
                | value_bits(best)
                | u64::from(f.longest.min(LONGEST_MAX)) << LONGEST_SHIFT;
            walk.spare.push(f.kids);
            if let Some(parent) = walk.stack.last_mut() {
                let v = if parent.mover == f.mover { best } else { -best };
                parent.fold(v, f.longest);
                if f.longest + 1 > LONGEST_MAX {
                    saturated = true;
                }
            }
            continue;
        }
        let k = top.kids[top.next];
        top.next += 1;
        // Unsettled when its parent opened: still new, or finished since by a sibling's subtree
        // (a child on the line then is on it now, and was settled as a cycle).
        let w = walk.table.slots[walk.table.find(k.code)];
        if w & DONE != 0 {
            let parent_mover = top.mover;
            top.fold(stored_value(w, &k, parent_mover), longest_of(w));
            continue;
        }
        if w != 0 {
            walk.close_cycle(k.action);
            continue;
        }
        let child = g.child(&top.node, k.action);
        if let Err(why) = walk.insert(k.code, ON_LINE) {
            stopped_by = why;
            break;
        }
        if let Err(why) = walk.open(child, k.code, usize::from(k.mover))? {
            stopped_by = why;
        }
    }
    let complete = stopped_by == GraphStop::Complete;
    let acyclic = complete && walk.cycle.is_none();
    let table = &walk.table;
    let (value, longest) = if acyclic {
        let w = table.slots[table.find(start_code)];
        let value = (two && g.mover(start).is_some()).then(|| value_of(w));
        (value, Some(u64::from(longest_of(w))))
    } else {
        (None, None)
    };
    Ok(StateGraph {
        positions: table.len as u64,
        edges: walk.edges,
        longest,
        cycle: walk.cycle,
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
