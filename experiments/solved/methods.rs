//! Alpha-beta against proof-number search on small boards of every game (experiments/solved/):
//! `cargo run --release --example methods -- [--time SECONDS] [--table-mb MIB] [--out FILE] [FILTER]`.
//!
//! Each board is solved from the empty position by both methods (one thread, the game's
//! symmetries, the same table size), each within `--time` seconds (default 60); the report has
//! a row per board and method: value, nodes, seconds and nodes per second, and whether it
//! finished. The boards whose label contains FILTER are run, and their rows replace the rows of
//! the same label and method in FILE.

use std::fmt::Write as _;
use std::time::Duration;

use stonefield::games::{each_state, OptionValue};
use stonefield::solve::{self, Method, SolveOptions};
use stonefield::Game;

/// A game's name and options.
type Board = (&'static str, Vec<(&'static str, OptionValue)>);

fn boards() -> Vec<Board> {
    let mut v = Vec::new();
    for r in ["nibbler", "stymie"] {
        for b in ["hex232323", "hex3"] {
            v.push((
                "smallholder",
                vec![("board", b.into()), ("ruleset", r.into())],
            ));
        }
    }
    for grid in ["trisquare", "square"] {
        v.push((
            "windflowers",
            vec![("size", 3i64.into()), ("grid", grid.into())],
        ));
    }
    for grid in ["trisquare", "hex"] {
        v.push((
            "faraday",
            vec![("order", 3i64.into()), ("grid", grid.into())],
        ));
    }
    v.push(("subsume", vec![("size", 3i64.into())]));
    v
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut time = 60.0;
    let mut table_mb: usize = 256;
    let mut out = "experiments/solved/methods.md".to_string();
    let mut filter = String::new();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--time" => {
                time = args[i + 1].parse().expect("seconds");
                i += 1;
            }
            "--table-mb" => {
                table_mb = args[i + 1].parse().expect("MiB");
                i += 1;
            }
            "--out" => {
                out = args[i + 1].clone();
                i += 1;
            }
            f => filter = f.to_string(),
        }
        i += 1;
    }
    let old = std::fs::read_to_string(&out).unwrap_or_default();
    // The rows already in the report, by label and method.
    let mut rows: Vec<(String, String)> = old
        .lines()
        .filter_map(|l| {
            let mut cells = l.strip_prefix("| ")?.split(" | ");
            let key = format!("{} | {}", cells.next()?.trim(), cells.next()?.trim());
            (!key.starts_with("board") && !key.starts_with("---")).then(|| (key, l.to_string()))
        })
        .collect();
    let mut order = Vec::new();
    for (name, options) in boards() {
        let opts: Vec<(String, OptionValue)> = options
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        let label = format!(
            "{name} {}",
            opts.iter()
                .map(|(k, v)| format!("{k}={}", v.to_string().trim_matches('"')))
                .collect::<Vec<_>>()
                .join(" ")
        );
        for m in [Method::AlphaBeta, Method::ProofNumber] {
            let key = format!("{label} | {}", m.name());
            order.push(key.clone());
            if !label.contains(&filter) {
                continue;
            }
            let g = Game::make(name, &opts).expect("valid");
            let o = SolveOptions {
                time: Some(Duration::from_secs_f64(time)),
                table_bytes: table_mb << 20,
                max_moves: solve::max_moves(&g),
                symmetries: g.symmetries(),
                method: m,
                ..SolveOptions::default()
            };
            let r = each_state!(g.new_state(), s => solve::solve(&s, &o, None)).expect("solvable");
            let proven = r.outcomes.iter().filter(|o| o.is_some()).count();
            let value = r.value.map_or("unknown".to_string(), |v| format!("{v:+}"));
            let mut line = String::new();
            write!(
                line,
                "| {key} | {value} | {proven} of {} | {} | {:.2} | {:.2} M | {} |",
                r.actions.len(),
                r.nodes,
                r.seconds,
                r.nodes as f64 / r.seconds.max(1e-9) / 1e6,
                r.stopped_by.name()
            )
            .unwrap();
            println!("{line}");
            rows.retain(|(k, _)| *k != key);
            rows.push((key, line));
        }
    }
    rows.sort_by_key(|(k, _)| order.iter().position(|o| o == k).unwrap_or(usize::MAX));
    let mut md = String::new();
    writeln!(
        md,
        "| board | method | value | first moves proven | nodes | seconds | nodes/s | stopped by |"
    )
    .unwrap();
    writeln!(md, "|---|---|---|---|---|---|---|---|").unwrap();
    for (_, l) in rows {
        writeln!(md, "{l}").unwrap();
    }
    std::fs::write(&out, md).expect("writable");
}
