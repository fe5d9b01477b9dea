//! Whole state graphs of Windflowers' smallest boards (and the other games' small boards) for
//! experiments/solved/: `cargo run --release --example graphs -- [--max-mb MB] [--max-positions N] [--out FILE]
//! [--table auto|direct|hashed] [FILTER]`.
//!
//! Only the boards whose label contains FILTER are run; their rows replace the rows of the same
//! label in FILE (the other rows are kept, in the list's order, so one board can be rerun alone).

#[path = "report.rs"]
mod report;

use report::Report;
use stonefield::games::OptionValue;
use stonefield::solve;
use stonefield::Game;

/// A label, a game id and its options.
type Board = (String, &'static str, Vec<(String, OptionValue)>);

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut max_mb = 4096usize;
    let mut out = "experiments/solved/graphs.md".to_string();
    let mut filter = String::new();
    let mut max_positions = None;
    let mut table = solve::TableKind::Auto;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--max-mb" => {
                max_mb = args[i + 1].parse().expect("MiB");
                i += 1;
            }
            "--out" => {
                out = args[i + 1].clone();
                i += 1;
            }
            "--table" => {
                table = match args[i + 1].as_str() {
                    "auto" => solve::TableKind::Auto,
                    "direct" => solve::TableKind::Direct,
                    "hashed" => solve::TableKind::Hashed,
                    t => panic!("--table auto, direct or hashed, not {t}"),
                };
                i += 1;
            }
            "--max-positions" => {
                max_positions = Some(args[i + 1].parse().expect("count"));
                i += 1;
            }
            f => filter = f.to_string(),
        }
        i += 1;
    }
    let mut list: Vec<Board> = Vec::new();
    for players in [2i64, 3, 4] {
        for grid in ["trisquare", "square", "hex"] {
            list.push((
                format!("windflowers grid={grid} size=3 players={players}"),
                "windflowers",
                vec![
                    ("grid".into(), grid.into()),
                    ("size".into(), 3i64.into()),
                    ("players".into(), players.into()),
                ],
            ));
        }
    }
    for b in ["hex232323", "hex3"] {
        for r in [
            "nibbler",
            "gaps_original",
            "offshore_gaps",
            "stymie",
            "hull_setbacks",
        ] {
            list.push((
                format!("smallholder board={b} ruleset={r}"),
                "smallholder",
                vec![("board".into(), b.into()), ("ruleset".into(), r.into())],
            ));
        }
    }
    let labels: Vec<String> = list.iter().map(|b| b.0.clone()).collect();
    let mut report = Report::open(
        &out,
        &[
            "positions",
            "edges",
            "longest game",
            "cycle",
            "value (player 0)",
            "seconds",
            "positions/s",
            "table MiB",
            "bytes/position",
            "stopped by",
        ],
        labels,
    );
    for (label, name, options) in list {
        if !label.contains(&filter) {
            continue;
        }
        let game = Game::make(name, &options).expect("valid");
        let g =
            solve::state_graph_with(&game, max_positions, max_mb << 20, None, table).expect("runs");
        let cycle = match &g.cycle {
            Some(c) => format!("yes: {c:?}"),
            None if g.stopped_by == solve::GraphStop::Complete => "none (proven)".into(),
            None => "none found".into(),
        };
        let line = format!(
            "| {label} | {} | {} | {} | {cycle} | {} | {:.1} | {:.2} M | {} | {:.1} | {} |",
            g.positions,
            g.edges,
            g.longest.map_or("–".into(), |l| l.to_string()),
            g.value.map_or("–".into(), |v| format!("{v:+}")),
            g.seconds,
            g.positions as f64 / g.seconds.max(1e-9) / 1e6,
            g.table_bytes >> 20,
            g.table_bytes as f64 / g.positions.max(1) as f64,
            g.stopped_by.name()
        );
        println!("{line}");
        report.put(&label, line);
    }
}
