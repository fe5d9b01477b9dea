//! The conformance suite: one set of checks run over every game and option value.
//!
//! For every configuration below and many seeds: random games finish; the legal list equals the
//! legality test over the whole action space; undo restores the board, the player, the legal set
//! and the scores exactly; a copy is independent; illegal actions (occupied or forbidden sites,
//! out of range, negative, after the end) fail with the right error and change nothing; the same
//! seed replays the same game. Each game adds its configurations to `configs()`.

use stonefield::games::OptionValue;
use stonefield::sim::Rng;
use stonefield::{Error, Game, Rules, Session, State};

fn o(name: &str, value: impl Into<OptionValue>) -> (String, OptionValue) {
    (name.to_string(), value.into())
}

/// (game, options, number of seeds).
#[allow(clippy::type_complexity)]
fn configs() -> Vec<(&'static str, Vec<(String, OptionValue)>, u64)> {
    let mut v = Vec::new();
    // Windflowers: every option value, several sizes and player counts.
    for grid in ["hex", "trisquare", "square"] {
        for size in [3i64, 4, 5] {
            for players in [2i64, 3, 4] {
                v.push((
                    "windflowers",
                    vec![o("grid", grid), o("size", size), o("players", players)],
                    4,
                ));
            }
        }
    }
    v.push(("windflowers", vec![o("grid", "hex"), o("size", 7i64)], 2));
    for scoring in ["stones", "largest_group"] {
        for tiebreak in ["underdog", "cascade"] {
            for lpbt in [false, true] {
                v.push((
                    "windflowers",
                    vec![
                        o("scoring", scoring),
                        o("tiebreak", tiebreak),
                        o("last_placer_breaks_ties", lpbt),
                        o("size", 3i64),
                    ],
                    6,
                ));
            }
        }
    }
    v.push(("windflowers", vec![o("max_moves", 7i64)], 4));
    // Subsume: sizes 3 to 8, and a few games on the largest size.
    for size in 3i64..=8 {
        v.push((
            "subsume",
            vec![o("size", size)],
            if size <= 5 { 12 } else { 4 },
        ));
    }
    v.push(("subsume", vec![], 4));
    v.push(("subsume", vec![o("size", 30i64)], 1));
    v
}

/// What must be restored exactly by undo and left alone by failed actions.
#[derive(Debug, PartialEq)]
struct Fingerprint {
    cells: Vec<i8>,
    player: Option<usize>,
    legal: Vec<u32>,
    scores: Option<Vec<f64>>,
    ranks: Option<Vec<f64>>,
    moves: usize,
    truncated: bool,
}

fn fingerprint(s: &State) -> Fingerprint {
    Fingerprint {
        cells: s.cells().to_vec(),
        player: s.current_player(),
        legal: s.legal_actions(),
        scores: s.scores(),
        ranks: s.ranks(),
        moves: s.move_count(),
        truncated: s.truncated(),
    }
}

fn check_state(s: &State) {
    let legal = s.legal_actions();
    let n = s.num_actions();
    let by_test: Vec<u32> = (0..n)
        .filter(|&a| s.is_legal(a))
        .map(|a| a as u32)
        .collect();
    assert_eq!(legal, by_test, "legal list differs from is_legal");
    assert!(!s.is_legal(n) && !s.is_legal(n + 7));
    assert!(legal.windows(2).all(|w| w[0] < w[1]), "ascending");
    match s.current_player() {
        Some(p) => {
            assert!(p < s.num_players());
            assert!(!legal.is_empty(), "the player to move has a legal action");
            assert!(s.ranks().is_none() && s.returns().is_none());
        }
        None => {
            assert!(legal.is_empty());
            let ranks = s.ranks().expect("terminal states have ranks");
            let returns = s.returns().expect("terminal states have returns");
            assert_eq!(ranks.len(), s.num_players());
            assert!(ranks
                .iter()
                .all(|&r| (1.0..=s.num_players() as f64).contains(&r)));
            // Average ranks always sum to 1 + 2 + … + n.
            let np = s.num_players() as f64;
            assert!((ranks.iter().sum::<f64>() - np * (np + 1.0) / 2.0).abs() < 1e-9);
            assert!(returns.iter().all(|&u| (-1.0..=1.0).contains(&u)));
            if s.truncated() {
                assert!(returns.iter().all(|&u| u == 0.0));
            }
        }
    }
    let cells = s.cells();
    assert_eq!(cells.len(), s.board().num_sites());
    assert!(cells
        .iter()
        .all(|&c| c >= 0 && c as usize <= s.num_players()));
}

fn check_illegal(session: &mut Session, rng: &mut Rng) {
    let before = fingerprint(session.state());
    let history = session.history().to_vec();
    let n = session.state().num_actions() as i64;
    let mut bad = vec![-1i64, n, n + 1000, i64::MIN];
    if !session.state().is_terminal() {
        let illegal: Vec<i64> = (0..n)
            .filter(|&a| !session.state().is_legal(a as usize))
            .collect();
        if !illegal.is_empty() {
            bad.push(illegal[rng.below(illegal.len())]);
        }
    }
    for a in bad {
        let err = session.apply(a).expect_err("illegal action accepted");
        if session.state().is_terminal() {
            assert!(matches!(err, Error::GameOver(_)), "{err:?}");
        } else {
            assert!(matches!(err, Error::IllegalMove(_)), "{err:?}");
        }
        assert!(!err.to_string().is_empty());
        assert_eq!(fingerprint(session.state()), before);
        assert_eq!(session.history(), &history[..]);
    }
}

fn play(game: &Game, seed: u64) -> Vec<u32> {
    let mut session = Session::new(game);
    let mut rng = Rng::stream(seed, 0);
    let mut buf = Vec::new();
    let cap = 20 * (game.num_actions() + 10) + 1000;
    check_state(session.state());
    while let Some(a) = session.state().random_action(&mut rng, &mut buf) {
        assert!(session.history().len() < cap, "game does not end");
        let state = session.state().clone();
        assert!(
            state.is_legal(a),
            "random_action returned an illegal action"
        );
        let before = fingerprint(&state);
        // A copy is independent of the original.
        let mut copy = state.clone();
        copy.apply(a as i64).expect("legal action");
        assert_eq!(fingerprint(session.state()), before);
        // Apply, check, undo, check, redo.
        session.apply(a as i64).expect("legal action");
        check_state(session.state());
        assert_eq!(fingerprint(session.state()), fingerprint(&copy));
        assert_eq!(session.undo(), Some(a as u32));
        assert_eq!(fingerprint(session.state()), before);
        session.apply(a as i64).expect("legal action");
        if rng.below(8) == 0 {
            check_illegal(&mut session, &mut rng);
        }
    }
    check_illegal(&mut session, &mut rng);
    assert!(session.state().is_terminal());
    // Undo all the way back to the start.
    let history = session.history().to_vec();
    while session.undo().is_some() {}
    assert_eq!(fingerprint(session.state()), fingerprint(&game.new_state()));
    history
}

#[test]
fn every_game_and_option_conforms() {
    for (name, options, seeds) in configs() {
        let game = Game::make(name, &options).unwrap_or_else(|e| panic!("{name} {options:?}: {e}"));
        assert_eq!(game.name(), name);
        for seed in 0..seeds {
            let first = play(&game, seed);
            let again = play(&game, seed);
            assert_eq!(
                first, again,
                "{name} {options:?} seed {seed}: not reproducible"
            );
        }
    }
}

#[test]
fn resolved_options_rebuild_the_same_game() {
    for (name, options, _) in configs() {
        let game = Game::make(name, &options).expect("valid");
        let again = Game::make(name, &game.options()).expect("resolved options are valid");
        assert_eq!(game.options(), again.options());
        assert_eq!(game.num_actions(), again.num_actions());
    }
}
