use std::time::Instant;
use stonefield::games::{each_state, Game, Rules};
use stonefield::rng::Rng;
use stonefield::sim::stats::{random_game_stats, Evaluator, Scratch};
fn main() {
    let name = std::env::args().nth(1).unwrap_or("windflowers".into());
    let n: usize = std::env::args()
        .nth(2)
        .map(|s| s.parse().unwrap())
        .unwrap_or(300000);
    let game = Game::make(&name, &[]).unwrap();
    each_state!(game.new_state(), start => {
        let ev = Evaluator::new(&start);
        let mut scratch = Scratch::default();
        let t = Instant::now();
        let mut total2 = 0u64;
        let p = start.num_players();
        let mut rngs = vec![Rng::new(0); p];
        for i in 0..n {
            for (j, r) in rngs.iter_mut().enumerate() { *r = Rng::stream(i as u64, j as u64); }
            let st = random_game_stats(&start, &mut rngs, &ev, &mut scratch);
            total2 += st.length as u64;
        }
        let b = t.elapsed().as_secs_f64();
        println!("{name}: lab {:.1} ns/game {}", b * 1e9 / n as f64, total2);
    });
}
