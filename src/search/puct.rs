//! PUCT: AlphaZero's tree search, guided by an evaluator's priors and values.
//!
//! The tree is UCT's arena ([`super::mcts`]'s `Tree` and `Node`) with one prior per node beside
//! it, and the backup is UCT's n-player backup: every node on a path adds the value of the
//! player who moved into it, so it is right for any number of players and for runs of moves by
//! one player. What differs is the rest of a simulation:
//!
//! * Selection maximises `Q + c · P · √N / (1 + n)` over the children (AlphaZero's formula, as
//!   OpenSpiel's): Q the child's mean value for the player choosing (0 while unvisited), P its
//!   prior, n its visits and N the parent's. Ties go to the lower action.
//! * A leaf is expanded when it is first reached (all its children at once) and evaluated: the
//!   evaluator gives priors over the actions, normalised by the search over the legal ones, and
//!   one value per player from that player's point of view, ordered as the observation's planes
//!   are: entry k is the value of player (p + k) mod n, p the player to move at the leaf (so
//!   entry 0 is the mover's own, and a network that sees only the observation can give them).
//!   A finished game is scored by its returns instead.
//! * Leaves are gathered into batches of up to `batch_size` before they are evaluated. Every
//!   node on the path of a leaf waiting for its evaluation counts a visit and a loss (a virtual
//!   loss of 1) so that the next descent of the batch goes elsewhere; the evaluation then
//!   replaces the loss by the value, so each simulation is counted once. A descent that reaches
//!   a leaf already waiting ends the batch.
//! * At the root, Dirichlet noise is mixed into the priors: `(1 − ε) · P + ε · η` with `η` drawn
//!   from Dirichlet(α) over the legal actions, ε = `dirichlet_fraction` (0: no noise).
//!
//! The root's own evaluation is not a simulation: the visits of the root's children add up to
//! `simulations` exactly. A search is a state machine ([`PuctSearch`]: [`PuctSearch::gather`]
//! leaves, evaluate them, [`PuctSearch::apply`] the evaluations), so that a driver can gather the
//! leaves of many games into one evaluator call ([`selfplay_puct`]).
//!
//! With [`PuctConfig::rollout`] the evaluation is native: uniform priors and the returns of one
//! uniformly random playout from the leaf (the game's own sampler), drawn when the leaf is
//! gathered; the batching and virtual loss work as with any evaluator. Since uniform priors do
//! not depend on the evaluation, a rollout leaf's children are allocated on its second visit
//! (as UCT allocates them), which saves allocating the children of leaves never revisited.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::mcts::{
    check_state, final_returns, position_seed, summarise, SearchResult, StoppedBy, ThreadOutcome,
    Tree, DEFAULT_MAX_NODES, MIN_NODES_PER_THREAD, OPEN,
};
use super::play::{game_seed, sample_by_visits, Agent, GameRecord, Seat, SelfPlayGame};
use crate::error::{Error, Result};
use crate::games::{each_state, Game, Rules, State};
use crate::rng::Rng;
use crate::sim::batch::MAX_THREADS;

/// The default PUCT exploration constant (AlphaZero's 1.25, as OpenSpiel and mctx use).
pub const DEFAULT_PUCT_C: f64 = 1.25;

/// The default Dirichlet parameter α of the root noise.
pub const DEFAULT_DIRICHLET_ALPHA: f64 = 0.3;

/// The default share ε of the root noise in the root priors.
pub const DEFAULT_DIRICHLET_FRACTION: f64 = 0.25;

/// The default number of leaves a search gathers before it asks the evaluator.
pub const DEFAULT_BATCH_SIZE: usize = 32;

/// The largest `batch_size`.
pub const MAX_BATCH_SIZE: usize = 1 << 16;

/// The default number of simulations.
pub const DEFAULT_SIMULATIONS: u64 = 800;

/// [`PuctConfig::simulations`] for no limit on the simulations: the search then needs a time
/// budget, and stops at it or when the tree is full.
pub const UNLIMITED_SIMULATIONS: u64 = u64::MAX;

/// The loss counted, for the mover of every node on its path, while a leaf waits.
const VIRTUAL_LOSS: f64 = 1.0;

/// `Node::proof` of a leaf whose evaluation is pending (PUCT never proves nodes).
const PENDING: i8 = 2;

/// The settings of a PUCT search. Check them with [`PuctConfig::validate`].
#[derive(Clone, Debug, PartialEq)]
pub struct PuctConfig {
    /// Simulations per search (the root's own evaluation not counted), split over the threads;
    /// [`UNLIMITED_SIMULATIONS`] for none but the time budget's.
    pub simulations: u64,
    /// Seconds of wall time per search; `None` for no limit. The first of the budgets reached
    /// stops a search (each thread's search checks the clock between its batches).
    pub time: Option<f64>,
    /// Searches run in parallel for one move (root parallelisation, 1 to [`MAX_THREADS`]):
    /// independent trees, each with its own random stream from the seed, their root visits
    /// summed. More than one needs an evaluator that can run on other threads
    /// ([`BatchEvaluator::fork`]) or rollouts.
    pub threads: usize,
    /// The exploration constant of the PUCT formula.
    pub c: f64,
    /// The Dirichlet parameter α of the root noise (> 0).
    pub dirichlet_alpha: f64,
    /// The share ε of the root noise, in [0, 1] (0: no noise).
    pub dirichlet_fraction: f64,
    /// The most leaves one search gathers before they are evaluated.
    pub batch_size: usize,
    /// The seed: a search is a pure function of the state, the settings, the seed and the
    /// evaluator's outputs.
    pub seed: u64,
    /// The most tree nodes of one search.
    pub max_nodes: usize,
    /// Evaluate leaves natively by uniform priors and random playouts (no evaluator).
    pub rollout: bool,
}

impl Default for PuctConfig {
    fn default() -> Self {
        PuctConfig {
            simulations: DEFAULT_SIMULATIONS,
            time: None,
            threads: 1,
            c: DEFAULT_PUCT_C,
            dirichlet_alpha: DEFAULT_DIRICHLET_ALPHA,
            dirichlet_fraction: DEFAULT_DIRICHLET_FRACTION,
            batch_size: DEFAULT_BATCH_SIZE,
            seed: 0,
            max_nodes: DEFAULT_MAX_NODES,
            rollout: true,
        }
    }
}

impl PuctConfig {
    /// Fails with [`Error::InvalidOption`], naming what is allowed, on settings that make no
    /// sense.
    pub fn validate(&self) -> Result<()> {
        let bad = |m: String| Err(Error::InvalidOption(m));
        if self.simulations == 0 {
            return bad("PUCT simulations must be at least 1".into());
        }
        if self.simulations == UNLIMITED_SIMULATIONS && self.time.is_none() {
            return bad(
                "PUCT needs a budget: simulations (≥ 1), time (seconds > 0) or both".into(),
            );
        }
        if let Some(t) = self.time {
            if !(t.is_finite() && t > 0.0) {
                return bad(format!(
                    "PUCT time must be a finite number of seconds > 0 (or None), got {t}"
                ));
            }
        }
        if self.threads == 0 || self.threads > MAX_THREADS {
            return bad(format!(
                "PUCT threads must be 1 to {MAX_THREADS}, got {}",
                self.threads
            ));
        }
        if !(self.c.is_finite() && self.c >= 0.0) {
            return bad(format!(
                "PUCT c must be a finite number ≥ 0, got {}",
                self.c
            ));
        }
        if !(self.dirichlet_alpha.is_finite() && self.dirichlet_alpha > 0.0) {
            return bad(format!(
                "PUCT dirichlet_alpha must be a finite number > 0, got {}",
                self.dirichlet_alpha
            ));
        }
        if !(0.0..=1.0).contains(&self.dirichlet_fraction) {
            return bad(format!(
                "PUCT dirichlet_fraction must be a number from 0 to 1, got {}",
                self.dirichlet_fraction
            ));
        }
        if self.batch_size == 0 || self.batch_size > MAX_BATCH_SIZE {
            return bad(format!(
                "PUCT batch_size must be 1 to {MAX_BATCH_SIZE}, got {}",
                self.batch_size
            ));
        }
        if self.max_nodes < MIN_NODES_PER_THREAD || self.max_nodes > u32::MAX as usize {
            return bad(format!(
                "PUCT max_nodes must be {MIN_NODES_PER_THREAD} to {}, got {}",
                u32::MAX,
                self.max_nodes
            ));
        }
        if self.max_nodes / self.threads < MIN_NODES_PER_THREAD {
            return bad(format!(
                "PUCT max_nodes must be at least {} with {} threads ({MIN_NODES_PER_THREAD} per \
                 thread), got {}",
                MIN_NODES_PER_THREAD * self.threads,
                self.threads,
                self.max_nodes
            ));
        }
        Ok(())
    }

    /// The settings of thread `t`'s search: its share of the simulations and of the nodes.
    fn for_thread(&self, t: usize) -> PuctConfig {
        let k = self.threads.max(1) as u64;
        let simulations = if self.simulations == UNLIMITED_SIMULATIONS {
            UNLIMITED_SIMULATIONS
        } else {
            // At least one each, so that every tree has something to add.
            (self.simulations / k + u64::from((t as u64) < self.simulations % k)).max(1)
        };
        PuctConfig {
            simulations,
            max_nodes: self.max_nodes / self.threads.max(1),
            threads: 1,
            ..self.clone()
        }
    }
}

/// Playout-cap randomisation of self-play (KataGo): each move is searched in full (the
/// config's simulations, with its root noise) with probability `full_share`, and otherwise
/// with `fast_simulations` and no root noise; only the full searches' policies are training
/// targets ([`SelfPlayGame::full_search`]). The choice of each move is drawn from a stream of
/// the game's seed, so a run stays a function of its seed. The default searches every move in
/// full (and draws nothing).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayoutCap {
    /// The probability of a full search, in [0, 1].
    pub full_share: f64,
    /// The simulations of a fast search, 1 to `simulations − 1`.
    pub fast_simulations: u64,
}

impl Default for PlayoutCap {
    fn default() -> Self {
        PlayoutCap {
            full_share: 1.0,
            fast_simulations: 1,
        }
    }
}

impl PlayoutCap {
    /// Whether every move is searched in full.
    pub fn all_full(&self) -> bool {
        self.full_share >= 1.0
    }

    /// Fails with [`Error::InvalidOption`], naming what is allowed, on settings that make no
    /// sense with `cfg`'s simulations.
    pub fn validate(&self, cfg: &PuctConfig) -> Result<()> {
        if !(0.0..=1.0).contains(&self.full_share) {
            return Err(Error::InvalidOption(format!(
                "full_search_share must be a number from 0 to 1, got {}",
                self.full_share
            )));
        }
        if !self.all_full() && !(1..cfg.simulations).contains(&self.fast_simulations) {
            return Err(Error::InvalidOption(format!(
                "fast_simulations must be 1 to {} (below the {} simulations of a full search), \
                 got {}",
                cfg.simulations.saturating_sub(1),
                cfg.simulations,
                self.fast_simulations
            )));
        }
        Ok(())
    }
}

/// Leaves to evaluate: their observations and legal masks, and the evaluator's answers.
///
/// Row `i` of `observations` is `obs_size` (planes × sites) floats, of `legal` `num_actions`
/// flags; the evaluator writes row `i` of `priors` (`num_actions` non-negative weights) and of
/// `values` (`players` values in [−1, 1], each from that player's point of view; entry k is
/// player (p + k) mod n's, p the player to move, as the observation's planes are ordered).
#[derive(Clone, Debug, Default)]
pub struct Batch {
    /// Rows in the batch.
    pub len: usize,
    /// Floats per observation (planes × sites).
    pub obs_size: usize,
    /// The size of the action space.
    pub num_actions: usize,
    /// Players of the game.
    pub players: usize,
    /// `len × obs_size` observations, for the player to move at each leaf.
    pub observations: Vec<f32>,
    /// `len × num_actions` legal-action flags.
    pub legal: Vec<bool>,
    /// `len × num_actions` priors, written by the evaluator.
    pub priors: Vec<f32>,
    /// `len × players` values, written by the evaluator.
    pub values: Vec<f32>,
    /// Whether observations and masks are written (false for rollouts).
    observe: bool,
}

impl Batch {
    /// An empty batch for positions like `state`; `observe` says whether the rows need
    /// observations (an evaluator) or not (rollouts).
    pub fn new<R: Rules>(state: &R, observe: bool) -> Batch {
        Batch {
            len: 0,
            obs_size: state.observation_planes() * state.board().num_sites(),
            num_actions: state.num_actions(),
            players: state.num_players(),
            observe,
            ..Batch::default()
        }
    }

    /// Empties the batch (keeping its memory).
    pub fn clear(&mut self) {
        self.len = 0;
        self.observations.clear();
        self.legal.clear();
        self.priors.clear();
        self.values.clear();
    }

    /// Adds a row for `state` (its observation and legal mask when the batch observes);
    /// returns its index.
    pub fn push<R: Rules>(&mut self, state: &R) -> usize {
        let i = self.len;
        self.len += 1;
        if self.observe {
            let o = self.observations.len();
            self.observations.resize(o + self.obs_size, 0.0);
            state.write_observation(&mut self.observations[o..]);
            let l = self.legal.len();
            self.legal.resize(l + self.num_actions, false);
            state.write_legal_mask(&mut self.legal[l..]);
            self.priors
                .resize(self.priors.len() + self.num_actions, 0.0);
        }
        self.values.resize(self.values.len() + self.players, 0.0);
        i
    }

    /// Checks the evaluator's answers: NaN, a negative or infinite prior, or a value outside
    /// [−1, 1] is an [`Error::Evaluator`] naming the row and what came back.
    pub fn check(&self) -> Result<()> {
        let (a, p) = (self.num_actions, self.players);
        if self.observe && self.priors.len() != self.len * a || self.values.len() != self.len * p {
            return Err(Error::Evaluator(format!(
                "the evaluator must write {} priors and {} values, wrote {} and {}",
                self.len * a,
                self.len * p,
                self.priors.len(),
                self.values.len()
            )));
        }
        if self.observe {
            if let Some(i) = self
                .priors
                .iter()
                .position(|x| !(x.is_finite() && *x >= 0.0))
            {
                return Err(Error::Evaluator(format!(
                    "the evaluator's priors must be finite and ≥ 0; row {}, action {} is {}",
                    i / a,
                    i % a,
                    self.priors[i]
                )));
            }
        }
        if let Some(i) = self.values.iter().position(|x| !(-1.0..=1.0).contains(x)) {
            return Err(Error::Evaluator(format!(
                "the evaluator's values must be in [-1, 1]; row {}, player {} is {}",
                i / p,
                i % p,
                self.values[i]
            )));
        }
        Ok(())
    }
}

/// What evaluates the leaves of a PUCT search: a network, say, on the Python side.
pub trait BatchEvaluator {
    /// Writes `batch.priors` (`len × num_actions`) and `batch.values` (`len × players`) for
    /// the rows of `batch` (their lengths are set already). An error ends the search.
    fn evaluate(&mut self, batch: &mut Batch) -> Result<()>;

    /// An evaluator giving the same outputs that can run on another thread, for searches with
    /// [`PuctConfig::threads`] above 1; `None` (the default) when this one cannot (a Python
    /// callable, which needs the GIL).
    fn fork(&self) -> Option<Box<dyn BatchEvaluator + Send>> {
        None
    }
}

/// A leaf waiting for its evaluation: its node and its path (a range of `PuctSearch::paths`).
#[derive(Clone, Debug)]
struct Leaf {
    node: u32,
    /// The player to move at the leaf: its row's values start with this player's.
    mover: u8,
    path: std::ops::Range<usize>,
}

/// One PUCT search in progress, as a state machine: [`PuctSearch::gather`] leaves into a
/// [`Batch`], have them evaluated, [`PuctSearch::apply`] the batch, until
/// [`PuctSearch::finished`]; then [`PuctSearch::result`].
pub struct PuctSearch<R: Rules> {
    root: R,
    tree: Tree,
    /// The prior of each node, index for index with the arena.
    prior: Vec<f32>,
    cfg: PuctConfig,
    rng: Rng,
    /// Simulations finished.
    done: u64,
    leaves: Vec<Leaf>,
    paths: Vec<u32>,
    /// Whether the root has been evaluated (and expanded).
    root_ready: bool,
    /// The tree reached its node limit.
    full: bool,
    buf: Vec<u32>,
    ranks: Vec<f64>,
    returns: Vec<f64>,
    noise: Vec<f64>,
    started: Instant,
    /// When the time budget runs out.
    deadline: Option<Instant>,
}

impl<R: Rules> PuctSearch<R> {
    /// A search of `root` (not terminal) with checked settings `cfg` (one thread's: its
    /// [`PuctConfig::threads`] is not read).
    pub fn new(root: &R, cfg: &PuctConfig) -> PuctSearch<R> {
        PuctSearch::on_thread(root, cfg, 0)
    }

    /// The search of thread `t` of a root-parallel search: its own random stream.
    fn on_thread(root: &R, cfg: &PuctConfig, t: usize) -> PuctSearch<R> {
        let players = root.num_players();
        let started = Instant::now();
        // A budget too far in the future for the clock is no limit.
        let deadline = cfg.time.and_then(|t| {
            Duration::try_from_secs_f64(t)
                .ok()
                .and_then(|d| started.checked_add(d))
        });
        PuctSearch {
            root: root.clone(),
            tree: Tree::new(root),
            prior: vec![1.0],
            cfg: cfg.clone(),
            rng: Rng::stream(position_seed(root, cfg.seed), t as u64),
            done: 0,
            leaves: Vec::new(),
            paths: Vec::new(),
            root_ready: false,
            full: false,
            buf: Vec::new(),
            ranks: vec![0.0; players],
            returns: vec![0.0; players],
            noise: Vec::new(),
            started,
            deadline,
        }
    }

    /// Whether the time budget is spent (once at least one simulation is done, so that the
    /// result says something beyond the priors).
    fn expired(&self) -> bool {
        self.done > 0 && self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether the search is over: its simulations or its time are spent (or the tree is
    /// full) and no leaf waits.
    pub fn finished(&self) -> bool {
        self.leaves.is_empty()
            && (self.full
                || self.root_ready && (self.done >= self.cfg.simulations || self.expired()))
    }

    /// Simulations finished so far.
    pub fn simulations_done(&self) -> u64 {
        self.done
    }

    /// Marks `node` (reached by `path`, in `state`) as waiting and writes its row into
    /// `batch`: the observation, or (rollout) the returns of a random playout.
    fn add_leaf(&mut self, node: usize, state: R, start: usize, batch: &mut Batch) {
        let row = batch.push(&state);
        let mover = state.current_player().unwrap_or(0);
        if self.cfg.rollout {
            let mut s = state;
            s.random_playout(&mut self.rng, &mut self.buf);
            final_returns(&s, &mut self.ranks, &mut self.returns);
            let p = batch.players;
            for (k, v) in batch.values[row * p..(row + 1) * p].iter_mut().enumerate() {
                *v = self.returns[(mover + k) % p] as f32;
            }
        }
        self.tree.nodes[node].proof = PENDING;
        for &i in &self.paths[start..] {
            let n = &mut self.tree.nodes[i as usize];
            n.visits += 1;
            n.value -= VIRTUAL_LOSS;
        }
        self.leaves.push(Leaf {
            node: node as u32,
            mover: mover as u8,
            path: start..self.paths.len(),
        });
    }

    /// Expands `node` (in `state`), its priors zero for now; false when the tree is full.
    fn expand(&mut self, node: usize, state: &R) -> bool {
        if !self
            .tree
            .expand(node, state, self.cfg.max_nodes, &mut self.buf)
        {
            self.full = true;
            return false;
        }
        self.prior.resize(self.tree.nodes.len(), 0.0);
        true
    }

    /// The child of `node` with the highest PUCT score.
    fn select(&self, node: usize) -> usize {
        let parent = self.tree.nodes[node];
        let k = self.cfg.c * f64::from(parent.visits).sqrt();
        let range = parent.children();
        let mut best = range.start;
        let mut best_score = f64::NEG_INFINITY;
        for (i, (ch, &p)) in self.tree.nodes[range.clone()]
            .iter()
            .zip(&self.prior[range.clone()])
            .enumerate()
        {
            let n = f64::from(ch.visits);
            let q = if ch.visits == 0 { 0.0 } else { ch.value / n };
            let score = q + k * f64::from(p) / (1.0 + n);
            if score > best_score {
                best_score = score;
                best = range.start + i;
            }
        }
        best
    }

    /// Descends for new leaves, up to `max` waiting at once, and writes them into `batch`;
    /// returns how many it added. Simulations that end in a finished game are backed up at
    /// once. Gathering ends early when a descent reaches a leaf already waiting.
    pub fn gather(&mut self, max: usize, batch: &mut Batch) -> usize {
        let before = self.leaves.len();
        if !self.root_ready {
            if self.leaves.is_empty() {
                let root = self.root.clone();
                if self.expand(0, &root) {
                    self.paths.push(0);
                    self.add_leaf(0, root, 0, batch);
                }
            }
            return self.leaves.len() - before;
        }
        if self.expired() {
            return 0;
        }
        'sims: while self.leaves.len() < max
            && self.done.saturating_add(self.leaves.len() as u64) < self.cfg.simulations
            && !self.full
        {
            let mut state = self.root.clone();
            let start = self.paths.len();
            self.paths.push(0);
            let mut node = 0usize;
            loop {
                let n = self.tree.nodes[node];
                if n.proof == PENDING {
                    self.paths.truncate(start);
                    break 'sims;
                }
                if n.first == 0 {
                    if state.is_terminal() {
                        final_returns(&state, &mut self.ranks, &mut self.returns);
                        self.tree
                            .backup(&self.paths[start..], &self.returns, 1, 0.0);
                        self.paths.truncate(start);
                        self.done += 1;
                        // Descents that all end in finished games add no leaf: the clock
                        // alone ends them.
                        if self.expired() {
                            break 'sims;
                        }
                        continue 'sims;
                    }
                    // With rollouts the priors are uniform whatever the evaluation says, so a
                    // new leaf is only played out; its children come on its second visit (as
                    // in MCTS), when the descent goes on through them.
                    if self.cfg.rollout && n.visits == 0 {
                        self.add_leaf(node, state, start, batch);
                        continue 'sims;
                    }
                    if !self.expand(node, &state) {
                        self.paths.truncate(start);
                        break 'sims;
                    }
                    if !self.cfg.rollout {
                        self.add_leaf(node, state, start, batch);
                        continue 'sims;
                    }
                    let range = self.tree.nodes[node].children();
                    self.prior[range.clone()].fill(1.0 / range.len() as f32);
                }
                let child = self.select(node);
                state.apply_unchecked(usize::from(self.tree.nodes[child].action));
                self.paths.push(child as u32);
                node = child;
            }
        }
        self.leaves.len() - before
    }

    /// Applies the evaluations of this search's leaves, rows `offset..` of `batch` (checked
    /// with [`Batch::check`]): their priors, the root noise, and the values backed up in place
    /// of the virtual losses.
    pub fn apply(&mut self, batch: &Batch, offset: usize) {
        let (a, p) = (batch.num_actions, batch.players);
        for (k, leaf) in std::mem::take(&mut self.leaves).into_iter().enumerate() {
            let row = offset + k;
            let node = leaf.node as usize;
            let range = self.tree.nodes[node].children();
            let len = range.len();
            if self.cfg.rollout {
                self.prior[range.clone()].fill(1.0 / len as f32);
            } else {
                let priors = &batch.priors[row * a..(row + 1) * a];
                let mut sum = 0.0f64;
                for i in range.clone() {
                    let w = priors[usize::from(self.tree.nodes[i].action)];
                    self.prior[i] = w;
                    sum += f64::from(w);
                }
                if sum > 0.0 && sum.is_finite() {
                    for i in range.clone() {
                        self.prior[i] = (f64::from(self.prior[i]) / sum) as f32;
                    }
                } else {
                    // No weight on any legal action: uniform.
                    self.prior[range.clone()].fill(1.0 / len as f32);
                }
            }
            if node == 0 && self.cfg.dirichlet_fraction > 0.0 && len > 0 {
                self.noise.resize(len, 0.0);
                self.rng
                    .dirichlet_into(self.cfg.dirichlet_alpha, &mut self.noise);
                let eps = self.cfg.dirichlet_fraction;
                for (i, &eta) in range.clone().zip(&self.noise) {
                    self.prior[i] = ((1.0 - eps) * f64::from(self.prior[i]) + eps * eta) as f32;
                }
            }
            // Entry k of the row is the value of player (mover + k) mod n, as the observation's
            // planes are ordered.
            for (k, &v) in batch.values[row * p..(row + 1) * p].iter().enumerate() {
                self.returns[(usize::from(leaf.mover) + k) % p] = f64::from(v);
            }
            self.tree
                .backup(&self.paths[leaf.path], &self.returns, 0, VIRTUAL_LOSS);
            self.tree.nodes[node].proof = OPEN;
            if node == 0 {
                self.root_ready = true;
            } else {
                self.done += 1;
            }
        }
        self.paths.clear();
    }

    /// What the search found (the same summary as UCT's), `stopped` saying what ended it when
    /// it is not over.
    pub fn result(&self, stopped: Option<StoppedBy>) -> SearchResult {
        let legal = self.root.legal_actions();
        let outcome = self.outcome(stopped);
        let seconds = self.started.elapsed().as_secs_f64();
        summarise(
            &self.root,
            &legal,
            std::slice::from_ref(&self.tree),
            std::slice::from_ref(&outcome),
            false,
            seconds,
        )
    }

    /// What this search did and what ended it (`stopped` when the caller knows).
    fn outcome(&self, stopped: Option<StoppedBy>) -> ThreadOutcome {
        let stopped = stopped.unwrap_or(if self.full {
            StoppedBy::Nodes
        } else if self.done < self.cfg.simulations && self.deadline.is_some() {
            StoppedBy::Time
        } else {
            StoppedBy::Iterations
        });
        ThreadOutcome {
            iterations: self.done,
            stopped,
        }
    }

    /// Runs this search to its end, `evaluator` evaluating its batches; `Some(Interrupted)`
    /// when `stop` or `abort` was set first.
    fn run(
        &mut self,
        evaluator: &mut Option<&mut dyn BatchEvaluator>,
        stop: Option<&AtomicBool>,
        abort: &AtomicBool,
    ) -> Result<Option<StoppedBy>> {
        let mut batch = Batch::new(&self.root, !self.cfg.rollout);
        loop {
            if stop.is_some_and(|f| f.load(Ordering::Relaxed)) || abort.load(Ordering::Relaxed) {
                return Ok(Some(StoppedBy::Interrupted));
            }
            batch.clear();
            self.gather(self.cfg.batch_size, &mut batch);
            evaluate(evaluator, &mut batch)?;
            self.apply(&batch, 0);
            if self.finished() {
                return Ok(None);
            }
        }
    }
}

/// The evaluators of threads 1.. of a search with `cfg` (`cfg.threads − 1` of them; all
/// `None` with rollouts), forked from `evaluator`; an [`Error::InvalidOption`] when it cannot
/// be forked.
fn fork_evaluators(
    cfg: &PuctConfig,
    evaluator: &Option<&mut dyn BatchEvaluator>,
) -> Result<Vec<Option<Box<dyn BatchEvaluator + Send>>>> {
    (1..cfg.threads)
        .map(|_| match evaluator {
            None => Ok(None),
            Some(e) => e.fork().map(Some).ok_or_else(|| {
                Error::InvalidOption(format!(
                    "PUCT threads={} needs a native evaluation (rollout or a graph network's \
                     checkpoint): this evaluator runs on one thread only",
                    cfg.threads
                ))
            }),
        })
        .collect()
}

/// Searches `root` with `cfg.threads` independent trees at once (root parallelisation): the
/// first on this thread with `evaluator`, the others on threads of their own with `forks`
/// ([`fork_evaluators`]); their root statistics summed.
fn search_threads<R: Rules + Send + Sync>(
    root: &R,
    cfg: &PuctConfig,
    evaluator: &mut Option<&mut dyn BatchEvaluator>,
    forks: &mut [Option<Box<dyn BatchEvaluator + Send>>],
    stop: Option<&AtomicBool>,
) -> Result<SearchResult> {
    let started = Instant::now();
    let abort = AtomicBool::new(false);
    let go = |t: usize, ev: &mut Option<&mut dyn BatchEvaluator>| {
        let mut search = PuctSearch::on_thread(root, &cfg.for_thread(t), t);
        let r = search.run(ev, stop, &abort);
        if r.is_err() {
            abort.store(true, Ordering::Relaxed);
        }
        r.map(|stopped| (search, stopped))
    };
    let outs: Vec<Result<(PuctSearch<R>, Option<StoppedBy>)>> = if forks.is_empty() {
        vec![go(0, evaluator)]
    } else {
        std::thread::scope(|scope| {
            let go = &go;
            let handles: Vec<_> = forks
                .iter_mut()
                .enumerate()
                .map(|(t, fork)| {
                    scope.spawn(move || {
                        let mut ev = fork.as_deref_mut().map(|e| e as &mut dyn BatchEvaluator);
                        go(t + 1, &mut ev)
                    })
                })
                .collect();
            let mut outs = vec![go(0, evaluator)];
            for h in handles {
                outs.push(match h.join() {
                    Ok(o) => o,
                    Err(e) => std::panic::resume_unwind(e),
                });
            }
            outs
        })
    };
    let mut trees = Vec::with_capacity(outs.len());
    let mut outcomes = Vec::with_capacity(outs.len());
    for out in outs {
        let (search, stopped) = out?;
        outcomes.push(search.outcome(stopped));
        trees.push(search.tree);
    }
    let legal = root.legal_actions();
    let seconds = started.elapsed().as_secs_f64();
    Ok(summarise(root, &legal, &trees, &outcomes, false, seconds))
}

/// Checks `batch` after an evaluator filled it.
fn evaluate(evaluator: &mut Option<&mut dyn BatchEvaluator>, batch: &mut Batch) -> Result<()> {
    if batch.len == 0 {
        return Ok(());
    }
    if let Some(e) = evaluator.as_mut() {
        e.evaluate(batch)?;
        batch.check()?;
    }
    Ok(())
}

/// The evaluator argument of a search: none exactly when the settings say rollout.
fn check_evaluator(cfg: &PuctConfig, evaluator: &Option<&mut dyn BatchEvaluator>) -> Result<()> {
    if cfg.rollout != evaluator.is_none() {
        return Err(Error::InvalidOption(
            "PUCT: an evaluator is needed exactly when the evaluation is not rollout".into(),
        ));
    }
    Ok(())
}

/// Searches `state` with `cfg` and `evaluator` (`None` with [`PuctConfig::rollout`]); once
/// `stop` is set the search ends within a batch (its result says
/// [`StoppedBy::Interrupted`]).
pub fn puct_search(
    state: &State,
    cfg: &PuctConfig,
    mut evaluator: Option<&mut dyn BatchEvaluator>,
    stop: Option<&AtomicBool>,
) -> Result<SearchResult> {
    cfg.validate()?;
    check_evaluator(cfg, &evaluator)?;
    check_state(state)?;
    let mut forks = fork_evaluators(cfg, &evaluator)?;
    each_state!(state, s => search_threads(s, cfg, &mut evaluator, &mut forks, stop))
}

/// One game of [`selfplay_puct`] in progress.
struct Playing<R: Rules> {
    state: R,
    search: Option<PuctSearch<R>>,
    game: SelfPlayGame,
    rng: Rng,
    /// The stream that draws full or fast searches (playout-cap randomisation).
    cap_rng: Rng,
    /// Whether the search in progress is a full one.
    full: bool,
    seed: u64,
    /// This game's rows of the batch being evaluated: (first row, count).
    rows: (usize, usize),
}

impl<R: Rules> Playing<R> {
    /// Draws whether the next move's search is a full or a fast one (playout-cap
    /// randomisation) and returns its settings.
    fn next_search(&mut self, cfg: &PuctConfig, cap: &PlayoutCap) -> PuctConfig {
        self.full = cap.all_full() || self.cap_rng.unit() < cap.full_share;
        if self.full {
            PuctConfig {
                seed: self.seed,
                ..cfg.clone()
            }
        } else {
            PuctConfig {
                seed: self.seed,
                simulations: cap.fast_simulations,
                dirichlet_fraction: 0.0,
                ..cfg.clone()
            }
        }
    }

    /// Records the position, the search's policy `r` and the move, and makes it (drawn by
    /// visits during the first `temperature_moves`).
    fn play(&mut self, r: &SearchResult, temperature_moves: usize) {
        let (size, na) = (
            self.state.observation_planes() * self.state.board().num_sites(),
            self.state.num_actions(),
        );
        let p = self.state.current_player().unwrap_or(0);
        let g = &mut self.game;
        let o = g.observations.len();
        g.observations.resize(o + size, 0.0);
        self.state.write_observation(&mut g.observations[o..]);
        let l = g.legal_masks.len();
        g.legal_masks.resize(l + na, false);
        self.state.write_legal_mask(&mut g.legal_masks[l..]);
        let q = g.policies.len();
        g.policies.resize(q + na, 0.0);
        r.policy_into(&mut g.policies[q..]);
        g.players.push(p as i8);
        g.full_search.push(self.full);
        g.search_values.push(r.value.clamp(-1.0, 1.0) as f32);
        let a = if g.actions.len() < temperature_moves {
            sample_by_visits(&r.actions, &r.visits, &mut self.rng).unwrap_or(r.best)
        } else {
            r.best
        };
        self.state.apply_unchecked(a as usize);
        g.actions.push(a);
        if self.state.is_terminal() {
            g.returns = self.state.returns().unwrap_or_default();
        }
    }
}

/// Plays the games `ids` of a self-play run in lock step: each round every unfinished game
/// gathers leaves, all of them go to the evaluator in one batch, and each game applies its
/// rows; a game whose search is over makes its move. With [`PuctConfig::threads`] above 1 each
/// move is a root-parallel search of its own instead, the games one after the other.
#[allow(clippy::too_many_arguments)]
fn selfplay_lockstep<R: Rules + Send + Sync>(
    start: &R,
    cfg: &PuctConfig,
    mut evaluator: Option<&mut dyn BatchEvaluator>,
    seed: u64,
    ids: &[u64],
    temperature_moves: usize,
    cap: PlayoutCap,
    stop: Option<&AtomicBool>,
) -> Result<Vec<SelfPlayGame>> {
    let mut forks = fork_evaluators(cfg, &evaluator)?;
    let mut games: Vec<Playing<R>> = ids
        .iter()
        .map(|&index| {
            let gs = game_seed(seed, index);
            Playing {
                state: start.clone(),
                search: None,
                game: SelfPlayGame::default(),
                rng: Rng::stream(gs, 1),
                cap_rng: Rng::stream(gs, 2),
                full: true,
                seed: Rng::stream(gs ^ cfg.seed, 1000).next_u64(),
                rows: (0, 0),
            }
        })
        .collect();
    let mut batch = Batch::new(start, !cfg.rollout);
    loop {
        if stop.is_some_and(|f| f.load(Ordering::Relaxed)) {
            break;
        }
        batch.clear();
        let mut live = 0;
        for g in games.iter_mut() {
            if g.state.is_terminal() {
                continue;
            }
            live += 1;
            if cfg.threads > 1 {
                let c = g.next_search(cfg, &cap);
                let r = search_threads(&g.state, &c, &mut evaluator, &mut forks, stop)?;
                if r.stopped_by == StoppedBy::Interrupted {
                    break;
                }
                g.play(&r, temperature_moves);
                continue;
            }
            if g.search.is_none() {
                let c = g.next_search(cfg, &cap);
                g.search = Some(PuctSearch::new(&g.state, &c));
            }
            let Some(search) = g.search.as_mut() else {
                continue;
            };
            let first = batch.len;
            search.gather(cfg.batch_size, &mut batch);
            g.rows = (first, batch.len - first);
        }
        if live == 0 {
            break;
        }
        evaluate(&mut evaluator, &mut batch)?;
        for g in games.iter_mut() {
            let Some(search) = g.search.as_mut() else {
                continue;
            };
            search.apply(&batch, g.rows.0);
            if !search.finished() {
                continue;
            }
            let r = search.result(None);
            g.search = None;
            g.play(&r, temperature_moves);
        }
    }
    Ok(games.into_iter().map(|g| g.game).collect())
}

/// Self-play games `first..first + count` of a run with `seed`, every move chosen by a PUCT
/// search with `cfg` (the first `temperature_moves` drawn in proportion to root visits).
///
/// With an evaluator, all the games are played at once on this thread and every evaluator
/// call serves the leaves of all of them (up to `count × batch_size` rows). With rollouts
/// (`evaluator` `None`), the games run in parallel on the current rayon pool when `parallel`.
/// Game `i` draws from streams derived from `(seed, i)` either way. `cap` chooses each move's
/// search, full or fast ([`PlayoutCap`]). Once `stop` is set the games end within a round,
/// unfinished (the caller discards them).
#[allow(clippy::too_many_arguments)]
pub fn selfplay_puct(
    game: &Game,
    cfg: &PuctConfig,
    evaluator: Option<&mut dyn BatchEvaluator>,
    seed: u64,
    first: u64,
    count: usize,
    temperature_moves: usize,
    cap: PlayoutCap,
    parallel: bool,
    stop: Option<&AtomicBool>,
) -> Result<Vec<SelfPlayGame>> {
    cfg.validate()?;
    cap.validate(cfg)?;
    check_evaluator(cfg, &evaluator)?;
    let start = game.new_state();
    let ids: Vec<u64> = (first..first + count as u64).collect();
    each_state!(&start, s => {
        if evaluator.is_some() {
            selfplay_lockstep(s, cfg, evaluator, seed, &ids, temperature_moves, cap, stop)
        } else {
            let one = |&i: &u64| {
                selfplay_lockstep(s, cfg, None, seed, &[i], temperature_moves, cap, stop)
                    .map(|mut v| v.pop().unwrap_or_default())
            };
            if parallel {
                ids.par_iter().map(one).collect()
            } else {
                ids.iter().map(one).collect()
            }
        }
    })
}

/// A player of [`play_puct_games`]: a native agent, or a PUCT search.
#[derive(Clone, Debug, PartialEq)]
pub enum MatchAgent {
    /// An MCTS or random agent, playing as in [`super::play::play_range`].
    Native(Agent),
    /// A PUCT search with these settings (its evaluator given beside it).
    Puct(PuctConfig),
}

/// Who sits in one seat of one game of [`play_puct_games`].
enum Sitting {
    Native(Seat),
    /// The agent's index and the search seed of this seat.
    Puct(usize, u64),
}

/// One game of [`play_puct_games`] in progress.
struct InPlay {
    state: State,
    seats: Vec<Sitting>,
    record: GameRecord,
    search: Option<PuctSearch<State>>,
    /// The agent whose batch holds this game's leaves, and its first row there.
    rows: (usize, usize),
    over: bool,
}

impl InPlay {
    fn finish(&mut self) {
        self.over = true;
        self.record.truncated = self.state.truncated();
        self.record.ranks = self.state.ranks().unwrap_or_default();
        self.record.returns = self.state.returns().unwrap_or_default();
        self.record.scores = self.state.scores();
    }

    fn play(&mut self, a: u32, p: usize, v: f32) {
        self.state.apply_unchecked(a as usize);
        self.record.actions.push(a);
        self.record.movers.push(p as i8);
        self.record.values.push(v);
    }
}

/// Plays games `first..first + count` of a match (seatings `seats`, `count × num_players`
/// agent indices) in lock step: each round every game whose player to move is a PUCT search
/// gathers leaves, each PUCT agent's leaves of all the games go to its evaluator in one call
/// (`evaluators[i]`, `None` for native agents and rollouts), and the games apply them; native
/// agents move at once. Game `i` draws from streams derived from `(seed, i)` as in
/// [`super::play::play_range`]. Returns the records of the games finished before `stop` was set
/// and before the first unfinished one (all of them when it never was).
#[allow(clippy::too_many_arguments)]
pub fn play_puct_games(
    game: &Game,
    agents: &[MatchAgent],
    evaluators: &mut [Option<&mut dyn BatchEvaluator>],
    seats: &[usize],
    seed: u64,
    first: u64,
    stop: Option<&AtomicBool>,
) -> Result<Vec<GameRecord>> {
    let n = game.num_players();
    if agents.is_empty() || agents.len() != evaluators.len() {
        return Err(Error::InvalidOption(
            "a match needs at least one agent, and one evaluator slot per agent".into(),
        ));
    }
    if seats.len() % n != 0 || seats.iter().any(|&a| a >= agents.len()) {
        return Err(Error::InvalidOption(format!(
            "seats must hold {n} agent indices below {} per game",
            agents.len()
        )));
    }
    for (a, e) in agents.iter().zip(evaluators.iter()) {
        match a {
            MatchAgent::Native(Agent::Mcts(cfg)) => cfg.validate()?,
            MatchAgent::Native(Agent::Random { .. }) => {}
            MatchAgent::Puct(cfg) => {
                cfg.validate()?;
                check_evaluator(cfg, e)?;
            }
        }
    }
    let mut forks = agents
        .iter()
        .zip(evaluators.iter())
        .map(|(a, e)| match a {
            MatchAgent::Puct(cfg) => fork_evaluators(cfg, e),
            MatchAgent::Native(_) => Ok(Vec::new()),
        })
        .collect::<Result<Vec<_>>>()?;
    let start = game.new_state();
    let mut batches: Vec<Batch> = agents
        .iter()
        .map(|a| Batch::new(&start, matches!(a, MatchAgent::Puct(c) if !c.rollout)))
        .collect();
    let mut games: Vec<InPlay> = Vec::with_capacity(seats.len() / n);
    for (i, seating) in seats.chunks(n).enumerate() {
        let gs = game_seed(seed, first + i as u64);
        let mut sitting = Vec::with_capacity(n);
        for (j, &a) in seating.iter().enumerate() {
            sitting.push(match &agents[a] {
                MatchAgent::Native(agent) => Sitting::Native(Seat::new(agent, gs, j)?),
                MatchAgent::Puct(cfg) => {
                    Sitting::Puct(a, Rng::stream(gs ^ cfg.seed, 1000 + j as u64).next_u64())
                }
            });
        }
        games.push(InPlay {
            state: start.clone(),
            seats: sitting,
            record: GameRecord {
                actions: Vec::new(),
                movers: Vec::new(),
                values: Vec::new(),
                returns: Vec::new(),
                ranks: Vec::new(),
                scores: None,
                truncated: false,
            },
            search: None,
            rows: (0, 0),
            over: false,
        });
    }
    let mut buf = Vec::new();
    let stopped = || stop.is_some_and(|f| f.load(Ordering::Relaxed));
    loop {
        if stopped() {
            break;
        }
        batches.iter_mut().for_each(Batch::clear);
        let mut live = 0;
        for g in games.iter_mut().filter(|g| !g.over) {
            // Native agents move at once, until a PUCT search is to move or the game ends.
            let (k, search_seed) = loop {
                let Some(p) = g.state.current_player() else {
                    break (usize::MAX, 0);
                };
                match &mut g.seats[p] {
                    Sitting::Native(seat) => {
                        let (a, v) = seat.act(&g.state, &g.record.actions, &mut buf, stop)?;
                        g.play(a, p, v);
                    }
                    Sitting::Puct(k, s) => {
                        let (k, s) = (*k, *s);
                        let MatchAgent::Puct(cfg) = &agents[k] else {
                            unreachable!("a PUCT seat names a PUCT agent")
                        };
                        if cfg.threads == 1 {
                            break (k, s);
                        }
                        // A root-parallel search moves at once, as a native agent does.
                        let c = PuctConfig {
                            seed: s,
                            ..cfg.clone()
                        };
                        let r =
                            search_threads(&g.state, &c, &mut evaluators[k], &mut forks[k], stop)?;
                        if r.stopped_by == StoppedBy::Interrupted {
                            return Ok(finished_prefix(games));
                        }
                        g.play(r.best, p, r.value as f32);
                    }
                }
                if stopped() {
                    return Ok(finished_prefix(games));
                }
            };
            if k == usize::MAX {
                g.finish();
                continue;
            }
            live += 1;
            let MatchAgent::Puct(cfg) = &agents[k] else {
                unreachable!("a PUCT seat names a PUCT agent")
            };
            if g.search.is_none() {
                let c = PuctConfig {
                    seed: search_seed,
                    ..cfg.clone()
                };
                g.search = Some(PuctSearch::new(&g.state, &c));
            }
            let Some(search) = g.search.as_mut() else {
                continue;
            };
            let row = batches[k].len;
            search.gather(cfg.batch_size, &mut batches[k]);
            g.rows = (k, row);
        }
        if live == 0 {
            break;
        }
        for (e, b) in evaluators.iter_mut().zip(batches.iter_mut()) {
            evaluate(e, b)?;
        }
        for g in games.iter_mut().filter(|g| !g.over) {
            let Some(search) = g.search.as_mut() else {
                continue;
            };
            search.apply(&batches[g.rows.0], g.rows.1);
            if search.finished() {
                let r = search.result(None);
                g.search = None;
                let p = g.state.current_player().unwrap_or(0);
                g.play(r.best, p, r.value as f32);
            }
        }
    }
    Ok(finished_prefix(games))
}

/// The records of the games before the first unfinished one.
fn finished_prefix(games: Vec<InPlay>) -> Vec<GameRecord> {
    games
        .into_iter()
        .take_while(|g| g.over)
        .map(|g| g.record)
        .collect()
}

#[cfg(test)]
#[path = "puct_tests.rs"]
mod tests;
