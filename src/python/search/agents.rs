//! The native agents: `MCTS` and `RandomAgent`.

use super::*;

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
    pub(super) agent: Mutex<Mcts>,
}

impl PyMcts {
    /// Whether a search is surely short: a time budget of at most 0.05 s, or so few iterations
    /// for the board that even a large board's playouts (about 5 µs per site) finish within
    /// about 0.1 s. Only those run on this thread; every other goes through [`interruptible`].
    pub(super) fn surely_short(&self, state: &crate::games::State) -> bool {
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
    pub(super) fn search(
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
pub(super) fn cap_config(cfg: &mut MctsConfig, searches: usize) {
    if cfg.max_nodes > MIN_NODES_CHECKED {
        let each = node_cap(searches * cfg.threads) / searches.max(1);
        let least = crate::search::mcts::MIN_NODES_PER_THREAD * cfg.threads;
        cfg.max_nodes = cfg.max_nodes.min(each.max(least));
    }
}

/// Trees allowed at most this many nodes are not checked against the memory available (a
/// million nodes are 24 MB).
pub(super) const MIN_NODES_CHECKED: usize = 1 << 20;

#[pymethods]
impl PyMcts {
    #[new]
    #[pyo3(signature = (iterations = None, time = None, c = None, threads = None, solver = None,
                        seed = None, max_nodes = None, reuse = None, selection = None,
                        grave_ref = None, grave_bias = None, playouts = None, preset = None))]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
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
    pub(super) fn act(&self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<u32> {
        Ok(self.search(py, state, true)?.best)
    }

    /// Searches `state` and reports what the search found (the state is not changed).
    ///
    /// Raises:
    ///     GameOverError: the game is over.
    pub(super) fn analyse(
        &self,
        py: Python<'_>,
        state: &Bound<'_, PyAny>,
    ) -> PyResult<PySearchResult> {
        Ok(PySearchResult {
            result: self.search(py, state, false)?,
        })
    }

    /// Forgets the tree kept for reuse.
    pub(super) fn reset(&self) {
        self.agent.lock().unwrap_or_else(|e| e.into_inner()).reset();
    }

    #[getter]
    pub(super) fn iterations(&self) -> Option<u64> {
        self.config.iterations
    }
    #[getter]
    pub(super) fn time(&self) -> Option<f64> {
        self.config.time
    }
    #[getter]
    pub(super) fn c(&self) -> Option<f64> {
        self.unless_preset(self.config.c)
    }
    #[getter]
    pub(super) fn selection(&self) -> Option<&'static str> {
        self.unless_preset(self.config.selection.name())
    }
    #[getter]
    pub(super) fn grave_ref(&self) -> Option<u32> {
        self.unless_preset(self.config.grave_ref)
    }
    #[getter]
    pub(super) fn grave_bias(&self) -> Option<f64> {
        self.unless_preset(self.config.grave_bias)
    }
    #[getter]
    pub(super) fn playouts(&self) -> Option<&'static str> {
        self.unless_preset(self.config.playouts.name())
    }
    #[getter]
    pub(super) fn preset(&self) -> Option<&'static str> {
        self.config.preset.map(Preset::name)
    }

    /// The agent with the settings it searches `game` with: the preset's for that game when
    /// a preset is set, else itself.
    ///
    /// >>> import stonefield as sf
    /// >>> sf.MCTS(iterations=100, preset="strong").resolved(sf.make("windflowers")).selection
    /// 'grave'
    pub(super) fn resolved(&self, game: &Bound<'_, PyAny>) -> PyResult<PyMcts> {
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
    pub(super) fn threads(&self) -> usize {
        self.config.threads
    }
    #[getter]
    pub(super) fn solver(&self) -> Option<bool> {
        self.config.solver
    }
    #[getter]
    pub(super) fn seed(&self) -> u64 {
        self.config.seed
    }

    /// This agent with every setting kept but the seed: the one way an agent is re-seeded
    /// (for a seat of a game, or by a wrapper agent's ``reset``), the same for every native
    /// kind (:class:`MCTS`, :class:`RandomAgent`, :class:`PUCT`).
    ///
    /// >>> import stonefield as sf
    /// >>> a = sf.MCTS(iterations=50, c=0.5, seed=1).with_seed(9)
    /// >>> a.seed, a.iterations, a.c
    /// (9, 50, 0.5)
    ///
    /// Raises:
    ///     InvalidOptionError: the seed is not an integer in 0..2**64.
    pub(super) fn with_seed(&self, seed: &Bound<'_, PyAny>) -> PyResult<PyMcts> {
        let config = MctsConfig {
            seed: setting_arg(seed, "seed", 0, u64::MAX)?,
            ..self.config.clone()
        };
        let agent = Mcts::new(config.clone()).map_err(to_py)?;
        Ok(PyMcts {
            config,
            agent: Mutex::new(agent),
        })
    }
    #[getter]
    pub(super) fn max_nodes(&self) -> usize {
        self.config.max_nodes
    }
    #[getter]
    pub(super) fn reuse(&self) -> bool {
        self.config.reuse
    }

    pub(super) fn __repr__(&self) -> String {
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

    pub(super) fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyMcts>()
            .map(|o| o.get().config == self.config)
            .unwrap_or(false)
    }

    pub(super) fn __hash__(&self) -> u64 {
        hash_str(&self.__repr__())
    }

    /// Pickles the settings (a kept tree is not saved).
    pub(super) fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
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
    pub(super) fn unless_preset<T>(&self, v: T) -> Option<T> {
        self.config.preset.is_none().then_some(v)
    }
}

pub(super) fn hash_str(s: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    s.hash(&mut h);
    h.finish()
}

pub(super) fn py_float(x: f64) -> String {
    let s = format!("{x:?}");
    if s.contains('.') || s.contains('e') || s.contains("inf") || s.contains("NaN") {
        s
    } else {
        format!("{s}.0")
    }
}

pub(super) fn py_bool(b: bool) -> String {
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
    pub(super) seed: u64,
}

#[pymethods]
impl PyRandomAgent {
    #[new]
    #[pyo3(signature = (seed = None))]
    pub(super) fn new(seed: Option<Bound<'_, PyAny>>) -> PyResult<PyRandomAgent> {
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
    pub(super) fn act(&self, state: &Bound<'_, PyAny>) -> PyResult<u32> {
        let (state, _) = state_arg(state)?;
        random_agent_action(&state, self.seed).map_err(to_py)
    }

    #[getter]
    pub(super) fn seed(&self) -> u64 {
        self.seed
    }

    /// This agent with another seed (as :meth:`MCTS.with_seed`).
    ///
    /// >>> import stonefield as sf
    /// >>> sf.RandomAgent(seed=1).with_seed(4)
    /// RandomAgent(seed=4)
    ///
    /// Raises:
    ///     InvalidOptionError: the seed is not an integer in 0..2**64.
    pub(super) fn with_seed(&self, seed: &Bound<'_, PyAny>) -> PyResult<PyRandomAgent> {
        Ok(PyRandomAgent {
            seed: setting_arg(seed, "seed", 0, u64::MAX)?,
        })
    }

    pub(super) fn __repr__(&self) -> String {
        format!("RandomAgent(seed={})", self.seed)
    }

    pub(super) fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyRandomAgent>()
            .map(|o| o.get().seed == self.seed)
            .unwrap_or(false)
    }

    pub(super) fn __hash__(&self) -> u64 {
        hash_str(&self.__repr__())
    }

    pub(super) fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
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
