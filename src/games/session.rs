//! A game session: a state plus the history of actions, with undo.
//!
//! Undo restores the exact earlier state, every game's incremental data included, without a
//! snapshot per action: the session keeps the starting state, a checkpoint every
//! [`CHECKPOINT_EVERY`] actions and the states before the last [`RECENT`] actions. Undoing one
//! of the last few actions takes its state back; beyond them, undo replays the actions since
//! the last checkpoint and keeps the last few states it passes, so that a run of undos replays
//! once every `RECENT` steps. Memory therefore grows with the history (4 bytes an action plus
//! one state per `CHECKPOINT_EVERY` actions) rather than with moves × board, and so does the
//! time to copy a session, which tree search does at every node.
//!
//! ```text
//! history    a0 a1 … a127 | a128 … a255 | a256 … a270
//! checkpoint ^ start      ^ cp 1        ^ cp 2          recent: states before a263 … a270
//! ```

use std::collections::VecDeque;

use super::{Footprint, Game, Rules, State};
use crate::error::Result;

/// Actions between checkpoints. A finished random Subsume game on a size-30 board (about 1,500
/// actions, 18 KB a state) keeps 12 of them.
pub const CHECKPOINT_EVERY: usize = 128;

/// States kept before the latest actions, so that undo right after apply (the pattern of
/// search) replays nothing.
pub const RECENT: usize = 8;

/// A state with its history and undo.
#[derive(Clone, Debug)]
pub struct Session {
    state: State,
    /// `checkpoints[k]` is the state after the first `k * CHECKPOINT_EVERY` actions;
    /// `checkpoints[0]` is the start.
    checkpoints: Vec<State>,
    /// The states before the last `recent.len()` actions, oldest first.
    recent: VecDeque<State>,
    history: Vec<u32>,
}

impl Session {
    /// A new game from the starting position.
    pub fn new(game: &Game) -> Session {
        Session::from_state(game.new_state())
    }

    /// A session starting from an arbitrary state, with empty history.
    pub fn from_state(state: State) -> Session {
        Session {
            checkpoints: vec![state.clone()],
            recent: VecDeque::new(),
            state,
            history: Vec::new(),
        }
    }

    /// The current state.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The actions applied so far.
    pub fn history(&self) -> &[u32] {
        &self.history
    }

    /// Checks and applies an action; on error nothing changes.
    pub fn apply(&mut self, action: i64) -> Result<()> {
        let before = self.state.clone();
        self.state.apply(action)?;
        if self.recent.len() == RECENT {
            self.recent.pop_front();
        }
        self.recent.push_back(before);
        self.history.push(action as u32);
        if self.history.len() % CHECKPOINT_EVERY == 0 {
            self.checkpoints.push(self.state.clone());
        }
        Ok(())
    }

    /// Takes back the last action; returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<u32> {
        let last = self.history.pop()?;
        let n = self.history.len();
        // A checkpoint after the undone action is no longer on the path.
        self.checkpoints.truncate(n / CHECKPOINT_EVERY + 1);
        if let Some(before) = self.recent.pop_back() {
            self.state = before;
            return Some(last);
        }
        let from = n / CHECKPOINT_EVERY * CHECKPOINT_EVERY;
        let keep_from = n.saturating_sub(RECENT).max(from);
        self.state
            .clone_from(&self.checkpoints[from / CHECKPOINT_EVERY]);
        for (pos, &a) in (from..).zip(&self.history[from..]) {
            if pos >= keep_from {
                self.recent.push_back(self.state.clone());
            }
            // These actions were legal from this very state when they were first applied.
            self.state.apply_unchecked(a as usize);
        }
        Some(last)
    }

    /// Bytes the session owns on the heap: its states (see [`Footprint::heap_bytes`]) and history.
    pub fn heap_bytes(&self) -> usize {
        let states =
            |v: &mut dyn Iterator<Item = &State>| v.map(Footprint::heap_bytes).sum::<usize>();
        self.history.capacity() * std::mem::size_of::<u32>()
            + (self.checkpoints.capacity() + self.recent.capacity()) * std::mem::size_of::<State>()
            + states(&mut self.checkpoints.iter())
            + states(&mut self.recent.iter())
            + self.state.heap_bytes()
    }

    /// Number of states kept for undo besides the current one (the start included).
    pub fn kept_states(&self) -> usize {
        self.checkpoints.len() + self.recent.len()
    }
}
