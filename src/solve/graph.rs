//! Whole state graphs of small boards, for any number of players.
//!
//! Every position reachable from the start is enumerated once, by a depth-first search that
//! keeps the current line on a stack. A position is stored as one 64-bit word: its exact code
//! (the board in base players + 1, then the turn number of its key, see
//! [`crate::games::zobrist`]; at most 48 bits, so equal codes are equal positions, with no
//! hashing involved) and 16 bits of results (whether it is on the current line or finished, its
//! two-player value, the longest game from it). The words sit in an open-addressing table of
//! 8-byte slots that grows by half whenever it is three quarters full, so a stored position
//! costs 8 / load: 10.7 to 16 bytes; or, where the codes' board part is small enough, only the
//! 16 bits of results sit in a direct table indexed by code (`Direct`): 2 bytes a code.
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
use crate::games::{ChildPeek, Game, OptionValue, Peek, MAX_PLAYERS};

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
    /// The position after action `a`, written over `out` (which may keep its buffers).
    fn child_into(&self, n: &Self::Node, a: u32, out: &mut Self::Node) {
        *out = self.child(n, a);
    }
    /// For each of `actions` (legal in `n`, whose code is `code`), the child's code and
    /// mover when they can be had without making the child, else `None` (the walk then makes
    /// it; always so for a finished game), written into `out` (cleared first). By default
    /// every child is made.
    fn peek_children(
        &self,
        _n: &Self::Node,
        _code: u64,
        actions: &[u32],
        out: &mut Vec<Option<(u64, usize)>>,
    ) {
        out.clear();
        out.resize(actions.len(), None);
    }
    /// A finished game's value for `player` (−1, 0 or +1), for two-player values.
    fn outcome(&self, n: &Self::Node, player: usize) -> i8;
    /// Number of players.
    fn players(&self) -> usize;
    /// When codes are a board part below this plus this times a turn number, this: it lets
    /// the enumeration index a direct table by code ([`TableKind::Direct`]).
    fn boards(&self) -> Option<u64> {
        None
    }
}

/// A game's positions as a graph.
pub struct GameGraph<R: Peek> {
    /// The board part of the position key, by site and cell value: `stones[site · radix + c]`,
    /// 0 for an empty cell (the stone table of [`Zobrist`], laid out for one lookup a cell).
    stones: Vec<u64>,
    radix: u64,
    /// `radix^site` by site: a board's code is the sum of its cells times these, products
    /// that do not wait on one another (Horner's rule would chain a multiply a cell).
    powers: Vec<u64>,
    /// The board codes are below this (radix^sites).
    boards: u64,
    _game: std::marker::PhantomData<R>,
}

impl<R: Peek> GameGraph<R> {
    /// The graph of `start`'s game; fails when a board code cannot fit 48 bits.
    pub fn new(start: &R) -> Result<GameGraph<R>> {
        let sites = start.board().num_sites();
        if start.num_players() > MAX_PLAYERS {
            return Err(Error::InvalidOption(format!(
                "state_graph: at most {MAX_PLAYERS} players, not {}",
                start.num_players()
            )));
        }
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
                powers: std::iter::successors(Some(1u64), |p| Some(p * radix))
                    .take(sites)
                    .collect(),
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

    /// A told child's code: `board` (its parent's board part) with the changed cell's term
    /// swapped, and its turn number; `None` if it was not told or does not fit.
    #[inline]
    fn told_code(&self, board: u64, cells: &[i8], peek: Option<ChildPeek>) -> Option<(u64, usize)> {
        let peek = peek?;
        let board = match peek.cell {
            Some((site, v)) => {
                let p = self.powers[site];
                board - cells[site] as u64 * p + v as u64 * p
            }
            None => board,
        };
        let code = peek
            .turn_number
            .checked_mul(self.boards)?
            .checked_add(board)
            .filter(|&x| x < CODE_LIMIT)?;
        Some((code, peek.mover))
    }
}

impl<R: Peek> Explore for GameGraph<R> {
    type Node = R;
    fn code(&self, n: &R) -> Result<u64> {
        let cells = n.cells();
        let board: u64 = cells
            .iter()
            .zip(&self.powers)
            .map(|(&c, &p)| c as u64 * p)
            .sum();
        let t = if let Some(t) = n.key_turn_number() {
            t
        } else {
            // The board part of its key, to unmix the turn number from the key.
            let r = self.radix as usize;
            let zkey = cells
                .iter()
                .enumerate()
                .fold(0u64, |z, (s, &c)| z ^ self.stones[s * r + c as usize]);
            turn_number(n.key(), zkey)
        };
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
    fn child_into(&self, n: &R, a: u32, out: &mut R) {
        out.clone_from(n);
        out.apply_unchecked(a as usize);
    }
    /// From [`Peek::peek_child`]: the parent's board part with the one changed cell's term
    /// swapped, and the child's turn number.
    fn peek_children(
        &self,
        n: &R,
        code: u64,
        actions: &[u32],
        out: &mut Vec<Option<(u64, usize)>>,
    ) {
        out.clear();
        let board = code % self.boards;
        let cells = n.cells();
        n.peek_each(actions, |peek| {
            out.push(self.told_code(board, cells, peek));
        });
    }
    fn outcome(&self, n: &R, player: usize) -> i8 {
        // `returns` without its two vectors: finished children are met on every line.
        let players = self.players();
        let (mut ranks, mut utility) = ([0.0; MAX_PLAYERS], [0.0; MAX_PLAYERS]);
        if !n.returns_into(&mut ranks[..players], &mut utility[..players]) {
            return 0;
        }
        utility[player].round() as i8
    }
    fn players(&self) -> usize {
        self.radix as usize - 1
    }
    fn boards(&self) -> Option<u64> {
        Some(self.boards)
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

/// Where the walk keeps its positions: by code, a word whose bits 48..64 hold the state
/// (on the line, finished), value and longest game (0: not stored). Two kinds: [`Direct`], an
/// array indexed by the code itself, and [`Slots`], a hash table of codes.
trait Store {
    /// Asks the processor to bring `code`'s entry into its cache without waiting for it, so
    /// that the miss overlaps other work (a prefetch instruction: a plain read would hold up
    /// everything after it until it arrived).
    fn prefetch(&self, code: u64);
    /// `code`'s word, 0 if it is not stored.
    fn get(&self, code: u64) -> u64;
    /// Stores `code` (not stored yet) with the state bits `meta` and returns a handle for
    /// [`Store::set`]; `None` when memory runs out.
    fn insert(&mut self, code: u64, meta: u64) -> Option<usize>;
    /// Overwrites a stored code's word; `handle` is the one `insert` returned, valid while the
    /// generation is the one it was taken in.
    fn set(&mut self, code: u64, handle: usize, generation: u32, meta: u64);
    fn generation(&self) -> u32;
    fn len(&self) -> u64;
    fn bytes(&self) -> usize;
}

/// A direct table: a position's entry is 16 bits at its code, in one array of `boards`
/// entries per turn number (a slab), made when a position of that turn number first appears.
/// Every board of a slab costs 2 bytes whether reachable or not, so it suits the small boards
/// whose boards are mostly reachable (Windflowers' trisquare 3: 2 bytes a position, a fifth of
/// the hash table's) and is chosen only when a few slabs fit the memory allowed.
struct Direct {
    boards: u64,
    /// ⌊(2⁶⁴ − 1) / boards⌋: a code's slab is the high word of its product with this, or one
    /// more (a multiply where a division would take tens of cycles, on every read).
    reciprocal: u64,
    slabs: Vec<Option<Slab>>,
    len: u64,
    max_bytes: usize,
}

impl Direct {
    fn new(boards: u64, max_bytes: usize) -> Direct {
        Direct {
            boards,
            reciprocal: u64::MAX / boards,
            slabs: Vec::new(),
            len: 0,
            max_bytes,
        }
    }

    #[inline]
    fn place(&self, code: u64) -> (usize, usize) {
        // The estimate is ⌊code / boards⌋ or one less, for codes below 2⁶³ (they are below 2⁴⁸).
        let t = ((u128::from(code) * u128::from(self.reciprocal)) >> 64) as u64;
        let b = code - t * self.boards;
        if b >= self.boards {
            ((t + 1) as usize, (b - self.boards) as usize)
        } else {
            (t as usize, b as usize)
        }
    }
}

impl Store for Direct {
    #[inline]
    fn prefetch(&self, code: u64) {
        let (t, b) = self.place(code);
        if let Some(Some(slab)) = self.slabs.get(t) {
            slab.prefetch(b);
        }
    }
    #[inline]
    fn get(&self, code: u64) -> u64 {
        let (t, b) = self.place(code);
        match self.slabs.get(t) {
            Some(Some(slab)) => u64::from(slab.get(b)) << 48,
            _ => 0,
        }
    }
    fn insert(&mut self, code: u64, meta: u64) -> Option<usize> {
        let (t, b) = self.place(code);
        if self.slabs.get(t).is_none_or(|s| s.is_none()) {
            if (self.slabs_made() + 1) * self.slab_bytes() > self.max_bytes {
                return None;
            }
            if t >= self.slabs.len() {
                self.slabs.resize_with(t + 1, || None);
            }
            self.slabs[t] = Some(Slab::zeroed(self.boards as usize)?);
        }
        let slab = self.slabs[t].as_mut().expect("made above");
        slab.set(b, (meta >> 48) as u16);
        self.len += 1;
        Some(0)
    }
    #[inline]
    fn set(&mut self, code: u64, _handle: usize, _generation: u32, meta: u64) {
        let (t, b) = self.place(code);
        if let Some(Some(slab)) = self.slabs.get_mut(t) {
            slab.set(b, (meta >> 48) as u16);
        }
    }
    fn generation(&self) -> u32 {
        0
    }
    fn len(&self) -> u64 {
        self.len
    }
    fn bytes(&self) -> usize {
        self.slabs_made() * self.slab_bytes()
    }
}

impl Direct {
    fn slab_bytes(&self) -> usize {
        self.boards as usize * 2
    }
    fn slabs_made(&self) -> usize {
        self.slabs.iter().filter(|s| s.is_some()).count()
    }
}

/// A zeroed array of 16-bit entries, a slab of [`Direct`]: on Linux a mapping on huge pages
/// ([`super::memory`]), elsewhere a plain array.
struct Slab {
    #[cfg(target_os = "linux")]
    map: memmap2::MmapMut,
    #[cfg(not(target_os = "linux"))]
    entries: Box<[u16]>,
}

impl Slab {
    /// `n` zeroed entries; `None` when the memory cannot be had.
    fn zeroed(n: usize) -> Option<Slab> {
        #[cfg(target_os = "linux")]
        {
            Some(Slab {
                map: super::memory::huge_zeroed(n.checked_mul(2)?)?,
            })
        }
        #[cfg(not(target_os = "linux"))]
        {
            let mut entries = Vec::new();
            entries.try_reserve_exact(n).ok()?;
            entries.resize(n, 0);
            Some(Slab {
                entries: entries.into_boxed_slice(),
            })
        }
    }

    #[inline]
    fn get(&self, i: usize) -> u16 {
        #[cfg(target_os = "linux")]
        {
            let b: [u8; 2] = self.map[2 * i..2 * i + 2].try_into().expect("two bytes");
            u16::from_ne_bytes(b)
        }
        #[cfg(not(target_os = "linux"))]
        {
            self.entries[i]
        }
    }

    #[inline]
    fn set(&mut self, i: usize, v: u16) {
        #[cfg(target_os = "linux")]
        {
            self.map[2 * i..2 * i + 2].copy_from_slice(&v.to_ne_bytes());
        }
        #[cfg(not(target_os = "linux"))]
        {
            self.entries[i] = v;
        }
    }

    /// Asks the processor to bring entry `i` into its cache, without waiting for it.
    #[inline]
    fn prefetch(&self, i: usize) {
        #[cfg(target_os = "linux")]
        prefetch_index::prefetch_index(&self.map[..], 2 * i);
        #[cfg(not(target_os = "linux"))]
        prefetch_index::prefetch_index(&self.entries[..], i);
    }
}

/// The position table: open addressing over 8-byte slots, linear probing. Any length: a code's
/// home slot is its mixed code scaled to the length (a multiply and a shift, not a mask), so the
/// table can grow by half rather than double, which keeps it between half and three quarters
/// full after the first growth.
struct Slots {
    slots: Vec<u64>,
    len: usize,
    max_bytes: usize,
    /// Counts the growths: a slot index taken in one generation holds in that one only.
    generation: u32,
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
            generation: 0,
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

    fn grow(&mut self) -> bool {
        let cap = self.slots.len() + self.slots.len() / 2;
        // The old table and the new one live at once while rehashing.
        if (cap + self.slots.len()) * 8 > self.max_bytes {
            return false;
        }
        // A refused allocation stops the graph by memory, as the cap does, never an abort.
        let mut grown = Vec::new();
        if grown.try_reserve_exact(cap).is_err() {
            return false;
        }
        grown.resize(cap, 0);
        let old = std::mem::replace(&mut self.slots, grown);
        self.generation += 1;
        for w in old.into_iter().filter(|&w| w != 0) {
            let i = self.find((w & CODE_MASK) - 1);
            self.slots[i] = w;
        }
        true
    }
}

impl Store for Slots {
    #[inline]
    fn prefetch(&self, code: u64) {
        prefetch_index::prefetch_index(&self.slots, self.home(code));
    }
    #[inline]
    fn get(&self, code: u64) -> u64 {
        self.slots[self.find(code)]
    }
    fn insert(&mut self, code: u64, meta: u64) -> Option<usize> {
        if LOAD_DEN * (self.len + 1) > LOAD_NUM * self.slots.len() && !self.grow() {
            return None;
        }
        let i = self.find(code);
        self.slots[i] = (code + 1) | meta;
        self.len += 1;
        Some(i)
    }
    #[inline]
    fn set(&mut self, code: u64, handle: usize, generation: u32, meta: u64) {
        let i = if generation == self.generation {
            handle
        } else {
            self.find(code)
        };
        self.slots[i] = (code + 1) | meta;
    }
    fn generation(&self) -> u32 {
        self.generation
    }
    fn len(&self) -> u64 {
        self.len as u64
    }
    fn bytes(&self) -> usize {
        self.slots.len() * 8
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

/// One position of the current line. Frames are kept when the line gets shorter, so that a
/// position is written over an old one (its buffers kept) and a child list reuses its vector.
struct Frame<N> {
    node: N,
    code: u64,
    /// The position's slot, valid while the table's generation is `generation`.
    slot: usize,
    generation: u32,
    mover: usize,
    /// The children (their codes told or made when the position was opened), looked at in
    /// turn.
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
struct Walk<'g, G: Explore, S: Store> {
    g: &'g G,
    table: S,
    /// The current line is `frames[..depth]`; the frames above are kept for reuse.
    frames: Vec<Frame<G::Node>>,
    depth: usize,
    /// The child being looked at when a position is opened.
    scratch: G::Node,
    actions: Vec<u32>,
    /// The children's codes and movers told without making them ([`Explore::peek_children`]).
    peeks: Vec<Option<(u64, usize)>>,
    edges: u64,
    cycle: Option<Vec<u32>>,
    limit: u64,
}

impl<G: Explore, S: Store> Walk<'_, G, S> {
    /// Stores a new position (`meta` ON_LINE or DONE) and returns its slot; `Err` says why the
    /// walk must stop.
    fn insert(&mut self, code: u64, meta: u64) -> std::result::Result<usize, GraphStop> {
        if self.table.len() >= self.limit {
            return Err(GraphStop::MaxPositions);
        }
        self.table.insert(code, meta).ok_or(GraphStop::Memory)
    }

    /// The frame for the position at `depth`, made if the line was never this long.
    fn frame_at(&mut self, depth: usize) -> &mut Frame<G::Node> {
        if depth == self.frames.len() {
            self.frames.push(Frame {
                node: self.scratch.clone(),
                code: 0,
                slot: 0,
                generation: 0,
                mover: 0,
                kids: Vec::new(),
                next: 0,
                best: -2,
                longest: 0,
            });
        }
        &mut self.frames[depth]
    }

    /// Puts the running position in `frames[depth]` (already stored ON_LINE at `slot`, its
    /// node written) on the line with its children's codes, and asks for every child's entry
    /// ahead. Nothing waits for those entries here: the walk reads each child's when it comes
    /// to it, so the misses of a position's later children overlap the walk of its earlier
    /// ones (read here, the walk would wait for all of them before it took a step).
    fn open(&mut self, code: u64, slot: usize, mover: usize) -> Result<()> {
        let g = self.g;
        let d = self.depth;
        let generation = self.table.generation();
        let f = &mut self.frames[d];
        f.code = code;
        f.slot = slot;
        f.generation = generation;
        f.mover = mover;
        f.next = 0;
        f.best = -2;
        f.longest = 0;
        let mut kids = std::mem::take(&mut f.kids);
        kids.clear();
        g.actions(&f.node, &mut self.actions);
        g.peek_children(&f.node, code, &self.actions, &mut self.peeks);
        self.edges += self.actions.len() as u64;
        // Asked for first, the told children's entries arrive while the others are made.
        for &(code, _) in self.peeks.iter().flatten() {
            self.table.prefetch(code);
        }
        for (&a, &peek) in self.actions.iter().zip(&self.peeks) {
            let kid = if let Some((code, m)) = peek {
                Kid {
                    action: a,
                    code,
                    mover: m as u8,
                    outcome: 0,
                }
            } else {
                g.child_into(&self.frames[d].node, a, &mut self.scratch);
                let child = &self.scratch;
                let (m, outcome) = match g.mover(child) {
                    None => (FINISHED, g.outcome(child, mover)),
                    Some(m) => (m as u8, 0),
                };
                Kid {
                    action: a,
                    code: g.code(child)?,
                    mover: m,
                    outcome,
                }
            };
            kids.push(kid);
        }
        for (k, peek) in kids.iter().zip(&self.peeks) {
            if peek.is_none() {
                self.table.prefetch(k.code);
            }
        }
        self.depth += 1;
        self.frames[d].kids = kids;
        Ok(())
    }

    /// Records the line from the start to the top frame's position, then `action` back to a
    /// position on it, unless a cycle is already known.
    fn close_cycle(&mut self, action: u32) {
        if self.cycle.is_none() {
            let mut line: Vec<u32> = self.frames[..self.depth - 1]
                .iter()
                .map(|f| f.kids[f.next - 1].action)
                .collect();
            line.push(action);
            self.cycle = Some(line);
        }
    }
}

/// How the positions are stored (the private `Direct` and `Slots` tables).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableKind {
    /// The direct table when the graph's codes have a board part and eight of its slabs fit
    /// the memory allowed, falling back to the hash table if it runs out of memory; the hash
    /// table otherwise.
    Auto,
    Direct,
    Hashed,
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
    enumerate_with(g, start, max_positions, max_bytes, stop, TableKind::Auto)
}

/// [`enumerate`] with the table chosen. A direct table needs [`Explore::boards`]; without it
/// the hash table is used.
pub fn enumerate_with<G: Explore>(
    g: &G,
    start: &G::Node,
    max_positions: Option<u64>,
    max_bytes: usize,
    stop: Option<&AtomicBool>,
    kind: TableKind,
) -> Result<StateGraph> {
    let hashed = || walk_with(g, start, max_positions, Slots::new(max_bytes), stop);
    let Some(boards) = g.boards() else {
        return hashed();
    };
    let fits = (boards as usize).saturating_mul(2 * 8) <= max_bytes;
    match kind {
        TableKind::Hashed => hashed(),
        TableKind::Direct => walk_with(
            g,
            start,
            max_positions,
            Direct::new(boards, max_bytes),
            stop,
        ),
        TableKind::Auto if !fits => hashed(),
        TableKind::Auto => {
            let direct = walk_with(
                g,
                start,
                max_positions,
                Direct::new(boards, max_bytes),
                stop,
            )?;
            if direct.stopped_by != GraphStop::Memory {
                return Ok(direct);
            }
            // More turn numbers than slabs fit: the hash table may hold more, if sparser.
            let mut again = hashed()?;
            again.seconds += direct.seconds;
            Ok(if again.positions >= direct.positions {
                again
            } else {
                direct
            })
        }
    }
}

fn walk_with<G: Explore, S: Store>(
    g: &G,
    start: &G::Node,
    max_positions: Option<u64>,
    table: S,
    stop: Option<&AtomicBool>,
) -> Result<StateGraph> {
    let t0 = Instant::now();
    let two = g.players() == 2;
    let mut walk = Walk {
        g,
        table,
        frames: Vec::new(),
        depth: 0,
        scratch: start.clone(),
        actions: Vec::new(),
        peeks: Vec::new(),
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
            if let Err(why) = walk.insert(start_code, DONE) {
                stopped_by = why;
            }
        }
        Some(m) => match walk.insert(start_code, ON_LINE) {
            Ok(slot) => {
                walk.frame_at(0).node.clone_from(start);
                walk.open(start_code, slot, m)?;
            }
            Err(why) => stopped_by = why,
        },
    }
    while stopped_by == GraphStop::Complete && walk.depth > 0 {
        let d = walk.depth - 1;
        steps += 1;
        if steps & 0xFFFF == 0 && stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            stopped_by = GraphStop::Interrupted;
            break;
        }
        let top = &mut walk.frames[d];
        if top.next == top.kids.len() {
            // Finished: its results are final (without a cycle).
            walk.depth = d;
            let best = if two { top.best.clamp(-1, 1) } else { 0 };
            let (code, mover, longest) = (top.code, top.mover, top.longest);
            let (slot, generation) = (top.slot, top.generation);
            walk.table.set(
                code,
                slot,
                generation,
                DONE | value_bits(best) | u64::from(longest.min(LONGEST_MAX)) << LONGEST_SHIFT,
            );
            if d > 0 {
                let parent = &mut walk.frames[d - 1];
                let v = if parent.mover == mover { best } else { -best };
                parent.fold(v, longest);
                if longest + 1 > LONGEST_MAX {
                    saturated = true;
                }
            }
            continue;
        }
        let k = top.kids[top.next];
        top.next += 1;
        if let Some(after) = top.kids.get(top.next) {
            walk.table.prefetch(after.code);
        }
        // Finished (in an earlier subtree, maybe a sibling's), on the line (a cycle: the
        // positions below this one on the line were finished when it came back to this
        // frame), a finished game, or new.
        let w = walk.table.get(k.code);
        if w & DONE != 0 {
            let parent_mover = top.mover;
            top.fold(stored_value(w, &k, parent_mover), longest_of(w));
            continue;
        }
        if w != 0 {
            walk.close_cycle(k.action);
            continue;
        }
        if k.mover == FINISHED {
            if let Err(why) = walk.insert(k.code, DONE) {
                stopped_by = why;
                break;
            }
            walk.frames[d].fold(k.outcome, 0);
            continue;
        }
        let slot = match walk.insert(k.code, ON_LINE) {
            Ok(slot) => slot,
            Err(why) => {
                stopped_by = why;
                break;
            }
        };
        walk.frame_at(d + 1);
        let (line, above) = walk.frames.split_at_mut(d + 1);
        g.child_into(&line[d].node, k.action, &mut above[0].node);
        walk.open(k.code, slot, usize::from(k.mover))?;
    }
    let complete = stopped_by == GraphStop::Complete;
    let acyclic = complete && walk.cycle.is_none();
    let table = &walk.table;
    let (value, longest) = if acyclic {
        let w = table.get(start_code);
        let value = (two && g.mover(start).is_some()).then(|| value_of(w));
        (value, Some(u64::from(longest_of(w))))
    } else {
        (None, None)
    };
    Ok(StateGraph {
        positions: table.len(),
        edges: walk.edges,
        longest,
        cycle: walk.cycle,
        value,
        stopped_by,
        seconds: t0.elapsed().as_secs_f64(),
        table_bytes: table.bytes(),
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
    state_graph_with(game, max_positions, max_bytes, stop, TableKind::Auto)
}

/// [`state_graph`] with the table chosen (for benchmarks and tests).
pub fn state_graph_with(
    game: &Game,
    max_positions: Option<u64>,
    max_bytes: usize,
    stop: Option<&AtomicBool>,
    kind: TableKind,
) -> Result<StateGraph> {
    let game = uncapped(game)?;
    crate::games::each_state!(game.new_state(), s => {
        let g = GameGraph::new(&s)?;
        enumerate_with(&g, &s, max_positions, max_bytes, stop, kind)
    })
}

#[cfg(test)]
mod tests;
