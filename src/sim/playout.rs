//! Random playouts.

use crate::games::Rules;
use crate::rng::Rng;

/// What one finished playout reports.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayoutResult {
    /// Number of actions played.
    pub length: usize,
    /// Whether the move cap ended the game.
    pub truncated: bool,
    /// Rank of each player (1 = best, ties share the average).
    pub ranks: Vec<f64>,
    /// Utility of each player in [−1, 1].
    pub returns: Vec<f64>,
    /// Final scores, for games that have them.
    pub scores: Option<Vec<f64>>,
}

/// Plays uniformly random legal actions from `state` to the end; `buf` is scratch space.
pub fn random_playout<R: Rules>(state: &mut R, rng: &mut Rng, buf: &mut Vec<u32>) -> usize {
    state.random_playout(rng, buf)
}

/// Plays one random game from `start` with the generator `rng` and reports its outcome.
pub fn play_random_game<R: Rules>(start: &R, rng: &mut Rng, buf: &mut Vec<u32>) -> PlayoutResult {
    let mut state = start.clone();
    let length = random_playout(&mut state, rng, buf);
    PlayoutResult {
        length,
        truncated: state.truncated(),
        ranks: state.ranks().unwrap_or_default(),
        returns: state.returns().unwrap_or_default(),
        scores: state.scores(),
    }
}
