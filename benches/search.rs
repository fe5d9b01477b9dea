//! Criterion benchmarks: MCTS iterations per second on each game's default configuration (and
//! Windflowers with three players), from the empty board and from a mid-game position, on one
//! thread and on two (root parallelism). `cargo bench --bench search`; with `-- --test` each
//! runs once.
//!
//! One measured call is one search of [`ITERATIONS`] iterations from a fresh tree, so the
//! throughput criterion reports is iterations per second, tree growth included.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use stonefield::games::{OptionValue, Rules, GAME_NAMES};
use stonefield::rng::Rng;
use stonefield::search::mcts::search;
use stonefield::search::MctsConfig;
use stonefield::{Game, State};

const ITERATIONS: u64 = 20_000;

/// The position halfway through a random game (seed 1).
fn mid_game(game: &Game) -> State {
    let mut rng = Rng::new(1);
    let mut buf = Vec::new();
    let mut line = vec![game.new_state()];
    loop {
        let mut s = line.last().expect("non-empty").clone();
        match s.random_action(&mut rng, &mut buf) {
            Some(a) => s.apply_unchecked(a),
            None => break,
        }
        line.push(s);
    }
    line.swap_remove(line.len() / 2)
}

fn configs() -> Vec<(String, Game)> {
    let mut v: Vec<(String, Game)> = GAME_NAMES
        .iter()
        .map(|&name| {
            (
                name.to_string(),
                Game::make(name, &[]).expect("default options are valid"),
            )
        })
        .collect();
    let three = [("players".to_string(), OptionValue::Int(3))];
    v.push((
        "windflowers_3p".into(),
        Game::make("windflowers", &three).expect("valid"),
    ));
    v
}

fn mcts(c: &mut Criterion) {
    let mut group = c.benchmark_group("mcts");
    group.sample_size(10);
    group.throughput(Throughput::Elements(ITERATIONS));
    for (label, game) in configs() {
        for (when, state) in [("empty", game.new_state()), ("mid", mid_game(&game))] {
            for threads in [1, 2] {
                let cfg = MctsConfig {
                    threads,
                    ..MctsConfig::with_iterations(ITERATIONS)
                };
                let id = BenchmarkId::from_parameter(format!("{label}/{when}/{threads}t"));
                group.bench_function(id, |b| b.iter(|| search(&state, &cfg).expect("running")));
            }
        }
    }
    group.finish();
}

criterion_group!(benches, mcts);
criterion_main!(benches);
