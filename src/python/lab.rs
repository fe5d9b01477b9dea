//! The variant lab for Python: games played or replayed into [`PyFacts`], the schema of its
//! columns, and the sums behind its metrics (see `crate::lab` for the definitions).
//!
//! A chunk's per-game facts stay in Rust from play to sums: `lab_play` and `lab_stats` return
//! a `Facts`, which joins other chunks in game order (`Facts.concat`), takes the sums a
//! variant's metrics rest on (`summary`), writes the results file's column lists
//! (`to_lists`) and reads them back (`from_lists`), and pickles as a compact byte encoding
//! (`crate::lab::store`) for the Ray backend. numpy arrays are made only when asked for
//! (`column`, `columns`). `lab_summary` takes the same sums from numpy columns built by hand.

use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};

use super::game::PyGame;
use super::search::NativeRun;
use super::{setting_arg, threads_arg, to_py, InvalidOptionError, RecordError};
use crate::error::Error;
use crate::games::{FinalColumn, Game, Measure};
use crate::lab::summary::{summarize, Moments, Ratio, Summary};
use crate::lab::{
    game_stats_batch, schema, series_name, ColumnInfo, ColumnPlace, Columns, ColumnsRef, Dtype,
    OPTIONAL, SERIES_SUFFIX,
};
use crate::sim::batch::thread_pool;

/// The per-game facts of some games of one game (a chunk of a lab run, or a variant's chunks
/// joined), held in Rust.
///
/// `len(facts)` is the number of games. `column(name)` and `columns()` give numpy arrays (one
/// row per game; copies, made on request), `"name" in facts` whether a column is held (the
/// raw scores of games without scores are not; a chunk of an older results file may lack the
/// game's declared columns), `summary()` the sums behind a variant's metrics, `records()` the
/// games kept with their actions. Facts pickle (a versioned byte encoding, checked when read:
/// a damaged one raises RecordError).
#[pyclass(name = "Facts", module = "stonefield._core", frozen)]
pub struct PyFacts {
    game: Game,
    cols: Columns,
    /// Per declared column, then per series of one, whether these facts hold it (a chunk of an
    /// older results file may lack them).
    present: Vec<bool>,
}

fn declared_of(game: &Game) -> &'static [FinalColumn] {
    Measure::final_columns(&game.new_state())
}

/// Where the column `name` of the group `game` lies among the columns a game declares
/// (`declared`) and then their series: j for declared column j, `declared.len() + j` for its
/// series; None for any other name.
fn game_column(declared: &[FinalColumn], name: &str) -> Option<usize> {
    let (base, offset) = match name.strip_suffix(SERIES_SUFFIX) {
        Some(base) => (base, declared.len()),
        None => (name, 0),
    };
    declared
        .iter()
        .position(|c| c.name == base)
        .map(|j| offset + j)
}

/// The name of column j of the group `game` (see [`game_column`]).
fn game_column_name(declared: &[FinalColumn], j: usize) -> &'static str {
    let d = declared.len();
    if j < d {
        declared[j].name
    } else {
        series_name(declared[j - d].name)
    }
}

impl PyFacts {
    fn new(game: Game, cols: Columns) -> PyFacts {
        let present = vec![true; 2 * cols.declared.len()];
        PyFacts {
            game,
            cols,
            present,
        }
    }

    /// Whether the column of `place` is held (see [`PyFacts::__contains__`]).
    fn holds(&self, place: &ColumnPlace) -> bool {
        if place.name == "scores" {
            return self.game.has_scores();
        }
        if place.group != "game" {
            return true;
        }
        game_column(self.cols.declared, place.name).is_none_or(|j| self.present[j])
    }

    fn place(&self, name: &str) -> PyResult<ColumnPlace> {
        let layout = self.cols.layout();
        match layout.iter().find(|p| p.name == name) {
            Some(p) => Ok(*p),
            None => {
                let names: Vec<_> = layout.iter().map(|p| p.name).collect();
                Err(InvalidOptionError::new_err(format!(
                    "unknown column {name:?}; columns: {}",
                    names.join(", ")
                )))
            }
        }
    }

    /// A column as a numpy array (games, or games × width), or None when it is not held.
    fn array<'py>(&self, py: Python<'py>, place: &ColumnPlace) -> PyResult<Bound<'py, PyAny>> {
        if !self.holds(place) {
            return Ok(py.None().into_bound(py));
        }
        let span = place.start..place.end;
        let flat = match place.group {
            "whole" => PyArray1::from_slice(py, &self.cols.whole[span]).into_any(),
            "floats" => PyArray1::from_slice(py, &self.cols.floats[span]).into_any(),
            "flags" => PyArray1::from_slice(py, &self.cols.flags[span]).into_any(),
            "signs" => PyArray1::from_slice(py, &self.cols.signs[span]).into_any(),
            _ => PyArray1::from_slice(py, &self.cols.game[span]).into_any(),
        };
        if place.width > 1 {
            return flat.call_method1("reshape", ((self.cols.len(), place.width),));
        }
        Ok(flat)
    }

    /// A column as a list of Python numbers (lists of `width` numbers when wider than one), or
    /// None when it is not held.
    fn listed<'py>(&self, py: Python<'py>, place: &ColumnPlace) -> PyResult<Bound<'py, PyAny>> {
        fn rows<'py, T>(py: Python<'py>, v: &[T], width: usize) -> PyResult<Bound<'py, PyAny>>
        where
            T: Copy + IntoPyObject<'py>,
        {
            if width == 1 {
                return Ok(PyList::new(py, v.iter().copied())?.into_any());
            }
            let rows = v
                .chunks_exact(width)
                .map(|r| PyList::new(py, r.iter().copied()))
                .collect::<PyResult<Vec<_>>>()?;
            Ok(PyList::new(py, rows)?.into_any())
        }
        if !self.holds(place) {
            return Ok(py.None().into_bound(py));
        }
        let (span, w) = (place.start..place.end, place.width);
        match place.group {
            "whole" => rows(py, &self.cols.whole[span], w),
            "floats" => rows(py, &self.cols.floats[span], w),
            "flags" => rows(py, &self.cols.flags[span], w),
            "signs" => rows(py, &self.cols.signs[span], w),
            _ => rows(py, &self.cols.game[span], w),
        }
    }
}

/// Copies numpy's reading of `item` as `dtype` (one-dimensional, contiguous) into `out`, which
/// holds one column of `games` rows of `width` entries.
fn read_column<'py, T: numpy::Element + Dtype + Copy>(
    numpy: &Bound<'py, PyModule>,
    name: &str,
    item: &Bound<'py, PyAny>,
    out: &mut [T],
    width: usize,
) -> PyResult<()> {
    let bad = |why: String| RecordError::new_err(format!("stats column {name}: {why}"));
    let flat = numpy
        .call_method1("ascontiguousarray", (item, <T as Dtype>::NAME))
        .and_then(|a| a.call_method1("reshape", (-1,)))
        .map_err(|e| bad(e.to_string()))?;
    let a: PyReadonlyArray1<'py, T> = flat.extract().map_err(|e| bad(format!("{e}")))?;
    let a = a.as_slice()?;
    if a.len() != out.len() {
        let games = out.len() / width.max(1);
        return Err(bad(format!(
            "{} entries, one row of {width} for each of {games} games expected",
            a.len()
        )));
    }
    out.copy_from_slice(a);
    Ok(())
}

#[pymethods]
impl PyFacts {
    fn __len__(&self) -> usize {
        self.cols.len()
    }

    /// The game these are facts of.
    #[getter]
    fn game(&self) -> PyGame {
        PyGame {
            game: self.game.clone(),
        }
    }

    /// Whether the column `name` is held (False for anything that names no column).
    fn __contains__(&self, name: &Bound<'_, PyAny>) -> bool {
        let Ok(name) = name.extract::<String>() else {
            return false;
        };
        self.cols
            .layout()
            .iter()
            .find(|p| p.name == name)
            .is_some_and(|p| self.holds(p))
    }

    /// One column as a new numpy array: games long, or games × width for a column of width
    /// more than one (see `lab_schema`); None for a column not held. An unknown name raises
    /// InvalidOptionError naming the columns.
    fn column<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        let place = self.place(name)?;
        self.array(py, &place)
    }

    /// Every column as `column(name)` gives it, keyed by name in the order of `lab_schema`.
    fn columns<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for place in self.cols.layout() {
            d.set_item(place.name, self.array(py, &place)?)?;
        }
        Ok(d)
    }

    /// Every column as Python lists (rows of a column of width more than one as lists; None
    /// for a column not held), keyed by name in the order of `lab_schema`: a results file's
    /// `stats`, which `from_lists` reads back.
    fn to_lists<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for place in self.cols.layout() {
            d.set_item(place.name, self.listed(py, &place)?)?;
        }
        Ok(d)
    }

    /// The games kept with their actions, in game order: `{"index", "actions", "values"}`
    /// dicts, `values` the mover's search value at each action (None where the agent does not
    /// search).
    fn records<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for k in &self.cols.kept {
            let d = PyDict::new(py);
            d.set_item("index", k.index)?;
            d.set_item("actions", PyList::new(py, k.actions.iter().copied())?)?;
            let values = k
                .values
                .iter()
                .map(|&v| (!v.is_nan()).then_some(f64::from(v)));
            d.set_item("values", PyList::new(py, values)?)?;
            out.append(d)?;
        }
        Ok(out)
    }

    /// The sums behind a variant's metrics, as `lab_summary` gives them, over these games and
    /// the game's declared columns named in `declared` (default: all of them) that these facts
    /// hold. A name the game does not declare raises InvalidOptionError.
    #[pyo3(signature = (declared = None))]
    fn summary<'py>(
        &self,
        py: Python<'py>,
        declared: Option<Vec<String>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let all = self.cols.declared;
        let d = all.len();
        // Indices into `present`: the declared columns, then their series.
        let wanted: Vec<usize> = match &declared {
            None => (0..2 * d).collect(),
            Some(names) => names
                .iter()
                .map(|n| {
                    game_column(all, n).ok_or_else(|| {
                        let names: Vec<_> = (0..2 * d).map(|j| game_column_name(all, j)).collect();
                        InvalidOptionError::new_err(format!(
                            "{} declares no column {n:?}; it declares: [{}]",
                            self.game.name(),
                            names.join(", ")
                        ))
                    })
                })
                .collect::<PyResult<_>>()?,
        };
        let wanted: Vec<usize> = wanted.into_iter().filter(|&j| self.present[j]).collect();
        let (finals, series): (Vec<usize>, Vec<usize>) = wanted.iter().partition(|&&j| j < d);
        let rows = self.cols.rows();
        let facts = ColumnsRef {
            scores: if self.game.has_scores() {
                rows.scores
            } else {
                &[]
            },
            game: finals.iter().map(|&j| rows.game[j]).collect(),
            series: series.iter().map(|&j| rows.series[j - d]).collect(),
            ..rows
        };
        let s = py.detach(|| summarize(&facts)).map_err(to_py)?;
        let names = finals.iter().map(|&j| game_column_name(all, j)).collect();
        let series_names = series.iter().map(|&j| game_column_name(all, j)).collect();
        summary_dict(py, s, names, series_names)
    }

    /// The facts of `parts` (Facts of `game`) one after the other, in the order given (a
    /// variant's chunks sorted by their first game), with their kept games; a declared column
    /// is held when every part holds it. One part is returned as it is.
    #[staticmethod]
    fn concat<'py>(
        py: Python<'py>,
        game: &PyGame,
        parts: Vec<Bound<'py, PyFacts>>,
    ) -> PyResult<Bound<'py, PyFacts>> {
        let game = &game.game;
        for p in &parts {
            let g = &p.get().game;
            if g.name() != game.name() || g.options() != game.options() {
                return Err(to_py(Error::InvalidArgument(format!(
                    "facts of {} {:?} cannot join facts of {} {:?}",
                    g.name(),
                    g.options(),
                    game.name(),
                    game.options()
                ))));
            }
        }
        if parts.len() == 1 {
            return Ok(parts[0].clone());
        }
        let declared = declared_of(game);
        let mut present = vec![true; 2 * declared.len()];
        for p in &parts {
            for (a, b) in present.iter_mut().zip(&p.get().present) {
                *a &= *b;
            }
        }
        let refs: Vec<&Columns> = parts.iter().map(|p| &p.get().cols).collect();
        let cols = Columns::concat(game.num_players(), declared, &refs).map_err(to_py)?;
        let facts = PyFacts {
            game: game.clone(),
            cols,
            present,
        };
        Bound::new(py, facts)
    }

    /// Facts of `game` from a results file's `stats` (as `to_lists` writes them): every
    /// column of `lab_schema` by name, the raw scores None for games without scores, a
    /// declared column None or absent where an older file lacks it. Anything else raises
    /// RecordError naming the column.
    #[staticmethod]
    fn from_lists(game: &PyGame, stats: &Bound<'_, PyDict>) -> PyResult<PyFacts> {
        let py = stats.py();
        let game = game.game.clone();
        let declared = declared_of(&game);
        let item = |name: &str| -> PyResult<Option<Bound<'_, PyAny>>> {
            Ok(stats.get_item(name)?.filter(|v| !v.is_none()))
        };
        let Some(length) = item("length")? else {
            return Err(RecordError::new_err("stats lack the games' lengths"));
        };
        let games = length.len().map_err(|_| {
            RecordError::new_err("stats column length must be a list of one entry per game")
        })?;
        let mut cols = Columns::zeroed(game.num_players(), declared, games);
        let mut present = vec![true; 2 * declared.len()];
        let numpy = py.import("numpy")?;
        for place in cols.layout() {
            let Some(value) = item(place.name)? else {
                if place.group == "game" {
                    if let Some(j) = game_column(declared, place.name) {
                        present[j] = false;
                    }
                    cols.game[place.start..place.end].fill(f64::NAN);
                    continue;
                }
                if OPTIONAL.contains(&place.name) && !game.has_scores() {
                    cols.floats[place.start..place.end].fill(f64::NAN);
                    continue;
                }
                return Err(RecordError::new_err(format!(
                    "stats lack the column {}",
                    place.name
                )));
            };
            let (span, w, name) = (place.start..place.end, place.width, place.name);
            match place.group {
                "whole" => read_column(&numpy, name, &value, &mut cols.whole[span], w)?,
                "floats" => read_column(&numpy, name, &value, &mut cols.floats[span], w)?,
                "flags" => read_column(&numpy, name, &value, &mut cols.flags[span], w)?,
                "signs" => read_column(&numpy, name, &value, &mut cols.signs[span], w)?,
                _ => read_column(&numpy, name, &value, &mut cols.game[span], w)?,
            }
            if place.name == "scores" && !game.has_scores() {
                cols.floats[place.start..place.end].fill(f64::NAN);
            }
        }
        Ok(PyFacts {
            game,
            cols,
            present,
        })
    }

    /// The facts as bytes (the versioned encoding of `crate::lab::store`; the game is not in
    /// them: `_from_bytes` is given it).
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.cols.encode(&self.present))
    }

    /// Facts of `game` from `to_bytes` (how pickles load). Anything wrong, as in a damaged
    /// pickle, is a RecordError.
    #[staticmethod]
    fn _from_bytes(game: &Bound<'_, PyAny>, data: &Bound<'_, PyAny>) -> PyResult<PyFacts> {
        let game = game
            .cast::<PyGame>()
            .map_err(|_| RecordError::new_err("serialized lab facts: the game is not a Game"))?
            .get()
            .game
            .clone();
        let data = data
            .cast::<PyBytes>()
            .map_err(|_| RecordError::new_err("serialized lab facts: the data are not bytes"))?;
        let (cols, present) =
            Columns::decode(data.as_bytes(), game.num_players(), declared_of(&game))
                .map_err(to_py)?;
        Ok(PyFacts {
            game,
            cols,
            present,
        })
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let module = py.import("stonefield._core")?;
        let rebuild = module.getattr("Facts")?.getattr("_from_bytes")?;
        let game = Bound::new(py, self.game())?;
        let args = (game, self.to_bytes(py));
        PyTuple::new(py, [rebuild.into_any(), args.into_pyobject(py)?.into_any()])
    }

    fn __repr__(&self) -> String {
        format!(
            "Facts({}, {} games, {} kept)",
            self.game.name(),
            self.cols.len(),
            self.cols.kept.len()
        )
    }
}

/// Replays games and returns their per-game facts (a `Facts`).
///
/// Game g's actions are `actions[offsets[g]:offsets[g + 1]]`; `values`, when given, holds the
/// mover's search value at each action (same length as `actions`) and replaces the heuristic
/// in the evaluation metrics. With `keep`, the facts keep the actions (and values, NaN without
/// them) of the games numbered below `keep` and of every game with a repeated position, game g
/// being numbered `first + g`, as `lab_play` keeps them. The GIL is released while games are
/// replayed. An illegal action or a game that does not end with its last action raises the
/// game's error, naming the game index.
#[pyfunction]
#[pyo3(signature = (game, actions, offsets, values = None, threads = None, *, first = 0, keep = None))]
#[allow(clippy::too_many_arguments)]
pub fn lab_stats<'py>(
    py: Python<'py>,
    game: &PyGame,
    actions: PyReadonlyArray1<'py, u32>,
    offsets: PyReadonlyArray1<'py, i64>,
    values: Option<PyReadonlyArray1<'py, f32>>,
    threads: Option<Bound<'py, PyAny>>,
    first: u64,
    keep: Option<u64>,
) -> PyResult<PyFacts> {
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
    let mut cols = py
        .detach(|| {
            let run = || game_stats_batch(&game, &actions, &offsets, values.as_deref(), parallel);
            match &pool {
                Some(p) => p.install(run),
                None => run(),
            }
        })
        .map_err(to_py)?;
    if let Some(keep) = keep {
        cols.keep_replayed(first, keep, &actions, &offsets, values.as_deref());
    }
    Ok(PyFacts::new(game, cols))
}

/// Plays games `first .. first + len(seats)` of a run between native agents and returns their
/// per-game facts (a `Facts`) together with the games it keeps (`Facts.records`): those with
/// an index below `keep` (None: 0) and every game with a repeated position, with the mover's
/// root value at each action (NaN for agents that do not search).
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
) -> PyResult<PyFacts> {
    let first = setting_arg(first, "first", 0, u64::MAX / 2)?;
    let keep = match &keep {
        Some(k) => setting_arg(k, "keep", 0, u64::MAX)?,
        None => 0,
    };
    let run = NativeRun::new(py, game, agents, seats, seed, threads.as_ref())?;
    let cols = run.lab(py, first, keep)?;
    Ok(PyFacts::new(run.game.clone(), cols))
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
    summary_dict(py, s, names, series_names)
}

/// The sums of [`Summary`] as `lab_summary` returns them, the declared columns' named `names`
/// and their series' `series_names`.
fn summary_dict<'py>(
    py: Python<'py>,
    s: Summary,
    names: Vec<&str>,
    series_names: Vec<&str>,
) -> PyResult<Bound<'py, PyDict>> {
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
