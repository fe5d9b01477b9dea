//! Golden playthroughs: the same seed must give the same games in every future version.
//!
//! Each file in `tests/data/playthroughs/` holds one seeded random game of one configuration:
//! the options (all of them, resolved), then for every position the player to move, the legal
//! actions, a hash of the observation tensor and the action drawn, the board after it, and at the
//! end the ranks, returns, scores and whether the move cap ended the game. The game is driven
//! exactly as the batch simulator drives it (one [`Rng::stream`] per game, each game's own
//! `random_action`), so the files pin the rules, the sampler and the generator together.
//!
//! A change that alters any of them fails here with the first line that differs. When the
//! change is meant (a rules fix, with its rules version raised), regenerate the files on purpose:
//!
//! ```text
//! STONEFIELD_BLESS=1 cargo test --release --test playthroughs
//! ```
//!
//! and review the diff like code.

use std::fmt::Write as _;
use std::path::PathBuf;

use stonefield::games::OptionValue;
use stonefield::rng::Rng;
use stonefield::{Game, Rules};

/// The configurations recorded: every game, with a few option sets each, on small boards so
/// that the files stay readable.
const CONFIGS: &[(&str, &str, u64)] = &[
    ("smallholder", "board=hex3", 1),
    ("smallholder", "board=hex4 ruleset=stymie", 2),
    (
        "smallholder",
        "board=hex3 territory=hull capture=groupwise_reentry",
        3,
    ),
    ("windflowers", "size=3", 1),
    ("windflowers", "grid=square size=3 players=3", 2),
    (
        "windflowers",
        "grid=trisquare size=3 players=4 scoring=largest_group tiebreak=cascade",
        3,
    ),
    (
        "windflowers",
        "size=3 last_placer_breaks_ties=true max_moves=3",
        4,
    ),
    ("faraday", "grid=hex order=3", 1),
    (
        "faraday",
        "grid=trisquare_omni order=3 surplus_charge=true",
        2,
    ),
    ("faraday", "grid=square_omni order=3 scoring=special", 3),
    ("subsume", "size=3", 1),
    ("subsume", "size=5", 2),
];

fn parse_options(text: &str) -> Vec<(String, OptionValue)> {
    text.split_whitespace()
        .map(|item| {
            let (k, v) = item.split_once('=').expect("key=value");
            let value = match v {
                "true" => OptionValue::Bool(true),
                "false" => OptionValue::Bool(false),
                _ => v
                    .parse::<i64>()
                    .map(OptionValue::Int)
                    .unwrap_or_else(|_| OptionValue::Str(v.to_string())),
            };
            (k.to_string(), value)
        })
        .collect()
}

fn option_text(v: &OptionValue) -> String {
    match v {
        OptionValue::Str(s) => s.clone(),
        other => other.to_string(),
    }
}

/// FNV-1a over the bits of the observation: any change to any plane changes it.
fn observation_hash(state: &impl Rules) -> u64 {
    let mut obs = vec![0f32; state.observation_planes() * state.board().num_sites()];
    state.write_observation(&mut obs);
    let mut h = 0xCBF2_9CE4_8422_2325u64;
    for x in obs {
        for b in x.to_bits().to_le_bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3);
        }
    }
    h
}

fn board_text(cells: &[i8]) -> String {
    cells
        .iter()
        .map(|&c| {
            if c == 0 {
                '.'
            } else {
                char::from(b'0' + c as u8)
            }
        })
        .collect()
}

fn numbers(v: Option<Vec<f64>>) -> String {
    match v {
        None => "none".into(),
        Some(v) => v
            .iter()
            .map(|x| format!("{x}"))
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// The playthrough text of one configuration.
fn playthrough(name: &str, options: &str, seed: u64) -> String {
    let game = Game::make(name, &parse_options(options)).expect("a valid configuration");
    let mut out = String::new();
    let resolved: Vec<String> = game
        .options()
        .iter()
        .map(|(k, v)| format!("{k}={}", option_text(v)))
        .collect();
    writeln!(out, "game {name}").unwrap();
    writeln!(out, "options {}", resolved.join(" ")).unwrap();
    writeln!(out, "seed {seed}").unwrap();
    let mut state = game.new_state();
    let mut rng = Rng::stream(seed, 0);
    let mut buf = Vec::new();
    writeln!(out, "board {}", board_text(state.cells())).unwrap();
    while let Some(player) = state.current_player() {
        let legal: Vec<String> = state
            .legal_actions()
            .iter()
            .map(|a| a.to_string())
            .collect();
        let action = state
            .random_action(&mut rng, &mut buf)
            .expect("a running game has a legal action");
        writeln!(
            out,
            "move {} player {player} obs {:016x} legal {}",
            state.move_count(),
            observation_hash(&state),
            legal.join(" ")
        )
        .unwrap();
        state.apply_unchecked(action);
        writeln!(out, "action {action}").unwrap();
        writeln!(out, "board {}", board_text(state.cells())).unwrap();
    }
    writeln!(out, "truncated {}", state.truncated()).unwrap();
    writeln!(out, "ranks {}", numbers(state.ranks())).unwrap();
    writeln!(out, "returns {}", numbers(state.returns())).unwrap();
    writeln!(out, "scores {}", numbers(state.scores())).unwrap();
    out
}

fn path_of(name: &str, options: &str) -> PathBuf {
    let file = format!("{name}({}).txt", options.replace(' ', ","));
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/playthroughs")
        .join(file)
}

#[test]
fn playthroughs_match_the_recorded_games() {
    let bless = std::env::var_os("STONEFIELD_BLESS").is_some_and(|v| v == "1");
    let mut failures = Vec::new();
    for &(name, options, seed) in CONFIGS {
        let text = playthrough(name, options, seed);
        let path = path_of(name, options);
        if bless {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &text).unwrap();
            continue;
        }
        let recorded = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        if recorded != text {
            let (line, (want, got)) = recorded
                .lines()
                .chain(std::iter::repeat("<end of file>"))
                .zip(text.lines().chain(std::iter::repeat("<end of game>")))
                .enumerate()
                .find(|(_, (a, b))| a != b)
                .expect("texts differ somewhere");
            failures.push(format!(
                "{}:{}:\n  recorded: {want}\n  now:      {got}",
                path.display(),
                line + 1
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "the games differ from the recorded playthroughs (regenerate on purpose with \
         STONEFIELD_BLESS=1 cargo test --release --test playthroughs):\n{}",
        failures.join("\n")
    );
}

/// Every file in the directory belongs to a configuration above (none left behind by a rename).
#[test]
fn no_stray_playthrough_files() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/playthroughs");
    let expected: Vec<PathBuf> = CONFIGS.iter().map(|&(n, o, _)| path_of(n, o)).collect();
    for entry in std::fs::read_dir(&dir).expect("tests/data/playthroughs exists") {
        let path = entry.unwrap().path();
        assert!(expected.contains(&path), "stray file {}", path.display());
    }
}
