//! Criterion benchmarks: one random playout of each game's default configuration, and a batch
//! of playouts over all threads. Run with `cargo bench`; `cargo bench -- --test` runs each once.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use stonefield::games::{each_state, GAME_NAMES};
use stonefield::sim::{random_playout, simulate, Rng};
use stonefield::Game;

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_playout");
    for &name in GAME_NAMES {
        let game = Game::make(name, &[]).expect("default options are valid");
        group.throughput(Throughput::Elements(1));
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            each_state!(game.new_state(), start => {
                let mut rng = Rng::new(1);
                let mut buf = Vec::new();
                b.iter(|| {
                    let mut s = start.clone();
                    random_playout(&mut s, &mut rng, &mut buf)
                })
            })
        });
    }
    group.finish();
}

fn batches(c: &mut Criterion) {
    let mut group = c.benchmark_group("simulate_1000_all_threads");
    group.sample_size(10);
    for &name in GAME_NAMES {
        let game = Game::make(name, &[]).expect("default options are valid");
        group.throughput(Throughput::Elements(1000));
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter(|| simulate(&game, 1000, 7, None))
        });
    }
    group.finish();
}

criterion_group!(benches, playouts, batches);
criterion_main!(benches);
