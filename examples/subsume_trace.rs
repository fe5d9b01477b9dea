use std::sync::Arc;
use stonefield::games::subsume::{Config, State};
use stonefield::games::{OptionValue, Rules};
use stonefield::sim::Rng;
fn main() {
    let size: i64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(6);
    let options = [("size".to_string(), OptionValue::Int(size))];
    let cfg = Arc::new(Config::new(&options).unwrap());
    let mut buf = Vec::new();
    for seed in 0..3000u64 {
        let mut rng = Rng::new(seed);
        let mut s = State::new(cfg.clone());
        let mut hist = Vec::new();
        while let Some(a) = s.random_action(&mut rng, &mut buf) {
            hist.push(a);
            s.apply_unchecked(a);
        }
        println!("{seed} {:?} {:?}", s.winner(), hist);
    }
}
