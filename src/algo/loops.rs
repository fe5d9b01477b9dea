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
//! `H` is computed as the complement of what the outside reaches: start from every perimeter
//! cell, and spread from each reached cell that is not a wall to all its neighbours. A wall is
//! reached (it is not in `H`) but does not pass the outside on.

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

/// Reusable buffers for the flood fills of this module. Marks are epoch stamps, so nothing is
/// cleared between calls.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    /// Group membership.
    group: Vec<u32>,
    /// Reached from outside the board.
    outside: Vec<u32>,
    /// Visited by a fill of `H`, or collected as a loop cell.
    seen: Vec<u32>,
    epoch: u32,
    stack: Vec<u16>,
    /// The loop found by the last successful [`new_mel`] or [`mel_of_group`].
    pub loop_cells: Vec<u16>,
    /// Its interior.
    pub interior: Vec<u16>,
}

impl Scratch {
    /// Buffers for boards of `n` cells.
    pub fn new(n: usize) -> Scratch {
        Scratch {
            group: vec![0; n],
            outside: vec![0; n],
            seen: vec![0; n],
            epoch: 0,
            stack: Vec::with_capacity(n),
            loop_cells: Vec::with_capacity(n),
            interior: Vec::with_capacity(n),
        }
    }

    /// A stamp no mark carries yet.
    fn fresh(&mut self, n: usize) -> u32 {
        self.reserve(n, 1)
    }

    /// `k` consecutive stamps no mark carries yet; returns the first.
    fn reserve(&mut self, n: usize, k: usize) -> u32 {
        if self.group.len() != n {
            *self = Scratch::new(n);
        }
        let k = k as u32;
        if self.epoch > u32::MAX - k {
            self.group.fill(0);
            self.outside.fill(0);
            self.seen.fill(0);
            self.epoch = 0;
        }
        let first = self.epoch + 1;
        self.epoch += k;
        first
    }

    /// With `outside` marked for `ep` and `inside` cells in `H`, checks that `H` is connected
    /// starting from `h0`, and collects `H` into `interior` and its boundary into `loop_cells`.
    fn collect_mel(&mut self, board: &Board, ep: u32, h0: usize, inside: usize) -> bool {
        self.interior.clear();
        self.loop_cells.clear();
        self.stack.clear();
        self.seen[h0] = ep;
        self.stack.push(h0 as u16);
        while let Some(c) = self.stack.pop() {
            self.interior.push(c);
            for &t in board.orth(c as usize) {
                let t = t as usize;
                if self.seen[t] != ep {
                    self.seen[t] = ep;
                    if self.outside[t] == ep {
                        self.loop_cells.push(t as u16);
                    } else {
                        self.stack.push(t as u16);
                    }
                }
            }
        }
        self.interior.len() == inside
    }

    /// Marks `group` with `ep` for the group of stones containing `s`; returns its size.
    fn flood_group(&mut self, board: &Board, cells: &[i8], s: usize, ep: u32) -> usize {
        let mut count = 0;
        self.stack.clear();
        self.group[s] = ep;
        self.stack.push(s as u16);
        while let Some(c) = self.stack.pop() {
            count += 1;
            for &t in board.orth(c as usize) {
                let t = t as usize;
                if cells[t] != 0 && self.group[t] != ep {
                    self.group[t] = ep;
                    self.stack.push(t as u16);
                }
            }
        }
        count
    }
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
#[derive(Clone, Debug, Default)]
pub struct OpenCells {
    list: Vec<u16>,
    /// Index of each cell in `list`, or `u16::MAX` when absent.
    pos: Vec<u16>,
}

impl OpenCells {
    /// The open cells of a position (test 1 from scratch).
    pub fn from_cells(board: &Board, cells: &[i8]) -> OpenCells {
        let shut = surrounded(board, cells);
        let mut open = OpenCells {
            list: Vec::with_capacity(cells.len()),
            pos: vec![u16::MAX; cells.len()],
        };
        for c in 0..cells.len() {
            if cells[c] == 0 && !shut[c] {
                open.pos[c] = open.list.len() as u16;
                open.list.push(c as u16);
            }
        }
        open
    }

    /// The open cells, in no particular order.
    #[inline]
    pub fn as_slice(&self) -> &[u16] {
        &self.list
    }

    /// Whether `c` is an open empty cell.
    #[inline]
    pub fn contains(&self, c: usize) -> bool {
        self.pos[c] != u16::MAX
    }

    fn remove(&mut self, c: usize) {
        let i = self.pos[c];
        if i == u16::MAX {
            return;
        }
        let last = self.list.pop().unwrap_or(c as u16);
        if last as usize != c {
            self.list[i as usize] = last;
            self.pos[last as usize] = i;
        }
        self.pos[c] = u16::MAX;
    }

    /// Updates the set after a stone was placed on the open cell `s` (`cells` already shows it).
    /// Returns whether any empty cell became surrounded.
    pub fn place(
        &mut self,
        board: &Board,
        ring: &[[u16; 6]],
        cells: &[i8],
        s: usize,
        scratch: &mut Scratch,
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
        // Each run's fill gets its own stamp, all at least `ep0`.
        let ep0 = scratch.reserve(cells.len(), 6);
        let mut cut = false;
        for i in 0..6 {
            let prev = (i + 5) % 6;
            if open_mask & (1 << i) == 0 || open_mask & (1 << prev) != 0 {
                continue;
            }
            // Run starting at slot i: skip it when it touches off-board (it is outside).
            let mut j = i;
            let mut off = false;
            while open_mask & (1 << j) != 0 {
                off |= around[j] == OFF_BOARD;
                j = (j + 1) % 6;
                if j == i {
                    break;
                }
            }
            let start = around[i] as usize;
            if off || scratch.seen[start] >= ep0 {
                continue;
            }
            let ep = ep0 + i as u32;
            if !Self::reaches_perimeter(board, cells, start, ep0, ep, scratch) {
                cut = true;
                for k in 0..scratch.stack.len() {
                    let c = scratch.stack[k] as usize;
                    self.remove(c);
                }
            }
        }
        cut
    }

    /// Fills the empty region of `start`, stamping `seen` with `ep`, until it meets a perimeter
    /// cell or a cell an earlier fill of this placement stamped (stamps from `ep0` on). A fill
    /// that stops early reached the outside; one that ends after meeting no earlier fill was
    /// completed, so meeting one means that fill stopped early: it reached the outside too. When
    /// the result is false, `scratch.stack` holds the whole region.
    fn reaches_perimeter(
        board: &Board,
        cells: &[i8],
        start: usize,
        ep0: u32,
        ep: u32,
        scratch: &mut Scratch,
    ) -> bool {
        // `stack` keeps every visited cell; `head` walks it (breadth first).
        scratch.stack.clear();
        scratch.seen[start] = ep;
        scratch.stack.push(start as u16);
        let mut head = 0;
        while head < scratch.stack.len() {
            let c = scratch.stack[head] as usize;
            head += 1;
            if board.is_perimeter(c) {
                return true;
            }
            for &t in board.orth(c) {
                let t = t as usize;
                if cells[t] != 0 || scratch.seen[t] == ep {
                    continue;
                }
                if scratch.seen[t] >= ep0 {
                    return true;
                }
                scratch.seen[t] = ep;
                scratch.stack.push(t as u16);
            }
        }
        false
    }
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

/// Stamps `outside` with `ep` for every cell not in `H(walls)` and returns how many there are.
fn flood_outside(
    board: &Board,
    outside: &mut [u32],
    stack: &mut Vec<u16>,
    ep: u32,
    wall: impl Fn(usize) -> bool,
) -> usize {
    let mut count = 0;
    stack.clear();
    for &p in board.perimeter() {
        let p = p as usize;
        outside[p] = ep;
        count += 1;
        if !wall(p) {
            stack.push(p as u16);
        }
    }
    while let Some(c) = stack.pop() {
        for &t in board.orth(c as usize) {
            let t = t as usize;
            if outside[t] != ep {
                outside[t] = ep;
                count += 1;
                if !wall(t) {
                    stack.push(t as u16);
                }
            }
        }
    }
    count
}

/// Test 3: whether the stone on `s` (already in `cells`) lies on the MEL of its group. On `true`,
/// `scratch.loop_cells` holds the MEL and `scratch.interior` its interior, in no particular order.
pub fn new_mel(board: &Board, cells: &[i8], s: usize, scratch: &mut Scratch) -> bool {
    let n = cells.len();
    let ep = scratch.fresh(n);
    // A loop has at least 6 stones.
    if scratch.flood_group(board, cells, s, ep) < 6 {
        return false;
    }
    let group = &scratch.group;
    let reached = flood_outside(board, &mut scratch.outside, &mut scratch.stack, ep, |c| {
        group[c] == ep
    });
    // s is on the MEL iff it is outside H and touches H.
    if scratch.outside[s] != ep {
        return false;
    }
    let Some(h0) = board
        .orth(s)
        .iter()
        .map(|&t| t as usize)
        .find(|&t| scratch.outside[t] != ep)
    else {
        return false;
    };
    scratch.collect_mel(board, ep, h0, n - reached)
}

/// Test 2: the MEL of the group of stones containing `s` and its interior (each ascending), or
/// `None` when the group has no MEL (or `s` is empty).
pub fn mel_of_group(
    board: &Board,
    cells: &[i8],
    s: usize,
    scratch: &mut Scratch,
) -> Option<(Vec<u16>, Vec<u16>)> {
    let n = cells.len();
    if cells[s] == 0 {
        return None;
    }
    let ep = scratch.fresh(n);
    scratch.flood_group(board, cells, s, ep);
    let group = &scratch.group;
    let reached = flood_outside(board, &mut scratch.outside, &mut scratch.stack, ep, |c| {
        group[c] == ep
    });
    let h0 = (0..n).find(|&c| scratch.outside[c] != ep)?;
    if !scratch.collect_mel(board, ep, h0, n - reached) {
        return None;
    }
    let mut found = (scratch.loop_cells.clone(), scratch.interior.clone());
    found.0.sort_unstable();
    found.1.sort_unstable();
    Some(found)
}

/// Test 4: whether the stones of `colour` (a cell value, 1 or 2) form a loop holding more than
/// `threshold` perimeter cells.
pub fn has_winning_loop(
    board: &Board,
    cells: &[i8],
    colour: i8,
    threshold: usize,
    scratch: &mut Scratch,
) -> bool {
    let n = cells.len();
    // One stamp for the outside fill and one per component of H.
    let ep = scratch.reserve(n, n + 1);
    let mut k = ep;
    flood_outside(board, &mut scratch.outside, &mut scratch.stack, ep, |c| {
        cells[c] == colour
    });
    // Each component K of H gets its own stamp in `group`, marking its boundary cells once.
    for h in 0..n {
        if scratch.outside[h] == ep || scratch.seen[h] == ep {
            continue;
        }
        k += 1;
        let mut on_perimeter = 0;
        scratch.stack.clear();
        scratch.seen[h] = ep;
        scratch.stack.push(h as u16);
        while let Some(c) = scratch.stack.pop() {
            for &t in board.orth(c as usize) {
                let t = t as usize;
                if scratch.outside[t] == ep {
                    if scratch.group[t] != k {
                        scratch.group[t] = k;
                        if board.is_perimeter(t) {
                            on_perimeter += 1;
                        }
                    }
                } else if scratch.seen[t] != ep {
                    scratch.seen[t] = ep;
                    scratch.stack.push(t as u16);
                }
            }
        }
        if on_perimeter > threshold {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Rng;

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
        let mut scratch = Scratch::default();
        for size in 3..=8 {
            let board = Board::hex_cells(size);
            let ring = cyclic_neighbours(&board);
            let n = board.num_sites();
            for _ in 0..20 {
                let mut cells = vec![0i8; n];
                let mut open = OpenCells::from_cells(&board, &cells);
                while !open.as_slice().is_empty() {
                    let list = open.as_slice();
                    let s = list[rng.below(list.len())] as usize;
                    cells[s] = 1 + rng.below(2) as i8;
                    let before: Vec<bool> = (0..n).map(|c| open.contains(c)).collect();
                    let cut = open.place(&board, &ring, &cells, s, &mut scratch);
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
}
