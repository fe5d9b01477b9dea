//! stonefield: fast, exact engines for four abstract strategy games — The Smallholder,
//! Windflowers, Faraday (Dale Walton) and Subsume (Luis Bolaños Mures).
//!
//! * [`board`]: every board geometry, with precomputed neighbour tables.
//! * [`algo`]: shared algorithms (bit sets and flood fills, territory, largest groups, loops).
//! * [`games`]: the [`games::Rules`] trait, one module per game, and the [`games::Game`] and
//!   [`games::State`] enums that choose a game at run time; [`games::Measure`], what a game
//!   reports about its positions beyond its rules, with each game's overrides in
//!   `games/<game>/measure.rs`; [`games::Peek`], [`games::Knowledge`] and
//!   [`games::Footprint`], what a game tells the state graph, the searches and the solver, and
//!   memory estimates beyond its rules, with its overrides in `games/<game>/knowledge.rs`.
//! * [`rng`]: the seedable random number generator with independent streams; it sits below
//!   the games, so the rules never depend on how they are driven.
//! * [`memory`]: the one probe of the memory this process may still take (available memory,
//!   container and `ulimit` limits), which sizes every large table.
//! * [`sim`]: random playouts, single- and multi-threaded, and vectorised environments.
//! * [`search`]: UCT Monte Carlo tree search with MCTS-Solver, GRAVE and MAST, whole games
//!   between native agents over threads, and self-play data.
//! * [`lab`]: the variant lab's engine: per-game facts, their evaluations and metrics,
//!   repeated positions, column storage, the sums over games and lab runs over threads.
//! * [`solve`]: exact values of two-player positions (alpha-beta with a transposition table)
//!   and whole state graphs of small boards (cycles, longest game, retrograde values).
//!
//! Layers only look down: `board` < `algo` < `games` < `sim` < `search` < `lab` < `python`, with
//! `solve` beside `sim`, `search` and `lab` (it stands on the games, and only `python` uses it),
//! and `rng`, `memory` and `error` below them all. `tests/layering.rs` fails when a module
//! imports from a layer above it, or when two files of `solve` import each other.
//!
//! The `python` feature adds the Python extension module (`stonefield._core`); nothing else in
//! the crate depends on Python.

// No unsafe code anywhere in the crate, the Python bindings included (pyo3's and numpy's macros
// keep theirs inside their own crates).
#![forbid(unsafe_code)]

pub mod algo;
pub mod board;
pub mod error;
pub mod games;
pub mod lab;
pub mod memory;
pub mod rng;
pub mod search;
pub mod sim;
pub mod solve;

#[cfg(feature = "python")]
mod python;

pub use error::{Error, Result};
pub use games::{Footprint, Game, Knowledge, OptionValue, Peek, Rules, Session, State};
