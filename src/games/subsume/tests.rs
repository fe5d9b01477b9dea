//! Hand-checked Subsume positions.
//!
//! Cells are named (row, column): rows from the bottom, columns from the left of each row, as the
//! board numbers them. The side-5 board (rows of 5, 6, 7, 8, 9, 8, 7, 6, 5 cells):
//!
//! ```text
//!  row 8          . . . . .
//!  row 7         . . . . . .
//!  row 6        . . . . . . .
//!  row 5       . . . . . . . .
//!  row 4      . . . . . . . . .
//!  row 3       . . . . . . . .
//!  row 2        . . . . . . .
//!  row 1         . . . . . .
//!  row 0          . . . . .
//! ```
//!
//! Below the middle row, (r, c) touches (r − 1, c − 1) and (r − 1, c) underneath and (r + 1, c)
//! and (r + 1, c + 1) above; from the middle row up, (r − 1, c) and (r − 1, c + 1) underneath
//! (the middle row itself: (r − 1, c − 1) and (r − 1, c)) and (r + 1, c − 1) and (r + 1, c)
//! above. `rule_neighbours` writes this down and the first test holds the board to it, so the
//! positions below are checked against a picture rather than against the engine's geometry.

use super::*;
use crate::games::options::opt;
use crate::games::Measure;

const RED: usize = 0;
const BLUE: usize = 1;

fn config(size: usize) -> Arc<Config> {
    Arc::new(Config::new(&[opt("size", size)]).expect("valid size"))
}

fn row_lengths(size: usize) -> Vec<usize> {
    (0..2 * size - 1)
        .map(|r| 2 * size - 1 - (r as isize - size as isize + 1).unsigned_abs())
        .collect()
}

/// Site of (row, column) on the board of side `size`.
fn rc(size: usize, r: usize, c: usize) -> usize {
    let rows = row_lengths(size);
    assert!(c < rows[r], "({r}, {c}) is off the board");
    rows[..r].iter().sum::<usize>() + c
}

/// The neighbours of (r, c) by the rule in the module doc, ascending.
fn rule_neighbours(size: usize, r: usize, c: usize) -> Vec<usize> {
    let rows = row_lengths(size);
    let mid = size - 1;
    let (r, c) = (r as isize, c as isize);
    let below = if r as usize <= mid {
        [(r - 1, c - 1), (r - 1, c)]
    } else {
        [(r - 1, c), (r - 1, c + 1)]
    };
    let above = if (r as usize) < mid {
        [(r + 1, c), (r + 1, c + 1)]
    } else {
        [(r + 1, c - 1), (r + 1, c)]
    };
    let mut out: Vec<usize> = [(r, c - 1), (r, c + 1)]
        .into_iter()
        .chain(below)
        .chain(above)
        .filter(|&(rr, cc)| {
            rr >= 0 && (rr as usize) < rows.len() && cc >= 0 && (cc as usize) < rows[rr as usize]
        })
        .map(|(rr, cc)| rc(size, rr as usize, cc as usize))
        .collect();
    out.sort_unstable();
    out
}

/// A position on the side-`size` board from lists of (row, column) stones.
fn position(size: usize, red: &[(usize, usize)], blue: &[(usize, usize)], to_move: usize) -> State {
    position_in(config(size), red, blue, to_move)
}

/// The same under any options.
fn position_in(
    cfg: Arc<Config>,
    red: &[(usize, usize)],
    blue: &[(usize, usize)],
    to_move: usize,
) -> State {
    let size = cfg.size;
    let mut cells = vec![0i8; cfg.board.num_sites()];
    for &(r, c) in red {
        cells[rc(size, r, c)] = 1;
    }
    for &(r, c) in blue {
        cells[rc(size, r, c)] = 2;
    }
    State::from_position(cfg, &cells, to_move).expect("valid position")
}

/// The (row, column) cells holding `value` (0 empty, 1 Red, 2 Blue), sorted.
fn cells_with(state: &State, size: usize, value: i8) -> Vec<(usize, usize)> {
    let rows = row_lengths(size);
    let mut out = Vec::new();
    for (r, &len) in rows.iter().enumerate() {
        for c in 0..len {
            if state.cells()[rc(size, r, c)] == value {
                out.push((r, c));
            }
        }
    }
    out
}

fn sorted(mut v: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    v.sort_unstable();
    v
}

fn play(state: &mut State, size: usize, r: usize, c: usize) {
    state
        .apply(rc(size, r, c) as i64)
        .unwrap_or_else(|e| panic!("({r}, {c}) should be legal: {e}"));
}

/// The six cells around (r, c) on the side-5 board.
fn ring5(r: usize, c: usize) -> Vec<(usize, usize)> {
    let rows = row_lengths(5);
    let mut out = Vec::new();
    for s in rule_neighbours(5, r, c) {
        let mut rest = s;
        for (rr, &len) in rows.iter().enumerate() {
            if rest < len {
                out.push((rr, rest));
                break;
            }
            rest -= len;
        }
    }
    assert_eq!(out.len(), 6);
    out
}

#[test]
fn the_neighbour_rule_of_the_pictures_is_the_board() {
    for size in [3, 4, 5, 6] {
        let cfg = config(size);
        let rows = row_lengths(size);
        assert_eq!(rows.iter().sum::<usize>(), cfg.board.num_sites());
        for (r, &len) in rows.iter().enumerate() {
            for c in 0..len {
                let s = rc(size, r, c);
                let board: Vec<usize> = cfg.board.orth(s).iter().map(|&t| t as usize).collect();
                assert_eq!(board, rule_neighbours(size, r, c), "size {size} ({r}, {c})");
            }
        }
        assert_eq!(cfg.board.perimeter().len(), 6 * (size - 1));
    }
}

#[test]
fn options_and_sizes() {
    let cfg = Arc::new(Config::new(&[]).expect("defaults"));
    assert_eq!(cfg.size, 6);
    assert_eq!(cfg.board.num_sites(), 91);
    assert_eq!(
        *cfg.options(),
        vec![
            opt("size", 6usize),
            opt("anti_blob", true),
            opt("remove_surrounded", true)
        ]
    );
    assert!(cfg.anti_blob && cfg.remove_surrounded);
    for (size, cells) in [(3, 19), (4, 37), (5, 61), (8, 169), (15, 631), (30, 2611)] {
        let s = State::new(config(size));
        assert_eq!(s.num_actions(), cells);
        assert_eq!(
            s.legal_actions().len(),
            cells,
            "the empty board is all legal"
        );
        assert!(!s.truncated());
    }
    let err = Config::new(&[opt("size", 2i64)]).unwrap_err();
    assert!(err.to_string().contains("from 3 to 30"), "{err}");
    let err = Config::new(&[opt("size", 31i64)]).unwrap_err();
    assert!(err.to_string().contains("from 3 to 30"), "{err}");
    let err = Config::new(&[opt("players", 3i64)]).unwrap_err();
    assert!(
        err.to_string()
            .contains("options: anti_blob, remove_surrounded, size"),
        "{err}"
    );
    let err = Config::new(&[opt("anti_blob", 0i64)]).unwrap_err();
    assert!(err.to_string().contains("true or false"), "{err}");
}

#[test]
fn from_position_rejects_bad_input() {
    let cfg = config(3);
    assert!(matches!(
        State::from_position(cfg.clone(), &[0; 18], 0),
        Err(Error::InvalidPosition(_))
    ));
    assert!(matches!(
        State::from_position(cfg.clone(), &[3; 19], 0),
        Err(Error::InvalidPosition(_))
    ));
    assert!(matches!(
        State::from_position(cfg, &[0; 19], 2),
        Err(Error::InvalidPosition(_))
    ));
}

/// A ring of six around (2, 2) on side 5, closed by the mover who owns 5 of its 6 stones: the
/// enemy stone on it turns, and the enemy stone in the middle is removed.
#[test]
fn six_ring_closed_by_the_majority() {
    // Ring around (2, 2): (2, 1), (2, 3), (1, 1), (1, 2), (3, 2), (3, 3).
    assert_eq!(
        sorted(ring5(2, 2)),
        vec![(1, 1), (1, 2), (2, 1), (2, 3), (3, 2), (3, 3)]
    );
    let mut s = position(5, &[(2, 1), (1, 1), (1, 2), (3, 2)], &[(2, 3), (2, 2)], RED);
    // (3, 3) touches (3, 2) Red, (2, 2) and (2, 3) Blue, and three empty cells: 2 enemy ≥ 1
    // friendly, so Red may play it.
    assert!(s.is_legal(rc(5, 3, 3)));
    play(&mut s, 5, 3, 3);
    // Red owns 5 of 6: (2, 3) turns Red; (2, 2) is inside and is removed.
    assert_eq!(
        cells_with(&s, 5, 1),
        vec![(1, 1), (1, 2), (2, 1), (2, 3), (3, 2), (3, 3)]
    );
    assert_eq!(cells_with(&s, 5, 2), vec![]);
    // The middle is now empty and surrounded: nobody may play there.
    let shut = s.surrounded();
    assert_eq!(
        (0..61).filter(|&c| shut[c]).collect::<Vec<_>>(),
        vec![rc(5, 2, 2)]
    );
    assert_eq!(s.current_player(), Some(BLUE));
    assert!(!s.is_legal(rc(5, 2, 2)));
    assert_eq!(s.move_count(), 1);
}

/// The same ring closed by the minority: the mover's two stones turn to the enemy.
#[test]
fn six_ring_closed_by_the_minority() {
    let mut s = position(5, &[(2, 1)], &[(2, 3), (1, 1), (1, 2), (3, 2)], RED);
    // (3, 3) touches (3, 2) and (2, 3), both Blue: 2 enemy ≥ 0 friendly.
    play(&mut s, 5, 3, 3);
    // Red owns 2 of 6 (2·2 < 6): (2, 1) and (3, 3) turn Blue.
    assert_eq!(cells_with(&s, 5, 1), vec![]);
    assert_eq!(
        cells_with(&s, 5, 2),
        vec![(1, 1), (1, 2), (2, 1), (2, 3), (3, 2), (3, 3)]
    );
    assert!(s.surrounded()[rc(5, 2, 2)]);
    assert_eq!(s.current_player(), Some(BLUE));
}

/// Three stones each: the tie goes to the mover.
#[test]
fn six_ring_split_evenly_goes_to_the_mover() {
    let mut s = position(5, &[(2, 1), (1, 1)], &[(2, 3), (1, 2), (3, 2)], RED);
    play(&mut s, 5, 3, 3);
    assert_eq!(
        cells_with(&s, 5, 1),
        vec![(1, 1), (1, 2), (2, 1), (2, 3), (3, 2), (3, 3)]
    );
    assert_eq!(cells_with(&s, 5, 2), vec![]);
}

/// The all-Red ring around (4, 2) and a ring around (4, 5), joined by the edge (4, 3)–(4, 4).
/// Both rings are one group, and no loop encloses both (the union's only cycles are the two
/// rings), so the group has no MEL: closing the second ring settles nothing. Both middles are
/// unplayable all the same.
#[test]
fn two_rings_side_by_side_have_no_mel() {
    let first = ring5(4, 2);
    assert_eq!(
        sorted(first.clone()),
        vec![(3, 1), (3, 2), (4, 1), (4, 3), (5, 1), (5, 2)]
    );
    assert_eq!(
        sorted(ring5(4, 5)),
        vec![(3, 4), (3, 5), (4, 4), (4, 6), (5, 4), (5, 5)]
    );
    let mut red = first.clone();
    red.extend([(4, 4), (3, 5)]);
    let blue = [(4, 6), (3, 4), (5, 4)];
    let mut s = position(5, &red, &blue, RED);
    // (5, 5) touches (5, 4) and (4, 6) Blue, nothing Red.
    play(&mut s, 5, 5, 5);
    let mut expect_red = red.clone();
    expect_red.push((5, 5));
    assert_eq!(cells_with(&s, 5, 1), sorted(expect_red));
    assert_eq!(cells_with(&s, 5, 2), vec![(3, 4), (4, 6), (5, 4)]);
    let shut = s.surrounded();
    let shut: Vec<usize> = (0..61).filter(|&c| shut[c]).collect();
    assert_eq!(shut, vec![rc(5, 4, 2), rc(5, 4, 5)]);

    // Control: without the first ring, the same move closes a MEL, split 3–3, which goes Red.
    let mut s = position(5, &[(4, 4), (3, 5)], &blue, RED);
    play(&mut s, 5, 5, 5);
    assert_eq!(cells_with(&s, 5, 2), vec![]);
    assert_eq!(cells_with(&s, 5, 1), sorted(ring5(4, 5)));
}

/// Rings around (4, 2) and (3, 3) share the edge (3, 2)–(4, 3). Going round both would pass
/// (3, 2) with (4, 3) beside it, a chord, so no loop encloses both: no MEL.
#[test]
fn two_rings_sharing_an_edge_have_no_mel() {
    assert_eq!(
        sorted(ring5(3, 3)),
        vec![(2, 2), (2, 3), (3, 2), (3, 4), (4, 3), (4, 4)]
    );
    // First ring all Red (as if settled); second ring missing (2, 2).
    let red = ring5(4, 2);
    let blue = [(3, 4), (2, 3), (4, 4)];
    let mut s = position(5, &red, &blue, RED);
    // (2, 2) touches (2, 1), (2, 3) Blue, (1, 1), (1, 2), (3, 2) Red, (3, 3): 1 enemy ≥ 1 friendly.
    play(&mut s, 5, 2, 2);
    // Nothing turned, nothing removed.
    let mut expect_red = red.clone();
    expect_red.push((2, 2));
    assert_eq!(cells_with(&s, 5, 1), sorted(expect_red));
    assert_eq!(cells_with(&s, 5, 2), vec![(2, 3), (3, 4), (4, 4)]);
    let shut = s.surrounded();
    let shut: Vec<usize> = (0..61).filter(|&c| shut[c]).collect();
    assert_eq!(shut, vec![rc(5, 3, 3), rc(5, 4, 2)]);
}

/// Rings around (4, 2) and (4, 4) share the single stone (4, 3): a figure eight. The ten-stone
/// cycle round both, leaving (4, 3) out, has no chord, so it is a loop holding both rings: the
/// MEL. Closing it flips by majority over its ten stones and removes (4, 3) from inside.
#[test]
fn figure_eight_outer_cycle_is_the_mel() {
    let outer = vec![
        (3, 1),
        (3, 2),
        (3, 3),
        (3, 4),
        (4, 1),
        (4, 5),
        (5, 1),
        (5, 2),
        (5, 3),
        (5, 4),
    ];
    // Red: (4, 1), (3, 1), (3, 3), (5, 3), (5, 1); Blue: (3, 2), (5, 2), (3, 4), (5, 4) and the
    // shared stone (4, 3). Missing: (4, 5).
    let red = [(4, 1), (3, 1), (3, 3), (5, 3), (5, 1)];
    let blue = [(3, 2), (5, 2), (3, 4), (5, 4), (4, 3)];
    let mut s = position(5, &red, &blue, RED);
    // (4, 5) touches (3, 4) and (5, 4) Blue and no Red stone.
    play(&mut s, 5, 4, 5);
    // 6 Red of 10: all ten Red; (4, 3) removed; the three cells inside are empty and shut.
    assert_eq!(cells_with(&s, 5, 1), outer);
    assert_eq!(cells_with(&s, 5, 2), vec![]);
    let shut = s.surrounded();
    let shut: Vec<usize> = (0..61).filter(|&c| shut[c]).collect();
    assert_eq!(shut, vec![rc(5, 4, 2), rc(5, 4, 3), rc(5, 4, 4)]);
}

/// A settled Red ring around (4, 4), then a twelve-stone ring at distance 2 around it, closed by
/// Blue with 7 of its 12 stones: the big ring turns Blue and the small ring, inside it, is
/// removed.
#[test]
fn larger_loop_subsumes_a_smaller_one() {
    let small = ring5(4, 4);
    assert_eq!(
        sorted(small.clone()),
        vec![(3, 3), (3, 4), (4, 3), (4, 5), (5, 3), (5, 4)]
    );
    let big = vec![
        (2, 2),
        (2, 3),
        (2, 4),
        (3, 2),
        (3, 5),
        (4, 2),
        (4, 6),
        (5, 2),
        (5, 5),
        (6, 2),
        (6, 3),
        (6, 4),
    ];
    // Big ring: Red (3, 5), (2, 2), (2, 4), (6, 2), (6, 4); Blue the other six but (4, 6).
    let mut red = small.clone();
    red.extend([(3, 5), (2, 2), (2, 4), (6, 2), (6, 4)]);
    let blue = [(2, 3), (3, 2), (4, 2), (5, 2), (5, 5), (6, 3)];
    let mut s = position(5, &red, &blue, BLUE);
    // The small ring is a loop with an empty middle: (4, 4) is shut already.
    assert!(s.surrounded()[rc(5, 4, 4)]);
    // (4, 6) touches (4, 5) and (3, 5) Red, (5, 5) Blue: 2 enemy ≥ 1 friendly.
    play(&mut s, 5, 4, 6);
    assert_eq!(cells_with(&s, 5, 1), vec![]);
    assert_eq!(cells_with(&s, 5, 2), big);
    let shut = s.surrounded();
    let mut inside = small.clone();
    inside.push((4, 4));
    let inside: Vec<usize> = sorted(inside)
        .into_iter()
        .map(|(r, c)| rc(5, r, c))
        .collect();
    assert_eq!((0..61).filter(|&c| shut[c]).collect::<Vec<_>>(), inside);
    // Blue moved and Red can still play: Red's turn.
    assert_eq!(s.current_player(), Some(RED));
}

/// Placement rules: the middle of a ring is refused, and so is any cell with more friendly than
/// enemy neighbours.
#[test]
fn placements_refused_inside_a_loop_and_by_the_anti_blob_rule() {
    // Blue ring around (2, 2) with an empty middle; one Red stone at (0, 0), whose neighbours
    // are (0, 1), (1, 0) and (1, 1).
    let red = [(0, 0)];
    let s = position(5, &red, &ring5(2, 2), RED);
    // (2, 2) touches six Blue stones, so the anti-blob rule would let Red in, but it is inside
    // the loop.
    assert!(s.surrounded()[rc(5, 2, 2)]);
    assert!(!s.is_legal(rc(5, 2, 2)));
    // Red's only cells with a Red neighbour are (0, 1) [Red (0, 0); Blue (1, 1), (1, 2)] and
    // (1, 0) [Red (0, 0); Blue (1, 1), (2, 1)]: 2 ≥ 1, both legal. So Red may play every empty
    // cell but (2, 2).
    let expect: Vec<u32> = (0..61u32)
        .filter(|&c| s.cells()[c as usize] == 0 && c as usize != rc(5, 2, 2))
        .collect();
    assert_eq!(s.legal_actions(), expect);
    // Blue to move: (0, 1) has two Blue neighbours and one Red: refused. (0, 2) touches (0, 1),
    // (0, 3), (1, 2) Blue and (1, 3): one Blue, no Red: refused. (8, 0) touches no stone: 0 ≥ 0,
    // allowed.
    let b = position(5, &red, &ring5(2, 2), BLUE);
    assert!(!b.is_legal(rc(5, 0, 1)));
    assert!(!b.is_legal(rc(5, 0, 2)));
    assert!(b.is_legal(rc(5, 8, 0)));
    assert!(matches!(
        b.clone().apply(rc(5, 0, 1) as i64),
        Err(Error::IllegalMove(_))
    ));
    // Blue is refused exactly the cells touching the ring from outside (more Blue than Red), the
    // middle, and the stones.
    let touching: Vec<usize> = ring5(2, 2)
        .into_iter()
        .flat_map(|(r, c)| rule_neighbours(5, r, c))
        .filter(|&t| b.cells()[t] == 0 && t != rc(5, 2, 2))
        .collect();
    for t in 0..61 {
        let want = b.cells()[t] == 0 && t != rc(5, 2, 2) && !touching.contains(&t);
        assert_eq!(b.is_legal(t), want, "cell {t}");
    }
}

/// Side 3: a Blue ring round the middle leaves every perimeter cell touching Blue and, once Red
/// holds a corner, none touching enough Red for Blue: Blue is skipped.
#[test]
fn a_player_without_a_placement_is_skipped() {
    // Side 3 rows: 3, 4, 5, 4, 3. Middle (2, 2); its ring (1, 1), (1, 2), (2, 1), (2, 3), (3, 1),
    // (3, 2).
    let blue = [(1, 1), (1, 2), (2, 1), (2, 3), (3, 1), (3, 2)];
    let mut s = position(3, &[], &blue, RED);
    // Red takes the corner (0, 0). Blue's open cells are the other 11 perimeter cells: each
    // touches one or two Blue stones; (0, 1) touches Red (0, 0) and two Blue, (1, 0) Red (0, 0)
    // and Blue (1, 1), (2, 1): Blue always outnumbers Red around them.
    play(&mut s, 3, 0, 0);
    assert_eq!(s.current_player(), Some(RED));
    assert_eq!(s.move_count(), 1);
    // And from the start of this position with Blue nominally to move, Red moves.
    let t = position(3, &[], &blue, BLUE);
    assert_eq!(t.current_player(), Some(RED));
}

/// Neither player can place when no open cell is left: a draw (only reachable from a set-up
/// position: in play, the full perimeter is a new MEL and somebody wins).
#[test]
fn nobody_can_place_is_a_draw() {
    // Side 3: alternate colours round the perimeter ring, fill the middle ring, leave the centre.
    let red: Vec<_> = RIM3.iter().copied().step_by(2).collect();
    let blue: Vec<_> = RIM3.iter().copied().skip(1).step_by(2).collect();
    let mut blue = blue;
    blue.extend([(1, 1), (1, 2), (2, 1), (2, 3), (3, 1), (3, 2)]);
    let s = position(3, &red, &blue, RED);
    assert_eq!(s.current_player(), None);
    assert_eq!(s.winner(), None);
    assert_eq!(s.ranks(), Some(vec![1.5, 1.5]));
    assert_eq!(s.returns(), Some(vec![0.0, 0.0]));
}

/// The perimeter ring of side 3 (12 cells), in order round the board.
const RIM3: [(usize, usize); 12] = [
    (0, 0),
    (0, 1),
    (0, 2),
    (1, 3),
    (2, 4),
    (3, 3),
    (4, 2),
    (4, 1),
    (4, 0),
    (3, 0),
    (2, 0),
    (1, 0),
];

/// Red closes the full perimeter ring holding 7 of its 12 stones: the ring turns Red, the
/// stones inside go, and Red's loop holds all 12 perimeter cells (more than 3·2 = 6): Red wins.
#[test]
fn the_full_perimeter_ring_wins_for_the_mover() {
    // Blue on (0, 0), (0, 2), (2, 4), (4, 2), (3, 0); Red on the other six but (0, 1). Inside:
    // Blue (2, 2), Red (3, 1).
    let blue_rim = [(0, 0), (0, 2), (2, 4), (4, 2), (3, 0)];
    let red_rim: Vec<_> = RIM3
        .iter()
        .copied()
        .filter(|c| *c != (0, 1) && !blue_rim.contains(c))
        .collect();
    assert_eq!(red_rim.len(), 6);
    let mut blue = blue_rim.to_vec();
    blue.push((2, 2));
    let mut red = red_rim.clone();
    red.push((3, 1));
    let mut s = position(3, &red, &blue, RED);
    assert_eq!(s.current_player(), Some(RED));
    // (0, 1) touches (0, 0) and (0, 2) Blue, (1, 1) and (1, 2) empty.
    play(&mut s, 3, 0, 1);
    assert_eq!(cells_with(&s, 3, 1), sorted(RIM3.to_vec()));
    assert_eq!(cells_with(&s, 3, 2), vec![]);
    assert_eq!(s.winner(), Some(RED));
    assert_eq!(s.current_player(), None);
    assert_eq!(s.ranks(), Some(vec![1.0, 2.0]));
    assert_eq!(s.legal_actions(), Vec::<u32>::new());
    assert!(matches!(s.apply(0), Err(Error::GameOver(_))));
}

/// Red closes the perimeter ring holding only 5 of its 12 stones: Red's stones turn Blue, and
/// the win goes to Blue although Red moved.
#[test]
fn a_flip_hands_the_win_to_the_opponent() {
    let red_rim = [(0, 0), (0, 2), (2, 4), (4, 2)];
    let blue_rim: Vec<_> = RIM3
        .iter()
        .copied()
        .filter(|c| *c != (0, 1) && !red_rim.contains(c))
        .collect();
    assert_eq!(blue_rim.len(), 7);
    // (0, 1) must be legal for Red: it touches (0, 0) and (0, 2), both Red, so give it two Blue
    // neighbours inside: (1, 1) and (1, 2).
    let mut blue = blue_rim.clone();
    blue.extend([(1, 1), (1, 2)]);
    let mut s = position(3, &red_rim, &blue, RED);
    // (0, 1): 2 Blue ≥ 2 Red.
    play(&mut s, 3, 0, 1);
    // Red held 5 of 12 (2·5 < 12): all Red rim stones turn Blue; (1, 1), (1, 2) are removed.
    assert_eq!(cells_with(&s, 3, 1), vec![]);
    assert_eq!(cells_with(&s, 3, 2), sorted(RIM3.to_vec()));
    assert_eq!(s.winner(), Some(BLUE));
    assert_eq!(s.ranks(), Some(vec![2.0, 1.0]));
    assert_eq!(s.returns(), Some(vec![-1.0, 1.0]));
}

/// Side 3 (12 perimeter cells; a win needs more than 6). The ten-cell loop (1, 0), (0, 0),
/// (0, 1), (0, 2), (1, 3), (2, 4), (3, 3), (3, 2), (3, 1), (2, 1) has no chord and holds 7
/// perimeter cells; the eight-cell loop (1, 0), (0, 0), (0, 1), (0, 2), (1, 3), (2, 3), (2, 2),
/// (2, 1) holds 5.
#[test]
fn a_loop_on_more_than_half_the_perimeter_wins_for_the_mover() {
    let big = [
        (1, 0),
        (0, 0),
        (0, 1),
        (0, 2),
        (1, 3),
        (2, 4),
        (3, 3),
        (3, 2),
        (3, 1),
        (2, 1),
    ];
    let small = [
        (1, 0),
        (0, 0),
        (0, 1),
        (0, 2),
        (1, 3),
        (2, 3),
        (2, 2),
        (2, 1),
    ];
    // A finished Red loop of 5 perimeter cells does not win; one of 7 does, as found.
    let s = position(3, &small, &[], BLUE);
    assert_eq!(s.winner(), None);
    let s = position(3, &big, &[], BLUE);
    assert_eq!(s.winner(), Some(RED));
    assert_eq!(s.current_player(), None);
    // Red closes the big loop at (3, 1), which touches (3, 2) and (2, 1) Red, (3, 0) and (2, 2)
    // Blue: 2 ≥ 2. The loop is all Red already; the Blue stone inside, (2, 2), is removed, and
    // Red wins.
    let open: Vec<_> = big.iter().copied().filter(|&c| c != (3, 1)).collect();
    let mut s = position(3, &open, &[(3, 0), (2, 2)], RED);
    assert_eq!(s.current_player(), Some(RED));
    play(&mut s, 3, 3, 1);
    assert_eq!(cells_with(&s, 3, 1), sorted(big.to_vec()));
    assert_eq!(cells_with(&s, 3, 2), vec![(3, 0)]);
    assert_eq!(s.winner(), Some(RED));
    assert_eq!(s.ranks(), Some(vec![1.0, 2.0]));
}

#[test]
fn a_random_game_on_the_default_board_ends_with_a_winner() {
    let cfg = Arc::new(Config::new(&[]).expect("defaults"));
    let mut rng = Rng::new(3);
    let mut buf = Vec::new();
    let mut s = State::new(cfg);
    while let Some(a) = s.random_action(&mut rng, &mut buf) {
        assert!(s.is_legal(a));
        s.apply_unchecked(a);
    }
    assert!(s.move_count() <= 91);
    assert!(s.winner().is_some());
}

#[test]
fn state_is_clone_debug_send_sync() {
    fn check<T: Clone + std::fmt::Debug + Send + Sync>() {}
    check::<State>();
    check::<Config>();
}

/// The default board: Red closes the 30-cell perimeter ring at (0, 1) holding exactly half of it
/// (the tie goes to the mover), so the whole ring turns Red, the Blue stone in the middle goes,
/// and Red's ring holds all 30 perimeter cells (more than 15): Red wins.
#[test]
fn the_full_perimeter_ring_of_the_default_board() {
    let cfg = Arc::new(Config::new(&[]).expect("defaults"));
    let rim: Vec<usize> = cfg.board.perimeter().iter().map(|&c| c as usize).collect();
    assert_eq!(rim.len(), 30);
    let mut cells = vec![0i8; 91];
    // (0, 0) = 0 and (0, 2) = 2 Blue, so that (0, 1) = 1 is legal for Red; the other 27 cells
    // alternate Red, Blue, … in id order: 14 Red and 13 Blue.
    cells[0] = 2;
    cells[2] = 2;
    let others: Vec<usize> = rim.iter().copied().filter(|&c| c > 2).collect();
    assert_eq!(others.len(), 27);
    for (i, &c) in others.iter().enumerate() {
        cells[c] = if i % 2 == 0 { 1 } else { 2 };
    }
    // The middle cell, (5, 5) = 45, holds a Blue stone.
    assert_eq!(rc(6, 5, 5), 45);
    cells[45] = 2;
    let mut s = State::from_position(cfg, &cells, RED).expect("valid");
    assert_eq!(s.current_player(), Some(RED));
    // Red 14 + 1 = 15 of 30: 2·15 ≥ 30.
    play(&mut s, 6, 0, 1);
    let red: Vec<usize> = (0..91).filter(|&c| s.cells()[c] == 1).collect();
    assert_eq!(red, rim);
    assert!((0..91).all(|c| s.cells()[c] != 2));
    assert_eq!(s.winner(), Some(RED));
    // Every inner cell is now surrounded.
    let shut = s.surrounded();
    assert_eq!((0..91).filter(|&c| shut[c]).count(), 91 - 30);
}

fn config_with(size: usize, anti_blob: bool, remove_surrounded: bool) -> Arc<Config> {
    Arc::new(
        Config::new(&[
            opt("size", size),
            opt("anti_blob", anti_blob),
            opt("remove_surrounded", remove_surrounded),
        ])
        .expect("valid options"),
    )
}

/// `anti_blob=false`: the position of the anti-blob test above (a Blue ring round (2, 2), a Red
/// stone on (0, 0)). Without the rule both players may play every empty cell but the ring's
/// middle, which stays shut; Blue may now play (0, 1) and (0, 2) beside its own stones.
#[test]
fn without_the_anti_blob_rule_every_open_cell_is_legal() {
    let red = [(0, 0)];
    for to_move in [RED, BLUE] {
        let with = position(5, &red, &ring5(2, 2), to_move);
        let s = position_in(config_with(5, false, true), &red, &ring5(2, 2), to_move);
        let expect: Vec<u32> = (0..61u32)
            .filter(|&c| s.cells()[c as usize] == 0 && c as usize != rc(5, 2, 2))
            .collect();
        assert_eq!(s.legal_actions(), expect, "player {to_move}");
        assert_eq!(s.surrounded(), with.surrounded());
        assert!(!s.is_legal(rc(5, 2, 2)));
    }
    let mut b = position_in(config_with(5, false, true), &red, &ring5(2, 2), BLUE);
    assert!(b.is_legal(rc(5, 0, 1)) && b.is_legal(rc(5, 0, 2)));
    // (0, 1) has two Blue neighbours and one Red; the rule would refuse it. Placed, it closes
    // nothing (no new loop), and Red moves next.
    play(&mut b, 5, 0, 1);
    assert_eq!(b.current_player(), Some(RED));
    assert_eq!(cells_with(&b, 5, 1), vec![(0, 0)]);
    // (3, 1) touches (2, 0), (2, 1), (3, 0), (3, 2), (4, 1), (4, 2): two Blue, no Red. The rule
    // refuses it to Blue; without the rule Blue may play it.
    let b = position_in(config_with(5, false, true), &red, &ring5(2, 2), BLUE);
    assert!(b.is_legal(rc(5, 3, 1)));
    assert!(!position(5, &red, &ring5(2, 2), BLUE).is_legal(rc(5, 3, 1)));
}

/// `remove_surrounded=false`: the ring of `six_ring_closed_by_the_majority`. The ring turns Red
/// as before, but the Blue stone in the middle stays, kept out of play: its cell is closed, it is
/// not flipped, and it is listed by `enclosed_stones`.
#[test]
fn without_removal_the_enclosed_stone_stays_inert() {
    let red = [(2, 1), (1, 1), (1, 2), (3, 2)];
    let blue = [(2, 3), (2, 2)];
    let mut s = position_in(config_with(5, true, false), &red, &blue, RED);
    let mut removed = position(5, &red, &blue, RED);
    play(&mut s, 5, 3, 3);
    play(&mut removed, 5, 3, 3);
    assert_eq!(
        cells_with(&s, 5, 1),
        vec![(1, 1), (1, 2), (2, 1), (2, 3), (3, 2), (3, 3)]
    );
    assert_eq!(cells_with(&s, 5, 2), vec![(2, 2)]);
    let kept = s.enclosed_stones();
    assert_eq!(
        (0..61).filter(|&c| kept[c]).collect::<Vec<_>>(),
        vec![rc(5, 2, 2)]
    );
    assert!(removed.enclosed_stones().iter().all(|&k| !k));
    // Not an empty cell, so not "surrounded"; but closed: not legal for either player, and
    // the legal sets are exactly those of the default game.
    assert!(!s.surrounded()[rc(5, 2, 2)]);
    assert!(!s.is_legal(rc(5, 2, 2)));
    assert_eq!(s.current_player(), removed.current_player());
    assert_eq!(s.legal_actions(), removed.legal_actions());
    // The observation marks the kept stone's cell closed (plane 3) and shows it as a stone.
    let planes = s.observation_planes();
    let mut obs = vec![0.0f32; planes * 61];
    s.write_observation_for(BLUE, &mut obs);
    assert_eq!(obs[rc(5, 2, 2)], 1.0, "Blue's own stone plane");
    assert_eq!(obs[3 * 61 + rc(5, 2, 2)], 1.0, "closed plane");
    assert_eq!(obs[3 * 61 + rc(5, 2, 1)], 0.0);
}

/// `remove_surrounded=false` with a loop inside a loop (`larger_loop_subsumes_a_smaller_one`):
/// the big ring turns Blue; the settled Red ring inside it stays Red, all six stones kept, and
/// the stones already kept stay kept.
#[test]
fn without_removal_a_subsumed_ring_stays_in_its_colour() {
    let small = ring5(4, 4);
    let mut red = small.clone();
    red.extend([(3, 5), (2, 2), (2, 4), (6, 2), (6, 4)]);
    let blue = [(2, 3), (3, 2), (4, 2), (5, 2), (5, 5), (6, 3)];
    let mut s = position_in(config_with(5, true, false), &red, &blue, BLUE);
    let mut removed = position(5, &red, &blue, BLUE);
    play(&mut s, 5, 4, 6);
    play(&mut removed, 5, 4, 6);
    assert_eq!(cells_with(&s, 5, 1), sorted(small.clone()));
    assert_eq!(cells_with(&s, 5, 2), cells_with(&removed, 5, 2));
    let kept = s.enclosed_stones();
    let want: Vec<usize> = sorted(small)
        .into_iter()
        .map(|(r, c)| rc(5, r, c))
        .collect();
    assert_eq!((0..61).filter(|&c| kept[c]).collect::<Vec<_>>(), want);
    assert_eq!(s.current_player(), Some(RED));
    assert_eq!(s.legal_actions(), removed.legal_actions());
}

/// The reading of `remove_surrounded=false` changes no legal move and no result: random games
/// with and without removal, from the same seeds, play the same actions to the same end, and
/// their boards differ only on the kept stones, which the removing game has emptied.
#[test]
fn keeping_enclosed_stones_changes_no_move_and_no_result() {
    let mut kept_games = 0;
    for (size, games) in [(3usize, 200u64), (4, 150), (5, 80), (6, 30)] {
        for anti_blob in [true, false] {
            for seed in 0..games {
                let mut a = State::new(config_with(size, anti_blob, true));
                let mut b = State::new(config_with(size, anti_blob, false));
                let mut rng = Rng::new(seed);
                let mut buf = Vec::new();
                let mut any = false;
                while let Some(p) = a.current_player() {
                    assert_eq!(b.current_player(), Some(p));
                    assert_eq!(a.legal_actions(), b.legal_actions());
                    let m = a.random_action(&mut rng, &mut buf).expect("a move");
                    a.apply_unchecked(m);
                    b.apply_unchecked(m);
                    // The measured heuristic sees the same position in both.
                    let (mut ha, mut hb) = ([0u32; 2], [0u32; 2]);
                    let mut scratch = crate::algo::FloodScratch::default();
                    a.heuristic_into(&mut scratch, &mut ha);
                    b.heuristic_into(&mut scratch, &mut hb);
                    assert_eq!(ha, hb);
                    let stones = |v: i8| a.cells().iter().filter(|&&c| c == v).count() as u32;
                    assert_eq!(ha, [stones(1), stones(2)], "every stone counts by default");
                    let kept = b.enclosed_stones();
                    for ((&k, &x), &y) in kept.iter().zip(a.cells()).zip(b.cells()) {
                        if k {
                            assert!(x == 0 && y > 0, "removed there, kept here");
                            any = true;
                        } else {
                            assert_eq!(x, y);
                        }
                    }
                }
                assert!(b.is_terminal());
                assert_eq!(a.ranks(), b.ranks());
                kept_games += usize::from(any);
            }
        }
    }
    assert!(kept_games > 50, "games that kept a stone: {kept_games}");
}

/// The final-shape facts Subsume declares ([`Measure::final_facts`]): groups in all, of each
/// colour, and the largest group's share of the stones in play; a position's snapshot
/// ([`Measure::facts_snapshot`], what a measuring tool keeps for the series) gives the same
/// facts.
#[test]
fn final_shape_facts_by_hand() {
    let facts = |s: &State| {
        let mut out = [0.0; 6];
        assert_eq!(s.final_columns().len(), 6);
        s.final_facts(&mut out);
        let mut snapshot = Vec::new();
        s.facts_snapshot(&mut snapshot);
        let mut again = [0.0; 6];
        // Read through another state of the same game (the empty board).
        State::new(s.cfg.clone()).snapshot_facts(&snapshot, &mut again);
        assert_eq!(out, again);
        out
    };
    // Red (0, 0), (0, 1) and Blue (1, 1) touch: one group of three; Red's two are one group,
    // Blue's one another. Red (4, 4) and Blue (8, 4) stand alone: three groups in all, the
    // largest holding 3 of the 5 stones; Red's largest holds 2 of Red's 3, Blue's 1 of 2.
    let s = position(5, &[(0, 0), (0, 1), (4, 4)], &[(1, 1), (8, 4)], RED);
    assert_eq!(facts(&s), [3.0, 2.0, 2.0, 0.6, 2.0 / 3.0, 0.5]);
    // Red (0, 0), Blue (0, 1), Red (0, 2) along the bottom row: one chain of either colour,
    // but Red's two stones do not touch, so three one-colour groups.
    let s = position(5, &[(0, 0), (0, 2)], &[(0, 1)], RED);
    assert_eq!(facts(&s), [1.0, 2.0, 1.0, 1.0, 0.5, 1.0]);
    // The empty board: no groups, and shares of 0.
    assert_eq!(facts(&position(5, &[], &[], RED)), [0.0; 6]);
    // Without removal, a stone kept inside a settled ring takes no part: the Red ring is one
    // group of six, the kept Blue stone is not counted (Blue has no stone in play).
    let red = [(2, 1), (1, 1), (1, 2), (3, 2)];
    let blue = [(2, 3), (2, 2)];
    let mut s = position_in(config_with(5, true, false), &red, &blue, RED);
    play(&mut s, 5, 3, 3);
    assert_eq!(facts(&s), [1.0, 1.0, 0.0, 1.0, 1.0, 0.0]);
}
