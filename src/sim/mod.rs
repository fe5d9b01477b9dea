//! Simulation: random playouts, batches of them over threads, and the vector environment.

pub mod batch;
pub mod playout;
pub mod vector;

pub use batch::{simulate, Batch};
pub use playout::{play_random_game, random_playout, PlayoutResult};
