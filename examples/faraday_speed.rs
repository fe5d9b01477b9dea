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
            // The machine may be shared: time several short windows and keep the best and the
            // median, which contention disturbs least.
            let mut rates = Vec::new();
            let mut actions = 0u64;
            let mut games = 0u64;
            for _ in 0..6 {
                let t = Instant::now();
                let mut window = 0u64;
                while t.elapsed().as_secs_f64() < seconds / 6.0 {
                    for _ in 0..500 {
                        actions += play_random_game(&start, &mut rng, &mut buf).length as u64;
                    }
                    window += 500;
                }
                games += window;
                rates.push(window as f64 / t.elapsed().as_secs_f64());
            }
            rates.sort_by(f64::total_cmp);
            println!(
                "{grid:>15} order 6 ({sites:>3} sites) surplus_charge={surplus:<5}: \
                 best {:>7.0}, median {:>7.0} playouts/s, {:.1} actions/game",
                rates[5],
                (rates[2] + rates[3]) / 2.0,
                actions as f64 / games as f64
            );
        }
    }
}
