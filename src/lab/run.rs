//! Lab runs: the facts of many games, played (random or searched agents) or replayed, written
//! into columns over threads.

use super::*;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::search::play::{check_run, game_seed, play_game_until, random_seat, Agent};

/// Games handled per task of a parallel run (random games, or replays): enough that the
/// per-task scratch costs nothing next to the games.
pub const RANDOM_CHUNK: usize = 256;

/// [`replay_stats`] for many games: game g's actions are `actions[offsets[g]..offsets[g + 1]]`
/// (and its values the same slice of `values`). Runs on the current rayon pool when `parallel`.
/// The first failing game's error is returned, naming its index.
pub fn game_stats_batch(
    game: &Game,
    actions: &[u32],
    offsets: &[i64],
    values: Option<&[f32]>,
    parallel: bool,
) -> Result<Columns> {
    if offsets.is_empty() {
        return Err(Error::InvalidArgument(
            "offsets need at least one entry".into(),
        ));
    }
    let games = offsets.len() - 1;
    for g in 0..games {
        let (a, b) = (offsets[g], offsets[g + 1]);
        if a < 0 || b < a || b as usize > actions.len() {
            return Err(Error::InvalidArgument(format!(
                "offsets {a}..{b} of game {g} do not fit {} actions",
                actions.len()
            )));
        }
    }
    check_values(actions, values)?;
    let declared = Measure::final_columns(&game.new_state());
    let mut cols = Columns::zeroed(game.num_players(), declared, games);
    let parts = cols.rows_mut().parts(RANDOM_CHUNK);
    each_state!(game.new_state(), start => {
        let ev = Evaluator::new(&start);
        let part = |(k, mut rows): (usize, ColumnsMut<'_>)| -> Result<()> {
            let mut scratch = Scratch::default();
            let mut series = Vec::new();
            let stats = (0..rows.len())
                .map(|r| {
                    let g = k * RANDOM_CHUNK + r;
                    let span = offsets[g] as usize..offsets[g + 1] as usize;
                    let acts = &actions[span.clone()];
                    let st =
                        replay_stats(&start, acts, values.map(|v| &v[span]), &ev, &mut scratch)
                            .map_err(|e| in_game(e, g))?;
                    series.extend_from_slice(scratch.series());
                    Ok(st)
                })
                .collect::<Result<Vec<_>>>()?;
            rows.set_all(&stats);
            rows.set_series(&series);
            Ok(())
        };
        if parallel {
            parts.into_par_iter().enumerate().try_for_each(part)
        } else {
            parts.into_iter().enumerate().try_for_each(part)
        }
    })?;
    Ok(cols)
}

/// Fails unless `values`, when given, has one entry per action.
pub(crate) fn check_values(actions: &[u32], values: Option<&[f32]>) -> Result<()> {
    match values {
        Some(v) if v.len() != actions.len() => Err(Error::InvalidArgument(format!(
            "{} values for {} actions",
            v.len(),
            actions.len()
        ))),
        _ => Ok(()),
    }
}

/// The error of game `g` of a batch.
pub fn in_game(e: Error, g: usize) -> Error {
    e.in_game(g)
}

/// Plays games `first..first + count` of a run, as [`play_range`](crate::search::play::play_range) plays them, writes their
/// facts into `rows` (one per game of `seats`), and
/// returns the games it keeps: those with an index below `keep_below` and every game with a
/// repeated position.
///
/// When every agent is random the games are played and measured in one pass
/// ([`random_game_stats`]): the same games as [`play_range`](crate::search::play::play_range), without a record or a replay.
/// Otherwise each game is played, then replayed for its facts, with the search values as its
/// evaluations when every decision has one. Searching games give up soon after `stop` is set
/// (see [`play_game_until`]); random ones take microseconds and always finish.
#[allow(clippy::too_many_arguments)]
pub fn lab_range_into(
    game: &Game,
    agents: &[Agent],
    seats: &[usize],
    seed: u64,
    first: u64,
    parallel: bool,
    keep_below: u64,
    mut rows: ColumnsMut<'_>,
    stop: Option<&AtomicBool>,
) -> Result<Vec<Kept>> {
    let count = check_run(game, agents, seats)?;
    if rows.len() != count {
        return Err(Error::InvalidOption(format!(
            "{} rows for {count} games",
            rows.len()
        )));
    }
    let n = game.num_players();
    let random_seeds: Option<Vec<u64>> = agents
        .iter()
        .map(|a| match a {
            Agent::Random { seed } => Some(*seed),
            Agent::Mcts(_) => None,
        })
        .collect();
    if let Some(agent_seeds) = random_seeds {
        let kept = lab_random_into(
            game,
            &agent_seeds,
            seats,
            seed,
            first,
            parallel,
            keep_below,
            rows,
        );
        return Ok(kept);
    }
    let start = game.new_state();
    let ev = Evaluator::new(&start);
    let one = |i: usize| -> Result<(GameStats, Option<Kept>, Vec<f64>)> {
        let index = first + i as u64;
        let rec = play_game_until(game, agents, &seats[i * n..(i + 1) * n], seed, index, stop)?;
        if stop.is_some_and(|f| f.load(Ordering::Relaxed)) {
            // Unfinished: the caller that set `stop` discards this block.
            return Err(Error::Stopped { index });
        }
        let searched = rec.values.iter().all(|v| v.is_finite());
        let values = searched.then_some(&rec.values[..]);
        let mut scratch = Scratch::default();
        let st = replay_stats(&start, &rec.actions, values, &ev, &mut scratch)
            .map_err(|e| in_game(e, i))?;
        let kept = (index < keep_below || st.repeated > 0).then_some(Kept {
            index,
            actions: rec.actions,
            values: rec.values,
        });
        Ok((st, kept, scratch.series))
    };
    let games: Vec<_> = if parallel {
        (0..count).into_par_iter().map(one).collect::<Result<_>>()?
    } else {
        (0..count).map(one).collect::<Result<_>>()?
    };
    let mut stats = Vec::with_capacity(games.len());
    let mut kept = Vec::new();
    let mut series = Vec::new();
    for (st, k, s) in games {
        stats.push(st);
        kept.extend(k);
        series.extend(s);
    }
    rows.set_all(&stats);
    rows.set_series(&series);
    Ok(kept)
}

/// The random-agent part of [`lab_range_into`]: agent `a` is random with seed
/// `agent_seeds[a]`.
#[allow(clippy::too_many_arguments)]
fn lab_random_into(
    game: &Game,
    agent_seeds: &[u64],
    seats: &[usize],
    seed: u64,
    first: u64,
    parallel: bool,
    keep_below: u64,
    rows: ColumnsMut<'_>,
) -> Vec<Kept> {
    let n = game.num_players();
    let parts = rows.parts(RANDOM_CHUNK);
    each_state!(game.new_state(), start => {
        let ev = Evaluator::new(&start);
        let declared = !Measure::final_columns(&start).is_empty();
        let part = |scratch: &mut Scratch, (k, mut rows): (usize, ColumnsMut<'_>)| {
            let mut rngs = vec![Rng::new(0); n];
            let mut kept = Vec::new();
            let mut stats = Vec::with_capacity(rows.len());
            let mut series = Vec::new();
            for r in 0..rows.len() {
                let i = k * RANDOM_CHUNK + r;
                let index = first + i as u64;
                let gs = game_seed(seed, index);
                for (j, rng) in rngs.iter_mut().enumerate() {
                    *rng = random_seat(gs, agent_seeds[seats[i * n + j]], j);
                }
                let st = random_game_stats(&start, &mut rngs, &ev, scratch);
                if index < keep_below || st.repeated > 0 {
                    kept.push(Kept {
                        index,
                        actions: scratch.actions().collect(),
                        values: vec![f32::NAN; scratch.actions().len()],
                    });
                }
                if declared {
                    series.extend_from_slice(scratch.series());
                }
                stats.push(st);
            }
            rows.set_all(&stats);
            rows.set_series(&series);
            kept
        };
        // One scratch per worker thread's run of tasks, not per task.
        if parallel {
            let kept: Vec<Vec<Kept>> =
                parts.into_par_iter().enumerate().map_init(Scratch::default, part).collect();
            kept.into_iter().flatten().collect()
        } else {
            let mut scratch = Scratch::default();
            parts.into_iter().enumerate().flat_map(|p| part(&mut scratch, p)).collect()
        }
    })
}
