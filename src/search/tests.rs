//! Tests of the search layer: hand-made positions where one move wins or defends, the solver
//! against exhaustive minimax, determinism, threads, limits and the match runner.
//!
//! Positions are reached by playing actions from the start on small boards. Board pictures use
//! the hex layout of `stonefield.text.board_text`, each row starting with its first site index:
//!
//! ```text
//! 16   .  .  .          size-3 hexagon (19 sites): rows 0-2, 3-6, 7-11, 12-15, 16-18;
//! 12  .  .  .  .        the perimeter is 0 1 2 3 6 7 11 12 15 16 17 18
//!  7 .  .  .  .  .
//!  3  .  .  .  .
//!  0   .  .  .
//! ```

use super::mcts::{
    search, time_to_decide, Mcts, MctsConfig, Playouts, Preset, Selection, StoppedBy, AMAF_BYTES,
    FORCED_TIME_SHARE, NODE_BYTES,
};
use super::play::{play_range, selfplay_games, Agent};
use crate::error::Error;
use crate::games::testing::{after, minimax, near_terminal_positions};
use crate::games::{Game, Knowledge, OptionValue, Rules, State};
use crate::rng::Rng;

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

/// The moves that end the game at once with the mover ranked first alone.
fn immediate_wins(s: &State) -> Vec<u32> {
    let p = s.current_player().expect("running");
    s.legal_actions()
        .into_iter()
        .filter(|&a| {
            let t = after(s, a);
            t.returns()
                .is_some_and(|r| r[p] > 0.0 && r.iter().filter(|&&x| x >= r[p]).count() == 1)
        })
        .collect()
}

/// The mover's minimax value of each legal action.
fn action_values(s: &State, budget: i64) -> Vec<(u32, f64)> {
    let p = s.current_player().expect("running");
    let mut budget = budget;
    s.legal_actions()
        .into_iter()
        .map(|a| {
            let v = minimax(&after(s, a), &mut budget).expect("small enough to solve");
            (a, if p == 0 { v } else { -v })
        })
        .collect()
}

fn mcts(iterations: u64, seed: u64) -> MctsConfig {
    MctsConfig {
        seed,
        ..MctsConfig::with_iterations(iterations)
    }
}

#[test]
fn a_node_is_24_bytes() {
    assert_eq!(NODE_BYTES, 24);
}

#[test]
fn takes_a_win_at_once() {
    // (game, actions, the winning move, whether plain UCT without the solver must find it too)
    let cases: Vec<(Game, Vec<u32>, u32, bool)> = vec![
        // Smallholder, hex3, Black (X) to move. White's stones 0, 4, 9, 10 and 13 form one
        // group, which is playable, so under the nibbler rules (one playable group: create
        // only) White may only start a new group, on an empty cell touching no White stone.
        // Of the nine empty cells only 2 is such a cell (1, 3, 6, 8, 12, 14, 15 and 17 all
        // touch the group), so Black's 2 leaves White no placement and White loses.
        //   16   X . X
        //   12  . O . .
        //    7 X . O O X
        //    3  . O X .
        //    0   O . .
        // White is so short of placements that every random playout from here is won by
        // Black, whatever Black plays: plain UCT sees every move at +1, and only the solver
        // tells the win now from the later ones.
        (
            game("smallholder", &[("board", "hex3".into())]),
            vec![16, 13, 7, 4, 5, 0, 11, 10, 18, 9],
            2,
            false,
        ),
        // Subsume, size 3, Blue (O) to move. Blue's 15 closes the ten-stone ring
        // 15-18-17-13-8-4-1-2-6-11 around 5, 9, 10 and 14. Blue owns five of its ten stones
        // (8, 2, 11, 17 and 15): at least half, so the whole ring turns Blue, and seven of its
        // cells (1, 2, 6, 11, 15, 17, 18) are on the 12-cell perimeter, more than half of it:
        // Blue wins. No other placement closes a ring.
        //   16   . O X
        //   12  . X . .
        //    7 . O . . O
        //    3  . X . X
        //    0   . X O
        (
            game("subsume", &[("size", 3i64.into())]),
            vec![18, 8, 13, 2, 6, 11, 1, 17, 4],
            15,
            true,
        ),
        // Windflowers, trisquare 3 (14 sites, action 14 passes), two players. Every action was
        // a placement on an empty site (no site repeats), so player 0 has 4 stones (10, 3, 1,
        // 9) and player 1 has 3 (8, 11, 12); player 1 just passed, so player 0's pass ends
        // the game 4 to 3 in stones: the only move that wins at once.
        (
            game("windflowers", &[("size", 3i64.into())]),
            vec![10, 8, 3, 11, 1, 12, 9, 14],
            14,
            true,
        ),
        // Windflowers, three players: player 0 has the only stone and players 1 and 2 passed,
        // so player 0's pass ends the game with player 0 first. The search must back up the
        // whole returns vector: scored as a two-player game it would not see this.
        (
            game(
                "windflowers",
                &[("size", 3i64.into()), ("players", 3i64.into())],
            ),
            vec![3, 14, 14],
            14,
            true,
        ),
    ];
    for (g, actions, win, plain) in cases {
        let s = position(&g, &actions);
        assert_eq!(immediate_wins(&s), vec![win], "{} {actions:?}", g.name());
        let settings: &[Option<bool>] = if plain { &[None, Some(false)] } else { &[None] };
        for &solver in settings {
            let cfg = MctsConfig {
                solver,
                ..mcts(3000, 1)
            };
            let r = search(&s, &cfg).expect("searchable");
            assert_eq!(r.best, win, "{} {actions:?} solver {solver:?}", g.name());
            let j = r.actions.binary_search(&win).expect("legal");
            // Each visit of a winning terminal child scores exactly +1 for its mover.
            assert_eq!(r.values[j], 1.0, "{}", g.name());
            if g.num_players() == 2 && solver.is_none() {
                assert_eq!(r.proven, Some(1));
                assert_eq!(r.stopped_by, StoppedBy::Proven);
            } else {
                assert_eq!(r.proven, None);
            }
        }
    }
}

#[test]
fn finds_the_only_defence() {
    let cases: Vec<(Game, Vec<u32>, u32)> = vec![
        // Smallholder, hex3, White (O) to move with six placements. After 1, 4, 6, 8 or 12
        // Black can place on 6 or 10 (only 10 after 6) and leave White no placement; after
        // White's 10, Black's one placement is 6, and White can still answer it.
        //   16   X O O
        //   12  . X X O
        //    7 O . X . X
        //    3  O . X .
        //    0   O . X
        (
            game("smallholder", &[("board", "hex3".into())]),
            vec![2, 15, 14, 7, 9, 0, 16, 17, 5, 3, 13, 18, 11],
            10,
        ),
        // Subsume, size 3, Blue (O) to move with six placements. After 5, 11, 14, 17 or 18
        // Red's 13 closes a winning Red ring (after some of them 14, 17 or 18 do too); after
        // Blue's 4 no Red placement wins at once (all checked below).
        //   16   X . .
        //   12  O . . X
        //    7 O . O X .
        //    3  X . . X
        //    0   O X O
        (
            game("subsume", &[("size", 3i64.into())]),
            vec![15, 9, 16, 7, 1, 12, 3, 2, 10, 0, 6],
            4,
        ),
    ];
    for (g, actions, defence) in cases {
        let s = position(&g, &actions);
        let p = s.current_player().expect("running");
        assert!(immediate_wins(&s).is_empty());
        for a in s.legal_actions() {
            let t = after(&s, a);
            let q = t.current_player().expect("game goes on");
            assert_ne!(q, p);
            let loses = !immediate_wins(&t).is_empty();
            assert_eq!(loses, a != defence, "{} action {a}", g.name());
        }
        let r = search(&s, &mcts(4000, 2)).expect("searchable");
        assert_eq!(r.best, defence, "{} {actions:?}", g.name());
        // Every other move is proven lost (the opponent's reply wins at once).
        for (j, &a) in r.actions.iter().enumerate() {
            if a != defence && r.visits[j] > 0 {
                assert!(r.values[j] < 0.0, "{} action {a}", g.name());
            }
        }
    }
}

#[test]
fn keeps_the_won_ending() {
    let cases: Vec<(Game, Vec<u32>, Vec<u32>)> = vec![
        // Windflowers trisquare 3, player 1 to move with 4 choices: only 8 keeps a won game
        // (exhaustive search below), the others let player 0 win with best play.
        (
            game("windflowers", &[("size", 3i64.into())]),
            vec![10, 9, 5, 1, 12, 6, 0, 13, 2, 11, 9, 5, 7],
            vec![8],
        ),
        // Faraday hex order 3 (19 sites: 38 passes in the offer, 39 accepts it). Player 0
        // offered a pass, a player-0 stone on 2 and a player-1 stone on 11 (action 30);
        // player 1 accepted and moved first. Turns are runs of placements (player 1: 5;
        // player 0: 15, 4, 6; player 1: 3, 18, 1; player 0: 17, 7, 0), so a node's mover is
        // not always the other player. Player 1 now starts a run with 5 choices at 2 to 2 in
        // largest groups: only 13 keeps a won game.
        (
            game("faraday", &[("order", 3i64.into())]),
            vec![38, 2, 30, 39, 5, 15, 4, 6, 3, 18, 1, 17, 7, 0],
            vec![13],
        ),
        // Faraday again: offer stones for player 1 on 11 and 15 and for player 0 on 6,
        // accepted; runs 5 / 4, 14, 10 / 3, 13, 9. Player 0 starts a run with 4 placements
        // at 3 to 3: only 12 wins.
        (
            game("faraday", &[("order", 3i64.into())]),
            vec![30, 6, 34, 39, 5, 4, 14, 10, 3, 13, 9],
            vec![12],
        ),
        // Smallholder hex3, White to move: 4 and 9 win, the other four placements lose.
        (
            game("smallholder", &[("board", "hex3".into())]),
            vec![5, 12, 3, 0, 10, 14, 13, 1, 18, 16, 17, 15, 8],
            vec![4, 9],
        ),
    ];
    for (g, actions, keep) in cases {
        let s = position(&g, &actions);
        let values = action_values(&s, 200_000);
        let winning: Vec<u32> = values
            .iter()
            .filter(|(_, v)| *v > 0.0)
            .map(|&(a, _)| a)
            .collect();
        assert_eq!(winning, keep, "{} {actions:?}: {values:?}", g.name());
        let r = search(&s, &mcts(20_000, 3)).expect("searchable");
        assert!(keep.contains(&r.best), "{} {actions:?}", g.name());
        assert_eq!(r.proven, Some(1), "{} {actions:?}", g.name());
    }
}

#[test]
fn solver_proves_the_minimax_value() {
    let games = [
        game("smallholder", &[("board", "hex3".into())]),
        game("subsume", &[("size", 3i64.into())]),
        game("windflowers", &[("size", 3i64.into())]),
        game("faraday", &[("order", 3i64.into())]),
    ];
    for g in &games {
        let positions = near_terminal_positions(g, 6, 3);
        assert!(positions.len() >= 6, "{}", g.name());
        for s in positions {
            let p = s.current_player().expect("running");
            let v0 = minimax(&s, &mut 3000).expect("solvable");
            let v = if p == 0 { v0 } else { -v0 };
            let r = search(&s, &mcts(50_000, 4)).expect("searchable");
            let expected = if v > 0.0 {
                1
            } else if v < 0.0 {
                -1
            } else {
                0
            };
            assert_eq!(r.proven, Some(expected), "{} {:?}", g.name(), s.cells());
            assert_eq!(r.stopped_by, StoppedBy::Proven);
            // The move played keeps the proven value.
            let best = action_values(&s, 3000)
                .into_iter()
                .find(|&(a, _)| a == r.best)
                .expect("legal")
                .1;
            assert_eq!(best, v, "{} {:?}", g.name(), s.cells());
            let off = MctsConfig {
                solver: Some(false),
                ..mcts(2000, 4)
            };
            assert_eq!(search(&s, &off).expect("searchable").proven, None);
        }
    }
}

fn same_search(a: &super::SearchResult, b: &super::SearchResult) -> bool {
    let mut b = b.clone();
    b.seconds = a.seconds;
    *a == b
}

#[test]
fn same_seed_same_search() {
    for name in crate::games::GAME_NAMES {
        let g = game(name, &[]);
        let mut s = g.new_state();
        let mut rng = Rng::new(9);
        for _ in 0..6 {
            let a = s.random_action(&mut rng, &mut Vec::new()).expect("running");
            s.apply_unchecked(a);
        }
        for threads in [1, 2] {
            let cfg = MctsConfig {
                threads,
                ..mcts(600, 11)
            };
            let a = search(&s, &cfg).expect("searchable");
            let b = search(&s, &cfg).expect("searchable");
            assert!(same_search(&a, &b), "{name} threads {threads}");
            assert_eq!(a.iterations, 600);
            assert_eq!(a.visits.iter().sum::<u64>(), 600);
            assert_eq!(a.pv[0], a.best);
            let policy: f64 = a.policy().iter().sum();
            assert!((policy - 1.0).abs() < 1e-9);
        }
    }
}

#[test]
fn the_node_limit_stops_the_search() {
    let g = game("subsume", &[]);
    let s = g.new_state();
    let cfg = MctsConfig {
        max_nodes: 2048,
        threads: 2,
        ..mcts(100_000, 0)
    };
    let r = search(&s, &cfg).expect("searchable");
    assert_eq!(r.stopped_by, StoppedBy::Nodes);
    assert!(r.nodes <= 2048, "{}", r.nodes);
    assert!(r.iterations < 100_000);
    assert!(r.iterations > 0);
}

#[test]
fn a_time_budget_alone_stops_by_time() {
    let g = game("windflowers", &[]);
    let cfg = MctsConfig {
        iterations: None,
        time: Some(0.02),
        ..MctsConfig::default()
    };
    let r = search(&g.new_state(), &cfg).expect("searchable");
    assert_eq!(r.stopped_by, StoppedBy::Time);
    assert!(r.iterations > 0);
}

/// The first position of a seeded random Faraday game where the mover has one legal action.
fn forced_position() -> State {
    let g = game("faraday", &[("order", OptionValue::Int(4))]);
    let mut buf = Vec::new();
    for seed in 0.. {
        let mut rng = Rng::new(seed);
        let mut s = g.new_state();
        while !s.is_terminal() {
            if s.legal_actions().len() == 1 {
                return s;
            }
            let a = s.random_action(&mut rng, &mut buf).expect("not over");
            s.apply_unchecked(a);
        }
    }
    unreachable!("some random game has a forced move")
}

#[test]
fn a_forced_move_is_decided_in_a_share_of_the_time() {
    assert_eq!(time_to_decide(Some(2.0), 1), Some(2.0 * FORCED_TIME_SHARE));
    assert_eq!(time_to_decide(Some(2.0), 2), Some(2.0));
    assert_eq!(time_to_decide(None, 1), None);
    let forced = forced_position();
    let only = forced.legal_actions()[0];
    let by_time = MctsConfig {
        iterations: None,
        time: Some(0.05),
        ..MctsConfig::default()
    };
    let r = Mcts::new(by_time)
        .expect("valid")
        .decide(&forced, &[], None)
        .expect("searchable");
    assert_eq!(r.best, only);
    assert!(matches!(r.stopped_by, StoppedBy::Time | StoppedBy::Proven));
    assert!(r.value.is_finite());
    // An iteration budget is spent in full: deciding is searching, result for result.
    let g = game("faraday", &[("order", OptionValue::Int(4))]);
    for s in [forced, g.new_state()] {
        let cfg = mcts(300, 7);
        let decided = Mcts::new(cfg.clone())
            .expect("valid")
            .decide(&s, &[], None)
            .expect("searchable");
        let searched = Mcts::new(cfg)
            .expect("valid")
            .search_until(&s, &[], None)
            .expect("searchable");
        assert_eq!(
            (decided.best, &decided.visits, decided.iterations),
            (searched.best, &searched.visits, searched.iterations)
        );
    }
}

#[test]
fn bad_settings_and_finished_games_are_refused() {
    let bad = [
        MctsConfig {
            iterations: None,
            ..MctsConfig::default()
        },
        MctsConfig::with_iterations(0),
        MctsConfig {
            c: -1.0,
            ..MctsConfig::default()
        },
        MctsConfig {
            c: f64::NAN,
            ..MctsConfig::default()
        },
        MctsConfig {
            time: Some(-0.5),
            ..MctsConfig::default()
        },
        MctsConfig {
            time: Some(f64::NAN),
            ..MctsConfig::default()
        },
        MctsConfig {
            threads: 0,
            ..MctsConfig::default()
        },
        MctsConfig {
            threads: 10_000,
            ..MctsConfig::default()
        },
        MctsConfig {
            max_nodes: 100,
            ..MctsConfig::default()
        },
    ];
    for cfg in bad {
        assert!(
            matches!(Mcts::new(cfg.clone()), Err(Error::InvalidOption(_))),
            "{cfg:?}"
        );
    }
    let g = game("subsume", &[("size", 3i64.into())]);
    let mut s = g.new_state();
    let mut rng = Rng::new(1);
    while let Some(a) = s.random_action(&mut rng, &mut Vec::new()) {
        s.apply_unchecked(a);
    }
    assert!(matches!(
        search(&s, &MctsConfig::default()),
        Err(Error::GameOver(_))
    ));
}

#[test]
fn reuse_keeps_the_subtree_of_the_position_reached() {
    let g = game("windflowers", &[]);
    let cfg = MctsConfig {
        reuse: true,
        ..mcts(2000, 5)
    };
    let mut agent = Mcts::new(cfg.clone()).expect("valid");
    let mut s = g.new_state();
    let mut history = Vec::new();
    let first = agent.search(&s, &history).expect("searchable");
    // Play the principal variation's first two moves: the tree holds that path.
    for &a in &first.pv[..2] {
        s.apply_unchecked(a as usize);
        history.push(a);
    }
    let second = agent.search(&s, &history).expect("searchable");
    assert_eq!(second.iterations, 2000);
    assert!(second.visits.iter().sum::<u64>() > 2000);
    // Without reuse the same call starts afresh and equals a plain search.
    let fresh = search(&s, &mcts(2000, 5)).expect("searchable");
    assert_eq!(fresh.visits.iter().sum::<u64>(), 2000);
    // A position from another line is searched from scratch.
    let other = agent.search(&g.new_state(), &[]).expect("searchable");
    assert_eq!(other.visits.iter().sum::<u64>(), 2000);
}

#[test]
fn match_results_do_not_depend_on_threads() {
    let g = game("subsume", &[("size", 3i64.into())]);
    let agents = [
        Agent::Mcts(mcts(60, 1)),
        Agent::Random { seed: 2 },
        Agent::Mcts(MctsConfig {
            threads: 2,
            ..mcts(40, 3)
        }),
    ];
    let seats: Vec<usize> = vec![0, 1, 1, 0, 2, 0, 0, 2, 1, 2, 2, 1];
    let one = play_range(&g, &agents, &seats, 7, 0, false).expect("valid");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("pool");
    let two = pool
        .install(|| play_range(&g, &agents, &seats, 7, 0, true))
        .expect("valid");
    assert_eq!(one.len(), 6);
    for (a, b) in one.iter().zip(&two) {
        assert_eq!(a.actions, b.actions);
        assert_eq!(a.returns, b.returns);
        assert_eq!(a.movers, b.movers);
        // NaN-aware: random seats record NaN values.
        let va: Vec<u32> = a.values.iter().map(|v| v.to_bits()).collect();
        let vb: Vec<u32> = b.values.iter().map(|v| v.to_bits()).collect();
        assert_eq!(va, vb);
    }
    // Games 3..6 alone are games 3..6 of the whole run.
    let tail = play_range(&g, &agents, &seats[6..], 7, 3, false).expect("valid");
    assert_eq!(tail[0].actions, one[3].actions);
    for (r, seating) in one.iter().zip(seats.chunks(2)) {
        let s = position(&g, &r.actions);
        assert!(s.is_terminal());
        assert_eq!(r.returns, s.returns().expect("over"));
        for (k, &m) in r.movers.iter().enumerate() {
            let searched = !r.values[k].is_nan();
            assert_eq!(searched, seating[m as usize] != 1);
        }
    }
    // A search agent beats random play from either seat in these games.
    let mcts_seat = |r: &super::GameRecord, seating: &[usize]| {
        seating.iter().position(|&a| a == 0).map(|j| r.returns[j])
    };
    for (r, seating) in one.iter().zip(seats.chunks(2)) {
        if seating.contains(&1) {
            if let Some(v) = mcts_seat(r, seating) {
                assert!(v >= 0.0, "{seating:?} {:?}", r.returns);
            }
        }
    }
}

#[test]
fn selfplay_is_consistent_and_reproducible() {
    let g = game("subsume", &[("size", 3i64.into())]);
    let cfg = mcts(50, 0);
    let a = selfplay_games(&g, &cfg, 4, 0, 3, 3, false, None).expect("valid");
    let b = selfplay_games(&g, &cfg, 4, 0, 3, 3, false, None).expect("valid");
    assert_eq!(a, b);
    let s = g.new_state();
    let size = s.observation_planes() * s.board().num_sites();
    for game in &a {
        let n = game.players.len();
        assert_eq!(game.actions.len(), n);
        assert_eq!(game.observations.len(), n * size);
        assert_eq!(game.policies.len(), n * s.num_actions());
        let end = position(&g, &game.actions);
        assert_eq!(game.returns, end.returns().expect("over"));
        for (k, row) in game.policies.chunks(s.num_actions()).enumerate() {
            let total: f32 = row.iter().sum();
            assert!((total - 1.0).abs() < 1e-4);
            // The action played was visited.
            assert!(row[game.actions[k] as usize] > 0.0);
        }
    }
}

#[test]
fn three_players_score_each_node_for_its_mover() {
    // Windflowers trisquare 3 with three players: player 0 placed on 3, player 1 passed, and
    // player 2 is to move. If player 2 passes too, player 0 passes and ends the game alone in
    // first place (ranks 1, 2.5, 2.5: returns +1, −0.5, −0.5), so passing is player 2's worst
    // move, while any placement keeps the game going. A node's value is the mean return of the
    // player who moved into it: the pass must look bad to player 2, though it leads to a node
    // where the player to move (player 0) is winning.
    let g = game(
        "windflowers",
        &[("size", 3i64.into()), ("players", 3i64.into())],
    );
    let s = position(&g, &[3, 14]);
    assert_eq!(s.current_player(), Some(2));
    let end = position(&g, &[3, 14, 14, 14]);
    assert_eq!(end.returns(), Some(vec![1.0, -0.5, -0.5]));
    let r = search(&s, &mcts(3000, 1)).expect("searchable");
    let pass = r.actions.binary_search(&14).expect("pass is legal");
    assert_ne!(r.best, 14);
    assert!(r.values[pass] < -0.25, "{:?}", r.values);
    let fewest = r.visits.iter().min().expect("actions");
    assert_eq!(r.visits[pass], *fewest, "{:?}", r.visits);
    assert_eq!(r.proven, None);
}

#[test]
fn a_stop_flag_ends_the_search() {
    let g = game("windflowers", &[]);
    let stop = std::sync::atomic::AtomicBool::new(true);
    let cfg = MctsConfig {
        iterations: None,
        time: Some(60.0),
        threads: 2,
        ..MctsConfig::default()
    };
    let mut agent = Mcts::new(cfg).expect("valid");
    let r = agent
        .search_until(&g.new_state(), &[], Some(&stop))
        .expect("searchable");
    assert_eq!(r.stopped_by, StoppedBy::Interrupted);
    assert_eq!(r.iterations, 0);
}

fn grave(iterations: u64, seed: u64) -> MctsConfig {
    MctsConfig {
        selection: Selection::Grave,
        ..mcts(iterations, seed)
    }
}

/// A position a few random moves in, for `name` with its default options (and the players).
fn opening(name: &str, players: Option<i64>, moves: usize, seed: u64) -> State {
    let g = match players {
        Some(p) => game(name, &[("players", p.into())]),
        None => game(name, &[]),
    };
    let mut s = g.new_state();
    let mut rng = Rng::new(seed);
    for _ in 0..moves {
        if let Some(a) = s.random_action(&mut rng, &mut Vec::new()) {
            s.apply_unchecked(a);
        }
    }
    s
}

#[test]
fn amaf_statistics_take_8_bytes_a_node() {
    assert_eq!(AMAF_BYTES, 8);
}

#[test]
fn grave_without_a_reference_searches_exactly_as_uct() {
    // With an infinite grave_ref no node is ever a reference: GRAVE records its playouts and
    // keeps AMAF statistics, but every choice is UCT's, drawing the same random numbers.
    for name in crate::games::GAME_NAMES {
        for moves in [0, 5] {
            let s = opening(name, None, moves, 3);
            let uct = search(&s, &mcts(1500, 4)).expect("searchable");
            let cfg = MctsConfig {
                grave_ref: u32::MAX,
                ..grave(1500, 4)
            };
            let g = search(&s, &cfg).expect("searchable");
            assert!(same_search(&uct, &g), "{name} after {moves} moves");
        }
    }
    let s = opening("windflowers", Some(3), 4, 1);
    let uct = search(&s, &mcts(800, 2)).expect("searchable");
    let g = search(
        &s,
        &MctsConfig {
            grave_ref: u32::MAX,
            ..grave(800, 2)
        },
    )
    .expect("searchable");
    assert!(same_search(&uct, &g), "three players");
}

#[test]
fn grave_and_mast_are_reproducible_for_any_thread_count() {
    for name in crate::games::GAME_NAMES {
        let s = opening(name, None, 4, 8);
        for playouts in [Playouts::Random, Playouts::Mast, Playouts::Knowledge] {
            for selection in [Selection::Uct, Selection::Grave] {
                for threads in [1, 2, 3] {
                    let cfg = MctsConfig {
                        threads,
                        selection,
                        playouts,
                        ..mcts(900, 6)
                    };
                    let a = search(&s, &cfg).expect("searchable");
                    let b = search(&s, &cfg).expect("searchable");
                    let what = format!("{name} {selection:?} {playouts:?} threads {threads}");
                    assert!(same_search(&a, &b), "{what}");
                    assert_eq!(a.iterations, 900, "{what}");
                    assert_eq!(a.visits.iter().sum::<u64>(), 900, "{what}");
                }
            }
        }
    }
}

#[test]
fn grave_reuses_its_tree_with_the_amaf_statistics() {
    let g = game("smallholder", &[]);
    let cfg = MctsConfig {
        reuse: true,
        ..grave(1500, 5)
    };
    let mut agent = Mcts::new(cfg).expect("valid");
    let mut s = g.new_state();
    let first = agent.search(&s, &[]).expect("searchable");
    for &a in &first.pv[..2] {
        s.apply_unchecked(a as usize);
    }
    let second = agent.search(&s, &first.pv[..2]).expect("searchable");
    assert!(second.visits.iter().sum::<u64>() > 1500);
    assert!(s.is_legal(second.best as usize));
}

#[test]
fn grave_and_mast_take_wins_and_find_defences_like_uct() {
    // The MCTS-Solver works whatever the selection: a won position is proven and its win
    // played, in every game (the hand-made positions of `takes_a_win_at_once`).
    let g = game("smallholder", &[("board", "hex3".into())]);
    let s = position(&g, &[16, 13, 7, 4, 5, 0, 11, 10, 18, 9]);
    for playouts in [Playouts::Random, Playouts::Mast, Playouts::Knowledge] {
        let cfg = MctsConfig {
            playouts,
            ..grave(3000, 1)
        };
        let r = search(&s, &cfg).expect("searchable");
        assert_eq!(r.best, 2, "{playouts:?}");
        assert_eq!(r.proven, Some(1), "{playouts:?}");
    }
}

#[test]
fn bad_grave_settings_are_refused() {
    for (cfg, needle) in [
        (
            MctsConfig {
                grave_ref: 0,
                ..grave(10, 0)
            },
            "grave_ref",
        ),
        (
            MctsConfig {
                grave_bias: -1.0,
                ..grave(10, 0)
            },
            "grave_bias",
        ),
        (
            MctsConfig {
                grave_bias: f64::NAN,
                ..grave(10, 0)
            },
            "grave_bias",
        ),
    ] {
        match Mcts::new(cfg) {
            Err(Error::InvalidOption(m)) => assert!(m.contains(needle), "{m}"),
            other => panic!("expected InvalidOption for {needle}, got {other:?}"),
        }
    }
    for (name, what) in [
        (Selection::from_name("rave").map(|_| ()), "uct, grave"),
        (
            Playouts::from_name("nst").map(|_| ()),
            "random, mast, knowledge",
        ),
        (Preset::from_name("weak").map(|_| ()), "strong"),
    ] {
        match name {
            Err(Error::InvalidOption(m)) => assert!(m.contains(what), "{m}"),
            other => panic!("expected InvalidOption naming {what}, got {other:?}"),
        }
    }
}

#[test]
fn the_strong_preset_is_grave_for_every_game() {
    let cfg = MctsConfig {
        preset: Some(Preset::Strong),
        ..mcts(100, 0)
    };
    for name in crate::games::GAME_NAMES {
        let r = cfg.resolved(name);
        assert_eq!(r.selection, Selection::Grave, "{name}");
        let playouts = match *name {
            "windflowers" | "subsume" => Playouts::Knowledge,
            _ => Playouts::Random,
        };
        assert_eq!(r.playouts, playouts, "{name}");
        assert_eq!(r.preset, None);
        assert_eq!(r.iterations, Some(100));
        r.validate().expect("valid preset");
    }
    // A search with the preset is the search with the resolved settings.
    let s = opening("faraday", None, 0, 0);
    let a = search(&s, &cfg).expect("searchable");
    let b = search(&s, &cfg.resolved("faraday")).expect("searchable");
    assert!(same_search(&a, &b));
}

#[test]
fn grave_and_the_strong_preset_keep_their_root_visits() {
    // Pinned from the searches before GRAVE's selection and AMAF update were made cheaper
    // (issue 21): those changes keep every floating-point operation, so the same seed must
    // still give the same visits. A change that alters them changes published results.
    let grave0 = |seed| MctsConfig {
        c: 0.0,
        ..grave(3000, seed)
    };
    let strong = |seed| MctsConfig {
        preset: Some(Preset::Strong),
        ..mcts(3000, seed)
    };
    // Windflowers' and Subsume's strong presets before their playouts took the games'
    // knowledge (GRAVE, c = 0, MAST): the pinned visits are that search's.
    let strong_mast = |seed| MctsConfig {
        playouts: Playouts::Mast,
        ..grave0(seed)
    };
    // (game, players, random moves, settings, best move, root visits)
    type Case = (
        &'static str,
        Option<i64>,
        usize,
        MctsConfig,
        u32,
        &'static [u64],
    );
    #[rustfmt::skip]
    let cases: [Case; 10] = [
        ("smallholder", None, 3, grave0(1), 35, &[
            53, 2, 570, 22, 1, 518, 5, 2, 1, 122, 354, 88, 1, 1, 1, 1, 34, 269, 1, 1, 1, 4, 175,
            3, 2, 1, 1, 7, 2, 747, 10]),
        ("smallholder", None, 8, strong(2), 32, &[
            220, 111, 90, 10, 1, 391, 4, 4, 669, 3, 3, 1, 1, 1, 9, 1, 10, 1, 2, 498, 1, 953, 16]),
        ("windflowers", None, 3, grave0(1), 2, &[
            674, 15, 818, 1, 4, 1, 2, 2, 78, 1, 268, 2, 2, 3, 1, 130, 1, 1, 96, 1, 1, 4, 27, 7,
            3, 27, 76, 283, 53, 7, 410, 1]),
        ("windflowers", None, 3, strong_mast(1), 11, &[
            182, 2, 1, 1, 1, 1, 1, 1, 538, 337, 854, 2, 1, 1, 1, 1, 11, 1, 1, 2, 1, 87, 308, 4,
            1, 1, 1, 130, 321, 191, 11, 4]),
        ("windflowers", Some(3), 3, grave0(1), 1, &[
            4, 847, 113, 1, 101, 4, 2, 204, 18, 7, 198, 1, 16, 178, 1, 1, 2, 1, 185, 8, 29, 4,
            336, 191, 1, 5, 83, 1, 9, 42, 406, 1]),
        ("windflowers", Some(3), 3, strong_mast(1), 32, &[
            8, 386, 538, 1, 2, 1, 1, 2, 272, 1, 341, 1, 2, 228, 2, 1, 1, 3, 2, 1, 1, 1, 280, 6,
            1, 1, 15, 7, 82, 594, 216, 2]),
        ("faraday", None, 8, grave0(1), 78, &[1, 200, 2, 2, 2675, 9, 5, 1, 105]),
        ("faraday", None, 8, strong(1), 78, &[260, 299, 290, 229, 676, 265, 484, 254, 243]),
        ("subsume", None, 3, grave0(1), 30, &[
            11, 220, 5, 0, 1, 1, 1, 119, 0, 65, 1, 4, 0, 54, 6, 1, 0, 1, 1, 63, 0, 0, 1, 1981,
            38, 0, 1, 5, 1, 6, 0, 18, 24, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 42, 1, 1, 1, 1, 1, 1,
            0, 4, 0, 59, 1, 27, 1, 1, 3, 1, 1, 1, 1, 0, 1, 0, 1, 25, 0, 59, 14, 1, 1, 19, 0, 18,
            2, 11, 2, 62, 1]),
        ("subsume", None, 3, strong_mast(1), 83, &[
            1, 565, 0, 0, 61, 10, 0, 84, 17, 75, 0, 211, 31, 1, 1, 205, 1, 8, 0, 1, 1, 0, 1, 31,
            3, 4, 5, 11, 0, 0, 8, 78, 8, 2, 148, 0, 1, 1, 1, 1, 1, 96, 25, 95, 1, 4, 4, 7, 0, 1,
            0, 1, 0, 13, 1, 3, 4, 0, 1, 1, 104, 3, 1, 1, 1, 0, 1, 0, 7, 1, 1, 1, 132, 1, 736, 1,
            8, 1, 145, 1, 1, 19]),
    ];
    for (name, players, moves, cfg, best, visits) in cases {
        // The positions of examples/grave_check.rs: `moves` random moves from seed 11 + moves.
        let s = opening(name, players, moves, 11 + moves as u64);
        let r = search(&s, &cfg).expect("searchable");
        let what = format!("{name} {players:?} after {moves} moves, {cfg:?}");
        assert_eq!(r.visits, visits, "{what}");
        assert_eq!(r.best, best, "{what}");
    }
}

#[test]
fn knowledge_playouts_settle_pairs_by_the_games_score() {
    // With `knowledge`, `Knowledge::guided_playout` draws its pairs as MAST's do, plays the
    // higher-scored action of a pair by `Knowledge::playout_score` without asking `choose`, and asks
    // `choose` (MAST) only when the scores tie, in every game.
    for name in crate::games::GAME_NAMES {
        let s = opening(name, None, 2, 5);
        for seed in 0..5 {
            let what = format!("{name} seed {seed}");
            let mut buf = Vec::new();
            // By hand: keep the better score, the second draw on ties at even moves.
            let (mut c, mut rc) = (s.clone(), Rng::new(seed));
            let mut expected = Vec::new();
            while let Some(p) = c.current_player() {
                let x = c.random_action(&mut rc, &mut buf).expect("a move");
                let y = c.random_action(&mut rc, &mut buf).expect("a move");
                let (sx, sy) = (c.playout_score(x), c.playout_score(y));
                let pick = if sx > sy {
                    expected.push((p, x, None));
                    x
                } else if sy > sx {
                    expected.push((p, y, None));
                    y
                } else {
                    let pick = if expected.len() % 2 == 0 { y } else { x };
                    expected.push((p, x, Some(y)));
                    pick
                };
                c.apply_unchecked(pick);
            }
            let (mut d, mut rd) = (s.clone(), Rng::new(seed));
            let mut got = Vec::new();
            d.guided_playout(&mut rd, &mut buf, true, true, |p, x, y| {
                let pick = match y {
                    Some(y) if got.len() % 2 == 0 => y,
                    _ => x,
                };
                got.push((p, x, y));
                pick
            });
            assert_eq!(got, expected, "{what}");
            assert_eq!(
                (c.cells(), rc.next_u64()),
                (d.cells(), rd.next_u64()),
                "{what}"
            );
        }
    }
}

#[test]
fn subsumes_playout_knowledge_prefers_the_perimeter() {
    // Size 3: rows of 3, 4, 5, 4, 3 cells from the bottom, so cells 0 and 7 (a corner, the
    // left end of the middle row) are on the perimeter; 8 and 9 (the centre) are not.
    let g = game("subsume", &[("size", 3usize.into())]);
    let mut s = g.new_state();
    assert_eq!(
        [0, 7, 8, 9].map(|c| s.playout_score(c)),
        [1, 1, 0, 0],
        "empty board"
    );
    let on: usize = (0..19).map(|c| s.playout_score(c) as usize).sum();
    assert_eq!(on, 12, "6(n - 1) perimeter cells");
    // The score does not depend on the stones around: after Red takes the centre, Blue's cell
    // 8 next to it still scores 0 and the corner 1.
    s.apply_unchecked(9);
    assert_eq!([0, 8].map(|c| s.playout_score(c)), [1, 0], "after a move");
    // A pair of a perimeter and an inner cell is settled by the score, MAST's choice unasked:
    // every `choose` call of a knowledge playout with two draws has both on the perimeter or
    // both inside.
    let board = g.board().clone();
    let mut buf = Vec::new();
    for seed in 0..20 {
        let mut u = g.new_state();
        let mut rng = Rng::new(seed);
        let mut asked = 0;
        u.guided_playout(&mut rng, &mut buf, true, true, |_, x, y| {
            if let Some(y) = y {
                asked += 1;
                assert_eq!(board.is_perimeter(x), board.is_perimeter(y), "seed {seed}");
            }
            x
        });
        assert!(asked > 0 && u.is_terminal(), "seed {seed}");
    }
}

#[test]
fn guided_playouts_draw_as_random_ones() {
    // `Knowledge::guided_playout` (GRAVE's recorded playouts, MAST's tournaments) plays what
    // `random_playout` plays when it keeps the first draw, and draws its pairs as two
    // `random_action` calls would, in every game (Windflowers overrides it).
    let mut games: Vec<State> = crate::games::GAME_NAMES
        .iter()
        .map(|name| opening(name, None, 2, 5))
        .collect();
    games.push(opening("windflowers", Some(3), 2, 5));
    games.push(opening("windflowers", Some(4), 0, 5));
    for s in games {
        for seed in 0..5 {
            let what = format!("{} seed {seed}", s.game_name());
            let mut buf = Vec::new();
            let (mut a, mut ra) = (s.clone(), Rng::new(seed));
            let n = a.random_playout(&mut ra, &mut buf);
            let (mut b, mut rb) = (s.clone(), Rng::new(seed));
            let mut played = Vec::new();
            let m = b.guided_playout(&mut rb, &mut buf, false, false, |p, x, y| {
                assert_eq!(y, None);
                played.push((p, x));
                x
            });
            assert_eq!(
                (n, a.cells(), ra.next_u64()),
                (m, b.cells(), rb.next_u64()),
                "{what}"
            );
            assert_eq!(played.len(), n, "{what}");
            // Pairs, keeping the second draw on even moves: the same as drawing by hand.
            let (mut c, mut rc) = (s.clone(), Rng::new(seed));
            let mut expected = Vec::new();
            while let Some(p) = c.current_player() {
                let x = c.random_action(&mut rc, &mut buf).expect("a move");
                let y = c.random_action(&mut rc, &mut buf).expect("a move");
                let pick = if expected.len() % 2 == 0 { y } else { x };
                expected.push((p, x, y));
                c.apply_unchecked(pick);
            }
            let (mut d, mut rd) = (s.clone(), Rng::new(seed));
            let mut got = Vec::new();
            d.guided_playout(&mut rd, &mut buf, true, false, |p, x, y| {
                let y = y.expect("a second draw");
                let pick = if got.len() % 2 == 0 { y } else { x };
                got.push((p, x, y));
                pick
            });
            assert_eq!(got, expected, "{what}");
            assert_eq!(
                (c.cells(), rc.next_u64()),
                (d.cells(), rd.next_u64()),
                "{what}"
            );
        }
    }
}
