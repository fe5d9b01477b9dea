//! Solves the small boards of experiments/solved/ (shown in docs/solved/) and writes the report:
//! `cargo run --release --example solved -- [--time SECONDS] [--threads N] [--table-mb MIB] [--no-symmetry] [--order ORDER] [--out FILE] [FILTER]`.
//! Each board gets at most `--time` seconds (default 600); boards that do not finish are
//! reported with how far they got. A FILTER keeps only the boards whose label contains it;
//! their rows replace the rows of the same label in FILE and the other rows are kept.
//! `--order` sets alpha-beta's move order (`solve::Order`; default `auto`, each game's own).

#[path = "report.rs"]
mod report;

use std::time::Duration;

use report::Report;

use stonefield::games::{each_state, OptionValue};
use stonefield::solve::{self, SolveOptions};
use stonefield::Game;

fn board(
    label: &str,
    name: &str,
    options: &[(&str, OptionValue)],
    margin: bool,
) -> (String, Game, bool) {
    let o: Vec<(String, OptionValue)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    (
        label.to_string(),
        Game::make(name, &o).expect("valid"),
        margin,
    )
}

fn boards() -> Vec<(String, Game, bool)> {
    let mut v = Vec::new();
    for b in ["hex232323", "hex3", "hex343434", "hex4"] {
        for r in [
            "nibbler",
            "gaps_original",
            "offshore_gaps",
            "stymie",
            "hull_setbacks",
        ] {
            v.push(board(
                &format!("smallholder board={b} ruleset={r}"),
                "smallholder",
                &[("board", b.into()), ("ruleset", r.into())],
                false,
            ));
        }
    }
    for grid in ["trisquare", "square", "hex"] {
        for scoring in ["stones", "largest_group"] {
            for tiebreak in ["underdog", "cascade"] {
                for lp in [false, true] {
                    for margin in [false, true] {
                        if margin && (tiebreak == "cascade" || lp) {
                            continue; // the margin does not depend on the tie-break
                        }
                        v.push(board(
                            &format!("windflowers grid={grid} size=3 scoring={scoring} tiebreak={tiebreak} last_placer_breaks_ties={lp}{}", if margin { " (margin)" } else { "" }),
                            "windflowers",
                            &[("grid", grid.into()), ("size", 3i64.into()), ("scoring", scoring.into()), ("tiebreak", tiebreak.into()), ("last_placer_breaks_ties", lp.into())],
                            margin,
                        ));
                    }
                }
            }
        }
    }
    for grid in [
        "hex",
        "hex_limping",
        "trisquare",
        "trisquare_omni",
        "hex_omni",
        "square_omni",
    ] {
        for surplus in [false, true] {
            v.push(board(
                &format!("faraday grid={grid} order=3 surplus_charge={surplus}"),
                "faraday",
                &[
                    ("grid", grid.into()),
                    ("order", 3i64.into()),
                    ("surplus_charge", surplus.into()),
                ],
                false,
            ));
        }
    }
    // One size up, with the designer's rule that the offer holds a stone (with Ludii's 0 the
    // first player passes three times and the game is drawn at once).
    for grid in [
        "square_omni",
        "hex_limping",
        "trisquare",
        "trisquare_omni",
        "hex",
        "hex_omni",
    ] {
        v.push(board(
            &format!("faraday grid={grid} order=4 min_offer_stones=1"),
            "faraday",
            &[
                ("grid", grid.into()),
                ("order", 4i64.into()),
                ("min_offer_stones", 1i64.into()),
            ],
            false,
        ));
    }
    for size in [3i64, 4] {
        v.push(board(
            &format!("subsume size={size}"),
            "subsume",
            &[("size", size.into())],
            false,
        ));
    }
    v
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut time = 600.0;
    let mut table_mb: usize = 256;
    let mut threads = 1;
    let mut symmetry = true;
    let mut out = "experiments/solved/results.md".to_string();
    let mut filter = String::new();
    let mut order = solve::Order::Auto;
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
            "--no-symmetry" => {
                symmetry = false;
            }
            "--threads" => {
                threads = args[i + 1].parse().expect("threads");
                i += 1;
            }
            "--order" => {
                order = solve::Order::parse(&args[i + 1]).expect("order");
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
    let list = boards();
    let mut report = Report::open(
        &out,
        &[
            "value",
            "winning (best) first moves",
            "margin",
            "nodes",
            "seconds",
            "nodes/s",
            "table entries",
            "stopped by",
        ],
        list.iter().map(|b| b.0.clone()).collect(),
    );
    for (label, game, margin) in list {
        if !label.contains(&filter) {
            continue;
        }
        let opts = SolveOptions {
            time: Some(Duration::from_secs_f64(time)),
            threads,
            margin,
            table_bytes: table_mb << 20,
            max_moves: solve::max_moves(&game),
            symmetries: if symmetry {
                game.symmetries()
            } else {
                Vec::new()
            },
            order,
            ..SolveOptions::default()
        };
        let r =
            each_state!(game.new_state(), s => solve::solve(&s, &opts, None)).expect("solvable");
        let proven = r.outcomes.iter().filter(|o| o.is_some()).count();
        let value = match (r.value, margin) {
            (Some(v), false) => format!("{v:+}"),
            (Some(v), true) => format!("{}", v.signum()),
            (None, _) => format!(
                "unknown ({proven} of {} first moves proven)",
                r.actions.len()
            ),
        };
        let best = if r.best.is_empty() {
            "–".to_string()
        } else {
            format!("{:?}", r.best)
        };
        let m = if margin {
            r.value.map_or("–".into(), |v| format!("{v:+}"))
        } else {
            "–".into()
        };
        let line = format!(
            "| {label} | {value} | {best} | {m} | {} | {:.1} | {:.2} M | {} | {} |",
            r.nodes,
            r.seconds,
            r.nodes as f64 / r.seconds.max(1e-9) / 1e6,
            r.table_entries,
            r.stopped_by.name()
        );
        println!("{line}");
        report.put(&label, line);
    }
}
