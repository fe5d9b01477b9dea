//! Test helpers for code that drives the games: exhaustive minimax on small positions and
//! positions drawn near the end of random games.

use super::{Game, Rules, State};
use crate::rng::Rng;

/// `s` after the legal action `a`.
pub fn after(s: &State, a: u32) -> State {
    let mut t = s.clone();
    t.apply_unchecked(a as usize);
    t
}

/// Exhaustive minimax for two players: player 0's return under best play, or `None` past the
/// node budget.
pub fn minimax(s: &State, budget: &mut i64) -> Option<f64> {
    *budget -= 1;
    if *budget < 0 {
        return None;
    }
    let Some(p) = s.current_player() else {
        return Some(s.returns().expect("over")[0]);
    };
    let mut best: Option<f64> = None;
    for a in s.legal_actions() {
        let v = minimax(&after(s, a), budget)?;
        best = Some(match best {
            None => v,
            Some(b) if p == 0 => b.max(v),
            Some(b) => b.min(v),
        });
    }
    best
}

/// Positions near the end of random games, small enough for exhaustive minimax.
pub fn near_terminal_positions(g: &Game, games: u64, per_game: usize) -> Vec<State> {
    let mut out = Vec::new();
    for seed in 0..games {
        let mut rng = Rng::new(seed);
        let mut line = vec![g.new_state()];
        let mut buf = Vec::new();
        loop {
            let s = line.last().expect("non-empty").clone();
            let Some(a) = s.random_action(&mut rng, &mut buf) else {
                break;
            };
            line.push(after(&s, a as u32));
        }
        line.pop();
        // From the end backwards, while the tree stays small.
        let mut taken = 0;
        for s in line.iter().rev() {
            if taken == per_game {
                break;
            }
            if minimax(s, &mut 3000).is_none() {
                break;
            }
            if s.legal_actions().len() >= 2 {
                out.push(s.clone());
                taken += 1;
            }
        }
    }
    out
}
