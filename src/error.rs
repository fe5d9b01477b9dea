//! The one error type of the core. Each variant carries what went wrong as data; `Display`
//! writes the message users see, which names what is allowed. The Python layer maps each variant
//! to its exception class.

use std::fmt;

/// Everything that can go wrong when a user drives the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// Unknown game, option or option value, or a setting out of its range. The message names
    /// what is allowed.
    InvalidOption(String),
    /// An action that is out of range, not legal in the current state, or unknown by name.
    IllegalMove(IllegalMove),
    /// An action, a search or more of a replay asked of a finished game.
    GameOver(GameOver),
    /// A position given by a user (a board array, a player to move, the game's own state) that
    /// the game cannot hold.
    InvalidPosition(String),
    /// Arrays given together (actions, offsets, values, columns) that do not fit each other.
    InvalidArgument(String),
    /// A malformed or inconsistent serialized game record, or a replay that does not finish.
    Record(String),
    /// A search's evaluator (a network, say) returned what the search cannot use, or failed.
    Evaluator(String),
    /// A run given up because its stop flag was raised (Ctrl-C) before game `index` ended; the
    /// caller that raised the flag discards the unfinished games.
    Stopped {
        /// The game in flight.
        index: u64,
    },
    /// The error of one item of a batch: game `index` of a run, environment `index` of a vector.
    At {
        /// What the index counts.
        item: Item,
        /// The item's index in its batch.
        index: usize,
        /// What went wrong there.
        error: Box<Error>,
    },
}

/// What an [`Error::At`] index counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    /// A game of a run.
    Game,
    /// An environment of a vector environment.
    Environment,
}

/// Why an action cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The action is outside `0..actions`.
    OutOfRange {
        /// The game id.
        game: &'static str,
        /// The action given.
        action: i64,
        /// The size of the action space.
        actions: usize,
    },
    /// The action is in range but not legal for `player` now.
    NotLegal {
        /// The game id.
        game: &'static str,
        /// The action given.
        action: i64,
        /// The player to move.
        player: usize,
        /// The legal actions, ascending.
        legal: Vec<u32>,
    },
    /// No action has the name given.
    Unnamed {
        /// The game id.
        game: &'static str,
        /// The name given.
        text: String,
        /// Examples of the names the game's actions have.
        forms: Vec<String>,
    },
    /// A batch of actions of the wrong length.
    Count {
        /// One per environment.
        expected: usize,
        /// The number given.
        got: usize,
    },
}

/// What was asked of a finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameOver {
    /// The game id.
    pub game: &'static str,
    /// What was asked.
    pub asked: Asked,
}

/// What [`GameOver`] was asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asked {
    /// To apply this action.
    Action(i64),
    /// For an agent's move.
    Move,
    /// For a search.
    Search,
    /// For an exact solve.
    Solve,
    /// To replay `given` actions; the game ended after `played`.
    Replay {
        /// Actions played when the game ended.
        played: usize,
        /// Actions given.
        given: usize,
    },
}

impl Error {
    /// The error as the error of game `index` of a batch.
    pub fn in_game(self, index: usize) -> Error {
        Error::At {
            item: Item::Game,
            index,
            error: Box::new(self),
        }
    }

    /// The innermost error (through any [`Error::At`]), which decides the error's kind.
    pub fn root(&self) -> &Error {
        match self {
            Error::At { error, .. } => error.root(),
            e => e,
        }
    }
}

/// At most 20 actions, for error messages.
pub fn preview(actions: &[u32]) -> String {
    let head: Vec<String> = actions.iter().take(20).map(|a| a.to_string()).collect();
    if actions.len() > 20 {
        format!("[{}, … ({} in all)]", head.join(", "), actions.len())
    } else {
        format!("[{}]", head.join(", "))
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::OutOfRange {
                game,
                action,
                actions,
            } => write!(
                f,
                "{game}: action {action} is out of range; actions are 0 to {}",
                actions.saturating_sub(1)
            ),
            IllegalMove::NotLegal {
                game,
                action,
                player,
                legal,
            } => write!(
                f,
                "{game}: action {action} is not legal for player {player} now; legal actions: {}",
                preview(legal)
            ),
            IllegalMove::Unnamed { game, text, forms } => write!(
                f,
                "{game}: no action is named {text:?}; actions are named {}, …",
                forms.join(", ")
            ),
            IllegalMove::Count { expected, got } => write!(
                f,
                "expected {expected} actions (one per environment), got {got}"
            ),
        }
    }
}

impl fmt::Display for GameOver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let game = self.game;
        match self.asked {
            Asked::Action(a) => write!(f, "{game}: the game is over; no action is legal (got {a})"),
            Asked::Move => write!(f, "{game}: the game is over"),
            Asked::Search => write!(f, "{game}: the game is over; there is nothing to search"),
            Asked::Solve => write!(f, "{game}: the game is over; there is nothing to solve"),
            Asked::Replay { played, given } => write!(
                f,
                "{game}: the game ended after {played} actions but {given} were given"
            ),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidOption(m)
            | Error::InvalidPosition(m)
            | Error::InvalidArgument(m)
            | Error::Record(m)
            | Error::Evaluator(m) => f.write_str(m),
            Error::IllegalMove(e) => e.fmt(f),
            Error::GameOver(e) => e.fmt(f),
            Error::Stopped { index } => write!(f, "stopped before game {index} ended"),
            Error::At { item, index, error } => {
                let item = match item {
                    Item::Game => "game",
                    Item::Environment => "environment",
                };
                write!(f, "{item} {index}: {error}")
            }
        }
    }
}

impl std::error::Error for Error {}

impl From<IllegalMove> for Error {
    fn from(e: IllegalMove) -> Error {
        Error::IllegalMove(e)
    }
}

impl From<GameOver> for Error {
    fn from(e: GameOver) -> Error {
        Error::GameOver(e)
    }
}

/// Result with the core error.
pub type Result<T> = std::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_what_is_allowed() {
        let e = Error::from(IllegalMove::OutOfRange {
            game: "subsume",
            action: 99,
            actions: 19,
        });
        assert_eq!(
            e.to_string(),
            "subsume: action 99 is out of range; actions are 0 to 18"
        );
        let e = e.in_game(3);
        assert_eq!(
            e.to_string(),
            "game 3: subsume: action 99 is out of range; actions are 0 to 18"
        );
        assert!(matches!(
            e.root(),
            Error::IllegalMove(IllegalMove::OutOfRange { action: 99, .. })
        ));
        let over = Error::from(GameOver {
            game: "faraday",
            asked: Asked::Replay {
                played: 4,
                given: 6,
            },
        });
        assert_eq!(
            over.to_string(),
            "faraday: the game ended after 4 actions but 6 were given"
        );
    }
}
