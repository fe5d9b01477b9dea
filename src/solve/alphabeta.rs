//! Exact values of two-player positions: negamax alpha-beta over [`Rules`], with the shared
//! transposition table of [`super::table`].
//!
//! * **Values.** The outcome for the player to move (+1 win, 0 draw, −1 loss, from the game's
//!   `returns()`, so a truncation by the move cap is a draw), or with `margin` the final score
//!   difference (mover − other, from `scores()`; 0 for a truncated game).
//! * **Turns.** A child whose mover is the same player (Faraday's runs of placements, skipped
//!   turns) keeps the sign; a child with the other player to move negates it.
//! * **The move cap.** Keys leave the move count out, but a position with fewer moves left may
//!   have another value. Every entry says whether its value rests on any line that reached the
//!   cap: if none did, it holds whenever at least as many moves are left as its longest line
//!   used; otherwise only for exactly the same number of moves left. With the cap the game tree
//!   is finite, so a position repeated on the current line is simply searched again with fewer
//!   moves left: results stay exact without any repetition rule.
//! * **Partial results.** The root's actions are solved one by one, each exactly, so when a
//!   budget (nodes, time, an interrupt) stops the search every root outcome already proven is
//!   kept, and a proven win decides the root's value even before the others are known.
//! * **Threads.** Root actions are handed out to the threads in turn; the threads share the
//!   table. Every stored value is exact for its bound, so results (values, outcomes, best
//!   actions, the principal line) are the same for any thread count; only node counts differ.
//! * **Ordering.** The table's best action first, then the others by [`Order`]: the game's
//!   knowledge score ([`Knowledge::playout_score`]) where the game chose it, and a history score
//!   (actions that caused cut-offs before, weighted by the depth left); ties by action.
//! * **Methods.** [`solve`] hands each root action to alpha-beta or, with
//!   [`Method::ProofNumber`], to the proof-number search of [`super::pns`]; the root's
//!   bookkeeping (budgets, partial results, threads, the perfect line) is the same for both.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::pns::Prover;
use super::table::{Bound, Entry, Table, TableMemory, NO_MOVE, UNLIMITED};
use crate::error::{Asked, Error, GameOver, Result};
use crate::games::{Knowledge, Rules, MAX_PLAYERS};

/// Why a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoppedBy {
    /// Every root action is proven.
    Solved,
    /// The node budget ran out.
    Nodes,
    /// The time budget ran out.
    Time,
    /// The caller's stop flag was raised (Ctrl-C).
    Interrupted,
}

impl StoppedBy {
    /// The name Python's `SolveResult.stopped_by` gives.
    pub fn name(self) -> &'static str {
        match self {
            StoppedBy::Solved => "solved",
            StoppedBy::Nodes => "nodes",
            StoppedBy::Time => "time",
            StoppedBy::Interrupted => "interrupted",
        }
    }
}

/// What to search for and how long.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Stop after about this many nodes (checked every 1,024 nodes per thread).
    pub max_nodes: Option<u64>,
    /// Stop after this long.
    pub time: Option<Duration>,
    /// Search threads (1 or more).
    pub threads: usize,
    /// Find the best final score difference instead of the outcome.
    pub margin: bool,
    /// Bytes for the transposition table.
    pub table_bytes: usize,
    /// The game's move cap, `None` for games that have none.
    pub max_moves: Option<usize>,
    /// Site permutations under which the game plays the same ([`crate::games::Game::symmetries`]),
    /// identity first: positions that are images of each other share one table entry. Empty
    /// or the identity alone: none.
    pub symmetries: Vec<Vec<u16>>,
    /// How each root action is solved.
    pub method: Method,
    /// How alpha-beta orders a position's actions after the table's move.
    pub order: Order,
}

/// How alpha-beta orders a position's actions after the table's best move (ties by action).
/// The values and best actions do not depend on it; only the nodes searched do.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// The game's own choice ([`Knowledge::solver_knowledge`]): [`Order::Knowledge`] where its
    /// knowledge scores paid in the measurements of `docs/solved/`, [`Order::History`] where
    /// they did not.
    #[default]
    Auto,
    /// The game's knowledge score ([`Knowledge::playout_score`]) first, then history.
    Knowledge,
    /// History only.
    History,
    /// History first, the knowledge score to break its ties.
    HistoryKnowledge,
}

impl Order {
    /// The names the `solved` example's `--order` uses.
    pub const NAMES: [&'static str; 4] = ["auto", "knowledge", "history", "history-knowledge"];

    pub fn name(self) -> &'static str {
        match self {
            Order::Auto => "auto",
            Order::Knowledge => "knowledge",
            Order::History => "history",
            Order::HistoryKnowledge => "history-knowledge",
        }
    }

    /// The order named `name`, or an error naming the ones there are.
    pub fn parse(name: &str) -> Result<Order> {
        [
            Order::Auto,
            Order::Knowledge,
            Order::History,
            Order::HistoryKnowledge,
        ]
        .into_iter()
        .find(|o| o.name() == name)
        .ok_or_else(|| {
            Error::InvalidOption(format!(
                "solve: unknown order {name:?}; the orders are {}",
                Order::NAMES.join(", ")
            ))
        })
    }
}

/// The search that solves each root action.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// Negamax alpha-beta over one shared table (this module).
    #[default]
    AlphaBeta,
    /// Depth-first proof-number search ([`super::pns`]), a table per thread; outcomes only,
    /// no margin.
    ProofNumber,
}

impl Method {
    /// The names Python and the command line use.
    pub const NAMES: [&'static str; 2] = ["alphabeta", "pns"];

    pub fn name(self) -> &'static str {
        match self {
            Method::AlphaBeta => "alphabeta",
            Method::ProofNumber => "pns",
        }
    }

    /// The method named `name`, or an error naming the ones there are.
    pub fn parse(name: &str) -> Result<Method> {
        match name {
            "alphabeta" => Ok(Method::AlphaBeta),
            "pns" => Ok(Method::ProofNumber),
            _ => Err(Error::InvalidOption(format!(
                "solve: unknown method {name:?}; the methods are {}",
                Method::NAMES.join(", ")
            ))),
        }
    }
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            max_nodes: None,
            time: None,
            threads: 1,
            margin: false,
            table_bytes: 64 << 20,
            max_moves: None,
            symmetries: Vec::new(),
            method: Method::AlphaBeta,
            order: Order::Auto,
        }
    }
}

/// A solved (or partly solved) position.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveResult {
    /// The value for the player to move, `None` if not proven.
    pub value: Option<i32>,
    /// Every legal root action, ascending.
    pub actions: Vec<u32>,
    /// The value of each root action for the root's mover, `None` where not proven.
    pub outcomes: Vec<Option<i32>>,
    /// The actions that keep the best value (empty unless the value is proven).
    pub best: Vec<u32>,
    /// One perfect line to the end of the game (empty unless solved).
    pub pv: Vec<u32>,
    pub nodes: u64,
    pub seconds: f64,
    pub stopped_by: StoppedBy,
    /// Entries in the table and the bytes it takes.
    pub table_entries: usize,
    pub table_bytes: usize,
}

/// A budget shared by every thread of one search.
pub struct Budget<'a> {
    max_nodes: Option<u64>,
    deadline: Option<Instant>,
    stop: Option<&'a AtomicBool>,
    nodes: AtomicU64,
    /// 0 while running, else `StoppedBy as u8 + 1`.
    reason: AtomicU8,
}

impl<'a> Budget<'a> {
    /// A budget of `max_nodes` nodes and `time`, also stopped when `stop` is raised.
    pub fn new(
        max_nodes: Option<u64>,
        time: Option<Duration>,
        stop: Option<&'a AtomicBool>,
    ) -> Self {
        Budget {
            max_nodes,
            deadline: time.map(|t| Instant::now() + t),
            stop,
            nodes: AtomicU64::new(0),
            reason: AtomicU8::new(0),
        }
    }

    fn halt(&self, why: StoppedBy) {
        let _ =
            self.reason
                .compare_exchange(0, why as u8 + 1, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// Adds `n` nodes and checks every limit; false once the search must stop.
    pub(super) fn charge(&self, n: u64) -> bool {
        let total = self.nodes.fetch_add(n, Ordering::Relaxed) + n;
        if self.max_nodes.is_some_and(|m| total >= m) {
            self.halt(StoppedBy::Nodes);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.halt(StoppedBy::Time);
        }
        if self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            self.halt(StoppedBy::Interrupted);
        }
        !self.stopped()
    }

    fn stopped(&self) -> bool {
        self.reason.load(Ordering::Relaxed) != 0
    }

    fn why(&self) -> StoppedBy {
        match self.reason.load(Ordering::Relaxed) {
            0 | 1 => StoppedBy::Solved,
            2 => StoppedBy::Nodes,
            3 => StoppedBy::Time,
            _ => StoppedBy::Interrupted,
        }
    }

    /// Nodes searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }
}

/// What a subtree's value rests on: the longest line it looked at and whether any line reached
/// the move cap.
#[derive(Clone, Copy, Debug, Default)]
struct Reach {
    depth: u32,
    capped: bool,
}

impl Reach {
    fn join(&mut self, child: Reach) {
        self.depth = self.depth.max(child.depth + 1);
        self.capped |= child.capped;
    }
}

/// Stored root outcomes are offset to keep them apart from the "unproven" marker.
const OFFSET: i64 = 1 << 32;

/// Values beyond every real one (scores stay far inside ±10⁴).
const INF: i32 = 30_000;

/// Table keys shared by positions that are images of each other under the game's symmetries.
///
/// A position's key is its board part (the stones' values of [`crate::games::zobrist`]) and its
/// turn part. The key of its image under a permutation `perm` has the same turn part and the
/// board part of the stones moved to `perm[site]`; the table uses the smallest of these keys,
/// so every image finds the same entry. An entry's best action is kept as the action of that
/// smallest image, and mapped back for the position that reads it.
pub struct Symmetry {
    count: usize,
    radix: usize,
    /// `stones[(site · radix + c) · count + j]`: the key value of cell value `c` (a stone of
    /// player c − 1; 0 for empty) moved to `perms[j][site]`.
    stones: Vec<u64>,
    perms: Vec<Vec<u16>>,
    inverse: Vec<Vec<u16>>,
}

/// The most symmetries a board can have here: 12 rotations, each with and without a reflection.
const MAX_SYMMETRIES: usize = 24;

impl Symmetry {
    /// `None` without any symmetry but the identity; an error for permutations that are not of
    /// `sites` sites or do not start with the identity.
    pub fn new(perms: &[Vec<u16>], sites: usize, players: usize) -> Result<Option<Symmetry>> {
        if perms.len() <= 1 {
            return Ok(None);
        }
        let identity: Vec<u16> = (0..sites as u16).collect();
        let valid = perms.len() <= MAX_SYMMETRIES
            && perms[0] == identity
            && perms.iter().all(|p| {
                let mut q = p.clone();
                q.sort_unstable();
                q == identity
            });
        if !valid {
            return Err(Error::InvalidOption(format!(
                "solve: symmetries must be at most {MAX_SYMMETRIES} permutations of the \
                 {sites} sites, the identity first"
            )));
        }
        let count = perms.len();
        let radix = players + 1;
        let mut stones = vec![0u64; sites * radix * count];
        for site in 0..sites {
            for c in 1..radix {
                for (j, p) in perms.iter().enumerate() {
                    stones[(site * radix + c) * count + j] =
                        crate::games::zobrist::stone(usize::from(p[site]), c - 1);
                }
            }
        }
        let inverse = perms
            .iter()
            .map(|p| {
                let mut inv = vec![0u16; sites];
                for (s, &t) in p.iter().enumerate() {
                    inv[usize::from(t)] = s as u16;
                }
                inv
            })
            .collect();
        Ok(Some(Symmetry {
            count,
            radix,
            stones,
            perms: perms.to_vec(),
            inverse,
        }))
    }

    /// The smallest key among the images of the position (board `cells`, key `key`), and the
    /// symmetry that gives it (the first, if several do).
    #[inline]
    pub fn canonical(&self, cells: &[i8], key: u64) -> (u64, usize) {
        let mut board = [0u64; MAX_SYMMETRIES];
        let board = &mut board[..self.count];
        for (site, &c) in cells.iter().enumerate() {
            if c > 0 {
                let at = (site * self.radix + c as usize) * self.count;
                for (b, z) in board.iter_mut().zip(&self.stones[at..at + self.count]) {
                    *b ^= z;
                }
            }
        }
        // The identity's board part is the position's own, so this is the turn part.
        let turn = key ^ board[0];
        let mut best = (key, 0);
        for (j, b) in board.iter().enumerate().skip(1) {
            let k = turn ^ b;
            if k < best.0 {
                best = (k, j);
            }
        }
        best
    }

    /// Action `a` of the position as the action of its image under symmetry `j`.
    #[inline]
    fn onto_image(&self, j: usize, a: u32) -> u32 {
        self.perms[j].get(a as usize).map_or(a, |&t| u32::from(t))
    }

    /// Action `a` of the image under symmetry `j` as the position's own.
    #[inline]
    fn back_from_image(&self, j: usize, a: u32) -> u32 {
        self.inverse[j].get(a as usize).map_or(a, |&t| u32::from(t))
    }
}

/// The outcome of a finished game for `player` (+1, 0, −1), from its `returns()`: a
/// truncation by the move cap is a draw.
pub(super) fn outcome<R: Rules>(s: &R, player: usize) -> i32 {
    let players = s.num_players();
    let (mut ranks, mut utility) = ([0.0; MAX_PLAYERS], [0.0; MAX_PLAYERS]);
    if !s.returns_into(&mut ranks[..players], &mut utility[..players]) {
        return 0;
    }
    utility[player].round() as i32
}

/// What the root needs of a search: a child's exact value, and the nodes it has not yet
/// charged to the budget handed in.
trait Exact<R: Rules> {
    /// The exact value of `child` for `mover`, `None` once the budget stopped the search.
    fn exact(&mut self, child: &R, mover: usize) -> Option<i32>;
    fn flush(&mut self);
}

impl<R: Knowledge> Exact<R> for Searcher<'_, R> {
    fn exact(&mut self, child: &R, mover: usize) -> Option<i32> {
        Searcher::exact(self, child, mover)
    }
    fn flush(&mut self) {
        Searcher::flush(self)
    }
}

impl<R: Knowledge> Exact<R> for Prover<'_, R> {
    fn exact(&mut self, child: &R, mover: usize) -> Option<i32> {
        Prover::exact(self, child, mover)
    }
    fn flush(&mut self) {
        Prover::flush(self)
    }
}

/// The action's bits of an ordering key (`solve` refuses games of more than 2²³ actions).
const ACTION_BITS: u64 = (1 << 23) - 1;

/// One thread's search.
struct Searcher<'a, R: Rules> {
    table: &'a Table<'a>,
    budget: &'a Budget<'a>,
    symmetry: Option<&'a Symmetry>,
    margin: bool,
    cap: Option<usize>,
    /// Legal-action buffers, one per ply.
    bufs: Vec<Vec<u32>>,
    /// Child positions, one per ply, copied over with `clone_from` (no allocation a node).
    kids: Vec<Option<R>>,
    history: Vec<u32>,
    /// The order after the table's move (never [`Order::Auto`]).
    order: Order,
    /// The ordering's packed keys (the node being ordered only).
    keys: Vec<u64>,
    /// Nodes not yet charged to the budget.
    pending: u64,
    _game: std::marker::PhantomData<R>,
}

impl<'a, R: Knowledge> Searcher<'a, R> {
    fn new(
        table: &'a Table<'a>,
        budget: &'a Budget<'a>,
        symmetry: Option<&'a Symmetry>,
        opts: &SolveOptions,
        actions: usize,
        order: Order,
    ) -> Self {
        Searcher {
            table,
            budget,
            symmetry,
            margin: opts.margin,
            cap: opts.max_moves,
            bufs: Vec::new(),
            kids: Vec::new(),
            history: vec![0; actions],
            order,
            keys: Vec::new(),
            pending: 0,
            _game: std::marker::PhantomData,
        }
    }

    /// Moves left before the cap (`UNLIMITED` without one).
    fn left(&self, s: &R) -> u32 {
        match self.cap {
            Some(c) => (c.saturating_sub(s.move_count()) as u32).min(UNLIMITED - 1),
            None => UNLIMITED,
        }
    }

    /// The value of a finished game for `player`.
    fn terminal(&self, s: &R, player: usize) -> (i32, Reach) {
        let reach = Reach {
            depth: 0,
            capped: s.truncated(),
        };
        if self.margin {
            if s.truncated() {
                return (0, reach);
            }
            let sc = s.scores().unwrap_or_default();
            let mine = sc.get(player).copied().unwrap_or(0.0);
            let theirs = sc.get(1 - player).copied().unwrap_or(0.0);
            return ((mine - theirs).round() as i32, reach);
        }
        (outcome(s, player), reach)
    }

    /// The value of `child` (just reached from a position of `mover`) for `mover`, searched
    /// within (alpha, beta) of `mover`'s values. `None` once the budget stopped the search.
    fn child_value(
        &mut self,
        child: &R,
        mover: usize,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<(i32, Reach)> {
        match child.current_player() {
            None => Some(self.terminal(child, mover)),
            Some(p) if p == mover => self.search(child, alpha, beta, ply),
            Some(_) => self.search(child, -beta, -alpha, ply).map(|(v, r)| (-v, r)),
        }
    }

    /// Negamax with fail-soft bounds: the value of the running position `s` for its mover, exact
    /// when strictly inside (alpha, beta), else a bound on the failing side.
    fn search(&mut self, s: &R, mut alpha: i32, beta: i32, ply: usize) -> Option<(i32, Reach)> {
        self.pending += 1;
        if self.pending >= 1024 {
            let n = std::mem::take(&mut self.pending);
            if !self.budget.charge(n) {
                return None;
            }
        }
        let mover = s.current_player()?;
        let left = self.left(s);
        // The table's key, and the symmetry that takes the position to the one it stands for.
        let (key, image) = match self.symmetry {
            Some(y) => y.canonical(s.cells(), s.key()),
            None => (s.key(), 0),
        };
        let mut first = NO_MOVE;
        if let Some(mut e) = self.table.probe(key) {
            if let Some(y) = self.symmetry {
                e.best = y.back_from_image(image, e.best);
            }
            if e.usable(left) {
                let reach = Reach {
                    depth: if e.cap_free { e.moves } else { 0 },
                    capped: !e.cap_free,
                };
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.value >= beta,
                    Bound::Upper => e.value <= alpha,
                };
                if cut {
                    return Some((e.value, reach));
                }
            }
            first = e.best;
        }
        let alpha0 = alpha;
        if self.bufs.len() <= ply {
            self.bufs.resize_with(ply + 1, Vec::new);
            self.kids.resize_with(ply + 1, || None);
        }
        let mut moves = std::mem::take(&mut self.bufs[ply]);
        let mut child = self.kids[ply].take().unwrap_or_else(|| s.clone());
        s.legal_actions_into(&mut moves);
        // The table's move first, then the order's keys (the game's own knowledge,
        // `Knowledge::playout_score`: in Subsume the perimeter, in Windflowers the safe actions; and
        // history), then the lower action: one packed key an action, sorted without allocating.
        let history = &self.history;
        let order = self.order;
        self.keys.clear();
        self.keys.extend(moves.iter().map(|&a| {
            let h = u64::from(u32::MAX - history.get(a as usize).copied().unwrap_or(0));
            let score = || u64::from(255 - s.playout_score(a as usize).min(255));
            let rest = match order {
                Order::History => h << 23,
                Order::HistoryKnowledge => h << 31 | score() << 23,
                Order::Knowledge | Order::Auto => score() << 55 | h << 23,
            };
            u64::from(a != first) << 63 | rest | u64::from(a)
        }));
        self.keys.sort_unstable();
        for (m, k) in moves.iter_mut().zip(&self.keys) {
            *m = (k & ACTION_BITS) as u32;
        }
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        let mut reach = Reach::default();
        let mut aborted = false;
        let top = if self.margin { INF } else { 1 };
        for &a in &moves {
            child.clone_from(s);
            child.apply_unchecked(a as usize);
            let Some((v, r)) = self.child_value(&child, mover, alpha, beta, ply + 1) else {
                aborted = true;
                break;
            };
            reach.join(r);
            if v > best {
                best = v;
                best_move = a;
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta || best >= top {
                if let Some(h) = self.history.get_mut(a as usize) {
                    *h = h.saturating_add(1 + left.min(64));
                }
                break;
            }
        }
        self.bufs[ply] = moves;
        self.kids[ply] = Some(child);
        if aborted {
            return None;
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta || best >= top {
            Bound::Lower
        } else {
            Bound::Exact
        };
        // A win (the largest outcome) and an upper bound of a loss are exact whatever the
        // window.
        let extreme = best == 1 || (best == -1 && bound == Bound::Upper);
        let bound = if !self.margin && extreme {
            Bound::Exact
        } else {
            bound
        };
        let e = Entry {
            value: best,
            bound,
            cap_free: !reach.capped,
            moves: if reach.capped { left } else { reach.depth },
            best: match self.symmetry {
                Some(y) => y.onto_image(image, best_move),
                None => best_move,
            },
        };
        self.table.store(key, e);
        Some((best, reach))
    }

    /// The exact value of `child` for `mover`.
    fn exact(&mut self, child: &R, mover: usize) -> Option<i32> {
        let (lo, hi) = if self.margin { (-INF, INF) } else { (-2, 2) };
        self.child_value(child, mover, lo, hi, 1).map(|(v, _)| v)
    }

    fn flush(&mut self) {
        let n = std::mem::take(&mut self.pending);
        self.budget.charge(n);
    }
}

/// Checks that `state` can be solved: two players and not over.
pub fn check_solvable<R: Rules>(state: &R) -> Result<()> {
    if state.num_players() != 2 {
        return Err(Error::InvalidOption(format!(
            "{}: solve handles two-player games only (this one has {} players); use \
             state_graph for whole-graph analysis of games with more players",
            state.game_name(),
            state.num_players()
        )));
    }
    if state.is_terminal() {
        return Err(GameOver {
            game: state.game_name(),
            asked: Asked::Solve,
        }
        .into());
    }
    Ok(())
}

/// Solves `root` (two players, not over) within the options' budgets. `stop`, when raised,
/// interrupts the search (Ctrl-C).
pub fn solve<R: Knowledge>(
    root: &R,
    opts: &SolveOptions,
    stop: Option<&AtomicBool>,
) -> Result<SolveResult> {
    check_solvable(root)?;
    if opts.threads == 0 {
        return Err(Error::InvalidOption(
            "solve: threads must be at least 1".to_string(),
        ));
    }
    if opts.margin && opts.method == Method::ProofNumber {
        return Err(Error::InvalidOption(
            "solve: the margin needs method \"alphabeta\" (a proof-number search proves \
             outcomes only)"
                .to_string(),
        ));
    }
    if root.num_actions() as u64 > ACTION_BITS + 1 {
        return Err(Error::InvalidOption(format!(
            "solve: at most {} actions, not {}",
            ACTION_BITS + 1,
            root.num_actions()
        )));
    }
    let pns = opts.method == Method::ProofNumber;
    let start = Instant::now();
    let threads = opts.threads.min(root.legal_actions().len()).max(1);
    // Alpha-beta's table is shared; each proof-number thread keeps its own share of the bytes.
    let mut memory = TableMemory::new(if pns { 0 } else { opts.table_bytes })?;
    let table = memory.table();
    let proof_bytes = opts.table_bytes / threads;
    let proof_tables = Mutex::new((0usize, 0usize));
    let kept = Mutex::new(None);
    let symmetry = Symmetry::new(
        &opts.symmetries,
        root.board().num_sites(),
        root.num_players(),
    )?;
    let symmetry = symmetry.as_ref();
    let budget = Budget::new(opts.max_nodes, opts.time, stop);
    let mover = root.current_player().unwrap_or(0);
    let actions = root.legal_actions();
    let outcomes: Vec<AtomicU64> = actions.iter().map(|_| AtomicU64::new(u64::MAX)).collect();
    let next = AtomicUsize::new(0);
    let run = |s: &mut dyn Exact<R>| {
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= actions.len() || budget.stopped() {
                break;
            }
            let mut child = root.clone();
            child.apply_unchecked(actions[i] as usize);
            match s.exact(&child, mover) {
                Some(v) => outcomes[i].store((i64::from(v) + OFFSET) as u64, Ordering::Relaxed),
                None => break,
            }
        }
        s.flush();
    };
    let order = match opts.order {
        Order::Auto if root.solver_knowledge() => Order::Knowledge,
        Order::Auto => Order::History,
        o => o,
    };
    let searcher =
        || Searcher::<R>::new(&table, &budget, symmetry, opts, root.num_actions(), order);
    let prover = || Prover::<R>::new(proof_bytes, &budget, symmetry);
    let work = |_: usize| {
        if pns {
            let mut p = prover();
            run(&mut p);
            let mut t = proof_tables.lock().unwrap_or_else(|e| e.into_inner());
            t.0 += p.table_entries();
            t.1 += p.table_bytes();
            // One prover's table is kept for the perfect line, which asks again what it proved.
            let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
            if kept.is_none() {
                *kept = Some(p);
            }
        } else {
            run(&mut searcher());
        }
    };
    if threads == 1 {
        work(0);
    } else {
        std::thread::scope(|scope| {
            for t in 0..threads {
                let work = &work;
                scope.spawn(move || work(t));
            }
        });
    }
    let outcomes: Vec<Option<i32>> = outcomes
        .iter()
        .map(|o| {
            let v = o.load(Ordering::Relaxed);
            (v != u64::MAX).then_some((v as i64 - OFFSET) as i32)
        })
        .collect();
    let all = outcomes.iter().all(Option::is_some);
    let top = outcomes.iter().flatten().copied().max();
    // A proven win is the best there is, even with other actions unproven.
    let value = if all {
        top
    } else {
        top.filter(|&v| !opts.margin && v == 1)
    };
    let best: Vec<u32> = match value {
        Some(v) => actions
            .iter()
            .zip(&outcomes)
            .filter(|(_, o)| **o == Some(v))
            .map(|(&a, _)| a)
            .collect(),
        None => Vec::new(),
    };
    let stopped_by = if all { StoppedBy::Solved } else { budget.why() };
    let mut pv = Vec::new();
    if all {
        if pns {
            let kept = kept.lock().unwrap_or_else(|e| e.into_inner()).take();
            let mut p = kept.unwrap_or_else(prover);
            pv = principal_line(&mut p, root, value.unwrap_or(0));
            p.flush();
        } else {
            let mut s = searcher();
            pv = principal_line(&mut s, root, value.unwrap_or(0));
            s.flush();
        }
    }
    let (table_entries, table_bytes) = if pns {
        proof_tables.into_inner().unwrap_or_else(|e| e.into_inner())
    } else {
        (table.filled(), table.bytes())
    };
    Ok(SolveResult {
        value,
        actions,
        outcomes,
        best,
        pv,
        nodes: budget.nodes(),
        seconds: start.elapsed().as_secs_f64(),
        stopped_by,
        table_entries,
        table_bytes,
    })
}

/// One perfect line from `root`, whose value is `value`: at each position the lowest action
/// whose exact value equals the position's (found again through the table, so cheap), to the
/// end of the game. Cut short if the budget stops it.
fn principal_line<R: Rules>(s: &mut dyn Exact<R>, root: &R, value: i32) -> Vec<u32> {
    let mut line = Vec::new();
    let mut pos = root.clone();
    let mut v = value;
    let mut buf = Vec::new();
    while let Some(mover) = pos.current_player() {
        pos.legal_actions_into(&mut buf);
        let mut found = None;
        for &a in &buf {
            let mut child = pos.clone();
            child.apply_unchecked(a as usize);
            match s.exact(&child, mover) {
                Some(cv) if cv == v => {
                    found = Some((a, child));
                    break;
                }
                Some(_) => {}
                None => return line,
            }
        }
        let Some((a, child)) = found else {
            return line;
        };
        line.push(a);
        // The child's value for its own mover.
        if let Some(p) = child.current_player() {
            if p != mover {
                v = -v;
            }
        }
        pos = child;
    }
    line
}

#[cfg(test)]
mod tests;
