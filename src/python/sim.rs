//! Batch simulation and the vectorised environment for Python.

use std::time::Instant;

use numpy::{
    Element, PyArray, PyArray1, PyArray2, PyArray3, PyArrayDescrMethods, PyArrayMethods,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use super::game::{PyGame, PyState};
use super::interrupt::interruptible;
use super::memory::check_memory;
use super::{seed_arg, threads_arg, to_py, uint_arg, IllegalMoveError};
use crate::games::Session;
use crate::sim::batch::{fill, thread_pool, Batch};
use crate::sim::vector::{StepOut, VectorEnv};

fn alloc_error(what: &str, e: std::collections::TryReserveError) -> PyErr {
    PyMemoryError::new_err(format!("{what}: {e}"))
}

/// Plays `n_games` random games in Rust and returns their outcomes as numpy arrays. The GIL is
/// released while games run; Ctrl-C interrupts between blocks of games. `progress`, if given, is
/// called as `progress(done, total)` after each block.
#[pyfunction]
#[pyo3(
    signature = (game, n_games, *, seed = None, threads = None, progress = None),
    text_signature = "(game, n_games, *, seed=0, threads=None, progress=None)"
)]
pub fn simulate_raw<'py>(
    py: Python<'py>,
    game: &PyGame,
    n_games: &Bound<'py, PyAny>,
    seed: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let n_games = uint_arg(n_games, "n_games", usize::MAX as u64)? as usize;
    let seed = seed.map(seed_arg).transpose()?.unwrap_or(0);
    let threads = threads_arg(threads)?;
    let game = game.game.clone();
    check_memory("n_games", n_games, Batch::bytes_per_game(&game))?;
    let parallel = threads != Some(1);
    let pool = if parallel {
        Some(thread_pool(threads).map_err(thread_error)?)
    } else {
        None
    };
    // Reserved now, written block by block: a huge run starts at once and stops between blocks.
    let mut batch = Batch::try_reserved(&game, n_games).map_err(|e| alloc_error("n_games", e))?;
    let mut done = 0usize;
    // Blocks grow until one takes about a tenth of a second, so Ctrl-C and progress stay
    // responsive without slowing short runs.
    let mut block = 256usize;
    let started = Instant::now();
    while done < n_games {
        let end = (done + block).min(n_games);
        let t0 = Instant::now();
        let batch = &mut batch;
        let ((), interrupted) = interruptible(py, |_stop| {
            // A block takes about a tenth of a second: it always finishes.
            batch.extend_to(end);
            let out = batch.slice(done, end);
            match &pool {
                Some(pool) => pool.install(|| fill(&game, seed, done as u64, out, true)),
                None => fill(&game, seed, done as u64, out, false),
            }
        });
        if let Some(e) = interrupted {
            return Err(e);
        }
        done = end;
        if let Some(cb) = &progress {
            cb.call1((done, n_games))?;
        }
        if t0.elapsed().as_secs_f64() < 0.05 {
            block *= 2;
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let p = batch.num_players;
    let d = PyDict::new(py);
    d.set_item(
        "returns",
        PyArray1::from_vec(py, batch.returns).reshape([n_games, p])?,
    )?;
    d.set_item(
        "ranks",
        PyArray1::from_vec(py, batch.ranks).reshape([n_games, p])?,
    )?;
    let has_scores = game.has_scores();
    if has_scores {
        d.set_item(
            "scores",
            PyArray1::from_vec(py, batch.scores).reshape([n_games, p])?,
        )?;
    } else {
        d.set_item("scores", py.None())?;
    }
    d.set_item("lengths", PyArray1::from_vec(py, batch.lengths))?;
    d.set_item("truncated", PyArray1::from_vec(py, batch.truncated))?;
    d.set_item("seconds", seconds)?;
    Ok(d)
}

fn thread_error(e: String) -> PyErr {
    super::StonefieldError::new_err(format!("could not start the worker threads: {e}"))
}

/// One output buffer: the numpy array the engine writes into, and the view of it handed to
/// Python. Users get the view, so whatever they do to it (make it read-only, change its dtype
/// or shape, resize it) leaves the engine's array alone: a view does not own its memory, so
/// numpy refuses to resize it even with `refcheck=False`, which keeps the memory alive while a
/// step runs without the GIL. The engine still checks its own array before every step, since
/// `view.base` reaches it.
struct Buffer<T: Element, D> {
    array: Py<PyArray<T, D>>,
    view: Py<PyArray<T, D>>,
    /// The array's dtype when it was made: the same object means the same dtype, which spares
    /// the full comparison on every step.
    dtype: Py<numpy::PyArrayDescr>,
    name: &'static str,
}

impl<T: Element, D: numpy::ndarray::Dimension> Buffer<T, D> {
    fn new(array: Bound<'_, PyArray<T, D>>, name: &'static str) -> PyResult<Self> {
        let view = array.call_method0("view")?.cast_into::<PyArray<T, D>>()?;
        Ok(Buffer {
            dtype: array.dtype().unbind(),
            array: array.unbind(),
            view: view.unbind(),
            name,
        })
    }

    /// The engine's array, writable, after checking that it still has the dtype, shape and
    /// layout it was made with (a ValueError otherwise, before anything moves).
    fn writable<'py>(
        &self,
        py: Python<'py>,
        shape: &[usize],
    ) -> PyResult<numpy::PyReadwriteArray<'py, T, D>> {
        let a = self.array.bind(py);
        let dtype = a.dtype();
        let ok = (dtype.is(&self.dtype) || dtype.is_equiv_to(&numpy::dtype::<T>(py)))
            && a.shape() == shape
            && a.is_c_contiguous();
        if !ok {
            return Err(PyValueError::new_err(format!(
                "the {} buffer was changed (dtype {}, shape {:?}); a VectorEnv needs its own \
                 C-contiguous {} array of shape {shape:?}",
                self.name,
                a.dtype(),
                a.shape(),
                numpy::dtype::<T>(py),
            )));
        }
        a.try_readwrite().map_err(|e| {
            PyValueError::new_err(format!("the {} buffer is not writable: {e}", self.name))
        })
    }

    fn view<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray<T, D>> {
        self.view.bind(py).clone()
    }
}

/// A batch of games of one configuration stepped together in Rust, writing into preallocated
/// numpy buffers that are reused across steps (the arrays returned are always the same objects).
///
/// `step(actions)` applies one action per environment (all checked first: an illegal one raises
/// IllegalMoveError naming its environment, and nothing changes). A game that ends reports its
/// returns in `rewards` and sets `terminated` (or `truncated`, at the move cap) in that step, and
/// is reset at once: its observation and mask are those of the new game.
///
/// An env may be used from any thread, one call at a time: a call made while another thread's
/// call runs raises RuntimeError ("Already borrowed") and changes nothing.
#[pyclass(name = "VectorEnv", module = "stonefield")]
pub struct PyVectorEnv {
    env: VectorEnv,
    pool: Option<rayon::ThreadPool>,
    obs: Buffer<f32, numpy::Ix3>,
    mask: Buffer<bool, numpy::Ix2>,
    rewards: Buffer<f32, numpy::Ix2>,
    terminated: Buffer<bool, numpy::Ix1>,
    truncated: Buffer<bool, numpy::Ix1>,
    player: Buffer<i32, numpy::Ix1>,
    actions: Vec<i64>,
    /// (num_envs, planes, sites).
    obs_shape: [usize; 3],
}

/// Below this many environments a step is cheaper on one thread than handed to the pool.
const PARALLEL_MIN_ENVS: usize = 256;

impl PyVectorEnv {
    fn with_out<R>(
        &mut self,
        py: Python<'_>,
        f: impl FnOnce(&mut VectorEnv, StepOut<'_>, Option<&rayon::ThreadPool>, &[i64]) -> R + Send,
    ) -> PyResult<R>
    where
        R: Send,
    {
        let n = self.env.num_envs();
        let sh = self.env.shapes();
        let mut obs = self.obs.writable(py, &self.obs_shape)?;
        let mut mask = self.mask.writable(py, &[n, sh.actions])?;
        let mut rewards = self.rewards.writable(py, &[n, sh.players])?;
        let mut terminated = self.terminated.writable(py, &[n])?;
        let mut truncated = self.truncated.writable(py, &[n])?;
        let mut player = self.player.writable(py, &[n])?;
        let out = StepOut {
            obs: obs.as_slice_mut()?,
            mask: mask.as_slice_mut()?,
            rewards: rewards.as_slice_mut()?,
            terminated: terminated.as_slice_mut()?,
            truncated: truncated.as_slice_mut()?,
            player: player.as_slice_mut()?,
        };
        let pool = if n >= PARALLEL_MIN_ENVS {
            self.pool.as_ref()
        } else {
            None
        };
        let env = &mut self.env;
        let actions = &self.actions;
        Ok(py.detach(move || f(env, out, pool, actions)))
    }

    fn outputs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let info = PyDict::new(py);
        info.set_item("legal_mask", self.mask.view(py))?;
        info.set_item("current_player", self.player.view(py))?;
        PyTuple::new(
            py,
            [
                self.obs.view(py).into_any(),
                self.rewards.view(py).into_any(),
                self.terminated.view(py).into_any(),
                self.truncated.view(py).into_any(),
                info.into_any(),
            ],
        )
    }
}

fn run_on(pool: Option<&rayon::ThreadPool>, f: impl FnOnce(bool) + Send) {
    match pool {
        Some(p) => p.install(|| f(true)),
        None => f(false),
    }
}

#[pymethods]
impl PyVectorEnv {
    #[new]
    #[pyo3(
        signature = (game, num_envs, *, seed = None, threads = None, **options),
        text_signature = "(game, num_envs, *, seed=0, threads=None, **options)"
    )]
    fn new(
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        num_envs: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyVectorEnv> {
        let game = if let Ok(g) = game.cast::<PyGame>() {
            if options.is_some_and(|o| !o.is_empty()) {
                return Err(pyo3::exceptions::PyTypeError::new_err(
                    "options are given with a game id, not with a Game",
                ));
            }
            g.get().game.clone()
        } else if game.is_instance_of::<pyo3::types::PyString>() {
            super::game::make(game, options)?.game
        } else {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "game must be a stonefield.Game or a game id",
            ));
        };
        let num_envs = uint_arg(num_envs, "num_envs", usize::MAX as u64)? as usize;
        if num_envs == 0 {
            return Err(super::StonefieldError::new_err(
                "num_envs must be at least 1",
            ));
        }
        let seed = seed.map(seed_arg).transpose()?.unwrap_or(0);
        let threads = threads_arg(threads)?;
        let planes = game.observation_planes();
        let sites = game.board().num_sites();
        let (actions, players) = (game.num_actions(), game.num_players());
        // Everything an environment costs: its rows of the six buffers, its action slot, and
        // its state with history.
        let per_env = 4 * planes * sites
            + actions
            + 4 * players
            + 2
            + 4
            + 8
            + VectorEnv::bytes_per_env(&game);
        check_memory("num_envs", num_envs, per_env)?;
        let pool = match threads {
            Some(1) => None,
            t => Some(thread_pool(t).map_err(thread_error)?),
        };
        let env =
            VectorEnv::try_new(&game, num_envs, seed).map_err(|e| alloc_error("num_envs", e))?;
        let mut action_slots = Vec::new();
        action_slots
            .try_reserve_exact(num_envs)
            .map_err(|e| alloc_error("num_envs", e))?;
        action_slots.resize(num_envs, 0);
        let mut this = PyVectorEnv {
            obs: Buffer::new(
                PyArray3::zeros(py, [num_envs, planes, sites], false),
                "observations",
            )?,
            mask: Buffer::new(
                PyArray2::zeros(py, [num_envs, actions], false),
                "legal_mask",
            )?,
            rewards: Buffer::new(PyArray2::zeros(py, [num_envs, players], false), "rewards")?,
            terminated: Buffer::new(PyArray1::zeros(py, [num_envs], false), "terminated")?,
            truncated: Buffer::new(PyArray1::zeros(py, [num_envs], false), "truncated")?,
            player: Buffer::new(PyArray1::zeros(py, [num_envs], false), "current_player")?,
            actions: action_slots,
            obs_shape: [num_envs, planes, sites],
            env,
            pool,
        };
        this.with_out(py, |env, out, pool, _| {
            run_on(pool, |par| env.reset(out, par))
        })?;
        Ok(this)
    }

    /// Puts every game back at the start. Returns (observations, info) where info holds
    /// "legal_mask" and "current_player".
    fn reset<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        self.with_out(py, |env, out, pool, _| {
            run_on(pool, |par| env.reset(out, par))
        })?;
        let t = self.outputs(py)?;
        PyTuple::new(py, [t.get_item(0)?, t.get_item(4)?])
    }

    /// Applies one action per environment. Returns (observations, rewards, terminated,
    /// truncated, info); the arrays are the env's own buffers, overwritten by the next call.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let n = self.env.num_envs();
        let wrong_count = |got: usize| {
            IllegalMoveError::new_err(format!(
                "expected {n} actions (one per environment), got {got}"
            ))
        };
        let not_actions = || {
            pyo3::exceptions::PyTypeError::new_err(
                "actions must be a sequence or 1-D array of integers, one per environment",
            )
        };
        if let Ok(arr) = actions.cast::<PyArray1<i64>>() {
            let ro = arr
                .try_readonly()
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            let slice = ro.as_slice()?;
            if slice.len() != n {
                return Err(wrong_count(slice.len()));
            }
            self.actions.copy_from_slice(slice);
        } else if actions
            .cast::<numpy::PyUntypedArray>()
            .is_ok_and(|a| !matches!(a.dtype().kind(), b'i' | b'u'))
        {
            return Err(not_actions());
        } else {
            let items: Vec<Bound<'py, PyAny>> = actions.extract().map_err(|_| not_actions())?;
            if items.len() != n {
                return Err(wrong_count(items.len()));
            }
            for (slot, item) in self.actions.iter_mut().zip(&items) {
                *slot = match super::int_arg(item, "an action") {
                    Ok(Some(a)) => a,
                    Ok(None) => i64::MAX,
                    Err(_) => return Err(not_actions()),
                };
            }
        }
        let result = self.with_out(py, |env, out, pool, actions| {
            let mut r = Ok(());
            run_on(pool, |par| r = env.step(actions, out, par));
            r
        })?;
        result.map_err(to_py)?;
        self.outputs(py)
    }

    /// The observations (float32 (len(indices), planes, num_sites)) of the last game that ended
    /// in each environment of `indices`: its final position, seen by the player who made the
    /// final action (the start position for an environment where no game has ended yet). Read
    /// them right after a step that ended games: the next step may replace them.
    fn final_observations<'py>(
        &self,
        py: Python<'py>,
        indices: Vec<i64>,
    ) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let n = self.env.num_envs();
        let idx = indices
            .iter()
            .map(|&i| {
                usize::try_from(i).ok().filter(|&i| i < n).ok_or_else(|| {
                    pyo3::exceptions::PyIndexError::new_err(format!(
                        "environment {i} out of range 0..{n}"
                    ))
                })
            })
            .collect::<PyResult<Vec<usize>>>()?;
        let per_env = self.env.shapes().obs;
        let sites = self.env.game().board().num_sites();
        let planes = per_env / sites;
        let mut v = vec![0f32; idx.len() * per_env];
        self.env.final_observations(&idx, &mut v).map_err(to_py)?;
        PyArray1::from_vec(py, v).reshape([idx.len(), planes, sites])
    }

    /// A uniformly random legal action for every environment (int64), each drawn from the
    /// environment's own stream of the env seed.
    fn random_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let mut out = vec![0i64; self.env.num_envs()];
        self.env.random_actions(&mut out);
        PyArray1::from_vec(py, out)
    }

    /// Environment `index`'s current game as a State, history included (replayed from the
    /// start, so it can be undone, pickled and recorded like any other).
    fn state(&self, index: &Bound<'_, PyAny>) -> PyResult<PyState> {
        let n = self.env.num_envs();
        let history = super::int_arg(index, "index")?
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| self.env.history(i))
            .ok_or_else(|| {
                super::StonefieldError::new_err(format!(
                    "environment {} out of range 0..{n}",
                    index.repr().map(|r| r.to_string()).unwrap_or_default()
                ))
            })?;
        let mut session = Session::new(self.env.game());
        for &a in history {
            session.apply(i64::from(a)).map_err(to_py)?;
        }
        Ok(PyState { session })
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.env.num_envs()
    }

    #[getter]
    fn game(&self) -> PyGame {
        PyGame {
            game: self.env.game().clone(),
        }
    }

    /// float32 (num_envs, planes, num_sites).
    #[getter]
    fn observations<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray3<f32>> {
        self.obs.view(py)
    }

    /// bool (num_envs, num_actions).
    #[getter]
    fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<bool>> {
        self.mask.view(py)
    }

    /// float32 (num_envs, num_players).
    #[getter]
    fn rewards<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.rewards.view(py)
    }

    /// bool (num_envs,).
    #[getter]
    fn terminated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.terminated.view(py)
    }

    /// bool (num_envs,).
    #[getter]
    fn truncated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.truncated.view(py)
    }

    /// int32 (num_envs,): the player to move.
    #[getter]
    fn current_player<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i32>> {
        self.player.view(py)
    }

    fn __repr__(&self) -> String {
        format!(
            "<stonefield.VectorEnv {} x {}>",
            self.env.num_envs(),
            self.env.game().name()
        )
    }
}
