//! MCTS iterations per second on one configuration:
//! `cargo run --release --example search_speed -- GAME ITERATIONS [THREADS] [MOVES] [key=value ...]`
//! (MOVES random opening moves first, for a mid-game position). Among the `key=value` pairs,
//! `selection=`, `playouts=`, `c=`, `grave_ref=`, `grave_bias=` and `preset=` set the search, and
//! `search=puct` (with `batch_size=`) runs PUCT with its native rollout evaluator instead of
//! MCTS (simulations per second; no root noise), the rest are game options. The rate is per CPU-second of this process (the machine may be shared).

use stonefield::games::{OptionValue, Rules};
use stonefield::rng::Rng;
use stonefield::search::mcts::search;
use stonefield::search::{puct_search, MctsConfig, Playouts, Preset, PuctConfig, Selection};
use stonefield::Game;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map_or("windflowers", String::as_str);
    let iterations: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let threads: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let moves: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(0);
    let search_keys = [
        "selection",
        "playouts",
        "c",
        "grave_ref",
        "grave_bias",
        "preset",
        "search",
        "batch_size",
    ];
    let mut puct = PuctConfig {
        simulations: iterations,
        dirichlet_fraction: 0.0,
        max_nodes: 100_000_000,
        ..PuctConfig::default()
    };
    let mut use_puct = false;
    let mut cfg = MctsConfig {
        threads,
        max_nodes: 100_000_000,
        ..MctsConfig::with_iterations(iterations)
    };
    for kv in args.iter().skip(4) {
        let Some((k, v)) = kv.split_once('=') else {
            continue;
        };
        match k {
            "selection" => cfg.selection = Selection::from_name(v).expect("selection"),
            "playouts" => cfg.playouts = Playouts::from_name(v).expect("playouts"),
            "c" => {
                cfg.c = v.parse().expect("c");
                puct.c = cfg.c;
            }
            "search" => use_puct = v == "puct",
            "batch_size" => puct.batch_size = v.parse().expect("batch_size"),
            "grave_ref" => cfg.grave_ref = v.parse().expect("grave_ref"),
            "grave_bias" => cfg.grave_bias = v.parse().expect("grave_bias"),
            "preset" => cfg.preset = Some(Preset::from_name(v).expect("preset")),
            _ => {}
        }
    }
    let options: Vec<(String, OptionValue)> = args
        .iter()
        .skip(4)
        .filter(|kv| !search_keys.iter().any(|k| kv.starts_with(&format!("{k}="))))
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
    let t = cpu_seconds(threads);
    let r = if use_puct {
        puct_search(&state, &puct, None, None).expect("searchable")
    } else {
        search(&state, &cfg).expect("searchable")
    };
    let dt = cpu_seconds(threads) - t;
    println!(
        "{name} moves={moves} threads={threads}: {:.0} it/s, {} nodes ({:.2} per iteration), best {}",
        r.iterations as f64 / dt,
        r.nodes,
        r.nodes as f64 / r.iterations as f64,
        r.best
    );
}

/// CPU seconds used by this process so far: with one search thread (the search then runs on
/// this one), the nanoseconds the scheduler counted on-CPU for it (`/proc/self/schedstat`);
/// otherwise user + system time in clock ticks of 10 ms (`/proc/self/stat`); wall seconds where
/// /proc is missing.
fn cpu_seconds(threads: usize) -> f64 {
    if threads == 1 {
        let ns = std::fs::read_to_string("/proc/self/schedstat")
            .ok()
            .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok());
        if let Some(ns) = ns {
            return ns / 1e9;
        }
    }
    let ticks = std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            let rest = s.rsplit_once(')')?.1;
            let f: Vec<&str> = rest.split_whitespace().collect();
            Some(f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?)
        });
    match ticks {
        // The kernel's clock ticks are 100 a second on Linux.
        Some(t) => t / 100.0,
        None => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64()),
    }
}
