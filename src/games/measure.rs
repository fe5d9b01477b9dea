//! Measured play: what a game reports about its positions beyond its rules, for tools that
//! measure how games play out (branching, heuristic swings, repeated positions).
//!
//! [`Measure`] extends [`Rules`]; every method has an exact default built on the rules, and a
//! game overrides one only where its own state answers more cheaply. Each game's overrides live
//! in `<game>/measure.rs`, beside its rules file and apart from it, so the rules file reads like
//! the rules. Editing a measured playout changes measurements, never play: it must make exactly
//! the draws of [`Rules::random_action`], and a test holds its facts equal to a replay of the
//! same game.
//!
//! What a new game should override for speed: [`Measure::legal_count`] and
//! [`Measure::random_action_counted`] when listing the legal actions is the costly part of a
//! move; [`Measure::sites_stay_occupied`] when stones are never removed; a
//! [`Measure::random_game_observed`] that keeps its facts incrementally when recomputing them
//! per position is slow; [`Measure::facts_snapshot`] and [`Measure::snapshot_facts`] when it
//! declares columns, so that a measuring tool can take their facts at earlier positions from
//! snapshots rather than by replaying the game.

use super::{each_state, Rules, MAX_PLAYERS};
use crate::algo::FloodScratch;
use crate::rng::Rng;

/// Most columns a game declares ([`Measure::final_columns`]).
pub const MAX_DECLARED: usize = 8;

/// A per-game column a game declares: a fact of a finished game's last position, by which a
/// variant of the game can be judged (its name, snake case, what it holds, and the range its
/// values lie in, which keeps the intervals of their mean within it). A measuring tool may
/// also take the same fact at earlier positions of a game, as a series named `<name>_series`,
/// so a name must not end in `_series` itself.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FinalColumn {
    pub name: &'static str,
    pub description: &'static str,
    pub low: f64,
    pub high: f64,
}

/// Facts about a game's positions, gathered at every position of a measured game.
pub trait Measure: Rules {
    /// The per-game columns this game declares (at most [`MAX_DECLARED`]), which
    /// [`Measure::final_facts`] fills: none by default.
    fn final_columns(&self) -> &'static [FinalColumn] {
        &[]
    }

    /// Writes the declared facts of this position into `out` (one entry per
    /// [`Measure::final_columns`]): the last of a game, and for the series the positions that
    /// end the tenths of a game, so any position of a game must be answered.
    fn final_facts(&self, _out: &mut [f64]) {}

    /// Appends to `out` what [`Measure::final_facts`] reads of this position (as many words at
    /// every position of a game), so that a measuring tool can take the facts of earlier
    /// positions once the game is over ([`Measure::snapshot_facts`]) rather than replay the
    /// game to them. Nothing by default: such a tool then replays.
    fn facts_snapshot(&self, _out: &mut Vec<u64>) {}

    /// [`Measure::final_facts`] of the position whose [`Measure::facts_snapshot`] is
    /// `snapshot`, exactly (called on any state of the same game).
    fn snapshot_facts(&self, _snapshot: &[u64], _out: &mut [f64]) {}

    /// The number of legal actions now (0 once terminal). `buf` is scratch space.
    fn legal_count(&self, buf: &mut Vec<u32>) -> usize {
        self.legal_actions_into(buf);
        buf.len()
    }

    /// [`Rules::random_action`], making the same draws from `rng`, together with the number of
    /// legal actions it chose among.
    fn random_action_counted(&self, rng: &mut Rng, buf: &mut Vec<u32>) -> Option<(usize, usize)> {
        let action = self.random_action(rng, buf)?;
        Some((action, self.legal_count(buf)))
    }

    /// The actions that accept and that swap a pie offer, in games with a pie rule.
    fn pie_actions(&self) -> Option<(u32, u32)> {
        None
    }

    /// Whether a site, once it holds a stone, holds one for the rest of the game (stones may
    /// change owner but are never removed). Which sites were ever occupied can then be read
    /// from the last position alone.
    fn sites_stay_occupied(&self) -> bool {
        false
    }

    /// Whether every stone that stands on the board during a game was placed there by an
    /// action numbered as its site (stones may change owner or be removed, but never appear on
    /// a site no action named). The sites ever occupied are then the start's stones and the
    /// sites of the actions played, with no need to look at every position.
    fn placed_by_actions(&self) -> bool {
        false
    }

    /// A heuristic: writes into `out` (one entry per player) the numerators k_p of
    /// H(s, p) = k_p / [`Measure::heuristic_scale`]. The default counts each player's stones.
    /// `scratch` is for games whose heuristic is a flood fill.
    fn heuristic_into(&self, _scratch: &mut FloodScratch, out: &mut [u32]) {
        out.fill(0);
        for &c in self.cells() {
            if c > 0 {
                out[c as usize - 1] += 1;
            }
        }
    }

    /// The heuristic's denominator and the largest numerator [`Measure::heuristic_into`] can
    /// write: (sites, sites) by default.
    fn heuristic_scale(&self) -> (f64, u32) {
        let sites = self.board().num_sites();
        (sites.max(1) as f64, sites as u32)
    }

    /// Plays uniformly random agents against each other to the end of the game, player p
    /// drawing from `rngs[p]` exactly as [`Rules::random_action`] draws, and tells `obs` of
    /// the starting position, then of every decision and every position reached (the facts
    /// gathered during play).
    /// `buf` and `scratch` are scratch space. Games override it to choose their representation
    /// once per game rather than on every call.
    fn random_game_observed<O: Observer>(
        &mut self,
        rngs: &mut [Rng],
        buf: &mut Vec<u32>,
        scratch: &mut FloodScratch,
        obs: &mut O,
    ) {
        let n = self.num_players().min(MAX_PLAYERS);
        let mut k = [0u32; MAX_PLAYERS];
        obs.position(self.key(), None, self.cells());
        if let Some(out) = obs.snapshots() {
            self.facts_snapshot(out);
        }
        while let Some(p) = self.current_player() {
            let Some((a, count)) = self.random_action_counted(&mut rngs[p], buf) else {
                break;
            };
            self.heuristic_into(scratch, &mut k[..n]);
            obs.decision(p, count, a as u32, &k);
            self.apply_unchecked(a);
            obs.position(self.key(), None, self.cells());
            if let Some(out) = obs.snapshots() {
                self.facts_snapshot(out);
            }
        }
    }
}

/// What [`Measure::random_game_observed`] reports as a game is played.
pub trait Observer {
    /// `mover` chose `action` among `count` legal actions at a position whose heuristic
    /// numerators ([`Measure::heuristic_into`]) are `k` (one per player, then zeros).
    fn decision(&mut self, mover: usize, count: usize, action: u32, k: &[u32; MAX_PLAYERS]);
    /// A position of the game, the start first, then the one each action led to: its key
    /// ([`Rules::key`]), its board, and its
    /// level when the game has one: a number that never decreases during a game and is equal
    /// for equal positions (the stones on the board, in games that never remove any), so that
    /// only positions of one level need comparing.
    fn position(&mut self, key: u64, level: Option<u32>, cells: &[i8]);
    /// Where the [`Measure::facts_snapshot`] of each position goes, right after the position is
    /// reported, when the observer keeps them (for games that declare columns and give
    /// snapshots; a game's own loop that skips this only makes the observer replay the game).
    fn snapshots(&mut self) -> Option<&mut Vec<u64>> {
        None
    }
}

impl Measure for super::State {
    fn final_columns(&self) -> &'static [FinalColumn] {
        each_state!(self, s => s.final_columns())
    }
    fn final_facts(&self, out: &mut [f64]) {
        each_state!(self, s => s.final_facts(out))
    }
    fn facts_snapshot(&self, out: &mut Vec<u64>) {
        each_state!(self, s => s.facts_snapshot(out))
    }
    fn snapshot_facts(&self, snapshot: &[u64], out: &mut [f64]) {
        each_state!(self, s => s.snapshot_facts(snapshot, out))
    }
    fn legal_count(&self, buf: &mut Vec<u32>) -> usize {
        each_state!(self, s => s.legal_count(buf))
    }
    fn random_action_counted(&self, rng: &mut Rng, buf: &mut Vec<u32>) -> Option<(usize, usize)> {
        each_state!(self, s => s.random_action_counted(rng, buf))
    }
    fn pie_actions(&self) -> Option<(u32, u32)> {
        each_state!(self, s => s.pie_actions())
    }
    fn sites_stay_occupied(&self) -> bool {
        each_state!(self, s => s.sites_stay_occupied())
    }
    fn placed_by_actions(&self) -> bool {
        each_state!(self, s => s.placed_by_actions())
    }
    fn heuristic_into(&self, scratch: &mut FloodScratch, out: &mut [u32]) {
        each_state!(self, s => s.heuristic_into(scratch, out))
    }
    fn heuristic_scale(&self) -> (f64, u32) {
        each_state!(self, s => s.heuristic_scale())
    }
    fn random_game_observed<O: Observer>(
        &mut self,
        rngs: &mut [Rng],
        buf: &mut Vec<u32>,
        scratch: &mut FloodScratch,
        obs: &mut O,
    ) {
        each_state!(self, s => s.random_game_observed(rngs, buf, scratch, obs))
    }
}
