//! Exact analysis: the values of two-player positions under perfect play ([`alphabeta`], or
//! proof-number search in [`pns`]) and
//! whole state graphs of small boards for any number of players ([`graph`]), both keyed by the
//! games' position key ([`crate::games::Rules::key`]).
//!
//! This layer sits on the games, beside the search: it plays no random games and needs no
//! agents. Its files import in one direction only (`tests/layering.rs` holds them to it):
//!
//! ```text
//! memory --> table ----------------+---------------+
//!   |                              v               v
//!   |        common --> alphabeta --> root --> mod (the public names)
//!   |           \                  ^
//!   |            +----> pns -------+
//!   +----------------------------------------> graph (the state graph, on the games alone)
//! ```
//!
//! and `table --> checkpoint --> common` (the saved runs of [`checkpoint`]: `common` names it in
//! the options, `root` saves and resumes), and `alphabeta --> proof` (the moves of a proof,
//! chosen by one alpha-beta search whose table lasts the whole walk).

pub mod alphabeta;
pub mod checkpoint;
pub mod common;
pub mod graph;
mod memory;
pub mod pns;
pub mod proof;
pub mod root;
pub mod table;

pub use checkpoint::Checkpoint;
pub use common::{Budget, Guide, Method, Order, SolveOptions, StoppedBy, Symmetry};
pub use graph::{
    enumerate, enumerate_with, state_graph, state_graph_with, Explore, GameGraph, GraphStop,
    StateGraph, TableKind,
};
pub use proof::{proof_lines, ProofLine};
pub use root::{check_solvable, solve, solve_guided, solve_kept, KeptTable, SolveResult};

use crate::games::Game;

/// The game's move cap, for games that have one (the `max_moves` option).
pub fn max_moves(game: &Game) -> Option<usize> {
    game.options()
        .iter()
        .find_map(|(k, v)| match (k.as_str(), v) {
            ("max_moves", crate::games::OptionValue::Int(m)) => usize::try_from(*m).ok(),
            _ => None,
        })
}

/// Bytes this process may still take, by the crate's one probe ([`crate::memory`]: available
/// memory, the control group's limit, `ulimit`), or 2 GiB where nothing can be read.
pub fn available_memory() -> usize {
    crate::memory::available_memory().map_or(2 << 30, |b| usize::try_from(b).unwrap_or(usize::MAX))
}

/// The default table size: an eighth of the available memory, between 16 MiB and 1 GiB.
pub fn default_table_bytes() -> usize {
    (available_memory() / 8).clamp(16 << 20, 1 << 30)
}
