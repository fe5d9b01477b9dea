//! Agents (`MCTS`, `RandomAgent`), `SearchResult`, and native matches and self-play.

use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::Instant;

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyTuple};

use super::game::{PyGame, PyState};
use super::interrupt::interruptible;
use super::memory::node_cap;
use super::{
    as_invalid_option, is_bool, setting_arg, threads_arg, to_py, InvalidOptionError, MAX_THREADS,
};
use crate::games::{Game, Rules};
use crate::lab::lab_range_into;
use crate::lab::Columns;
use crate::search::mcts::{
    random_agent_action, DEFAULT_GRAVE_BIAS, DEFAULT_GRAVE_C, DEFAULT_GRAVE_REF,
};
use crate::search::play::{play_range_map, selfplay_games as selfplay_range};
use crate::search::{
    Agent, GameRecord, Mcts, MctsConfig, Playouts, Preset, SearchResult, Selection, DEFAULT_C,
    DEFAULT_MAX_NODES,
};
use crate::sim::batch::thread_pool;

/// Iterations of an `MCTS()` given no budget, as of the agent string `"mcts"`
/// (`stonefield.agents.DEFAULT_ITERATIONS`).
const DEFAULT_ITERATIONS: u64 = 1000;

pub(crate) fn bad(msg: String) -> PyErr {
    InvalidOptionError::new_err(msg)
}

/// A type name and repr for error messages.
pub(crate) fn describe(v: &Bound<'_, PyAny>) -> String {
    let ty = v
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "object".into());
    let r = v.repr().map(|r| r.to_string()).unwrap_or_default();
    format!("{ty} {r}")
}

/// A real setting (int or float, not bool), finite and ≥ `min` (> `min` when `strict`).
pub(crate) fn real_arg(name: &str, v: &Bound<'_, PyAny>, min: f64, strict: bool) -> PyResult<f64> {
    let what = if strict {
        format!("a finite number > {min}")
    } else {
        format!("a finite number ≥ {min}")
    };
    if v.is_instance_of::<PyBool>() {
        return Err(bad(format!("{name} must be {what}, got {}", describe(v))));
    }
    let x: f64 = v
        .extract()
        .map_err(|_| bad(format!("{name} must be {what}, got {}", describe(v))))?;
    if !x.is_finite() || x < min || strict && x == min {
        return Err(bad(format!("{name} must be {what}, got {x}")));
    }
    Ok(x)
}

/// A bool setting: True or False (numpy bools too), nothing else.
pub(crate) fn bool_arg(name: &str, v: &Bound<'_, PyAny>) -> PyResult<bool> {
    if !is_bool(v) {
        return Err(bad(format!(
            "{name} must be True or False, got {}",
            describe(v)
        )));
    }
    v.extract()
}

pub(crate) fn opt<'a, 'py>(v: &'a Option<Bound<'py, PyAny>>) -> Option<&'a Bound<'py, PyAny>> {
    v.as_ref().filter(|v| !v.is_none())
}

/// The state argument of `act` and `analyse`.
pub(crate) fn state_arg(state: &Bound<'_, PyAny>) -> PyResult<(crate::games::State, Vec<u32>)> {
    let s = state.cast::<PyState>().map_err(|_| {
        PyTypeError::new_err(format!(
            "agents act on a stonefield.State, got {}",
            describe(state)
        ))
    })?;
    let s = s.borrow();
    Ok((s.session.state().clone(), s.session.history().to_vec()))
}

/// Monte Carlo tree search (UCT) run in Rust, with MCTS-Solver for two-player games.
///
/// Each iteration walks down the tree by UCB1 on the mean return of the player who moved into
/// each node, adds one node, finishes the game with uniformly random moves, and backs up every
/// player's return. The move played is the most visited root action (ties: higher mean, then
/// lower action); a proven win is played at once and proven losses are avoided. The GIL is
/// released while it searches, and Ctrl-C stops a long search (KeyboardInterrupt).
///
/// Args:
///     iterations: iterations in all (split over the threads), or None for a time budget only.
///         With neither budget the search gets 1,000 iterations (as the agent string "mcts").
///     time: seconds of wall time, or None. With both budgets the first reached stops.
///     c: the UCB1 exploration constant (default √2, for returns in [−1, 1]; 0 with GRAVE).
///     threads: root parallelism: independent trees on this many threads (1 to 256), each with
///         its own random stream from the seed, their root statistics summed.
///     solver: MCTS-Solver; None turns it on for two-player games (it never runs with more).
///     seed: with an iteration budget alone, a search is a pure function of the state, the
///         settings and the seed (and the thread count).
///     max_nodes: the most tree nodes over all threads (24 bytes each, 32 with GRAVE); the
///         search stops when the tree is full and says so in `SearchResult.stopped_by`.
///     reuse: keep the tree between consecutive moves of one game, so the next search starts
///         from the subtree of the position reached. Off by default: with it a result depends
///         on the searches made before, not only on the state and the seed.
///     selection: ``"uct"`` (default) or ``"grave"``: Generalized RAVE (Cazenave 2015). Each
///         node also keeps, per child, all-moves-as-first (AMAF) statistics: the returns of
///         the playouts through it in which the child's mover played the child's site later
///         on. A child's mean is mixed with the AMAF mean of its action taken at the closest
///         ancestor where the same player chooses and which has at least ``grave_ref``
///         playouts, by β = m / (m + n + grave_bias·m·n) (n the child's playouts, m the AMAF
///         ones); untried children are ranked by their AMAF mean alone. Only placements on
///         sites take AMAF statistics: a pass, and Faraday's second-colour offer stones,
///         accept and swap, are chosen by their own means (as UCT would). Nodes take 32 bytes
///         instead of 24.
///     grave_ref: GRAVE's reference threshold (default 50), an integer ≥ 1 or ``math.inf``
///         (never use AMAF statistics: GRAVE then plays exactly as UCT for the same seed).
///     grave_bias: GRAVE's β bias (default 1e-6), a finite number ≥ 0.
///     playouts: ``"random"`` (default, the game's own uniform sampler), ``"mast"``: each
///         playout action is the better, by its mean return so far in this search for the
///         player making it, of two uniformly drawn legal actions (Move-Average Sampling), or
///         ``"knowledge"``: as MAST, but the game's playout knowledge decides first (Subsume
///         prefers perimeter cells; Windflowers prefers actions whose stone no opponent could
///         replace at once, then the pass; the Smallholder and Faraday have none, so it plays
///         as MAST there).
///     preset: ``"strong"``: the settings of selection, c, grave_ref, grave_bias and playouts
///         that won the project's equal-time matches for each game (``resolved(game)`` shows
///         them). Those five settings may not be given with a preset; they read None.
///
/// Raises:
///     InvalidOptionError: a setting that makes no sense (iterations=0, negative c or time,
///         threads outside 1..256, max_nodes below 1024 per thread, an unknown selection,
///         playouts or preset, grave_ref below 1, a negative grave_bias, a preset with any of
///         the settings it decides).
///
/// >>> import stonefield as sf
/// >>> state = sf.make("subsume", size=3).new_state()
/// >>> agent = sf.MCTS(iterations=200, seed=1)
/// >>> action = agent.act(state)
/// >>> bool(state.is_legal(action))
/// True
/// >>> agent.analyse(state).best == action
/// True
/// >>> import pickle
/// >>> pickle.loads(pickle.dumps(agent))
/// MCTS(iterations=200, time=None, c=1.4142135623730951, threads=1, solver=None, seed=1, max_nodes=10000000, reuse=False)
/// >>> sf.MCTS().iterations
/// 1000
#[pyclass(name = "MCTS", module = "stonefield", frozen)]
pub struct PyMcts {
    pub(crate) config: MctsConfig,
    agent: Mutex<Mcts>,
}

impl PyMcts {
    /// Whether a search is surely short: a time budget of at most 0.05 s, or so few iterations
    /// for the board that even a large board's playouts (about 5 µs per site) finish within
    /// about 0.1 s. Only those run on this thread; every other goes through [`interruptible`].
    fn surely_short(&self, state: &crate::games::State) -> bool {
        let sites = state.board().num_sites().max(1) as u64;
        let by_time = self.config.time.is_some_and(|t| t <= 0.05);
        let by_iterations = self
            .config
            .iterations
            .is_some_and(|i| i.saturating_mul(sites) <= 20_000);
        by_time || by_iterations
    }

    /// Searches with the GIL released; Ctrl-C stops any search that is not surely short
    /// (KeyboardInterrupt). The tree is capped at the memory available ([`node_cap`]). With
    /// `deciding` it is the search an agent plays by ([`Mcts::decide`]).
    fn search(
        &self,
        py: Python<'_>,
        state: &Bound<'_, PyAny>,
        deciding: bool,
    ) -> PyResult<SearchResult> {
        let (state, history) = state_arg(state)?;
        // Each iteration adds at most one node's children: a small budget cannot fill memory,
        // and is spared the look at /proc.
        let most = self
            .config
            .iterations
            .map_or(u64::MAX, |i| i.saturating_mul(state.num_actions() as u64));
        let check = self.config.max_nodes > MIN_NODES_CHECKED && most > MIN_NODES_CHECKED as u64;
        let run = |stop: Option<&AtomicBool>| {
            let mut agent = self.agent.lock().unwrap_or_else(|e| e.into_inner());
            if check {
                agent.cap_nodes(node_cap(self.config.threads));
            }
            if deciding {
                agent.decide(&state, &history, stop)
            } else {
                agent.search_until(&state, &history, stop)
            }
        };
        if self.surely_short(&state) {
            return py.detach(|| run(None)).map_err(to_py);
        }
        match interruptible(py, |stop| run(Some(stop))) {
            (_, Some(e)) => Err(e),
            (result, None) => result.map_err(to_py),
        }
    }
}

/// Lowers `cfg.max_nodes` so that `searches` searches of it at once fit in the memory available
/// ([`node_cap`]); a config allowed no more than [`MIN_NODES_CHECKED`] is left alone.
fn cap_config(cfg: &mut MctsConfig, searches: usize) {
    if cfg.max_nodes > MIN_NODES_CHECKED {
        let each = node_cap(searches * cfg.threads) / searches.max(1);
        let least = crate::search::mcts::MIN_NODES_PER_THREAD * cfg.threads;
        cfg.max_nodes = cfg.max_nodes.min(each.max(least));
    }
}

/// Trees allowed at most this many nodes are not checked against the memory available (a
/// million nodes are 24 MB).
const MIN_NODES_CHECKED: usize = 1 << 20;

#[pymethods]
impl PyMcts {
    #[new]
    #[pyo3(signature = (iterations = None, time = None, c = None, threads = None, solver = None,
                        seed = None, max_nodes = None, reuse = None, selection = None,
                        grave_ref = None, grave_bias = None, playouts = None, preset = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        iterations: Option<Bound<'_, PyAny>>,
        time: Option<Bound<'_, PyAny>>,
        c: Option<Bound<'_, PyAny>>,
        threads: Option<Bound<'_, PyAny>>,
        solver: Option<Bound<'_, PyAny>>,
        seed: Option<Bound<'_, PyAny>>,
        max_nodes: Option<Bound<'_, PyAny>>,
        reuse: Option<Bound<'_, PyAny>>,
        selection: Option<Bound<'_, PyAny>>,
        grave_ref: Option<Bound<'_, PyAny>>,
        grave_bias: Option<Bound<'_, PyAny>>,
        playouts: Option<Bound<'_, PyAny>>,
        preset: Option<Bound<'_, PyAny>>,
    ) -> PyResult<PyMcts> {
        let preset = opt(&preset)
            .map(|v| name_arg("preset", v).and_then(|n| Preset::from_name(&n).map_err(to_py)))
            .transpose()?;
        if preset.is_some() {
            let given: Vec<&str> = [
                ("c", &c),
                ("selection", &selection),
                ("grave_ref", &grave_ref),
                ("grave_bias", &grave_bias),
                ("playouts", &playouts),
            ]
            .iter()
            .filter(|(_, v)| opt(v).is_some())
            .map(|(k, _)| *k)
            .collect();
            if !given.is_empty() {
                return Err(bad(format!(
                    "MCTS preset sets c, selection, grave_ref, grave_bias and playouts for each \
                     game; give either the preset or {} (got both)",
                    given.join(", ")
                )));
            }
        }
        let config = MctsConfig {
            iterations: opt(&iterations)
                .map(|v| setting_arg(v, "iterations", 1, u64::MAX))
                .transpose()?,
            time: opt(&time)
                .map(|v| real_arg("time", v, 0.0, true))
                .transpose()?,
            c: DEFAULT_C,
            threads: opt(&threads)
                .map(|v| setting_arg(v, "threads", 1, MAX_THREADS))
                .transpose()?
                .unwrap_or(1) as usize,
            solver: opt(&solver).map(|v| bool_arg("solver", v)).transpose()?,
            seed: opt(&seed)
                .map(|v| setting_arg(v, "seed", 0, u64::MAX))
                .transpose()?
                .unwrap_or(0),
            max_nodes: opt(&max_nodes)
                .map(|v| setting_arg(v, "max_nodes", 1, u32::MAX.into()))
                .transpose()?
                .map_or(DEFAULT_MAX_NODES, |n| n as usize),
            reuse: opt(&reuse)
                .map(|v| bool_arg("reuse", v))
                .transpose()?
                .unwrap_or(false),
            selection: opt(&selection)
                .map(|v| {
                    name_arg("selection", v).and_then(|n| Selection::from_name(&n).map_err(to_py))
                })
                .transpose()?
                .unwrap_or(Selection::Uct),
            grave_ref: opt(&grave_ref)
                .map(grave_ref_arg)
                .transpose()?
                .unwrap_or(DEFAULT_GRAVE_REF),
            grave_bias: opt(&grave_bias)
                .map(|v| real_arg("grave_bias", v, 0.0, false))
                .transpose()?
                .unwrap_or(DEFAULT_GRAVE_BIAS),
            playouts: opt(&playouts)
                .map(|v| {
                    name_arg("playouts", v).and_then(|n| Playouts::from_name(&n).map_err(to_py))
                })
                .transpose()?
                .unwrap_or(Playouts::Random),
            preset,
        };
        // UCT explores by UCB1 (c = √2); GRAVE's AMAF statistics do the exploring (c = 0, as
        // Ludii's MC-GRAVE), unless a c is given.
        let c = opt(&c).map(|v| real_arg("c", v, 0.0, false)).transpose()?;
        let mut config = MctsConfig {
            c: c.unwrap_or(if config.selection == Selection::Grave {
                DEFAULT_GRAVE_C
            } else {
                DEFAULT_C
            }),
            ..config
        };
        if config.iterations.is_none() && config.time.is_none() {
            // No budget at all: the agent string "mcts" means the same.
            config.iterations = Some(DEFAULT_ITERATIONS);
        }
        let agent = Mcts::new(config.clone()).map_err(to_py)?;
        Ok(PyMcts {
            config,
            agent: Mutex::new(agent),
        })
    }

    /// The action to play in `state` (the state is not changed). With a time budget, a
    /// forced move (one legal action) is searched for a tenth of the time; ``analyse``
    /// always spends the whole budget.
    ///
    /// Raises:
    ///     GameOverError: the game is over.
    fn act(&self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<u32> {
        Ok(self.search(py, state, true)?.best)
    }

    /// Searches `state` and reports what the search found (the state is not changed).
    ///
    /// Raises:
    ///     GameOverError: the game is over.
    fn analyse(&self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<PySearchResult> {
        Ok(PySearchResult {
            result: self.search(py, state, false)?,
        })
    }

    /// Forgets the tree kept for reuse.
    fn reset(&self) {
        self.agent.lock().unwrap_or_else(|e| e.into_inner()).reset();
    }

    #[getter]
    fn iterations(&self) -> Option<u64> {
        self.config.iterations
    }
    #[getter]
    fn time(&self) -> Option<f64> {
        self.config.time
    }
    #[getter]
    fn c(&self) -> Option<f64> {
        self.unless_preset(self.config.c)
    }
    #[getter]
    fn selection(&self) -> Option<&'static str> {
        self.unless_preset(self.config.selection.name())
    }
    #[getter]
    fn grave_ref(&self) -> Option<u32> {
        self.unless_preset(self.config.grave_ref)
    }
    #[getter]
    fn grave_bias(&self) -> Option<f64> {
        self.unless_preset(self.config.grave_bias)
    }
    #[getter]
    fn playouts(&self) -> Option<&'static str> {
        self.unless_preset(self.config.playouts.name())
    }
    #[getter]
    fn preset(&self) -> Option<&'static str> {
        self.config.preset.map(Preset::name)
    }

    /// The agent with the settings it searches `game` with: the preset's for that game when
    /// a preset is set, else itself.
    ///
    /// >>> import stonefield as sf
    /// >>> sf.MCTS(iterations=100, preset="strong").resolved(sf.make("windflowers")).selection
    /// 'grave'
    fn resolved(&self, game: &Bound<'_, PyAny>) -> PyResult<PyMcts> {
        let game = game.cast::<PyGame>().map_err(|_| {
            PyTypeError::new_err(format!(
                "resolved takes a stonefield.Game, got {}",
                describe(game)
            ))
        })?;
        let config = self.config.resolved(game.get().game.name());
        let agent = Mcts::new(config.clone()).map_err(to_py)?;
        Ok(PyMcts {
            config,
            agent: Mutex::new(agent),
        })
    }
    #[getter]
    fn threads(&self) -> usize {
        self.config.threads
    }
    #[getter]
    fn solver(&self) -> Option<bool> {
        self.config.solver
    }
    #[getter]
    fn seed(&self) -> u64 {
        self.config.seed
    }
    #[getter]
    fn max_nodes(&self) -> usize {
        self.config.max_nodes
    }
    #[getter]
    fn reuse(&self) -> bool {
        self.config.reuse
    }

    fn __repr__(&self) -> String {
        let c = &self.config;
        let none = |v: Option<String>| v.unwrap_or_else(|| "None".into());
        let head = format!(
            "MCTS(iterations={}, time={}",
            none(c.iterations.map(|i| i.to_string())),
            none(c.time.map(py_float)),
        );
        let tail = format!(
            "threads={}, solver={}, seed={}, max_nodes={}, reuse={}",
            c.threads,
            none(c.solver.map(py_bool)),
            c.seed,
            c.max_nodes,
            py_bool(c.reuse)
        );
        match c.preset {
            Some(p) => format!("{head}, {tail}, preset='{}')", p.name()),
            None if c.selection == Selection::Uct && c.playouts == Playouts::Random => {
                format!("{head}, c={}, {tail})", py_float(c.c))
            }
            None => format!(
                "{head}, c={}, {tail}, selection='{}', grave_ref={}, grave_bias={}, playouts='{}')",
                py_float(c.c),
                c.selection.name(),
                c.grave_ref,
                py_float(c.grave_bias),
                c.playouts.name()
            ),
        }
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyMcts>()
            .map(|o| o.get().config == self.config)
            .unwrap_or(false)
    }

    fn __hash__(&self) -> u64 {
        hash_str(&self.__repr__())
    }

    /// Pickles the settings (a kept tree is not saved).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let c = &slf.get().config;
        let free = c.preset.is_none();
        let budget = (c.iterations, c.time, free.then_some(c.c)).into_pyobject(py)?;
        let rest = (c.threads, c.solver, c.seed, c.max_nodes, c.reuse).into_pyobject(py)?;
        let search = (
            free.then_some(c.selection.name()),
            free.then_some(c.grave_ref),
            free.then_some(c.grave_bias),
            free.then_some(c.playouts.name()),
            c.preset.map(Preset::name),
        )
            .into_pyobject(py)?;
        let args = PyTuple::new(
            py,
            budget
                .iter()
                .chain(rest.iter())
                .chain(search.iter())
                .collect::<Vec<_>>(),
        )?;
        PyTuple::new(
            py,
            [
                slf.get_type().into_any(),
                args.into_pyobject(py)?.into_any(),
            ],
        )
    }
}

impl PyMcts {
    /// `v`, or `None` when a preset decides this setting.
    fn unless_preset<T>(&self, v: T) -> Option<T> {
        self.config.preset.is_none().then_some(v)
    }
}

/// A setting given by name (`selection`, `playouts`, `preset`).
fn name_arg(what: &str, v: &Bound<'_, PyAny>) -> PyResult<String> {
    v.extract::<String>()
        .map_err(|_| bad(format!("{what} must be a string, got {}", describe(v))))
}

/// `grave_ref`: an integer ≥ 1, or infinity (never use AMAF statistics: GRAVE plays as UCT).
fn grave_ref_arg(v: &Bound<'_, PyAny>) -> PyResult<u32> {
    if let Ok(x) = v.extract::<f64>() {
        if x == f64::INFINITY && !v.is_instance_of::<PyBool>() {
            return Ok(u32::MAX);
        }
    }
    setting_arg(v, "grave_ref", 1, u64::from(u32::MAX)).map(|n| n as u32)
}

fn hash_str(s: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    s.hash(&mut h);
    h.finish()
}

fn py_float(x: f64) -> String {
    let s = format!("{x:?}");
    if s.contains('.') || s.contains('e') || s.contains("inf") || s.contains("NaN") {
        s
    } else {
        format!("{s}.0")
    }
}

fn py_bool(b: bool) -> String {
    if b { "True" } else { "False" }.into()
}

/// Plays uniformly random legal actions.
///
/// `act` is a pure function of the state and the seed: the same seed gives the same action in
/// the same position.
///
/// >>> import stonefield as sf
/// >>> state = sf.make("windflowers").new_state()
/// >>> agent = sf.RandomAgent(seed=3)
/// >>> agent.act(state) == agent.act(state)
/// True
/// >>> agent
/// RandomAgent(seed=3)
#[pyclass(name = "RandomAgent", module = "stonefield", frozen)]
pub struct PyRandomAgent {
    seed: u64,
}

#[pymethods]
impl PyRandomAgent {
    #[new]
    #[pyo3(signature = (seed = None))]
    fn new(seed: Option<Bound<'_, PyAny>>) -> PyResult<PyRandomAgent> {
        Ok(PyRandomAgent {
            seed: opt(&seed)
                .map(|v| setting_arg(v, "seed", 0, u64::MAX))
                .transpose()?
                .unwrap_or(0),
        })
    }

    /// A uniformly random legal action in `state` (the state is not changed).
    ///
    /// Raises:
    ///     GameOverError: the game is over.
    fn act(&self, state: &Bound<'_, PyAny>) -> PyResult<u32> {
        let (state, _) = state_arg(state)?;
        random_agent_action(&state, self.seed).map_err(to_py)
    }

    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    fn __repr__(&self) -> String {
        format!("RandomAgent(seed={})", self.seed)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyRandomAgent>()
            .map(|o| o.get().seed == self.seed)
            .unwrap_or(false)
    }

    fn __hash__(&self) -> u64 {
        hash_str(&self.__repr__())
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let args = (slf.get().seed,);
        PyTuple::new(
            py,
            [
                slf.get_type().into_any(),
                args.into_pyobject(py)?.into_any(),
            ],
        )
    }
}

/// What an MCTS search found. Per-action arrays have one entry per legal root action, in
/// ascending order of action.
///
/// >>> import stonefield as sf
/// >>> res = sf.MCTS(iterations=300).analyse(sf.make("smallholder").new_state())
/// >>> int(res.visits.sum()), res.iterations, res.stopped_by
/// (300, 300, 'iterations')
/// >>> res.pv[0] == res.best
/// True
#[pyclass(name = "SearchResult", module = "stonefield", frozen)]
pub struct PySearchResult {
    pub(crate) result: SearchResult,
}

#[pymethods]
impl PySearchResult {
    /// The legal root actions, ascending (int64).
    #[getter]
    fn actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        PyArray1::from_iter(py, self.result.actions.iter().map(|&a| i64::from(a)))
    }
    /// Visits of each root action (int64).
    #[getter]
    fn visits<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        PyArray1::from_iter(py, self.result.visits.iter().map(|&v| v as i64))
    }
    /// Mean return of each root action for the player to move (float64; 0 if unvisited).
    #[getter]
    fn values<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        PyArray1::from_slice(py, &self.result.values)
    }
    /// Root visit fractions over the whole action space (float64, num_actions).
    #[getter]
    fn policy<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        PyArray1::from_vec(py, self.result.policy())
    }
    /// The root's mean return for the player to move.
    #[getter]
    fn value(&self) -> f64 {
        self.result.value
    }
    /// The action `act` plays.
    #[getter]
    fn best(&self) -> u32 {
        self.result.best
    }
    /// Iterations run, over all threads.
    #[getter]
    fn iterations(&self) -> u64 {
        self.result.iterations
    }
    /// Wall time of the search in seconds.
    #[getter]
    fn seconds(&self) -> f64 {
        self.result.seconds
    }
    /// Tree nodes allocated, over all threads.
    #[getter]
    fn nodes(&self) -> u64 {
        self.result.nodes
    }
    /// None, or +1 / −1 / 0 when the root is proven won / lost / drawn for the player to move.
    #[getter]
    fn proven(&self) -> Option<i8> {
        self.result.proven
    }
    /// The principal variation: the most visited path from the root.
    #[getter]
    fn pv(&self) -> Vec<u32> {
        self.result.pv.clone()
    }
    /// What ended the search: "iterations", "time", "nodes" or "proven".
    #[getter]
    fn stopped_by(&self) -> &'static str {
        self.result.stopped_by.name()
    }

    fn __repr__(&self) -> String {
        let r = &self.result;
        format!(
            "SearchResult(best={}, value={:.4}, iterations={}, nodes={}, proven={}, \
             stopped_by='{}')",
            r.best,
            r.value,
            r.iterations,
            r.nodes,
            r.proven.map_or("None".into(), |p| p.to_string()),
            r.stopped_by.name()
        )
    }
}

/// The game argument: a Game, or a game id.
pub(crate) fn game_arg(game: &Bound<'_, PyAny>) -> PyResult<Game> {
    if let Ok(g) = game.cast::<PyGame>() {
        return Ok(g.get().game.clone());
    }
    if game.extract::<String>().is_ok() {
        return super::game::make(game, None).map(|g| g.game);
    }
    Err(PyTypeError::new_err(format!(
        "game must be a stonefield.Game or a game id, got {}",
        describe(game)
    )))
}

/// A native agent from a Python `MCTS` or `RandomAgent`.
pub(crate) fn agent_arg(i: usize, a: &Bound<'_, PyAny>) -> PyResult<Agent> {
    if let Ok(m) = a.cast::<PyMcts>() {
        return Ok(Agent::Mcts(m.get().config.clone()));
    }
    if let Ok(r) = a.cast::<PyRandomAgent>() {
        return Ok(Agent::Random { seed: r.get().seed });
    }
    Err(PyTypeError::new_err(format!(
        "agent {i}: native games take stonefield.MCTS and stonefield.RandomAgent, got {}",
        describe(a)
    )))
}

/// Items of a long native run: the finished ones, and what interrupted the run (Ctrl-C, or
/// [`super::interrupt::cancel_native_calls`]) if anything did.
pub(crate) type Partial<T> = (Vec<T>, Option<PyErr>);

/// Runs `work(first, count, stop)` over `total` items in chunks through [`interruptible`]
/// (`stop` set on Ctrl-C); chunks grow while they take under a tenth of a second. On an
/// interruption the chunk in flight is dropped and the finished items come back with the
/// error; an error of the work itself is raised.
pub(crate) fn chunked<T: Send>(
    py: Python<'_>,
    total: usize,
    start_chunk: usize,
    mut work: impl FnMut(usize, usize, &AtomicBool) -> crate::Result<Vec<T>> + Send,
) -> PyResult<Partial<T>> {
    let mut out = Vec::with_capacity(total);
    let mut done = 0;
    let mut chunk = start_chunk.max(1);
    while done < total {
        let count = chunk.min(total - done);
        let t0 = Instant::now();
        match interruptible(py, |stop| work(done, count, stop)) {
            (_, Some(e)) => return Ok((out, Some(e))),
            (part, None) => out.extend(part.map_err(to_py)?),
        }
        done += count;
        if t0.elapsed().as_secs_f64() < 0.1 {
            chunk *= 2;
        }
    }
    Ok((out, None))
}

/// The arguments of a native run (`play_games`, `lab_play`): the game, its agents, each game's
/// seating (`games × num_players` agent indices), the seed and the thread pool.
pub(crate) struct NativeRun {
    pub(crate) game: Game,
    agents: Vec<Agent>,
    seats: Vec<usize>,
    seed: u64,
    pool: Option<rayon::ThreadPool>,
}

impl NativeRun {
    /// Checks and converts the arguments: every refusal of a value is an InvalidOptionError, a
    /// wrong kind of game, agent or seating array a TypeError.
    pub(crate) fn new(
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        agents: &Bound<'_, PyAny>,
        seats: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<NativeRun> {
        let game = game_arg(game)?;
        let agents: Vec<Agent> = agents
            .try_iter()?
            .enumerate()
            .map(|(i, a)| agent_arg(i, &a?))
            .collect::<PyResult<_>>()?;
        let seed = setting_arg(seed, "seed", 0, u64::MAX)?;
        let threads = threads_arg(threads).map_err(|e| as_invalid_option(py, e))?;
        let n = game.num_players();
        let not_ints =
            || PyTypeError::new_err("seats must be a 2-D integer array (games, num_players)");
        let np = py.import("numpy")?;
        let arr = np
            .call_method1("asarray", (seats,))
            .map_err(|_| not_ints())?;
        let kind: String = arr.getattr("dtype")?.getattr("kind")?.extract()?;
        if kind != "i" && kind != "u" || arr.getattr("ndim")?.extract::<usize>()? != 2 {
            return Err(not_ints());
        }
        let kwargs = PyDict::new(py);
        kwargs.set_item("copy", false)?;
        let arr = arr.call_method("astype", ("int64",), Some(&kwargs))?;
        let seats: PyReadonlyArray2<'_, i64> = arr.extract().map_err(|_| not_ints())?;
        if seats.shape()[1] != n {
            return Err(bad(format!(
                "seats must have {n} columns (one per player), got shape {:?}",
                seats.shape()
            )));
        }
        // Every entry in order (row by row); a contiguous array is read as one slice.
        let agent = |&a: &i64| {
            usize::try_from(a)
                .ok()
                .filter(|&a| a < agents.len())
                .ok_or_else(|| {
                    bad(format!(
                        "seats name agent {a}; agents are 0..{}",
                        agents.len()
                    ))
                })
        };
        let seats: Vec<usize> = match seats.as_slice() {
            Ok(s) => s.iter().map(agent).collect::<PyResult<_>>()?,
            Err(_) => seats
                .as_array()
                .iter()
                .map(agent)
                .collect::<PyResult<_>>()?,
        };
        if agents.is_empty() {
            return Err(bad("native games need at least one agent".into()));
        }
        let pool = match threads {
            Some(1) => None,
            t => Some(thread_pool(t).map_err(bad)?),
        };
        let parallel = pool.as_ref().map_or(1, |p| p.current_num_threads());
        let mut agents = agents;
        for a in &mut agents {
            if let Agent::Mcts(cfg) = a {
                // Every seat of every game in flight may hold a tree.
                cap_config(cfg, parallel * n);
            }
        }
        Ok(NativeRun {
            game,
            agents,
            seats,
            seed,
            pool,
        })
    }

    /// How many games the seating holds.
    pub(crate) fn games(&self) -> usize {
        self.seats.len() / self.game.num_players()
    }

    /// Plays games `first..first + games()` of the run with the GIL released and returns
    /// `each` of every game's record (computed on the thread that played it). Ctrl-C stops
    /// the run within a search iteration; the games finished before it come back with it.
    pub(crate) fn play<T: Send>(
        &self,
        py: Python<'_>,
        first: u64,
        each: impl Fn(GameRecord) -> crate::Result<T> + Sync,
    ) -> PyResult<Partial<T>> {
        let n = self.game.num_players();
        let start_chunk = self.pool.as_ref().map_or(1, |p| p.current_num_threads());
        chunked(py, self.games(), start_chunk, |done, count, stop| {
            let seats = &self.seats[done * n..(done + count) * n];
            let (game, agents, each) = (&self.game, &self.agents[..], &each);
            let run = |parallel| {
                play_range_map(
                    game,
                    agents,
                    seats,
                    self.seed,
                    first + done as u64,
                    parallel,
                    each,
                    Some(stop),
                )
            };
            match &self.pool {
                Some(p) => p.install(|| run(true)),
                None => run(false),
            }
        })
    }

    /// The variant lab's facts of games `first..first + games()` ([`lab_range_into`]), with
    /// the GIL released; Ctrl-C stops it within a search iteration or a block of random games
    /// (KeyboardInterrupt; the caller keeps the chunks it finished before).
    pub(crate) fn lab(&self, py: Python<'_>, first: u64, keep_below: u64) -> PyResult<Columns> {
        let n = self.game.num_players();
        let threads = self.pool.as_ref().map_or(1, |p| p.current_num_threads());
        let random = self
            .agents
            .iter()
            .all(|a| matches!(a, Agent::Random { .. }));
        // Blocks that keep every thread busy (random games take a microsecond or so, searching
        // ones far longer); after each, the next is sized to take about 0.1 s at the pace
        // measured (at least double, at most sixteen times), so a run stops for Ctrl-C that
        // often and no more. Every block is written straight into one set of columns.
        let total = self.games();
        let declared = crate::games::Measure::final_columns(&self.game.new_state());
        let mut cols = Columns::zeroed(n, declared, total);
        let mut kept = Vec::new();
        let mut rest = cols.rows_mut();
        let (mut done, mut chunk) = (0, if random { threads * 4096 } else { threads });
        while done < total {
            let count = chunk.min(total - done);
            let (rows, more) = rest.split_at(count);
            rest = more;
            let seats = &self.seats[done * n..(done + count) * n];
            let started = Instant::now();
            let (part, interrupted) = interruptible(py, |stop| {
                let run = |parallel| {
                    let (game, agents, at) = (&self.game, &self.agents, first + done as u64);
                    lab_range_into(
                        game,
                        agents,
                        seats,
                        self.seed,
                        at,
                        parallel,
                        keep_below,
                        rows,
                        Some(stop),
                    )
                };
                match &self.pool {
                    Some(p) => p.install(|| run(true)),
                    None => run(false),
                }
            });
            if let Some(e) = interrupted {
                return Err(e);
            }
            kept.extend(part.map_err(to_py)?);
            done += count;
            let seconds = started.elapsed().as_secs_f64();
            if seconds < 0.1 {
                let fits = (count as f64 * 0.1 / seconds.max(1e-6)) as usize;
                chunk = fits.clamp(2 * chunk, 16 * chunk);
            }
        }
        cols.kept = kept;
        Ok(cols)
    }
}

/// The seed an agent with seed `agent_seed` plays with in seat `seat` of game `index` of a run
/// with seed `seed` (every argument a 64-bit unsigned integer): the one derivation of "game i,
/// seat j" that native runs use, so an MCTS agent given it plays the moves it plays natively.
///
/// >>> from stonefield._core import seat_seed
/// >>> seat_seed(1, 0, 0, 0) == seat_seed(1, 0, 0, 0) != seat_seed(1, 0, 1, 0)
/// True
#[pyfunction]
pub fn seat_seed(seed: u64, index: u64, seat: usize, agent_seed: u64) -> u64 {
    crate::search::play::seat_seed(seed, index, seat, agent_seed)
}

/// Plays whole games between native agents in Rust, on `threads` threads (all cores when None)
/// with the GIL released; Ctrl-C stops it within a search iteration (KeyboardInterrupt), or,
/// with `keep_partial=True`, returns the games finished before it with `interrupted` set to
/// the KeyboardInterrupt (None when the run finished).
///
/// `seats[i, j]` is the index in `agents` of the agent playing seat (player) j of game i. Game
/// i draws from random streams derived from (seed, i), so the results never depend on
/// `threads`. Returns a dict of numpy arrays: `actions` uint32 (all games concatenated),
/// `offsets` int64 (games + 1; game i is `actions[offsets[i]:offsets[i + 1]]`), `movers` int8,
/// `values` float32 (the mover's root value at each decision, NaN for random agents),
/// `returns`, `ranks` float64 (games, players), `scores` float64 (games, players) or None,
/// `truncated` bool (games,), and `seconds`.
///
/// `first` (default 0) is the index of the first of these games in a longer run: row i of
/// `seats` is then game `first + i` and draws from (seed, first + i), so a run cut into parts
/// (for example to report progress) plays exactly the games of one call.
///
/// >>> import numpy as np, stonefield as sf
/// >>> from stonefield._core import play_games
/// >>> agents = [sf.MCTS(iterations=50), sf.RandomAgent()]
/// >>> out = play_games(sf.make("subsume", size=3), agents, np.array([[0, 1], [1, 0]]), 7)
/// >>> out["returns"].shape, len(out["offsets"])
/// ((2, 2), 3)
#[pyfunction]
#[pyo3(signature = (game, agents, seats, seed, threads = None, first = None, keep_partial = false))]
#[allow(clippy::too_many_arguments)]
pub fn play_games<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    agents: &Bound<'py, PyAny>,
    seats: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    threads: Option<Bound<'py, PyAny>>,
    first: Option<Bound<'py, PyAny>>,
    keep_partial: bool,
) -> PyResult<Bound<'py, PyDict>> {
    // A caller that runs a long match in parts (to show progress) passes the index of each
    // part's first game, so game i still draws from the streams of (seed, i).
    let first = opt(&first)
        .map(|v| setting_arg(v, "first", 0, u64::MAX / 2))
        .transpose()?
        .unwrap_or(0);
    let run = NativeRun::new(py, game, agents, seats, seed, opt(&threads))?;
    let game = &run.game;
    let started = Instant::now();
    let (records, interrupted) = run.play(py, first, Ok)?;
    if let (Some(e), false) = (&interrupted, keep_partial) {
        return Err(e.clone_ref(py));
    }
    records_dict(py, game, records, started, interrupted)
}

/// The arrays of `play_games` (and `puct_play_games`) from the games' records.
pub(crate) fn records_dict<'py>(
    py: Python<'py>,
    game: &Game,
    records: Vec<GameRecord>,
    started: Instant,
    interrupted: Option<PyErr>,
) -> PyResult<Bound<'py, PyDict>> {
    let n = game.num_players();
    let games = records.len();
    let mut actions = Vec::new();
    let mut offsets = vec![0i64];
    let mut movers = Vec::new();
    let mut values = Vec::new();
    let mut returns = Vec::with_capacity(games * n);
    let mut ranks = Vec::with_capacity(games * n);
    let mut scores = Vec::with_capacity(games * n);
    let mut truncated = Vec::with_capacity(games);
    let has_scores = game.has_scores();
    for r in records {
        actions.extend_from_slice(&r.actions);
        offsets.push(actions.len() as i64);
        movers.extend_from_slice(&r.movers);
        values.extend_from_slice(&r.values);
        returns.extend_from_slice(&r.returns);
        ranks.extend_from_slice(&r.ranks);
        match r.scores {
            Some(s) => scores.extend_from_slice(&s),
            None => scores.extend(std::iter::repeat_n(f64::NAN, n)),
        }
        truncated.push(r.truncated);
    }
    let d = PyDict::new(py);
    d.set_item("actions", PyArray1::from_vec(py, actions))?;
    d.set_item("offsets", PyArray1::from_vec(py, offsets))?;
    d.set_item("movers", PyArray1::from_vec(py, movers))?;
    d.set_item("values", PyArray1::from_vec(py, values))?;
    d.set_item(
        "returns",
        PyArray1::from_vec(py, returns).reshape([games, n])?,
    )?;
    d.set_item("ranks", PyArray1::from_vec(py, ranks).reshape([games, n])?)?;
    if has_scores {
        d.set_item(
            "scores",
            PyArray1::from_vec(py, scores).reshape([games, n])?,
        )?;
    } else {
        d.set_item("scores", py.None())?;
    }
    d.set_item("truncated", PyArray1::from_vec(py, truncated))?;
    d.set_item("seconds", started.elapsed().as_secs_f64())?;
    d.set_item("interrupted", interrupted.map(|e| e.into_value(py)))?;
    Ok(d)
}

/// Plays `games` self-play games of `agent` (an MCTS) in Rust, in parallel with the GIL
/// released; Ctrl-C stops it within a search iteration (KeyboardInterrupt).
///
/// The first `temperature_moves` moves of each game are drawn in proportion to root visits, the
/// rest are the agent's choice. Game i draws from streams derived from (seed, i). Returns a
/// dict of numpy arrays, one row per position: `observations` float32 (positions, planes,
/// sites), `policies` float32 (positions, num_actions) root visit fractions, `legal_masks` bool
/// (positions, num_actions), `players` int8
/// (the player to move), `returns` float32 (positions, players) the game's final returns,
/// `game_index` uint32; and per game `actions` uint32 with `offsets` int64 (games + 1).
///
/// >>> import stonefield as sf
/// >>> from stonefield._core import selfplay_games
/// >>> d = selfplay_games(sf.make("subsume", size=3), sf.MCTS(iterations=30), 2, 5, 2)
/// >>> d["policies"].shape[0] == d["observations"].shape[0] == len(d["actions"])
/// True
#[pyfunction]
#[pyo3(signature = (game, agent, games, seed, temperature_moves, threads = None))]
pub fn selfplay_games<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    agent: &Bound<'py, PyAny>,
    games: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    temperature_moves: &Bound<'py, PyAny>,
    threads: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let game = game_arg(game)?;
    let cfg = match agent.cast::<PyMcts>() {
        Ok(m) => m.get().config.clone(),
        Err(_) => {
            return Err(PyTypeError::new_err(format!(
                "self-play takes a stonefield.MCTS agent, got {}",
                describe(agent)
            )))
        }
    };
    let games = setting_arg(games, "games", 0, u32::MAX.into())? as usize;
    let seed = setting_arg(seed, "seed", 0, u64::MAX)?;
    let temperature_moves =
        setting_arg(temperature_moves, "temperature_moves", 0, u32::MAX.into())?;
    let threads = threads_arg(opt(&threads)).map_err(|e| as_invalid_option(py, e))?;
    let pool = match threads {
        Some(1) => None,
        t => Some(thread_pool(t).map_err(bad)?),
    };
    let start_chunk = pool.as_ref().map_or(1, |p| p.current_num_threads());
    let mut cfg = cfg;
    cap_config(&mut cfg, start_chunk);
    let tm = temperature_moves as usize;
    let run = |first: usize, count, parallel, stop: Option<&AtomicBool>| {
        selfplay_range(&game, &cfg, seed, first as u64, count, tm, parallel, stop)
    };
    let (played, interrupted) =
        chunked(py, games, start_chunk, |first, count, stop| match &pool {
            Some(p) => p.install(|| run(first, count, true, Some(stop))),
            None => run(first, count, false, Some(stop)),
        })?;
    if let Some(e) = interrupted {
        return Err(e);
    }
    selfplay_dict(py, &game, played)
}

/// The arrays of `selfplay_games` (and `puct_selfplay_games`) from the games played.
pub(crate) fn selfplay_dict<'py>(
    py: Python<'py>,
    game: &Game,
    played: Vec<crate::search::SelfPlayGame>,
) -> PyResult<Bound<'py, PyDict>> {
    let state = game.new_state();
    let (planes, sites, na, n) = (
        state.observation_planes(),
        state.board().num_sites(),
        state.num_actions(),
        state.num_players(),
    );
    let positions: usize = played.iter().map(|g| g.players.len()).sum();
    let mut observations = Vec::with_capacity(positions * planes * sites);
    let mut policies = Vec::with_capacity(positions * na);
    let mut legal_masks = Vec::with_capacity(positions * na);
    let mut players = Vec::with_capacity(positions);
    let mut returns = Vec::with_capacity(positions * n);
    let mut game_index = Vec::with_capacity(positions);
    let mut actions = Vec::with_capacity(positions);
    let mut offsets = vec![0i64];
    for (i, g) in played.into_iter().enumerate() {
        observations.extend_from_slice(&g.observations);
        policies.extend_from_slice(&g.policies);
        legal_masks.extend_from_slice(&g.legal_masks);
        players.extend_from_slice(&g.players);
        for _ in 0..g.players.len() {
            returns.extend(g.returns.iter().map(|&r| r as f32));
            game_index.push(i as u32);
        }
        actions.extend_from_slice(&g.actions);
        offsets.push(actions.len() as i64);
    }
    let d = PyDict::new(py);
    d.set_item(
        "observations",
        PyArray1::from_vec(py, observations).reshape([positions, planes, sites])?,
    )?;
    d.set_item(
        "policies",
        PyArray1::from_vec(py, policies).reshape([positions, na])?,
    )?;
    d.set_item(
        "legal_masks",
        PyArray1::from_vec(py, legal_masks).reshape([positions, na])?,
    )?;
    d.set_item("players", PyArray1::from_vec(py, players))?;
    d.set_item(
        "returns",
        PyArray1::from_vec(py, returns).reshape([positions, n])?,
    )?;
    d.set_item("game_index", PyArray1::from_vec(py, game_index))?;
    d.set_item("actions", PyArray1::from_vec(py, actions))?;
    d.set_item("offsets", PyArray1::from_vec(py, offsets))?;
    Ok(d)
}
