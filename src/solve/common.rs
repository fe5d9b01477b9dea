//! What both exact methods share, below them and the root that drives them: the options
//! ([`SolveOptions`], [`Method`], [`Order`]), the budget every thread charges ([`Budget`]) and
//! why a search ended ([`StoppedBy`]), the symmetric table keys ([`Symmetry`]), the outcome of a
//! finished game, and the one thing the root asks of a method (`Exact`).

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::time::{Duration, Instant};

use super::checkpoint::Checkpoint;
use crate::error::{Error, Result};
use crate::games::{Rules, MAX_PLAYERS};

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
    /// The value is proven, a winning root action found, and the other root actions were left
    /// unproven ([`SolveOptions::value_only`]).
    Value,
}

impl StoppedBy {
    /// The name Python's `SolveResult.stopped_by` gives.
    pub fn name(self) -> &'static str {
        match self {
            StoppedBy::Solved => "solved",
            StoppedBy::Nodes => "nodes",
            StoppedBy::Time => "time",
            StoppedBy::Interrupted => "interrupted",
            StoppedBy::Value => "value",
        }
    }
}

/// What to search for and how long.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Stop after about this many nodes (checked every 1,024 nodes per thread at most, more
    /// often where nodes are slow).
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
    /// Save the run there as it goes and resume a run saved there (alpha-beta only, outcomes
    /// only: not with `margin`).
    pub checkpoint: Option<Checkpoint>,
    /// With a [`Guide`]: alpha-beta orders the positions up to this many moves below the root
    /// by the guide's scores (after the table's move); the root's actions are solved in the
    /// guide's order whatever this is.
    pub guide_depth: usize,
    /// Stop as soon as one root action is proven to win: the value is then known (a win is
    /// the best there is), the other root actions stay unproven and `best` holds the winning
    /// actions proven so far. Outcomes only (not with `margin`).
    pub value_only: bool,
    /// Root actions to solve before the others, in this order (then the guide's order, or the
    /// actions'): knowledge of the root from elsewhere, a search's ranking say. Each must be
    /// legal at the root, once.
    pub try_first: Vec<u32>,
    /// Enhanced transposition cut-offs at positions with at least this many legal actions (0:
    /// none; never above [`super::alphabeta::MAX_CUTOFF_ACTIONS`]): before searching any child,
    /// every child's table entry is read (all of them asked of memory at once) and a child
    /// whose entry already refutes the window cuts the position off, as does a child that ends
    /// the game with a win. Alpha-beta only.
    pub cutoff_probes: usize,
}

/// Knowledge from outside the solver that ranks a position's actions (a trained network's
/// policy, say). The solver asks it for the order in which to try actions, never for a value:
/// the values, best actions and perfect lines it finds are the same with any guide or none,
/// only the nodes searched differ.
pub trait Guide<R>: Send + Sync {
    /// Writes into `scores` one score for each of `actions` (legal at the running position
    /// `s`, whose mover is to play), higher for an action to try sooner. A guide that cannot
    /// judge a position gives every action the same score.
    fn rank(&mut self, s: &R, actions: &[u32], scores: &mut Vec<f32>);
    /// A guide giving the same scores, for another thread.
    fn fork(&self) -> Box<dyn Guide<R>>;
}

/// A guide's score as an ordering key of 32 bits, smaller for a higher score (NaN last).
#[inline]
pub(super) fn guide_key(score: f32) -> u64 {
    if score.is_nan() {
        return u64::from(u32::MAX);
    }
    // The IEEE bits ordered as the numbers are, then turned round: higher first.
    let bits = score.to_bits();
    let ordered = if bits >> 31 == 1 {
        !bits
    } else {
        bits | 1 << 31
    };
    u64::from(u32::MAX - ordered)
}

/// How alpha-beta orders a position's actions after the table's best move (ties by action).
/// The values and best actions do not depend on it; only the nodes searched do.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// The game's own choice ([`Knowledge::solver_knowledge`](crate::games::Knowledge::solver_knowledge)): [`Order::Knowledge`] where its
    /// knowledge scores paid in the measurements of `docs/solved/`, [`Order::History`] where
    /// they did not.
    #[default]
    Auto,
    /// The game's knowledge score ([`Knowledge::playout_score`](crate::games::Knowledge::playout_score)) first, then history.
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
    /// Negamax alpha-beta over one shared table ([`super::alphabeta`]).
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
            checkpoint: None,
            guide_depth: 0,
            value_only: false,
            try_first: Vec::new(),
            cutoff_probes: 1,
        }
    }
}

/// A budget shared by every thread of one search.
pub struct Budget<'a> {
    max_nodes: Option<u64>,
    deadline: Option<Instant>,
    stop: Option<&'a AtomicBool>,
    nodes: AtomicU64,
    /// 0 while running, else `StoppedBy as u8 + 1`.
    reason: AtomicU8,
    /// Nodes a thread searches between looks at the budget (see [`Budget::due`]).
    interval: AtomicU64,
    /// When the budget was made, and the time of the last look (nanoseconds after it).
    started: Instant,
    last: AtomicU64,
}

/// The most nodes between looks at the budget, while nodes are quick.
const MAX_INTERVAL: u64 = 1024;
/// Looks closer together than this let the interval double (up to [`MAX_INTERVAL`]); looks
/// further apart than [`SLOW_GAP`] halve it (down to every node), so that a time budget and
/// Ctrl-C are seen within about that long even where one node takes milliseconds (Subsume
/// size 30 builds ~900 children a node).
const QUICK_GAP: u64 = 1_000_000;
const SLOW_GAP: u64 = 10_000_000;

impl<'a> Budget<'a> {
    /// A budget of `max_nodes` nodes and `time`, also stopped when `stop` is raised.
    pub fn new(
        max_nodes: Option<u64>,
        time: Option<Duration>,
        stop: Option<&'a AtomicBool>,
    ) -> Self {
        Budget {
            max_nodes,
            // A budget too far in the future for the clock is no limit.
            deadline: time.and_then(|t| Instant::now().checked_add(t)),
            stop,
            nodes: AtomicU64::new(0),
            reason: AtomicU8::new(0),
            interval: AtomicU64::new(1),
            started: Instant::now(),
            last: AtomicU64::new(0),
        }
    }

    /// Whether a thread with `pending` nodes not yet charged should charge them now: the
    /// interval starts at one node and doubles while looks come quicker than 1 ms, up to
    /// 1,024 nodes, and halves when they come slower than 10 ms.
    #[inline]
    pub(super) fn due(&self, pending: u64) -> bool {
        pending >= self.interval.load(Ordering::Relaxed)
    }

    fn pace(&self) {
        let now = u64::try_from(self.started.elapsed().as_nanos()).unwrap_or(u64::MAX);
        let gap = now.saturating_sub(self.last.swap(now, Ordering::Relaxed));
        let i = self.interval.load(Ordering::Relaxed);
        if gap < QUICK_GAP && i < MAX_INTERVAL {
            self.interval.store(i * 2, Ordering::Relaxed);
        } else if gap > SLOW_GAP && i > 1 {
            self.interval.store(i / 2, Ordering::Relaxed);
        }
    }

    pub(super) fn halt(&self, why: StoppedBy) {
        let _ =
            self.reason
                .compare_exchange(0, why as u8 + 1, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// Adds `n` nodes and checks every limit; false once the search must stop.
    pub(super) fn charge(&self, n: u64) -> bool {
        let total = self.nodes.fetch_add(n, Ordering::Relaxed) + n;
        self.pace();
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

    pub(super) fn stopped(&self) -> bool {
        self.reason.load(Ordering::Relaxed) != 0
    }

    pub(super) fn why(&self) -> StoppedBy {
        match self.reason.load(Ordering::Relaxed) {
            0 | 1 => StoppedBy::Solved,
            2 => StoppedBy::Nodes,
            3 => StoppedBy::Time,
            4 => StoppedBy::Interrupted,
            _ => StoppedBy::Value,
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
pub(super) struct Reach {
    pub(super) depth: u32,
    pub(super) capped: bool,
}

impl Reach {
    pub(super) fn join(&mut self, child: Reach) {
        self.depth = self.depth.max(child.depth + 1);
        self.capped |= child.capped;
    }
}

/// Table keys shared by positions that are images of each other under the game's symmetries.
///
/// A position's key is its board part (the stones' values of [`crate::games::zobrist`]) and its
/// turn part. The key of its image under a permutation `perm` has the same turn part and the
/// board part of the stones moved to `perm[site]`; the table uses the smallest of these keys,
/// so every image finds the same entry. An entry's best action is kept as the action of that
/// smallest image, and mapped back for the position that reads it.
///
/// The board parts of all images ([`Images`]) are kept per ply by the searches and brought from
/// a parent to its child by the cells the move changed ([`Symmetry::update`]), so a node costs a
/// few stones' worth of work, not one for every stone on the board; they are a fixed-width
/// array (unused symmetries stay zero) so that each stone is one vector operation.
pub struct Symmetry {
    count: usize,
    radix: usize,
    /// `stones[site · radix + c][j]`: the key value of cell value `c` (a stone of player
    /// c − 1; 0 for empty, all zero) moved to `perms[j][site]`.
    stones: Vec<Images>,
    perms: Vec<Vec<u16>>,
    inverse: Vec<Vec<u16>>,
}

/// The most symmetries a board can have here: 12 rotations, each with and without a reflection.
const MAX_SYMMETRIES: usize = 24;

/// The board parts of a position's images, one per symmetry (zero beyond the game's).
pub type Images = [u64; MAX_SYMMETRIES];

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
        let mut stones = vec![[0u64; MAX_SYMMETRIES]; sites * radix];
        for site in 0..sites {
            for c in 1..radix {
                for (j, p) in perms.iter().enumerate() {
                    stones[site * radix + c][j] =
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

    /// The value of cell value `c` at `site` in every image (zero for an empty cell or a value
    /// the table does not know).
    #[inline]
    fn stone(&self, site: usize, c: i8) -> Option<&Images> {
        if c > 0 {
            self.stones.get(site * self.radix + c as usize)
        } else {
            None
        }
    }

    /// The board parts of the images of a board.
    #[inline]
    pub fn images(&self, cells: &[i8]) -> Images {
        let mut board = [0u64; MAX_SYMMETRIES];
        for (site, &c) in cells.iter().enumerate() {
            if let Some(z) = self.stone(site, c) {
                xor_into(&mut board, z);
            }
        }
        board
    }

    /// Brings `images` of the board `before` to those of the board `after` (of the same game):
    /// only the cells that differ cost anything.
    #[inline]
    pub fn update(&self, images: &mut Images, before: &[i8], after: &[i8]) {
        for (site, (&b, &a)) in before.iter().zip(after).enumerate() {
            if a != b {
                if let Some(z) = self.stone(site, b) {
                    xor_into(images, z);
                }
                if let Some(z) = self.stone(site, a) {
                    xor_into(images, z);
                }
            }
        }
    }

    /// The smallest key among the images of a position whose key is `key` and whose images'
    /// board parts are `images`, and the symmetry that gives it (the first, if several do).
    #[inline]
    pub fn pick(&self, images: &Images, key: u64) -> (u64, usize) {
        // The identity's board part is the position's own, so this is the turn part.
        let turn = key ^ images[0];
        let mut best = (key, 0);
        for (j, b) in images[..self.count].iter().enumerate().skip(1) {
            let k = turn ^ b;
            if k < best.0 {
                best = (k, j);
            }
        }
        best
    }

    /// The smallest key among the images of the position (board `cells`, key `key`), and the
    /// symmetry that gives it (the first, if several do).
    #[inline]
    pub fn canonical(&self, cells: &[i8], key: u64) -> (u64, usize) {
        self.pick(&self.images(cells), key)
    }

    /// Action `a` of the position as the action of its image under symmetry `j`.
    #[inline]
    pub(super) fn onto_image(&self, j: usize, a: u32) -> u32 {
        self.perms[j].get(a as usize).map_or(a, |&t| u32::from(t))
    }

    /// Action `a` of the image under symmetry `j` as the position's own.
    #[inline]
    pub(super) fn back_from_image(&self, j: usize, a: u32) -> u32 {
        self.inverse[j].get(a as usize).map_or(a, |&t| u32::from(t))
    }
}

/// `into[j] ^= z[j]` for every symmetry: one fixed-width loop, vectorised.
#[inline]
fn xor_into(into: &mut Images, z: &Images) {
    for (b, z) in into.iter_mut().zip(z) {
        *b ^= z;
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
pub(super) trait Exact<R: Rules> {
    /// The exact value of `child` for `mover`, `None` once the budget stopped the search.
    fn exact(&mut self, child: &R, mover: usize) -> Option<i32>;
    fn flush(&mut self);
}

/// The action's bits of an ordering key (`solve` refuses games of more than 2²³ actions).
pub(super) const ACTION_BITS: u64 = (1 << 23) - 1;

#[cfg(test)]
mod tests {
    use super::*;

    /// A time too long for the clock is no limit (it used to panic adding it to now).
    #[test]
    fn a_budget_beyond_the_clock_is_no_limit() {
        let b = Budget::new(None, Some(Duration::MAX), None);
        assert!(b.charge(1) && !b.stopped());
        assert_eq!(b.why(), StoppedBy::Solved);
    }

    /// The look interval starts at every node, doubles while looks come quickly, up to 1,024,
    /// and halves when they come slowly; a raised flag is seen at the next look.
    #[test]
    fn looks_come_every_node_where_nodes_are_slow() {
        let stop = AtomicBool::new(false);
        let b = Budget::new(None, None, Some(&stop));
        assert!(b.due(1));
        // Quick looks (a stall of the machine may halve it on the way, so a few more).
        for _ in 0..200 {
            if !b.due(MAX_INTERVAL - 1) {
                break;
            }
            b.charge(1);
        }
        assert!(!b.due(MAX_INTERVAL - 1) && b.due(MAX_INTERVAL));
        for _ in 0..3 {
            std::thread::sleep(Duration::from_nanos(SLOW_GAP * 2));
            b.charge(1);
        }
        assert!(b.due(MAX_INTERVAL / 8) && !b.due(MAX_INTERVAL / 8 - 1));
        stop.store(true, Ordering::Relaxed);
        assert!(!b.charge(1));
        assert_eq!(b.why(), StoppedBy::Interrupted);
    }
}
