//! `PUCT`: the network-guided search, its Python evaluator, and self-play that batches the
//! leaves of many games into one evaluator call.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use numpy::{
    PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray2, PyReadonlyArrayDyn, PyUntypedArrayMethods,
};
use pyo3::exceptions::PyTypeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};

use super::game::PyGame;
use super::interrupt::interruptible;
use super::memory::node_cap;
use super::search::{
    agent_arg, bad, chunked, describe, game_arg, opt, real_arg, records_dict, selfplay_dict,
    state_arg, PySearchResult,
};
use super::{as_invalid_option, setting_arg, threads_arg, to_py, MAX_THREADS};
use crate::error::{Error, Result};
use crate::search::network::{GraphNet, GraphWeights};
use crate::search::puct::{play_puct_games, MatchAgent};
use crate::search::puct::{
    Batch, BatchEvaluator, DEFAULT_BATCH_SIZE, DEFAULT_DIRICHLET_ALPHA, DEFAULT_DIRICHLET_FRACTION,
    DEFAULT_PUCT_C, DEFAULT_SIMULATIONS, MAX_BATCH_SIZE, UNLIMITED_SIMULATIONS,
};
use crate::search::{
    puct_search, selfplay_puct, PlayoutCap, PuctConfig, SearchResult, DEFAULT_MAX_NODES,
};
use crate::sim::batch::thread_pool;

/// `cfg` with its node limit lowered so that `trees` searches at once fit in the memory
/// available ([`node_cap`]); limits of at most a million nodes are left alone.
fn capped(cfg: &PuctConfig, trees: usize) -> PuctConfig {
    let mut cfg = cfg.clone();
    if cfg.max_nodes > 1 << 20 {
        let each = node_cap(trees) / trees.max(1);
        cfg.max_nodes = cfg.max_nodes.min(each.max(1 << 20));
    }
    cfg
}

/// A Python evaluator: `evaluator(observations, legal_mask) -> (priors, values)`, called with
/// the GIL held only for the call.
struct PyEvaluator<'a> {
    func: &'a Py<PyAny>,
    planes: usize,
    sites: usize,
    /// The exception the evaluator raised, to be raised again as it is.
    raised: Option<PyErr>,
}

impl<'a> PyEvaluator<'a> {
    fn new(func: &'a Py<PyAny>, game: &crate::games::Game) -> PyEvaluator<'a> {
        PyEvaluator {
            func,
            planes: game.observation_planes(),
            sites: game.board().num_sites(),
            raised: None,
        }
    }

    /// The call: `Ok(Err(message))` when what came back is unusable, `Err` when it raised.
    fn call(&self, py: Python<'_>, batch: &mut Batch) -> PyResult<std::result::Result<(), String>> {
        let b = batch.len;
        let (na, np_) = (batch.num_actions, batch.players);
        // Made by numpy.empty rather than `to_pyarray`, so that a failed allocation is a
        // MemoryError (to_pyarray panics on one).
        let empty = py
            .import(intern!(py, "numpy"))?
            .getattr(intern!(py, "empty"))?;
        let obs = empty.call1(((b, self.planes, self.sites), intern!(py, "float32")))?;
        obs.cast::<PyArray3<f32>>()?
            .try_readwrite()
            .map_err(|e| PyTypeError::new_err(e.to_string()))?
            .as_slice_mut()?
            .copy_from_slice(rows(&batch.observations, b * self.planes * self.sites)?);
        let mask = empty.call1(((b, na), intern!(py, "bool")))?;
        mask.cast::<PyArray2<bool>>()?
            .try_readwrite()
            .map_err(|e| PyTypeError::new_err(e.to_string()))?
            .as_slice_mut()?
            .copy_from_slice(rows(&batch.legal, b * na)?);
        let out = self.func.bind(py).call1((obs, mask))?;
        let Ok(tuple) = out.cast::<PyTuple>() else {
            return Ok(Err(format!(
                "the evaluator must return a tuple (priors, values), got {}",
                describe(&out)
            )));
        };
        if tuple.len() != 2 {
            return Ok(Err(format!(
                "the evaluator must return a tuple (priors, values), got a tuple of {}",
                tuple.len()
            )));
        }
        for (k, (name, cols, dst)) in [
            ("priors", na, &mut batch.priors),
            ("values", np_, &mut batch.values),
        ]
        .into_iter()
        .enumerate()
        {
            let item = tuple.get_item(k)?;
            // What a network returns, read without a round of Python calls: a contiguous
            // float32 array of the right shape.
            if let Ok(arr) = item.cast::<PyArray2<f32>>() {
                if let Ok(view) = arr.try_readonly() {
                    if let (true, Ok(s)) = (view.shape() == [b, cols], view.as_slice()) {
                        dst.clear();
                        dst.extend_from_slice(s);
                        continue;
                    }
                }
            }
            let numpy = py.import("numpy")?;
            let arr = match numpy.call_method1("asarray", (&item,)) {
                Ok(a) => a,
                Err(_) => {
                    return Ok(Err(format!(
                        "the evaluator's {name} must be a float32 array of shape ({b}, {cols}), \
                         got {}",
                        describe(&item)
                    )))
                }
            };
            let dtype: String = arr.getattr("dtype")?.getattr("name")?.extract()?;
            let shape: Vec<usize> = arr.getattr("shape")?.extract()?;
            if !arr
                .getattr("dtype")?
                .getattr("isnative")?
                .extract::<bool>()?
            {
                let code: String = arr.getattr("dtype")?.getattr("str")?.extract()?;
                return Ok(Err(format!(
                    "the evaluator's {name} must be a float32 array in the machine's byte \
                     order, got {code:?} (convert with .astype(numpy.float32))"
                )));
            }
            if dtype != "float32" || shape != [b, cols] {
                return Ok(Err(format!(
                    "the evaluator's {name} must be a float32 array of shape ({b}, {cols}), got \
                     {dtype} of shape {shape:?}"
                )));
            }
            let arr: PyReadonlyArray2<'_, f32> = arr.extract()?;
            dst.clear();
            match arr.as_slice() {
                Ok(s) => dst.extend_from_slice(s),
                Err(_) => dst.extend(arr.as_array().iter().copied()),
            }
        }
        Ok(Ok(()))
    }
}

/// The weights of `evaluator` when it is a `stonefield._checkpoint.CheckpointNetwork` (the
/// class itself) of architecture "graph", or an evaluator whose `native_network()` gives one
/// (the expert of one game), played natively then; else `None`.
pub(super) fn native_weights(
    py: Python<'_>,
    evaluator: &Bound<'_, PyAny>,
) -> PyResult<Option<Arc<GraphWeights>>> {
    if let Ok(method) = evaluator.getattr(intern!(py, "native_network")) {
        let network = method.call0()?;
        if network.is_none() {
            return Ok(None);
        }
        return native_weights(py, &network);
    }
    let class = py
        .import(intern!(py, "stonefield._checkpoint"))?
        .getattr(intern!(py, "CheckpointNetwork"))?;
    // The class itself: a subclass may play its own forward pass.
    if !evaluator.get_type().is(&class) {
        return Ok(None);
    }
    let architecture: String = evaluator.getattr(intern!(py, "architecture"))?.extract()?;
    if architecture != "graph" {
        return Ok(None);
    }
    let blocks: usize = evaluator.getattr(intern!(py, "layers"))?.extract()?;
    let numpy = py.import(intern!(py, "numpy"))?;
    let mut arrays = Vec::new();
    for w in evaluator.getattr(intern!(py, "weights"))?.try_iter()? {
        let a = numpy.call_method1(
            intern!(py, "ascontiguousarray"),
            (w?, intern!(py, "float32")),
        )?;
        let a: PyReadonlyArrayDyn<'_, f32> = a.extract()?;
        arrays.push((a.shape().to_vec(), a.as_slice()?.to_vec()));
    }
    GraphWeights::new(blocks, arrays)
        .map(|w| Some(Arc::new(w)))
        .map_err(to_py)
}

/// The first `n` items of a batch's buffer.
fn rows<T>(buf: &[T], n: usize) -> PyResult<&[T]> {
    buf.get(..n)
        .ok_or_else(|| PyTypeError::new_err("a batch shorter than its rows"))
}

/// An evaluator made for one game (a checkpoint's network) says so with a `check_game(game)`
/// method, which raises for any other game or rules: called once before the search, so that a
/// network of another board is refused by name rather than by its arithmetic.
fn check_evaluator_game(
    py: Python<'_>,
    func: &Py<PyAny>,
    game: &crate::games::Game,
) -> PyResult<()> {
    if let Ok(check) = func.bind(py).getattr(intern!(py, "check_game")) {
        check.call1((PyGame { game: game.clone() },))?;
    }
    Ok(())
}

impl BatchEvaluator for PyEvaluator<'_> {
    fn evaluate(&mut self, batch: &mut Batch) -> Result<()> {
        Python::attach(|py| match self.call(py, batch) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(m)) => Err(Error::Evaluator(m)),
            Err(e) => {
                self.raised = Some(e);
                Err(Error::Evaluator("the evaluator raised an exception".into()))
            }
        })
    }
}

/// AlphaZero's PUCT search run in Rust, guided by an evaluator's priors and values.
///
/// Each simulation walks down the tree by ``Q + c·P·√N / (1 + n)`` (Q the child's mean value for
/// the player choosing, 0 while unvisited; P its prior; n its visits, N its parent's), expands
/// the leaf it reaches and evaluates it: priors over the actions (normalised over the legal ones
/// by the search) and one value per player, from that player's point of view, backed up as in
/// MCTS (so n players work). Leaves are gathered into batches of up to ``batch_size`` with a
/// virtual loss on their paths, and the evaluator is called once per batch with the GIL held
/// only for the call; in ``sf.selfplay`` one call serves the leaves of all the games. The move
/// played is the most visited root action (ties: higher mean, then lower action).
///
/// Args:
///     evaluator: ``"rollout"`` (default: uniform priors and the returns of one random playout,
///         native, no Python), or a callable ``evaluator(observations, legal_mask) -> (priors,
///         values)``: observations float32 (B, planes, sites), legal_mask bool (B,
///         num_actions); priors float32 (B, num_actions) of non-negative weights, values
///         float32 (B, players) in [-1, 1], each from that player's own point of view and
///         ordered as the observation's planes are: column k is the value of player
///         (p + k) mod players, p the player to move (column 0 is the mover's own). Anything
///         else it returns raises EvaluatorError; an exception it raises comes through
///         unchanged.
///     simulations: simulations per search (default 800; split over the threads), the root's
///         own evaluation not counted: the root's visits add up to it. None with a time budget
///         alone: as many as the time allows (up to ``max_nodes``).
///     time: seconds of wall time per search, or None (default). With both budgets the first
///         reached stops the search; in ``sf.selfplay`` and matches each game's search keeps
///         its own clock.
///     threads: root parallelisation (default 1, up to 256): this many independent trees
///         searched at once for one move, each with its own random stream from the seed,
///         their root visits summed. Only for native evaluation (rollout, or a graph
///         network's checkpoint): a Python evaluator runs on one thread, and more raise
///         InvalidOptionError.
///     c: the exploration constant (default 1.25), a finite number ≥ 0.
///     dirichlet_alpha: α of the Dirichlet noise mixed into the root priors (default 0.3), > 0.
///     dirichlet_fraction: the noise's share ε, from 0 to 1 (default 0.25; 0 for no noise, as
///         for evaluation games).
///     batch_size: leaves one search gathers per evaluator call (default 32), 1 to 65536.
///     seed: the same seed and the same evaluator outputs give the same moves.
///     max_nodes: the most tree nodes of one search (default 10,000,000), at least 1024.
///     checkpoint: the path of a checkpoint of ``stonefield train``, whose network (no JAX
///         needed) becomes the evaluator; instead of ``evaluator``. A ``graph`` network (given
///         so, or as a ``CheckpointNetwork`` evaluator) is played natively, without Python, its
///         weights copied when the PUCT is made; an ``mlp`` one in numpy. A search of
///         another game or other options than the checkpoint's raises InvalidOptionError.
///
/// Raises:
///     InvalidOptionError: a setting out of range (simulations=0, batch_size=0, negative c,
///         dirichlet_alpha ≤ 0, dirichlet_fraction outside [0, 1], time ≤ 0 or not finite,
///         threads 0 or above 256, or above 1 with a Python evaluator; an unknown evaluator
///         name, both an evaluator and a checkpoint).
///     RecordError: the checkpoint cannot be read or is not one.
///
/// >>> import numpy as np, stonefield as sf
/// >>> state = sf.make("subsume", size=3).new_state()
/// >>> sf.PUCT(simulations=100, seed=1).analyse(state).visits.sum()
/// np.int64(100)
/// >>> def uniform(obs, mask):
/// ...     return mask.astype(np.float32), np.zeros((len(obs), 2), np.float32)
/// >>> bool(state.is_legal(sf.PUCT(uniform, simulations=50, batch_size=8).act(state)))
/// True
#[pyclass(name = "PUCT", module = "stonefield", frozen)]
pub struct PyPuct {
    pub(crate) config: PuctConfig,
    evaluator: Option<Py<PyAny>>,
    /// The evaluator's weights when it is a graph network, played natively.
    native: Option<Arc<GraphWeights>>,
}

impl PyPuct {
    /// Runs `work(evaluator, stop)` through [`interruptible`] and raises what went wrong: an
    /// exception of the evaluator as it is, an interruption, or the search's error.
    fn run<T: Send>(
        &self,
        py: Python<'_>,
        game: &crate::games::Game,
        work: impl FnOnce(Option<&mut dyn BatchEvaluator>, &AtomicBool) -> Result<T> + Send,
    ) -> PyResult<T> {
        let func = self.evaluator.as_ref().map(|f| f.clone_ref(py));
        if let Some(f) = &func {
            check_evaluator_game(py, f, game)?;
        }
        let mut net = self
            .native
            .as_ref()
            .map(|w| GraphNet::new(w.clone(), game))
            .transpose()
            .map_err(to_py)?;
        let (out, interrupted) = interruptible(py, |stop| {
            if let Some(n) = net.as_mut() {
                return (work(Some(n), stop), None);
            }
            let mut ev = func.as_ref().map(|f| PyEvaluator::new(f, game));
            let r = work(ev.as_mut().map(|e| e as &mut dyn BatchEvaluator), stop);
            (r, ev.and_then(|e| e.raised))
        });
        match (out, interrupted) {
            ((_, Some(raised)), _) => Err(raised),
            (_, Some(e)) => Err(e),
            ((r, None), None) => r.map_err(to_py),
        }
    }

    fn search(&self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<SearchResult> {
        let (state, _) = state_arg(state)?;
        let game = state.game();
        let cfg = &capped(&self.config, 1);
        self.run(py, &game, |ev, stop| {
            puct_search(&state, cfg, ev, Some(stop))
        })
    }
}

#[pymethods]
impl PyPuct {
    #[new]
    #[pyo3(signature = (evaluator = None, simulations = None, c = None, dirichlet_alpha = None,
                        dirichlet_fraction = None, batch_size = None, seed = None,
                        max_nodes = None, checkpoint = None, time = None, threads = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        evaluator: Option<Bound<'_, PyAny>>,
        simulations: Option<Bound<'_, PyAny>>,
        c: Option<Bound<'_, PyAny>>,
        dirichlet_alpha: Option<Bound<'_, PyAny>>,
        dirichlet_fraction: Option<Bound<'_, PyAny>>,
        batch_size: Option<Bound<'_, PyAny>>,
        seed: Option<Bound<'_, PyAny>>,
        max_nodes: Option<Bound<'_, PyAny>>,
        checkpoint: Option<Bound<'_, PyAny>>,
        time: Option<Bound<'_, PyAny>>,
        threads: Option<Bound<'_, PyAny>>,
    ) -> PyResult<PyPuct> {
        // A checkpoint's network, read and played by numpy alone (stonefield._checkpoint).
        let evaluator = match opt(&checkpoint) {
            None => evaluator,
            Some(_) if opt(&evaluator).is_some() => {
                return Err(bad(
                    "give PUCT an evaluator or a checkpoint, not both".into()
                ))
            }
            Some(path) => Some(
                py.import(intern!(py, "stonefield._checkpoint"))?
                    .call_method1(intern!(py, "load_evaluator"), (path,))?,
            ),
        };
        let evaluator = match opt(&evaluator) {
            None => None,
            Some(e) if e.is_instance_of::<PyString>() => {
                let name: String = e.extract()?;
                if name != "rollout" {
                    return Err(bad(format!(
                        "PUCT evaluator must be \"rollout\" or a callable (observations, \
                         legal_mask) -> (priors, values); got {name:?}"
                    )));
                }
                None
            }
            Some(e) if e.is_callable() => Some(e.clone().unbind()),
            Some(e) => {
                return Err(PyTypeError::new_err(format!(
                    "PUCT evaluator must be \"rollout\" or a callable (observations, legal_mask) \
                     -> (priors, values); got {}",
                    describe(e)
                )))
            }
        };
        let fraction = opt(&dirichlet_fraction)
            .map(|v| real_arg("dirichlet_fraction", v, 0.0, false))
            .transpose()?
            .unwrap_or(DEFAULT_DIRICHLET_FRACTION);
        if fraction > 1.0 {
            return Err(bad(format!(
                "dirichlet_fraction must be a number from 0 to 1, got {fraction}"
            )));
        }
        let time = opt(&time)
            .map(|v| real_arg("time", v, 0.0, true))
            .transpose()?;
        let threads = opt(&threads)
            .map(|v| setting_arg(v, "threads", 1, MAX_THREADS))
            .transpose()?
            .unwrap_or(1) as usize;
        let native = match &evaluator {
            Some(e) => native_weights(py, e.bind(py))?,
            None => None,
        };
        if threads > 1 && native.is_none() {
            if let Some(e) = &evaluator {
                return Err(bad(format!(
                    "PUCT threads={threads} needs a native evaluation (\"rollout\" or a graph \
                     network's checkpoint); the evaluator {} is called from one thread, so \
                     threads must be 1",
                    describe(e.bind(py))
                )));
            }
        }
        let config = PuctConfig {
            simulations: opt(&simulations)
                .map(|v| setting_arg(v, "simulations", 1, u32::MAX.into()))
                .transpose()?
                .unwrap_or(if time.is_some() {
                    UNLIMITED_SIMULATIONS
                } else {
                    DEFAULT_SIMULATIONS
                }),
            time,
            threads,
            c: opt(&c)
                .map(|v| real_arg("c", v, 0.0, false))
                .transpose()?
                .unwrap_or(DEFAULT_PUCT_C),
            dirichlet_alpha: opt(&dirichlet_alpha)
                .map(|v| real_arg("dirichlet_alpha", v, 0.0, true))
                .transpose()?
                .unwrap_or(DEFAULT_DIRICHLET_ALPHA),
            dirichlet_fraction: fraction,
            batch_size: opt(&batch_size)
                .map(|v| setting_arg(v, "batch_size", 1, MAX_BATCH_SIZE as u64))
                .transpose()?
                .map_or(DEFAULT_BATCH_SIZE, |b| b as usize),
            seed: opt(&seed)
                .map(|v| setting_arg(v, "seed", 0, u64::MAX))
                .transpose()?
                .unwrap_or(0),
            max_nodes: opt(&max_nodes)
                .map(|v| setting_arg(v, "max_nodes", 1024, u32::MAX.into()))
                .transpose()?
                .map_or(DEFAULT_MAX_NODES, |n| n as usize),
            rollout: evaluator.is_none(),
        };
        config.validate().map_err(to_py)?;
        Ok(PyPuct {
            config,
            evaluator,
            native,
        })
    }

    /// The action to play in `state` (the state is not changed).
    ///
    /// Raises:
    ///     GameOverError: the game is over.
    ///     EvaluatorError: the evaluator returned something the search cannot use.
    fn act(&self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<u32> {
        Ok(self.search(py, state)?.best)
    }

    /// Searches `state` and reports what the search found (the state is not changed).
    ///
    /// Raises:
    ///     GameOverError: the game is over.
    ///     EvaluatorError: the evaluator returned something the search cannot use.
    fn analyse(&self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<PySearchResult> {
        Ok(PySearchResult {
            result: self.search(py, state)?,
        })
    }

    /// The evaluator: ``"rollout"`` or the callable.
    #[getter]
    fn evaluator(&self, py: Python<'_>) -> Py<PyAny> {
        match &self.evaluator {
            Some(f) => f.clone_ref(py),
            None => PyString::new(py, "rollout").into_any().unbind(),
        }
    }

    /// Simulations per search; None for as many as the time budget allows.
    #[getter]
    fn simulations(&self) -> Option<u64> {
        (self.config.simulations != UNLIMITED_SIMULATIONS).then_some(self.config.simulations)
    }

    /// Seconds per search, or None.
    #[getter]
    fn time(&self) -> Option<f64> {
        self.config.time
    }

    /// Searches run at once for one move (root parallelisation).
    #[getter]
    fn threads(&self) -> usize {
        self.config.threads
    }

    #[getter]
    fn c(&self) -> f64 {
        self.config.c
    }

    #[getter]
    fn dirichlet_alpha(&self) -> f64 {
        self.config.dirichlet_alpha
    }

    #[getter]
    fn dirichlet_fraction(&self) -> f64 {
        self.config.dirichlet_fraction
    }

    #[getter]
    fn batch_size(&self) -> usize {
        self.config.batch_size
    }

    #[getter]
    fn seed(&self) -> u64 {
        self.config.seed
    }

    /// This agent with another seed, the same evaluator and every other setting (as
    /// :meth:`MCTS.with_seed`).
    ///
    /// >>> import stonefield as sf
    /// >>> a = sf.PUCT(simulations=30, seed=1).with_seed(5)
    /// >>> a.seed, a.simulations
    /// (5, 30)
    ///
    /// Raises:
    ///     InvalidOptionError: the seed is not an integer in 0..2**64.
    fn with_seed(&self, py: Python<'_>, seed: &Bound<'_, PyAny>) -> PyResult<PyPuct> {
        Ok(PyPuct {
            config: PuctConfig {
                seed: setting_arg(seed, "seed", 0, u64::MAX)?,
                ..self.config.clone()
            },
            evaluator: self.evaluator.as_ref().map(|f| f.clone_ref(py)),
            native: self.native.clone(),
        })
    }

    #[getter]
    fn max_nodes(&self) -> usize {
        self.config.max_nodes
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let ev = match &self.evaluator {
            None => "'rollout'".to_string(),
            Some(f) => f
                .bind(py)
                .repr()
                .map(|r| r.to_string())
                .unwrap_or_else(|_| "<evaluator>".into()),
        };
        let c = &self.config;
        let simulations = self
            .simulations()
            .map_or_else(|| "None".to_string(), |n| n.to_string());
        let time = c
            .time
            .map_or_else(|| "None".to_string(), |t| format!("{t:?}"));
        format!(
            "PUCT({ev}, simulations={simulations}, time={time}, threads={}, c={}, \
             dirichlet_alpha={}, dirichlet_fraction={}, batch_size={}, seed={}, max_nodes={})",
            c.threads,
            c.c,
            c.dirichlet_alpha,
            c.dirichlet_fraction,
            c.batch_size,
            c.seed,
            c.max_nodes
        )
    }
}

/// Plays `games` self-play games of `agent` (a PUCT) in Rust, as `selfplay_games` does for MCTS
/// (the same arrays). With a Python evaluator every game is played at once on one thread and
/// each evaluator call serves the leaves of all the games; with rollouts the games run in
/// parallel on `threads` threads. Ctrl-C stops it (KeyboardInterrupt).
///
/// With `full_search_share` below 1 (playout-cap randomisation), each move is searched in full
/// with that probability and otherwise with `fast_simulations` and no root noise; the arrays
/// `full_search` (bool) and `search_values` (float32, the root value for the mover) say which
/// and what it found. `first` numbers the games from there (game `i` of a run is seeded by
/// `(seed, i)`), so that the parts of a run split over workers make the same games.
///
/// >>> import stonefield as sf
/// >>> from stonefield._core import puct_selfplay_games
/// >>> d = puct_selfplay_games(sf.make("subsume", size=3), sf.PUCT(simulations=20), 2, 5, 2)
/// >>> d["legal_masks"].shape == d["policies"].shape
/// True
#[pyfunction]
#[pyo3(signature = (game, agent, games, seed, temperature_moves, threads = None,
                    full_search_share = None, fast_simulations = None, first = None))]
#[allow(clippy::too_many_arguments)]
pub fn puct_selfplay_games<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    agent: &Bound<'py, PyAny>,
    games: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    temperature_moves: &Bound<'py, PyAny>,
    threads: Option<Bound<'py, PyAny>>,
    full_search_share: Option<Bound<'py, PyAny>>,
    fast_simulations: Option<Bound<'py, PyAny>>,
    first: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let game = game_arg(game)?;
    let Ok(agent) = agent.cast::<PyPuct>() else {
        return Err(PyTypeError::new_err(format!(
            "puct_selfplay_games takes a stonefield.PUCT agent, got {}",
            describe(agent)
        )));
    };
    let agent = agent.get();
    let games = setting_arg(games, "games", 0, u32::MAX.into())? as usize;
    let seed = setting_arg(seed, "seed", 0, u64::MAX)?;
    let tm = setting_arg(temperature_moves, "temperature_moves", 0, u32::MAX.into())? as usize;
    let threads = threads_arg(opt(&threads)).map_err(|e| as_invalid_option(py, e))?;
    let cfg = &capped(&agent.config, games.max(1));
    let full_share = opt(&full_search_share)
        .map(|v| real_arg("full_search_share", v, 0.0, false))
        .transpose()?
        .unwrap_or(1.0);
    let fast = opt(&fast_simulations)
        .map(|v| setting_arg(v, "fast_simulations", 1, u32::MAX.into()))
        .transpose()?
        .unwrap_or(1);
    let cap = PlayoutCap {
        full_share,
        fast_simulations: fast,
    };
    cap.validate(cfg).map_err(to_py)?;
    // The index of the first game: a run split into parts plays the games of the whole.
    let first_game = opt(&first)
        .map(|v| setting_arg(v, "first", 0, u64::MAX - u64::from(u32::MAX)))
        .transpose()?
        .unwrap_or(0);
    let played = if agent.evaluator.is_some() {
        let g = &game;
        agent.run(py, g, |ev, stop| {
            selfplay_puct(
                g,
                cfg,
                ev,
                seed,
                first_game,
                games,
                tm,
                cap,
                false,
                Some(stop),
            )
        })?
    } else {
        let pool = match threads {
            Some(1) => None,
            t => Some(thread_pool(t).map_err(bad)?),
        };
        let start_chunk = pool.as_ref().map_or(1, |p| p.current_num_threads());
        let run = |first: usize, count, parallel, stop: &AtomicBool| {
            selfplay_puct(
                &game,
                cfg,
                None,
                seed,
                first_game + first as u64,
                count,
                tm,
                cap,
                parallel,
                Some(stop),
            )
        };
        let (played, interrupted) =
            chunked(py, games, start_chunk, |first, count, stop| match &pool {
                Some(p) => p.install(|| run(first, count, true, stop)),
                None => run(first, count, false, stop),
            })?;
        if let Some(e) = interrupted {
            return Err(e);
        }
        played
    };
    selfplay_dict(py, &game, played)
}

/// Plays whole games between PUCT and native agents in Rust, as `play_games` does (the same
/// arrays), all the games at once on one thread: each round, each PUCT agent's waiting leaves
/// of every game go to its evaluator in one call. Ctrl-C stops it (KeyboardInterrupt, or with
/// `keep_partial=True` the games finished before the first unfinished one, with `interrupted`
/// set).
///
/// >>> import numpy as np, stonefield as sf
/// >>> from stonefield._core import puct_play_games
/// >>> agents = [sf.PUCT(simulations=30), sf.RandomAgent()]
/// >>> out = puct_play_games(sf.make("subsume", size=3), agents, np.array([[0, 1], [1, 0]]), 7)
/// >>> out["returns"].shape, len(out["offsets"])
/// ((2, 2), 3)
#[pyfunction]
#[pyo3(signature = (game, agents, seats, seed, first = None, keep_partial = false))]
pub fn puct_play_games<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    agents: &Bound<'py, PyAny>,
    seats: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    first: Option<Bound<'py, PyAny>>,
    keep_partial: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let game = game_arg(game)?;
    let first = opt(&first)
        .map(|v| setting_arg(v, "first", 0, u64::MAX / 2))
        .transpose()?
        .unwrap_or(0);
    let seed = setting_arg(seed, "seed", 0, u64::MAX)?;
    let mut native = Vec::new();
    let mut puct_seats = 0usize;
    let mut funcs: Vec<Option<Py<PyAny>>> = Vec::new();
    let mut weights: Vec<Option<Arc<GraphWeights>>> = Vec::new();
    for (i, a) in agents.try_iter()?.enumerate() {
        let a = a?;
        if let Ok(p) = a.cast::<PyPuct>() {
            let p = p.get();
            native.push(MatchAgent::Puct(p.config.clone()));
            puct_seats += 1;
            funcs.push(p.evaluator.as_ref().map(|f| f.clone_ref(py)));
            weights.push(p.native.clone());
        } else {
            native.push(MatchAgent::Native(agent_arg(i, &a)?));
            funcs.push(None);
            weights.push(None);
        }
    }
    let n = game.num_players();
    let np = py.import("numpy")?;
    let not_ints =
        || PyTypeError::new_err("seats must be a 2-D integer array (games, num_players)");
    let arr = np
        .call_method1("asarray", (seats,))
        .map_err(|_| not_ints())?;
    let kind: String = arr.getattr("dtype")?.getattr("kind")?.extract()?;
    if kind != "i" && kind != "u" || arr.getattr("ndim")?.extract::<usize>()? != 2 {
        return Err(not_ints());
    }
    let arr = arr.call_method1("astype", ("int64",))?;
    let shape: Vec<usize> = arr.getattr("shape")?.extract()?;
    if shape[1] != n {
        return Err(bad(format!(
            "seats must have {n} columns (one per player), got shape {shape:?}"
        )));
    }
    let flat: Vec<i64> = arr
        .call_method0("ravel")?
        .call_method0("tolist")?
        .extract()?;
    let seats: Vec<usize> = flat
        .iter()
        .map(|&a| {
            usize::try_from(a)
                .ok()
                .filter(|&a| a < native.len())
                .ok_or_else(|| {
                    bad(format!(
                        "seats name agent {a}; agents are 0..{}",
                        native.len()
                    ))
                })
        })
        .collect::<PyResult<_>>()?;
    // Every game in flight may hold a tree of each PUCT agent.
    let trees = (seats.len() / n).max(1) * puct_seats.max(1);
    for a in &mut native {
        if let MatchAgent::Puct(cfg) = a {
            *cfg = capped(cfg, trees);
        }
    }
    for f in funcs.iter().flatten() {
        check_evaluator_game(py, f, &game)?;
    }
    let mut nets: Vec<Option<GraphNet>> = weights
        .iter()
        .map(|w| {
            w.as_ref()
                .map(|w| GraphNet::new(w.clone(), &game))
                .transpose()
        })
        .collect::<Result<_>>()
        .map_err(to_py)?;
    let started = std::time::Instant::now();
    let g = &game;
    let (out, interrupted) = interruptible(py, |stop| {
        let mut evs: Vec<Option<PyEvaluator<'_>>> = funcs
            .iter()
            .zip(&nets)
            .map(|(f, n)| match n {
                Some(_) => None,
                None => f.as_ref().map(|f| PyEvaluator::new(f, g)),
            })
            .collect();
        let mut slots: Vec<Option<&mut dyn BatchEvaluator>> = evs
            .iter_mut()
            .zip(nets.iter_mut())
            .map(|(e, n)| match n {
                Some(n) => Some(n as &mut dyn BatchEvaluator),
                None => e.as_mut().map(|e| e as &mut dyn BatchEvaluator),
            })
            .collect();
        let r = play_puct_games(g, &native, &mut slots, &seats, seed, first, Some(stop));
        drop(slots);
        let raised = evs.into_iter().flatten().find_map(|e| e.raised);
        (r, raised)
    });
    let records = match out {
        (_, Some(raised)) => return Err(raised),
        (r, None) => r.map_err(to_py)?,
    };
    if let (Some(e), false) = (&interrupted, keep_partial) {
        return Err(e.clone_ref(py));
    }
    records_dict(py, &game, records, started, interrupted)
}

/// Priors and values, as an evaluator returns them.
type PriorsValues<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<f32>>);

/// The native forward pass of a graph network (a ``CheckpointNetwork`` of architecture
/// ``graph``) on ``game``'s board: priors float32 (B, num_actions) and values float32 (B,
/// players) of observations float32 (B, planes, sites) and a legal mask bool (B,
/// num_actions), as ``network(observations, legal_mask)`` gives them in numpy. What
/// ``sf.PUCT`` plays with such a network; here for tests and measurements.
///
/// Raises:
///     TypeError: ``network`` is not a graph network.
///     InvalidOptionError: the network cannot play ``game``, or the arrays' shapes are not
///         the game's.
#[pyfunction]
pub fn graph_evaluate<'py>(
    py: Python<'py>,
    network: &Bound<'py, PyAny>,
    game: &Bound<'py, PyAny>,
    observations: &Bound<'py, PyAny>,
    legal_mask: &Bound<'py, PyAny>,
) -> PyResult<PriorsValues<'py>> {
    let game = game_arg(game)?;
    let Some(weights) = native_weights(py, network)? else {
        return Err(PyTypeError::new_err(format!(
            "graph_evaluate takes a CheckpointNetwork of architecture graph, got {}",
            describe(network)
        )));
    };
    check_evaluator_game(py, &network.clone().unbind(), &game)?;
    let mut net = GraphNet::new(weights, &game).map_err(to_py)?;
    let numpy = py.import(intern!(py, "numpy"))?;
    let obs = numpy.call_method1(
        intern!(py, "ascontiguousarray"),
        (observations, intern!(py, "float32")),
    )?;
    let mask = numpy.call_method1(
        intern!(py, "ascontiguousarray"),
        (legal_mask, intern!(py, "bool")),
    )?;
    let obs: PyReadonlyArrayDyn<'_, f32> = obs.extract()?;
    let mask: PyReadonlyArrayDyn<'_, bool> = mask.extract()?;
    let (planes, sites, na) = (
        game.observation_planes(),
        game.board().num_sites(),
        game.num_actions(),
    );
    let b = obs.shape().first().copied().unwrap_or(0);
    if obs.shape() != [b, planes, sites] || mask.shape() != [b, na] {
        return Err(bad(format!(
            "{} reads observations of shape (B, {planes}, {sites}) and masks of shape (B, {na}), \
             got {:?} and {:?}",
            game.name(),
            obs.shape(),
            mask.shape()
        )));
    }
    let mut batch = Batch::new(&game.new_state(), true);
    batch.len = b;
    batch.observations.extend_from_slice(obs.as_slice()?);
    batch.legal.extend_from_slice(mask.as_slice()?);
    batch.priors.resize(b * na, 0.0);
    batch.values.resize(b * game.num_players(), 0.0);
    net.evaluate(&mut batch).map_err(to_py)?;
    let priors = numpy::PyArray1::from_vec(py, batch.priors).reshape([b, na])?;
    let values = numpy::PyArray1::from_vec(py, batch.values).reshape([b, game.num_players()])?;
    Ok((priors, values))
}
