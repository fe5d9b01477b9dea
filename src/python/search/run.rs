//! Native matches and self-play over threads, in chunks that Ctrl-C can stop.

use super::*;

/// Items of a long native run: the finished ones, and what interrupted the run (Ctrl-C, or
/// [`crate::python::interrupt::cancel_native_calls`]) if anything did.
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
    pub(super) agents: Vec<Agent>,
    pub(super) seats: Vec<usize>,
    pub(super) seed: u64,
    pub(super) pool: Option<rayon::ThreadPool>,
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
    let mut full_search = Vec::with_capacity(positions);
    let mut search_values = Vec::with_capacity(positions);
    for (i, g) in played.into_iter().enumerate() {
        full_search.extend_from_slice(&g.full_search);
        search_values.extend_from_slice(&g.search_values);
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
    d.set_item("full_search", PyArray1::from_vec(py, full_search))?;
    d.set_item("search_values", PyArray1::from_vec(py, search_values))?;
    Ok(d)
}
