//! UCT Monte Carlo tree search over the [`Rules`] trait, with MCTS-Solver for two players.
//!
//! One iteration walks from the root by UCB1, expands at most one new node, finishes the game
//! with the game's own uniformly random playout, and adds the whole returns vector to every node
//! on the path. Each node keeps the summed return of the player who moved *into* it, so a parent
//! compares its children from the point of view of the player who chooses among them. That is
//! right for any number of players and for turns where one player moves several times running
//! (Faraday's placements).
//!
//! The tree is an arena (`Vec<Node>`): a node's children are one contiguous block, named by the
//! index of its first child and their count, and are allocated together the second time the
//! node is reached. A node is 24 bytes ([`NODE_BYTES`]). Unvisited children always come after
//! the visited ones in their block: the next one to try is drawn at random from the unvisited
//! tail and swapped to its front, which costs one random number per new node and keeps
//! selection from scanning children that were never tried.
//!
//! GRAVE (Generalized RAVE, Cazenave 2015; [`Selection::Grave`]) keeps, beside the arena and
//! index for index, all-moves-as-first statistics of every child: over the playouts through its
//! parent, the summed return of the child's mover in those where that player placed on the
//! child's site at any later point of the iteration ([`AMAF_BYTES`] a node). A child's mean is
//! mixed with the AMAF mean of its action at the *reference*: the closest node on the path where
//! the same player chooses and which has at least `grave_ref` playouts (a node's AMAF statistics
//! are its chooser's, so only such a node can serve); the reference's statistics are read by
//! action from a row per player, loaded once per reference and kept in step by the AMAF update.
//! Without a reference the choice is UCT's, drawing the same random numbers. MAST playouts
//! ([`Playouts::Mast`]) play the better of two uniform draws by the mover's mean return so far;
//! knowledge playouts ([`Playouts::Knowledge`]) the better by the game's
//! [`Knowledge::playout_score`], by MAST when the scores tie.
//!
//! MCTS-Solver (Winands, Björnsson and Saito, 2008), two-player games only: a terminal node is
//! proven won, drawn or lost for its mover; a node is proven won for the player to move there
//! when one child is proven won for them, and proven otherwise once every child is proven (the
//! best of them). Selection never enters a child proven lost while another remains; a proven
//! draw is scored without a playout. The search stops as soon as the root is proven.
//!
//! The files, one job each: `config` the settings, `tree` the arena and the iteration,
//! `grave` the AMAF statistics, `playouts` the recorded playouts, `run` the driver over
//! threads, `result` what a search reports, `agent` the [`Mcts`] agent.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::error::{Asked, Error, GameOver, Result};
use crate::games::{each_state, Game, Knowledge, Rules, State, MAX_PLAYERS};
use crate::rng::Rng;
use crate::sim::batch::MAX_THREADS;

mod agent;
mod config;
mod grave;
mod playouts;
mod result;
mod run;
#[cfg(test)]
mod tests;
mod tree;

pub use agent::*;
pub use config::*;
pub use grave::*;
use playouts::*;
pub use result::*;
pub use run::*;
pub(in crate::search) use tree::*;

/// The default exploration constant: √2, the UCB1 constant for returns in [−1, 1] as Ludii uses.
pub const DEFAULT_C: f64 = std::f64::consts::SQRT_2;

/// The default node limit, across all threads: 240 MB of tree at most.
pub const DEFAULT_MAX_NODES: usize = 10_000_000;

/// The fewest nodes a tree may be limited to (per thread).
pub const MIN_NODES_PER_THREAD: usize = 1024;

/// Bytes per tree node.
pub const NODE_BYTES: usize = std::mem::size_of::<Node>();

/// How many iterations run between two looks at the clock under a time budget.
const CLOCK_EVERY: u64 = 8;

/// Iterations slower than this have the clock read after each one (a read costs about 25 ns).
const SLOW_ITERATION: std::time::Duration = std::time::Duration::from_micros(50);

/// `Node::proof` of a node not (yet) proven.
pub(super) const OPEN: i8 = i8::MIN;
