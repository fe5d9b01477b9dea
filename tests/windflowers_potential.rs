//! Windflowers ends: the potential argument of `docs/games/windflowers.md`, measured.
//!
//! Φ(position) = the number of capture-relation neighbour pairs whose two sites hold stones of the
//! same player. A replacement on s of player o's stone by player m's is legal only when o owns
//! more of s's capture neighbours than m, and it changes only the pairs through s: Φ falls by
//! exactly (o's neighbours − m's neighbours) ≥ 1. A placement adds a stone (and raises Φ by the
//! mover's neighbours); nothing removes a stone. So a game has at most N placements and at most
//! E replacements (E = capture pairs on the board), and at most players × (N + E + 1) actions.
//!
//! This test plays random and MCTS games of every grid, at sizes 3 to 5, for every player count,
//! and checks at every action: a replacement lowers Φ by exactly that difference (so by at least
//! one), a placement adds a stone and raises Φ by the mover's neighbours, a pass changes nothing;
//! and every game ends (with the cap lifted above the bound) within the bound.

use stonefield::board::Relation;
use stonefield::games::{Game, OptionValue, Rules, State};
use stonefield::rng::Rng;
use stonefield::search::{Mcts, MctsConfig};

fn o(k: &str, v: impl Into<OptionValue>) -> (String, OptionValue) {
    (k.to_string(), v.into())
}

/// The capture relation of a grid (the specification's table).
fn capture(grid: &str) -> Relation {
    if grid == "hex" {
        Relation::Orthogonal
    } else {
        Relation::All
    }
}

/// Φ: same-owner stone pairs over the capture relation.
fn potential(state: &State, rel: Relation) -> usize {
    let board = state.board();
    let cells = state.cells();
    let mut pairs = 0;
    for s in 0..cells.len() {
        if cells[s] == 0 {
            continue;
        }
        for &t in board.neighbors(rel, s) {
            let t = t as usize;
            if t > s && cells[t] == cells[s] {
                pairs += 1;
            }
        }
    }
    pairs
}

/// Player q's stones among the capture neighbours of s.
fn around(state: &State, rel: Relation, s: usize, q: usize) -> usize {
    let cells = state.cells();
    state
        .board()
        .neighbors(rel, s)
        .iter()
        .filter(|&&t| cells[t as usize] == q as i8 + 1)
        .count()
}

#[derive(Default, Debug)]
struct Tally {
    games: usize,
    placements: usize,
    replacements: usize,
    passes: usize,
    longest: usize,
}

/// Checks one action against the argument; `state` is the position before it.
fn check_action(state: &State, rel: Relation, a: usize, t: &mut Tally) -> State {
    let n = state.cells().len();
    let p = state.current_player().expect("running");
    let before = potential(state, rel);
    let stones = state.cells().iter().filter(|&&c| c != 0).count();
    let mut after = state.clone();
    after.apply(a as i64).expect("legal");
    let phi = potential(&after, rel);
    let stones_after = after.cells().iter().filter(|&&c| c != 0).count();
    if a == n {
        t.passes += 1;
        assert_eq!((phi, stones_after), (before, stones));
    } else if state.cells()[a] == 0 {
        t.placements += 1;
        assert_eq!(stones_after, stones + 1, "a placement adds a stone");
        assert_eq!(phi, before + around(state, rel, a, p));
    } else {
        t.replacements += 1;
        let q = state.cells()[a] as usize - 1;
        let (theirs, mine) = (around(state, rel, a, q), around(state, rel, a, p));
        assert!(theirs > mine, "replacement rule");
        assert_eq!(stones_after, stones, "a replacement keeps the stone count");
        assert_eq!(phi + (theirs - mine), before, "Φ falls by the difference");
        assert!(phi < before);
    }
    after
}

/// The bound on a game's length: players × (sites + capture pairs + 1).
fn bound(game: &Game, players: usize, rel: Relation) -> usize {
    let state = game.new_state();
    let board = state.board();
    let n = board.num_sites();
    let pairs: usize = (0..n).map(|s| board.neighbors(rel, s).len()).sum::<usize>() / 2;
    players * (n + pairs + 1)
}

/// Plays one game with `choose`, checking every action; returns its length.
fn play(
    game: &Game,
    rel: Relation,
    limit: usize,
    t: &mut Tally,
    mut choose: impl FnMut(&State) -> usize,
) -> usize {
    let mut state = game.new_state();
    let mut len = 0;
    while !state.is_terminal() {
        let a = choose(&state);
        state = check_action(&state, rel, a, t);
        len += 1;
    }
    assert!(
        !state.truncated(),
        "the cap is above the bound: no game is cut short"
    );
    assert!(len <= limit, "{len} actions > the bound {limit}");
    t.longest = t.longest.max(len);
    t.games += 1;
    len
}

#[test]
fn every_replacement_lowers_the_potential_and_every_game_ends_within_the_bound() {
    let mut total = Tally::default();
    for grid in ["hex", "trisquare", "square"] {
        let rel = capture(grid);
        for size in [3i64, 4, 5] {
            for players in [2usize, 3, 4] {
                let base = [
                    o("grid", grid),
                    o("size", size),
                    o("players", players as i64),
                ];
                let limit = bound(
                    &Game::make("windflowers", &base).expect("valid"),
                    players,
                    rel,
                );
                let mut options = base.to_vec();
                options.push(o("max_moves", limit as i64 + 1));
                let game = Game::make("windflowers", &options).expect("valid");
                let mut t = Tally::default();
                // Random games (uniform over the legal actions) and MCTS games.
                let random_games = if size == 5 { 12 } else { 30 };
                let mut rng = Rng::new(7 + size as u64 * 10 + players as u64);
                for _ in 0..random_games {
                    play(&game, rel, limit, &mut t, |s| {
                        let legal = s.legal_actions();
                        legal[rng.below(legal.len())] as usize
                    });
                }
                let mcts_games = if size == 3 { 3 } else { 1 };
                for g in 0..mcts_games {
                    let mut cfg = MctsConfig::with_iterations(if size == 3 { 40 } else { 16 });
                    cfg.seed = 100 + g;
                    let mut agent = Mcts::new(cfg).expect("valid settings");
                    play(&game, rel, limit, &mut t, |s| {
                        agent.search(s, &[]).expect("running").best as usize
                    });
                }
                println!("{grid} size {size} players {players}: bound {limit}, {t:?}");
                total.games += t.games;
                total.placements += t.placements;
                total.replacements += t.replacements;
                total.passes += t.passes;
            }
        }
    }
    println!("all: {total:?}");
    assert!(
        total.replacements > 1000,
        "replacements were tried: {total:?}"
    );
}

/// The bound against the default cap: where 10 × sites lies below players × (N + E + 1), the
/// argument does not exclude a legal game that the default cap cuts short. The numbers are the
/// table of `docs/games/windflowers.md`.
#[test]
fn the_bound_and_the_default_cap() {
    let mut rows = Vec::new();
    for grid in ["hex", "trisquare", "square"] {
        for size in [3i64, 4, 5] {
            let game =
                Game::make("windflowers", &[o("grid", grid), o("size", size)]).expect("valid");
            let state = game.new_state();
            let board = state.board();
            let n = board.num_sites();
            let pairs: usize = (0..n)
                .map(|s| board.neighbors(capture(grid), s).len())
                .sum::<usize>()
                / 2;
            let bounds: Vec<usize> = (2..=4).map(|p| p * (n + pairs + 1)).collect();
            rows.push((grid, size, n, pairs, 10 * n, bounds));
        }
    }
    for r in &rows {
        println!("{r:?}");
    }
    // A spot value counted by hand: the 4 × 4 square of size 3 has 16 points, 24 edges and 18
    // diagonals (42 pairs).
    let find = |g: &str, s: i64| rows.iter().find(|r| r.0 == g && r.1 == s).expect("row");
    assert_eq!((find("square", 3).2, find("square", 3).3), (16, 42));
    // The table of docs/games/windflowers.md: (grid, size, sites, capture pairs).
    let documented: &[(&str, i64, usize, usize)] = &[
        ("hex", 3, 18, 39),
        ("hex", 4, 36, 87),
        ("hex", 5, 60, 153),
        ("trisquare", 3, 14, 33),
        ("trisquare", 4, 34, 93),
        ("trisquare", 5, 62, 181),
        ("square", 3, 16, 42),
        ("square", 4, 36, 110),
        ("square", 5, 64, 210),
    ];
    let got: Vec<(&str, i64, usize, usize)> = rows.iter().map(|r| (r.0, r.1, r.2, r.3)).collect();
    assert_eq!(got, documented);
}
