//! stonefield: fast, exact engines for four abstract strategy games — The Smallholder,
//! Windflowers, Faraday (Dale Walton) and Subsume (Luis Bolaños Mures).
//!
//! * [`board`]: every board geometry, with precomputed neighbour tables.
//! * [`algo`]: shared algorithms (flood fill, union-find, territory, loops).
//! * [`games`]: the [`games::Rules`] trait, one module per game, and the [`games::Game`] and
//!   [`games::State`] enums that choose a game at run time.
//! * [`sim`]: random number streams and random playouts, single- and multi-threaded.
//!
//! The `python` feature adds the Python extension module (`stonefield._core`); nothing else in
//! the crate depends on Python.

pub mod algo;
pub mod board;
pub mod error;
pub mod games;
pub mod sim;

#[cfg(feature = "python")]
mod python;

pub use error::{Error, Result};
pub use games::{Game, OptionValue, Rules, Session, State};
