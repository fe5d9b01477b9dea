//! Simulation: random playouts and batches of them over threads.

pub mod batch;
pub mod playout;
pub mod stats;
pub mod summary;
pub mod vector;

pub use batch::{simulate, Batch};
pub use playout::{play_random_game, random_playout, PlayoutResult};
