//! The one error type of the core. The Python layer maps each variant to its exception class.

use std::fmt;

/// Everything that can go wrong when a user drives the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// Unknown game, option or option value. The message names what is allowed.
    InvalidOption(String),
    /// An action that is out of range or not legal in the current state.
    IllegalMove(String),
    /// An action given to a finished game.
    GameOver(String),
    /// A malformed or inconsistent serialized game or state.
    Record(String),
    /// A search's evaluator (a network, say) returned what the search cannot use, or failed.
    Evaluator(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidOption(m)
            | Error::IllegalMove(m)
            | Error::GameOver(m)
            | Error::Record(m)
            | Error::Evaluator(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Error {}

/// Result with the core error.
pub type Result<T> = std::result::Result<T, Error>;
