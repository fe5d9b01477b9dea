//! MCTS iterations per second on one configuration:
//! `cargo run --release --example search_speed -- GAME ITERATIONS [THREADS] [MOVES] [key=value ...]`
//! (MOVES random opening moves first, for a mid-game position).

use std::time::Instant;

use stonefield::games::{OptionValue, Rules};
use stonefield::rng::Rng;
use stonefield::search::mcts::search;
use stonefield::search::MctsConfig;
use stonefield::Game;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map_or("windflowers", String::as_str);
    let iterations: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let threads: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let moves: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(0);
    let options: Vec<(String, OptionValue)> = args
        .iter()
        .skip(4)
        .filter_map(|kv| {
            let (k, v) = kv.split_once('=')?;
            let v = match v.parse::<i64>() {
                Ok(i) => OptionValue::Int(i),
                Err(_) => OptionValue::Str(v.to_string()),
            };
            Some((k.to_string(), v))
        })
        .collect();
    let game = Game::make(name, &options).expect("valid game");
    let mut state = game.new_state();
    let mut rng = Rng::new(5);
    let mut buf = Vec::new();
    for _ in 0..moves {
        if let Some(a) = state.random_action(&mut rng, &mut buf) {
            state.apply_unchecked(a);
        }
    }
    let cfg = MctsConfig {
        threads,
        max_nodes: 100_000_000,
        ..MctsConfig::with_iterations(iterations)
    };
    let t = Instant::now();
    let r = search(&state, &cfg).expect("searchable");
    let dt = t.elapsed().as_secs_f64();
    println!(
        "{name} moves={moves} threads={threads}: {:.0} it/s, {} nodes ({:.2} per iteration), best {}",
        r.iterations as f64 / dt,
        r.nodes,
        r.nodes as f64 / r.iterations as f64,
        r.best
    );
}
