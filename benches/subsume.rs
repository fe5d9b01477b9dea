//! Random playouts of Subsume: `cargo bench --bench subsume`.

use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};
use stonefield::games::subsume::{Config, State};
use stonefield::games::OptionValue;
use stonefield::sim::playout::random_playout;
use stonefield::sim::Rng;

fn playouts(c: &mut Criterion) {
    for size in [4i64, 6, 10] {
        let options = [("size".to_string(), OptionValue::Int(size))];
        let start = State::new(Arc::new(Config::new(&options).expect("valid size")));
        let mut rng = Rng::new(7);
        let mut buf = Vec::new();
        c.bench_function(&format!("subsume size {size} random playout"), |b| {
            b.iter(|| {
                let mut s = start.clone();
                random_playout(&mut s, &mut rng, &mut buf)
            })
        });
    }
}

criterion_group!(benches, playouts);
criterion_main!(benches);
