//! Fingerprints of many MCTS searches, one line each (the best move, nodes, root visits, the
//! bits of the root values, the principal variation), so that two builds can be compared for
//! identical decisions: `cargo run --release --example grave_check > after.txt`, the same on the
//! earlier commit, then `cmp`. It covers every game's default (and three-player Windflowers)
//! after 0, 3 and 8 random moves, four seeds, and UCT, GRAVE (c = 0, √2, and grave_ref 5 with a
//! bias), the strong preset (one and two threads), UCT with MAST and GRAVE without the solver,
//! 3,000 iterations each.
use stonefield::games::{OptionValue, Rules, GAME_NAMES};
use stonefield::rng::Rng;
use stonefield::search::mcts::search;
use stonefield::search::{MctsConfig, Playouts, Preset, Selection};
use stonefield::Game;

fn main() {
    let mut games: Vec<(String, Vec<(String, OptionValue)>)> =
        GAME_NAMES.iter().map(|n| (n.to_string(), vec![])).collect();
    games.push((
        "windflowers".into(),
        vec![("players".into(), OptionValue::Int(3))],
    ));
    for (name, opts) in &games {
        let game = Game::make(name, opts).expect("game");
        for moves in [0usize, 3, 8] {
            let mut state = game.new_state();
            let mut rng = Rng::new(11 + moves as u64);
            let mut buf = Vec::new();
            for _ in 0..moves {
                if let Some(a) = state.random_action(&mut rng, &mut buf) {
                    state.apply_unchecked(a);
                }
            }
            if state.is_terminal() {
                continue;
            }
            for seed in 0..4u64 {
                let base = MctsConfig {
                    seed,
                    ..MctsConfig::with_iterations(3000)
                };
                let cfgs: Vec<(&str, MctsConfig)> = vec![
                    ("uct", base.clone()),
                    (
                        "grave0",
                        MctsConfig {
                            selection: Selection::Grave,
                            c: 0.0,
                            ..base.clone()
                        },
                    ),
                    (
                        "grave_sqrt2",
                        MctsConfig {
                            selection: Selection::Grave,
                            ..base.clone()
                        },
                    ),
                    (
                        "grave_ref5_b",
                        MctsConfig {
                            selection: Selection::Grave,
                            c: 0.2,
                            grave_ref: 5,
                            grave_bias: 0.01,
                            ..base.clone()
                        },
                    ),
                    (
                        "strong",
                        MctsConfig {
                            preset: Some(Preset::Strong),
                            ..base.clone()
                        },
                    ),
                    (
                        "uct_mast",
                        MctsConfig {
                            playouts: Playouts::Mast,
                            ..base.clone()
                        },
                    ),
                    (
                        "strong_t2",
                        MctsConfig {
                            preset: Some(Preset::Strong),
                            threads: 2,
                            ..base.clone()
                        },
                    ),
                    (
                        "grave0_nosolver",
                        MctsConfig {
                            selection: Selection::Grave,
                            c: 0.0,
                            solver: Some(false),
                            ..base.clone()
                        },
                    ),
                ];
                for (label, cfg) in cfgs {
                    let r = search(&state, &cfg).expect("search");
                    let vals: Vec<String> = r
                        .values
                        .iter()
                        .map(|v| format!("{:x}", v.to_bits()))
                        .collect();
                    println!(
                        "{name}{opts:?} m{moves} s{seed} {label}: best {} nodes {} it {} proven {:?} visits {:?} values {} pv {:?}",
                        r.best, r.nodes, r.iterations, r.proven, r.visits, vals.join(","), r.pv
                    );
                }
            }
        }
    }
}
