//! Batch simulation and the vectorised environment for Python.

use std::time::Instant;

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::game::PyGame;
use crate::sim::batch::{fill, thread_pool, Batch};

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
    let has_scores = game.new_state_has_scores();
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
