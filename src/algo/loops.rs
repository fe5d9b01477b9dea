//! Loops of stones on hex-cell boards, as Subsume needs them.
//!
//! Vocabulary (all adjacency is the 6-neighbour relation of hex cells):
//!
//! * a **group** is a maximal connected set of stones of *any* colours;
//! * a **loop** is a set of at least 6 stones whose induced graph is a single cycle;
//! * the **interior** of a loop L is the set of cells outside L that no path avoiding L connects
//!   to the edge of the board;
//! * the **maximally encompassing loop** (MEL) of a group is a loop of the group that holds every
//!   other loop of the group inside `L ∪ interior(L)`.
//!
//! Enumerating loops is exponential, so the engine never does it. It uses four equivalent tests
//! instead, each a flood fill or two:
//!
//! 1. An empty cell lies inside some loop iff its region of empty cells has no perimeter cell
//!    ([`surrounded`], and incrementally [`OpenCells`]).
//! 2. For a group G let `H(G)` be the cells from which every path off the board meets a stone of
//!    G other than the cell itself. G has a MEL iff `H(G)` is non-empty and connected; the MEL is
//!    then the set of cells adjacent to `H(G)` but not in it, and its interior is `H(G)`
//!    ([`mel_of_group`]).
//! 3. A stone just placed on s created a new MEL iff the group of s has a MEL and s is on it
//!    ([`new_mel`]).
//! 4. For a colour X, with X's stones as walls, every component K of the enclosed cells is ringed
//!    by an all-X loop that holds every perimeter cell of any X loop around part of K
//!    ([`has_winning_loop`]).
//!
//! The tests are held against brute-force enumeration of induced cycles (from the definitions
//! above) in `tests/subsume_bruteforce.rs`.
//!
//! `H` is computed as the complement of what the outside reaches: the outside R is what the
//! perimeter reaches through non-walls, and a cell is out of `H` when it is on the perimeter, in
//! R or next to R (a wall is reached but does not pass the outside on).
//!
//! Speed: the fills of tests 2 to 4 run bit-parallel on whole-board sets ([`HexGrid`]): one
//! growth step is six shifts, so a fill costs a few dozen word operations per step of its
//! radius. Test 1 is kept up to date placement by placement ([`OpenCells`]), which fills only
//! when a stone has empty cells on two or more sides; [`may_close_mel`] skips test 3 for most
//! placements with a look at the new stone's neighbours; and the game only runs test 4 for a
//! colour that gained stones and holds more than half the perimeter.

use super::bits::{with_width, Bits};
use super::hexgrid::{HexGrid, HexMasks};
use super::sparse::SparseSet;
use crate::board::Board;

/// Marks an off-board slot in a [`cyclic_neighbours`] table.
pub const OFF_BOARD: u16 = u16::MAX;

/// Cube steps to the six neighbours of a hex cell, in turning order: consecutive steps (and the
/// last and first) lead to cells that are adjacent to each other.
///
/// ```text
///        2   1
///      3   .   0
///        4   5
/// ```
const TURN: [[i32; 3]; 6] = [
    [1, -1, 0],
    [1, 0, -1],
    [0, 1, -1],
    [-1, 1, 0],
    [-1, 0, 1],
    [0, -1, 1],
];

/// For each cell, its six neighbours in turning order, [`OFF_BOARD`] where the board ends.
///
/// Only meaningful for hexagonal regions of cells (or points, the same graph).
pub fn cyclic_neighbours(board: &Board) -> Vec<[u16; 6]> {
    (0..board.num_sites())
        .map(|s| {
            let c = board.cube(s);
            let mut ring = [OFF_BOARD; 6];
            for (slot, d) in ring.iter_mut().zip(TURN) {
                if let Some(t) = board.site_at_cube([c[0] + d[0], c[1] + d[1], c[2] + d[2]]) {
                    *slot = t as u16;
                }
            }
            ring
        })
        .collect()
}

/// The number of maximal runs of set bits in a 6-bit mask read cyclically (a full mask is one
/// run).
#[inline]
pub fn runs(mask: u8) -> u32 {
    let mask = mask & 63;
    if mask == 63 {
        return 1;
    }
    // A run starts at bit i when bit i is set and bit i − 1 (cyclically) is not.
    let prev = ((mask << 1) | (mask >> 5)) & 63;
    (mask & !prev).count_ones()
}

/// Where [`new_mel`] leaves the loop it found, to spare allocations.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    /// The loop found by the last successful [`new_mel`], ascending.
    pub loop_cells: Vec<u16>,
    /// Its interior, ascending.
    pub interior: Vec<u16>,
}

/// Test 1 over the whole board: `true` for every empty cell whose region of empty cells holds no
/// perimeter cell, i.e. for the empty cells inside some loop.
pub fn surrounded(board: &Board, cells: &[i8]) -> Vec<bool> {
    let n = board.num_sites();
    let mut open = vec![false; n];
    let mut stack: Vec<usize> = Vec::new();
    for &p in board.perimeter() {
        let p = p as usize;
        if cells[p] == 0 && !open[p] {
            open[p] = true;
            stack.push(p);
        }
    }
    while let Some(c) = stack.pop() {
        for &t in board.orth(c) {
            let t = t as usize;
            if cells[t] == 0 && !open[t] {
                open[t] = true;
                stack.push(t);
            }
        }
    }
    (0..n).map(|c| cells[c] == 0 && !open[c]).collect()
}

/// The empty cells that are *not* surrounded (test 1), kept up to date placement by placement.
///
/// Only placements shrink this set: a stone can cut an empty region in two, while flips change
/// no emptiness and removals only empty cells inside a loop, which stay surrounded. A placement on
/// s can only cut a region when the empty or off-board slots around s form two or more separate
/// runs in turning order; only then does it flood, from each run, until it meets the perimeter.
#[derive(Debug)]
pub struct OpenCells {
    set: SparseSet,
}

impl Clone for OpenCells {
    fn clone(&self) -> Self {
        OpenCells {
            set: self.set.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.set.clone_from(&source.set);
    }
}

impl OpenCells {
    /// Bytes owned on the heap.
    pub fn heap_bytes(&self) -> usize {
        self.set.heap_bytes()
    }

    /// The open cells of a position (test 1 from scratch).
    pub fn from_cells(board: &Board, cells: &[i8]) -> OpenCells {
        let shut = surrounded(board, cells);
        let mut set = SparseSet::new(cells.len());
        for c in 0..cells.len() {
            if cells[c] == 0 && !shut[c] {
                set.insert(0, c);
            }
        }
        OpenCells { set }
    }

    /// The open cells, in no particular order.
    #[inline]
    pub fn as_slice(&self) -> &[u16] {
        self.set.as_slice(0)
    }

    /// Whether `c` is an open empty cell.
    #[inline]
    pub fn contains(&self, c: usize) -> bool {
        self.set.contains(0, c)
    }

    fn remove(&mut self, c: usize) {
        self.set.discard(0, c);
    }

    /// Updates the set after a stone was placed on the open cell `s`; `cells` and `stones` (the
    /// set of all stones) already show it. Returns whether any empty cell became surrounded.
    pub fn place(
        &mut self,
        grid: &HexGrid,
        ring: &[[u16; 6]],
        cells: &[i8],
        stones: &[u64],
        s: usize,
    ) -> bool {
        self.remove(s);
        let around = &ring[s];
        let mut open_mask = 0u8;
        for (i, &t) in around.iter().enumerate() {
            if t == OFF_BOARD || cells[t as usize] == 0 {
                open_mask |= 1 << i;
            }
        }
        if runs(open_mask) < 2 {
            return false;
        }
        with_width!(grid.words(), K => place_w::<K>(self, grid, around, open_mask, stones))
    }
}

/// The fills of [`OpenCells::place`]: from the first cell of each run of empty slots around the
/// new stone, grow through empty cells until meeting the perimeter or an earlier fill that did
/// (then the run is outside), or until the fill stops growing (then its cells are surrounded).
/// A run touching off-board slots is outside at once: its cells are on the perimeter.
fn place_w<const K: usize>(
    open: &mut OpenCells,
    grid: &HexGrid,
    around: &[u16; 6],
    open_mask: u8,
    stones: &[u64],
) -> bool {
    let m = grid.masks::<K>();
    let empty = m.valid & !Bits::from_words(stones);
    let mut outside = Bits::<K>::EMPTY;
    let mut done = Bits::<K>::EMPTY;
    let mut cut = false;
    for i in 0..6 {
        let prev = (i + 5) % 6;
        if open_mask & (1 << i) == 0 || open_mask & (1 << prev) != 0 {
            continue;
        }
        let mut j = i;
        let mut off = false;
        while open_mask & (1 << j) != 0 {
            off |= around[j] == OFF_BOARD;
            j = (j + 1) % 6;
            if j == i {
                break;
            }
        }
        if off {
            continue;
        }
        let start = Bits::<K>::single(grid.bit(around[i] as usize));
        if start.intersects(&done) {
            continue;
        }
        let stop = m.perimeter | outside;
        let mut x = start;
        loop {
            if x.intersects(&stop) {
                outside |= x;
                break;
            }
            let y = m.grow(x) & empty;
            if y == x {
                cut = true;
                grid.for_each_cell(x, |c| open.remove(c));
                break;
            }
            x = y;
        }
        done |= x;
    }
    cut
}

/// A cheap necessary condition for the stone just placed on s to have closed a new MEL, given
/// `open` already updated for the placement and `cut` = what [`OpenCells::place`] returned.
///
/// s is on the MEL only if it touches `H(G)`. A neighbour y of s in `H(G)` is either an empty
/// cell, which the placement must then have cut off (`cut`), or a stone of G; such a stone is off
/// the perimeter and has no open empty neighbour, because an open cell leads off the board
/// through empty cells, none of them in G.
#[inline]
pub fn may_close_mel(board: &Board, cells: &[i8], open: &OpenCells, s: usize, cut: bool) -> bool {
    if cut {
        return true;
    }
    let mut stones = 0;
    let mut candidate = false;
    for &y in board.orth(s) {
        let y = y as usize;
        if cells[y] == 0 {
            continue;
        }
        stones += 1;
        if !candidate
            && !board.is_perimeter(y)
            && board.orth(y).iter().all(|&t| !open.contains(t as usize))
        {
            candidate = true;
        }
    }
    stones >= 2 && candidate
}

/// `H(walls)`: the cells from which every path off the board meets a wall other than the cell
/// itself. The outside R is what the perimeter reaches through non-walls; a cell is out of H when
/// it is on the perimeter, in R or next to R.
#[inline]
fn enclosed<const K: usize>(m: &HexMasks<K>, walls: Bits<K>) -> Bits<K> {
    let open = m.valid & !walls;
    let outside = m.fill(m.perimeter & open, open);
    m.valid & !m.grow(outside) & !m.perimeter
}

/// Test 3: whether the stone on `s` lies on the MEL of its group, given the set of all stones
/// (`s` included). On `true`, `scratch.loop_cells` holds the MEL and `scratch.interior` its
/// interior, both ascending.
pub fn new_mel(grid: &HexGrid, stones: &[u64], s: usize, scratch: &mut Scratch) -> bool {
    with_width!(grid.words(), K => new_mel_w::<K>(grid, stones, s, scratch))
}

fn new_mel_w<const K: usize>(
    grid: &HexGrid,
    stones: &[u64],
    s: usize,
    scratch: &mut Scratch,
) -> bool {
    let m = grid.masks::<K>();
    let at = Bits::<K>::single(grid.bit(s));
    let group = m.fill(at, Bits::from_words(stones));
    // A loop has at least 6 stones.
    if group.count() < 6 {
        return false;
    }
    let inside = enclosed(&m, group);
    // s is on the MEL iff H is connected and s is next to H but not in it.
    let touching = m.grow(at) & inside;
    if touching.is_empty() || inside.intersects(&at) {
        return false;
    }
    if m.fill(touching.isolate_lowest(), inside) != inside {
        return false;
    }
    let ring = m.grow(inside) & !inside;
    grid.cells_into(ring, &mut scratch.loop_cells);
    grid.cells_into(inside, &mut scratch.interior);
    true
}

/// Test 2: the MEL of the group of stones containing `s` and its interior (each ascending), or
/// `None` when the group has no MEL (or `s` is empty).
pub fn mel_of_group(grid: &HexGrid, cells: &[i8], s: usize) -> Option<(Vec<u16>, Vec<u16>)> {
    if cells[s] == 0 {
        return None;
    }
    let stones = grid.stones_of(cells);
    with_width!(grid.words(), K => mel_of_group_w::<K>(grid, &stones, s))
}

fn mel_of_group_w<const K: usize>(
    grid: &HexGrid,
    stones: &[u64],
    s: usize,
) -> Option<(Vec<u16>, Vec<u16>)> {
    let m = grid.masks::<K>();
    let group = m.fill(Bits::single(grid.bit(s)), Bits::from_words(stones));
    let inside = enclosed(&m, group);
    if inside.is_empty() || m.fill(inside.isolate_lowest(), inside) != inside {
        return None;
    }
    let (mut ring, mut interior) = (Vec::new(), Vec::new());
    grid.cells_into(m.grow(inside) & !inside, &mut ring);
    grid.cells_into(inside, &mut interior);
    Some((ring, interior))
}

/// Test 4: whether the stones of one colour (given as a set) form a loop holding more than
/// `threshold` perimeter cells.
pub fn has_winning_loop(grid: &HexGrid, colour: &[u64], threshold: usize) -> bool {
    with_width!(grid.words(), K => has_winning_loop_w::<K>(grid, colour, threshold))
}

fn has_winning_loop_w<const K: usize>(grid: &HexGrid, colour: &[u64], threshold: usize) -> bool {
    let m = grid.masks::<K>();
    let mut inside = enclosed(&m, Bits::from_words(colour));
    // Each component K of H is ringed by an all-X loop: its boundary.
    while !inside.is_empty() {
        let part = m.fill(inside.isolate_lowest(), inside);
        let ring = m.grow(part) & !part;
        if (ring & m.perimeter).count() > threshold {
            return true;
        }
        inside &= !part;
    }
    false
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn runs_counts_cyclic_runs() {
        for mask in 0u8..64 {
            let bit = |i: usize| mask >> (i % 6) & 1 == 1;
            let naive = if mask == 63 {
                1
            } else {
                (0..6).filter(|&i| bit(i) && !bit(i + 5)).count() as u32
            };
            assert_eq!(runs(mask), naive, "{mask:06b}");
        }
    }

    #[test]
    fn turning_order_neighbours_are_the_board_neighbours_in_a_cycle() {
        let board = Board::hex_cells(5);
        let ring = cyclic_neighbours(&board);
        for (s, around) in ring.iter().enumerate() {
            let mut on: Vec<u16> = around.iter().copied().filter(|&t| t != OFF_BOARD).collect();
            on.sort_unstable();
            assert_eq!(on, board.orth(s));
            for i in 0..6 {
                let (a, b) = (around[i], around[(i + 1) % 6]);
                if a != OFF_BOARD && b != OFF_BOARD {
                    assert!(board.orth(a as usize).contains(&b), "{s}: {a} {b}");
                }
            }
        }
    }

    /// Random stones dropped one by one on open cells: the incremental set always equals test 1
    /// from scratch, which in turn equals a naive flood from every empty cell.
    #[test]
    fn open_cells_follow_placements() {
        let mut rng = Rng::new(17);
        for size in 3..=8 {
            let board = Board::hex_cells(size);
            let ring = cyclic_neighbours(&board);
            let grid = HexGrid::new(&board);
            let n = board.num_sites();
            for _ in 0..20 {
                let mut cells = vec![0i8; n];
                let mut open = OpenCells::from_cells(&board, &cells);
                while !open.as_slice().is_empty() {
                    let list = open.as_slice();
                    let s = list[rng.below(list.len())] as usize;
                    cells[s] = 1 + rng.below(2) as i8;
                    let before: Vec<bool> = (0..n).map(|c| open.contains(c)).collect();
                    let stones = grid.stones_of(&cells);
                    let cut = open.place(&grid, &ring, &cells, &stones, s);
                    let shut = surrounded(&board, &cells);
                    let naive = naive_surrounded(&board, &cells);
                    assert_eq!(shut, naive);
                    for c in 0..n {
                        assert_eq!(open.contains(c), cells[c] == 0 && !shut[c], "size {size}");
                    }
                    let newly = (0..n).any(|c| before[c] && c != s && !open.contains(c));
                    assert_eq!(cut, newly);
                }
            }
        }
    }

    fn naive_surrounded(board: &Board, cells: &[i8]) -> Vec<bool> {
        (0..cells.len())
            .map(|c| {
                if cells[c] != 0 {
                    return false;
                }
                let mut seen = vec![false; cells.len()];
                let mut stack = vec![c];
                seen[c] = true;
                while let Some(x) = stack.pop() {
                    if board.is_perimeter(x) {
                        return false;
                    }
                    for &t in board.orth(x) {
                        let t = t as usize;
                        if cells[t] == 0 && !seen[t] {
                            seen[t] = true;
                            stack.push(t);
                        }
                    }
                }
                true
            })
            .collect()
    }

    /// `H(walls)` by plain scalar fills, straight from its description.
    fn naive_enclosed(board: &Board, walls: &[bool]) -> Vec<bool> {
        let n = walls.len();
        let mut outside = vec![false; n];
        let mut stack: Vec<usize> = (0..n)
            .filter(|&c| board.is_perimeter(c) && !walls[c])
            .collect();
        for &c in &stack {
            outside[c] = true;
        }
        while let Some(c) = stack.pop() {
            for &t in board.orth(c) {
                let t = t as usize;
                if !walls[t] && !outside[t] {
                    outside[t] = true;
                    stack.push(t);
                }
            }
        }
        (0..n)
            .map(|c| {
                !board.is_perimeter(c)
                    && !outside[c]
                    && board.orth(c).iter().all(|&t| !outside[t as usize])
            })
            .collect()
    }

    /// Components of the cells flagged in `set`.
    fn naive_components(board: &Board, set: &[bool]) -> Vec<Vec<usize>> {
        let mut seen = vec![false; set.len()];
        let mut out = Vec::new();
        for c in 0..set.len() {
            if !set[c] || seen[c] {
                continue;
            }
            let mut part = vec![c];
            seen[c] = true;
            let mut i = 0;
            while i < part.len() {
                for &t in board.orth(part[i]) {
                    let t = t as usize;
                    if set[t] && !seen[t] {
                        seen[t] = true;
                        part.push(t);
                    }
                }
                i += 1;
            }
            part.sort_unstable();
            out.push(part);
        }
        out
    }

    fn boundary(board: &Board, part: &[usize]) -> Vec<u16> {
        let mut out: Vec<u16> = part
            .iter()
            .flat_map(|&c| board.orth(c).iter().copied())
            .filter(|&t| !part.contains(&(t as usize)))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The bit-parallel tests 2 to 4 against scalar fills on every set size the boards of sides
    /// 3 to 12, 15 and 30 use (the brute-force checker covers only the 1- and 2-word boards).
    #[test]
    fn bit_parallel_tests_match_scalar_fills() {
        let mut rng = Rng::new(23);
        let mut scratch = Scratch::default();
        let mut found = 0;
        for size in (3..=12).chain([15, 30]) {
            let board = Board::hex_cells(size);
            let grid = HexGrid::new(&board);
            let n = board.num_sites();
            let threshold = 3 * (size - 1);
            let rounds = if size > 12 { 3 } else { 15 };
            for round in 0..rounds {
                let density = 0.3 + 0.6 * rng.unit();
                let cells: Vec<i8> = (0..n)
                    .map(|_| {
                        if rng.unit() < density {
                            1 + rng.below(2) as i8
                        } else {
                            0
                        }
                    })
                    .collect();
                let stones: Vec<bool> = cells.iter().map(|&v| v != 0).collect();
                let stone_set = grid.stones_of(&cells);
                for group in naive_components(&board, &stones) {
                    let mut walls = vec![false; n];
                    for &c in &group {
                        walls[c] = true;
                    }
                    let h = naive_enclosed(&board, &walls);
                    let parts = naive_components(&board, &h);
                    let want = (parts.len() == 1).then(|| {
                        let inside: Vec<u16> = parts[0].iter().map(|&c| c as u16).collect();
                        (boundary(&board, &parts[0]), inside)
                    });
                    let got = mel_of_group(&grid, &cells, group[0]);
                    assert_eq!(got, want, "size {size} round {round}");
                    // Test 3 for every stone of the group.
                    for &s in group.iter().take(12) {
                        let on = want.as_ref().is_some_and(|(l, _)| l.contains(&(s as u16)));
                        assert_eq!(new_mel(&grid, &stone_set, s, &mut scratch), on);
                        if on {
                            found += 1;
                            let (l, i) = want.as_ref().expect("a MEL");
                            assert_eq!(&scratch.loop_cells, l);
                            assert_eq!(&scratch.interior, i);
                        }
                    }
                }
                for colour in 1..=2i8 {
                    let walls: Vec<bool> = cells.iter().map(|&v| v == colour).collect();
                    let h = naive_enclosed(&board, &walls);
                    // Lower thresholds than the game's, so that wins are frequent.
                    let best = naive_components(&board, &h)
                        .iter()
                        .map(|p| {
                            boundary(&board, p)
                                .iter()
                                .filter(|&&c| board.is_perimeter(c as usize))
                                .count()
                        })
                        .max();
                    let set = grid.set_of(&cells, colour);
                    for t in [0, threshold / 4, threshold / 2, threshold] {
                        let want = best.is_some_and(|b| b > t);
                        assert_eq!(has_winning_loop(&grid, &set, t), want, "size {size}");
                    }
                }
            }
        }
        assert!(found > 50, "only {found} stones on a MEL");
    }
}
