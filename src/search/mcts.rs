//! UCT Monte Carlo tree search over the [`Rules`] trait, with MCTS-Solver for two players.
//!
//! One iteration walks from the root by UCB1, expands at most one new node, finishes the game
//! with the game's own uniformly random playout, and adds the whole returns vector to every node
//! on the path. Each node keeps the summed return of the player who moved *into* it, so a parent
//! compares its children from the point of view of the player who chooses among them. That is
//! right for any number of players and for turns where one player moves several times running
//! (Faraday's placements).
//!
//! The tree is an arena (`Vec<Node>`): a node's children are one contiguous block, named by the
//! index of its first child and their count, and are allocated together the second time the
//! node is reached. A node is 24 bytes ([`NODE_BYTES`]). Unvisited children always come after
//! the visited ones in their block: the next one to try is drawn at random from the unvisited
//! tail and swapped to its front, which costs one random number per new node and keeps
//! selection from scanning children that were never tried.
//!
//! GRAVE (Generalized RAVE, Cazenave 2015; [`Selection::Grave`]) keeps, beside the arena and
//! index for index, all-moves-as-first statistics of every child: over the playouts through its
//! parent, the summed return of the child's mover in those where that player placed on the
//! child's site at any later point of the iteration ([`AMAF_BYTES`] a node). A child's mean is
//! mixed with the AMAF mean of its action at the *reference*: the closest node on the path where
//! the same player chooses and which has at least `grave_ref` playouts (a node's AMAF statistics
//! are its chooser's, so only such a node can serve); the reference's statistics are read by
//! action from a row per player, loaded once per reference and kept in step by the AMAF update.
//! Without a reference the choice is UCT's, drawing the same random numbers. MAST playouts
//! ([`Playouts::Mast`]) play the better of two uniform draws by the mover's mean return so far;
//! knowledge playouts ([`Playouts::Knowledge`]) the better by the game's
//! [`Knowledge::playout_score`], by MAST when the scores tie.
//!
//! MCTS-Solver (Winands, Björnsson and Saito, 2008), two-player games only: a terminal node is
//! proven won, drawn or lost for its mover; a node is proven won for the player to move there
//! when one child is proven won for them, and proven otherwise once every child is proven (the
//! best of them). Selection never enters a child proven lost while another remains; a proven
//! draw is scored without a playout. The search stops as soon as the root is proven.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::error::{Asked, Error, GameOver, Result};
use crate::games::{each_state, Game, Knowledge, Rules, State, MAX_PLAYERS};
use crate::rng::Rng;
use crate::sim::batch::MAX_THREADS;

/// The default exploration constant: √2, the UCB1 constant for returns in [−1, 1] as Ludii uses.
pub const DEFAULT_C: f64 = std::f64::consts::SQRT_2;

/// The default node limit, across all threads: 240 MB of tree at most.
pub const DEFAULT_MAX_NODES: usize = 10_000_000;

/// The fewest nodes a tree may be limited to (per thread).
pub const MIN_NODES_PER_THREAD: usize = 1024;

/// Bytes per tree node.
pub const NODE_BYTES: usize = std::mem::size_of::<Node>();

/// How many iterations run between two looks at the clock under a time budget.
const CLOCK_EVERY: u64 = 8;

/// Iterations slower than this have the clock read after each one (a read costs about 25 ns).
const SLOW_ITERATION: std::time::Duration = std::time::Duration::from_micros(50);

/// `Node::proof` of a node not (yet) proven.
pub(super) const OPEN: i8 = i8::MIN;

/// One node of the tree, shared by UCT ([`Mcts`]) and PUCT ([`super::puct`]). `proof` is the
/// proven outcome for `mover` (+1 won, 0 drawn, −1 lost) or [`OPEN`]; PUCT, which proves
/// nothing, marks a leaf waiting for its evaluation there instead.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    /// Summed return of `mover` over the playouts (evaluations) through this node.
    pub(super) value: f64,
    pub(super) visits: u32,
    /// Index of the first child; 0 while the node has no children (the root is never a child).
    pub(super) first: u32,
    /// The action that leads here from the parent.
    pub(super) action: u16,
    /// Number of children.
    pub(super) len: u16,
    /// Number of children tried so far: they come first in the block (UCT only).
    pub(super) tried: u16,
    /// The player who moved into this node (at the root: the player to move there).
    pub(super) mover: u8,
    pub(super) proof: i8,
}

impl Node {
    pub(super) fn new(action: u16, mover: u8) -> Node {
        Node {
            value: 0.0,
            visits: 0,
            first: 0,
            action,
            len: 0,
            tried: 0,
            mover,
            proof: OPEN,
        }
    }

    pub(super) fn children(&self) -> std::ops::Range<usize> {
        self.first as usize..self.first as usize + self.len as usize
    }
}

/// How a node chooses the child to descend into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    /// UCB1 over each child's mean return.
    Uct,
    /// Generalized RAVE (Cazenave 2015): each child's mean is mixed with the all-moves-as-first
    /// mean of its action, taken at the closest node on the path where the same player chooses
    /// and which has enough playouts (see the module documentation).
    Grave,
}

impl Selection {
    /// The name used by Python and agent strings.
    pub fn name(self) -> &'static str {
        match self {
            Selection::Uct => "uct",
            Selection::Grave => "grave",
        }
    }

    /// The selection named `name`.
    pub fn from_name(name: &str) -> Result<Selection> {
        match name {
            "uct" => Ok(Selection::Uct),
            "grave" => Ok(Selection::Grave),
            _ => Err(Error::InvalidOption(format!(
                "MCTS selection must be one of uct, grave; got {name:?}"
            ))),
        }
    }
}

/// How a new node is evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Playouts {
    /// Uniformly random actions, by the game's own sampler.
    Random,
    /// Move-Average Sampling (MAST, Finnsson and Björnsson 2008): every playout action is the
    /// better, by its mean return so far for the player making it, of two uniformly drawn legal
    /// actions.
    Mast,
    /// MAST with the game's knowledge first: every playout action is the better of two
    /// uniformly drawn legal actions by the game's [`Knowledge::playout_score`], and by MAST's
    /// means when the scores tie. In a game without knowledge (every score alike) it plays as
    /// MAST.
    Knowledge,
}

impl Playouts {
    /// The name used by Python and agent strings.
    pub fn name(self) -> &'static str {
        match self {
            Playouts::Random => "random",
            Playouts::Mast => "mast",
            Playouts::Knowledge => "knowledge",
        }
    }

    /// The playout policy named `name`.
    pub fn from_name(name: &str) -> Result<Playouts> {
        match name {
            "random" => Ok(Playouts::Random),
            "mast" => Ok(Playouts::Mast),
            "knowledge" => Ok(Playouts::Knowledge),
            _ => Err(Error::InvalidOption(format!(
                "MCTS playouts must be one of random, mast, knowledge; got {name:?}"
            ))),
        }
    }

    /// Whether the playouts keep and use MAST's table.
    pub fn uses_mast(self) -> bool {
        matches!(self, Playouts::Mast | Playouts::Knowledge)
    }

    /// Whether the playouts use the game's [`Knowledge::playout_score`].
    pub fn uses_knowledge(self) -> bool {
        self == Playouts::Knowledge
    }
}

/// A named configuration, resolved per game when a search starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    /// The strongest settings measured for the game at equal time per move (the strength
    /// ladder and the duels in `docs/search.md`, "Stronger search", chose them).
    Strong,
}

impl Preset {
    /// The names of the presets.
    pub const NAMES: &'static [&'static str] = &["strong"];

    /// The name used by Python and agent strings.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Strong => "strong",
        }
    }

    /// The preset named `name`.
    pub fn from_name(name: &str) -> Result<Preset> {
        match name {
            "strong" => Ok(Preset::Strong),
            _ => Err(Error::InvalidOption(format!(
                "MCTS preset must be one of {}; got {name:?}",
                Preset::NAMES.join(", ")
            ))),
        }
    }

    /// The settings the preset gives `cfg` for the game named `game`: selection, c, grave_ref,
    /// grave_bias and playouts; the budget, threads, seed and the rest stay as they are.
    pub fn apply(self, game: &str, cfg: &MctsConfig) -> MctsConfig {
        // From the equal-time duels of `docs/search.md` (0.1 s a move): GRAVE everywhere;
        // MAST playouts where they won on top of it, with the game's playout knowledge where
        // that won on top of MAST (Windflowers, Subsume); a little UCB exploration where it won
        // (Faraday).
        let (c, grave_ref, playouts) = match (self, game) {
            (Preset::Strong, "faraday") => (0.3, DEFAULT_GRAVE_REF, Playouts::Random),
            (Preset::Strong, "windflowers") => (0.0, DEFAULT_GRAVE_REF, Playouts::Knowledge),
            (Preset::Strong, "subsume") => (0.0, DEFAULT_GRAVE_REF, Playouts::Knowledge),
            (Preset::Strong, _) => (0.0, DEFAULT_GRAVE_REF, Playouts::Random),
        };
        MctsConfig {
            selection: Selection::Grave,
            c,
            grave_ref,
            grave_bias: DEFAULT_GRAVE_BIAS,
            playouts,
            preset: None,
            ..cfg.clone()
        }
    }
}

/// The default `grave_ref`: a node needs this many playouts before its AMAF statistics are used.
pub const DEFAULT_GRAVE_REF: u32 = 50;

/// The exploration constant GRAVE gets when none is given: 0, as in Ludii's MC-GRAVE (the AMAF
/// statistics of untried children do the exploring).
pub const DEFAULT_GRAVE_C: f64 = 0.0;

/// The default `grave_bias` of the β schedule.
pub const DEFAULT_GRAVE_BIAS: f64 = 1e-6;

/// Bytes of AMAF statistics per tree node, on top of [`NODE_BYTES`], when the selection is GRAVE.
pub const AMAF_BYTES: usize = std::mem::size_of::<Amaf>();

/// All-moves-as-first statistics of one child: over the playouts through its parent in which
/// the child's mover played the child's action at some later point, the summed return of that
/// mover. Kept beside the node arena, index for index, only when the selection is GRAVE.
#[derive(Clone, Copy, Debug, Default)]
struct Amaf {
    value: f32,
    visits: u32,
}

/// The settings of a search. Check them with [`MctsConfig::validate`].
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// Iterations in all (split over the threads); `None` for no limit.
    pub iterations: Option<u64>,
    /// Seconds of wall time; `None` for no limit. The first budget reached stops the search.
    pub time: Option<f64>,
    /// The UCB1 exploration constant.
    pub c: f64,
    /// Threads for root parallelism (1 to [`MAX_THREADS`]).
    pub threads: usize,
    /// MCTS-Solver; `None` turns it on for two-player games. It is never used with more players.
    pub solver: Option<bool>,
    /// The seed: with an iteration budget alone a search is a pure function of the state, the
    /// settings and the seed.
    pub seed: u64,
    /// Largest number of tree nodes, summed over threads; each thread's tree gets an equal share.
    pub max_nodes: usize,
    /// Keep the tree between consecutive searches of one game (see [`Mcts`]).
    pub reuse: bool,
    /// How children are chosen.
    pub selection: Selection,
    /// GRAVE: the fewest playouts through a node for its AMAF statistics to be used by the
    /// nodes below it; `u32::MAX` never uses them (GRAVE then plays as UCT).
    pub grave_ref: u32,
    /// GRAVE: the bias b of the β schedule β = m / (m + n + b·m·n), with n the child's
    /// playouts and m its AMAF playouts.
    pub grave_bias: f64,
    /// How new nodes are evaluated.
    pub playouts: Playouts,
    /// A named configuration: when set, it decides `selection`, `c`, `grave_ref`, `grave_bias`
    /// and `playouts` for each game searched (see [`Preset::apply`]), whatever they say here.
    pub preset: Option<Preset>,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            iterations: Some(1000),
            time: None,
            c: DEFAULT_C,
            threads: 1,
            solver: None,
            seed: 0,
            max_nodes: DEFAULT_MAX_NODES,
            reuse: false,
            selection: Selection::Uct,
            grave_ref: DEFAULT_GRAVE_REF,
            grave_bias: DEFAULT_GRAVE_BIAS,
            playouts: Playouts::Random,
            preset: None,
        }
    }
}

impl MctsConfig {
    /// An iteration budget with every other setting at its default.
    pub fn with_iterations(iterations: u64) -> MctsConfig {
        MctsConfig {
            iterations: Some(iterations),
            ..MctsConfig::default()
        }
    }

    /// Fails with [`Error::InvalidOption`], naming what is allowed, on settings that make no
    /// sense.
    pub fn validate(&self) -> Result<()> {
        let bad = |m: String| Err(Error::InvalidOption(m));
        if self.iterations.is_none() && self.time.is_none() {
            return bad("MCTS needs a budget: iterations (≥ 1), time (seconds > 0) or both".into());
        }
        if self.iterations == Some(0) {
            return bad("MCTS iterations must be at least 1 (or None with a time budget)".into());
        }
        if let Some(t) = self.time {
            if !(t.is_finite() && t > 0.0) {
                return bad(format!(
                    "MCTS time must be a finite number of seconds > 0 (or None), got {t}"
                ));
            }
        }
        if !(self.c.is_finite() && self.c >= 0.0) {
            return bad(format!(
                "MCTS c must be a finite number ≥ 0, got {}",
                self.c
            ));
        }
        if self.threads == 0 || self.threads > MAX_THREADS {
            return bad(format!(
                "MCTS threads must be 1 to {MAX_THREADS}, got {}",
                self.threads
            ));
        }
        if self.grave_ref == 0 {
            return bad("MCTS grave_ref must be at least 1 playout (or infinite)".into());
        }
        if !(self.grave_bias.is_finite() && self.grave_bias >= 0.0) {
            return bad(format!(
                "MCTS grave_bias must be a finite number ≥ 0, got {}",
                self.grave_bias
            ));
        }
        if self.max_nodes > u32::MAX as usize {
            return bad(format!(
                "MCTS max_nodes must be at most {} (nodes are numbered by 32 bits), got {}",
                u32::MAX,
                self.max_nodes
            ));
        }
        if self.max_nodes / self.threads < MIN_NODES_PER_THREAD {
            return bad(format!(
                "MCTS max_nodes must be at least {MIN_NODES_PER_THREAD} per thread ({} for {} \
                 thread(s)), got {}",
                MIN_NODES_PER_THREAD * self.threads,
                self.threads,
                self.max_nodes
            ));
        }
        Ok(())
    }

    /// The settings a search of the game named `game` runs with: the preset's, if one is set.
    pub fn resolved(&self, game: &str) -> MctsConfig {
        match self.preset {
            Some(p) => p.apply(game, self),
            None => self.clone(),
        }
    }

    fn solver_for(&self, players: usize) -> bool {
        players == 2 && self.solver.unwrap_or(true)
    }
}

/// What ended a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum StoppedBy {
    /// The iteration budget was spent.
    Iterations,
    /// The time budget ran out.
    Time,
    /// The tree reached the node limit.
    Nodes,
    /// The root was proven won, drawn or lost.
    Proven,
    /// The caller asked the search to stop (see [`Mcts::search_until`]).
    Interrupted,
}

impl StoppedBy {
    /// The name Python sees: "iterations", "time", "nodes" or "proven".
    pub fn name(self) -> &'static str {
        match self {
            StoppedBy::Iterations => "iterations",
            StoppedBy::Time => "time",
            StoppedBy::Nodes => "nodes",
            StoppedBy::Proven => "proven",
            StoppedBy::Interrupted => "interrupted",
        }
    }
}

/// What a search found. Per-action vectors have one entry per legal root action, ascending.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The legal root actions, ascending.
    pub actions: Vec<u32>,
    /// Visits of each root action, summed over threads.
    pub visits: Vec<u64>,
    /// Mean return of each root action for the player to move at the root (0 if unvisited).
    pub values: Vec<f64>,
    /// Proven outcome of each root action for the player to move (+1, 0, −1), if proven.
    pub proofs: Vec<Option<i8>>,
    /// The size of the action space (for the policy vector).
    pub num_actions: usize,
    /// The root's mean return for the player to move.
    pub value: f64,
    /// The action to play.
    pub best: u32,
    /// Iterations run, over all threads.
    pub iterations: u64,
    /// Wall time of the search.
    pub seconds: f64,
    /// Tree nodes allocated, over all threads.
    pub nodes: u64,
    /// The root's proven outcome for the player to move (+1 won, 0 drawn, −1 lost).
    pub proven: Option<i8>,
    /// The principal variation: the most-visited path from the root.
    pub pv: Vec<u32>,
    /// What ended the search.
    pub stopped_by: StoppedBy,
}

impl SearchResult {
    /// Root visit fractions over the whole action space.
    pub fn policy(&self) -> Vec<f64> {
        let mut out = vec![0.0; self.num_actions];
        let total: u64 = self.visits.iter().sum();
        if total > 0 {
            for (&a, &n) in self.actions.iter().zip(&self.visits) {
                out[a as usize] = n as f64 / total as f64;
            }
        }
        out
    }

    /// [`SearchResult::policy`] into `out` (`num_actions` long), as f32.
    pub fn policy_into(&self, out: &mut [f32]) {
        out.fill(0.0);
        let total: u64 = self.visits.iter().sum();
        if total == 0 {
            return;
        }
        for (&a, &n) in self.actions.iter().zip(&self.visits) {
            out[a as usize] = (n as f64 / total as f64) as f32;
        }
    }
}

/// One thread's tree: the arena shared by UCT and PUCT.
#[derive(Clone, Debug, Default)]
pub(super) struct Tree {
    pub(super) nodes: Vec<Node>,
    /// GRAVE's statistics, one per node (empty for UCT and PUCT).
    amaf: Vec<Amaf>,
}

/// Scratch space of one search thread, reused across iterations.
struct Scratch {
    path: Vec<u32>,
    buf: Vec<u32>,
    ranks: Vec<f64>,
    returns: Vec<f64>,
    /// The playout's actions with their players, when GRAVE or MAST needs them.
    played: Vec<(u8, u16)>,
    /// The number of actions of the game (the row length of `seen`, `dense` and `mast`).
    actions: usize,
    /// GRAVE: per (player, action), the number of the last AMAF update in which that player
    /// played that site below the node being updated (stamps, so nothing is cleared between
    /// iterations).
    seen: Vec<u32>,
    /// The stamp of the current AMAF update (never 0 once one ran).
    stamp: u32,
    /// GRAVE: per (player, action), the AMAF statistics of that action at the node
    /// `dense_of[player]` (zero for actions it has no child for): the reference node's row,
    /// read by action without searching its children. `update_amaf` keeps it in step, so it
    /// stays valid across iterations while the same reference serves.
    dense: Vec<Amaf>,
    /// Per player, the node whose children's statistics `dense` holds (`usize::MAX`: none).
    dense_of: Vec<usize>,
    /// MAST: per (player, action), the summed return and count over this search's iterations.
    mast: Vec<MastStat>,
}

impl Scratch {
    fn new<R: Rules>(root: &R, lim: &Limits) -> Scratch {
        let players = root.num_players();
        let actions = root.num_actions();
        let grave = lim.selection == Selection::Grave;
        Scratch {
            path: Vec::with_capacity(64),
            buf: Vec::with_capacity(64),
            ranks: vec![0.0; players],
            returns: vec![0.0; players],
            played: Vec::with_capacity(if lim.records() { 4 * actions } else { 0 }),
            actions,
            seen: vec![0; if grave { players * actions } else { 0 }],
            stamp: 0,
            dense: vec![Amaf::default(); if grave { players * actions } else { 0 }],
            dense_of: vec![usize::MAX; players],
            mast: vec![
                MastStat::default();
                if lim.playouts.uses_mast() {
                    players * actions
                } else {
                    0
                }
            ],
        }
    }
}

/// Writes a finished game's returns (zero when truncated).
fn terminal_returns<R: Rules>(state: &R, s: &mut Scratch) {
    final_returns(state, &mut s.ranks, &mut s.returns);
}

/// Writes a finished game's returns into `returns` (zero when truncated), with `ranks` as
/// scratch (both `num_players` long).
pub(super) fn final_returns<R: Rules>(state: &R, ranks: &mut [f64], returns: &mut [f64]) {
    if !state.returns_into(ranks, returns) {
        returns.fill(0.0);
    }
}

/// The proven outcome `v` for player `from`, seen by player `to` (two players, zero-sum).
fn flip(v: i8, from: u8, to: u8) -> i8 {
    if from == to {
        v
    } else {
        -v
    }
}

/// How one thread's search ended.
pub(super) struct ThreadOutcome {
    pub(super) iterations: u64,
    pub(super) stopped: StoppedBy,
}

/// Budgets and switches shared by the threads of one search.
#[derive(Clone, Copy)]
struct Limits<'a> {
    /// Set from outside to end the search early (Ctrl-C).
    stop: Option<&'a AtomicBool>,
    iterations: u64,
    deadline: Option<Instant>,
    max_nodes: usize,
    c: f64,
    solver: bool,
    selection: Selection,
    grave_ref: u32,
    grave_bias: f64,
    playouts: Playouts,
}

impl Limits<'_> {
    /// Whether iterations record their playouts' actions.
    fn records(&self) -> bool {
        self.selection == Selection::Grave || self.playouts != Playouts::Random
    }
}

/// GRAVE's running choice over the children of one node (see [`Tree::select_grave`]).
struct GravePick {
    solver: bool,
    /// The bias b of the β schedule.
    b: f64,
    /// c·√(ln N), the exploration factor (0: none).
    k: f64,
    best: usize,
    best_score: f64,
    /// Untried children without AMAF statistics seen so far, and the one drawn among them.
    fresh: usize,
    fresh_pick: usize,
}

impl GravePick {
    fn new(solver: bool, b: f64, k: f64) -> GravePick {
        GravePick {
            solver,
            b,
            k,
            best: 0,
            best_score: f64::NEG_INFINITY,
            fresh: 0,
            fresh_pick: usize::MAX,
        }
    }

    /// The index in `kids` of the child to descend into, `amaf(j, child)` giving the AMAF
    /// statistics of child j's action at the reference. The first `tried` children are the
    /// tried ones; the rest have never been entered, so they have no visits and no proof and
    /// score by their AMAF mean alone.
    // Indexed loops: callgrind counts about 7 % more instructions a GRAVE iteration with
    // `enumerate` over the subslices.
    #[allow(clippy::needless_range_loop)]
    #[inline(always)]
    fn scan<F: Fn(usize, &Node) -> Amaf>(
        &mut self,
        kids: &[Node],
        tried: usize,
        rng: &mut Rng,
        amaf: F,
    ) -> usize {
        if self.k > 0.0 {
            self.scan_tried::<true, F>(kids, tried, rng, &amaf);
        } else {
            self.scan_tried::<false, F>(kids, tried, rng, &amaf);
        }
        for j in tried..kids.len() {
            let ch = &kids[j];
            debug_assert!(ch.visits == 0 && ch.proof == OPEN);
            self.untried(j, amaf(j, ch), rng);
        }
        if self.fresh_pick != usize::MAX {
            self.fresh_pick
        } else {
            self.best
        }
    }

    /// The tried children, the first `tried` of `kids`; `EXPLORE` when k > 0.
    #[allow(clippy::needless_range_loop)]
    #[inline(always)]
    fn scan_tried<const EXPLORE: bool, F: Fn(usize, &Node) -> Amaf>(
        &mut self,
        kids: &[Node],
        tried: usize,
        rng: &mut Rng,
        amaf: &F,
    ) {
        let (b, k, solver) = (self.b, self.k, self.solver);
        let mut best = self.best;
        let mut best_score = self.best_score;
        for j in 0..tried.min(kids.len()) {
            let ch = &kids[j];
            if solver && ch.proof == -1 {
                continue;
            }
            let am = amaf(j, ch);
            if ch.visits == 0 {
                // Tried but never backed up (a search stopped by the node limit): as untried.
                self.best = best;
                self.best_score = best_score;
                self.untried(j, am, rng);
                best = self.best;
                best_score = self.best_score;
                continue;
            }
            let m = f64::from(am.visits);
            // (1 − β)·v/n + β·a/m with β = m / D, D = m + n + b·m·n, is
            // (v·(1 + b·m) + a) / D: one division.
            let n = f64::from(ch.visits);
            let mixed = (ch.value * (1.0 + b * m) + f64::from(am.value)) / (m + n + b * m * n);
            let score = if EXPLORE { mixed + k / n.sqrt() } else { mixed };
            if score > best_score {
                best_score = score;
                best = j;
            }
        }
        self.best = best;
        self.best_score = best_score;
    }

    /// Child j, never backed up, with AMAF statistics `am` at the reference.
    #[inline(always)]
    fn untried(&mut self, j: usize, am: Amaf, rng: &mut Rng) {
        if am.visits == 0 {
            self.fresh += 1;
            if rng.below(self.fresh) == 0 {
                self.fresh_pick = j;
            }
        } else if self.fresh == 0 {
            // Once a child without statistics is seen it is chosen over any score.
            let score = f64::from(am.value) / f64::from(am.visits);
            if score > self.best_score {
                self.best_score = score;
                self.best = j;
            }
        }
    }
}

impl Tree {
    /// A tree holding only the root, for `state` (not terminal).
    pub(super) fn new<R: Rules>(state: &R) -> Tree {
        let p = state.current_player().unwrap_or(0) as u8;
        Tree {
            nodes: vec![Node::new(0, p)],
            amaf: Vec::new(),
        }
    }

    /// Runs iterations until a budget is spent or the root is proven.
    ///
    /// The stop flag is read every iteration (one relaxed load). Under a time budget the clock
    /// is read after every iteration while they are slower than [`SLOW_ITERATION`] (on a large
    /// board one takes milliseconds, and a budget should not overshoot by eight of them), and
    /// every [`CLOCK_EVERY`] iterations while they are quick.
    fn run<R: Knowledge>(&mut self, root: &R, lim: &Limits, rng: &mut Rng) -> ThreadOutcome {
        let mut s = Scratch::new(root, lim);
        // The iterations' position, copied over from the root each time (no allocation).
        let mut state = root.clone();
        if lim.selection == Selection::Grave {
            self.amaf.resize(self.nodes.len(), Amaf::default());
        } else {
            self.amaf = Vec::new();
        }
        let mut done = 0u64;
        let mut every = CLOCK_EVERY;
        let mut last_clock = lim.deadline.map(|_| (Instant::now(), 0u64));
        loop {
            if self.nodes[0].proof != OPEN {
                return ThreadOutcome {
                    iterations: done,
                    stopped: StoppedBy::Proven,
                };
            }
            if done >= lim.iterations {
                return ThreadOutcome {
                    iterations: done,
                    stopped: StoppedBy::Iterations,
                };
            }
            if lim.stop.is_some_and(|f| f.load(Ordering::Relaxed)) {
                return ThreadOutcome {
                    iterations: done,
                    stopped: StoppedBy::Interrupted,
                };
            }
            if let (Some(deadline), Some((last, last_done))) = (lim.deadline, last_clock) {
                if done % every == 0 {
                    let now = Instant::now();
                    if now >= deadline {
                        return ThreadOutcome {
                            iterations: done,
                            stopped: StoppedBy::Time,
                        };
                    }
                    // Every iteration at first and while iterations are slow, else every few.
                    let since = (done - last_done) as u32;
                    every = if since == 0 || now - last > SLOW_ITERATION * since {
                        1
                    } else {
                        CLOCK_EVERY
                    };
                    last_clock = Some((now, done));
                }
            }
            if !self.iterate(root, &mut state, lim, rng, &mut s) {
                return ThreadOutcome {
                    iterations: done,
                    stopped: StoppedBy::Nodes,
                };
            }
            done += 1;
        }
    }

    /// Allocates the children of `node` (state `state`, not terminal), one per legal action in
    /// ascending order (left in `buf`); false when they would pass the node limit `max`.
    pub(super) fn expand<R: Rules>(
        &mut self,
        node: usize,
        state: &R,
        max: usize,
        buf: &mut Vec<u32>,
    ) -> bool {
        state.legal_actions_into(buf);
        if self.nodes.len() + buf.len() > max {
            return false;
        }
        // A tree that cannot grow (memory refused) is full: the search ends as at the node
        // limit, never with an allocation failure's abort.
        if self.nodes.try_reserve(buf.len()).is_err() {
            return false;
        }
        let mover = state.current_player().unwrap_or(0) as u8;
        let first = self.nodes.len();
        self.nodes
            .extend(buf.iter().map(|&a| Node::new(a as u16, mover)));
        if !self.amaf.is_empty() {
            self.amaf.resize(self.nodes.len(), Amaf::default());
        }
        let n = &mut self.nodes[node];
        n.first = first as u32;
        n.len = buf.len() as u16;
        true
    }

    /// The n-player backup: every node on `path` adds the return of its mover (the player who
    /// moved into it) from `returns`, and `visits` to its visit count (0 when the visit was
    /// counted already, as a virtual loss).
    #[inline]
    pub(super) fn backup(&mut self, path: &[u32], returns: &[f64], visits: u32, offset: f64) {
        for &i in path {
            let n = &mut self.nodes[i as usize];
            n.visits += visits;
            n.value += returns[n.mover as usize] + offset;
        }
    }

    /// The child of `node` to descend into: the next untried child if any (drawn at random
    /// from the untried tail), else the best by UCB1. With the solver, children proven lost
    /// for the mover are skipped while others remain.
    fn select(&mut self, node: usize, lim: &Limits, rng: &mut Rng) -> usize {
        let parent = self.nodes[node];
        let range = parent.children();
        if parent.tried < parent.len {
            // Children before `first + tried` have been tried; draw the next from the rest.
            let i = range.start + parent.tried as usize;
            let j = i + rng.below(range.end - i);
            self.nodes.swap(i, j);
            self.nodes[node].tried += 1;
            return i;
        }
        let k = lim.c * f64::from(parent.visits.max(1)).ln().sqrt();
        let mut best = range.start;
        let mut best_score = f64::NEG_INFINITY;
        for (i, ch) in self.nodes[range.clone()].iter().enumerate() {
            let inv = 1.0 / f64::from(ch.visits);
            let score = if lim.solver && ch.proof == -1 {
                f64::NEG_INFINITY
            } else {
                ch.value * inv + k * inv.sqrt()
            };
            if score > best_score {
                best_score = score;
                best = range.start + i;
            }
        }
        best
    }

    /// Swaps the child at `i` of `node` to the front of its untried tail when it is untried,
    /// counts it as tried, and returns where it now is.
    fn mark_tried(&mut self, node: usize, i: usize) -> usize {
        let parent = self.nodes[node];
        let front = parent.first as usize + parent.tried as usize;
        if i < front {
            return i;
        }
        self.nodes.swap(i, front);
        self.amaf.swap(i, front);
        self.nodes[node].tried += 1;
        front
    }

    /// GRAVE's choice among the children of `node`, whose chooser's closest ancestor (or
    /// `node` itself) with at least `grave_ref` playouts is `reference`.
    ///
    /// A child's score is (1 − β)·mean + β·amaf + c·√(ln N / n), with β = m / (m + n + b·m·n),
    /// n its playouts, m the AMAF playouts of its action at the reference and amaf their mean;
    /// an untried child scores its AMAF mean alone. Untried children without AMAF statistics
    /// (a pass, say, or a site never reached below the reference) come first, drawn at random.
    ///
    /// The reference's statistics are read by action from `s.dense` (loaded once for the
    /// reference and kept in step by [`Tree::update_amaf`]) unless the reference is `node`
    /// itself, whose children's statistics are read in place.
    fn select_grave(
        &mut self,
        node: usize,
        reference: usize,
        lim: &Limits,
        rng: &mut Rng,
        s: &mut Scratch,
    ) -> usize {
        let parent = self.nodes[node];
        let range = parent.children();
        // c = 0 (GRAVE's default) makes k 0 whatever ln N is: no logarithm then.
        let k = if lim.c > 0.0 {
            lim.c * f64::from(parent.visits.max(1)).ln().sqrt()
        } else {
            0.0
        };
        let kids = &self.nodes[range.clone()];
        let tried = usize::from(parent.tried).min(kids.len());
        let mut pick = GravePick::new(lim.solver, lim.grave_bias, k);
        let j = if reference == node {
            let stats = &self.amaf[range.clone()];
            let stats = &stats[..kids.len()];
            pick.scan(kids, tried, rng, |j, _| stats[j])
        } else {
            let p = usize::from(kids.first().map_or(0, |ch| ch.mover));
            self.load_dense(s, p, reference);
            let row = &s.dense[p * s.actions..(p + 1) * s.actions];
            pick.scan(kids, tried, rng, |_, ch| {
                row.get(usize::from(ch.action)).copied().unwrap_or_default()
            })
        };
        self.mark_tried(node, range.start + j)
    }

    /// Makes player `p`'s row of `s.dense` hold the AMAF statistics of the children of
    /// `reference` by action (the row of the node it held before is cleared first).
    fn load_dense(&self, s: &mut Scratch, p: usize, reference: usize) {
        if s.dense_of[p] == reference {
            return;
        }
        let row = &mut s.dense[p * s.actions..(p + 1) * s.actions];
        if let Some(old) = self.nodes.get(s.dense_of[p]) {
            for ch in &self.nodes[old.children()] {
                if let Some(d) = row.get_mut(usize::from(ch.action)) {
                    *d = Amaf::default();
                }
            }
        }
        let r = self.nodes[reference].children();
        for (ch, am) in self.nodes[r.clone()].iter().zip(&self.amaf[r]) {
            if let Some(d) = row.get_mut(usize::from(ch.action)) {
                *d = *am;
            }
        }
        s.dense_of[p] = reference;
    }

    /// GRAVE's update after an iteration: every child, along the path, whose action its mover
    /// played later in the iteration (in the tree or the playout) adds the return to its AMAF
    /// statistics. Only site actions (below `sites`) take AMAF statistics.
    fn update_amaf(&mut self, s: &mut Scratch, sites: usize) {
        let actions = s.actions;
        s.stamp = s.stamp.wrapping_add(1);
        if s.stamp == 0 {
            s.seen.fill(0);
            s.stamp = 1;
        }
        let now = s.stamp;
        let sites = sites.min(actions);
        for &(p, a) in &s.played {
            let a = usize::from(a);
            if a < sites {
                s.seen[usize::from(p) * actions + a] = now;
            }
        }
        for d in (0..s.path.len().saturating_sub(1)).rev() {
            let child = self.nodes[s.path[d + 1] as usize];
            let p = usize::from(child.mover);
            let a = usize::from(child.action);
            if a < sites {
                s.seen[p * actions + a] = now;
            }
            let ret = s.returns[p] as f32;
            let row = &s.seen[p * actions..(p + 1) * actions];
            let parent = s.path[d] as usize;
            let range = self.nodes[parent].children();
            let kids = &self.nodes[range.clone()];
            let stats = &mut self.amaf[range];
            // The reference row of `p` copies these statistics when it is this node's.
            let mut dense =
                (s.dense_of[p] == parent).then(|| &mut s.dense[p * actions..(p + 1) * actions]);
            for (ch, am) in kids.iter().zip(stats.iter_mut()) {
                let a = usize::from(ch.action);
                if row.get(a) == Some(&now) {
                    am.value += ret;
                    am.visits += 1;
                    if let Some(d) = dense.as_deref_mut().and_then(|r| r.get_mut(a)) {
                        *d = *am;
                    }
                }
            }
        }
    }

    /// MAST's update after an iteration: every action of the tree path and the playout adds
    /// the return of the player who made it.
    fn update_mast(&self, s: &mut Scratch, actions: usize) {
        for &i in &s.path[1..] {
            let n = self.nodes[i as usize];
            s.mast[usize::from(n.mover) * actions + usize::from(n.action)]
                .add(s.returns[usize::from(n.mover)] as f32);
        }
        for &(p, a) in &s.played {
            s.mast[usize::from(p) * actions + usize::from(a)].add(s.returns[usize::from(p)] as f32);
        }
    }

    /// One iteration; false (and nothing changed but the tree's scratch) when the node limit
    /// stopped it.
    fn iterate<R: Knowledge>(
        &mut self,
        root: &R,
        state: &mut R,
        lim: &Limits,
        rng: &mut Rng,
        s: &mut Scratch,
    ) -> bool {
        state.clone_from(root);
        s.path.clear();
        s.path.push(0);
        s.played.clear();
        let grave = lim.selection == Selection::Grave;
        // GRAVE: per player, the deepest node so far on the path where that player chooses and
        // which has at least `grave_ref` playouts.
        let mut refs = [usize::MAX; MAX_PLAYERS];
        let mut node = 0usize;
        let mut proven_leaf = false;
        loop {
            let n = self.nodes[node];
            if node != 0 && n.proof != OPEN {
                // A proven node (a draw, or a terminal): its outcome needs no playout.
                let other = 1 - n.mover as usize;
                s.returns[n.mover as usize] = f64::from(n.proof);
                s.returns[other] = -f64::from(n.proof);
                break;
            }
            if n.first == 0 {
                if state.is_terminal() {
                    terminal_returns(state, s);
                    proven_leaf = lim.solver;
                    break;
                }
                if node != 0 && n.visits == 0 {
                    // A new node: evaluate it by a playout.
                    if lim.records() {
                        recorded_playout(state, rng, s, lim.playouts);
                    } else {
                        state.random_playout(rng, &mut s.buf);
                    }
                    terminal_returns(state, s);
                    break;
                }
                if !self.expand(node, state, lim.max_nodes, &mut s.buf) {
                    return false;
                }
            }
            let child = if grave {
                let chooser = usize::from(self.nodes[self.nodes[node].first as usize].mover);
                if n.visits >= lim.grave_ref {
                    refs[chooser] = node;
                }
                match refs[chooser] {
                    usize::MAX => self.select(node, lim, rng),
                    r => self.select_grave(node, r, lim, rng, s),
                }
            } else {
                self.select(node, lim, rng)
            };
            state.apply_unchecked(self.nodes[child].action as usize);
            s.path.push(child as u32);
            node = child;
        }
        if proven_leaf {
            let n = &mut self.nodes[node];
            let v = s.returns[n.mover as usize];
            n.proof = if v > 0.0 {
                1
            } else if v < 0.0 {
                -1
            } else {
                0
            };
        }
        self.backup(&s.path, &s.returns, 1, 0.0);
        if grave {
            self.update_amaf(s, root.board().num_sites());
        }
        if lim.playouts.uses_mast() {
            self.update_mast(s, root.num_actions());
        }
        if proven_leaf {
            self.propagate_proof(s);
        }
        true
    }

    /// Carries a new proof at the end of `s.path` up the path as far as it decides parents.
    fn propagate_proof(&mut self, s: &Scratch) {
        for w in (1..s.path.len()).rev() {
            let child = self.nodes[s.path[w] as usize];
            let parent_i = s.path[w - 1] as usize;
            let parent = self.nodes[parent_i];
            if parent.proof != OPEN {
                return;
            }
            // The children's mover chooses at the parent.
            let chooser = child.mover;
            let best = if child.proof == 1 {
                1
            } else {
                let mut best = -1i8;
                for i in parent.children() {
                    let p = self.nodes[i].proof;
                    if p == OPEN {
                        return;
                    }
                    best = best.max(p);
                }
                best
            };
            self.nodes[parent_i].proof = flip(best, chooser, parent.mover);
        }
    }

    /// Re-roots the tree at the node reached by `actions` from the root, keeping its subtree
    /// (compacted into a new arena); `None` when that node was never created. `mover` is the
    /// player to move at the new root.
    fn descend(&self, actions: &[u32], mover: u8) -> Option<Tree> {
        let mut node = 0usize;
        for &a in actions {
            let n = self.nodes[node];
            node = n
                .children()
                .find(|&i| u32::from(self.nodes[i].action) == a)?;
        }
        let mut root = self.nodes[node];
        if root.proof != OPEN {
            root.proof = flip(root.proof, root.mover, mover);
        }
        // The root scores for the player to move there, who is the mover of its children:
        // every iteration passes through one child, so their sums are the root's.
        root.mover = mover;
        root.visits = root.children().map(|i| self.nodes[i].visits).sum();
        root.value = root.children().map(|i| self.nodes[i].value).sum();
        let keep_amaf = !self.amaf.is_empty();
        let mut out = Tree {
            nodes: Vec::with_capacity(self.nodes.len()),
            amaf: Vec::new(),
        };
        out.nodes.push(root);
        if keep_amaf {
            out.amaf.push(Amaf::default());
        }
        // Breadth first: (old index, new index) of nodes whose children still need copying.
        let mut queue = std::collections::VecDeque::new();
        queue.push_back((node, 0usize));
        while let Some((old, new)) = queue.pop_front() {
            let n = self.nodes[old];
            if n.first == 0 {
                out.nodes[new].first = 0;
                continue;
            }
            let first = out.nodes.len();
            out.nodes[new].first = first as u32;
            for (k, i) in n.children().enumerate() {
                out.nodes.push(self.nodes[i]);
                if keep_amaf {
                    out.amaf.push(self.amaf[i]);
                }
                queue.push_back((i, first + k));
            }
        }
        Some(out)
    }
}

/// Plays the game out as [`Rules::random_playout`] would (uniformly, by the game's own
/// sampler, drawing the same numbers), by MAST or by the game's knowledge, recording every
/// action and its player in `s.played`. Kept out of line: inlined, it costs the plain playout
/// loop of the iteration registers (callgrind counts UCT's Faraday iteration 0.15 % dearer).
#[inline(never)]
fn recorded_playout<R: Knowledge>(
    state: &mut R,
    rng: &mut Rng,
    s: &mut Scratch,
    playouts: Playouts,
) {
    let actions = state.num_actions();
    let (played, mast) = (&mut s.played, &s.mast);
    let (pairs, knowledge) = (playouts != Playouts::Random, playouts.uses_knowledge());
    let use_mast = playouts.uses_mast();
    state.guided_playout(rng, &mut s.buf, pairs, knowledge, |p, a, b| {
        let a = match b {
            Some(b)
                if use_mast && mast_mean(mast, p, b, actions) > mast_mean(mast, p, a, actions) =>
            {
                b
            }
            _ => a,
        };
        played.push((p as u8, a as u16));
        a
    });
}

/// MAST's mean return of `action` for `player` in `table` (0 before it was ever played).
#[inline]
fn mast_mean(table: &[MastStat], player: usize, action: usize, actions: usize) -> f32 {
    table[player * actions + action].mean
}

/// MAST's statistics of one action for one player: the summed return, the count, and their
/// mean, worked out at each update (the same division as at each read, but once per update
/// rather than twice per playout move).
#[derive(Clone, Copy, Debug, Default)]
struct MastStat {
    sum: f32,
    count: u32,
    /// `sum / count`, 0 while the count is 0.
    mean: f32,
}

impl MastStat {
    #[inline]
    fn add(&mut self, ret: f32) {
        self.sum += ret;
        self.count += 1;
        self.mean = self.sum / self.count as f32;
    }
}

/// Mixes a search's seed with the position, so that consecutive searches of one game draw
/// different numbers while staying a pure function of (state, seed).
pub(super) fn position_seed<R: Rules>(state: &R, seed: u64) -> u64 {
    let mut h = 0xCBF2_9CE4_8422_2325u64 ^ seed;
    h = (h ^ state.move_count() as u64).wrapping_mul(0x0100_0000_01B3);
    for &c in state.cells() {
        h = (h ^ c as u8 as u64).wrapping_mul(0x0100_0000_01B3);
    }
    h ^= u64::from(state.current_player().map_or(255, |p| p as u8));
    h.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The action of a random agent with `seed` in `state`: uniformly random, and a pure function
/// of the position and the seed.
pub fn random_agent_action(state: &State, seed: u64) -> Result<u32> {
    check_state(state)?;
    let mut rng = Rng::new(each_state!(state, s => position_seed(s, seed)));
    state
        .random_action(&mut rng, &mut Vec::new())
        .map(|a| a as u32)
        .ok_or_else(|| {
            GameOver {
                game: state.game_name(),
                asked: Asked::Move,
            }
            .into()
        })
}

/// Searches `root` with `trees` (one per thread, possibly carried over from an earlier search)
/// and reports the summed root statistics.
fn search_typed<R: Knowledge>(
    root: &R,
    cfg: &MctsConfig,
    trees: &mut [Tree],
    started: Instant,
    stop: Option<&AtomicBool>,
    node_cap: usize,
) -> Result<SearchResult> {
    let k = trees.len();
    let per_thread_nodes = cfg.max_nodes.min(node_cap) / k;
    let legal = root.legal_actions();
    if legal.len() + 1 > per_thread_nodes {
        return Err(Error::InvalidOption(format!(
            "MCTS max_nodes: {} node(s) per thread cannot hold this root and its {} children",
            per_thread_nodes,
            legal.len()
        )));
    }
    let total_iters = cfg.iterations.unwrap_or(u64::MAX);
    // A budget too far in the future for the clock (about 9.2e18 s or more) is no limit.
    let deadline = cfg.time.and_then(|t| {
        std::time::Duration::try_from_secs_f64(t)
            .ok()
            .and_then(|d| started.checked_add(d))
    });
    let solver = cfg.solver_for(root.num_players());
    let seed = position_seed(root, cfg.seed);
    let limits = |t: usize| Limits {
        stop,
        iterations: if total_iters == u64::MAX {
            u64::MAX
        } else {
            total_iters / k as u64 + u64::from((t as u64) < total_iters % k as u64)
        },
        deadline,
        max_nodes: per_thread_nodes,
        c: cfg.c,
        solver,
        selection: cfg.selection,
        grave_ref: cfg.grave_ref,
        grave_bias: cfg.grave_bias,
        playouts: cfg.playouts,
    };
    let outcomes: Vec<ThreadOutcome> = if k == 1 {
        let mut rng = Rng::stream(seed, 0);
        vec![trees[0].run(root, &limits(0), &mut rng)]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = trees
                .iter_mut()
                .enumerate()
                .map(|(t, tree)| {
                    let lim = limits(t);
                    scope.spawn(move || {
                        let mut rng = Rng::stream(seed, t as u64);
                        tree.run(root, &lim, &mut rng)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| match h.join() {
                    Ok(o) => o,
                    Err(e) => std::panic::resume_unwind(e),
                })
                .collect()
        })
    };
    let seconds = started.elapsed().as_secs_f64();
    Ok(summarise(root, &legal, trees, &outcomes, solver, seconds))
}

/// Sums the threads' root statistics and picks the move.
pub(super) fn summarise<R: Rules>(
    root: &R,
    legal: &[u32],
    trees: &[Tree],
    outcomes: &[ThreadOutcome],
    solver: bool,
    seconds: f64,
) -> SearchResult {
    let m = legal.len();
    let mut visits = vec![0u64; m];
    let mut sums = vec![0.0f64; m];
    let mut proofs: Vec<Option<i8>> = vec![None; m];
    let mut proven = None;
    for tree in trees {
        let r = tree.nodes[0];
        if r.proof != OPEN {
            proven = Some(r.proof);
        }
        for i in r.children() {
            let ch = tree.nodes[i];
            if let Ok(j) = legal.binary_search(&u32::from(ch.action)) {
                visits[j] += u64::from(ch.visits);
                sums[j] += ch.value;
                if solver && ch.proof != OPEN {
                    proofs[j] = Some(ch.proof);
                }
            }
        }
    }
    let values: Vec<f64> = (0..m)
        .map(|j| {
            if visits[j] == 0 {
                0.0
            } else {
                sums[j] / visits[j] as f64
            }
        })
        .collect();
    let best = legal[choose(&visits, &values, &proofs)];
    // Every iteration passes through one root child, so their sums are the root's.
    let n: u64 = visits.iter().sum();
    let value = if n == 0 {
        0.0
    } else {
        sums.iter().sum::<f64>() / n as f64
    };
    let pv = principal_variation(trees, best);
    let stopped_by = outcomes
        .iter()
        .map(|o| o.stopped)
        .max()
        .unwrap_or(StoppedBy::Iterations);
    let stopped_by = if proven.is_some() {
        StoppedBy::Proven
    } else {
        stopped_by
    };
    SearchResult {
        actions: legal.to_vec(),
        visits,
        values,
        proofs,
        num_actions: root.num_actions(),
        value,
        best,
        iterations: outcomes.iter().map(|o| o.iterations).sum(),
        seconds,
        nodes: trees.iter().map(|t| t.nodes.len() as u64).sum(),
        proven,
        pv,
        stopped_by,
    }
}

/// The index of the move to play: a proven win at once; otherwise the most visits among the
/// children not proven lost (all of them if every one is), ties to the higher mean, then the
/// lower action (the earlier index).
fn choose(visits: &[u64], values: &[f64], proofs: &[Option<i8>]) -> usize {
    let pick = |allowed: &dyn Fn(usize) -> bool| -> Option<usize> {
        let mut best: Option<usize> = None;
        for j in 0..visits.len() {
            if !allowed(j) {
                continue;
            }
            best = match best {
                None => Some(j),
                Some(b) => {
                    if visits[j] > visits[b] || visits[j] == visits[b] && values[j] > values[b] {
                        Some(j)
                    } else {
                        Some(b)
                    }
                }
            };
        }
        best
    };
    pick(&|j| proofs[j] == Some(1))
        .or_else(|| pick(&|j| proofs[j] != Some(-1)))
        .or_else(|| pick(&|_| true))
        .unwrap_or(0)
}

/// The most-visited path, its statistics summed over the trees, starting with `best`.
fn principal_variation(trees: &[Tree], best: u32) -> Vec<u32> {
    let mut pv = vec![best];
    // Each tree's node on the path so far (None once the path leaves that tree).
    let mut at: Vec<Option<usize>> = trees
        .iter()
        .map(|t| {
            t.nodes[0]
                .children()
                .find(|&i| u32::from(t.nodes[i].action) == best)
        })
        .collect();
    loop {
        // (action, visits, value sum), merged over the trees.
        let mut stats: Vec<(u32, u64, f64)> = Vec::new();
        for (t, node) in trees.iter().zip(&at) {
            let Some(node) = *node else { continue };
            for i in t.nodes[node].children() {
                let ch = t.nodes[i];
                if ch.visits == 0 {
                    continue;
                }
                let a = u32::from(ch.action);
                match stats.iter_mut().find(|s| s.0 == a) {
                    Some(s) => {
                        s.1 += u64::from(ch.visits);
                        s.2 += ch.value;
                    }
                    None => stats.push((a, u64::from(ch.visits), ch.value)),
                }
            }
        }
        let Some(&(a, _, _)) = stats.iter().max_by(|x, y| {
            let mx = x.2 / x.1 as f64;
            let my = y.2 / y.1 as f64;
            x.1.cmp(&y.1).then(mx.total_cmp(&my)).then(y.0.cmp(&x.0))
        }) else {
            return pv;
        };
        pv.push(a);
        for (t, node) in trees.iter().zip(at.iter_mut()) {
            *node = node.and_then(|n| {
                t.nodes[n]
                    .children()
                    .find(|&i| u32::from(t.nodes[i].action) == a)
            });
        }
    }
}

/// Checks that a state can be searched.
pub(super) fn check_state(state: &State) -> Result<()> {
    if state.is_terminal() {
        return Err(GameOver {
            game: state.game_name(),
            asked: Asked::Search,
        }
        .into());
    }
    if state.num_actions() > usize::from(u16::MAX) + 1 {
        return Err(Error::InvalidOption(format!(
            "MCTS handles at most {} actions; this game has {}",
            usize::from(u16::MAX) + 1,
            state.num_actions()
        )));
    }
    Ok(())
}

/// Searches `state` once with `cfg` (a fresh tree; see [`Mcts`] for tree reuse).
pub fn search(state: &State, cfg: &MctsConfig) -> Result<SearchResult> {
    Mcts::new(MctsConfig {
        reuse: false,
        ..cfg.clone()
    })?
    .search(state, &[])
}

/// The tree kept by an agent with `reuse` between searches, with the position it was grown
/// from.
#[derive(Clone, Debug)]
struct Kept {
    state: State,
    history: Vec<u32>,
    trees: Vec<Tree>,
}

impl Kept {
    /// The kept trees re-rooted at `state`, when `history` extends the kept history, replaying
    /// the extra actions from the kept position gives `state`, and the trees hold that path.
    fn follow(&self, state: &State, history: &[u32]) -> Option<Vec<Tree>> {
        let extra = history.strip_prefix(&self.history[..])?;
        if !same_game(&self.state.game(), &state.game()) {
            return None;
        }
        let mut replay = self.state.clone();
        for &a in extra {
            replay.apply(i64::from(a)).ok()?;
        }
        if replay.cells() != state.cells()
            || replay.current_player() != state.current_player()
            || replay.move_count() != state.move_count()
        {
            return None;
        }
        let mover = state.current_player()? as u8;
        self.trees.iter().map(|t| t.descend(extra, mover)).collect()
    }
}

/// An MCTS agent: its settings and, with `reuse`, the trees of its last search.
///
/// Tree reuse: when asked about a position that follows the last one searched in the same game
/// (its history extends the earlier history and the tree holds the path between them), the
/// search starts from that subtree, so the statistics of earlier searches count. It is off by
/// default because a result then depends on the searches before it, not only on the state and
/// the seed.
#[derive(Clone, Debug)]
pub struct Mcts {
    config: MctsConfig,
    kept: Option<Box<Kept>>,
    node_cap: usize,
}

/// The share of its time budget that [`Mcts::decide`] spends on a forced move.
pub const FORCED_TIME_SHARE: f64 = 0.1;

/// The time budget [`Mcts::decide`] searches a root of `legal` actions with.
pub(super) fn time_to_decide(time: Option<f64>, legal: usize) -> Option<f64> {
    time.map(|t| if legal == 1 { t * FORCED_TIME_SHARE } else { t })
}

fn same_game(a: &Game, b: &Game) -> bool {
    a.name() == b.name() && a.options() == b.options()
}

impl Mcts {
    /// An agent with checked settings.
    pub fn new(config: MctsConfig) -> Result<Mcts> {
        config.validate()?;
        Ok(Mcts {
            config,
            kept: None,
            node_cap: usize::MAX,
        })
    }

    /// Caps the tree below `max_nodes` for the searches to come, at least
    /// [`MIN_NODES_PER_THREAD`] per thread (the caller's estimate of the memory there is, say);
    /// a search that reaches the cap stops as at the node limit (`StoppedBy::Nodes`).
    pub fn cap_nodes(&mut self, cap: usize) {
        self.node_cap = cap.max(MIN_NODES_PER_THREAD * self.config.threads);
    }

    /// The settings.
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// Forgets any kept tree.
    pub fn reset(&mut self) {
        self.kept = None;
    }

    /// Searches `state`, whose game went through `history` from the start (used only for tree
    /// reuse; pass `&[]` when unknown). Fails with [`Error::GameOver`] on a finished game.
    pub fn search(&mut self, state: &State, history: &[u32]) -> Result<SearchResult> {
        self.search_until(state, history, None)
    }

    /// [`Mcts::search`] that also ends, within a few iterations, once `stop` is set (its result
    /// then says [`StoppedBy::Interrupted`]).
    pub fn search_until(
        &mut self,
        state: &State,
        history: &[u32],
        stop: Option<&AtomicBool>,
    ) -> Result<SearchResult> {
        self.search_as(state, history, stop, false)
    }

    /// The search an agent plays by: [`Mcts::search_until`], except that a move with no choice
    /// (one legal action) under a time budget is searched for [`FORCED_TIME_SHARE`] of that
    /// time, enough for a value and the tree below it, not for a choice that cannot change.
    /// An iteration budget is spent in full, so such a search plays and reports as before.
    pub fn decide(
        &mut self,
        state: &State,
        history: &[u32],
        stop: Option<&AtomicBool>,
    ) -> Result<SearchResult> {
        self.search_as(state, history, stop, true)
    }

    fn search_as(
        &mut self,
        state: &State,
        history: &[u32],
        stop: Option<&AtomicBool>,
        deciding: bool,
    ) -> Result<SearchResult> {
        let started = Instant::now();
        check_state(state)?;
        let k = self.config.threads;
        let mut trees = match self.kept.take() {
            Some(kept) if self.config.reuse => kept.follow(state, history).unwrap_or_default(),
            _ => Vec::new(),
        };
        if trees.len() != k {
            trees = (0..k)
                .map(|_| each_state!(state, s => Tree::new(s)))
                .collect();
        }
        let mut config = self.config.resolved(state.game_name());
        if deciding {
            config.time = time_to_decide(config.time, state.legal_actions().len());
        }
        let res = each_state!(state, s => search_typed(s, &config, &mut trees, started, stop, self.node_cap))?;
        if self.config.reuse {
            self.kept = Some(Box::new(Kept {
                state: state.clone(),
                history: history.to_vec(),
                trees,
            }));
        }
        Ok(res)
    }
}

#[cfg(test)]
mod amaf_tests {
    use super::*;

    /// A tree by hand: the root (player 0 to move) with children on sites 0, 1, 2; the child on
    /// 0 (player 1 to move there) with children on sites 1 and 2.
    fn tree() -> Tree {
        let mut nodes = vec![Node::new(0, 0)];
        nodes[0].first = 1;
        nodes[0].len = 3;
        nodes.extend([0u16, 1, 2].map(|a| Node::new(a, 0)));
        nodes[1].first = 4;
        nodes[1].len = 2;
        nodes.extend([1u16, 2].map(|a| Node::new(a, 1)));
        let amaf = vec![Amaf::default(); nodes.len()];
        Tree { nodes, amaf }
    }

    fn scratch(players: usize, sites: usize) -> Scratch {
        // The sites and a pass.
        let actions = sites + 1;
        Scratch {
            path: Vec::new(),
            buf: Vec::new(),
            ranks: vec![0.0; players],
            returns: vec![0.0; players],
            played: Vec::new(),
            actions,
            seen: vec![0; players * actions],
            stamp: 0,
            dense: vec![Amaf::default(); players * actions],
            dense_of: vec![usize::MAX; players],
            mast: vec![MastStat::default(); players * actions],
        }
    }

    #[test]
    fn amaf_counts_each_later_action_of_the_chooser_once() {
        let mut t = tree();
        let mut s = scratch(2, 19);
        // The iteration went root → site 0 (player 0) → site 1 (player 1), then the playout
        // played player 0 on site 2, player 1 on site 0, player 0 on site 2 again (a
        // replacement, say) and a pass (action 19, no AMAF statistics); player 0 won.
        s.path = vec![0, 1, 4];
        s.played = vec![(0, 2), (1, 0), (0, 2), (0, 19)];
        s.returns = vec![1.0, -1.0];
        t.update_amaf(&mut s, 19);
        let got: Vec<(f32, u32)> = t.amaf.iter().map(|a| (a.value, a.visits)).collect();
        assert_eq!(
            got,
            vec![
                (0.0, 0),  // the root: no statistics of its own
                (1.0, 1),  // site 0 by player 0 at the root: played (in the tree)
                (0.0, 0),  // site 1 by player 0: only player 1 played it
                (1.0, 1),  // site 2 by player 0: played twice in the playout, counted once
                (-1.0, 1), // site 1 by player 1 below the child: played, player 1 lost
                (0.0, 0),  // site 2 by player 1: only player 0 played it
            ]
        );
        // A second iteration through the root only: root → site 2, playout player 1 on 1.
        s.path = vec![0, 3];
        s.played = vec![(1, 1)];
        s.returns = vec![-1.0, 1.0];
        t.update_amaf(&mut s, 19);
        assert_eq!((t.amaf[3].value, t.amaf[3].visits), (0.0, 2));
        assert_eq!((t.amaf[2].value, t.amaf[2].visits), (0.0, 0));
        assert_eq!((t.amaf[1].value, t.amaf[1].visits), (1.0, 1));
    }

    #[test]
    fn the_reference_row_reads_by_action_and_follows_the_updates() {
        let mut t = tree();
        let mut s = scratch(2, 19);
        // The root's children hold sites 0, 1, 2 in the order 2, 0, 1 (tried ones swapped
        // forward); the child on 0 (now at index 2) has children on 1 and 2.
        t.nodes.swap(1, 3);
        t.nodes.swap(2, 3);
        t.amaf[1] = Amaf {
            value: 2.0,
            visits: 3,
        };
        t.amaf[2] = Amaf {
            value: -1.0,
            visits: 1,
        };
        t.load_dense(&mut s, 0, 0);
        let row = |s: &Scratch, p: usize| -> Vec<(f32, u32)> {
            s.dense[p * s.actions..p * s.actions + 3]
                .iter()
                .map(|a| (a.value, a.visits))
                .collect()
        };
        assert_eq!(row(&s, 0), vec![(-1.0, 1), (0.0, 0), (2.0, 3)]);
        // An update through the root keeps the row equal to the children's statistics: root →
        // site 0 (index 2), then player 0 plays site 1 in the playout and wins.
        t.nodes[2].first = 4;
        t.nodes[2].len = 2;
        s.path = vec![0, 2];
        s.played = vec![(0, 1)];
        s.returns = vec![1.0, -1.0];
        t.update_amaf(&mut s, 19);
        assert_eq!(row(&s, 0), vec![(0.0, 2), (1.0, 1), (2.0, 3)]);
        let by_action = |t: &Tree, a: u16| -> (f32, u32) {
            let i = (1..4).find(|&i| t.nodes[i].action == a).expect("a child");
            (t.amaf[i].value, t.amaf[i].visits)
        };
        assert_eq!(
            (0..3).map(|a| by_action(&t, a)).collect::<Vec<_>>(),
            row(&s, 0)
        );
        // Another reference for player 0 clears the row first: node 2's children (sites 1, 2).
        t.amaf[4] = Amaf {
            value: 0.5,
            visits: 2,
        };
        t.load_dense(&mut s, 0, 2);
        assert_eq!(row(&s, 0), vec![(0.0, 0), (0.5, 2), (0.0, 0)]);
        assert_eq!(s.dense_of, vec![2, usize::MAX]);
    }

    #[test]
    fn grave_mixes_by_the_beta_schedule_and_ranks_untried_children_by_amaf() {
        let mut t = tree();
        let lim = Limits {
            stop: None,
            iterations: 1,
            deadline: None,
            max_nodes: 100,
            c: 0.0,
            solver: false,
            selection: Selection::Grave,
            grave_ref: 1,
            grave_bias: 0.0,
            playouts: Playouts::Random,
        };
        let mut s = scratch(2, 19);
        // Site 0: tried, mean 0.5 over 10, AMAF mean 0 over 30: β = 30 / 40, score 0.125.
        // Site 1: tried, mean 0 over 10, AMAF mean 0.2 over 10: β = 1/2, score 0.1.
        // Site 2: untried, AMAF mean 0.15 over 20: scores 0.15 and is chosen.
        t.nodes[0].visits = 20;
        t.nodes[0].tried = 2;
        t.nodes[1].visits = 10;
        t.nodes[1].value = 5.0;
        t.nodes[2].visits = 10;
        t.amaf[1] = Amaf {
            value: 0.0,
            visits: 30,
        };
        t.amaf[2] = Amaf {
            value: 2.0,
            visits: 10,
        };
        t.amaf[3] = Amaf {
            value: 3.0,
            visits: 20,
        };
        let mut rng = Rng::new(0);
        assert_eq!(t.select_grave(0, 0, &lim, &mut rng, &mut s), 3);
        assert_eq!(t.nodes[0].tried, 3);
        // With a weaker AMAF mean for site 2 (0.1 < 0.125) site 0 wins.
        let mut t2 = tree();
        t2.nodes = t.nodes.clone();
        t2.amaf = t.amaf.clone();
        t2.nodes[0].tried = 2;
        t2.amaf[3].value = 2.0;
        assert_eq!(t2.select_grave(0, 0, &lim, &mut rng, &mut s), 1);
        // A reference above (the mechanism only: the search takes as references only nodes
        // where the same player chooses): the child on site 0 reads the AMAF
        // statistics of sites 1 and 2 at the root's children instead of its own.
        let mut t3 = tree();
        t3.nodes[1].visits = 5;
        t3.amaf[2] = Amaf {
            value: -1.0,
            visits: 4,
        };
        t3.amaf[3] = Amaf {
            value: 2.0,
            visits: 4,
        };
        assert_eq!(t3.select_grave(1, 0, &lim, &mut rng, &mut s), 4);
        assert_eq!(
            t3.nodes[4].action, 2,
            "site 2 has the better AMAF mean at the root"
        );
    }
}
