//! The variant lab's per-game facts for Python: `_core.lab_stats` replays finished games and
//! returns their summaries as numpy arrays (see `crate::sim::stats` for the definitions).

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::game::PyGame;
use super::search::NativeRun;
use super::{setting_arg, threads_arg, to_py};
use crate::sim::batch::thread_pool;
use crate::sim::stats::{game_stats, game_stats_batch, GameStats, BINS};

/// Replays games and returns their per-game facts.
///
/// Game g's actions are `actions[offsets[g]:offsets[g + 1]]`; `values`, when given, holds the
/// mover's search value at each action (same length as `actions`) and replaces the heuristic
/// in the evaluation metrics. The GIL is released while games are replayed. Returns a dict of
/// numpy arrays, one row per game: `length`, `turns`, `multi_choice`, `repeated` (uint32),
/// `branching_sum`, `coverage`, `lead_change`, `drama`, `decisiveness`, `threshold`,
/// `stability` (float64), `branching_bins` (float64, games × 10), `top_tied`, `truncated`
/// (bool), `pie` (int8), `returns`, `ranks` (float64, games × players) and `scores` (the same,
/// or None for games without scores). An illegal action or a game that does not end with its
/// last action raises the game's error, naming the game index.
#[pyfunction]
#[pyo3(signature = (game, actions, offsets, values = None, threads = None))]
pub fn lab_stats<'py>(
    py: Python<'py>,
    game: &PyGame,
    actions: PyReadonlyArray1<'py, u32>,
    offsets: PyReadonlyArray1<'py, i64>,
    values: Option<PyReadonlyArray1<'py, f32>>,
    threads: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = threads_arg(threads.as_ref())?;
    let game = game.game.clone();
    let actions = actions.as_slice()?.to_vec();
    let offsets = offsets.as_slice()?.to_vec();
    let values = match &values {
        Some(v) => Some(v.as_slice()?.to_vec()),
        None => None,
    };
    let parallel = threads != Some(1);
    let pool = if parallel {
        Some(thread_pool(threads).map_err(PyValueError::new_err)?)
    } else {
        None
    };
    let stats = py
        .detach(|| {
            let run = || game_stats_batch(&game, &actions, &offsets, values.as_deref(), parallel);
            match &pool {
                Some(p) => p.install(run),
                None => run(),
            }
        })
        .map_err(to_py)?;
    to_dict(py, &stats, game.num_players(), game.has_scores())
}

/// Plays games `first .. first + len(seats)` of a run between native agents and returns their
/// per-game facts (as [`lab_stats`]) together with `actions` uint32, `offsets` int64 and
/// `values` float32 (the mover's root value, NaN for agents that do not search).
///
/// Game i draws from the streams of (seed, i), exactly as `play_games` plays it, so a run cut
/// into chunks at any points gives the same games. The evaluation metrics use a game's search
/// values when every decision of it has one, else the heuristic. The GIL is released; Ctrl-C
/// stops between blocks of games.
#[pyfunction]
#[pyo3(signature = (game, agents, seats, seed, first, threads = None))]
pub fn lab_play<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    agents: &Bound<'py, PyAny>,
    seats: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    first: &Bound<'py, PyAny>,
    threads: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let first = setting_arg(first, "first", 0, u64::MAX / 2)?;
    let run = NativeRun::new(py, game, agents, seats, seed, threads.as_ref())?;
    let game = &run.game;
    let played = run.play(py, first, |rec| {
        let searched = rec.values.iter().all(|v| v.is_finite());
        let st = game_stats(game, &rec.actions, searched.then_some(&rec.values[..]))?;
        Ok((rec.actions, rec.values, st))
    })?;
    let mut stats: Vec<GameStats> = Vec::with_capacity(played.len());
    let mut actions: Vec<u32> = Vec::new();
    let mut offsets: Vec<i64> = vec![0];
    let mut values: Vec<f32> = Vec::new();
    for (a, v, st) in played {
        actions.extend_from_slice(&a);
        values.extend_from_slice(&v);
        offsets.push(actions.len() as i64);
        stats.push(st);
    }
    let d = to_dict(py, &stats, game.num_players(), game.has_scores())?;
    d.set_item("actions", PyArray1::from_vec(py, actions))?;
    d.set_item("offsets", PyArray1::from_vec(py, offsets))?;
    d.set_item("values", PyArray1::from_vec(py, values))?;
    Ok(d)
}

fn to_dict<'py>(
    py: Python<'py>,
    stats: &[GameStats],
    players: usize,
    has_scores: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let n = stats.len();
    let d = PyDict::new(py);
    macro_rules! column {
        ($name:literal, $f:expr) => {
            d.set_item(
                $name,
                PyArray1::from_vec(py, stats.iter().map($f).collect()),
            )?;
        };
    }
    column!("length", |s: &GameStats| s.length);
    column!("turns", |s: &GameStats| s.turns);
    column!("multi_choice", |s: &GameStats| s.multi_choice);
    column!("repeated", |s: &GameStats| s.repeated);
    column!("branching_sum", |s: &GameStats| s.branching_sum);
    column!("coverage", |s: &GameStats| s.coverage);
    column!("lead_change", |s: &GameStats| s.lead_change);
    column!("drama", |s: &GameStats| s.drama);
    column!("decisiveness", |s: &GameStats| s.decisiveness);
    column!("threshold", |s: &GameStats| s.threshold);
    column!("stability", |s: &GameStats| s.stability);
    column!("top_tied", |s: &GameStats| s.top_tied);
    column!("truncated", |s: &GameStats| s.truncated);
    column!("pie", |s: &GameStats| s.pie);
    let flat = |f: &dyn Fn(&GameStats) -> Vec<f64>, width: usize| {
        PyArray1::from_vec(py, stats.iter().flat_map(f).collect()).reshape([n, width])
    };
    d.set_item(
        "branching_bins",
        flat(&|s| s.branching_bins.to_vec(), BINS)?,
    )?;
    d.set_item("returns", flat(&|s| s.returns.clone(), players)?)?;
    d.set_item("ranks", flat(&|s| s.ranks.clone(), players)?)?;
    if has_scores {
        d.set_item(
            "scores",
            flat(
                &|s| s.scores.clone().unwrap_or_else(|| vec![f64::NAN; players]),
                players,
            )?,
        )?;
    } else {
        d.set_item("scores", py.None())?;
    }
    Ok(d)
}
