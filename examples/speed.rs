//! Random playouts per second of any game, single-threaded, in a release build:
//! `cargo run --release --example speed -- windflowers grid=hex size=5`.

use std::time::Instant;

use stonefield::games::OptionValue;
use stonefield::sim::simulate;
use stonefield::Game;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map_or("windflowers", |s| s.as_str());
    let options: Vec<(String, OptionValue)> = args
        .iter()
        .skip(1)
        .filter_map(|a| a.split_once('='))
        .map(|(k, v)| (k.to_string(), OptionValue::parse_cli(v)))
        .collect();
    let game = match Game::make(name, &options) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    // A fixed workload, for instruction counts under valgrind: SF_GAMES=20000.
    if let Some(n) = std::env::var("SF_GAMES").ok().and_then(|v| v.parse().ok()) {
        let batch = simulate(&game, n, 1, Some(1));
        println!(
            "{n} games, {} actions",
            batch.lengths.iter().map(|&l| u64::from(l)).sum::<u64>()
        );
        return;
    }
    let _ = simulate(&game, 2000, 0, Some(1));
    let mut n = 10_000;
    loop {
        let t = Instant::now();
        let batch = simulate(&game, n, 1, Some(1));
        let dt = t.elapsed().as_secs_f64();
        if dt > 1.5 {
            let moves: u64 = batch.lengths.iter().map(|&l| u64::from(l)).sum();
            println!(
                "{name}: {:.0} playouts/s, {:.0} moves/s, {:.1} actions per game (1 thread)",
                n as f64 / dt,
                moves as f64 / dt,
                moves as f64 / n as f64
            );
            break;
        }
        n *= 2;
    }
}
