//! Random playouts of The Smallholder (default options: nibbler on hex4), single-threaded.

use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use stonefield::games::smallholder::{Config, State};
use stonefield::games::OptionValue;
use stonefield::sim::{random_playout, Rng};

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("smallholder");
    group.throughput(Throughput::Elements(1));
    for ruleset in ["nibbler", "stymie", "hull_setbacks"] {
        let options = [("ruleset".to_string(), OptionValue::from(ruleset))];
        let start = State::new(Arc::new(Config::new(&options).expect("valid options")));
        let mut rng = Rng::new(7);
        let mut buf = Vec::new();
        group.bench_function(format!("random_playout/hex4/{ruleset}"), |b| {
            b.iter(|| {
                let mut s = start.clone();
                random_playout(&mut s, &mut rng, &mut buf)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, playouts);
criterion_main!(benches);
