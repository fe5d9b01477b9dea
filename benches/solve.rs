//! Criterion benchmarks of the exact-analysis layer: alpha-beta solves of small boards and a
//! whole state graph. `cargo bench --bench solve`; with `-- --test` each runs once. Nodes per
//! second: the nodes each solve reports (printed once) over the time criterion measures.

use criterion::{criterion_group, criterion_main, Criterion};
use stonefield::games::{each_state, OptionValue};
use stonefield::solve::{self, SolveOptions};
use stonefield::Game;

fn game(name: &str, options: &[(&str, OptionValue)]) -> Game {
    let o: Vec<(String, OptionValue)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    Game::make(name, &o).expect("valid")
}

fn solves(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    let boards = [
        (
            "smallholder/hex232323",
            game("smallholder", &[("board", "hex232323".into())]),
        ),
        (
            "windflowers/trisquare3_cap12",
            game(
                "windflowers",
                &[("size", 3i64.into()), ("max_moves", 12i64.into())],
            ),
        ),
        (
            "faraday/hex3_first_2M_nodes",
            game("faraday", &[("order", 3i64.into())]),
        ),
    ];
    for (label, g) in boards {
        let opts = SolveOptions {
            table_bytes: 64 << 20,
            max_moves: solve::max_moves(&g),
            max_nodes: Some(2_000_000),
            ..SolveOptions::default()
        };
        let nodes = each_state!(g.new_state(), s => solve::solve(&s, &opts, None))
            .expect("solvable")
            .nodes;
        println!("{label}: {nodes} nodes a solve");
        group.bench_function(label, |b| {
            b.iter(|| each_state!(g.new_state(), s => solve::solve(&s, &opts, None)))
        });
    }
    group.finish();
}

fn graphs(c: &mut Criterion) {
    let mut group = c.benchmark_group("state_graph");
    group.sample_size(10);
    let g = game("smallholder", &[("board", "hex232323".into())]);
    let positions = solve::state_graph(&g, None, 1 << 30, None)
        .expect("runs")
        .positions;
    println!("smallholder/hex232323: {positions} positions");
    group.bench_function("smallholder/hex232323", |b| {
        b.iter(|| solve::state_graph(&g, None, 1 << 30, None))
    });
    group.finish();
}

criterion_group!(benches, solves, graphs);
criterion_main!(benches);
