//! The variant lab's per-game facts for Python: `_core.lab_stats` replays finished games and
//! returns their summaries as numpy arrays (see `crate::lab` for the definitions).

use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PySlice};

use super::game::PyGame;
use super::search::NativeRun;
use super::{setting_arg, threads_arg, to_py};
use crate::games::Measure;
use crate::lab::summary::{summarize, Moments, Ratio};
use crate::lab::{
    game_stats_batch, schema, ColumnInfo, Columns, ColumnsRef, OPTIONAL, SERIES_SUFFIX,
};
use crate::sim::batch::thread_pool;

/// Replays games and returns their per-game facts.
///
/// Game g's actions are `actions[offsets[g]:offsets[g + 1]]`; `values`, when given, holds the
/// mover's search value at each action (same length as `actions`) and replaces the heuristic
/// in the evaluation metrics. The GIL is released while games are replayed. Returns a dict of
/// numpy arrays, one row per game: `length`, `turns`, `multi_choice`, `repeated` (uint32),
/// `branching_sum`, `coverage`, `lead_change`, `drama`, `decisiveness`, `threshold`,
/// `stability` (float64), `branching_bins` (uint32, games × 10: the legal actions summed over
/// each tenth of the game's decisions), `top_tied`, `truncated`
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
    let d = to_dict(py, stats, game.has_scores())?;
    for key in ["kept", "actions", "offsets", "values"] {
        d.del_item(key)?;
    }
    Ok(d)
}

/// Plays games `first .. first + len(seats)` of a run between native agents and returns their
/// per-game facts (as [`lab_stats`]) together with the games it keeps: `kept` int64 (their
/// indices in the run), and their `actions` uint32, `offsets` int64 and `values` float32 (the
/// mover's root value, NaN for agents that do not search). Kept are the games with an index
/// below `keep` (None: 0) and every game with a repeated position.
///
/// Game i draws from the streams of (seed, i), exactly as `play_games` plays it, so a run cut
/// into chunks at any points gives the same games. With random agents only, each game is
/// measured while it is played; otherwise it is replayed, and the evaluation metrics use its
/// search values when every decision has one, else the heuristic. The GIL is released; Ctrl-C
/// stops between blocks of games.
#[pyfunction]
#[pyo3(signature = (game, agents, seats, seed, first, threads = None, keep = None))]
#[allow(clippy::too_many_arguments)]
pub fn lab_play<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    agents: &Bound<'py, PyAny>,
    seats: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    first: &Bound<'py, PyAny>,
    threads: Option<Bound<'py, PyAny>>,
    keep: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let first = setting_arg(first, "first", 0, u64::MAX / 2)?;
    let keep = match &keep {
        Some(k) => setting_arg(k, "keep", 0, u64::MAX)?,
        None => 0,
    };
    let run = NativeRun::new(py, game, agents, seats, seed, threads.as_ref())?;
    let cols = run.lab(py, first, keep)?;
    to_dict(py, cols, run.game.has_scores())
}

fn to_dict(py: Python<'_>, cols: Columns, has_scores: bool) -> PyResult<Bound<'_, PyDict>> {
    let n = cols.len();
    let layout = cols.layout();
    // One array per group; every column is a view into its group's (no copy).
    let groups = [
        ("whole", PyArray1::from_vec(py, cols.whole).into_any()),
        ("floats", PyArray1::from_vec(py, cols.floats).into_any()),
        ("flags", PyArray1::from_vec(py, cols.flags).into_any()),
        ("signs", PyArray1::from_vec(py, cols.signs).into_any()),
        ("game", PyArray1::from_vec(py, cols.game).into_any()),
    ];
    let d = PyDict::new(py);
    for place in layout {
        if place.name == "scores" && !has_scores {
            d.set_item("scores", py.None())?;
            continue;
        }
        let Some((_, group)) = groups.iter().find(|(g, _)| *g == place.group) else {
            continue;
        };
        let slice = PySlice::new(py, place.start as isize, place.end as isize, 1);
        let mut column = group.get_item(slice)?;
        if place.width > 1 {
            column = column.call_method1("reshape", ((n, place.width),))?;
        }
        d.set_item(place.name, column)?;
    }
    let mut kept = Vec::with_capacity(cols.kept.len());
    let mut actions: Vec<u32> = Vec::new();
    let mut offsets: Vec<i64> = vec![0];
    let mut values: Vec<f32> = Vec::new();
    for k in cols.kept {
        kept.push(k.index as i64);
        actions.extend_from_slice(&k.actions);
        values.extend_from_slice(&k.values);
        offsets.push(actions.len() as i64);
    }
    d.set_item("kept", PyArray1::from_vec(py, kept))?;
    d.set_item("actions", PyArray1::from_vec(py, actions))?;
    d.set_item("offsets", PyArray1::from_vec(py, offsets))?;
    d.set_item("values", PyArray1::from_vec(py, values))?;
    Ok(d)
}

/// One column of [`lab_schema`]: name, dtype, width, description, declared, low, high.
type ColumnTuple = (
    &'static str,
    &'static str,
    usize,
    &'static str,
    bool,
    f64,
    f64,
);

/// The columns of a lab run of `game`, as `(name, dtype, width, description, declared, low,
/// high)`: the lab's own in storage order, then those the game declares (`declared` true).
/// `dtype` is numpy's name; a column of width 1 is one-dimensional, wider ones are games ×
/// width; `low` and `high` bound a declared column's values (infinite for the lab's own).
#[pyfunction]
pub fn lab_schema(game: &PyGame) -> Vec<ColumnTuple> {
    let players = game.game.num_players();
    let declared = Measure::final_columns(&game.game.new_state());
    schema(players, declared)
        .into_iter()
        .map(|c| {
            let ColumnInfo {
                name,
                dtype,
                width,
                description,
                declared,
                low,
                high,
            } = c;
            (name, dtype, width, description, declared, low, high)
        })
        .collect()
}

/// The sums behind a variant's metrics (see `crate::lab::summary`) from its per-game columns:
/// `columns` maps every column of [`lab_schema`] (any array shape; `scores` may be None) to
/// its values, and `declared` names the game's own columns to sum (those of them that
/// `columns` lacks or holds as None are left out). Moments come as (n, mean, Σ (x − mean)²),
/// ratios as (Σ num, Σ den, residual moments), the declared columns' as `game`, a list of
/// (name, moments), and their series' (the declared names that end in `_series`, games × 10)
/// as `series`, a list of (name, [moments of each tenth]).
#[pyfunction]
#[pyo3(signature = (columns, players, declared = Vec::new()))]
pub fn lab_summary<'py>(
    py: Python<'py>,
    columns: &Bound<'py, PyDict>,
    players: usize,
    declared: Vec<String>,
) -> PyResult<Bound<'py, PyDict>> {
    let numpy = py.import("numpy")?;
    // Each column as a contiguous one-dimensional array of its type (None when it is absent).
    let column = |name: &str, dtype: &str| -> PyResult<Option<Bound<'py, PyAny>>> {
        let item = columns.get_item(name)?.filter(|v| !v.is_none());
        let Some(item) = item else {
            if OPTIONAL.contains(&name) {
                return Ok(None);
            }
            return Err(PyValueError::new_err(format!("the columns lack {name}")));
        };
        let flat = numpy
            .call_method1("ascontiguousarray", (item, dtype))
            .and_then(|a| a.call_method1("reshape", (-1,)))
            .map_err(|e| PyValueError::new_err(format!("column {name}: {e}")))?;
        Ok(Some(flat))
    };
    macro_rules! all {
        ($($g:ident : $t:ty = [$($f:ident * $w:expr => $d:literal),+]);+) => {{
            $($(
                let $f: Option<PyReadonlyArray1<'py, $t>> =
                    match column(stringify!($f), <$t as crate::lab::Dtype>::NAME)? {
                        Some(a) => Some(a.extract()?),
                        None => None,
                    };
            )+)+
            let (mut game, mut series) = (Vec::new(), Vec::new());
            let (mut names, mut series_names) = (Vec::new(), Vec::new());
            for name in &declared {
                if let Some(item) = columns.get_item(name)?.filter(|v| !v.is_none()) {
                    let a = numpy.call_method1("ascontiguousarray", (item, "float64"))?;
                    let a: PyReadonlyArray1<'py, f64> = a.call_method1("reshape", (-1,))?.extract()?;
                    if name.ends_with(SERIES_SUFFIX) {
                        series.push(a);
                        series_names.push(name.as_str());
                    } else {
                        game.push(a);
                        names.push(name.as_str());
                    }
                }
            }
            let facts = ColumnsRef {
                players,
                $($($f: match &$f {
                    Some(a) => a.as_slice()?,
                    None => &[],
                },)+)+
                game: game.iter().map(|a| a.as_slice()).collect::<Result<_, _>>()?,
                series: series.iter().map(|a| a.as_slice()).collect::<Result<_, _>>()?,
            };
            (summarize(&facts).map_err(to_py)?, names, series_names)
        }};
    }
    let (s, names, series_names) = crate::lab::columns::column_groups!(all, players);
    let moments = |m: Moments| (m.n, m.mean, m.squares);
    let ratio = |r: Ratio| (r.num, r.den, moments(r.residuals));
    let d = PyDict::new(py);
    d.set_item("games", s.games)?;
    d.set_item("seats", s.seats)?;
    d.set_item("balance", moments(s.balance))?;
    d.set_item("single", s.single)?;
    d.set_item("draw", s.draw)?;
    d.set_item("truncated", s.truncated)?;
    d.set_item("top_tied", s.top_tied)?;
    d.set_item("top_tied_draw", s.top_tied_draw)?;
    d.set_item("repeated_games", s.repeated_games)?;
    d.set_item("length", moments(s.length))?;
    d.set_item("turns", moments(s.turns))?;
    d.set_item("length_percentiles", s.length_percentiles.to_vec())?;
    d.set_item("turns_percentiles", s.turns_percentiles.to_vec())?;
    d.set_item("branching", ratio(s.branching))?;
    d.set_item("decision_moves", ratio(s.decision_moves))?;
    d.set_item("repetition", ratio(s.repetition))?;
    d.set_item("coverage", moments(s.coverage))?;
    d.set_item("lead_change", moments(s.lead_change))?;
    d.set_item("drama", moments(s.drama))?;
    d.set_item("decisiveness", moments(s.decisiveness))?;
    d.set_item("stability", moments(s.stability))?;
    d.set_item("pie_chose", s.pie_chose)?;
    d.set_item("pie_swap", s.pie_swap)?;
    d.set_item("swap_seats", s.swap_seats)?;
    d.set_item("accept_seats", s.accept_seats)?;
    let game: Vec<_> = names
        .into_iter()
        .zip(s.game)
        .map(|(n, m)| (n, moments(m)))
        .collect();
    d.set_item("game", game)?;
    let series: Vec<_> = series_names
        .into_iter()
        .zip(s.series)
        .map(|(n, tenths)| (n, tenths.map(moments).to_vec()))
        .collect();
    d.set_item("series", series)?;
    Ok(d)
}
