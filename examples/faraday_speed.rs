//! Random playouts per second of Faraday on every grid at order 6, single-threaded, from the
//! empty board through the pie offer to the end, scores and ranks included.
//!
//! `cargo run --release --example faraday_speed [seconds per grid]`

use std::sync::Arc;
use std::time::Instant;

use stonefield::games::faraday::{Config, State, GRIDS};
use stonefield::games::OptionValue;
use stonefield::sim::{play_random_game, Rng};

fn main() {
    let seconds: f64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2.0);
    for surplus in [false, true] {
        for grid in GRIDS {
            let options = vec![
                ("grid".to_string(), OptionValue::Str(grid.to_string())),
                ("surplus_charge".to_string(), OptionValue::Bool(surplus)),
            ];
            let cfg = Arc::new(Config::new(&options).expect("valid options"));
            let sites = cfg.board.num_sites();
            let start = State::new(cfg);
            let mut rng = Rng::new(7);
            let mut buf = Vec::new();
            let (mut games, mut actions) = (0u64, 0u64);
            let t = Instant::now();
            while t.elapsed().as_secs_f64() < seconds {
                for _ in 0..1000 {
                    actions += play_random_game(&start, &mut rng, &mut buf).length as u64;
                }
                games += 1000;
            }
            let rate = games as f64 / t.elapsed().as_secs_f64();
            println!(
                "{grid:>15} order 6 ({sites:>3} sites) surplus_charge={surplus:<5}: \
                 {rate:>9.0} playouts/s, {:.1} actions/game",
                actions as f64 / games as f64
            );
        }
    }
}
