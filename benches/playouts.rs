//! Criterion benchmarks: single-threaded random playouts of each game's default configuration and
//! of its named variants, a batch over all threads, and the variant lab's measured random games. `cargo bench --bench playouts`; with
//! `-- --test` each runs once.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use stonefield::games::{each_state, OptionKind, OptionValue, Rules, GAME_NAMES};
use stonefield::lab::{random_game_stats, Evaluator, Scratch};
use stonefield::rng::Rng;
use stonefield::sim::{play_random_game, simulate};
use stonefield::Game;

/// Configurations beyond the defaults, from the games' option declarations: every value of each
/// game's `ruleset` and `grid` (the options that change the engine most), and Subsume at sizes 4
/// and 10.
fn variants() -> Vec<(&'static str, &'static str, OptionValue)> {
    let mut v = Vec::new();
    for &name in GAME_NAMES {
        let spec = Game::option_spec(name).expect("registered");
        for o in spec
            .iter()
            .filter(|o| o.name == "ruleset" || o.name == "grid")
        {
            if let OptionKind::Choice { values, default } = o.kind {
                for c in values.iter().filter(|c| c.name != default) {
                    v.push((name, o.name, c.name.into()));
                }
            }
        }
    }
    for size in [4i64, 10] {
        v.push(("subsume", "size", size.into()));
    }
    v
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_playout");
    group.throughput(Throughput::Elements(1));
    let mut configs: Vec<(String, Game)> = GAME_NAMES
        .iter()
        .map(|&name| {
            let game = Game::make(name, &[]).expect("default options are valid");
            (format!("{name}/default"), game)
        })
        .collect();
    for (name, key, value) in variants() {
        let options = [(key.to_string(), value.clone())];
        let game = Game::make(name, &options).expect("valid variant");
        configs.push((format!("{name}/{key}={value}"), game));
    }
    for (label, game) in configs {
        group.bench_function(BenchmarkId::from_parameter(label), |b| {
            // The playout includes the final ranks and scores, as `simulate` reports them.
            each_state!(game.new_state(), start => {
                let mut rng = Rng::new(1);
                let mut buf = Vec::new();
                b.iter(|| play_random_game(&start, &mut rng, &mut buf))
            })
        });
    }
    group.finish();
}

fn batches(c: &mut Criterion) {
    let mut group = c.benchmark_group("simulate_1000_all_threads");
    group.sample_size(10);
    group.throughput(Throughput::Elements(1000));
    for &name in GAME_NAMES {
        let game = Game::make(name, &[]).expect("default options are valid");
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter(|| simulate(&game, 1000, 7, None))
        });
    }
    group.finish();
}

/// The variant lab's random games, measured while they are played (every fact its metrics
/// need), against the plain playout of the same configuration above: their ratio is what the
/// lab adds per game.
fn lab_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("lab_random_game");
    group.throughput(Throughput::Elements(1));
    for &name in GAME_NAMES {
        let game = Game::make(name, &[]).expect("default options are valid");
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            each_state!(game.new_state(), start => {
                let ev = Evaluator::new(&start);
                let mut scratch = Scratch::default();
                let mut rng = Rng::new(1);
                let mut rngs = vec![Rng::new(2); start.num_players()];
                b.iter(|| {
                    for r in rngs.iter_mut() {
                        *r = Rng::new(rng.next_u64());
                    }
                    random_game_stats(&start, &mut rngs, &ev, &mut scratch)
                })
            })
        });
    }
    group.finish();
}

criterion_group!(benches, playouts, batches, lab_games);
criterion_main!(benches);
