//! Random playouts per second of Subsume, single-threaded:
//! `cargo run --release --example subsume_speed [size ...]`.

use std::sync::Arc;
use std::time::Instant;

use stonefield::games::subsume::{Config, State};
use stonefield::games::OptionValue;
use stonefield::sim::playout::random_playout;
use stonefield::sim::Rng;

fn main() {
    let sizes: Vec<i64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![4, 6, 10]
    } else {
        sizes
    };
    for size in sizes {
        let options = [("size".to_string(), OptionValue::Int(size))];
        let cfg = Arc::new(Config::new(&options).expect("valid size"));
        let start = State::new(cfg);
        let mut rng = Rng::new(1);
        let mut buf = Vec::new();
        let (mut games, mut moves, mut red, mut blue) = (0u64, 0u64, 0u64, 0u64);
        let t = Instant::now();
        while t.elapsed().as_secs_f64() < 2.0 {
            for _ in 0..100 {
                let mut s = start.clone();
                moves += random_playout(&mut s, &mut rng, &mut buf) as u64;
                games += 1;
                match s.winner() {
                    Some(0) => red += 1,
                    Some(_) => blue += 1,
                    None => {}
                }
            }
        }
        let secs = t.elapsed().as_secs_f64();
        println!(
            "size {size}: {:.0} playouts/s, {:.1} moves/game, red {:.3} blue {:.3} draw {:.3}",
            games as f64 / secs,
            moves as f64 / games as f64,
            red as f64 / games as f64,
            blue as f64 / games as f64,
            (games - red - blue) as f64 / games as f64
        );
    }
}
