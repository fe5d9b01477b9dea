//! Whole games between native agents, and self-play data, over threads.
//!
//! Game `i` of a run with seed `s` draws every random number from streams derived from
//! `(s, i)`: the agents' seeds and the self-play temperature draws. So a run gives the same
//! games whatever the thread count and however it is cut into chunks.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::mcts::{Mcts, MctsConfig};
use crate::error::{Asked, Error, GameOver, Result};
use crate::games::{Game, Rules, State};
use crate::rng::Rng;

/// A native agent.
#[derive(Clone, Debug, PartialEq)]
pub enum Agent {
    /// Uniformly random legal actions, from its own seed.
    Random {
        /// The agent's seed, mixed with the game's.
        seed: u64,
    },
    /// UCT search with these settings.
    Mcts(MctsConfig),
}

/// One finished game of [`play_games`].
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The actions, in order.
    pub actions: Vec<u32>,
    /// The player who took each action.
    pub movers: Vec<i8>,
    /// The mover's root value at each decision (NaN for agents that do not search).
    pub values: Vec<f32>,
    /// Final returns by seat.
    pub returns: Vec<f64>,
    /// Final ranks by seat.
    pub ranks: Vec<f64>,
    /// Final scores by seat, for games with scores.
    pub scores: Option<Vec<f64>>,
    /// Whether the move cap ended the game.
    pub truncated: bool,
}

/// A per-game seed from the run's seed and the game index.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    Rng::stream(seed, index).next_u64()
}

/// The generator of a random agent with `agent_seed` in seat `seat` of a game with `game_seed`.
pub fn random_seat(game_seed: u64, agent_seed: u64, seat: usize) -> Rng {
    Rng::stream(game_seed ^ agent_seed, seat as u64)
}

/// The seed of a search with seed `agent_seed` in seat `seat` of a game with `game_seed`.
fn mcts_seed(game_seed: u64, agent_seed: u64, seat: usize) -> u64 {
    Rng::stream(game_seed ^ agent_seed, 1000 + seat as u64).next_u64()
}

/// The seed an agent with seed `agent_seed` plays with in seat `seat` of game `index` of a run
/// with seed `seed`: the one derivation of "game i, seat j" of every run, native or driven from
/// Python. An MCTS agent given this seed plays the moves it plays in a native run.
pub fn seat_seed(seed: u64, index: u64, seat: usize, agent_seed: u64) -> u64 {
    mcts_seed(game_seed(seed, index), agent_seed, seat)
}

/// An agent seated in one game.
pub(super) enum Seat {
    Random(Rng),
    Mcts(Mcts),
}

impl Seat {
    pub(super) fn new(agent: &Agent, game_seed: u64, seat: usize) -> Result<Seat> {
        Ok(match agent {
            Agent::Random { seed } => Seat::Random(random_seat(game_seed, *seed, seat)),
            Agent::Mcts(cfg) => {
                let mut cfg = cfg.clone();
                cfg.seed = mcts_seed(game_seed, cfg.seed, seat);
                Seat::Mcts(Mcts::new(cfg)?)
            }
        })
    }

    /// The action and, for a search, its root value.
    pub(super) fn act(
        &mut self,
        state: &State,
        history: &[u32],
        buf: &mut Vec<u32>,
        stop: Option<&AtomicBool>,
    ) -> Result<(u32, f32)> {
        match self {
            Seat::Random(rng) => {
                let a = state.random_action(rng, buf).ok_or_else(|| GameOver {
                    game: state.game_name(),
                    asked: Asked::Move,
                })?;
                Ok((a as u32, f32::NAN))
            }
            Seat::Mcts(m) => {
                let r = m.decide(state, history, stop)?;
                Ok((r.best, r.value as f32))
            }
        }
    }
}

/// Checks a run's agents and seating: `seats` holds `games × num_players` agent indices.
pub fn check_run(game: &Game, agents: &[Agent], seats: &[usize]) -> Result<usize> {
    let n = game.num_players();
    if agents.is_empty() {
        return Err(Error::InvalidOption(
            "a match needs at least one agent".into(),
        ));
    }
    for a in agents {
        if let Agent::Mcts(cfg) = a {
            cfg.validate()?;
        }
    }
    if seats.len() % n != 0 {
        return Err(Error::InvalidOption(format!(
            "seats must have {n} entries (one per player) for each game, got {} in all",
            seats.len()
        )));
    }
    if let Some(bad) = seats.iter().find(|&&a| a >= agents.len()) {
        return Err(Error::InvalidOption(format!(
            "seat names agent {bad}; agents are 0..{}",
            agents.len()
        )));
    }
    Ok(seats.len() / n)
}

/// Plays game `index` of a run: `seating[j]` is the agent in seat (player) `j`.
pub fn play_game(
    game: &Game,
    agents: &[Agent],
    seating: &[usize],
    seed: u64,
    index: u64,
) -> Result<GameRecord> {
    play_game_until(game, agents, seating, seed, index, None)
}

/// [`play_game`] that gives up once `stop` is set: its searches end within an iteration and
/// the game within a move, its record then unfinished (a caller that sets `stop` discards
/// the games in flight).
pub fn play_game_until(
    game: &Game,
    agents: &[Agent],
    seating: &[usize],
    seed: u64,
    index: u64,
    stop: Option<&AtomicBool>,
) -> Result<GameRecord> {
    let gs = game_seed(seed, index);
    let mut seats: Vec<Seat> = seating
        .iter()
        .enumerate()
        .map(|(j, &a)| Seat::new(&agents[a], gs, j))
        .collect::<Result<_>>()?;
    let mut state = game.new_state();
    let mut rec = GameRecord {
        actions: Vec::new(),
        movers: Vec::new(),
        values: Vec::new(),
        returns: Vec::new(),
        ranks: Vec::new(),
        scores: None,
        truncated: false,
    };
    let mut buf = Vec::new();
    while let Some(p) = state.current_player() {
        if stop.is_some_and(|f| f.load(Ordering::Relaxed)) {
            break;
        }
        let (a, v) = seats[p].act(&state, &rec.actions, &mut buf, stop)?;
        state.apply_unchecked(a as usize);
        rec.actions.push(a);
        rec.movers.push(p as i8);
        rec.values.push(v);
    }
    rec.truncated = state.truncated();
    rec.ranks = state.ranks().unwrap_or_default();
    rec.returns = state.returns().unwrap_or_default();
    rec.scores = state.scores();
    Ok(rec)
}

/// Plays games `first..first + count` of a run (their seatings are `seats`, `count ×
/// num_players`), in parallel on the current rayon pool when `parallel`.
pub fn play_range(
    game: &Game,
    agents: &[Agent],
    seats: &[usize],
    seed: u64,
    first: u64,
    parallel: bool,
) -> Result<Vec<GameRecord>> {
    play_range_map(game, agents, seats, seed, first, parallel, Ok, None)
}

/// [`play_range`] with `each` applied to every game's record on the thread that played it,
/// giving up soon after `stop` is set (see [`play_game_until`]).
#[allow(clippy::too_many_arguments)]
pub fn play_range_map<T: Send>(
    game: &Game,
    agents: &[Agent],
    seats: &[usize],
    seed: u64,
    first: u64,
    parallel: bool,
    each: impl Fn(GameRecord) -> Result<T> + Sync,
    stop: Option<&AtomicBool>,
) -> Result<Vec<T>> {
    let count = check_run(game, agents, seats)?;
    let n = game.num_players();
    let one = |i: usize| {
        each(play_game_until(
            game,
            agents,
            &seats[i * n..(i + 1) * n],
            seed,
            first + i as u64,
            stop,
        )?)
    };
    if parallel {
        (0..count).into_par_iter().map(one).collect()
    } else {
        (0..count).map(one).collect()
    }
}

/// Plays every game of a run, `chunk` games at a time, calling `interrupted` between chunks;
/// when it returns true the run stops and the games finished so far are returned.
pub fn play_games(
    game: &Game,
    agents: &[Agent],
    seats: &[usize],
    seed: u64,
    parallel: bool,
    chunk: usize,
    interrupted: &mut dyn FnMut(usize) -> bool,
) -> Result<Vec<GameRecord>> {
    let count = check_run(game, agents, seats)?;
    let n = game.num_players();
    let chunk = chunk.max(1);
    let mut out = Vec::with_capacity(count);
    let mut done = 0;
    while done < count {
        let end = (done + chunk).min(count);
        out.extend(play_range(
            game,
            agents,
            &seats[done * n..end * n],
            seed,
            done as u64,
            parallel,
        )?);
        done = end;
        if done < count && interrupted(done) {
            break;
        }
    }
    Ok(out)
}

/// One self-play game: per position the observation, the legal actions, the root visit
/// fractions, the player to move; and the game's actions and final returns.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SelfPlayGame {
    /// Observations, `positions × planes × sites`.
    pub observations: Vec<f32>,
    /// Legal-action masks, `positions × num_actions`.
    pub legal_masks: Vec<bool>,
    /// Visit fractions, `positions × num_actions`.
    pub policies: Vec<f32>,
    /// The player to move at each position.
    pub players: Vec<i8>,
    /// The actions played.
    pub actions: Vec<u32>,
    /// Final returns by player.
    pub returns: Vec<f64>,
    /// Whether each position's search was a full one (its policy a training target): false
    /// for the fast searches of playout-cap randomisation ([`super::puct::PlayoutCap`]).
    pub full_search: Vec<bool>,
    /// The root value of each position's search, for the player to move, in [−1, 1].
    pub search_values: Vec<f32>,
}

/// Plays self-play game `index` of a run with `seed`: the first `temperature_moves` moves are
/// drawn in proportion to root visits, the rest are the agent's choice. Once `stop` is set the
/// game ends within a move, unfinished (the caller discards it).
pub fn selfplay_game(
    game: &Game,
    cfg: &MctsConfig,
    seed: u64,
    index: u64,
    temperature_moves: usize,
    stop: Option<&AtomicBool>,
) -> Result<SelfPlayGame> {
    let gs = game_seed(seed, index);
    let mut agent_cfg = cfg.clone();
    agent_cfg.seed = Rng::stream(gs ^ cfg.seed, 1000).next_u64();
    let mut agent = Mcts::new(agent_cfg)?;
    let mut rng = Rng::stream(gs, 1);
    let mut state = game.new_state();
    let size = state.observation_planes() * state.board().num_sites();
    let na = state.num_actions();
    let mut g = SelfPlayGame::default();
    while let Some(p) = state.current_player() {
        if stop.is_some_and(|f| f.load(Ordering::Relaxed)) {
            break;
        }
        let r = agent.search_until(&state, &g.actions, stop)?;
        let o = g.observations.len();
        g.observations.resize(o + size, 0.0);
        state.write_observation(&mut g.observations[o..]);
        let l = g.legal_masks.len();
        g.legal_masks.resize(l + na, false);
        state.write_legal_mask(&mut g.legal_masks[l..]);
        let q = g.policies.len();
        g.policies.resize(q + na, 0.0);
        r.policy_into(&mut g.policies[q..]);
        g.players.push(p as i8);
        g.full_search.push(true);
        g.search_values.push(r.value.clamp(-1.0, 1.0) as f32);
        let a = if g.actions.len() < temperature_moves {
            sample_by_visits(&r.actions, &r.visits, &mut rng).unwrap_or(r.best)
        } else {
            r.best
        };
        state.apply_unchecked(a as usize);
        g.actions.push(a);
    }
    g.returns = state.returns().unwrap_or_default();
    Ok(g)
}

/// An action drawn with probability proportional to its visits (`None` if nothing was visited).
pub(super) fn sample_by_visits(actions: &[u32], visits: &[u64], rng: &mut Rng) -> Option<u32> {
    let total: u64 = visits.iter().sum();
    if total == 0 {
        return None;
    }
    let mut x = (rng.unit() * total as f64) as u64;
    for (&a, &v) in actions.iter().zip(visits) {
        if x < v {
            return Some(a);
        }
        x -= v;
    }
    actions.last().copied()
}

/// Self-play games `first..first + count` of a run, in parallel on the current rayon pool when
/// `parallel`, giving up soon after `stop` is set.
#[allow(clippy::too_many_arguments)]
pub fn selfplay_games(
    game: &Game,
    cfg: &MctsConfig,
    seed: u64,
    first: u64,
    count: usize,
    temperature_moves: usize,
    parallel: bool,
    stop: Option<&AtomicBool>,
) -> Result<Vec<SelfPlayGame>> {
    cfg.validate()?;
    let one = |i: usize| selfplay_game(game, cfg, seed, first + i as u64, temperature_moves, stop);
    if parallel {
        (0..count).into_par_iter().map(one).collect()
    } else {
        (0..count).map(one).collect()
    }
}
