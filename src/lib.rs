//! stonefield: fast, exact engines for four abstract strategy games — The Smallholder,
//! Windflowers, Faraday (Dale Walton) and Subsume (Luis Bolaños Mures).
//!
//! * [`board`]: every board geometry, with precomputed neighbour tables.
//! * [`algo`]: shared algorithms (flood fill, union-find, territory, loops).
//! * [`games`]: the [`games::Rules`] trait, one module per game, and the [`games::Game`] and
//!   [`games::State`] enums that choose a game at run time.
//! * [`rng`]: the seedable random number generator with independent streams; it sits below
//!   the games, so the rules never depend on how they are driven.
//! * [`sim`]: random playouts, single- and multi-threaded, and vectorised environments.
//! * [`search`]: UCT Monte Carlo tree search with MCTS-Solver, whole games between native
//!   agents over threads, and self-play data.
//!
//! Layers only look down: `board` < `algo` < `games` < `sim` < `search` < `python`, with `rng` and
//! `error` below them all. `tests/layering.rs` fails when a module imports from a layer above it.
//!
//! The `python` feature adds the Python extension module (`stonefield._core`); nothing else in
//! the crate depends on Python.

pub mod algo;
pub mod board;
pub mod error;
pub mod games;
pub mod rng;
pub mod search;
pub mod sim;

#[cfg(feature = "python")]
mod python;

pub use error::{Error, Result};
pub use games::{Game, OptionValue, Rules, Session, State};
