//! Hand-checked Faraday positions.
//!
//! Boards used below, numbered as the engine numbers them (rows from the bottom, left to right).
//!
//! Lattice points / hex cells, regular hexagon of side 3 (grids "hex" and "hex_omni", order 3):
//!
//! ```text
//!         16  17  18
//!       12  13  14  15
//!      7   8   9  10  11
//!       3   4   5   6
//!         0   1   2
//! ```
//!
//! Orthogonal neighbours (the six lattice neighbours), worked out from the picture:
//! 0: 1 3 4 · 1: 0 2 4 5 · 2: 1 5 6 · 3: 0 4 7 8 · 4: 0 1 3 5 8 9 · 5: 1 2 4 6 9 10 ·
//! 6: 2 5 10 11 · 7: 3 8 12 · 8: 3 4 7 9 12 13 · 9: 4 5 8 10 13 14 · 10: 5 6 9 11 14 15 ·
//! 11: 6 10 15 · 12: 7 8 13 16 · 13: 8 9 12 14 16 17 · 14: 9 10 13 15 17 18 · 15: 10 11 14 18 ·
//! 16: 12 13 17 · 17: 13 14 16 18 · 18: 14 15 17.
//!
//! As hex cells, the diagonal neighbours of the centre 9 are the cells straight two rows up and
//! down (17, 1) and one row up or down, one and a half cells sideways (12, 15, 3, 6).
//!
//! Square points 3 × 3 and 4 × 4 (grid "square_omni"): site y·N + x at (x, y).

use super::*;
use crate::games::options::{opt, value_names};

fn config(options: &[(String, OptionValue)]) -> Arc<Config> {
    Arc::new(Config::new(options).expect("valid options"))
}

fn grid(name: &str, order: i64) -> Arc<Config> {
    config(&[opt("grid", name), opt("order", order)])
}

/// A phase-2 position from player-0 and player-1 stones.
fn position(
    cfg: &Arc<Config>,
    p0: &[usize],
    p1: &[usize],
    to_move: usize,
    last: Option<usize>,
) -> State {
    let mut cells = vec![0i8; cfg.board.num_sites()];
    for &s in p0 {
        cells[s] = 1;
    }
    for &s in p1 {
        cells[s] = 2;
    }
    State::from_position(cfg.clone(), &cells, to_move, last).expect("valid position")
}

fn legal(s: &State) -> Vec<u32> {
    s.legal_actions()
}

#[test]
fn defaults_and_board_sizes() {
    let cfg = config(&[]);
    assert_eq!(cfg.grid, Grid::Hex);
    assert_eq!(cfg.order, 6);
    assert_eq!(cfg.scoring, Scoring::SimpleOrthogonal);
    assert!(!cfg.surplus_charge);
    assert_eq!(cfg.min_offer_stones, 0);
    assert_eq!(cfg.board.num_sites(), 91);
    assert_eq!(State::new(cfg).num_actions(), 2 * 91 + 3);
    // The site counts of the specification's table, orders 4, 5, 6, 7, 8, 11.
    let table: [(&str, [usize; 6]); 6] = [
        ("trisquare_omni", [34, 62, 98, 142, 194, 398]),
        ("trisquare", [34, 62, 98, 142, 194, 398]),
        ("hex_limping", [27, 48, 75, 108, 147, 300]),
        ("hex", [37, 61, 91, 127, 169, 331]),
        ("hex_omni", [37, 61, 91, 127, 169, 331]),
        ("square_omni", [16, 25, 36, 49, 64, 121]),
    ];
    for (name, sites) in table {
        for (order, n) in [4, 5, 6, 7, 8, 11].into_iter().zip(sites) {
            let cfg = grid(name, order);
            assert_eq!(cfg.board.num_sites(), n, "{name} {order}");
            assert_eq!(State::new(cfg).num_actions(), 2 * n + 3);
        }
    }
    // The ends of the accepted range exist.
    for name in &value_names(OPTIONS, "grid") {
        assert!(grid(name, 3).board.num_sites() >= 9);
        assert!(grid(name, 25).board.num_sites() <= crate::board::MAX_SITES);
    }
}

#[test]
fn bad_options_name_what_is_allowed() {
    let err = Config::new(&[opt("grid", "triangle")]).unwrap_err();
    assert!(matches!(err, Error::InvalidOption(_)));
    assert!(
        err.to_string().contains(
            "\"trisquare_omni\", \"trisquare\", \"hex_limping\", \"hex\", \"hex_omni\", \"square_omni\""
        ),
        "{err}"
    );
    for order in [2i64, 26, -1] {
        let err = Config::new(&[opt("order", order)]).unwrap_err();
        assert!(err.to_string().contains("3 to 25"), "{err}");
    }
    let err = Config::new(&[opt("order", "six")]).unwrap_err();
    assert!(err.to_string().contains("3 to 25"), "{err}");
    let err = Config::new(&[opt("scoring", "largest")]).unwrap_err();
    assert!(
        err.to_string()
            .contains("\"simple_orthogonal\", \"simple\", \"special_orthogonal\", \"special\""),
        "{err}"
    );
    let err = Config::new(&[opt("surplus_charge", 1i64)]).unwrap_err();
    assert!(err.to_string().contains("true or false"), "{err}");
    let err = Config::new(&[opt("size", 6i64)]).unwrap_err();
    assert!(
        err.to_string()
            .contains("grid, min_offer_stones, order, scoring, surplus_charge"),
        "{err}"
    );
}

#[test]
fn hand_derived_neighbours() {
    let hex = grid("hex", 3);
    assert_eq!(hex.board.num_sites(), 19);
    assert_eq!(hex.board.orth(9), &[4, 5, 8, 10, 13, 14]);
    assert_eq!(hex.board.orth(4), &[0, 1, 3, 5, 8, 9]);
    assert_eq!(hex.board.orth(13), &[8, 9, 12, 14, 16, 17]);
    assert_eq!(hex.board.orth(15), &[10, 11, 14, 18]);
    let omni = grid("hex_omni", 3);
    assert_eq!(
        omni.board.neighbors(Relation::All, 9),
        &[1, 3, 4, 5, 6, 8, 10, 12, 13, 14, 15, 17]
    );
    // Alternating hexagon (2, 3): rows 3, 4, 3, 2; site 4 (second row, second site) touches both
    // its row neighbours, 0 and 1 below and 7 and 8 above.
    let limping = grid("hex_limping", 3);
    assert_eq!(limping.board.num_sites(), 12);
    assert_eq!(limping.board.orth(4), &[0, 1, 3, 5, 7, 8]);
    // Triangle-square diamond d = 1: site 4 (the point below the centre) has edges to 0, 1, 6, 7,
    // 9 and square diagonals 2 and 3.
    let tri = grid("trisquare", 3);
    assert_eq!(tri.board.num_sites(), 14);
    assert_eq!(tri.board.orth(4), &[0, 1, 6, 7, 9]);
    assert_eq!(tri.board.diag(4), &[2, 3]);
}

#[test]
fn forced_fill_level_on_hex() {
    // Player 1 on 4, 5, 8 and player 0 on 10, 13, 14: around the centre 9, three of each. For
    // either player opp = own = 3, so 9 is legal only because opp ≥ F = 3.
    let cfg = grid("hex", 3);
    let s = position(&cfg, &[10, 13, 14], &[4, 5, 8], 0, Some(1));
    assert_eq!(s.charge_counts(0)[9], 3);
    assert_eq!(s.charge_counts(1)[9], 3);
    // Player 0 (own = player-0 neighbours, opp = player-1 neighbours), site by site:
    // 0 (1 3 4): 1 opp ✓ · 1 (0 2 4 5): 2 opp ✓ · 2 (1 5 6): 1 opp ✓ · 3 (0 4 7 8): 2 opp ✓ ·
    // 6 (2 5 10 11): 1–1 ✗ · 7 (3 8 12): 1 opp ✓ · 9: 3–3, F ✓ · 11 (6 10 15): own only ✗ ·
    // 12 (7 8 13 16): 1–1 ✗ · 15, 16, 17, 18: own only ✗.
    assert_eq!(legal(&s), vec![0, 1, 2, 3, 7, 9]);
    assert_eq!(s.placeable_sites(0), vec![0, 1, 2, 3, 7, 9]);
    // Player 1, the mirror: 9 by F; 11 (10), 15 (10 14), 16 (13), 17 (13 14), 18 (14) have only
    // player-0 neighbours; 6 and 12 are 1–1; 0, 1, 2, 3, 7 have only player-1 neighbours.
    let s = position(&cfg, &[10, 13, 14], &[4, 5, 8], 1, Some(0));
    assert_eq!(legal(&s), vec![9, 11, 15, 16, 17, 18]);
    // Two of each around 9 (player 1 on 4, 5; player 0 on 10, 13): 2 < F and 2 = 2, illegal.
    let s = position(&cfg, &[10, 13], &[4, 5], 0, Some(1));
    assert!(!s.is_legal(9));
    assert!(!s.placeable_sites(1).contains(&9));
}

#[test]
fn forced_fill_level_on_hex_limping() {
    // Site 4 (neighbours 0 1 3 5 7 8): player 1 on 0, 1, 3 and player 0 on 5, 7, 8: 3–3, legal
    // for both only through F = 3.
    let cfg = grid("hex_limping", 3);
    let s = position(&cfg, &[5, 7, 8], &[0, 1, 3], 0, Some(1));
    assert!(s.is_legal(4));
    assert!(s.placeable_sites(1).contains(&4));
    // 2–2 (drop 3 and 8): illegal for both.
    let s = position(&cfg, &[5, 7], &[0, 1], 0, Some(1));
    assert!(!s.is_legal(4));
    assert!(!s.placeable_sites(0).contains(&4) && !s.placeable_sites(1).contains(&4));
}

#[test]
fn forced_fill_level_on_square_omni() {
    // 3 × 3, centre 4 with all 8 others as neighbours. Player 1 on the bottom row and 3, player 0
    // on 5 and the top row: 4–4, legal through F = 4.
    let cfg = grid("square_omni", 3);
    let s = position(&cfg, &[5, 6, 7, 8], &[0, 1, 2, 3], 0, Some(1));
    assert_eq!(s.charge_counts(1)[4], 4);
    assert_eq!(legal(&s), vec![4]);
    // 3–3 (player 1 on 0, 1, 2; player 0 on 3, 5, 6): 3 < F, illegal for both.
    let s = position(&cfg, &[3, 5, 6], &[0, 1, 2], 0, Some(1));
    assert!(!s.placeable_sites(0).contains(&4));
    assert!(!s.placeable_sites(1).contains(&4));
}

#[test]
fn forced_fill_level_on_trisquare_grids() {
    // trisquare (orthogonal, F = 3): site 4 has five neighbours 0 1 6 7 9, so opp ≥ 3 always
    // means opp > own and F never decides. 3 against 2: legal.
    let cfg = grid("trisquare", 3);
    let s = position(&cfg, &[7, 9], &[0, 1, 6], 0, Some(1));
    assert!(s.is_legal(4));
    // 2 against 2: illegal.
    let s = position(&cfg, &[7, 9], &[0, 1], 0, Some(1));
    assert!(!s.is_legal(4));
    // Diagonals do not count here: player 1 on 0 and on the diagonals 2, 3, player 0 on 7:
    // orthogonally 1–1, illegal.
    let s = position(&cfg, &[7], &[0, 2, 3], 0, Some(1));
    assert!(!s.placeable_sites(0).contains(&4));
    // trisquare_omni (all seven, F = 4): the same stones give 3 against 1, legal.
    let omni = grid("trisquare_omni", 3);
    let s = position(&omni, &[7], &[0, 2, 3], 0, Some(1));
    assert!(s.is_legal(4));
    assert_eq!(s.charge_counts(1)[4], 3);
    // 4 against 3 (player 1 on 0 1 2 3, player 0 on 6 7 9): legal; with seven neighbours
    // opp ≥ F = 4 again implies opp > own.
    let s = position(&omni, &[6, 7, 9], &[0, 1, 2, 3], 0, Some(1));
    assert!(s.is_legal(4));
    // 3 against 3 (drop 3): illegal for both.
    let s = position(&omni, &[6, 7, 9], &[0, 1, 2], 0, Some(1));
    assert!(!s.placeable_sites(0).contains(&4) && !s.placeable_sites(1).contains(&4));
}

#[test]
fn hex_omni_counts_twelve_neighbours() {
    // The centre cell 9 of the side-3 hexagon has 6 edge neighbours and 6 corner (diagonal)
    // ones; all 12 count on hex_omni.
    let cfg = grid("hex_omni", 3);
    let ring = [1, 3, 4, 5, 6, 8, 10, 12, 13, 14, 15, 17];
    let s = position(&cfg, &[], &ring, 0, Some(1));
    assert_eq!(s.charge_counts(1)[9], 12);
    assert_eq!(s.charge_counts(0)[9], 0);
    assert!(s.is_legal(9));
    // The same stones on the lattice-point grid "hex" count only the 6 orthogonal ones.
    let s = position(&grid("hex", 3), &[], &ring, 0, Some(1));
    assert_eq!(s.charge_counts(1)[9], 6);
    // F = 7: 7 against 5 is legal (and 7 > 5 anyway); 6 against 6 is not (6 < 7).
    let s = position(
        &cfg,
        &[12, 13, 14, 15, 17],
        &[1, 3, 4, 5, 6, 8, 10],
        0,
        Some(1),
    );
    assert!(s.is_legal(9));
    let s = position(
        &cfg,
        &[10, 12, 13, 14, 15, 17],
        &[1, 3, 4, 5, 6, 8],
        0,
        Some(1),
    );
    assert!(!s.placeable_sites(0).contains(&9) && !s.placeable_sites(1).contains(&9));
}

#[test]
fn the_pie_offer_takes_three_actions() {
    let cfg = grid("hex", 3);
    let n = 19;
    let mut s = State::new(cfg);
    assert_eq!(
        (s.phase(), s.pie_actions_left()),
        (Phase::Offer { left: 3 }, 3)
    );
    assert_eq!(s.current_player(), Some(0));
    // Any site in either colour, or pass: 0..=2N.
    assert_eq!(legal(&s), (0..=2 * n as u32).collect::<Vec<_>>());
    assert_eq!(s.last_placer(), None);
    // A player-0 stone on 4: 4 and N + 4 are gone.
    s.apply(4).expect("offer");
    assert_eq!(
        (s.phase(), s.pie_actions_left()),
        (Phase::Offer { left: 2 }, 2)
    );
    assert!(!s.is_legal(4) && !s.is_legal(n + 4));
    assert_eq!(legal(&s).len(), 2 * 18 + 1);
    assert_eq!(s.last_placer(), Some(0));
    // A player-1 stone on 14 (action N + 14), then a pass.
    s.apply((n + 14) as i64).expect("offer");
    s.apply(2 * n as i64).expect("pass");
    assert_eq!(s.cells()[4], 1);
    assert_eq!(s.cells()[14], 2);
    assert_eq!((s.phase(), s.pie_actions_left()), (Phase::Choice, 0));
    assert_eq!(s.current_player(), Some(1));
    assert_eq!(legal(&s), vec![2 * n as u32 + 1, 2 * n as u32 + 2]);
    assert_eq!(s.move_count(), 3);
    // The placement rule did not apply: a pie stone may go anywhere, even with no charge near.
    assert!(s.is_legal(2 * n + 1) && !s.is_legal(2 * n) && !s.is_legal(0));

    // Accept: player 1 moves first with the colours as offered. Player 1 may place next to the
    // player-0 stone on 4 (0 1 3 5 8 9) except 9, which also touches player 1's 14 (1–1).
    let mut accepted = s.clone();
    accepted.apply(2 * n as i64 + 1).expect("accept");
    assert_eq!(accepted.phase(), Phase::Placement);
    assert_eq!(accepted.current_player(), Some(1));
    assert_eq!(accepted.cells()[4], 1);
    assert_eq!(legal(&accepted), vec![0, 1, 3, 5, 8]);
    // Player 0 would have 14's neighbours (9 10 13 15 17 18) except 9.
    assert_eq!(accepted.placeable_sites(0), vec![10, 13, 15, 17, 18]);
    assert_eq!(accepted.last_placer(), Some(0));

    // Swap: every stone changes colour and player 0 moves first, now beside the player-1 stone
    // on 4.
    let mut swapped = s.clone();
    swapped.apply(2 * n as i64 + 2).expect("swap");
    assert_eq!(swapped.current_player(), Some(0));
    assert_eq!((swapped.cells()[4], swapped.cells()[14]), (2, 1));
    assert_eq!(legal(&swapped), vec![0, 1, 3, 5, 8]);
    assert_eq!(swapped.stone_counts(), [1, 1]);
    // The offer still counts as player 0's placing.
    assert_eq!(swapped.last_placer(), Some(0));
    assert_eq!(swapped.move_count(), 4);
}

#[test]
fn swap_exchanges_colours_even_without_player_0_stones() {
    let cfg = grid("hex", 3);
    let n = 19;
    // Offer: a single player-1 stone on 9, then two passes.
    let mut s = State::new(cfg);
    for a in [n + 9, 2 * n, 2 * n] {
        s.apply(a as i64).expect("offer");
    }
    // Swap: 9 becomes player 0's. Player 0 should move first but has no player-1 stone to place
    // beside, so the turn passes at once to player 1, who may place around 9.
    let mut swapped = s.clone();
    swapped.apply(2 * n as i64 + 2).expect("swap");
    assert_eq!(swapped.cells()[9], 1);
    assert_eq!(swapped.current_player(), Some(1));
    assert_eq!(legal(&swapped), vec![4, 5, 8, 10, 13, 14]);
    // Accept: player 1 should move first, cannot, and player 0 places around 9.
    let mut accepted = s;
    accepted.apply(2 * n as i64 + 1).expect("accept");
    assert_eq!(accepted.cells()[9], 2);
    assert_eq!(accepted.current_player(), Some(0));
    assert_eq!(legal(&accepted), vec![4, 5, 8, 10, 13, 14]);
}

#[test]
fn an_empty_offer_ends_the_game_at_once_as_a_draw() {
    for choice in [39i64, 40] {
        let mut s = State::new(grid("hex", 3));
        for _ in 0..3 {
            s.apply(38).expect("pass");
        }
        s.apply(choice).expect("accept or swap");
        // No stone anywhere: nobody has a charge to place beside.
        assert!(s.is_terminal());
        assert_eq!(s.current_player(), None);
        assert_eq!(s.last_placer(), None);
        assert_eq!(s.scores(), Some(vec![0.0, 0.0]));
        assert_eq!(s.ranks(), Some(vec![1.5, 1.5]));
        assert_eq!(s.returns(), Some(vec![0.0, 0.0]));
        assert!(!s.truncated());
        assert_eq!(s.move_count(), 4);
        assert!(matches!(s.apply(0), Err(Error::GameOver(_))));
    }
}

/// `min_offer_stones` (the designer's "1 to 3 stones"): a pass is offered only once the board
/// holds that many stones. Side-3 hexagon, N = 19: stones are actions 0..38, the pass 38.
#[test]
fn min_offer_stones_refuses_a_pass_until_the_offer_holds_enough() {
    let n = 19u32;
    let pass = 2 * n;
    let stones: Vec<u32> = (0..2 * n).collect();
    for min in 0..=3i64 {
        let cfg = config(&[
            opt("grid", "hex"),
            opt("order", 3i64),
            opt("min_offer_stones", min),
        ]);
        assert_eq!(cfg.min_offer_stones, min as u32);
        let mut s = State::new(cfg);
        // Offer stones one by one: before the k-th, the pass is there exactly when k ≥ min.
        for (k, site) in [(0u32, 4u32), (1, 9), (2, 14)] {
            let mut want = stones.clone();
            want.retain(|&a| ![4, 9, 14].iter().take(k as usize).any(|&t| a % n == t));
            if i64::from(k) >= min {
                want.push(pass);
            }
            assert_eq!(legal(&s), want, "min {min}, before stone {k}");
            assert_eq!(s.is_legal(pass as usize), i64::from(k) >= min);
            if i64::from(k) < min {
                // Refused, and nothing changes.
                let before = (s.cells().to_vec(), s.pie_actions_left(), s.move_count());
                assert!(matches!(s.apply(pass as i64), Err(Error::IllegalMove(_))));
                assert_eq!(
                    before,
                    (s.cells().to_vec(), s.pie_actions_left(), s.move_count())
                );
            }
            // Alternate colours: player-0 stone on 4, player-1 on 9, player-0 on 14.
            let action = if k == 1 { n + site } else { site };
            s.apply(i64::from(action)).expect("an offer stone");
        }
        assert_eq!((s.phase(), s.stone_counts()), (Phase::Choice, [2, 1]));
    }
    // With 1, player 0 may offer one stone and pass twice; with 0, three passes empty the offer.
    let mut s = State::new(config(&[opt("order", 3i64), opt("min_offer_stones", 1i64)]));
    assert!(!s.is_legal(pass as usize));
    for a in [n + 9, pass, pass] {
        s.apply(i64::from(a)).expect("offer");
    }
    assert_eq!((s.phase(), s.stone_counts()), (Phase::Choice, [0, 1]));
    let mut s = State::new(config(&[opt("order", 3i64)]));
    for _ in 0..3 {
        s.apply(i64::from(pass)).expect("pass");
    }
    assert_eq!(s.phase(), Phase::Choice);
    // Out of range: the message names what is allowed.
    for bad in [-1i64, 4] {
        let err = Config::new(&[opt("min_offer_stones", bad)]).unwrap_err();
        assert!(err.to_string().contains("0 to 3"), "{err}");
    }
}

#[test]
fn a_turn_continues_while_the_mover_can_place_then_passes() {
    // Player 1 on 9 only; player 0 may place on all six neighbours of 9.
    let cfg = grid("hex", 3);
    let mut s = position(&cfg, &[], &[9], 0, Some(1));
    assert_eq!(legal(&s), vec![4, 5, 8, 10, 13, 14]);
    // Player 0 places on 4. Now 5 (1 2 4 6 9 10) and 8 (3 4 7 9 12 13) see one stone of each,
    // so they close; 10, 13, 14 still see only the player-1 stone: player 0 goes on.
    s.apply(4).expect("legal");
    assert_eq!(s.current_player(), Some(0));
    assert_eq!(legal(&s), vec![10, 13, 14]);
    // Player 0 places on 14: 10 and 13 now see one of each, nothing is left for player 0 and the
    // turn passes. Player 1 may place where player-0 stones outnumber its own:
    // 0 (1 3 4), 1 (0 2 4 5), 3 (0 4 7 8) beside 4; 15 (10 11 14 18), 17 (13 14 16 18),
    // 18 (14 15 17) beside 14; 5, 8, 10, 13 are 1–1.
    s.apply(14).expect("legal");
    assert_eq!(s.current_player(), Some(1));
    assert_eq!(legal(&s), vec![0, 1, 3, 15, 17, 18]);
    assert_eq!(s.last_placer(), Some(0));
    assert_eq!(s.move_count(), 2);
    // Illegal placements are refused and change nothing.
    assert!(matches!(s.apply(5), Err(Error::IllegalMove(_))));
    assert!(matches!(s.apply(14), Err(Error::IllegalMove(_))));
    assert!(matches!(s.apply(38), Err(Error::IllegalMove(_))));
    assert_eq!(s.current_player(), Some(1));
}

#[test]
fn the_game_ends_when_neither_can_place() {
    // 3 × 3 square_omni. Player 0 on 1, 5, 6; player 1 on 3, 7; player 1 to move.
    // For player 1: 0 (1 3 4) is 1–1 ✗; 2 (1 4 5) has two player-0 stones ✓; 4 (all others) has
    // 3 player-0 against 2 ✓; 8 (4 5 7) is 1–1 ✗.
    let cfg = grid("square_omni", 3);
    let start = position(&cfg, &[1, 5, 6], &[3, 7], 1, Some(0));
    assert_eq!(legal(&start), vec![2, 4]);
    // Player 1 places on 2. Then 4 is 3–3 (below F = 4), 0 and 8 are 1–1 for both players:
    // nobody can place, and the game ends with three empty sites.
    let mut s = start.clone();
    s.apply(2).expect("legal");
    assert!(s.is_terminal());
    assert_eq!(s.current_player(), None);
    assert!(legal(&s).is_empty());
    assert_eq!(s.last_placer(), Some(1));
    // Orthogonally no two like stones touch: 1–1, and the last placer (player 1) loses.
    assert_eq!(s.scores(), Some(vec![1.0, 1.0]));
    assert_eq!(s.ranks(), Some(vec![1.0, 2.0]));
    assert_eq!(s.returns(), Some(vec![1.0, -1.0]));

    // Player 1 places on 4 instead: 2 (1 4 5) is 2 against 1, still legal, so player 1 goes on;
    // 0 (1 3 4) and 8 (4 5 7) now favour player 1.
    let mut s = start;
    s.apply(4).expect("legal");
    assert_eq!(s.current_player(), Some(1));
    assert_eq!(legal(&s), vec![2]);
    // After 2, player 1 has nothing; player 0 sees 0 (1 3 4: player 1 has 3, 4) and 8 (4 5 7:
    // player 1 has 4, 7) with two opposite charges against one.
    s.apply(2).expect("legal");
    assert_eq!(s.current_player(), Some(0));
    assert_eq!(legal(&s), vec![0, 8]);
    // Player 0 takes 0: 8 is still 2 against 1, so it takes 8 too, filling the board.
    s.apply(0).expect("legal");
    assert_eq!(legal(&s), vec![8]);
    s.apply(8).expect("legal");
    assert!(s.is_terminal());
    // Final board: player 0 on 0 1 5 6 8, player 1 on 2 3 4 7. Orthogonal groups: player 0 has
    // {0, 1}, {5, 8}, {6}; player 1 has {3, 4, 7} and {2}. 3 beats 2: player 1 wins though
    // player 0 placed last.
    assert_eq!(s.scores(), Some(vec![2.0, 3.0]));
    assert_eq!(s.ranks(), Some(vec![2.0, 1.0]));
}

#[test]
fn equal_scores_make_the_last_placer_lose() {
    // The terminal board of the previous test: player 0 on 1 5 6, player 1 on 2 3 7; every
    // empty site (0, 4, 8) is balanced below F. Scores are 1–1 orthogonally.
    let cfg = grid("square_omni", 3);
    for (last, ranks) in [(0, vec![2.0, 1.0]), (1, vec![1.0, 2.0])] {
        let s = position(&cfg, &[1, 5, 6], &[2, 3, 7], 0, Some(last));
        assert!(s.is_terminal());
        assert_eq!(s.ranks(), Some(ranks));
    }
    // The empty board is a draw.
    let s = position(&cfg, &[], &[], 0, None);
    assert!(s.is_terminal());
    assert_eq!(s.ranks(), Some(vec![1.5, 1.5]));
    // Every scoring gives a tie here: simple (all 8 neighbours) joins 1–5 and 3–7: 2–2;
    // special_orthogonal is 1 × 3 each; special is 2 × 3 each.
    for (scoring, score) in [
        ("simple", 2.0),
        ("special_orthogonal", 3.0),
        ("special", 6.0),
    ] {
        let cfg = config(&[
            opt("grid", "square_omni"),
            opt("order", 3i64),
            opt("scoring", scoring),
        ]);
        let s = position(&cfg, &[1, 5, 6], &[2, 3, 7], 0, Some(1));
        assert_eq!(s.scores(), Some(vec![score, score]), "{scoring}");
        assert_eq!(s.ranks(), Some(vec![1.0, 2.0]), "{scoring}");
    }
}

#[test]
fn each_scoring() {
    // 4 × 4 square points:
    //   y=3  12 13 14 15        player 0: 0 1 5 10 15
    //   y=2   8  9 10 11        player 1: 3 6 7 9 11 12
    //   y=1   4  5  6  7
    //   y=0   0  1  2  3
    // Orthogonal groups: player 0 {0 1 5} (3), {10}, {15}; player 1 {3 7 6 11} (4), {9}, {12}.
    // Through all eight neighbours: player 0 is one chain 0–1–5–10–15 (5); player 1 adds 6–9
    // and 9–12 diagonally: all six (6). Stones: 5 and 6.
    for (scoring, scores) in [
        ("simple_orthogonal", [3.0, 4.0]),
        ("simple", [5.0, 6.0]),
        ("special_orthogonal", [3.0 * 6.0, 4.0 * 5.0]),
        ("special", [5.0 * 6.0, 6.0 * 5.0]),
    ] {
        let cfg = config(&[
            opt("grid", "square_omni"),
            opt("order", 4i64),
            opt("scoring", scoring),
        ]);
        let s = position(&cfg, &[0, 1, 5, 10, 15], &[3, 6, 7, 9, 11, 12], 0, Some(1));
        assert_eq!(s.scores(), Some(scores.to_vec()), "{scoring}");
        assert!(!s.is_terminal() && s.ranks().is_none());
    }
    // Scores are available during the pie offer too.
    let mut s = State::new(grid("hex", 3));
    s.apply(9).expect("offer");
    s.apply(19 + 10).expect("offer");
    s.apply(19 + 11).expect("offer");
    assert_eq!(s.scores(), Some(vec![1.0, 2.0]));
}

fn surplus(on: bool) -> Arc<Config> {
    config(&[
        opt("grid", "hex"),
        opt("order", 3i64),
        opt("surplus_charge", on),
    ])
}

#[test]
fn surplus_charge_forces_a_balanced_placement() {
    // Player 1 on 4, 5, 8, 10: the centre 9 has opp = 4 ≥ F + 1 for player 0.
    let p1 = [4, 5, 8, 10];
    let mut s = position(&surplus(true), &[], &p1, 0, Some(1));
    assert!(s.is_legal(9));
    assert!(!s.forced_surplus());
    s.apply(9).expect("legal");
    // Balanced sites afterwards (one charge of each, fewer than F): 13 (8 9 12 14 16 17: 8 and
    // 9) and 14 (9 10 13 15 17 18: 9 and 10). Both are illegal by the rule, and the only legal
    // placements now.
    assert!(s.forced_surplus());
    assert_eq!(s.current_player(), Some(0));
    assert_eq!(legal(&s), vec![13, 14]);
    assert!(!s.placeable_sites(0).contains(&13));
    assert!(!s.is_legal(0));
    // Without the variant the same move leaves the normal set: every empty site with a player-1
    // neighbour and no player-0 one: 0 1 2 3 6 7 11 12 15.
    let mut plain = position(&surplus(false), &[], &p1, 0, Some(1));
    plain.apply(9).expect("legal");
    assert!(!plain.forced_surplus());
    assert_eq!(legal(&plain), vec![0, 1, 2, 3, 6, 7, 11, 12, 15]);
    // The forced placement on 13 ends the obligation; 13 also closes 12 (1–1), 14 (2 against 1),
    // 16 and 17 (player-0 only) for player 0, who goes on normally.
    s.apply(13).expect("forced");
    assert!(!s.forced_surplus());
    assert_eq!(s.current_player(), Some(0));
    assert_eq!(legal(&s), vec![0, 1, 2, 3, 6, 7, 11, 15]);
}

#[test]
fn surplus_charge_needs_a_qualifying_site_and_a_surplus() {
    // Player 1 on all six neighbours of 9: opp = 6. After player 0 takes 9, no empty site has a
    // player-0 neighbour (all of 9's are occupied), so none is balanced: play goes on normally,
    // with every empty site (each touches a player-1 stone) legal.
    let mut s = position(&surplus(true), &[], &[4, 5, 8, 10, 13, 14], 0, Some(1));
    s.apply(9).expect("legal");
    assert!(!s.forced_surplus());
    assert_eq!(legal(&s), vec![0, 1, 2, 3, 6, 7, 11, 12, 15, 16, 17, 18]);
    // opp = 3 = F is no surplus: with player 1 on 4, 5, 8, the placement on 9 leaves 10 and 13
    // balanced but owes nothing. Player 0 keeps 0 1 2 3 6 7 12 (player-1 neighbours only).
    let mut s = position(&surplus(true), &[], &[4, 5, 8], 0, Some(1));
    s.apply(9).expect("legal");
    assert!(!s.forced_surplus());
    assert_eq!(legal(&s), vec![0, 1, 2, 3, 6, 7, 12]);
}

#[test]
fn from_position_rejects_bad_input() {
    let cfg = grid("hex", 3);
    let ok = vec![0i8; 19];
    assert!(matches!(
        State::from_position(cfg.clone(), &ok[..18], 0, None),
        Err(Error::InvalidPosition(_))
    ));
    let mut bad = ok.clone();
    bad[3] = 3;
    assert!(State::from_position(cfg.clone(), &bad, 0, Some(0)).is_err());
    assert!(State::from_position(cfg.clone(), &ok, 2, None).is_err());
    assert!(State::from_position(cfg.clone(), &ok, 0, Some(0)).is_err());
    let mut one = ok.clone();
    one[3] = 1;
    assert!(State::from_position(cfg.clone(), &one, 0, None).is_err());
    assert!(State::from_position(cfg.clone(), &one, 0, Some(2)).is_err());
    assert!(State::from_position(cfg, &one, 0, Some(0)).is_ok());
}

/// Recomputes the charges and the rule-legal sites from the board alone.
fn naive_check(s: &State) {
    let cfg = s.config();
    let n = s.cells().len();
    for site in 0..n {
        let mut c = [0u8; 2];
        for &t in cfg.board.neighbors(cfg.placement, site) {
            let v = s.cells()[t as usize];
            if v > 0 {
                c[v as usize - 1] += 1;
            }
        }
        assert_eq!(s.charge[site], c, "charges of {site}");
        if s.phase() == Phase::Placement {
            for p in 0..2 {
                let (own, opp) = (c[p], c[1 - p]);
                let rule = s.cells()[site] == 0 && (opp > own || opp >= cfg.forced_level);
                assert_eq!(s.legal.contains(p, site), rule, "site {site} player {p}");
            }
        }
    }
    for p in 0..2 {
        let listed: usize = (0..n).filter(|&x| s.legal.contains(p, x)).count();
        assert_eq!(listed, s.legal.len(p));
        for i in 0..s.legal.len(p) {
            assert!(s.legal.contains(p, s.legal.get(p, i)));
        }
    }
    let stones = [1i8, 2].map(|v| s.cells().iter().filter(|&&c| c == v).count());
    assert_eq!(s.stone_counts(), stones);
}

#[test]
fn incremental_data_matches_a_recount() {
    let mut buf = Vec::new();
    let mut forced_seen = 0;
    for name in &value_names(OPTIONS, "grid") {
        for surplus_charge in [false, true] {
            let cfg = config(&[
                opt("grid", *name),
                opt("order", 4i64),
                opt("surplus_charge", surplus_charge),
            ]);
            for seed in 0..20 {
                let mut rng = Rng::new(seed);
                let mut s = State::new(cfg.clone());
                naive_check(&s);
                while let Some(a) = s.random_action(&mut rng, &mut buf) {
                    assert!(s.is_legal(a));
                    let mover = s.current_player();
                    s.apply_unchecked(a);
                    naive_check(&s);
                    if s.forced_surplus() {
                        forced_seen += 1;
                        let balanced: Vec<u32> = (0..s.cells().len())
                            .filter(|&y| {
                                let [a, b] = s.charge[y];
                                s.cells()[y] == 0 && a == b && a >= 1 && a < cfg.forced_level
                            })
                            .map(|y| y as u32)
                            .collect();
                        assert_eq!(legal(&s), balanced);
                    }
                    // A turn only changes hands when the mover has nothing left.
                    if s.phase() == Phase::Placement
                        && s.move_count() > 5
                        && s.current_player() != mover
                    {
                        if let Some(m) = mover {
                            assert!(s.placeable_sites(m).is_empty() && !s.forced_surplus());
                        }
                    }
                }
                assert!(s.move_count() <= cfg.board.num_sites() + 4);
                assert!(s.placeable_sites(0).is_empty() && s.placeable_sites(1).is_empty());
            }
        }
    }
    // The random games did reach surplus-charge obligations.
    assert!(forced_seen > 0);
}
