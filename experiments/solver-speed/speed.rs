//! Solver speed on the boards issue 55 names: one alpha-beta solve of each (one thread unless
//! `--threads`), and a line of JSON a solve (board, table MiB, threads, nodes, seconds, nodes per
//! second, value).
//! `cargo run --profile profiling --example solver_speed -- [--table-mb MIB] [--threads N] [--repeat N] [--value-only] [--cutoff-probes N] [FILTER]`.
//! `compare.sh` runs two builds of it interleaved and summarises them side by side.

use std::time::Duration;

use stonefield::games::{each_state, OptionValue, Rules};
use stonefield::rng::Rng;
use stonefield::solve::{self, SolveOptions};
use stonefield::Game;

/// The boards: label, game, and the random plies (seeded) made before the solve.
fn boards() -> Vec<(&'static str, Game, usize)> {
    let make = |name: &str, options: &[(&str, OptionValue)]| {
        let o: Vec<(String, OptionValue)> = options
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        Game::make(name, &o).expect("valid")
    };
    vec![
        (
            "smallholder hex3 nibbler",
            make("smallholder", &[("board", "hex3".into())]),
            0,
        ),
        (
            "subsume size 3",
            make("subsume", &[("size", 3i64.into())]),
            0,
        ),
        (
            "subsume size 4 after 14 random plies",
            make("subsume", &[("size", 4i64.into())]),
            14,
        ),
        (
            "smallholder hex343434 nibbler after 8 random plies",
            make("smallholder", &[("board", "hex343434".into())]),
            8,
        ),
        (
            "windflowers trisquare 3",
            make("windflowers", &[("size", 3i64.into())]),
            0,
        ),
        (
            "windflowers square 3",
            make(
                "windflowers",
                &[("grid", "square".into()), ("size", 3i64.into())],
            ),
            0,
        ),
        (
            "faraday hex_limping 3",
            make(
                "faraday",
                &[("grid", "hex_limping".into()), ("order", 3i64.into())],
            ),
            0,
        ),
    ]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut table_mb: usize = 64;
    let mut repeat = 1;
    let mut threads = 1;
    let mut time = 120.0;
    let mut filter = String::new();
    let mut cutoff_probes = SolveOptions::default().cutoff_probes;
    let mut value_only = false;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--table-mb" => {
                i += 1;
                table_mb = args[i].parse().expect("MiB");
            }
            "--threads" => {
                i += 1;
                threads = args[i].parse().expect("threads");
            }
            "--repeat" => {
                i += 1;
                repeat = args[i].parse().expect("count");
            }
            "--time" => {
                i += 1;
                time = args[i].parse().expect("seconds");
            }
            "--cutoff-probes" => {
                i += 1;
                cutoff_probes = args[i].parse().expect("actions");
            }
            "--value-only" => value_only = true,
            f => filter = f.to_string(),
        }
        i += 1;
    }
    for _ in 0..repeat {
        for (label, game, plies) in boards() {
            if !label.contains(&filter) {
                continue;
            }
            let opts = SolveOptions {
                time: Some(Duration::from_secs_f64(time)),
                table_bytes: table_mb << 20,
                threads,
                max_moves: solve::max_moves(&game),
                symmetries: game.symmetries(),
                cutoff_probes,
                value_only,
                ..SolveOptions::default()
            };
            let r = each_state!(game.new_state(), s0 => {
                let mut s = s0;
                let mut rng = Rng::new(1);
                let mut buf = Vec::new();
                for _ in 0..plies {
                    let a = s.random_action(&mut rng, &mut buf).expect("running");
                    s.apply_unchecked(a);
                }
                solve::solve(&s, &opts, None)
            })
            .expect("solvable");
            println!(
                "{{\"board\": \"{label}\", \"table_mb\": {table_mb}, \"threads\": {threads}, \"nodes\": {}, \"seconds\": {:.4}, \"nodes_per_s\": {:.0}, \"value\": {}, \"stopped_by\": \"{}\"}}",
                r.nodes,
                r.seconds,
                r.nodes as f64 / r.seconds.max(1e-9),
                r.value.map_or("null".to_string(), |v| v.to_string()),
                r.stopped_by.name()
            );
        }
    }
}
