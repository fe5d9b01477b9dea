use std::time::Instant;
use stonefield::games::Game;
use stonefield::search::play::{lab_range, Agent};
use stonefield::sim::batch::{simulate, thread_pool};
fn main() {
    let game = Game::make("windflowers", &[]).unwrap();
    let n = 100000;
    let seats = vec![0usize; n * 2];
    let agents = [Agent::Random { seed: 0 }];
    let pool = thread_pool(None).unwrap();
    let mut best = [f64::MAX; 4];
    for _ in 0..7 {
        let t = Instant::now();
        let c = lab_range(&game, &agents, &seats, 1, 0, false, 1).unwrap();
        best[0] = best[0].min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        let c2 = pool.install(|| lab_range(&game, &agents, &seats, 1, 0, true, 1).unwrap());
        best[1] = best[1].min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        simulate(&game, n, 1, Some(1));
        best[2] = best[2].min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        simulate(&game, n, 1, None);
        best[3] = best[3].min(t.elapsed().as_secs_f64());
        assert_eq!(c.len() + c2.len(), 2 * n);
    }
    println!(
        "lab 1 thread {:.1} ms, 2 threads {:.1} ms ({:.2}x); simulate {:.1} / {:.1} ms ({:.2}x)",
        best[0] * 1e3,
        best[1] * 1e3,
        best[0] / best[1],
        best[2] * 1e3,
        best[3] * 1e3,
        best[2] / best[3]
    );
}
