//! The conformance suite: one set of checks run over every game and option value.
//!
//! For every configuration below and many seeds: random games finish; the legal list equals the
//! legality test over the whole action space; undo restores the board, the player, the legal set
//! and the scores exactly; a copy is independent; illegal actions (occupied or forbidden sites,
//! out of range, negative, after the end) fail with the right error and change nothing; the same
//! seed replays the same game; the position key kept by every action is the key computed from
//! scratch, and equal keys mean equal positions. Each game adds its configurations to
//! `configs()`.

use stonefield::games::options::value_names;
use stonefield::games::OptionValue;
use stonefield::rng::Rng;
use stonefield::{Error, Game, Peek, Rules, Session, State};

fn o(name: &str, value: impl Into<OptionValue>) -> (String, OptionValue) {
    (name.to_string(), value.into())
}

/// The value names of a choice option, from the game's declaration.
fn values(game: &str, option: &str) -> Vec<&'static str> {
    value_names(Game::option_spec(game).expect("a registered game"), option)
}

/// The Smallholder's boards of at most 127 cells (hex3 to hex7 and the three alternating
/// hexagons): every board small enough to play many games on.
fn small_smallholder_boards() -> Vec<&'static str> {
    values("smallholder", "board")
        .into_iter()
        .filter(|b| {
            let g = Game::make("smallholder", &[o("board", *b)]).expect("declared");
            g.board().num_sites() <= 127
        })
        .collect()
}

/// A game id, its options, and how many seeds to play.
type Config = (&'static str, Vec<(String, OptionValue)>, u64);

fn configs() -> Vec<Config> {
    let mut v = Vec::new();
    // Windflowers: every option value, several sizes and player counts.
    for grid in values("windflowers", "grid") {
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
    for scoring in values("windflowers", "scoring") {
        for tiebreak in values("windflowers", "tiebreak") {
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
    // Faraday: every grid at several orders, every scoring, with and without surplus charge.
    for grid in values("faraday", "grid") {
        for order in [3i64, 4, 6] {
            v.push((
                "faraday",
                vec![o("grid", grid), o("order", order)],
                if order == 6 { 4 } else { 8 },
            ));
        }
        v.push((
            "faraday",
            vec![o("grid", grid), o("order", 4i64), o("surplus_charge", true)],
            4,
        ));
    }
    for scoring in values("faraday", "scoring") {
        for surplus in [false, true] {
            v.push((
                "faraday",
                vec![
                    o("grid", "square_omni"),
                    o("order", 4i64),
                    o("scoring", scoring),
                    o("surplus_charge", surplus),
                ],
                4,
            ));
        }
        v.push(("faraday", vec![o("order", 3i64), o("scoring", scoring)], 4));
    }
    for min in 0i64..=3 {
        v.push((
            "faraday",
            vec![o("order", 3i64), o("min_offer_stones", min)],
            6,
        ));
    }
    v.push(("faraday", vec![], 2));
    // The Smallholder: every ruleset on hex3 and hex4, every value of each rule option on two
    // small boards, wide bit sets on large boards, and each of the 120 rule combinations once,
    // spread over the eight named boards (the 960 combinations, sampled).
    let rulesets = values("smallholder", "ruleset");
    let boards = small_smallholder_boards();
    let values: Vec<(&str, Vec<&str>)> = ["groups", "adjacent", "territory", "capture"]
        .into_iter()
        .map(|name| (name, values("smallholder", name)))
        .collect();
    for &ruleset in &rulesets {
        for board in ["hex3", "hex4"] {
            v.push((
                "smallholder",
                vec![o("ruleset", ruleset), o("board", board)],
                3,
            ));
        }
    }
    for (name, vals) in &values {
        for value in vals {
            for board in ["hex4", "hex232323"] {
                v.push(("smallholder", vec![o(name, *value), o("board", board)], 2));
            }
        }
    }
    for (board, ruleset) in [
        ("hex7", "nibbler"),
        ("hex9", "hull_setbacks"),
        ("hex10", "stymie"),
    ] {
        v.push((
            "smallholder",
            vec![o("board", board), o("ruleset", ruleset)],
            1,
        ));
    }
    v.push(("smallholder", vec![o("max_moves", 5i64)], 2));
    v.push((
        "smallholder",
        vec![
            o("board", "hex15"),
            o("ruleset", "hull_setbacks"),
            o("max_moves", 150i64),
        ],
        1,
    ));
    let mut i = 0;
    for groups in values[0].1.iter().copied() {
        for adjacent in values[1].1.iter().copied() {
            for territory in values[2].1.iter().copied() {
                for capture in values[3].1.iter().copied() {
                    v.push((
                        "smallholder",
                        vec![
                            o("board", boards[i % boards.len()]),
                            o("groups", groups),
                            o("adjacent", adjacent),
                            o("territory", territory),
                            o("capture", capture),
                        ],
                        1,
                    ));
                    i += 1;
                }
            }
        }
    }
    // Subsume: sizes 3 to 8, and a few games on the largest size.
    for size in 3i64..=8 {
        v.push((
            "subsume",
            vec![o("size", size)],
            if size <= 5 { 12 } else { 4 },
        ));
    }
    for anti_blob in [false, true] {
        for remove in [false, true] {
            for size in [3i64, 5] {
                v.push((
                    "subsume",
                    vec![
                        o("size", size),
                        o("anti_blob", anti_blob),
                        o("remove_surrounded", remove),
                    ],
                    8,
                ));
            }
        }
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
    key: u64,
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
        key: s.key(),
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

/// The engine's random-action sampler (each game's fast path) must draw uniformly from the legal
/// set, exactly as a draw from the full legal list would: a chi-square test at positions reached
/// along random games of every configuration.
#[test]
fn random_action_is_uniform_over_the_legal_set() {
    let mut rng = Rng::new(99);
    let mut buf = Vec::new();
    let mut tested = 0;
    for (name, options, _) in configs() {
        let game = Game::make(name, &options).expect("valid");
        let mut state = game.new_state();
        let mut step = 0;
        while !state.is_terminal() {
            if step % 7 == 3 {
                let legal = state.legal_actions();
                if legal.len() > 1 {
                    let draws = 200 * legal.len();
                    let mut counts = vec![0usize; state.num_actions()];
                    for _ in 0..draws {
                        let a = state.random_action(&mut rng, &mut buf).expect("running");
                        counts[a] += 1;
                    }
                    let expected = draws as f64 / legal.len() as f64;
                    let mut chi2 = 0.0;
                    for (a, &c) in counts.iter().enumerate() {
                        if legal.contains(&(a as u32)) {
                            chi2 += (c as f64 - expected).powi(2) / expected;
                        } else {
                            assert_eq!(c, 0, "{name}: illegal action {a} drawn");
                        }
                    }
                    // Far beyond the 99.99% quantile of chi-square with k − 1 degrees of freedom.
                    let k = legal.len() as f64;
                    assert!(
                        chi2 < k + 8.0 * (2.0 * k).sqrt() + 15.0,
                        "{name} {options:?}: {chi2}"
                    );
                    tested += 1;
                }
            }
            let a = state.random_action(&mut rng, &mut buf).expect("running");
            state.apply_unchecked(a);
            step += 1;
        }
    }
    assert!(tested > 100);
}

/// Every one of the Smallholder's 960 option combinations (8 named boards × 5 group rules × 4
/// adjacency rules × 2 territories × 3 capture rules) plays a random game to its end: the legal
/// list equals the legality test at every step, the player to move always has a legal action, and
/// the end is a win for one player (or a truncation).
#[test]
fn every_smallholder_combination_plays() {
    let boards = small_smallholder_boards();
    let mut rng = Rng::new(960);
    let mut buf = Vec::new();
    let mut combos = 0;
    for board in boards {
        for groups in values("smallholder", "groups") {
            for adjacent in values("smallholder", "adjacent") {
                for territory in values("smallholder", "territory") {
                    for capture in values("smallholder", "capture") {
                        let options = vec![
                            o("board", board),
                            o("groups", groups),
                            o("adjacent", adjacent),
                            o("territory", territory),
                            o("capture", capture),
                        ];
                        let game = Game::make("smallholder", &options).expect("valid");
                        let mut s = game.new_state();
                        while let Some(a) = s.random_action(&mut rng, &mut buf) {
                            let legal = s.legal_actions();
                            assert!(legal.binary_search(&(a as u32)).is_ok(), "{options:?}");
                            if rng.below(4) == 0 {
                                let by_test: Vec<u32> = (0..s.num_actions())
                                    .filter(|&x| s.is_legal(x))
                                    .map(|x| x as u32)
                                    .collect();
                                assert_eq!(legal, by_test, "{options:?}");
                            }
                            s.apply_unchecked(a);
                        }
                        let ranks = s.ranks().expect("over");
                        if !s.truncated() {
                            assert!(ranks == [1.0, 2.0] || ranks == [2.0, 1.0], "{options:?}");
                        }
                        combos += 1;
                    }
                }
            }
        }
    }
    assert_eq!(combos, 960);
}

/// Every value each game declares builds a game (every named value, both ends of every integer
/// range, both flags); a ruleset's defaults are among the values of the options it sets; the
/// static facts a game gives without a state equal its starting state's; the resolved options
/// rebuild the same game.
#[test]
fn every_declared_option_value_builds_and_the_facts_need_no_state() {
    use stonefield::games::OptionKind;
    for &name in stonefield::games::GAME_NAMES {
        let spec = Game::option_spec(name).expect("registered");
        assert!(Game::rules_version_of(name).expect("registered") >= 1);
        let mut variants: Vec<Vec<(String, OptionValue)>> = vec![vec![]];
        for opt in spec {
            match opt.kind {
                OptionKind::Choice { values, default } => {
                    assert!(
                        values.iter().any(|c| c.name == default),
                        "{name} {}",
                        opt.name
                    );
                    for c in values {
                        for &(key, value) in c.sets {
                            assert!(
                                value_names(spec, key).contains(&value),
                                "{name}: {} sets {key}={value}",
                                c.name
                            );
                        }
                        variants.push(vec![o(opt.name, c.name)]);
                    }
                }
                OptionKind::Int { min, max, default } => {
                    if let Some(d) = default {
                        assert!((min..=max).contains(&d), "{name} {}", opt.name);
                    }
                    variants.push(vec![o(opt.name, min)]);
                    variants.push(vec![o(opt.name, max)]);
                    let below = Game::make(name, &[o(opt.name, min - 1)]);
                    assert!(matches!(below, Err(Error::InvalidOption(_))), "{name}");
                }
                OptionKind::Bool { .. } => {
                    variants.push(vec![o(opt.name, false)]);
                    variants.push(vec![o(opt.name, true)]);
                }
            }
        }
        for options in variants {
            let game = Game::make(name, &options).expect("a declared value");
            assert_eq!(game.name(), name);
            let state = game.new_state();
            assert_eq!(
                game.num_players(),
                state.num_players(),
                "{name} {options:?}"
            );
            assert_eq!(
                game.num_actions(),
                state.num_actions(),
                "{name} {options:?}"
            );
            assert_eq!(game.observation_planes(), state.observation_planes());
            assert_eq!(
                game.has_scores(),
                state.scores().is_some(),
                "{name} {options:?}"
            );
            let resolved = game.options();
            let names: Vec<&str> = resolved.iter().map(|(k, _)| k.as_str()).collect();
            let declared: Vec<&str> = spec.iter().map(|s| s.name).collect();
            assert_eq!(names, declared, "{name}: options in declaration order");
            let again = Game::make(name, &resolved).expect("resolved options are valid");
            assert_eq!(again.options(), resolved);
        }
    }
}

/// What decides the rest of a game from a position, as far as the public interface shows it:
/// the board, the mover, the legal set, the observation planes (Windflowers' passes, Faraday's
/// phase, offer and surplus planes) and, for finished games, the ranks.
/// Board, mover, legal actions, observation bits and ranks.
type View = (Vec<i8>, Option<usize>, Vec<u32>, Vec<u32>, Option<Vec<f64>>);

fn position_view(s: &State) -> View {
    let mut obs = vec![0f32; s.observation_planes() * s.board().num_sites()];
    s.write_observation(&mut obs);
    let last = match s {
        State::Faraday(f) => vec![f.last_placer().map_or(9, |p| p as u32)],
        _ => Vec::new(),
    };
    let obs: Vec<u32> = obs.iter().map(|x| x.to_bits()).chain(last).collect();
    let ranks = if s.truncated() { None } else { s.ranks() };
    (
        s.cells().to_vec(),
        s.current_player(),
        s.legal_actions(),
        obs,
        ranks,
    )
}

/// The key after every action equals the key from scratch (the board's stones through the
/// published table, XOR a turn value, whose number is the one a game keeps at hand if it
/// does), and positions with equal keys look alike in everything
/// the interface shows, on random games of every configuration.
#[test]
fn keys_are_kept_exactly_and_tell_positions_apart() {
    use std::collections::HashMap;
    use stonefield::games::zobrist::{turn, Zobrist};
    let turns: HashMap<u64, u64> = (0..4096u64).map(|i| (turn(i), i)).collect();
    for (name, options, seeds) in configs() {
        let game = Game::make(name, &options).expect("valid");
        let z = Zobrist::new(game.board().num_sites());
        let mut seen = HashMap::new();
        for seed in 0..seeds.min(3) {
            let mut s = game.new_state();
            let mut rng = Rng::stream(seed, 7);
            let mut buf = Vec::new();
            loop {
                let board_part = z.board(s.cells());
                let t = turns.get(&(s.key() ^ board_part));
                assert!(
                    t.is_some(),
                    "{name} {options:?}: the key is not board ^ turn"
                );
                if let Some(kept) = s.key_turn_number() {
                    assert_eq!(Some(&kept), t, "{name} {options:?}: the kept turn number");
                }
                if let State::Faraday(f) = &s {
                    let i = *t.unwrap_or(&0);
                    let phase = match f.phase() {
                        stonefield::games::faraday::Phase::Offer { left } => u64::from(left - 1),
                        stonefield::games::faraday::Phase::Choice => 3,
                        stonefield::games::faraday::Phase::Placement => 4,
                    };
                    assert_eq!(i % 5, phase);
                    assert_eq!(i / 10 % 2, u64::from(f.forced_surplus()));
                    assert_eq!(i / 20, f.last_placer().map_or(0, |p| p as u64 + 1));
                }
                // A truncated game ended by its move count, which the key leaves out.
                if !s.truncated() {
                    let view = position_view(&s);
                    let before = seen.entry(s.key()).or_insert_with(|| view.clone());
                    assert_eq!(
                        *before, view,
                        "{name} {options:?}: equal keys, different positions"
                    );
                }
                let Some(a) = s.random_action(&mut rng, &mut buf) else {
                    break;
                };
                s.apply_unchecked(a);
            }
        }
    }
}

/// What a position shows through the rules, for comparing two copies of it.
type Shown = (
    Vec<i8>,
    Option<usize>,
    Vec<u32>,
    u64,
    usize,
    Option<Vec<f64>>,
    Option<Vec<f64>>,
);

fn shown<R: Rules>(s: &R) -> Shown {
    (
        s.cells().to_vec(),
        s.current_player(),
        s.legal_actions(),
        s.key(),
        s.move_count(),
        s.scores(),
        s.ranks(),
    )
}

/// A position copied over another (`clone_from`, which the solver and the searches use to
/// reuse a child's buffers) is the position: over a stale one from the end of another game,
/// every step of a random game, and it then plays on exactly as the original.
#[test]
fn a_position_copied_over_another_plays_as_the_original() {
    for (name, options, _) in configs() {
        let game = Game::make(name, &options).unwrap_or_else(|e| panic!("{name} {options:?}: {e}"));
        stonefield::games::each_state!(game.new_state(), start => {
            let mut rng = Rng::new(11);
            let mut buf = Vec::new();
            // A stale position: the end of another random game.
            let mut copy = start.clone();
            while let Some(a) = copy.random_action(&mut rng, &mut buf) {
                copy.apply_unchecked(a);
            }
            let mut s = start.clone();
            loop {
                copy.clone_from(&s);
                assert_eq!(shown(&copy), shown(&s), "{name} {options:?}");
                let Some(a) = s.random_action(&mut rng, &mut buf) else {
                    break;
                };
                s.apply_unchecked(a);
                copy.apply_unchecked(a);
                assert_eq!(shown(&copy), shown(&s), "{name} {options:?} after {a}");
            }
        });
    }
}
