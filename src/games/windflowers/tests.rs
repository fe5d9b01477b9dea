//! Hand-checked Windflowers positions, and the incremental structures checked against recounts.

use super::*;
use crate::error::Error;
use crate::games::options::{opt, value_names};
use crate::games::Knowledge;

fn config(options: &[(String, OptionValue)]) -> Arc<Config> {
    Arc::new(Config::new(options).expect("valid options"))
}

/// A position from (site, player) stones.
fn position(cfg: &Arc<Config>, stones: &[(usize, i8)], to_move: usize) -> State {
    let mut cells = vec![0i8; cfg.board.num_sites()];
    for &(s, p) in stones {
        cells[s] = p + 1;
    }
    State::from_position(cfg.clone(), &cells, to_move).expect("valid position")
}

fn replaceable(state: &State) -> Vec<u32> {
    state
        .legal_actions()
        .into_iter()
        .filter(|&a| (a as usize) < state.cells().len() && state.cells()[a as usize] != 0)
        .collect()
}

#[test]
fn defaults_and_board_sizes() {
    let cfg = config(&[]);
    assert_eq!(cfg.grid, Grid::TriSquare);
    assert_eq!(cfg.board.num_sites(), 34);
    assert_eq!(cfg.max_moves, 340);
    for (grid, size, sites) in [
        ("hex", 3, 18),
        ("hex", 4, 36),
        ("hex", 5, 60),
        ("trisquare", 3, 14),
        ("trisquare", 5, 62),
        ("square", 3, 16),
        ("square", 4, 36),
        ("square", 5, 64),
        ("square", 7, 144),
    ] {
        let cfg = config(&[opt("grid", grid), opt("size", size as i64)]);
        assert_eq!(cfg.board.num_sites(), sites, "{grid} {size}");
        assert_eq!(State::new(cfg).num_actions(), sites + 1);
    }
}

#[test]
fn bad_options_name_what_is_allowed() {
    let err = Config::new(&[opt("grid", "triangle")]).unwrap_err();
    assert!(
        err.to_string()
            .contains("\"hex\", \"trisquare\", \"square\""),
        "{err}"
    );
    let err = Config::new(&[opt("players", 5i64)]).unwrap_err();
    assert!(err.to_string().contains("2 to 4"), "{err}");
    let err = Config::new(&[opt("colour", "red")]).unwrap_err();
    assert!(err.to_string().contains("players"), "{err}");
    let err = Config::new(&[opt("last_placer_breaks_ties", 1i64)]).unwrap_err();
    assert!(err.to_string().contains("true or false"), "{err}");
}

#[test]
fn replacement_on_the_square_grid_counts_diagonals() {
    // 4×4 points; site 5 = (1, 1): orthogonal 1, 4, 6, 9; diagonal 0, 2, 8, 10.
    let cfg = config(&[opt("grid", "square"), opt("size", 3i64)]);
    // Player 1 on 5 with player-1 stones on the diagonals 0 and 2; one player-0 stone on 1.
    let s = position(&cfg, &[(5, 1), (0, 1), (2, 1), (1, 0)], 0);
    // Around 5: Q = 2 (diagonal), mover = 1: 5 is replaceable. Around 0 (neighbours 1, 4, 5):
    // Q = 1, mover = 1: not. Around 2 (1, 3, 5, 6, 7): Q = 1, mover = 1: not.
    assert_eq!(replaceable(&s), vec![5]);
    // Player 1 to move: around 1 (neighbours 0, 2, 5; 4, 6), its owner (player 0) has no stone,
    // so it cannot be replaced: the owner's stones must outnumber the mover's.
    let s = position(&cfg, &[(5, 1), (0, 1), (2, 1), (1, 0)], 1);
    assert_eq!(replaceable(&s), Vec::<u32>::new());
    // Equal counts do not allow replacement: add a player-0 stone on 9 (orthogonal to 5).
    let s = position(&cfg, &[(5, 1), (0, 1), (2, 1), (1, 0), (9, 0)], 0);
    assert_eq!(replaceable(&s), Vec::<u32>::new());
}

#[test]
fn replacement_on_the_hex_grid_ignores_diagonal_cells() {
    // Hex (2, 4) cells: rows 4, 5, 4, 3, 2. Site 5 (row 1) touches 0, 1, 4, 6, 9, 10; its diagonal
    // cells (distance 3) include 2 and 13 but do not count for capture on this grid.
    let cfg = config(&[opt("grid", "hex"), opt("size", 3i64)]);
    assert_eq!(cfg.board.orth(5), &[0, 1, 4, 6, 9, 10]);
    assert!(cfg.board.diag(5).contains(&2) && cfg.board.diag(5).contains(&13));
    let s = position(&cfg, &[(5, 1), (2, 1), (13, 1), (0, 0)], 0);
    assert_eq!(replaceable(&s), Vec::<u32>::new());
    // Two orthogonal player-1 stones against one of player 0: 5 is replaceable. So are 1
    // (neighbours 0, 2, 5, 6: player 1 has 5 and 6, player 0 has 0) and 6 (neighbours 1, 2, 5, 7,
    // 10, 11: player 1 has 1 and 5, player 0 none).
    let s = position(&cfg, &[(5, 1), (1, 1), (6, 1), (0, 0)], 0);
    assert_eq!(replaceable(&s), vec![1, 5, 6]);
    // The full legal list: the 14 empty cells, 1, 5, 6 and pass (18).
    let mut expect: Vec<u32> = (0..18).filter(|&x| x != 0).collect();
    expect.push(18);
    assert_eq!(s.legal_actions(), expect);
}

#[test]
fn replacement_on_the_trisquare_grid_counts_square_diagonals() {
    // d = 1 (size 3): site 4 has edges to 0, 1, 6, 7, 9 and square diagonals 2 and 3.
    let cfg = config(&[opt("size", 3i64)]);
    assert_eq!(cfg.board.orth(4), &[0, 1, 6, 7, 9]);
    assert_eq!(cfg.board.diag(4), &[2, 3]);
    // Player 1 on 4, player-1 stones on its diagonals 2 and 3, player 0 on 0: 2 > 1, replaceable.
    // Site 3 (edges 1, 7, 8; diagonal 4) has one player-1 neighbour and no player-0 one: also
    // replaceable; site 2 (edges 0, 5, 6; diagonal 4) has one of each: not.
    let s = position(&cfg, &[(4, 1), (2, 1), (3, 1), (0, 0)], 0);
    assert_eq!(replaceable(&s), vec![3, 4]);
    // A second player-0 stone (on 9) makes it 2 against 2 around 4.
    let s = position(&cfg, &[(4, 1), (2, 1), (3, 1), (0, 0), (9, 0)], 0);
    assert_eq!(replaceable(&s), vec![3]);
}

#[test]
fn third_players_stones_are_ignored() {
    let cfg = config(&[
        opt("grid", "square"),
        opt("size", 3i64),
        opt("players", 3i64),
    ]);
    // Player 1 on 5 with player-1 stones on 0 and 2 (diagonal) and a player-0 stone on 1; player 2
    // surrounds 5 with 4, 6 and 9. For player 0: 2 against 1, player 2 not counted: replaceable.
    let stones = [(5, 1), (0, 1), (2, 1), (1, 0), (4, 2), (6, 2), (9, 2)];
    assert!(position(&cfg, &stones, 0).is_legal(5));
    // For player 2: 2 player-1 stones against 3 of player 2's own: not replaceable.
    assert!(!position(&cfg, &stones, 2).is_legal(5));
    // Without the stone on 2 it is 1 against 1 for player 0, however many player 2 has.
    let stones = [(5, 1), (0, 1), (1, 0), (4, 2), (6, 2), (9, 2)];
    assert!(!position(&cfg, &stones, 0).is_legal(5));
}

#[test]
fn a_replace_updates_the_counts() {
    let cfg = config(&[opt("grid", "square"), opt("size", 3i64)]);
    let mut s = position(&cfg, &[(5, 1), (0, 1), (2, 1), (1, 0)], 0);
    s.apply(5).expect("legal replace");
    assert_eq!(s.cells()[5], 1);
    assert_eq!(s.scores(), Some(vec![2.0, 2.0]));
    // Player 1 to move. Site 1 (neighbours 0, 2, 5; 4, 6) has one player-0 neighbour (5) against
    // two of player 1; site 5 has one player-0 neighbour (1) against two: neither is replaceable.
    assert_eq!(replaceable(&s), Vec::<u32>::new());
    // Player 1 passes; for player 0, site 0 (neighbours 1, 4; 5) has no player-1 neighbour.
    s.apply(16).expect("pass");
    assert_eq!(replaceable(&s), Vec::<u32>::new());
}

#[test]
fn the_game_ends_after_every_player_passes() {
    for players in [2usize, 3, 4] {
        let cfg = config(&[opt("players", players as i64)]);
        let pass = cfg.board.num_sites() as i64;
        let mut s = State::new(cfg);
        // A placement, then players − 1 passes: not over.
        s.apply(0).expect("place");
        for _ in 0..players - 1 {
            s.apply(pass).expect("pass");
            assert!(!s.is_terminal());
        }
        // A placement interrupts the run of passes.
        s.apply(3).expect("place");
        for i in 0..players {
            assert!(!s.is_terminal(), "{players} players, pass {i}");
            s.apply(pass).expect("pass");
        }
        assert!(s.is_terminal());
        assert_eq!(s.current_player(), None);
        assert_eq!(s.move_count(), 2 * players + 1);
        assert!(!s.truncated());
        assert_eq!(s.legal_actions(), Vec::<u32>::new());
        assert!(matches!(s.apply(pass), Err(Error::GameOver(_))));
    }
    // Everyone passing at once ends the game after the first n turns, a draw for all.
    let cfg = config(&[opt("players", 3i64)]);
    let mut s = State::new(cfg);
    for _ in 0..3 {
        s.apply(34).expect("pass");
    }
    assert!(s.is_terminal());
    assert_eq!(s.ranks(), Some(vec![2.0, 2.0, 2.0]));
    assert_eq!(s.returns(), Some(vec![0.0, 0.0, 0.0]));
}

/// Square 8×8 (size 5), largest_group scoring: player 0 has groups 5, 3, 3 and player 1 has 5, 4
/// (the example of the rules), so both score 5.
fn tiebreak_example(tiebreak: &str) -> State {
    let cfg = config(&[
        opt("grid", "square"),
        opt("size", 5i64),
        opt("scoring", "largest_group"),
        opt("tiebreak", tiebreak),
    ]);
    let at = |x: usize, y: usize| y * 8 + x;
    let mut stones = Vec::new();
    stones.extend((0..5).map(|x| (at(x, 0), 0)));
    stones.extend((0..5).map(|x| (at(x, 2), 1)));
    stones.extend((0..3).map(|x| (at(x, 4), 0)));
    stones.extend((4..8).map(|x| (at(x, 4), 1)));
    stones.extend((0..3).map(|x| (at(x, 6), 0)));
    let mut s = position(&cfg, &stones, 0);
    s.apply(64).expect("pass");
    s.apply(64).expect("pass");
    s
}

#[test]
fn tiebreak_example_of_the_rules() {
    assert_eq!(largest_unpaired(&[5, 3, 3], &[5, 4]), 3);
    assert_eq!(largest_unpaired(&[5, 4], &[5, 3, 3]), 4);
    assert_eq!(largest_unpaired(&[5, 4], &[5, 4]), 0);
    assert_eq!(largest_unpaired(&[], &[2]), 0);
    assert_eq!(largest_unpaired(&[3, 3, 1], &[3]), 3);

    let s = tiebreak_example("underdog");
    let mut sizes = s.group_sizes(0);
    sizes.sort_unstable();
    assert_eq!(sizes, vec![3, 3, 5]);
    assert_eq!(s.scores(), Some(vec![5.0, 5.0]));
    // Underdog: the player with the smaller unpaired group (3 < 4), player 0, gets +1.
    assert_eq!(s.final_scores(), vec![6, 5]);
    assert_eq!(s.ranks(), Some(vec![1.0, 2.0]));
    assert_eq!(s.returns(), Some(vec![1.0, -1.0]));
    // Cascade: the larger one, player 1, gets +1.
    let s = tiebreak_example("cascade");
    assert_eq!(s.final_scores(), vec![5, 6]);
    assert_eq!(s.ranks(), Some(vec![2.0, 1.0]));
}

#[test]
fn three_players_tied_for_first() {
    // Square 6×6, stones scoring. Players 0 and 1 have 3 stones, player 2 has 3, in shapes:
    // player 0: a line of 3 (group 3); player 1: 2 + 1; player 2: 1 + 1 + 1.
    let cfg = config(&[
        opt("grid", "square"),
        opt("size", 4i64),
        opt("players", 3i64),
    ]);
    let at = |x: usize, y: usize| y * 6 + x;
    let stones = [
        (at(0, 0), 0),
        (at(1, 0), 0),
        (at(2, 0), 0),
        (at(0, 2), 1),
        (at(1, 2), 1),
        (at(4, 2), 1),
        (at(0, 4), 2),
        (at(2, 4), 2),
        (at(4, 4), 2),
    ];
    let mut s = position(&cfg, &stones, 0);
    for _ in 0..3 {
        s.apply(36).expect("pass");
    }
    assert_eq!(s.scores(), Some(vec![3.0, 3.0, 3.0]));
    // Underdog, pairwise LG: (0,1): [3] vs [2,1]: LG 3 vs 2 → player 1 +1.
    // (0,2): [3] vs [1,1,1]: 3 vs 1 → player 2 +2. (1,2): [2,1] vs [1,1,1]: 2 vs 1 → player 2 +1.
    assert_eq!(s.final_scores(), vec![3, 4, 6]);
    assert_eq!(s.ranks(), Some(vec![3.0, 2.0, 1.0]));
    assert_eq!(s.returns(), Some(vec![-1.0, 0.0, 1.0]));
}

#[test]
fn a_draw_and_the_last_placer() {
    // Two players, the same shapes: no tie-break can separate them.
    for lpbt in [false, true] {
        let cfg = config(&[opt("last_placer_breaks_ties", lpbt)]);
        let mut s = State::new(cfg);
        for a in [0i64, 13, 20, 33, 34, 34] {
            s.apply(a).expect("legal");
        }
        assert!(s.is_terminal());
        assert_eq!(s.scores(), Some(vec![2.0, 2.0]));
        assert_eq!(s.final_scores(), vec![2, 2]);
        if lpbt {
            // Player 1 placed last (move 4): it ranks first.
            assert_eq!(s.ranks(), Some(vec![2.0, 1.0]));
            assert_eq!(s.returns(), Some(vec![-1.0, 1.0]));
        } else {
            assert_eq!(s.ranks(), Some(vec![1.5, 1.5]));
            assert_eq!(s.returns(), Some(vec![0.0, 0.0]));
        }
    }
}

#[test]
fn truncation_at_the_move_cap() {
    let cfg = config(&[opt("max_moves", 5i64)]);
    let mut s = State::new(cfg);
    for a in [0i64, 1, 2, 34] {
        s.apply(a).expect("legal");
        assert!(!s.is_terminal());
    }
    s.apply(3).expect("legal");
    assert!(s.is_terminal());
    assert!(s.truncated());
    assert_eq!(s.returns(), Some(vec![0.0, 0.0]));
    assert_eq!(s.ranks(), Some(vec![1.5, 1.5]));
    // Scores still report the board: player 0 placed on 0, 2, 3, player 1 on 1.
    assert_eq!(s.scores(), Some(vec![3.0, 1.0]));
    // The last pass of a run ends the game normally, even on the cap.
    let cfg = config(&[opt("max_moves", 3i64)]);
    let mut s = State::new(cfg);
    s.apply(5).expect("legal");
    s.apply(34).expect("legal");
    s.apply(34).expect("legal");
    assert!(s.is_terminal() && !s.truncated());
    assert_eq!(s.ranks(), Some(vec![1.0, 2.0]));
}

#[test]
fn illegal_actions_change_nothing() {
    let cfg = config(&[]);
    let mut s = State::new(cfg);
    s.apply(0).expect("legal");
    let before = format!("{s:?}");
    assert!(matches!(s.apply(0), Err(Error::IllegalMove(_))));
    assert!(matches!(s.apply(35), Err(Error::IllegalMove(_))));
    assert!(matches!(s.apply(-1), Err(Error::IllegalMove(_))));
    assert_eq!(format!("{s:?}"), before);
}

/// Final scores by the rules' definitions, straight from the board array: flood-filled groups,
/// stone counts, and the pairwise tie-break over the players tied for first.
fn reference_final_scores(s: &State) -> Vec<usize> {
    let cfg = s.config();
    let n = cfg.players;
    let sizes: Vec<Vec<usize>> = (0..n)
        .map(|p| {
            let cells = s.cells();
            crate::algo::reference::component_sizes(&cfg.board, cfg.group, cells, p as i8 + 1)
        })
        .collect();
    let base: Vec<usize> = (0..n)
        .map(|p| match cfg.scoring {
            Scoring::Stones => s.cells().iter().filter(|&&c| c == p as i8 + 1).count(),
            Scoring::LargestGroup => sizes[p].iter().copied().max().unwrap_or(0),
        })
        .collect();
    let top = base.iter().copied().max().unwrap_or(0);
    let tied: Vec<usize> = (0..n).filter(|&p| base[p] == top).collect();
    let mut fin = base.clone();
    if tied.len() > 1 {
        for &p in &tied {
            for &v in tied.iter().filter(|&&v| v != p) {
                let lp = largest_unpaired(&sizes[p], &sizes[v]);
                let lv = largest_unpaired(&sizes[v], &sizes[p]);
                fin[p] += match cfg.tiebreak {
                    Tiebreak::Cascade => lp.saturating_sub(lv),
                    Tiebreak::Underdog => lv.saturating_sub(lp),
                };
            }
        }
    }
    fin
}

/// Checks every incremental structure of a position against a recount from its board array.
fn check_pos<const K: usize>(pos: &Pos<K>, cfg: &Config) {
    let n = cfg.board.num_sites();
    let m = &*pos.m;
    let cells = pos.cells.as_flattened();
    assert!(cells[n..].iter().all(|&c| c == 0), "cells beyond the board");
    let near = |q: usize, s: usize| -> i64 {
        if s >= n {
            return 0;
        }
        let around = cfg.board.neighbors(cfg.capture, s).iter();
        around
            .filter(|&&t| cells[t as usize] == q as i8 + 1)
            .count() as i64
    };
    let value = |planes: &[Bits<K>], s: usize| -> i64 {
        let bits = planes.iter().enumerate();
        bits.map(|(i, b)| i64::from(b.contains(s)) << i).sum()
    };
    let empty: Bits<K> = (0..n).filter(|&s| cells[s] == 0).collect();
    assert_eq!(pos.empty, empty);
    for q in 0..4 {
        let owned: Bits<K> = (0..n).filter(|&s| cells[s] == q as i8 + 1).collect();
        assert_eq!(pos.owned[q], owned, "stones of {q}");
        assert_eq!(pos.stones[q] as usize, owned.count());
    }
    for s in 0..64 * K {
        if cfg.players == 2 {
            // Two's complement in planes 0..=m.planes; the planes above stay empty.
            let raw = value(&pos.diff, s);
            let signed = if raw >= 1 << m.planes {
                raw - (2 << m.planes)
            } else {
                raw
            };
            assert_eq!(signed, near(0, s) - near(1, s), "difference at {s}");
        } else {
            for q in 0..cfg.players {
                assert_eq!(value(&pos.count[q], s), near(q, s), "count of {q} at {s}");
            }
        }
    }
    for p in 0..cfg.players {
        let expect: Bits<K> = (0..n)
            .filter(|&s| {
                let q = cells[s] as usize;
                q > 0 && q - 1 != p && near(q - 1, s) > near(p, s)
            })
            .collect();
        assert_eq!(pos.replaceable[p], expect, "replaceable by {p}");
    }
}

fn check_incremental(s: &State) {
    each_width!(&s.core, pos => check_pos(pos, &s.cfg));
}

/// The legal actions by the rules' definition, from the board array alone.
fn reference_legal(s: &State) -> Vec<u32> {
    if s.is_terminal() {
        return Vec::new();
    }
    let cfg = s.config();
    let cells = s.cells();
    let me = s.current_player().expect("running") as i8 + 1;
    let near = |site: usize, v: i8| {
        let around = cfg.board.neighbors(cfg.capture, site).iter();
        around.filter(|&&t| cells[t as usize] == v).count()
    };
    let mut legal: Vec<u32> = (0..cells.len())
        .filter(|&a| cells[a] == 0 || (cells[a] != me && near(a, cells[a]) > near(a, me)))
        .map(|a| a as u32)
        .collect();
    legal.push(cells.len() as u32);
    legal
}

#[test]
fn incremental_sets_agree_with_a_recount() {
    let mut rng = Rng::new(5);
    for grid in &value_names(OPTIONS, "grid") {
        for size in 3i64..=6 {
            for players in 2i64..=4 {
                let cfg = config(&[
                    opt("grid", *grid),
                    opt("size", size),
                    opt("players", players),
                ]);
                for _ in 0..3 {
                    let mut s = State::new(cfg.clone());
                    while !s.is_terminal() {
                        check_incremental(&s);
                        assert_eq!(s.legal_actions(), reference_legal(&s));
                        let a = s.random_action(&mut rng, &mut Vec::new()).expect("running");
                        s.apply_unchecked(a);
                    }
                    check_incremental(&s);
                }
            }
        }
    }
}

#[test]
fn incremental_sets_agree_across_words() {
    // Boards of 4 and 16 words, crowded on their first 200 sites so that captures straddle the
    // word boundaries at 64, 128 and 192.
    let mut rng = Rng::new(6);
    for (grid, size) in [("trisquare", 9i64), ("hex", 12), ("square", 15)] {
        for players in 2i64..=4 {
            let cfg = config(&[
                opt("grid", grid),
                opt("size", size),
                opt("players", players),
                opt("max_moves", 400i64),
            ]);
            let mut s = State::new(cfg);
            while !s.is_terminal() {
                check_incremental(&s);
                let legal = s.legal_actions();
                assert_eq!(legal, reference_legal(&s));
                let near: Vec<u32> = legal.into_iter().filter(|&a| a < 200).collect();
                let a = if near.is_empty() || rng.below(20) == 0 {
                    s.num_actions() - 1
                } else {
                    near[rng.below(near.len())] as usize
                };
                s.apply_unchecked(a);
            }
            check_incremental(&s);
        }
    }
}

#[test]
fn scores_agree_with_the_rules_definition() {
    let mut rng = Rng::new(7);
    for scoring in &value_names(OPTIONS, "scoring") {
        for tiebreak in &value_names(OPTIONS, "tiebreak") {
            for grid in &value_names(OPTIONS, "grid") {
                for players in 2i64..=4 {
                    let cfg = config(&[
                        opt("grid", *grid),
                        opt("size", 3i64),
                        opt("players", players),
                        opt("scoring", *scoring),
                        opt("tiebreak", *tiebreak),
                    ]);
                    for _ in 0..10 {
                        let mut s = State::new(cfg.clone());
                        while !s.is_terminal() {
                            assert_eq!(s.final_scores(), reference_final_scores(&s));
                            let a = s.random_action(&mut rng, &mut Vec::new()).expect("running");
                            s.apply_unchecked(a);
                        }
                        assert_eq!(s.final_scores(), reference_final_scores(&s));
                        let mut ranks = vec![0.0; players as usize];
                        assert!(s.ranks_into(&mut ranks));
                        assert_eq!(Some(ranks), s.ranks());
                    }
                }
            }
        }
    }
}

#[test]
fn a_playout_plays_the_random_actions() {
    for players in 2i64..=4 {
        let cfg = config(&[opt("players", players)]);
        for seed in 0..20 {
            let mut stepped = State::new(cfg.clone());
            let mut rng = Rng::new(seed);
            while let Some(a) = stepped.random_action(&mut rng, &mut Vec::new()) {
                stepped.apply_unchecked(a);
            }
            let mut played = State::new(cfg.clone());
            let length = played.random_playout(&mut Rng::new(seed), &mut Vec::new());
            assert_eq!(length, stepped.move_count());
            assert_eq!(format!("{played:?}"), format!("{stepped:?}"));
        }
    }
}

#[test]
fn playout_knowledge_prefers_safe_actions() {
    // Square 3 (4×4 points, site = 4·row + column): site 5 = (1, 1) has the orthogonal
    // neighbours 1, 4, 6, 9 and the diagonal ones 0, 2, 8, 10; the pass is 16.
    let cfg = config(&[opt("grid", "square"), opt("size", 3i64)]);
    // Player 0 on 0 and 2; player 1 on 8, 9 and 12; player 0 to move.
    let s = position(&cfg, &[(0, 0), (2, 0), (8, 1), (9, 1), (12, 1)], 0);
    // Site 1 (neighbours 0, 2, 5; 4, 6): two player-0 stones, no player-1 one. A stone there
    // could be replaced at once: unsafe.
    assert_eq!(s.playout_score(1), 0);
    // Site 5: two of each around it; equal counts do not allow a replacement: safe.
    assert_eq!(s.playout_score(5), 2);
    // Site 15, a corner with empty neighbours (11, 14; 10): safe.
    assert_eq!(s.playout_score(15), 2);
    // The replacement of 9 (player 1's 8 and 12 around it, no player-0 stone): safe.
    assert!(s.is_legal(9));
    assert_eq!(s.playout_score(9), 2);
    assert_eq!(s.playout_score(16), 1, "the pass");
    // Three players: player 0 on 0, player 1 on 2, player 2 to move. Site 1 has one stone of
    // each of players 0 and 1 around it and none of player 2's: safe.
    let cfg3 = config(&[
        opt("grid", "square"),
        opt("size", 3i64),
        opt("players", 3i64),
    ]);
    let s = position(&cfg3, &[(0, 0), (2, 1)], 2);
    assert_eq!(s.playout_score(1), 2);
    // One player-2 stone around it (on 4) ties with each opponent: still safe. Two (4 and 6)
    // outnumber either opponent's one, and each could replace the new stone.
    let s = position(&cfg3, &[(0, 0), (2, 1), (4, 2)], 2);
    assert_eq!(s.playout_score(1), 2);
    let s = position(&cfg3, &[(0, 0), (2, 1), (4, 2), (6, 2)], 2);
    assert_eq!(s.playout_score(1), 0);
    // With a second player-1 stone (on 5), player 1 could no longer, but player 0 still could.
    let s = position(&cfg3, &[(0, 0), (2, 1), (5, 1), (4, 2), (6, 2)], 2);
    assert_eq!(s.playout_score(1), 0);
}

#[test]
fn playout_knowledge_is_safety_against_the_next_replacement() {
    // On every grid and player count: an action scores 0 exactly when some opponent could
    // replace the stone it puts down at once, 2 otherwise; the pass scores 1.
    for grid in ["trisquare", "square", "hex"] {
        for players in [2i64, 3, 4] {
            let cfg = config(&[
                opt("grid", grid),
                opt("size", 3i64),
                opt("players", players),
            ]);
            let n = cfg.board.num_sites();
            let mut rng = Rng::new(players as u64);
            for game in 0..6 {
                let mut s = State::new(cfg.clone());
                for _ in 0..(4 * game) {
                    let Some(a) = s.random_action(&mut rng, &mut Vec::new()) else {
                        break;
                    };
                    if a < n {
                        s.apply_unchecked(a);
                    }
                }
                if s.is_terminal() {
                    continue;
                }
                let p = s.current_player().expect("running");
                for a in s.legal_actions() {
                    let a = a as usize;
                    let what = format!("{grid} {players}p game {game} action {a}");
                    if a == n {
                        assert_eq!(s.playout_score(a), 1, "{what}");
                        continue;
                    }
                    let mut t = s.clone();
                    t.apply_unchecked(a);
                    let exposed = (0..players as usize)
                        .filter(|&q| q != p)
                        .any(|q| position_of(&t, q).is_legal(a));
                    assert_eq!(s.playout_score(a), if exposed { 0 } else { 2 }, "{what}");
                }
            }
        }
    }
}

/// The board of `s` with player `q` to move.
fn position_of(s: &State, q: usize) -> State {
    State::from_position(s.config().clone(), s.cells(), q).expect("valid position")
}
