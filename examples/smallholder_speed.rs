//! Random playouts per second of The Smallholder, single-threaded, for each named ruleset.
//!
//! `cargo run --release --example smallholder_speed [board] [seconds] [games]` (default hex4,
//! 2 s each). With `games`, plays exactly that many games per ruleset instead (for profilers
//! that count instructions).

use std::time::{Duration, Instant};

use stonefield::games::smallholder::{Config, State, RULESETS};
use stonefield::games::OptionValue;
use stonefield::sim::{random_playout, Rng};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let board = args.get(1).map_or("hex4", String::as_str);
    let seconds: f64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2.0);
    let fixed: Option<u64> = args.get(3).and_then(|s| s.parse().ok());
    for ruleset in RULESETS {
        let options = [
            ("board".to_string(), OptionValue::from(board)),
            ("ruleset".to_string(), OptionValue::from(*ruleset)),
        ];
        let cfg = match Config::new(&options) {
            Ok(c) => std::sync::Arc::new(c),
            Err(e) => {
                eprintln!("{e}");
                return;
            }
        };
        let start = State::new(cfg);
        let mut rng = Rng::new(1);
        let mut buf = Vec::new();
        let (mut games, mut moves) = (0u64, 0u64);
        let t0 = Instant::now();
        let budget = Duration::from_secs_f64(seconds);
        let batch = fixed.unwrap_or(1000);
        while t0.elapsed() < budget || (fixed.is_some() && games == 0) {
            if fixed.is_some() && games > 0 {
                break;
            }
            for _ in 0..batch {
                let mut s = start.clone();
                moves += random_playout(&mut s, &mut rng, &mut buf) as u64;
                games += 1;
            }
        }
        let secs = t0.elapsed().as_secs_f64();
        println!(
            "{board} {ruleset:>14}: {:>9.0} playouts/s, {:>5.1} moves/game, {:>5.0} ns/move ({moves} moves)",
            games as f64 / secs,
            moves as f64 / games as f64,
            secs * 1e9 / moves as f64
        );
    }
}
