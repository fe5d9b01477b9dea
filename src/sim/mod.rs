//! Simulation: random number streams and random playouts.

pub mod playout;
pub mod rng;

pub use playout::{play_random_game, random_playout, PlayoutResult};
pub use rng::Rng;
