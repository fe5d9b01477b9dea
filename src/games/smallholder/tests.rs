//! Hand-checked Smallholder positions.
//!
//! Most positions are on hex4 (37 cells), numbered row by row from the bottom:
//!
//! ```text
//!          33  34  35  36              row 6
//!        28  29  30  31  32            row 5
//!      22  23  24  25  26  27          row 4
//!    15  16  17  18  19  20  21        row 3
//!      9  10  11  12  13  14           row 2
//!        4   5   6   7   8             row 1
//!          0   1   2   3               row 0
//! ```
//!
//! Cell 18 touches 17, 19 (its row), 11, 12 (below) and 24, 25 (above). Besides the rows, the
//! lines of cells run up-right ("/", e.g. 0 5 11 18 25 31 36) and up-left ("\", e.g.
//! 3 7 12 18 24 29 33). Writing each cell as (X, Y, row), with X the index of its "/" line from
//! the left (15 22 28 33 is X = 0, 9 16 23 29 34 is X = 1, … 3 8 14 21 is X = 6) and Y that of
//! its "\" line (0 4 9 15 is Y = 0, … 21 27 32 36 is Y = 6), a cell's hull membership is three
//! range checks. For example 18 = (3, 3, 3), 26 = (4, 5, 4), 32 = (4, 6, 5).

use super::*;
use crate::games::options::{opt, value_names};
use crate::games::Game;

fn config(options: &[(String, OptionValue)]) -> Arc<Config> {
    Arc::new(Config::new(options).expect("valid options"))
}

fn rules(groups: &str, adjacent: &str, territory: &str, capture: &str) -> Arc<Config> {
    config(&[
        opt("groups", groups),
        opt("adjacent", adjacent),
        opt("territory", territory),
        opt("capture", capture),
    ])
}

fn on_board(cfg: &Arc<Config>, black: &[usize], white: &[usize], to_move: usize) -> State {
    let mut cells = vec![0i8; cfg.board.num_sites()];
    for &s in black {
        cells[s] = 1;
    }
    for &s in white {
        cells[s] = 2;
    }
    State::from_position(cfg.clone(), &cells, to_move).expect("valid position")
}

fn sites(mask: &[bool]) -> Vec<usize> {
    (0..mask.len()).filter(|&s| mask[s]).collect()
}

fn sorted(mut v: Vec<u32>) -> Vec<u32> {
    v.sort_unstable();
    v.dedup();
    v
}

/// The empty cells of a state, minus `except`.
fn empty_except(state: &State, except: &[u32]) -> Vec<u32> {
    (0..state.cells().len() as u32)
        .filter(|&s| state.cells()[s as usize] == 0 && !except.contains(&s))
        .collect()
}

#[test]
fn the_board_picture_is_right() {
    let cfg = config(&[]);
    let b = &cfg.board;
    assert_eq!(b.num_sites(), 37);
    assert_eq!(b.orth(18), &[11, 12, 17, 19, 24, 25]);
    let lines = b.lines().expect("hex board");
    let through = |axis: usize, s: usize| lines.line(axis, lines.line_of(axis, s).0).to_vec();
    assert_eq!(through(0, 18), vec![0, 5, 11, 18, 25, 31, 36]);
    assert_eq!(through(1, 18), vec![3, 7, 12, 18, 24, 29, 33]);
    assert_eq!(through(2, 18), vec![15, 16, 17, 18, 19, 20, 21]);
    assert_eq!(through(0, 15), vec![15, 22, 28, 33]);
    assert_eq!(through(1, 0), vec![0, 4, 9, 15]);
}

// ---------------------------------------------------------------------------------------------
// Options

#[test]
fn defaults_rulesets_and_overrides() {
    let cfg = config(&[]);
    assert_eq!(
        *cfg.options(),
        vec![
            opt("board", "hex4"),
            opt("ruleset", "nibbler"),
            opt("groups", "must_create_if_1_playable"),
            opt("adjacent", "smallest_playable"),
            opt("territory", "gap"),
            opt("capture", "piecewise"),
            opt("max_moves", 370usize),
        ]
    );
    let stymie = config(&[opt("ruleset", "stymie")]);
    assert_eq!(stymie.rules.groups, Groups::PriorityIf1Playable);
    assert_eq!(stymie.rules.adjacent, Adjacent::SmallestElseLose);
    assert_eq!(stymie.rules.territory, TerritoryKind::Gap);
    assert_eq!(stymie.rules.capture, Capture::GroupwiseReentry);
    let hull = config(&[opt("ruleset", "hull_setbacks"), opt("board", "hex5")]);
    assert_eq!(hull.rules.territory, TerritoryKind::Hull);
    assert_eq!(hull.rules.capture, Capture::Groupwise);
    assert_eq!(hull.board.num_sites(), 61);
    let gaps = config(&[opt("ruleset", "gaps_original")]);
    assert_eq!(gaps.rules.groups, Groups::MustCreateIfOnly1);
    let offshore = config(&[opt("ruleset", "offshore_gaps")]);
    assert_eq!(offshore.rules.groups, Groups::PriorityIf1Playable);
    assert_eq!(offshore.rules.adjacent, Adjacent::SmallestPlayable);
    // An explicit option beats the ruleset, whichever order they come in.
    for given in [
        vec![opt("ruleset", "stymie"), opt("capture", "piecewise")],
        vec![opt("capture", "piecewise"), opt("ruleset", "stymie")],
    ] {
        let cfg = config(&given);
        assert_eq!(cfg.rules.capture, Capture::Piecewise);
        assert_eq!(cfg.rules.groups, Groups::PriorityIf1Playable);
        let again = config(cfg.options());
        assert_eq!(again.rules, cfg.rules);
        assert_eq!(again.options(), cfg.options());
    }
    let game = Game::make(
        "smallholder",
        &[opt("ruleset", "stymie"), opt("max_moves", 9i64)],
    )
    .expect("valid");
    let again = Game::make("smallholder", &game.options()).expect("valid");
    assert_eq!(game.options(), again.options());
}

#[test]
fn every_board_has_its_size() {
    for (name, count) in [
        ("hex3", 19),
        ("hex4", 37),
        ("hex5", 61),
        ("hex6", 91),
        ("hex7", 127),
        ("hex12", 397),
        ("hex18", 919),
        ("hex232323", 12),
        ("hex343434", 27),
        ("hex454545", 48),
    ] {
        let cfg = config(&[opt("board", name)]);
        assert_eq!(cfg.board.num_sites(), count, "{name}");
        assert_eq!(cfg.max_moves, 10 * count);
        let s = State::new(cfg);
        // The first move may go anywhere.
        assert_eq!(s.legal_actions().len(), count);
    }
}

#[test]
fn bad_options_name_what_is_allowed() {
    let err = |o: Vec<(String, OptionValue)>| match Config::new(&o) {
        Err(Error::InvalidOption(m)) => m,
        other => panic!("expected an option error, got {other:?}"),
    };
    let m = err(vec![opt("board", "hex2")]);
    assert!(m.contains("\"hex3\"") && m.contains("\"hex18\"") && m.contains("hex454545"));
    assert!(err(vec![opt("board", "hex19")]).contains("hex18"));
    assert!(err(vec![opt("ruleset", "go")]).contains("hull_setbacks"));
    assert!(err(vec![opt("groups", "some")]).contains("priority_always"));
    assert!(err(vec![opt("adjacent", "any")]).contains("smallest_only_else_lose"));
    assert!(err(vec![opt("territory", 3i64)]).contains("\"hull\""));
    assert!(err(vec![opt("capture", "all")]).contains("groupwise_reentry"));
    assert!(err(vec![opt("max_moves", 0i64)]).contains("max_moves"));
    assert!(err(vec![opt("size", 4i64)]).contains("ruleset"));
}

#[test]
fn bad_positions_are_refused() {
    let cfg = config(&[]);
    assert!(matches!(
        State::from_position(cfg.clone(), &[0; 36], 0),
        Err(Error::InvalidPosition(_))
    ));
    let mut cells = vec![0i8; 37];
    cells[3] = 3;
    assert!(matches!(
        State::from_position(cfg.clone(), &cells, 0),
        Err(Error::InvalidPosition(_))
    ));
    assert!(matches!(
        State::from_position(cfg, &[0; 37], 2),
        Err(Error::InvalidPosition(_))
    ));
}

// ---------------------------------------------------------------------------------------------
// Territory

#[test]
fn gap_holdings_on_the_rows_reach_through_enemy_stones_and_empty_cells() {
    // Black's group 16 10 11 12 13 20 (10 is below-right of 16, 20 above-right of 13) has 16 and
    // 20 on row 3, so it holds 17, 18, 19 between them: 17 and 19 empty, 18 White. On row 2 it
    // holds its own 11 and 12. No "/" or "\" line has two of its stones apart: 13-20 (X = 5)
    // and 10-16 (Y = 1) are neighbours.
    let cfg = config(&[]);
    let s = on_board(&cfg, &[10, 11, 12, 13, 16, 20], &[18], 1);
    assert_eq!(sites(&s.territory(0)), vec![11, 12, 17, 18, 19]);
    assert_eq!(sites(&s.territory(1)), Vec::<usize>::new());
    // White may not play on the held empty cells.
    assert!(!s.is_legal(17) && !s.is_legal(19));
    assert_eq!(
        sites(&s.playable_sites(1)),
        empty_except(&s, &[17, 19])
            .into_iter()
            .map(|x| x as usize)
            .collect::<Vec<_>>()
    );
}

#[test]
fn gap_holdings_on_the_up_right_lines() {
    // Black 5 6 12 19 26 31: 5 and 31 both lie on the "/" line 0 5 11 18 25 31 36, so the group
    // holds 11, 18, 25 between them; 6 and 26 on the line 1 6 12 19 26 32 give its own 12 and 19.
    // Rows and "\" lines have no two of its stones apart (26-31 are neighbours).
    let cfg = config(&[]);
    let s = on_board(&cfg, &[5, 6, 12, 19, 26, 31], &[18], 1);
    assert_eq!(sites(&s.territory(0)), vec![11, 12, 18, 19, 25]);
    assert!(!s.is_legal(11) && !s.is_legal(25));
    assert!(s.is_legal(33));
}

#[test]
fn gap_holdings_on_the_up_left_lines() {
    // The mirror image: Black 7 6 11 17 23 29 has 7 and 29 on the "\" line 3 7 12 18 24 29 33
    // (holding 12, 18, 24) and 6, 23 on 2 6 11 17 23 28 (its own 11, 17).
    let cfg = config(&[]);
    let s = on_board(&cfg, &[6, 7, 11, 17, 23, 29], &[18], 1);
    assert_eq!(sites(&s.territory(0)), vec![11, 12, 17, 18, 24]);
    assert!(!s.is_legal(12) && !s.is_legal(24));
}

#[test]
fn two_groups_of_one_player_do_not_combine() {
    // 15-16 and 20-21 on row 3 are two groups: nothing lies between two stones of one group.
    // Likewise 0-5 and 25-31 on the "/" line 0 5 11 18 25 31 36.
    let cfg = config(&[]);
    let s = on_board(&cfg, &[15, 16, 20, 21, 0, 5, 25, 31], &[], 1);
    assert_eq!(s.groups(0).len(), 4);
    assert_eq!(sites(&s.territory(0)), Vec::<usize>::new());
    // Joined into one group (15 16 … 21), the row holds 16 … 20.
    let s = on_board(&cfg, &[15, 16, 17, 18, 19, 20, 21], &[], 1);
    assert_eq!(sites(&s.territory(0)), vec![16, 17, 18, 19, 20]);
}

#[test]
fn hull_holdings_of_an_l_shaped_group() {
    // Black 16 17 18 19 along row 3, then 26 and 32 up-right from 19. As (X, Y, row):
    // 16 (1,1,3), 17 (2,2,3), 18 (3,3,3), 19 (4,4,3), 26 (4,5,4), 32 (4,6,5): X in 1..=4,
    // Y in 1..=6, rows 3..=5. Row 3: 16 … 19 (20 is X = 5). Row 4: 23 (1,2), 24, 25, 26 (22 is
    // X = 0, 27 is X = 5). Row 5: 29 (1,3), 30, 31, 32 (28 is X = 0).
    let cfg = config(&[opt("territory", "hull")]);
    let s = on_board(&cfg, &[16, 17, 18, 19, 26, 32], &[24], 1);
    assert_eq!(
        sites(&s.territory(0)),
        vec![16, 17, 18, 19, 23, 24, 25, 26, 29, 30, 31, 32]
    );
    // White to move may not play on the held empty cells 23, 25, 29, 30, 31.
    for x in [23, 25, 29, 30, 31] {
        assert!(!s.is_legal(x), "{x}");
    }
    // Under gap the same group holds only its own 17 and 18 (row 3) and 26 (the "/" line
    // 19 26 32).
    let gap = on_board(&config(&[]), &[16, 17, 18, 19, 26, 32], &[24], 1);
    assert_eq!(sites(&gap.territory(0)), vec![17, 18, 26]);
}

#[test]
fn a_straight_line_holds_nothing_under_hull() {
    let cfg = config(&[opt("territory", "hull")]);
    // A row, a "/" line (4 10 17 24) and a single stone.
    let s = on_board(&cfg, &[16, 17, 18, 19], &[], 1);
    assert_eq!(sites(&s.territory(0)), Vec::<usize>::new());
    let s = on_board(&cfg, &[4, 10, 17, 24], &[0], 1);
    assert_eq!(sites(&s.territory(0)), Vec::<usize>::new());
    assert_eq!(sites(&s.territory(1)), Vec::<usize>::new());
    // Under gap the row holds its inner stones.
    let s = on_board(&config(&[]), &[16, 17, 18, 19], &[], 1);
    assert_eq!(sites(&s.territory(0)), vec![17, 18]);
}

// ---------------------------------------------------------------------------------------------
// Captures

/// Black has 10 11 16 (size 3) and 13 20 (size 2); playing 12 joins them into
/// 10 11 12 13 16 20, which holds 17 18 19 on row 3 (and its own 11 12). 12 is a legal
/// extension under every capture rule: two playable groups, and 12 touches the smaller one (13).
const JOIN_BLACK: [usize; 5] = [10, 11, 13, 16, 20];

#[test]
fn piecewise_capture_splits_an_enemy_group() {
    // White 23 17 18 25 is one group (23-17, 17-18, 18-25). 17 and 18 fall inside Black's new
    // territory and are captured; 23 and 25 are left as two single stones. White's territory
    // (24, between 23 and 25 on row 4) goes with the group.
    let cfg = config(&[]);
    let mut s = on_board(&cfg, &JOIN_BLACK, &[17, 18, 23, 25], 0);
    assert_eq!(sites(&s.territory(1)), vec![24]);
    assert!(s.is_legal(12));
    s.apply(12).expect("legal");
    assert_eq!(s.cells()[17], 0);
    assert_eq!(s.cells()[18], 0);
    assert_eq!(s.groups(1), vec![vec![23], vec![25]]);
    assert_eq!(sites(&s.territory(1)), Vec::<usize>::new());
    assert_eq!(sites(&s.territory(0)), vec![11, 12, 17, 18, 19]);
    assert_eq!(s.current_player(), Some(1));
}

#[test]
fn groupwise_capture_takes_whole_groups_only() {
    let cfg = rules(
        "must_create_if_1_playable",
        "smallest_playable",
        "gap",
        "groupwise",
    );
    // White 18 19 lies wholly inside 17 18 19: captured. White 33 is untouched.
    let mut s = on_board(&cfg, &JOIN_BLACK, &[18, 19, 33], 0);
    s.apply(12).expect("legal");
    assert_eq!(s.groups(1), vec![vec![33]]);
    // White 23 17 18 25 has 23 and 25 outside: the whole group survives.
    let mut s = on_board(&cfg, &JOIN_BLACK, &[17, 18, 23, 25], 0);
    s.apply(12).expect("legal");
    assert_eq!(s.groups(1), vec![vec![17, 18, 23, 25]]);
    assert_eq!(s.cells()[12], 1);
}

#[test]
fn an_isolated_placement_captures_nothing_but_the_next_extension_does() {
    // Black's group 10 11 12 13 16 20 holds 17 18 19, where White's 18 stands. Black has one
    // group, so must create: 33 is isolated and captures nothing.
    let cfg = config(&[]);
    let mut s = on_board(&cfg, &[10, 11, 12, 13, 16, 20], &[0, 1, 18], 0);
    assert!(!s.is_legal(14), "one playable group: no extension");
    s.apply(33).expect("legal");
    assert_eq!(s.cells()[18], 2);
    // White has 0 1 (size 2) and 18 (size 1, playable through 24 and 25, as 17 and 19 are held
    // by Black), so may extend 18 only: 24 is legal, 2 (next to 1) is not. White's 18 24 holds
    // nothing.
    assert!(!s.is_legal(2));
    s.apply(24).expect("legal");
    // Black now has two playable groups and extends the smallest (33) with 34. 33 34 holds
    // nothing, but the capture uses Black's whole territory, where White's 18 stands.
    s.apply(34).expect("legal");
    assert_eq!(s.cells()[18], 0);
    assert_eq!(s.cells()[24], 2);
    assert_eq!(s.groups(1), vec![vec![0, 1], vec![24]]);
}

#[test]
fn re_entry_lets_a_player_extend_inside_enemy_holdings() {
    // Black's 10 11 12 13 16 20 holds 17 18 19; White has 18 (inside) and 33. Under stymie
    // (groupwise_reentry) the empty cells next to White's stones are playable for White even
    // inside Black's territory. White has two playable groups, both of size 1, so it may create
    // anywhere playable or extend either group: every empty cell is legal, 17 and 19 included.
    let cfg = config(&[opt("ruleset", "stymie")]);
    let mut s = on_board(&cfg, &[10, 11, 12, 13, 16, 20], &[18, 33], 1);
    assert_eq!(s.legal_actions(), empty_except(&s, &[]));
    assert!(s.is_legal(17) && s.is_legal(19));
    s.apply(17).expect("legal");
    assert_eq!(s.groups(1), vec![vec![17, 18], vec![33]]);
    // Without re-entry 17 and 19 are closed to White.
    let cfg = config(&[opt("ruleset", "stymie"), opt("capture", "groupwise")]);
    let s = on_board(&cfg, &[10, 11, 12, 13, 16, 20], &[18, 33], 1);
    assert_eq!(s.legal_actions(), empty_except(&s, &[17, 19]));
}

#[test]
fn an_empty_cell_in_both_territories_is_closed_to_both() {
    // Black 11 12 17 19 holds 18 (17 and 19 on row 3). White 5 10 16 23 24 25 holds 18 too (5 and
    // 25 on the "/" line 0 5 11 18 25 …), as well as 11, 17 (Black stones), 10 and 24 (its own).
    let black = [11, 12, 17, 19];
    let white = [5, 10, 16, 23, 24, 25];
    let cfg = config(&[]);
    for to_move in 0..2 {
        let s = on_board(&cfg, &black, &white, to_move);
        assert_eq!(sites(&s.territory(0)), vec![18]);
        assert_eq!(sites(&s.territory(1)), vec![10, 11, 17, 18, 24]);
        let open: Vec<usize> = empty_except(&s, &[18])
            .into_iter()
            .map(|x| x as usize)
            .collect();
        assert_eq!(sites(&s.playable_sites(0)), open);
        assert_eq!(sites(&s.playable_sites(1)), open);
        assert!(!s.is_legal(18));
    }
    // Re-entry opens it to both, since both have stones next to it.
    let cfg = config(&[opt("capture", "groupwise_reentry")]);
    for to_move in 0..2 {
        let s = on_board(&cfg, &black, &white, to_move);
        assert!(s.playable_sites(to_move)[18]);
    }
}

// ---------------------------------------------------------------------------------------------
// Group rules

/// Black 0 (hemmed in by White 1 4 5: blocked) and 30 35 (playable). Black to move.
/// Black touches the empty cells 24 25 29 31 34 36 (all next to 30 35); every other empty cell
/// is a creation site. The smallest playable group is 30 35, so those six are the extensions.
fn blocked_position(groups: &str) -> State {
    let cfg = rules(groups, "smallest_playable", "gap", "piecewise");
    on_board(&cfg, &[0, 30, 35], &[1, 4, 5], 0)
}

const NEXT_TO_30_35: [u32; 6] = [24, 25, 29, 31, 34, 36];

#[test]
fn a_blocked_group_does_not_count_as_playable() {
    let s = blocked_position("must_create_if_1_playable");
    assert_eq!(sites(&s.blocked_stones(0)), vec![0]);
    assert_eq!(sites(&s.blocked_stones(1)), Vec::<usize>::new());
    let all = empty_except(&s, &[]);
    assert_eq!(all.len(), 31);
    let create = empty_except(&s, &NEXT_TO_30_35);
    assert_eq!(create.len(), 25);
    // Counting all groups, n = 2: creations and extensions.
    assert_eq!(
        blocked_position("must_create_if_only_1").legal_actions(),
        all
    );
    assert_eq!(blocked_position("priority_if_only_1").legal_actions(), all);
    // Counting playable groups, n = 1: creations only (and there are some).
    assert_eq!(s.legal_actions(), create);
    assert_eq!(
        blocked_position("priority_if_1_playable").legal_actions(),
        create
    );
    // Creations exist, so priority_always allows nothing else.
    assert_eq!(blocked_position("priority_always").legal_actions(), create);
}

#[test]
fn priority_always_prefers_creation_even_with_two_playable_groups() {
    // Black 0 (now playable through 4) and 30 35; White 1 5 15. Smallest playable group: 0, whose
    // only empty neighbour is 4.
    let all_rules = [
        "must_create_if_only_1",
        "must_create_if_1_playable",
        "priority_if_only_1",
        "priority_if_1_playable",
    ];
    let mut touching = NEXT_TO_30_35.to_vec();
    touching.push(4);
    for groups in all_rules {
        let cfg = rules(groups, "smallest_playable", "gap", "piecewise");
        let s = on_board(&cfg, &[0, 30, 35], &[1, 5, 15], 0);
        assert_eq!(
            s.legal_actions(),
            empty_except(&s, &NEXT_TO_30_35),
            "{groups}"
        );
    }
    let cfg = rules("priority_always", "smallest_playable", "gap", "piecewise");
    let s = on_board(&cfg, &[0, 30, 35], &[1, 5, 15], 0);
    assert_eq!(s.legal_actions(), empty_except(&s, &touching));
}

#[test]
fn with_no_creation_site_must_create_loses_and_priority_extends() {
    // hex232323, cells numbered
    //        10  11
    //       7   8   9
    //     3   4   5   6
    //       0   1   2
    // Black 4 5 touches every empty cell (0 1 2 3 6 7 8 9); White holds 10 11. Black has one
    // group and no creation site.
    let board = opt("board", "hex232323");
    for (groups, expect) in [
        ("must_create_if_only_1", vec![]),
        ("must_create_if_1_playable", vec![]),
        ("priority_if_only_1", vec![0, 1, 2, 3, 6, 7, 8, 9]),
        ("priority_if_1_playable", vec![0, 1, 2, 3, 6, 7, 8, 9]),
        ("priority_always", vec![0, 1, 2, 3, 6, 7, 8, 9]),
    ] {
        let cfg = config(&[board.clone(), opt("groups", groups)]);
        let s = on_board(&cfg, &[4, 5], &[10, 11], 0);
        assert_eq!(s.legal_actions(), expect, "{groups}");
        if expect.is_empty() {
            // Black, to move with no legal placement, has lost.
            assert!(s.is_terminal());
            assert_eq!(s.current_player(), None);
            assert_eq!(s.ranks(), Some(vec![2.0, 1.0]));
            assert_eq!(s.returns(), Some(vec![-1.0, 1.0]));
            assert!(!s.truncated());
        }
    }
}

#[test]
fn the_player_left_without_a_placement_loses() {
    // hex232323 (picture above), nibbler. Black 0 4 5 (one group), White 2 and 10 (two playable
    // single stones), White to move. White may create on 3 or 9 (touching no White stone) or
    // extend either single stone: 1 6 (next to 2) and 7 8 11 (next to 10).
    let cfg = config(&[opt("board", "hex232323")]);
    let mut s = on_board(&cfg, &[0, 4, 5], &[2, 10], 1);
    assert_eq!(s.legal_actions(), vec![1, 3, 6, 7, 8, 9, 11]);
    // After 11, every empty cell (1 3 6 7 8 9) touches Black's only group: Black must create and
    // cannot. White wins.
    s.apply(11).expect("legal");
    assert_eq!(s.current_player(), None);
    assert_eq!(s.legal_actions(), Vec::<u32>::new());
    assert_eq!(s.ranks(), Some(vec![2.0, 1.0]));
    assert!(matches!(s.apply(1), Err(Error::GameOver(_))));
}

// ---------------------------------------------------------------------------------------------
// Adjacency rules

/// Black: 0 (blocked by White 1 4 5; size 1), A = 30 35 (size 2) and B = 26 27 32 (size 3).
/// White also has 15 16 22, out of the way. A touches 24 25 29 31 34 36; B touches 19 20 21 25
/// 31 36; 25 31 36 touch both. Groups are counted whole (n = 3), so creations and extensions
/// are both allowed and the legal set is C ∪ E.
fn adjacency_position(adjacent: &str, black_0_blocked: bool) -> State {
    let cfg = rules("must_create_if_only_1", adjacent, "gap", "piecewise");
    let white: &[usize] = if black_0_blocked {
        &[1, 4, 5, 15, 16, 22]
    } else {
        &[1, 5, 15, 16, 22]
    };
    on_board(&cfg, &[0, 30, 35, 26, 27, 32], white, 0)
}

#[test]
fn each_adjacency_rule() {
    let create: Vec<u32> = vec![2, 3, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 18, 23, 28, 33];
    assert_eq!(
        create,
        empty_except(
            &adjacency_position("smallest_playable", true),
            &[19, 20, 21, 24, 25, 29, 31, 34, 36]
        )
    );
    let with = |e: &[u32]| sorted(create.iter().chain(e).copied().collect());
    // Smallest playable group is A (size 2): touch A ...
    assert_eq!(
        adjacency_position("smallest_playable", true).legal_actions(),
        with(&[24, 25, 29, 31, 34, 36])
    );
    // ... and touch nothing but A.
    assert_eq!(
        adjacency_position("smallest_playable_only", true).legal_actions(),
        with(&[24, 29, 34])
    );
    // Smallest group of all is the blocked 0 (size 1): no extension at all.
    assert_eq!(
        adjacency_position("smallest_else_lose", true).legal_actions(),
        create
    );
    assert_eq!(
        adjacency_position("smallest_only_else_lose", true).legal_actions(),
        create
    );
    // With 4 empty, 0 is playable and the smallest under every rule: 4 is the only extension
    // (and is no longer a White stone, so it is not a creation either).
    for adjacent in &value_names(OPTIONS, "adjacent") {
        let s = adjacency_position(adjacent, false);
        assert_eq!(s.legal_actions(), with(&[4]), "{adjacent}");
    }
}

#[test]
fn else_lose_with_a_blocked_smallest_group_can_lose_the_game() {
    // hex232323: Black 0 (blocked by White 1 3 4) and 8 9 11 (touches every other empty cell:
    // 5 6 7 10). No creation site, the smallest group is blocked: smallest_else_lose leaves Black
    // nothing. smallest_playable lets Black extend 8 9 11 instead.
    for (adjacent, expect) in [
        ("smallest_else_lose", vec![]),
        ("smallest_playable", vec![5, 6, 7, 10]),
    ] {
        let cfg = config(&[
            opt("board", "hex232323"),
            opt("groups", "priority_if_only_1"),
            opt("adjacent", adjacent),
        ]);
        let s = on_board(&cfg, &[0, 8, 9, 11], &[1, 3, 4, 2], 0);
        assert_eq!(s.legal_actions(), expect, "{adjacent}");
        assert_eq!(s.is_terminal(), expect.is_empty());
    }
}

// ---------------------------------------------------------------------------------------------
// Game flow

#[test]
fn the_move_cap_truncates() {
    let cfg = config(&[opt("max_moves", 3i64)]);
    let mut s = State::new(cfg);
    for a in [0, 36, 18] {
        assert!(!s.is_terminal());
        s.apply(a).expect("legal");
    }
    assert!(s.is_terminal() && s.truncated());
    assert_eq!(s.ranks(), Some(vec![1.5, 1.5]));
    assert_eq!(s.returns(), Some(vec![0.0, 0.0]));
    assert_eq!(s.move_count(), 3);
}

#[test]
fn opening_moves_must_create() {
    // Nibbler: each player's first two stones create groups (fewer than two playable groups).
    let cfg = config(&[]);
    let mut s = State::new(cfg);
    s.apply(18).expect("legal");
    // White may play anywhere but 18; none of it touches White's stones.
    assert_eq!(s.legal_actions(), empty_except(&s, &[]));
    s.apply(0).expect("legal");
    // Black has one group: 11 12 17 19 24 25 (next to 18) are closed.
    assert_eq!(
        s.legal_actions(),
        empty_except(&s, &[11, 12, 17, 19, 24, 25])
    );
    s.apply(36).expect("legal");
    // White has one group (0): 1 4 5 are closed.
    assert_eq!(s.legal_actions(), empty_except(&s, &[1, 4, 5]));
    s.apply(3).expect("legal");
    // Black has 18 and 36, both of size 1: every empty cell is legal.
    assert_eq!(s.legal_actions(), empty_except(&s, &[]));
}

#[test]
fn random_actions_are_uniform_over_the_legal_set() {
    let cfg = config(&[]);
    let mut s = State::new(cfg);
    for a in [18, 0, 36, 3] {
        s.apply(a).expect("legal");
    }
    let legal = s.legal_actions();
    let mut counts = vec![0usize; 37];
    let mut rng = Rng::new(5);
    let mut buf = Vec::new();
    let draws = 33_000;
    for _ in 0..draws {
        let a = s.random_action(&mut rng, &mut buf).expect("not over");
        counts[a] += 1;
    }
    let expect = draws / legal.len();
    for (a, &count) in counts.iter().enumerate() {
        if legal.contains(&(a as u32)) {
            assert!(count * 10 > expect * 8 && count * 10 < expect * 12);
        } else {
            assert_eq!(count, 0);
        }
    }
}

#[test]
fn else_lose_still_extends_another_group_of_the_smallest_size() {
    // The rule's table is followed literally: extensions must touch a group of size m_abs. Black
    // 0 (blocked by White 1 4 5) and 33 are both of size 1, so 33's neighbours 28 29 34 remain
    // extensions; only when every smallest group is blocked are extensions frozen.
    let cfg = rules(
        "must_create_if_only_1",
        "smallest_else_lose",
        "gap",
        "piecewise",
    );
    let s = on_board(&cfg, &[0, 33], &[1, 4, 5], 0);
    assert_eq!(s.legal_actions(), empty_except(&s, &[]));
    assert!(s.is_legal(28) && s.is_legal(29) && s.is_legal(34));
    let cfg = rules(
        "must_create_if_only_1",
        "smallest_only_else_lose",
        "gap",
        "piecewise",
    );
    let s = on_board(&cfg, &[0, 33], &[1, 4, 5], 0);
    assert_eq!(s.legal_actions(), empty_except(&s, &[]));
}
