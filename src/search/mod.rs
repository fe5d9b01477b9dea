//! Search: UCT Monte Carlo tree search with MCTS-Solver, a native match runner and self-play.
//!
//! * [`mcts`]: the tree, its settings ([`MctsConfig`]) and what a search reports
//!   ([`SearchResult`]); [`Mcts`] is an agent that can keep its tree between moves.
//! * [`play`]: whole games between agents ([`Agent`]) over threads, and self-play data.
//! * [`puct`]: AlphaZero's PUCT search on the same tree, guided by an evaluator's priors and
//!   values in batches ([`PuctConfig`], [`puct::BatchEvaluator`]), and self-play that batches
//!   the leaves of many games; a time budget and root parallelisation over threads.
//! * [`network`]: the graph network of `stonefield train` played natively, an evaluator for
//!   PUCT that needs no Python ([`network::GraphNet`]).
//!
//! Everything here works through the [`crate::games::Rules`] trait. Entry points take the
//! run-time [`crate::games::State`] enum and dispatch once with
//! [`crate::games::each_state`], so the loops underneath are compiled once per game.

pub mod mcts;
pub mod network;
pub mod play;
pub mod puct;

pub use mcts::{
    Mcts, MctsConfig, Playouts, Preset, SearchResult, Selection, StoppedBy, DEFAULT_C,
    DEFAULT_MAX_NODES,
};
pub use play::{play_games, selfplay_games, Agent, GameRecord, SelfPlayGame};
pub use puct::{puct_search, selfplay_puct, PlayoutCap, PuctConfig};

#[cfg(test)]
mod tests;
