//! Recorded playouts: uniform, MAST's and the game's knowledge.

use super::*;

/// Plays the game out as [`Rules::random_playout`] would (uniformly, by the game's own
/// sampler, drawing the same numbers), by MAST or by the game's knowledge, recording every
/// action and its player in `s.played`. Kept out of line: inlined, it costs the plain playout
/// loop of the iteration registers (callgrind counts UCT's Faraday iteration 0.15 % dearer).
#[inline(never)]
pub(super) fn recorded_playout<R: Knowledge>(
    state: &mut R,
    rng: &mut Rng,
    s: &mut Scratch,
    playouts: Playouts,
) {
    let actions = state.num_actions();
    let (played, mast) = (&mut s.played, &s.mast);
    let (pairs, knowledge) = (playouts != Playouts::Random, playouts.uses_knowledge());
    let use_mast = playouts.uses_mast();
    state.guided_playout(rng, &mut s.buf, pairs, knowledge, |p, a, b| {
        let a = match b {
            Some(b)
                if use_mast && mast_mean(mast, p, b, actions) > mast_mean(mast, p, a, actions) =>
            {
                b
            }
            _ => a,
        };
        played.push((p as u8, a as u16));
        a
    });
}

/// MAST's mean return of `action` for `player` in `table` (0 before it was ever played).
#[inline]
pub(super) fn mast_mean(table: &[MastStat], player: usize, action: usize, actions: usize) -> f32 {
    table[player * actions + action].mean
}

/// MAST's statistics of one action for one player: the summed return, the count, and their
/// mean, worked out at each update (the same division as at each read, but once per update
/// rather than twice per playout move).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct MastStat {
    pub(super) sum: f32,
    pub(super) count: u32,
    /// `sum / count`, 0 while the count is 0.
    pub(super) mean: f32,
}

impl MastStat {
    #[inline]
    pub(super) fn add(&mut self, ret: f32) {
        self.sum += ret;
        self.count += 1;
        self.mean = self.sum / self.count as f32;
    }
}
