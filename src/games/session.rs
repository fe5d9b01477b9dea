//! A game session: a state plus the history of actions, with undo.
//!
//! Undo restores the exact earlier state, every game's incremental data included, without a
//! snapshot per action: the session keeps the starting state and a checkpoint every
//! [`CHECKPOINT_EVERY`] actions, and undo replays the few actions since the last checkpoint.
//! Memory therefore grows with the history (4 bytes an action plus one state per
//! `CHECKPOINT_EVERY` actions) rather than with moves × board, and so does the time to copy a
//! session, which tree search does at every node.
//!
//! ```text
//! history    a0 a1 … a63 | a64 … a127 | a128 … a140
//! checkpoint ^ start     ^ cp 1       ^ cp 2        state = cp 2 + a128 … a140
//! ```

use super::{Game, Rules, State};
use crate::error::Result;

/// Actions between checkpoints. Undo replays fewer than this many actions; a finished Subsume
/// game on a size-30 board (about 1,500 actions, 18 KB a state) keeps about 24 checkpoints.
pub const CHECKPOINT_EVERY: usize = 64;

/// A state with its history and undo.
#[derive(Clone, Debug)]
pub struct Session {
    state: State,
    /// `checkpoints[k]` is the state after the first `k * CHECKPOINT_EVERY` actions;
    /// `checkpoints[0]` is the start.
    checkpoints: Vec<State>,
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
        self.state.apply(action)?;
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
        // The checkpoint after the undone action is no longer on the path.
        self.checkpoints.truncate(n / CHECKPOINT_EVERY + 1);
        let k = n / CHECKPOINT_EVERY;
        self.state.clone_from(&self.checkpoints[k]);
        for &a in &self.history[k * CHECKPOINT_EVERY..] {
            // These actions were legal from this very state when they were first applied.
            self.state.apply_unchecked(a as usize);
        }
        Some(last)
    }

    /// Bytes the session owns on the heap: its states (see [`Rules::heap_bytes`]) and history.
    pub fn heap_bytes(&self) -> usize {
        self.history.capacity() * std::mem::size_of::<u32>()
            + self.checkpoints.capacity() * std::mem::size_of::<State>()
            + self
                .checkpoints
                .iter()
                .map(Rules::heap_bytes)
                .sum::<usize>()
            + self.state.heap_bytes()
    }

    /// Number of states kept for undo (the start included).
    pub fn checkpoints(&self) -> usize {
        self.checkpoints.len()
    }
}
