//! Batch simulation and the vectorised environment for Python.

use std::time::Instant;

use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use super::game::{PyGame, PyState};
use super::{to_py, IllegalMoveError};
use crate::games::Session;
use crate::sim::batch::{fill, thread_pool, Batch};
use crate::sim::vector::{StepOut, VectorEnv};

/// Largest result buffers a call may ask for; beyond it the request is refused with an error
/// rather than failing allocation (which would abort the interpreter).
const MAX_BUFFER_BYTES: usize = 8 << 30;

fn check_memory(what: &str, count: usize, bytes_each: usize) -> PyResult<()> {
    match count.checked_mul(bytes_each) {
        Some(total) if total <= MAX_BUFFER_BYTES => Ok(()),
        _ => Err(PyValueError::new_err(format!(
            "{what} = {count} needs more than {} GiB of result buffers ({bytes_each} bytes each); \
             at most {} fit",
            MAX_BUFFER_BYTES >> 30,
            MAX_BUFFER_BYTES / bytes_each
        ))),
    }
}

/// Plays `n_games` random games in Rust and returns their outcomes as numpy arrays. The GIL is
/// released while games run; Ctrl-C interrupts between blocks of games. `progress`, if given, is
/// called as `progress(done, total)` after each block.
#[pyfunction]
#[pyo3(signature = (game, n_games, *, seed = 0, threads = None, progress = None))]
pub fn simulate_raw<'py>(
    py: Python<'py>,
    game: &PyGame,
    n_games: usize,
    seed: u64,
    threads: Option<usize>,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    if threads == Some(0) {
        return Err(PyValueError::new_err(
            "threads must be at least 1 (or None for all cores)",
        ));
    }
    let game = game.game.clone();
    let per_game = 3 * 8 * game.num_players() + 5;
    check_memory("n_games", n_games, per_game)?;
    let parallel = threads != Some(1);
    let pool = if parallel {
        Some(thread_pool(threads).map_err(PyValueError::new_err)?)
    } else {
        None
    };
    let mut batch = Batch::new(&game, n_games);
    let mut done = 0usize;
    // Blocks grow until one takes about a tenth of a second, so Ctrl-C and progress stay
    // responsive without slowing short runs.
    let mut block = 256usize;
    let started = Instant::now();
    while done < n_games {
        let end = (done + block).min(n_games);
        let t0 = Instant::now();
        let out = batch.slice(done, end);
        py.detach(|| match &pool {
            Some(pool) => pool.install(|| fill(&game, seed, done as u64, out, true)),
            None => fill(&game, seed, done as u64, out, false),
        });
        done = end;
        py.check_signals()?;
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

/// A batch of games of one configuration stepped together in Rust, writing into preallocated
/// numpy buffers that are reused across steps (the arrays returned are always the same objects).
///
/// `step(actions)` applies one action per environment (all checked first: an illegal one raises
/// IllegalMoveError naming its environment, and nothing changes). A game that ends reports its
/// returns in `rewards` and sets `terminated` (or `truncated`, at the move cap) in that step, and
/// is reset at once: its observation and mask are those of the new game.
#[pyclass(name = "VectorEnv", module = "stonefield", unsendable)]
pub struct PyVectorEnv {
    env: VectorEnv,
    pool: Option<rayon::ThreadPool>,
    obs: Py<PyArray3<f32>>,
    mask: Py<PyArray2<bool>>,
    rewards: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    player: Py<PyArray1<i32>>,
    actions: Vec<i64>,
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
        let mut obs = self.obs.bind(py).readwrite();
        let mut mask = self.mask.bind(py).readwrite();
        let mut rewards = self.rewards.bind(py).readwrite();
        let mut terminated = self.terminated.bind(py).readwrite();
        let mut truncated = self.truncated.bind(py).readwrite();
        let mut player = self.player.bind(py).readwrite();
        let out = StepOut {
            obs: obs.as_slice_mut()?,
            mask: mask.as_slice_mut()?,
            rewards: rewards.as_slice_mut()?,
            terminated: terminated.as_slice_mut()?,
            truncated: truncated.as_slice_mut()?,
            player: player.as_slice_mut()?,
        };
        let pool = if self.env.num_envs() >= PARALLEL_MIN_ENVS {
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
        info.set_item("legal_mask", self.mask.bind(py))?;
        info.set_item("current_player", self.player.bind(py))?;
        PyTuple::new(
            py,
            [
                self.obs.bind(py).clone().into_any(),
                self.rewards.bind(py).clone().into_any(),
                self.terminated.bind(py).clone().into_any(),
                self.truncated.bind(py).clone().into_any(),
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
    #[pyo3(signature = (game, num_envs, *, seed = 0, threads = None, **options))]
    fn new(
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        num_envs: usize,
        seed: u64,
        threads: Option<usize>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyVectorEnv> {
        let game = if let Ok(name) = game.extract::<String>() {
            super::game::make(&name, options)?.game
        } else if let Ok(g) = game.cast::<PyGame>() {
            if options.is_some_and(|o| !o.is_empty()) {
                return Err(pyo3::exceptions::PyTypeError::new_err(
                    "options are given with a game id, not with a Game",
                ));
            }
            g.get().game.clone()
        } else {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "game must be a stonefield.Game or a game id",
            ));
        };
        if num_envs == 0 {
            return Err(PyValueError::new_err("num_envs must be at least 1"));
        }
        let per_env = 4 * game.observation_planes() * game.board().num_sites()
            + game.num_actions()
            + 4 * game.num_players()
            + 6;
        check_memory("num_envs", num_envs, per_env)?;
        if threads == Some(0) {
            return Err(PyValueError::new_err(
                "threads must be at least 1 (or None for all cores)",
            ));
        }
        let pool = match threads {
            Some(1) => None,
            t => Some(thread_pool(t).map_err(PyValueError::new_err)?),
        };
        let env = VectorEnv::new(&game, num_envs, seed);
        let sh = env.shapes();
        let planes = game.observation_planes();
        let sites = game.board().num_sites();
        let mut this = PyVectorEnv {
            obs: PyArray3::zeros(py, [num_envs, planes, sites], false).unbind(),
            mask: PyArray2::from_vec2(py, &vec![vec![false; sh.actions]; num_envs])?.unbind(),
            rewards: PyArray2::zeros(py, [num_envs, sh.players], false).unbind(),
            terminated: PyArray1::from_vec(py, vec![false; num_envs]).unbind(),
            truncated: PyArray1::from_vec(py, vec![false; num_envs]).unbind(),
            player: PyArray1::from_vec(py, vec![0i32; num_envs]).unbind(),
            actions: vec![0; num_envs],
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
        if let Ok(arr) = actions.cast::<PyArray1<i64>>() {
            let ro = arr.readonly();
            let slice = ro.as_slice()?;
            if slice.len() != n {
                return Err(IllegalMoveError::new_err(format!(
                    "expected {n} actions (one per environment), got {}",
                    slice.len()
                )));
            }
            self.actions.copy_from_slice(slice);
        } else {
            let v: Vec<i64> = actions.extract().map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err(
                    "actions must be a sequence or 1-D array of integers, one per environment",
                )
            })?;
            if v.len() != n {
                return Err(IllegalMoveError::new_err(format!(
                    "expected {n} actions (one per environment), got {}",
                    v.len()
                )));
            }
            self.actions.copy_from_slice(&v);
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
    fn state(&self, index: usize) -> PyResult<PyState> {
        let history = self.env.history(index).ok_or_else(|| {
            pyo3::exceptions::PyIndexError::new_err(format!(
                "environment {index} out of range 0..{}",
                self.env.num_envs()
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
        self.obs.bind(py).clone()
    }

    /// bool (num_envs, num_actions).
    #[getter]
    fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<bool>> {
        self.mask.bind(py).clone()
    }

    /// float32 (num_envs, num_players).
    #[getter]
    fn rewards<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.rewards.bind(py).clone()
    }

    /// bool (num_envs,).
    #[getter]
    fn terminated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.terminated.bind(py).clone()
    }

    /// bool (num_envs,).
    #[getter]
    fn truncated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.truncated.bind(py).clone()
    }

    /// int32 (num_envs,): the player to move.
    #[getter]
    fn current_player<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i32>> {
        self.player.bind(py).clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "<stonefield.VectorEnv {} x {}>",
            self.env.num_envs(),
            self.env.game().name()
        )
    }
}
