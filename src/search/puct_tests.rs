//! Tests of PUCT: with uniform priors and rollouts it finds what UCT finds on hand-made
//! positions (those of `super::super::tests`), every simulation is counted once whatever the
//! batch, an evaluator's answers are checked, and a seed gives the same search.

use super::*;
use crate::games::testing::after;
use crate::games::OptionValue;
use crate::search::MctsConfig;

fn game(name: &str, options: &[(&str, OptionValue)]) -> Game {
    let options: Vec<(String, OptionValue)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    Game::make(name, &options).expect("valid options")
}

fn position(g: &Game, actions: &[u32]) -> State {
    let mut s = g.new_state();
    for &a in actions {
        s.apply(i64::from(a)).expect("legal action");
    }
    s
}

fn rollout(simulations: u64, batch_size: usize, seed: u64) -> PuctConfig {
    PuctConfig {
        simulations,
        batch_size,
        seed,
        dirichlet_fraction: 0.0,
        ..PuctConfig::default()
    }
}

/// An evaluator of fixed answers: uniform priors over the legal actions (or `prior` on every
/// action) and `value` for every player; it counts its calls and rows.
struct Fixed {
    prior: Option<f32>,
    value: f32,
    calls: usize,
    rows: usize,
    largest: usize,
}

impl Fixed {
    fn new(value: f32) -> Fixed {
        Fixed {
            prior: None,
            value,
            calls: 0,
            rows: 0,
            largest: 0,
        }
    }
}

impl BatchEvaluator for Fixed {
    fn evaluate(&mut self, batch: &mut Batch) -> Result<()> {
        assert_eq!(batch.observations.len(), batch.len * batch.obs_size);
        assert_eq!(batch.legal.len(), batch.len * batch.num_actions);
        self.calls += 1;
        self.rows += batch.len;
        self.largest = self.largest.max(batch.len);
        for (p, &l) in batch.priors.iter_mut().zip(&batch.legal) {
            *p = self.prior.unwrap_or(if l { 1.0 } else { 0.0 });
        }
        batch.values.fill(self.value);
        Ok(())
    }
}

// The positions of `takes_a_win_at_once` where plain UCT finds the win (Subsume's ring,
// Windflowers' pass with two and with three players).
fn wins() -> Vec<(Game, Vec<u32>, u32)> {
    vec![
        (
            game("subsume", &[("size", 3i64.into())]),
            vec![18, 8, 13, 2, 6, 11, 1, 17, 4],
            15,
        ),
        (
            game("windflowers", &[("size", 3i64.into())]),
            vec![10, 8, 3, 11, 1, 12, 9, 14],
            14,
        ),
        (
            game(
                "windflowers",
                &[("size", 3i64.into()), ("players", 3i64.into())],
            ),
            vec![3, 14, 14],
            14,
        ),
    ]
}

#[test]
fn uniform_priors_and_rollouts_take_a_win_at_once_like_uct() {
    for (g, actions, win) in wins() {
        let s = position(&g, &actions);
        for batch in [1, 8] {
            let r = puct_search(&s, &rollout(3000, batch, 1), None, None).expect("searchable");
            assert_eq!(r.best, win, "{} {actions:?} batch {batch}", g.name());
            let uct = crate::search::mcts::search(
                &s,
                &MctsConfig {
                    solver: Some(false),
                    seed: 1,
                    ..MctsConfig::with_iterations(3000)
                },
            )
            .expect("searchable");
            assert_eq!(r.best, uct.best);
            let j = r.actions.binary_search(&win).expect("legal");
            assert_eq!(r.values[j], 1.0, "a won terminal scores +1 on every visit");
            assert_eq!(r.pv[0], win);
        }
    }
}

#[test]
fn uniform_priors_and_rollouts_find_the_only_defence() {
    // `finds_the_only_defence`'s Subsume position: after any Blue move but 4, Red's reply wins.
    let g = game("subsume", &[("size", 3i64.into())]);
    let s = position(&g, &[15, 9, 16, 7, 1, 12, 3, 2, 10, 0, 6]);
    let r = puct_search(&s, &rollout(4000, 4, 2), None, None).expect("searchable");
    assert_eq!(r.best, 4);
    assert!(r.values[r.actions.binary_search(&4).expect("legal")] > r.value - 1e-9);
}

#[test]
fn visits_add_up_to_the_simulations_whatever_the_batch() {
    let g = game("subsume", &[("size", 3i64.into())]);
    let starts = [
        g.new_state(),
        position(&g, &[18, 8, 13, 2, 6, 11, 1, 17, 4]),
    ];
    for s in &starts {
        for (sims, batch) in [(1, 1), (7, 3), (100, 1), (100, 16), (257, 64), (50, 1000)] {
            let r = puct_search(s, &rollout(sims, batch, 3), None, None).expect("searchable");
            assert_eq!(
                r.visits.iter().sum::<u64>(),
                sims,
                "sims {sims} batch {batch}"
            );
            assert_eq!(r.iterations, sims);
            let mut ev = Fixed::new(0.0);
            let cfg = PuctConfig {
                rollout: false,
                ..rollout(sims, batch, 3)
            };
            let r = puct_search(s, &cfg, Some(&mut ev), None).expect("searchable");
            assert_eq!(
                r.visits.iter().sum::<u64>(),
                sims,
                "sims {sims} batch {batch}"
            );
            assert!(ev.largest <= batch);
            // The root's own evaluation, plus at most one row per simulation.
            assert!(ev.rows as u64 <= sims + 1);
            // Every virtual loss was taken back: the values are the evaluator's zeros or the
            // finished games' returns, never below -1.
            assert!(r.values.iter().all(|v| (-1.0..=1.0).contains(v)));
        }
    }
}

#[test]
fn batches_really_gather_many_leaves() {
    let g = game("windflowers", &[("size", 4i64.into())]);
    let s = g.new_state();
    let mut ev = Fixed::new(0.0);
    let cfg = PuctConfig {
        rollout: false,
        ..rollout(800, 32, 0)
    };
    puct_search(&s, &cfg, Some(&mut ev), None).expect("searchable");
    // Uniform priors and equal values spread the descents: most batches are full.
    assert!(ev.largest == 32 && ev.calls < 800 / 8, "calls {}", ev.calls);
}

#[test]
fn values_are_per_player_and_priors_steer() {
    let g = game("subsume", &[("size", 3i64.into())]);
    let s = g.new_state();
    // All weight on action 5 (illegal weights are ignored, so the mask does not matter).
    struct OnFive;
    impl BatchEvaluator for OnFive {
        fn evaluate(&mut self, batch: &mut Batch) -> Result<()> {
            let a = batch.num_actions;
            for row in batch.priors.chunks_mut(a) {
                row.fill(0.0);
                row[5] = 1.0;
            }
            batch.values.fill(0.0);
            Ok(())
        }
    }
    let cfg = PuctConfig {
        rollout: false,
        ..rollout(200, 4, 0)
    };
    let r = puct_search(&s, &cfg, Some(&mut OnFive), None).expect("searchable");
    assert_eq!(r.best, 5);
    // Values relative to the player to move at the leaf: +0.5 for the mover, -0.5 for the
    // other. A few simulations all end at the root's children (each unvisited child's Q of 0
    // beats a visited one's -0.5), leaves where the opponent moves: the root's value is -0.5
    // for its mover, whichever player that is.
    struct Sides;
    impl BatchEvaluator for Sides {
        fn evaluate(&mut self, batch: &mut Batch) -> Result<()> {
            batch.priors.fill(1.0);
            for row in batch.values.chunks_mut(2) {
                row.copy_from_slice(&[0.5, -0.5]);
            }
            Ok(())
        }
    }
    let few = PuctConfig {
        rollout: false,
        ..rollout(6, 1, 0)
    };
    let r = puct_search(&s, &few, Some(&mut Sides), None).expect("searchable");
    assert!((r.value + 0.5).abs() < 1e-12, "value {}", r.value);
    let t = after(&s, 0);
    let r = puct_search(&t, &few, Some(&mut Sides), None).expect("searchable");
    assert!((r.value + 0.5).abs() < 1e-12, "value {}", r.value);
}

#[test]
fn bad_answers_are_evaluator_errors() {
    let g = game("subsume", &[("size", 3i64.into())]);
    let s = g.new_state();
    let cfg = PuctConfig {
        rollout: false,
        ..rollout(50, 4, 0)
    };
    for (prior, value, words) in [
        (Some(f32::NAN), 0.0, "priors must be finite"),
        (Some(-1.0), 0.0, "priors must be finite and ≥ 0"),
        (None, 1.5, "values must be in [-1, 1]"),
        (None, f32::NAN, "values must be in [-1, 1]"),
    ] {
        let mut ev = Fixed::new(value);
        ev.prior = prior;
        match puct_search(&s, &cfg, Some(&mut ev), None) {
            Err(Error::Evaluator(m)) => assert!(m.contains(words), "{m}"),
            other => panic!("expected an evaluator error, got {other:?}"),
        }
    }
}

#[test]
fn settings_are_checked() {
    let bad = [
        PuctConfig {
            simulations: 0,
            ..PuctConfig::default()
        },
        PuctConfig {
            batch_size: 0,
            ..PuctConfig::default()
        },
        PuctConfig {
            c: -1.0,
            ..PuctConfig::default()
        },
        PuctConfig {
            dirichlet_alpha: 0.0,
            ..PuctConfig::default()
        },
        PuctConfig {
            dirichlet_fraction: 1.5,
            ..PuctConfig::default()
        },
        PuctConfig {
            simulations: UNLIMITED_SIMULATIONS,
            ..PuctConfig::default()
        },
        PuctConfig {
            time: Some(0.0),
            ..PuctConfig::default()
        },
        PuctConfig {
            time: Some(f64::NAN),
            ..PuctConfig::default()
        },
        PuctConfig {
            threads: 0,
            ..PuctConfig::default()
        },
        PuctConfig {
            threads: MAX_THREADS + 1,
            ..PuctConfig::default()
        },
        PuctConfig {
            threads: 4,
            max_nodes: MIN_NODES_PER_THREAD * 2,
            ..PuctConfig::default()
        },
    ];
    for cfg in bad {
        assert!(
            matches!(cfg.validate(), Err(Error::InvalidOption(_))),
            "{cfg:?}"
        );
    }
    let s = game("subsume", &[("size", 3i64.into())]).new_state();
    let no_evaluator = PuctConfig {
        rollout: false,
        ..PuctConfig::default()
    };
    assert!(puct_search(&s, &no_evaluator, None, None).is_err());
}

#[test]
fn a_seed_gives_the_same_search_and_noise_changes_it() {
    let g = game("windflowers", &[("size", 3i64.into())]);
    let s = g.new_state();
    let noisy = PuctConfig {
        dirichlet_fraction: 0.25,
        ..rollout(300, 8, 4)
    };
    let a = puct_search(&s, &noisy, None, None).expect("searchable");
    let b = puct_search(&s, &noisy, None, None).expect("searchable");
    assert_eq!(a.visits, b.visits);
    assert_eq!(a.values, b.values);
    let other = PuctConfig { seed: 5, ..noisy };
    let c = puct_search(&s, &other, None, None).expect("searchable");
    assert_ne!(a.visits, c.visits);
}

#[test]
fn dirichlet_draws_are_distributions() {
    let mut rng = Rng::new(1);
    let mut out = vec![0.0; 10];
    let mut mean = vec![0.0; 10];
    for _ in 0..2000 {
        rng.dirichlet_into(0.3, &mut out);
        assert!((out.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!(out.iter().all(|&x| x >= 0.0));
        for (m, x) in mean.iter_mut().zip(&out) {
            *m += x / 2000.0;
        }
    }
    // Each coordinate's mean is 1/10.
    assert!(mean.iter().all(|m| (m - 0.1).abs() < 0.02), "{mean:?}");
}

#[test]
fn selfplay_batches_the_leaves_of_all_games_and_matches_rollout_shapes() {
    let g = game("subsume", &[("size", 3i64.into())]);
    let cfg = PuctConfig {
        rollout: false,
        ..rollout(40, 2, 0)
    };
    let mut ev = Fixed::new(0.0);
    let games = selfplay_puct(
        &g,
        &cfg,
        Some(&mut ev),
        9,
        0,
        6,
        2,
        PlayoutCap::default(),
        false,
        None,
    )
    .expect("plays");
    assert_eq!(games.len(), 6);
    // Six games of two leaves each: twelve rows per call while all six play.
    assert_eq!(ev.largest, 12);
    let s = g.new_state();
    let (na, size) = (
        s.num_actions(),
        s.observation_planes() * s.board().num_sites(),
    );
    for sp in &games {
        let n = sp.players.len();
        assert_eq!(n, sp.actions.len());
        assert_eq!(sp.observations.len(), n * size);
        assert_eq!(sp.legal_masks.len(), n * na);
        assert_eq!(sp.policies.len(), n * na);
        assert_eq!(sp.returns.len(), 2);
        let mut t = g.new_state();
        for (k, &a) in sp.actions.iter().enumerate() {
            assert!(sp.legal_masks[k * na + a as usize]);
            t.apply(i64::from(a)).expect("legal");
        }
        assert!(t.is_terminal());
    }
    // The same run again: the same games. Rollouts in parallel or not: the same games.
    let again = selfplay_puct(
        &g,
        &cfg,
        Some(&mut Fixed::new(0.0)),
        9,
        0,
        6,
        2,
        PlayoutCap::default(),
        false,
        None,
    )
    .expect("plays");
    assert_eq!(games, again);
    let r = rollout(30, 4, 0);
    let a =
        selfplay_puct(&g, &r, None, 3, 0, 4, 2, PlayoutCap::default(), true, None).expect("plays");
    let b =
        selfplay_puct(&g, &r, None, 3, 0, 4, 2, PlayoutCap::default(), false, None).expect("plays");
    assert_eq!(a, b);
}

#[test]
fn playout_cap_searches_a_share_of_moves_in_full_and_is_a_function_of_the_seed() {
    let g = game("subsume", &[("size", 3i64.into())]);
    let cfg = PuctConfig {
        dirichlet_fraction: 0.25,
        ..rollout(40, 4, 0)
    };
    let cap = PlayoutCap {
        full_share: 0.25,
        fast_simulations: 10,
    };
    let a = selfplay_puct(&g, &cfg, None, 5, 0, 8, 2, cap, false, None).expect("plays");
    let b = selfplay_puct(&g, &cfg, None, 5, 0, 8, 2, cap, true, None).expect("plays");
    assert_eq!(a, b);
    let full: usize = a
        .iter()
        .flat_map(|s| &s.full_search)
        .filter(|&&f| f)
        .count();
    let all: usize = a.iter().map(|s| s.full_search.len()).sum();
    assert!(full > 0 && full < all, "{full} of {all} searched in full");
    let na = g.new_state().num_actions();
    for s in &a {
        assert_eq!(s.full_search.len(), s.players.len());
        assert_eq!(s.search_values.len(), s.players.len());
        assert!(s.search_values.iter().all(|v| (-1.0..=1.0).contains(v)));
        // A fast search spends its 10 simulations: visit fractions in tenths.
        for (k, &f) in s.full_search.iter().enumerate() {
            let row = &s.policies[k * na..(k + 1) * na];
            let tenths = row
                .iter()
                .all(|&p| ((p * 10.0).round() - p * 10.0).abs() < 1e-4);
            if !f {
                assert!(tenths, "fast search policy {row:?}");
            }
        }
    }
    // Every move in full (the default): the games without the cap, all flagged full.
    let plain = selfplay_puct(
        &g,
        &cfg,
        None,
        5,
        0,
        8,
        2,
        PlayoutCap::default(),
        false,
        None,
    )
    .expect("plays");
    assert!(plain.iter().all(|s| s.full_search.iter().all(|&f| f)));
    for bad in [
        PlayoutCap {
            full_share: 1.5,
            fast_simulations: 10,
        },
        PlayoutCap {
            full_share: 0.5,
            fast_simulations: 40,
        },
        PlayoutCap {
            full_share: 0.5,
            fast_simulations: 0,
        },
    ] {
        let e = selfplay_puct(&g, &cfg, None, 5, 0, 1, 0, bad, false, None).expect_err("refused");
        assert!(matches!(e, Error::InvalidOption(_)), "{e}");
    }
}

#[test]
fn a_time_budget_stops_the_search_by_the_clock() {
    let s = game("subsume", &[("size", 4i64.into())]).new_state();
    let cfg = PuctConfig {
        simulations: UNLIMITED_SIMULATIONS,
        time: Some(0.02),
        ..rollout(1, 8, 1)
    };
    let started = Instant::now();
    let r = puct_search(&s, &cfg, None, None).expect("searchable");
    // The order of magnitude only.
    assert!(started.elapsed().as_secs_f64() < 2.0);
    assert_eq!(r.stopped_by, StoppedBy::Time);
    assert!(r.iterations > 0);
    assert_eq!(r.visits.iter().sum::<u64>(), r.iterations);
    // The simulations, when they come first, stop it.
    let both = PuctConfig {
        simulations: 30,
        time: Some(60.0),
        ..cfg
    };
    let r = puct_search(&s, &both, None, None).expect("searchable");
    assert_eq!((r.stopped_by, r.iterations), (StoppedBy::Iterations, 30));
}

#[test]
fn a_time_budget_ends_a_search_of_finished_games_only() {
    // Near the end every descent may reach a finished game and add no leaf.
    let g = game("subsume", &[("size", 3i64.into())]);
    let mut s = g.new_state();
    let mut rng = Rng::new(3);
    let mut buf = Vec::new();
    while let Some(a) = s.random_action(&mut rng, &mut buf) {
        let mut next = s.clone();
        next.apply_unchecked(a);
        if next.is_terminal() {
            break;
        }
        s = next;
    }
    let cfg = PuctConfig {
        simulations: UNLIMITED_SIMULATIONS,
        time: Some(0.01),
        ..rollout(1, 4, 1)
    };
    let r = puct_search(&s, &cfg, None, None).expect("searchable");
    assert_eq!(r.stopped_by, StoppedBy::Time);
}

#[test]
fn threads_search_independent_trees_and_sum_their_visits() {
    let s = game("windflowers", &[("size", 3i64.into())]).new_state();
    let two = PuctConfig {
        threads: 2,
        ..rollout(301, 8, 4)
    };
    let a = puct_search(&s, &two, None, None).expect("searchable");
    let b = puct_search(&s, &two, None, None).expect("searchable");
    assert_eq!(a.visits.iter().sum::<u64>(), 301);
    assert_eq!(a.iterations, 301);
    assert_eq!((a.visits.clone(), a.values.clone()), (b.visits, b.values));
    let one = puct_search(&s, &rollout(301, 8, 4), None, None).expect("searchable");
    assert_ne!(one.visits, a.visits);
}

#[test]
fn threads_need_an_evaluator_that_forks() {
    let s = game("subsume", &[("size", 3i64.into())]).new_state();
    let cfg = PuctConfig {
        rollout: false,
        threads: 2,
        ..rollout(20, 4, 1)
    };
    let mut fixed = Fixed::new(0.0);
    let e = puct_search(&s, &cfg, Some(&mut fixed), None).expect_err("no fork");
    assert!(
        matches!(e, Error::InvalidOption(ref m) if m.contains("threads=2")),
        "{e}"
    );
}
