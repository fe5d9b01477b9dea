//! Random playouts of Faraday in its default configuration (hex, order 6, 91 points), from the
//! empty board through the pie offer to the end, scores and ranks included.

use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};
use stonefield::games::faraday::{Config, State};
use stonefield::sim::{play_random_game, Rng};

fn playouts(c: &mut Criterion) {
    let start = State::new(Arc::new(Config::new(&[]).expect("default options")));
    let mut rng = Rng::new(1);
    let mut buf = Vec::new();
    c.bench_function("faraday hex 6 random playout", |b| {
        b.iter(|| play_random_game(&start, &mut rng, &mut buf))
    });
}

criterion_group!(benches, playouts);
criterion_main!(benches);
