//! The solver against exhaustive minimax, across threads, budgets and bad input.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::*;
use crate::games::testing::{after, minimax, near_terminal_positions};
use crate::games::{Game, OptionValue, State};
use crate::solve::graph::{enumerate, GameGraph};

fn game(name: &str, options: &[(&str, OptionValue)]) -> Game {
    let options: Vec<(String, OptionValue)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    Game::make(name, &options).expect("valid options")
}

/// The options of every test: the game's symmetries on, as `sf.solve` has them.
fn opts(g: &Game) -> SolveOptions {
    SolveOptions {
        table_bytes: 1 << 20,
        max_moves: crate::solve::max_moves(g),
        symmetries: g.symmetries(),
        ..SolveOptions::default()
    }
}

/// Small boards of every game, with options that change the rules.
fn small_games() -> Vec<Game> {
    let mut v = vec![
        game("smallholder", &[("board", "hex3".into())]),
        game(
            "smallholder",
            &[("board", "hex232323".into()), ("ruleset", "stymie".into())],
        ),
        game(
            "smallholder",
            &[
                ("board", "hex3".into()),
                ("ruleset", "hull_setbacks".into()),
            ],
        ),
        game("subsume", &[("size", 3i64.into())]),
        game("faraday", &[("order", 3i64.into())]),
        game(
            "faraday",
            &[
                ("order", 3i64.into()),
                ("surplus_charge", true.into()),
                ("grid", "square_omni".into()),
            ],
        ),
        game(
            "faraday",
            &[("order", 3i64.into()), ("scoring", "special".into())],
        ),
    ];
    for grid in ["trisquare", "square", "hex"] {
        v.push(game(
            "windflowers",
            &[("size", 3i64.into()), ("grid", grid.into())],
        ));
    }
    v.push(game(
        "windflowers",
        &[
            ("size", 3i64.into()),
            ("scoring", "largest_group".into()),
            ("tiebreak", "cascade".into()),
            ("last_placer_breaks_ties", true.into()),
        ],
    ));
    v
}

/// The value and every root outcome equal exhaustive minimax, positions near the end of random
/// games of every game.
#[test]
fn values_equal_exhaustive_minimax() {
    let mut checked = 0;
    for g in small_games() {
        for s in near_terminal_positions(&g, 6, 3) {
            let p = s.current_player().expect("running");
            let sign = if p == 0 { 1.0 } else { -1.0 };
            let r = solve(&s, &opts(&g), None).expect("solvable");
            assert_eq!(r.stopped_by, StoppedBy::Solved);
            let mm = minimax(&s, &mut 1_000_000).expect("small") * sign;
            assert_eq!(r.value, Some(mm as i32), "{} {:?}", g.name(), s.cells());
            for (&a, o) in r.actions.iter().zip(&r.outcomes) {
                let v = minimax(&after(&s, a), &mut 1_000_000).expect("small") * sign;
                assert_eq!(*o, Some(v as i32), "{} action {a}", g.name());
            }
            let best: Vec<u32> = r
                .actions
                .iter()
                .zip(&r.outcomes)
                .filter(|(_, o)| **o == r.value)
                .map(|(&a, _)| a)
                .collect();
            assert_eq!(r.best, best);
            assert_perfect_line(&s, &r);
            checked += 1;
        }
    }
    assert!(checked > 50, "{checked}");
}

/// A solved result's line is legal, ends the game and gives the mover the value.
fn assert_perfect_line(s: &State, r: &SolveResult) {
    let p = s.current_player().expect("running");
    let mut t = s.clone();
    for &a in &r.pv {
        t.apply(i64::from(a)).expect("legal line");
    }
    assert!(t.is_terminal());
    assert_eq!(
        t.returns().expect("over")[p] as i32,
        r.value.expect("solved")
    );
}

/// The move cap is honoured: the same position with fewer moves left can have another value.
#[test]
fn truncation_is_exact() {
    for cap in 1..=5i64 {
        let g = game(
            "windflowers",
            &[("size", 3i64.into()), ("max_moves", cap.into())],
        );
        let s = g.new_state();
        let r = solve(&s, &opts(&g), None).expect("solvable");
        let mm = minimax(&s, &mut 10_000_000).expect("small");
        assert_eq!(r.value, Some(mm as i32), "cap {cap}");
    }
}

#[test]
fn any_thread_count_gives_the_same_result() {
    for g in small_games() {
        for s in near_terminal_positions(&g, 2, 2) {
            let one = solve(&s, &opts(&g), None).expect("solvable");
            let three = solve(
                &s,
                &SolveOptions {
                    threads: 3,
                    ..opts(&g)
                },
                None,
            )
            .expect("ok");
            assert_eq!(
                (&one.value, &one.outcomes, &one.best, &one.pv),
                (&three.value, &three.outcomes, &three.best, &three.pv)
            );
        }
    }
}

/// Margins: the best final score difference, checked against an exhaustive search of it.
#[test]
fn margins_equal_exhaustive_search() {
    fn best_margin(s: &State, mover: usize) -> i32 {
        match s.current_player() {
            None => {
                if s.truncated() {
                    return 0;
                }
                let sc = s.scores().expect("scores");
                (sc[mover] - sc[1 - mover]) as i32
            }
            Some(p) => {
                let vals = s
                    .legal_actions()
                    .into_iter()
                    .map(|a| best_margin(&after(s, a), mover));
                if p == mover {
                    vals.max().expect("moves")
                } else {
                    vals.min().expect("moves")
                }
            }
        }
    }
    for g in small_games().into_iter().filter(|g| g.has_scores()) {
        for s in near_terminal_positions(&g, 3, 2) {
            let m = SolveOptions {
                margin: true,
                ..opts(&g)
            };
            let r = solve(&s, &m, None).expect("solvable");
            let p = s.current_player().expect("running");
            assert_eq!(r.value, Some(best_margin(&s, p)), "{}", g.name());
        }
    }
}

#[test]
fn budgets_stop_cleanly_and_keep_what_is_proven() {
    let g = game("windflowers", &[("size", 3i64.into())]);
    let s = g.new_state();
    let few = SolveOptions {
        max_nodes: Some(5_000),
        ..opts(&g)
    };
    let r = solve(&s, &few, None).expect("runs");
    assert_eq!(r.stopped_by, StoppedBy::Nodes);
    assert!(r.outcomes.iter().any(Option::is_none));
    assert!(r.pv.is_empty());
    let stop = AtomicBool::new(true);
    let r = solve(&s, &opts(&g), Some(&stop)).expect("runs");
    assert_eq!(r.stopped_by, StoppedBy::Interrupted);
    let quick = SolveOptions {
        time: Some(Duration::from_millis(30)),
        ..opts(&g)
    };
    let r = solve(&s, &quick, None).expect("runs");
    assert!(matches!(r.stopped_by, StoppedBy::Time | StoppedBy::Solved));
}

#[test]
fn bad_input_is_refused() {
    let g = game(
        "windflowers",
        &[("size", 3i64.into()), ("players", 3i64.into())],
    );
    let err = solve(&g.new_state(), &opts(&g), None).unwrap_err();
    assert!(
        matches!(err, Error::InvalidOption(ref m) if m.contains("state_graph")),
        "{err}"
    );
    let g = game("smallholder", &[("board", "hex3".into())]);
    let mut s = g.new_state();
    let mut rng = crate::rng::Rng::new(1);
    let mut buf = Vec::new();
    while let Some(a) = s.random_action(&mut rng, &mut buf) {
        s.apply_unchecked(a);
    }
    assert!(matches!(
        solve(&s, &opts(&g), None),
        Err(Error::GameOver(_))
    ));
    let zero = SolveOptions {
        threads: 0,
        ..opts(&g)
    };
    assert!(solve(&g.new_state(), &zero, None).is_err());
}

/// Alpha-beta and the state graph's retrograde analysis agree, from positions whose whole graph
/// is small.
#[test]
fn alpha_beta_equals_retrograde_values() {
    let mut compared = 0;
    for g in small_games() {
        for s in near_terminal_positions(&g, 4, 3) {
            each_state_value(&g, &s, &mut compared);
        }
    }
    assert!(compared > 30, "{compared}");
}

fn each_state_value(g: &Game, s: &State, compared: &mut usize) {
    crate::games::each_state!(s, inner => {
        let graph = GameGraph::new(inner).expect("small board");
        let whole = enumerate(&graph, inner, Some(1_000_000), 1 << 30, None).expect("enumerates");
        if whole.cycle.is_some() {
            return;
        }
        let r = solve(inner, &opts(g), None).expect("solvable");
        // Both are the mover's.
        let mine = whole.value.map(i32::from);
        // The graph has no move cap: compare where the cap is out of reach.
        if whole.longest.is_some_and(|l| l as usize + inner.move_count() < crate::solve::max_moves(g).unwrap_or(usize::MAX)) {
            assert_eq!(r.value, mine, "{}", g.name());
            *compared += 1;
        }
    })
}

/// Every symmetry a game declares is one of its play: a random game and its image, played side
/// by side with every action mapped, have mapped boards, mapped legal actions, equal canonical
/// keys (so one table entry serves both) and the same returns.
#[test]
fn declared_symmetries_are_symmetries_of_play() {
    let mut games = small_games();
    games.push(game(
        "windflowers",
        &[("size", 3i64.into()), ("players", 3i64.into())],
    ));
    games.push(game("smallholder", &[("board", "hex232323".into())]));
    let mut checked = 0;
    for g in games {
        let perms = g.symmetries();
        let sites = g.board().num_sites();
        let players = g.num_players();
        assert_eq!(
            perms[0],
            (0..sites as u16).collect::<Vec<_>>(),
            "identity first"
        );
        let Some(y) = Symmetry::new(&perms, sites, players).expect("valid") else {
            assert_eq!(g.name(), "faraday", "only Faraday declares none");
            continue;
        };
        let map = |p: &[u16], a: u32| p.get(a as usize).map_or(a, |&t| u32::from(t));
        for (j, p) in perms.iter().enumerate() {
            let mut rng = crate::rng::Rng::new(j as u64 + 7);
            let (mut s, mut t) = (g.new_state(), g.new_state());
            let mut buf = Vec::new();
            // The images as the searches keep them, brought along move by move.
            let mut images = y.images(s.cells());
            while !s.is_terminal() && s.move_count() < 40 {
                assert_eq!(images, y.images(s.cells()), "{} kept images", g.name());
                assert_eq!(
                    y.pick(&images, s.key()),
                    y.canonical(s.cells(), s.key()),
                    "{}",
                    g.name()
                );
                for (site, &image) in p.iter().enumerate() {
                    assert_eq!(
                        s.cells()[site],
                        t.cells()[usize::from(image)],
                        "{}",
                        g.name()
                    );
                }
                assert_eq!(s.current_player(), t.current_player());
                assert_eq!(
                    y.canonical(s.cells(), s.key()).0,
                    y.canonical(t.cells(), t.key()).0
                );
                let mut mine: Vec<u32> = s.legal_actions().iter().map(|&a| map(p, a)).collect();
                mine.sort_unstable();
                assert_eq!(mine, t.legal_actions(), "{} symmetry {j}", g.name());
                let a = s.random_action(&mut rng, &mut buf).expect("running");
                let before = s.cells().to_vec();
                s.apply_unchecked(a);
                y.update(&mut images, &before, s.cells());
                t.apply_unchecked(map(p, a as u32) as usize);
            }
            assert_eq!(s.is_terminal(), t.is_terminal());
            assert_eq!(s.returns(), t.returns(), "{} symmetry {j}", g.name());
            checked += 1;
        }
    }
    assert!(checked > 40, "{checked}");
}

/// A position of a random game (seeded) with `left` moves to fill the board, `None` if the game
/// ended before.
fn random_position(g: &Game, seed: u64, left: usize) -> Option<State> {
    let mut rng = crate::rng::Rng::new(seed);
    let mut s = g.new_state();
    let mut buf = Vec::new();
    let keep = g.board().num_sites().saturating_sub(left);
    while s.move_count() < keep && !s.is_terminal() {
        let a = s.random_action(&mut rng, &mut buf).expect("running");
        s.apply_unchecked(a);
    }
    (!s.is_terminal()).then_some(s)
}

/// With and without the symmetries: the same values, outcomes and best actions, from positions
/// a few moves into random games (where images of one position meet in the search) and from
/// the empty 12-cell Smallholder board.
#[test]
fn symmetries_change_nothing_but_the_work() {
    let mut games = small_games();
    games.retain(|g| g.name() != "faraday");
    games.push(game(
        "windflowers",
        &[("size", 3i64.into()), ("max_moves", 9i64.into())],
    ));
    let mut compared = 0;
    for g in games {
        let mut positions = Vec::new();
        if g.name() == "smallholder" && g.num_actions() == 12 {
            positions.push(g.new_state());
        }
        // Far enough from the end for the search to meet images of positions, near enough to
        // stay small.
        positions.extend((0..3).filter_map(|seed| random_position(&g, seed, 7)));
        for s in positions {
            let with = solve(&s, &opts(&g), None).expect("solvable");
            let without = solve(
                &s,
                &SolveOptions {
                    symmetries: Vec::new(),
                    ..opts(&g)
                },
                None,
            )
            .expect("solvable");
            assert_eq!(with.stopped_by, StoppedBy::Solved);
            assert_eq!(
                (&with.value, &with.outcomes, &with.best),
                (&without.value, &without.outcomes, &without.best),
                "{} {:?}",
                g.name(),
                s.cells()
            );
            compared += 1;
        }
    }
    assert!(compared > 20, "{compared}");
}

#[test]
fn bad_symmetries_are_refused() {
    let g = game("subsume", &[("size", 3i64.into())]);
    let s = g.new_state();
    for perms in [
        vec![vec![1u16, 0], vec![0, 1]],
        vec![(0..19).collect(), vec![0; 19]],
        vec![(0..19).collect(); 25],
    ] {
        let err = solve(
            &s,
            &SolveOptions {
                symmetries: perms,
                ..opts(&g)
            },
            None,
        )
        .expect_err("refused");
        assert!(err.to_string().contains("permutations"), "{err}");
    }
}

/// The proof-number method's options: the same table and symmetries.
fn pns(g: &Game) -> SolveOptions {
    SolveOptions {
        method: Method::ProofNumber,
        ..opts(g)
    }
}

/// Proof-number search gives alpha-beta's results (and exhaustive minimax's) on positions near
/// the end of random games of every game and option set, with and without the symmetries,
/// and its perfect line is legal, ends the game and gives the mover the value.
#[test]
fn proof_numbers_equal_alpha_beta_and_minimax() {
    let mut checked = 0;
    for g in small_games() {
        for s in near_terminal_positions(&g, 6, 3) {
            let p = s.current_player().expect("running");
            let sign = if p == 0 { 1.0 } else { -1.0 };
            let ab = solve(&s, &opts(&g), None).expect("solvable");
            for o in [
                pns(&g),
                SolveOptions {
                    symmetries: Vec::new(),
                    ..pns(&g)
                },
            ] {
                let r = solve(&s, &o, None).expect("solvable");
                assert_eq!(r.stopped_by, StoppedBy::Solved);
                assert_eq!(
                    (&r.value, &r.outcomes, &r.best),
                    (&ab.value, &ab.outcomes, &ab.best),
                    "{} {:?}",
                    g.name(),
                    s.cells()
                );
                let mm = minimax(&s, &mut 1_000_000).expect("small") * sign;
                assert_eq!(r.value, Some(mm as i32));
                assert_perfect_line(&s, &r);
            }
            checked += 1;
        }
    }
    assert!(checked > 50, "{checked}");
}

/// Whole small boards: the Smallholder's 12-cell board under every ruleset (wins and losses)
/// and Faraday order 3 (a draw, so both questions are asked; runs of one player's placements
/// and the pie offer). A table of 64 MiB: in one of 1 MiB the proofs are lost and found again
/// many times over.
#[test]
fn proof_numbers_solve_whole_small_boards() {
    let mut games: Vec<Game> = [
        "nibbler",
        "gaps_original",
        "offshore_gaps",
        "stymie",
        "hull_setbacks",
    ]
    .iter()
    .map(|r| {
        game(
            "smallholder",
            &[("board", "hex232323".into()), ("ruleset", (*r).into())],
        )
    })
    .collect();
    games.push(game(
        "faraday",
        &[("order", 3i64.into()), ("grid", "trisquare".into())],
    ));
    for g in games {
        let s = g.new_state();
        let ab = solve(&s, &opts(&g), None).expect("solvable");
        let big = SolveOptions {
            table_bytes: 64 << 20,
            ..pns(&g)
        };
        let r = solve(&s, &big, None).expect("solvable");
        assert_eq!(
            (&r.value, &r.outcomes, &r.best, r.stopped_by),
            (&ab.value, &ab.outcomes, &ab.best, StoppedBy::Solved),
            "{:?}",
            g.options()
        );
        assert!(r.table_entries > 0 && r.table_bytes >= r.table_entries * 16);
    }
}

/// The move cap, threads, budgets and bad input, for the proof-number method.
#[test]
fn proof_numbers_honour_caps_threads_budgets_and_refuse_the_margin() {
    for cap in 1..=5i64 {
        let g = game(
            "windflowers",
            &[("size", 3i64.into()), ("max_moves", cap.into())],
        );
        let s = g.new_state();
        let r = solve(&s, &pns(&g), None).expect("solvable");
        let mm = minimax(&s, &mut 10_000_000).expect("small");
        assert_eq!(r.value, Some(mm as i32), "cap {cap}");
    }
    for g in small_games() {
        for s in near_terminal_positions(&g, 2, 2) {
            let one = solve(&s, &pns(&g), None).expect("solvable");
            let three = solve(
                &s,
                &SolveOptions {
                    threads: 3,
                    ..pns(&g)
                },
                None,
            )
            .expect("ok");
            assert_eq!(
                (&one.value, &one.outcomes, &one.best, &one.pv),
                (&three.value, &three.outcomes, &three.best, &three.pv)
            );
        }
    }
    let g = game("windflowers", &[("size", 3i64.into())]);
    let s = g.new_state();
    let few = SolveOptions {
        max_nodes: Some(5_000),
        ..pns(&g)
    };
    let r = solve(&s, &few, None).expect("runs");
    assert_eq!(r.stopped_by, StoppedBy::Nodes);
    assert!(r.outcomes.iter().any(Option::is_none) && r.pv.is_empty());
    let stop = AtomicBool::new(true);
    let r = solve(&s, &pns(&g), Some(&stop)).expect("runs");
    assert_eq!(r.stopped_by, StoppedBy::Interrupted);
    let margin = SolveOptions {
        margin: true,
        ..pns(&g)
    };
    let err = solve(&s, &margin, None).unwrap_err();
    assert!(
        matches!(err, Error::InvalidOption(ref m) if m.contains("alphabeta")),
        "{err}"
    );
    let err = Method::parse("mcts").unwrap_err();
    assert!(err.to_string().contains("alphabeta, pns"), "{err}");
    assert_eq!(Method::parse("pns").expect("known"), Method::ProofNumber);
}

/// Every move order: the same values, outcomes and best actions and a perfect line (only the
/// nodes, and which perfect line, may differ), from positions a few moves into random games of
/// every game; Auto is the search of the order the game chose, node for node. Unknown orders
/// are refused with the list.
#[test]
fn move_orders_change_nothing_but_the_work() {
    let mut compared = 0;
    for g in small_games() {
        for s in (0..2).filter_map(|seed| random_position(&g, seed, 6)) {
            let result = |order: Order| {
                solve(&s, &SolveOptions { order, ..opts(&g) }, None).expect("solvable")
            };
            let auto = result(Order::Auto);
            assert_eq!(auto.stopped_by, StoppedBy::Solved);
            let own = if s.solver_knowledge() {
                Order::Knowledge
            } else {
                Order::History
            };
            let same = result(own);
            assert_eq!(
                (&same.pv, same.nodes, same.table_entries),
                (&auto.pv, auto.nodes, auto.table_entries),
                "{} {:?}",
                g.name(),
                s.cells()
            );
            for order in [Order::Knowledge, Order::History, Order::HistoryKnowledge] {
                let r = result(order);
                assert_eq!(
                    (&r.value, &r.outcomes, &r.best),
                    (&auto.value, &auto.outcomes, &auto.best),
                    "{} {order:?} {:?}",
                    g.name(),
                    s.cells()
                );
                assert_perfect_line(&s, &r);
                compared += 1;
            }
        }
    }
    assert!(compared > 40, "{compared}");
    let err = Order::parse("random").unwrap_err();
    assert!(
        err.to_string()
            .contains("auto, knowledge, history, history-knowledge"),
        "{err}"
    );
    for name in Order::NAMES {
        assert_eq!(Order::parse(name).expect("known").name(), name);
    }
}

/// Enhanced transposition cut-offs (at every position, at positions of four actions or more,
/// or none): the same values, outcomes and best actions (and a perfect line), with and without
/// margins, from positions a few moves into random games of every game; fewer nodes in all.
#[test]
fn cutoff_probes_change_nothing_but_the_work() {
    let (mut with, mut without) = (0, 0);
    let mut compared = 0;
    for g in small_games() {
        for s in (0..2).filter_map(|seed| random_position(&g, seed, 7)) {
            for margin in [false, true] {
                let result = |cutoff_probes: usize| {
                    let o = SolveOptions {
                        cutoff_probes,
                        margin,
                        ..opts(&g)
                    };
                    solve(&s, &o, None).expect("solvable")
                };
                let none = result(0);
                assert_eq!(none.stopped_by, StoppedBy::Solved);
                without += none.nodes;
                for probes in [1, 4] {
                    let r = result(probes);
                    assert_eq!(
                        (&r.value, &r.outcomes, &r.best),
                        (&none.value, &none.outcomes, &none.best),
                        "{} probes {probes} margin {margin} {:?}",
                        g.name(),
                        s.cells()
                    );
                    if !margin {
                        assert_perfect_line(&s, &r);
                    }
                    if probes == 1 {
                        with += r.nodes;
                    }
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 40, "{compared}");
    assert!(
        with < without,
        "{with} nodes with cut-offs, {without} without"
    );
}

/// A checkpoint in a fresh directory under the system's temporary one.
fn checkpoint(name: &str, identity: &[(&str, &str)]) -> crate::solve::Checkpoint {
    let dir = std::env::temp_dir().join(format!("sf-root-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    crate::solve::Checkpoint {
        dir,
        every: Duration::from_millis(1),
        identity: identity
            .iter()
            .map(|&(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    }
}

#[test]
fn a_stopped_solve_resumes_from_its_checkpoint_with_the_same_result_and_less_work() {
    let g = game("smallholder", &[("board", "hex232323".into())]);
    let s = g.new_state();
    let straight = solve(&s, &opts(&g), None).expect("solves");
    assert_eq!(straight.stopped_by, StoppedBy::Solved);
    let c = checkpoint("resume", &[("game", "smallholder hex232323")]);
    for threads in [1, 2] {
        let _ = std::fs::remove_dir_all(&c.dir);
        let saving = SolveOptions {
            checkpoint: Some(c.clone()),
            threads,
            ..opts(&g)
        };
        let first = SolveOptions {
            max_nodes: Some(straight.nodes / 3),
            ..saving.clone()
        };
        let stopped = solve(&s, &first, None).expect("runs");
        assert_eq!(stopped.stopped_by, StoppedBy::Nodes);
        assert!(c.path().exists());
        let resumed = solve(&s, &saving, None).expect("resumes");
        assert_eq!(resumed.stopped_by, StoppedBy::Solved);
        assert_eq!(resumed.value, straight.value);
        assert_eq!(resumed.outcomes, straight.outcomes);
        assert_eq!(resumed.pv, straight.pv);
        assert!(
            resumed.nodes < straight.nodes,
            "{} resumed, {} straight",
            resumed.nodes,
            straight.nodes
        );
        // A finished run resumes to its result at once.
        let again = solve(&s, &saving, None).expect("resumes");
        assert_eq!(again.outcomes, straight.outcomes);
        assert!(again.nodes < resumed.nodes);
    }
    // Another run's identity, pns and the margin are refused; nothing is searched.
    let other = crate::solve::Checkpoint {
        identity: vec![("game".into(), "smallholder hex3".into())],
        ..c.clone()
    };
    let err = solve(
        &s,
        &SolveOptions {
            checkpoint: Some(other),
            ..opts(&g)
        },
        None,
    )
    .unwrap_err();
    assert!(
        matches!(err, Error::InvalidOption(ref m) if m.contains("another run")),
        "{err}"
    );
    for bad in [
        SolveOptions {
            method: Method::ProofNumber,
            checkpoint: Some(c.clone()),
            ..opts(&g)
        },
        SolveOptions {
            margin: true,
            checkpoint: Some(c.clone()),
            ..opts(&g)
        },
    ] {
        assert!(matches!(
            solve(&s, &bad, None),
            Err(Error::InvalidOption(_))
        ));
    }
    let _ = std::fs::remove_dir_all(&c.dir);
}

/// A guide for the tests: its favourite actions first, in order, then the others by a hash of
/// the position and the action (an order unlike any of the solver's own).
#[derive(Clone)]
struct Prefer {
    favourites: Vec<u32>,
    salt: u64,
    /// Score counts wrong on purpose (a guide that cannot answer).
    broken: bool,
}

impl<R: Rules> Guide<R> for Prefer {
    fn rank(&mut self, s: &R, actions: &[u32], scores: &mut Vec<f32>) {
        scores.clear();
        if self.broken {
            return;
        }
        scores.extend(actions.iter().map(
            |&a| match self.favourites.iter().position(|&f| f == a) {
                Some(i) => 100.0 - i as f32,
                None => {
                    let h = crate::games::zobrist::mix64(s.key() ^ u64::from(a) ^ self.salt);
                    (h % 1000) as f32 / 1000.0
                }
            },
        ));
    }

    fn fork(&self) -> Box<dyn Guide<R>> {
        Box::new(self.clone())
    }
}

fn prefer(favourites: &[u32], salt: u64) -> Prefer {
    Prefer {
        favourites: favourites.to_vec(),
        salt,
        broken: false,
    }
}

/// Any guide, at any depth, with either method: the same values, outcomes, best actions and a
/// perfect line as the solver alone; only the work differs.
#[test]
fn guides_change_nothing_but_the_work() {
    let mut compared = 0;
    for g in small_games() {
        for s in (0..2).filter_map(|seed| random_position(&g, seed, 6)) {
            let alone = solve(&s, &opts(&g), None).expect("solvable");
            assert_eq!(alone.stopped_by, StoppedBy::Solved);
            for (depth, salt, method) in [
                (0, 1, Method::AlphaBeta),
                (3, 2, Method::AlphaBeta),
                (64, 3, Method::AlphaBeta),
                (4, 4, Method::ProofNumber),
            ] {
                let o = SolveOptions {
                    guide_depth: depth,
                    method,
                    ..opts(&g)
                };
                let guide = prefer(&[], salt);
                let r = solve_guided(&s, &o, Some(&guide), None).expect("solvable");
                assert_eq!(
                    (&r.value, &r.outcomes, &r.best, r.stopped_by),
                    (&alone.value, &alone.outcomes, &alone.best, alone.stopped_by),
                    "{} depth {depth} {method:?} {:?}",
                    g.name(),
                    s.cells()
                );
                assert_perfect_line(&s, &r);
                compared += 1;
            }
            // A guide that gives no scores leaves the search as it is without one.
            let broken = Prefer {
                broken: true,
                ..prefer(&[], 0)
            };
            let o = SolveOptions {
                guide_depth: 64,
                ..opts(&g)
            };
            let r = solve_guided(&s, &o, Some(&broken), None).expect("solvable");
            assert_eq!((&r.outcomes, r.nodes), (&alone.outcomes, alone.nodes));
        }
    }
    assert!(compared > 40, "{compared}");
}

/// `value_only` stops at the first root action proven to win, taken in the guide's order;
/// a lost or drawn root is solved whole; the margin is refused; a resumed run that had proven
/// a win stops at once.
#[test]
fn value_only_stops_at_the_first_proven_win() {
    // The 12-cell nibbler board: a first-player win by actions 1, 7 and 9 only.
    let g = game("smallholder", &[("board", "hex232323".into())]);
    let s = g.new_state();
    let whole = solve(&s, &opts(&g), None).expect("solves");
    assert_eq!((whole.value, &whole.best), (Some(1), &vec![1, 7, 9]));
    let value_only = SolveOptions {
        value_only: true,
        ..opts(&g)
    };
    // In the actions' order: 0 is not a win, 1 is.
    let r = solve(&s, &value_only, None).expect("solves");
    assert_eq!(
        (r.value, &r.best, r.stopped_by),
        (Some(1), &vec![1], StoppedBy::Value)
    );
    assert_eq!(StoppedBy::Value.name(), "value");
    assert_eq!(&r.outcomes[..2], &whole.outcomes[..2]);
    assert!(
        r.outcomes[2..].iter().all(Option::is_none),
        "{:?}",
        r.outcomes
    );
    assert!(r.pv.is_empty());
    // The guide's favourite first: the one proof asked for is 7's.
    let r = solve_guided(&s, &value_only, Some(&prefer(&[7, 1], 5)), None).expect("solves");
    assert_eq!(
        (r.value, &r.best, r.stopped_by),
        (Some(1), &vec![7], StoppedBy::Value)
    );
    assert_eq!(r.outcomes.iter().flatten().count(), 1);
    // A favourite that loses is proven first, then the next.
    let r = solve_guided(&s, &value_only, Some(&prefer(&[0, 9], 5)), None).expect("solves");
    assert_eq!((r.value, &r.best), (Some(1), &vec![9]));
    assert_eq!(r.outcomes[0], whole.outcomes[0]);
    // `try_first` comes before the guide's order; bad lists are refused.
    let r = solve_guided(
        &s,
        &SolveOptions {
            try_first: vec![9],
            ..value_only.clone()
        },
        Some(&prefer(&[7, 1], 5)),
        None,
    )
    .expect("solves");
    assert_eq!((r.value, &r.best), (Some(1), &vec![9]));
    for bad in [vec![12], vec![3, 3]] {
        let err = solve(
            &s,
            &SolveOptions {
                try_first: bad,
                ..value_only.clone()
            },
            None,
        )
        .unwrap_err();
        assert!(
            matches!(err, Error::InvalidOption(ref m) if m.contains("try_first")),
            "{err}"
        );
    }
    // Two threads: the value, and only wins among the best actions.
    let r = solve(
        &s,
        &SolveOptions {
            threads: 2,
            ..value_only.clone()
        },
        None,
    )
    .expect("solves");
    assert_eq!(r.value, Some(1));
    assert!(!r.best.is_empty() && r.best.iter().all(|a| whole.best.contains(a)));
    // A lost root has no winning action to stop at: solved whole, as without value_only.
    let lost = game(
        "smallholder",
        &[("board", "hex232323".into()), ("ruleset", "stymie".into())],
    );
    let r = solve(
        &lost.new_state(),
        &SolveOptions {
            value_only: true,
            ..opts(&lost)
        },
        None,
    )
    .expect("solves");
    assert_eq!((r.value, r.stopped_by), (Some(-1), StoppedBy::Solved));
    // Proof numbers stop the same way.
    let r = solve(
        &s,
        &SolveOptions {
            method: Method::ProofNumber,
            ..value_only.clone()
        },
        None,
    )
    .expect("solves");
    assert_eq!(
        (r.value, &r.best, r.stopped_by),
        (Some(1), &vec![1], StoppedBy::Value)
    );
    // The margin needs every action.
    let err = solve(
        &s,
        &SolveOptions {
            margin: true,
            ..value_only.clone()
        },
        None,
    )
    .unwrap_err();
    assert!(
        matches!(err, Error::InvalidOption(ref m) if m.contains("value_only")),
        "{err}"
    );
    // A checkpointed value-only run, resumed: the win it proved stops it at once; without
    // value_only it goes on to the whole result.
    let c = checkpoint("value-only", &[("game", "smallholder hex232323")]);
    let saving = SolveOptions {
        checkpoint: Some(c.clone()),
        ..value_only.clone()
    };
    let first = solve(&s, &saving, None).expect("runs");
    assert_eq!(first.stopped_by, StoppedBy::Value);
    let again = solve(&s, &saving, None).expect("resumes");
    assert_eq!(
        (again.value, &again.best, again.stopped_by),
        (Some(1), &vec![1], StoppedBy::Value)
    );
    assert_eq!(again.nodes, 0);
    let rest = solve(
        &s,
        &SolveOptions {
            value_only: false,
            ..saving
        },
        None,
    )
    .expect("resumes");
    assert_eq!(
        (rest.stopped_by, &rest.outcomes),
        (StoppedBy::Solved, &whole.outcomes)
    );
    let _ = std::fs::remove_dir_all(&c.dir);
}

/// The guide's scores as ordering keys: higher first, negative numbers and infinities in
/// their places, NaN last.
#[test]
fn guide_keys_put_higher_scores_first() {
    let scores = [
        f32::INFINITY,
        2.5,
        1.0,
        0.25,
        0.0,
        -0.0,
        -1.0,
        f32::NEG_INFINITY,
    ];
    let keys: Vec<u64> = scores.iter().map(|&p| guide_key(p)).collect();
    assert!(keys.windows(2).all(|w| w[0] <= w[1]), "{keys:?}");
    assert!(keys.windows(2).filter(|w| w[0] == w[1]).count() <= 1);
    assert!(guide_key(f32::NAN) >= keys[keys.len() - 1]);
    assert!(keys.iter().all(|&k| k <= u64::from(u32::MAX)));
}

#[test]
fn a_kept_table_answers_as_fresh_ones_and_spares_the_work_of_earlier_solves() {
    use crate::solve::{solve_kept, KeptTable};
    for g in [
        game("smallholder", &[("board", "hex232323".into())]),
        game(
            "windflowers",
            &[("size", 3i64.into()), ("max_moves", 10i64.into())],
        ),
        game(
            "faraday",
            &[("grid", "hex_limping".into()), ("order", 3i64.into())],
        ),
    ] {
        let s = g.new_state();
        let o = SolveOptions {
            value_only: true,
            ..opts(&g)
        };
        // A small table that has to grow (and, on the larger boards, to replace entries).
        let mut kept = KeptTable::new(1 << 20).expect("table");
        assert_eq!(kept.entries(), 0);
        let (mut fresh_nodes, mut kept_nodes) = (0, 0);
        for (i, a) in s.legal_actions().into_iter().enumerate() {
            let mut child = s.clone();
            child.apply_unchecked(a as usize);
            if child.is_terminal() {
                continue;
            }
            let fresh = solve(&child, &o, None).expect("solves");
            let again = solve_kept(&child, &o, None, None, &mut kept).expect("solves");
            assert_eq!(again.value, fresh.value, "{} after {a}", g.name());
            assert_eq!(again.stopped_by, fresh.stopped_by);
            if i > 0 {
                fresh_nodes += fresh.nodes;
                kept_nodes += again.nodes;
            }
        }
        assert!(kept.entries() > 0 && kept.bytes() <= kept.capacity_bytes());
        assert!(
            kept_nodes < fresh_nodes,
            "{}: {kept_nodes} nodes kept, {fresh_nodes} fresh",
            g.name()
        );
        // The root solved in the table its children filled: the same answer, less work.
        let whole = solve(&s, &opts(&g), None).expect("solves");
        let after = solve_kept(&s, &opts(&g), None, None, &mut kept).expect("solves");
        assert_eq!(
            (after.value, &after.outcomes, &after.pv),
            (whole.value, &whole.outcomes, &whole.pv)
        );
        assert!(after.nodes < whole.nodes);
        // What a kept table cannot hold is refused.
        for bad in [
            SolveOptions {
                method: Method::ProofNumber,
                ..opts(&g)
            },
            SolveOptions {
                margin: true,
                ..opts(&g)
            },
        ] {
            assert!(matches!(
                solve_kept(&s, &bad, None, None, &mut kept),
                Err(Error::InvalidOption(_))
            ));
        }
    }
}
