//! `solve`, `SolveResult`, `state_graph` and `StateGraph`: the exact-analysis layer for Python.
//!
//! Long calls go through the extension's one interruptible runner ([`interruptible`]); on
//! Ctrl-C the work is told to stop and returns what it has, marked "interrupted", and the call
//! raises [`SolveInterrupted`] (a KeyboardInterrupt) carrying that result.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use numpy::PyArray1;
use pyo3::create_exception;
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::game::{PyGame, PyState};
use super::search::{bad, bool_arg, describe, opt, real_arg};
use super::{as_invalid_option, setting_arg, threads_arg, to_py};
use crate::games::{each_state, Rules};
use crate::search::network::GraphNet;
use crate::search::puct::{Batch, BatchEvaluator};
use crate::solve::{self as core, Checkpoint, GraphStop, Guide, Method, SolveOptions, StoppedBy};

/// Moves below the root that a guide orders by default, and at most.
const DEFAULT_GUIDE_DEPTH: usize = 4;
const MAX_GUIDE_DEPTH: u64 = 64;

/// A trained graph network as the solver's guide: the policy's prior of each action.
struct NetGuide {
    net: GraphNet,
    batch: Batch,
}

impl<R: Rules> Guide<R> for NetGuide {
    fn rank(&mut self, s: &R, actions: &[u32], scores: &mut Vec<f32>) {
        scores.clear();
        self.batch.clear();
        self.batch.push(s);
        if self.net.evaluate(&mut self.batch).is_err() {
            // Shapes were checked when the guide was made; equal scores keep the search sound.
            scores.resize(actions.len(), 0.0);
            return;
        }
        let priors = &self.batch.priors;
        scores.extend(
            actions
                .iter()
                .map(|&a| priors.get(a as usize).copied().unwrap_or(0.0)),
        );
    }

    fn fork(&self) -> Box<dyn Guide<R>> {
        Box::new(NetGuide {
            net: self.net.clone(),
            batch: self.batch.clone(),
        })
    }
}

create_exception!(
    stonefield,
    SolveInterrupted,
    PyKeyboardInterrupt,
    "Ctrl-C (or `cancel_native_calls`) stopped `solve` or `state_graph`; `result` holds what \
     it had (a SolveResult or a StateGraph, stopped_by \"interrupted\"), so nothing finished \
     is lost. A KeyboardInterrupt, so a loop of solves stops too."
);

/// Runs `work` through the extension's one interruptible runner
/// ([`super::interrupt::interruptible`]): on Ctrl-C or `cancel_native_calls` the work's stop
/// flag is raised, the work ends cleanly with what it has (`stopped_by="interrupted"`), and
/// the caller gets that result with the interruption to raise once the result is made (see
/// [`interrupted`]).
fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&AtomicBool) -> T + Send,
) -> (T, Option<PyErr>) {
    super::interrupt::interruptible(py, work)
}

/// The error to raise for a call that `why` interrupted after it made `result`: a
/// KeyboardInterrupt becomes a [`SolveInterrupted`] carrying the result (the original as its
/// cause); any other error a signal handler raised passes unchanged.
fn interrupted(why: PyErr, result: Bound<'_, PyAny>) -> PyErr {
    let py = result.py();
    if !why.is_instance_of::<PyKeyboardInterrupt>(py) {
        return why;
    }
    let e = SolveInterrupted::new_err("interrupted; what was found before is kept in .result");
    if let Err(set) = e.value(py).setattr("result", result) {
        return set;
    }
    e.set_cause(py, Some(why));
    e
}

/// The outcome of a root action that was not proven.
const NOT_PROVEN: i8 = i8::MIN;

/// The position `state` (a `stonefield.State`) holds, copied, for the call `who`.
fn root_of(state: &Bound<'_, PyAny>, who: &str) -> PyResult<crate::games::State> {
    let st = state.cast::<PyState>().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "{who} needs a stonefield.State, got {}",
            describe(state)
        ))
    })?;
    let root = st.borrow().session.state().clone();
    Ok(root)
}

/// A time budget in seconds (> 0); one too long for the clock (about 9.2e18 s or more) is no
/// limit.
fn time_arg(time: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Duration>> {
    Ok(time
        .map(|v| real_arg("time", v, 0.0, true))
        .transpose()?
        .and_then(|t| Duration::try_from_secs_f64(t).ok()))
}

/// The perfect-play analysis of a position (see `stonefield.solve`).
///
/// Attributes:
///     value: +1 / 0 / −1, the outcome for the player to move under perfect play, or None if
///         the search stopped first (a proven winning move decides it even then).
///     margin: with margin=True, the best final score difference (mover − other) both players
///         can force; else None.
///     actions: int64, every legal root action, ascending.
///     outcomes: int8 per action, the mover's outcome after it under perfect play, or
///         SolveResult.NOT_PROVEN (−128) where the search stopped first.
///     best: the actions that keep the best outcome (all of them).
///     pv: one perfect line to the end of the game (empty unless solved).
///     nodes, seconds: the work done.
///     stopped_by: "solved", "nodes", "time", "interrupted" or "value" (value_only: a winning
///         root action proven, the others left open).
///     table_entries, table_bytes: the transposition table's filled entries and the size it grew
///         to (at most `table_mb`).
///
/// >>> import pickle, stonefield as sf
/// >>> res = sf.solve(sf.make("windflowers", size=3, max_moves=4).new_state())
/// >>> res.value, res.stopped_by, len(res.actions)
/// (0, 'solved', 15)
/// >>> pickle.loads(pickle.dumps(res)).best == res.best
/// True
#[pyclass(
    name = "SolveResult",
    module = "stonefield",
    frozen,
    skip_from_py_object
)]
#[derive(Clone)]
pub struct PySolveResult {
    #[pyo3(get)]
    value: Option<i32>,
    #[pyo3(get)]
    margin: Option<i32>,
    actions: Vec<i64>,
    outcomes: Vec<i8>,
    #[pyo3(get)]
    best: Vec<u32>,
    #[pyo3(get)]
    pv: Vec<u32>,
    #[pyo3(get)]
    nodes: u64,
    #[pyo3(get)]
    seconds: f64,
    #[pyo3(get)]
    stopped_by: String,
    #[pyo3(get)]
    table_entries: usize,
    #[pyo3(get)]
    table_bytes: usize,
}

#[pymethods]
impl PySolveResult {
    #[classattr]
    const NOT_PROVEN: i8 = NOT_PROVEN;

    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(
        value: Option<i32>,
        margin: Option<i32>,
        actions: Vec<i64>,
        outcomes: Vec<i8>,
        best: Vec<u32>,
        pv: Vec<u32>,
        nodes: u64,
        seconds: f64,
        stopped_by: String,
        table_entries: usize,
        table_bytes: usize,
    ) -> Self {
        PySolveResult {
            value,
            margin,
            actions,
            outcomes,
            best,
            pv,
            nodes,
            seconds,
            stopped_by,
            table_entries,
            table_bytes,
        }
    }

    #[getter]
    fn actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        PyArray1::from_slice(py, &self.actions)
    }

    #[getter]
    fn outcomes<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        PyArray1::from_slice(py, &self.outcomes)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let s = slf.get();
        let args = (
            s.value,
            s.margin,
            s.actions.clone(),
            s.outcomes.clone(),
            s.best.clone(),
            s.pv.clone(),
            s.nodes,
            s.seconds,
            s.stopped_by.clone(),
            s.table_entries,
            s.table_bytes,
        );
        (py.get_type::<PySolveResult>(), args).into_pyobject(py)
    }

    fn __repr__(&self) -> String {
        format!(
            "SolveResult(value={}, best={:?}, nodes={}, seconds={:.3}, stopped_by={:?})",
            self.value.map_or("None".into(), |v| v.to_string()),
            self.best,
            self.nodes,
            self.seconds,
            self.stopped_by
        )
    }
}

/// A size in MiB (`table_mb`, `max_mb`): a whole number from 1 to the memory this process may
/// still take ([`crate::memory::room`]: available memory, the control group's limit, `ulimit`),
/// refused with an InvalidOptionError naming that range and the limit behind it. Where no limit
/// can be read, up to `fallback_max` MiB.
fn mb_arg(who: &str, name: &str, v: &Bound<'_, PyAny>, fallback_max: u64) -> PyResult<usize> {
    let room = crate::memory::room();
    let most = room.map_or(fallback_max, |r| (r.bytes >> 20).max(1));
    let mb = setting_arg(v, name, 1, u64::MAX)?;
    if mb > most {
        return Err(bad(format!(
            "{who}: {name} must be a whole number of MiB from 1 to {most} ({}), got {mb}",
            room.map_or("the most allowed".to_string(), |r| format!(
                "the room here: {r}"
            ))
        )));
    }
    usize::try_from(mb)
        .ok()
        .and_then(|mb| mb.checked_mul(1 << 20))
        .ok_or_else(|| {
            bad(format!(
                "{who}: {name} of {mb} MiB cannot be addressed here"
            ))
        })
}

/// A budget argument: a count ≥ 1, or None.
fn nodes_arg(v: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u64>> {
    v.map(|v| setting_arg(v, "max_nodes", 1, u64::MAX))
        .transpose()
}

/// Solves a two-player position exactly: negamax alpha-beta with a transposition table keyed
/// by the position key (`State.key()`), the GIL released; Ctrl-C stops it and raises
/// SolveInterrupted (a KeyboardInterrupt) whose `result` holds what it had.
/// Positions that are images of each other under the board's symmetries (Windflowers, the
/// Smallholder and Subsume: rotations and reflections that keep the rules) share one entry, so
/// a symmetric board is searched up to symmetry.
///
/// Args:
///     state: the position (not over) of a two-player game; for three or four players use
///         state_graph.
///     max_nodes: stop after about this many nodes (≥ 1), or None.
///     time: stop after this many seconds (> 0), or None.
///     threads: search threads (the root's actions are shared out; the result is the same for
///         any count), default 1.
///     margin: also find the best final score difference (games with scores).
///     table_mb: the table's size in MiB, from 1 to the memory this process may still take
///         (`available_memory()`: free memory, the container's limit, `ulimit`); default an
///         eighth of that (16 MiB to 1 GiB). The table starts at 8 MiB and doubles as it fills,
///         up to this size, so a small solve touches little memory. Entries are 16 bytes, in
///         buckets of two: one keeps the result that cost the most nodes, the other the newest,
///         so a full table keeps its dearest results.
///     method: "alphabeta" (default) or "pns", a depth-first proof-number search that proves
///         each root action's outcome (one or two yes-or-no questions: a win? at least a
///         draw?) with a table per thread. Same results; which finishes first depends on the
///         board (docs/solved). The margin is always found by alpha-beta.
///     checkpoint: a directory (made if missing): the run is saved there as it goes (its
///         table's entries and the root outcomes proven, to `solve.ckpt`, atomically) every
///         `save_every` seconds and when it ends (solved, a budget, Ctrl-C); a later solve of
///         the same position with the same directory resumes from it. Alpha-beta only; with
///         margin=True the margin's search is not saved. A directory holding another run
///         (game, options, position, solver version) is refused, naming what differs.
///     save_every: seconds between saves (> 0), default 300; only with checkpoint.
///     guide: a trained graph network (a checkpoint of architecture "graph", or an expert's
///         evaluator) that orders the search: the root's actions are solved in the order of
///         its policy, and alpha-beta orders the positions `guide_depth` moves below the root
///         by it. Values, outcomes and best actions are the same with any guide or none.
///     guide_depth: moves below the root ordered by the guide (0 to 64), default 4.
///     value_only: stop at the first root action proven to win (stopped_by "value"): the value
///         is known, the other actions stay unproven. Not with margin=True.
///     try_first: root actions to solve before the others, in this order (a search's ranking,
///         say; then the guide's order or the actions').
///     table: a SolveTable of the position's game to solve in, kept from earlier solves and
///         for later ones (table_mb is then the table's own); alpha-beta only, no checkpoint.
///
/// Returns:
///     SolveResult. When a budget stops the search, every root outcome proven so far is kept.
///
/// Raises:
///     SolveInterrupted: Ctrl-C (or cancel_native_calls) stopped the search; its `result` is
///         the SolveResult so far (stopped_by "interrupted", every outcome proven before kept).
///     InvalidOptionError: a bad setting, or a table larger than the memory available; a
///         checkpoint directory that cannot be written or holds another run.
///     RecordError: the checkpoint file is truncated or altered (nothing of it is loaded).
///
/// >>> import stonefield as sf
/// >>> res = sf.solve(sf.make("smallholder", board="hex232323").new_state())
/// >>> res.value, res.best, res.stopped_by
/// (1, [1, 7, 9], 'solved')
/// >>> int(res.outcomes[0])    # opening on site 0 throws the win away
/// -1
// Python's keyword arguments, one parameter each.
#[allow(clippy::too_many_arguments)]
#[pyfunction]
#[pyo3(signature = (state, max_nodes = None, time = None, threads = None, margin = None,
                    table_mb = None, method = None, checkpoint = None, save_every = None,
                    guide = None, guide_depth = None, value_only = None, try_first = None,
                    table = None))]
pub fn solve(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    max_nodes: Option<Bound<'_, PyAny>>,
    time: Option<Bound<'_, PyAny>>,
    threads: Option<Bound<'_, PyAny>>,
    margin: Option<Bound<'_, PyAny>>,
    table_mb: Option<Bound<'_, PyAny>>,
    method: Option<Bound<'_, PyAny>>,
    checkpoint: Option<Bound<'_, PyAny>>,
    save_every: Option<Bound<'_, PyAny>>,
    guide: Option<Bound<'_, PyAny>>,
    guide_depth: Option<Bound<'_, PyAny>>,
    value_only: Option<Bound<'_, PyAny>>,
    try_first: Option<Bound<'_, PyAny>>,
    table: Option<Bound<'_, PyAny>>,
) -> PyResult<PySolveResult> {
    let root = root_of(state, "solve")?;
    let kept_table = match opt(&table) {
        Some(t) => Some(t.cast::<PySolveTable>().map_err(|_| {
            bad(format!(
                "solve: table must be a SolveTable (stonefield.SolveTable(game)), not {}",
                describe(t)
            ))
        })?),
        None => None,
    };
    let max_nodes = nodes_arg(opt(&max_nodes))?;
    let time = time_arg(opt(&time))?;
    let threads = threads_arg(opt(&threads))
        .map_err(|e| as_invalid_option(py, e))?
        .unwrap_or(1);
    let margin = opt(&margin)
        .map(|v| bool_arg("margin", v))
        .transpose()?
        .unwrap_or(false);
    let table_bytes = match opt(&table_mb) {
        Some(v) => mb_arg("solve", "table_mb", v, 1 << 20)?,
        None => core::default_table_bytes(),
    };
    let method = match opt(&method) {
        Some(v) => {
            let name: String = v.extract().map_err(|_| {
                bad(format!(
                    "solve: method must be one of {}, not {}",
                    Method::NAMES.join(", "),
                    describe(v)
                ))
            })?;
            Method::parse(&name).map_err(to_py)?
        }
        None => Method::AlphaBeta,
    };
    if margin && !root.game().has_scores() {
        return Err(bad(format!(
            "solve: margin=True needs a game with scores (windflowers, faraday), not {}",
            root.game_name()
        )));
    }
    core::check_solvable(&root).map_err(to_py)?;
    let every = opt(&save_every)
        .map(|v| real_arg("save_every", v, 0.0, true))
        .transpose()?;
    let checkpoint = match opt(&checkpoint) {
        Some(v) => {
            let dir: std::path::PathBuf = v.extract().map_err(|_| {
                bad(format!(
                    "solve: checkpoint must be a directory path (str or os.PathLike), not {}",
                    describe(v)
                ))
            })?;
            let every = every.unwrap_or(300.0);
            let every = Duration::try_from_secs_f64(every).map_err(|_| {
                bad(format!(
                    "solve: save_every must be a finite number of seconds > 0, got {every}"
                ))
            })?;
            Some(Checkpoint {
                dir,
                every,
                identity: checkpoint_identity(&root),
            })
        }
        None if every.is_some() => {
            return Err(bad(
                "solve: save_every is only used with checkpoint (a directory to save in)"
                    .to_string(),
            ))
        }
        None => None,
    };
    let value_only = opt(&value_only)
        .map(|v| bool_arg("value_only", v))
        .transpose()?
        .unwrap_or(false);
    if value_only && margin {
        return Err(bad(
            "solve: value_only stops at the first winning action; margin=True needs every \
             action solved"
                .to_string(),
        ));
    }
    let try_first: Vec<u32> = match opt(&try_first) {
        Some(v) => {
            let refuse = || {
                bad(format!(
                    "solve: try_first must be a sequence of root actions (ints), not {}",
                    describe(v)
                ))
            };
            if v.is_instance_of::<pyo3::types::PyString>() {
                return Err(refuse());
            }
            let mut out = Vec::new();
            for a in v.try_iter().map_err(|_| refuse())? {
                let a = a?;
                let n = setting_arg(
                    &a,
                    "solve: each action of try_first",
                    0,
                    u64::from(u32::MAX),
                )?;
                out.push(n as u32);
            }
            out
        }
        None => Vec::new(),
    };
    let guide = match opt(&guide) {
        Some(g) => {
            let weights = super::puct::native_weights(py, g)?.ok_or_else(|| {
                bad(format!(
                    "solve: guide must be a graph network (a stonefield checkpoint of \
                     architecture \"graph\", or an expert's evaluator), not {}",
                    describe(g)
                ))
            })?;
            let net = GraphNet::new(weights, &root.game()).map_err(to_py)?;
            Some(net)
        }
        None => None,
    };
    let guide_depth = match opt(&guide_depth) {
        Some(v) => {
            let d = setting_arg(v, "solve: guide_depth", 0, MAX_GUIDE_DEPTH)? as usize;
            if guide.is_none() {
                return Err(bad(
                    "solve: guide_depth is only used with guide (a network to order by)"
                        .to_string(),
                ));
            }
            d
        }
        None => DEFAULT_GUIDE_DEPTH,
    };
    let opts = SolveOptions {
        max_nodes,
        time,
        threads,
        margin: false,
        table_bytes,
        max_moves: core::max_moves(&root.game()),
        symmetries: root.game().symmetries(),
        method,
        checkpoint,
        guide_depth,
        value_only,
        try_first,
        ..SolveOptions::default()
    };
    if kept_table.is_some() && opt(&table_mb).is_some() {
        return Err(bad(
            "solve: table_mb is not used with table (a SolveTable has its own size)".to_string(),
        ));
    }
    if kept_table.is_some() && (method == Method::ProofNumber || opts.checkpoint.is_some()) {
        return Err(bad(
            "solve: a SolveTable holds alpha-beta's outcomes: not with method=\"pns\" or a \
             checkpoint"
                .to_string(),
        ));
    }
    let mut kept = match &kept_table {
        Some(t) => Some(t.get().take(&root)?),
        None => None,
    };
    let (result, stop) = interruptible(py, |stop| {
        each_state!(&root, s => {
            let guide = guide.as_ref().map(|net| NetGuide {
                net: net.clone(),
                batch: Batch::new(s, true),
            });
            let guide = guide.as_ref().map(|g| g as &dyn Guide<_>);
            let r = match kept.as_mut() {
                Some(k) => core::solve_kept(s, &opts, guide, Some(stop), k)?,
                None => core::solve_guided(s, &opts, guide, Some(stop))?,
            };
            let m = if margin && r.stopped_by == StoppedBy::Solved {
                let left = SolveOptions {
                    margin: true,
                    method: Method::AlphaBeta,
                    max_nodes: opts.max_nodes.map(|n| n.saturating_sub(r.nodes).max(1)),
                    checkpoint: None,
                    ..opts.clone()
                };
                Some(core::solve(s, &left, Some(stop))?)
            } else {
                None
            };
            Ok::<_, crate::error::Error>((r, m))
        })
    });
    if let (Some(t), Some(k)) = (&kept_table, kept) {
        t.get().give_back(k);
    }
    let (r, m) = result.map_err(to_py)?;
    let stopped_by = m.as_ref().map_or(r.stopped_by, |m| m.stopped_by);
    let result = PySolveResult {
        value: r.value,
        margin: m.as_ref().and_then(|m| m.value),
        actions: r.actions.iter().map(|&a| i64::from(a)).collect(),
        outcomes: r
            .outcomes
            .iter()
            .map(|o| o.map_or(NOT_PROVEN, |v| v as i8))
            .collect(),
        best: r.best,
        pv: r.pv,
        nodes: r.nodes + m.as_ref().map_or(0, |m| m.nodes),
        seconds: r.seconds + m.as_ref().map_or(0.0, |m| m.seconds),
        stopped_by: stopped_by.name().to_string(),
        table_entries: r
            .table_entries
            .max(m.as_ref().map_or(0, |m| m.table_entries)),
        table_bytes: r.table_bytes,
    };
    match stop {
        None => Ok(result),
        Some(why) => Err(interrupted(why, Bound::new(py, result)?.into_any())),
    }
}

/// The moves of a proof that `player` gets at least `at_least` (+1, 0 or −1) from `state`,
/// for `stonefield.proofs.write_proof`: one action id per line of the claim's proof, −1 for a
/// position left to the checker's minimax, −2 − k for the same position as at the claim's
/// line k (0-based), a + (k + 1)·2³² for the move a to the position the move of line k
/// reached (the proofs referred to complete above); `None` when `time` (seconds) ran out
/// first. One alpha-beta search (one thread, `table_mb` MiB at most, the game's symmetries)
/// chooses the claiming player's moves.
///
/// Raises:
///     InvalidOptionError: the claim does not hold (no proof), or a bad setting.
///     KeyboardInterrupt: Ctrl-C (or `cancel_native_calls`) stopped it (nothing is returned).
#[pyfunction]
#[pyo3(signature = (state, player, at_least, table_mb = None, time = None))]
pub fn proof_lines<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    player: usize,
    at_least: i32,
    table_mb: Option<Bound<'py, PyAny>>,
    time: Option<Bound<'py, PyAny>>,
) -> PyResult<Option<Bound<'py, PyArray1<i64>>>> {
    let root = root_of(state, "proof_lines")?;
    let table_bytes = match opt(&table_mb) {
        Some(v) => mb_arg("proof", "table_mb", v, 1 << 20)?,
        None => core::default_table_bytes(),
    };
    let time = time_arg(opt(&time))?;
    let opts = SolveOptions {
        table_bytes,
        time,
        max_moves: core::max_moves(&root.game()),
        symmetries: root.game().symmetries(),
        ..SolveOptions::default()
    };
    let (result, stop) = interruptible(
        py,
        |stop| each_state!(&root, s => core::proof_lines(s, player, at_least, &opts, Some(stop))),
    );
    let lines = result.map_err(to_py)?;
    if let Some(why) = stop {
        return Err(why);
    }
    let Some(lines) = lines else {
        return Ok(None);
    };
    let ids: Vec<i64> = lines
        .into_iter()
        .map(|l| match l {
            core::ProofLine::Move(a) => i64::from(a),
            core::ProofLine::Leaf => -1,
            core::ProofLine::Same(line) => -2 - i64::from(line),
            core::ProofLine::MoveSame(a, line) => i64::from(a) | (i64::from(line) + 1) << 32,
        })
        .collect();
    Ok(Some(PyArray1::from_vec(py, ids)))
}

/// The game a kept table belongs to, as its entries depend on it: the name, the rules' version
/// and every option.
fn table_game(game: &crate::games::Game) -> String {
    let options: Vec<String> = game
        .options()
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    format!(
        "{} ({}; rules version {})",
        game.name(),
        options.join(", "),
        game.rules_version()
    )
}

/// An alpha-beta transposition table kept between solves of one game's positions (`solve(...,
/// table=t)`): what one solve proved spares the next, so the positions after each of a
/// position's moves, solved one by one in one table, cost about what the position's own solve
/// does, where solved apart each starts from nothing. It starts at 8 MiB and doubles as it
/// fills, up to `table_mb` (default as `solve`'s); full, it keeps replacing as `solve`'s does.
///
/// Args:
///     game: the Game whose positions it holds (solving a position of another game or other
///         options in it is refused).
///     table_mb: the most it may grow to, in MiB (1 to the memory this process may still take).
///
/// Attributes:
///     game: the game it holds, as text (name, options, rules version).
///     entries: positions stored.
///     table_bytes: bytes of the part in use; capacity_bytes: bytes it may grow to.
///
/// A table is used by one solve at a time (a second solve at once is refused), and holds
/// alpha-beta's outcomes: not with method="pns" or a checkpoint; with margin=True it serves
/// the outcome search (the margin's search takes a table of its own).
///
/// >>> import stonefield as sf
/// >>> g = sf.make("smallholder", board="hex232323")
/// >>> t = sf.SolveTable(g, table_mb=16)
/// >>> s = g.new_state()
/// >>> values = []
/// >>> for a in s.legal_actions()[:3]:
/// ...     kid = s.copy()
/// ...     kid.apply(int(a))
/// ...     values.append(sf.solve(kid, table=t).value)
/// >>> values
/// [1, -1, 1]
/// >>> t.entries > 0
/// True
#[pyclass(name = "SolveTable", module = "stonefield", frozen)]
pub struct PySolveTable {
    table: std::sync::Mutex<Option<core::KeptTable>>,
    game: String,
}

impl PySolveTable {
    /// The table taken out for one solve, or an error naming why not (another game, or in use).
    fn take(&self, root: &crate::games::State) -> PyResult<core::KeptTable> {
        let theirs = table_game(&root.game());
        if theirs != self.game {
            return Err(bad(format!(
                "solve: this SolveTable holds positions of {}, not of {theirs}; make one for \
                 that game",
                self.game
            )));
        }
        self.table
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .ok_or_else(|| {
                bad(
                    "solve: this SolveTable is in use by another solve; give each its own"
                        .to_string(),
                )
            })
    }

    fn give_back(&self, t: core::KeptTable) {
        *self.table.lock().unwrap_or_else(|e| e.into_inner()) = Some(t);
    }

    fn with<T>(&self, f: impl FnOnce(&mut core::KeptTable) -> T) -> PyResult<T> {
        let mut guard = self.table.lock().unwrap_or_else(|e| e.into_inner());
        let t = guard.as_mut().ok_or_else(|| {
            bad("SolveTable: in use by a solve; ask again when it returns".to_string())
        })?;
        Ok(f(t))
    }
}

#[pymethods]
impl PySolveTable {
    #[new]
    #[pyo3(signature = (game, table_mb = None))]
    fn new(game: &Bound<'_, PyAny>, table_mb: Option<Bound<'_, PyAny>>) -> PyResult<Self> {
        let game = game.cast::<PyGame>().map_err(|_| {
            bad(format!(
                "SolveTable: game must be a Game (stonefield.make(...)), not {}",
                describe(game)
            ))
        })?;
        let game = game.get().game.clone();
        let bytes = match opt(&table_mb) {
            Some(v) => mb_arg("SolveTable", "table_mb", v, 1 << 20)?,
            None => core::default_table_bytes(),
        };
        let table = core::KeptTable::new(bytes).map_err(to_py)?;
        Ok(PySolveTable {
            table: std::sync::Mutex::new(Some(table)),
            game: table_game(&game),
        })
    }

    #[getter]
    fn game(&self) -> String {
        self.game.clone()
    }

    #[getter]
    fn entries(&self) -> PyResult<usize> {
        self.with(|t| t.entries())
    }

    #[getter]
    fn table_bytes(&self) -> PyResult<usize> {
        self.with(|t| t.bytes())
    }

    #[getter]
    fn capacity_bytes(&self) -> PyResult<usize> {
        self.with(|t| t.capacity_bytes())
    }

    fn __repr__(&self) -> PyResult<String> {
        let (entries, bytes, cap) = self.with(|t| (t.entries(), t.bytes(), t.capacity_bytes()))?;
        Ok(format!(
            "SolveTable({}: {entries} entries, {} of {} MiB)",
            self.game,
            bytes >> 20,
            cap >> 20
        ))
    }
}

/// What a solve's checkpoint is a run of: the format, the solver's version, the game, its
/// rules version, the position keys' version (`KEY_VERSION`: saved entries are keyed by them)
/// and its options, the position (its key and move count) and what is solved. A checkpoint is
/// resumed only when all of them are the same.
fn checkpoint_identity(root: &crate::games::State) -> Vec<(String, String)> {
    let game = root.game();
    let options: Vec<String> = game
        .options()
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    vec![
        (
            "format".into(),
            format!(
                "stonefield-solve-checkpoint {}",
                core::checkpoint::FORMAT_VERSION
            ),
        ),
        (
            "solver".into(),
            format!("stonefield {}", env!("CARGO_PKG_VERSION")),
        ),
        ("game".into(), root.game_name().to_string()),
        ("rules_version".into(), game.rules_version().to_string()),
        (
            "key_version".into(),
            crate::games::zobrist::KEY_VERSION.to_string(),
        ),
        ("options".into(), options.join(", ")),
        (
            "position".into(),
            format!("key {:016x} after {} moves", root.key(), root.move_count()),
        ),
        ("mode".into(), "outcomes (alpha-beta)".into()),
    ]
}

/// The whole state graph of a game (see `stonefield.state_graph`).
///
/// Attributes:
///     positions: distinct positions reachable from the start (each told apart by its full
///         contents: board and turn state).
///     edges: (position, action) pairs.
///     longest: the longest game in actions, when the graph is complete and has no cycle.
///     cycle: None, or actions from the start that return to a position already on the line.
///     values: two players, complete and no cycle: the start's perfect-play value for player 0
///         (+1 / 0 / −1); else None.
///     complete: whether every position was enumerated.
///     stopped_by: "complete", "max_positions", "memory" or "interrupted".
///     seconds, table_bytes: time taken and the position table's size (8 bytes a slot).
///
/// >>> import pickle, stonefield as sf
/// >>> g = sf.state_graph(sf.make("smallholder", board="hex232323"))
/// >>> g.complete, g.cycle is None, g.values
/// (True, True, 1)
/// >>> pickle.loads(pickle.dumps(g)).positions == g.positions
/// True
#[pyclass(
    name = "StateGraph",
    module = "stonefield",
    frozen,
    skip_from_py_object
)]
#[derive(Clone)]
pub struct PyStateGraph {
    #[pyo3(get)]
    positions: u64,
    #[pyo3(get)]
    edges: u64,
    #[pyo3(get)]
    longest: Option<u64>,
    #[pyo3(get)]
    cycle: Option<Vec<u32>>,
    #[pyo3(get)]
    values: Option<i8>,
    #[pyo3(get)]
    stopped_by: String,
    #[pyo3(get)]
    seconds: f64,
    #[pyo3(get)]
    table_bytes: usize,
}

#[pymethods]
impl PyStateGraph {
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(
        positions: u64,
        edges: u64,
        longest: Option<u64>,
        cycle: Option<Vec<u32>>,
        values: Option<i8>,
        stopped_by: String,
        seconds: f64,
        table_bytes: usize,
    ) -> Self {
        PyStateGraph {
            positions,
            edges,
            longest,
            cycle,
            values,
            stopped_by,
            seconds,
            table_bytes,
        }
    }

    #[getter]
    fn complete(&self) -> bool {
        self.stopped_by == GraphStop::Complete.name()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let s = slf.get();
        let args = (
            s.positions,
            s.edges,
            s.longest,
            s.cycle.clone(),
            s.values,
            s.stopped_by.clone(),
            s.seconds,
            s.table_bytes,
        );
        (py.get_type::<PyStateGraph>(), args).into_pyobject(py)
    }

    fn __repr__(&self) -> String {
        format!(
            "StateGraph(positions={}, edges={}, longest={}, cycle={}, values={}, stopped_by={:?})",
            self.positions,
            self.edges,
            self.longest.map_or("None".to_string(), |l| l.to_string()),
            self.cycle
                .as_ref()
                .map_or("None".to_string(), |c| format!("{} actions", c.len())),
            self.values.map_or("None".to_string(), |v| v.to_string()),
            self.stopped_by
        )
    }
}

/// Enumerates every position reachable from the start of `game`, for any number of players,
/// the GIL released; Ctrl-C stops it and raises SolveInterrupted (a KeyboardInterrupt) whose
/// `result` is the partial StateGraph (stopped_by "interrupted").
///
/// The move cap plays no part (positions carry no move count): the graph is the game's own, so a
/// cycle found is a real one, and its absence on a complete graph proves that no game on that
/// board and player count can repeat a position.
///
/// Args:
///     game: a Game.
///     max_positions: stop (with a partial result, stopped_by "max_positions") after this many
///         positions (≥ 1), or None.
///     max_mb: the most memory the position table may take, in MiB, from 1 to the memory
///         this process may still take (`available_memory()`); default half of that.
///         Reaching it stops with stopped_by "memory".
///
/// Raises:
///     SolveInterrupted: Ctrl-C (or cancel_native_calls) stopped it; its `result` is the
///         partial StateGraph.
///     InvalidOptionError: a bad setting, or a max_mb above the memory available.
///
/// >>> import stonefield as sf
/// >>> g = sf.state_graph(sf.make("windflowers", size=3), max_positions=1000)
/// >>> g.complete, g.stopped_by, g.positions
/// (False, 'max_positions', 1000)
#[pyfunction]
#[pyo3(signature = (game, max_positions = None, max_mb = None))]
pub fn state_graph(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    max_positions: Option<Bound<'_, PyAny>>,
    max_mb: Option<Bound<'_, PyAny>>,
) -> PyResult<PyStateGraph> {
    let g = game.cast::<PyGame>().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "state_graph needs a stonefield.Game, got {}",
            describe(game)
        ))
    })?;
    let g = g.get().game.clone();
    let max_positions = opt(&max_positions)
        .map(|v| setting_arg(v, "max_positions", 1, u64::MAX))
        .transpose()?;
    let max_bytes = match opt(&max_mb) {
        Some(v) => mb_arg("state_graph", "max_mb", v, 1 << 30)?,
        None => core::available_memory() / 2,
    };
    let (r, stop) = interruptible(py, |stop| {
        core::state_graph(&g, max_positions, max_bytes, Some(stop))
    });
    let r = r.map_err(to_py)?;
    let result = PyStateGraph {
        positions: r.positions,
        edges: r.edges,
        longest: r.longest,
        cycle: r.cycle,
        values: r.value,
        stopped_by: r.stopped_by.name().to_string(),
        seconds: r.seconds,
        table_bytes: r.table_bytes,
    };
    match stop {
        None => Ok(result),
        Some(why) => Err(interrupted(why, Bound::new(py, result)?.into_any())),
    }
}
