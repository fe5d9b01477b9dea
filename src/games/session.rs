//! A game session: a state plus the history of actions, with undo.

use super::{Game, Rules, State};
use crate::error::Result;

/// A state with its history. Undo restores the exact earlier state (it keeps a snapshot per
/// action, so every game's incremental data is restored bit for bit).
#[derive(Clone, Debug)]
pub struct Session {
    state: State,
    snapshots: Vec<State>,
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
            state,
            snapshots: Vec::new(),
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
        self.snapshots.push(before);
        self.history.push(action as u32);
        Ok(())
    }

    /// Takes back the last action; returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<u32> {
        let prev = self.snapshots.pop()?;
        self.state = prev;
        self.history.pop()
    }
}
