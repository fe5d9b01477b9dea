//! Batches of random playouts, spread over threads, reproducible whatever the thread count.
//!
//! Game `i` of a batch with seed `s` always draws from [`Rng::stream`]`(s, i)`, so a batch can be
//! cut into pieces, run on any number of threads, or resumed from any index, and give the same
//! games.

use std::collections::TryReserveError;

use rayon::prelude::*;

use crate::games::{each_state, Game, Rules};
use crate::rng::Rng;
use crate::sim::playout::random_playout;

/// Output buffers for a batch of `n` games of `p` players, filled in place. Row-major: the entry
/// of game `i`, player `j` is at `i * p + j`.
pub struct BatchOut<'a> {
    /// Utilities in [−1, 1] (`n × p`).
    pub returns: &'a mut [f64],
    /// Ranks, 1 = best, ties averaged (`n × p`).
    pub ranks: &'a mut [f64],
    /// Final scores (`n × p`); NaN for games without scores.
    pub scores: &'a mut [f64],
    /// Number of actions of each game (`n`).
    pub lengths: &'a mut [u32],
    /// Whether the move cap ended each game (`n`).
    pub truncated: &'a mut [bool],
}

/// Games handled per rayon task: small enough to balance two threads, large enough that
/// scheduling costs nothing next to the playouts.
const CHUNK: usize = 64;

/// Plays the games `first .. first + n` of the batch with `seed`, writing their outcomes into
/// `out` (sized for `n` games). Uses the current rayon pool when `parallel` is true.
pub fn fill(game: &Game, seed: u64, first: u64, out: BatchOut<'_>, parallel: bool) {
    let state = game.new_state();
    each_state!(state, s => fill_typed(&s, seed, first, out, parallel))
}

fn fill_typed<R: Rules>(start: &R, seed: u64, first: u64, out: BatchOut<'_>, parallel: bool) {
    let p = start.num_players();
    let chunks = out.into_chunks(CHUNK, p);
    let work = |(k, chunk): (usize, BatchOut<'_>)| {
        let mut buf = Vec::new();
        for g in 0..chunk.lengths.len() {
            let mut rng = Rng::stream(seed, first + (k * CHUNK + g) as u64);
            let mut state = start.clone();
            chunk.lengths[g] = random_playout(&mut state, &mut rng, &mut buf) as u32;
            chunk.truncated[g] = state.truncated();
            let row = g * p..(g + 1) * p;
            // Ranks once; returns follow from them (zero when truncated).
            let ranks = &mut chunk.ranks[row.clone()];
            let returns = &mut chunk.returns[row.clone()];
            if !state.returns_into(ranks, returns) {
                ranks.fill(f64::NAN);
                returns.fill(f64::NAN);
            }
            let scores = &mut chunk.scores[row];
            if !state.scores_into(scores) {
                scores.fill(f64::NAN);
            }
        }
    };
    if parallel {
        chunks.into_par_iter().enumerate().for_each(work);
    } else {
        chunks.into_iter().enumerate().for_each(work);
    }
}

impl<'a> BatchOut<'a> {
    /// Cuts the buffers into pieces of `games` games each (the last may be shorter).
    fn into_chunks(self, games: usize, p: usize) -> Vec<BatchOut<'a>> {
        let mut out = Vec::new();
        let mut rest = self;
        while !rest.lengths.is_empty() {
            let g = games.min(rest.lengths.len());
            let (returns, r_returns) = rest.returns.split_at_mut(g * p);
            let (ranks, r_ranks) = rest.ranks.split_at_mut(g * p);
            let (scores, r_scores) = rest.scores.split_at_mut(g * p);
            let (lengths, r_lengths) = rest.lengths.split_at_mut(g);
            let (truncated, r_truncated) = rest.truncated.split_at_mut(g);
            out.push(BatchOut {
                returns,
                ranks,
                scores,
                lengths,
                truncated,
            });
            rest = BatchOut {
                returns: r_returns,
                ranks: r_ranks,
                scores: r_scores,
                lengths: r_lengths,
                truncated: r_truncated,
            };
        }
        out
    }
}

/// A whole batch's results, owned.
#[derive(Clone, Debug, PartialEq)]
pub struct Batch {
    pub num_games: usize,
    pub num_players: usize,
    pub returns: Vec<f64>,
    pub ranks: Vec<f64>,
    pub scores: Vec<f64>,
    pub lengths: Vec<u32>,
    pub truncated: Vec<bool>,
}

impl Batch {
    /// Buffers for `n` games.
    pub fn new(game: &Game, n: usize) -> Batch {
        match Batch::try_new(game, n) {
            Ok(batch) => batch,
            Err(e) => panic!("result buffers for {n} games: {e}"),
        }
    }

    /// Buffers for `n` games, or an error (not an abort) when they cannot be allocated.
    pub fn try_new(game: &Game, n: usize) -> Result<Batch, TryReserveError> {
        let p = game.num_players();
        Ok(Batch {
            num_games: n,
            num_players: p,
            returns: zeroed(n * p, 0.0)?,
            ranks: zeroed(n * p, 0.0)?,
            scores: zeroed(n * p, 0.0)?,
            lengths: zeroed(n, 0)?,
            truncated: zeroed(n, false)?,
        })
    }

    /// Room for `n` games reserved (address space only: nothing is written yet) and none
    /// filled; [`Batch::extend_to`] then grows it block by block, so that a huge run touches
    /// its memory as it goes and can stop between blocks. An error when the room cannot be
    /// reserved.
    pub fn try_reserved(game: &Game, n: usize) -> Result<Batch, TryReserveError> {
        let p = game.num_players();
        let room = |k: usize| -> Result<Vec<f64>, TryReserveError> {
            let mut v = Vec::new();
            v.try_reserve_exact(k)?;
            Ok(v)
        };
        let mut lengths = Vec::new();
        lengths.try_reserve_exact(n)?;
        let mut truncated = Vec::new();
        truncated.try_reserve_exact(n)?;
        Ok(Batch {
            num_games: n,
            num_players: p,
            returns: room(n * p)?,
            ranks: room(n * p)?,
            scores: room(n * p)?,
            lengths,
            truncated,
        })
    }

    /// Zero-filled results for the games up to `to` (at most `num_games`) of a batch from
    /// [`Batch::try_reserved`]; nothing is allocated beyond the room reserved.
    pub fn extend_to(&mut self, to: usize) {
        let (to, p) = (to.min(self.num_games), self.num_players);
        self.returns.resize(to * p, 0.0);
        self.ranks.resize(to * p, 0.0);
        self.scores.resize(to * p, 0.0);
        self.lengths.resize(to, 0);
        self.truncated.resize(to, false);
    }

    /// Bytes of result buffers per game of `game`.
    pub fn bytes_per_game(game: &Game) -> usize {
        3 * std::mem::size_of::<f64>() * game.num_players()
            + std::mem::size_of::<u32>()
            + std::mem::size_of::<bool>()
    }

    /// Mutable views of games `from .. to`.
    pub fn slice(&mut self, from: usize, to: usize) -> BatchOut<'_> {
        let p = self.num_players;
        BatchOut {
            returns: &mut self.returns[from * p..to * p],
            ranks: &mut self.ranks[from * p..to * p],
            scores: &mut self.scores[from * p..to * p],
            lengths: &mut self.lengths[from..to],
            truncated: &mut self.truncated[from..to],
        }
    }
}

/// `n` copies of `value`, or an error when the memory cannot be had.
fn zeroed<T: Clone>(n: usize, value: T) -> Result<Vec<T>, TryReserveError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)?;
    v.resize(n, value);
    Ok(v)
}

/// Most worker threads one call may ask for (a simulation, a match, one search). Each call builds
/// its own threads, so a huge count costs seconds of thread creation for nothing (the work never
/// has more than a few hundred parallel pieces worth spreading); the cap turns a typo into a clear
/// error instead.
pub const MAX_THREADS: usize = 256;

/// A rayon pool of `threads` threads (all cores when `None`).
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, String> {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        b = b.num_threads(t);
    }
    b.build().map_err(|e| e.to_string())
}

/// Plays `n` random games with `seed` on `threads` threads (all cores when `None`).
pub fn simulate(game: &Game, n: usize, seed: u64, threads: Option<usize>) -> Batch {
    let mut batch = Batch::new(game, n);
    match threads {
        Some(1) => fill(game, seed, 0, batch.slice(0, n), false),
        _ => match thread_pool(threads) {
            Ok(pool) => pool.install(|| fill(game, seed, 0, batch.slice(0, n), true)),
            Err(_) => fill(game, seed, 0, batch.slice(0, n), false),
        },
    }
    batch
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_games_whatever_the_threads_and_pieces() {
        let game = Game::make("windflowers", &[]).expect("default game");
        let one = simulate(&game, 300, 42, Some(1));
        let two = simulate(&game, 300, 42, Some(2));
        assert_eq!(one, two);
        // In two pieces, the second resuming at index 100.
        let mut pieces = Batch::new(&game, 300);
        fill(&game, 42, 0, pieces.slice(0, 100), false);
        fill(&game, 42, 100, pieces.slice(100, 300), true);
        assert_eq!(pieces, one);
        assert_ne!(simulate(&game, 300, 43, Some(2)).lengths, one.lengths);
        assert!(one.lengths.iter().all(|&l| l > 0));
    }

    /// The batch writes outcomes in place; they must be what the allocating accessors report.
    #[test]
    fn rows_are_the_outcomes_of_single_games() {
        use crate::games::{OptionValue, GAME_NAMES};
        use crate::sim::play_random_game;
        let o = |k: &str, v: i64| (k.to_string(), OptionValue::Int(v));
        let mut games: Vec<Game> = GAME_NAMES
            .iter()
            .map(|name| Game::make(name, &[]).expect("default game"))
            .collect();
        for options in [
            vec![o("players", 3)],
            vec![o("players", 4), o("max_moves", 30)],
        ] {
            games.push(Game::make("windflowers", &options).expect("valid"));
        }
        for game in games {
            let batch = simulate(&game, 40, 7, Some(1));
            let p = batch.num_players;
            let start = game.new_state();
            for i in 0..40 {
                let mut rng = Rng::stream(7, i as u64);
                let one = play_random_game(&start, &mut rng, &mut Vec::new());
                let row = i * p..(i + 1) * p;
                assert_eq!(batch.lengths[i] as usize, one.length);
                assert_eq!(batch.truncated[i], one.truncated);
                assert_eq!(batch.ranks[row.clone()], one.ranks[..]);
                assert_eq!(batch.returns[row.clone()], one.returns[..]);
                match one.scores {
                    Some(s) => assert_eq!(batch.scores[row], s[..]),
                    None => assert!(batch.scores[row].iter().all(|x| x.is_nan())),
                }
            }
        }
    }
}
