//! Bit-parallel flood fills on hexagonal regions of cells: a layout of the cells in a
//! [`Bits`] set where the six neighbours of every cell are six fixed shifts away.
//!
//! [`NeighborMasks`](super::bits::NeighborMasks) grows a set one site at a time through
//! per-site masks, which suits small boards and sets. Here one growth step of a whole set costs
//! six shifts and a few masks, whatever the set holds, so a fill costs a few dozen word
//! operations per step of its radius: the fast path for fills over large parts of a large board.

use super::bits::{with_width, Bits};
use crate::board::Board;

/// Marks the bits of the layout that no cell uses.
const NO_CELL: u16 = u16::MAX;

/// The bit layout of a hexagonal region of cells.
///
/// A cell with cube coordinates (x, y, z) gets bit `(z − z0)·w + (x − x0)`, w the width of the
/// bounding box in x: the hexagon sits in a w × w rhombus, with the empty corners unused.
///
/// ```text
///   row z = 2:       . . @ @ @        neighbours of bit i: i ± 1 (same row),
///   row z = 1:      . @ @ @ @         i + w, i + w − 1 (row above), i − w, i − w + 1 (row below)
///   row z = 0:     @ @ @ . .
/// ```
///
/// Shifts by 1 and w − 1 wrap from one row's end to the next row's start; masks of the first and
/// last columns stop that. The number of words is picked per board from
/// [`RUNTIME_WIDTHS`](super::bits::RUNTIME_WIDTHS); sets of the layout are stored as word slices
/// and loaded as `Bits<K>` under `with_width!`.
#[derive(Clone, Debug)]
pub struct HexGrid {
    width: u32,
    words: usize,
    /// Bit of each cell.
    bit: Vec<u16>,
    /// Cell of each bit (`NO_CELL` for unused bits).
    cell: Vec<u16>,
    valid: Vec<u64>,
    perimeter: Vec<u64>,
    not_first: Vec<u64>,
    not_last: Vec<u64>,
}

impl HexGrid {
    /// The layout of a hexagonal region of cells.
    pub fn new(board: &Board) -> HexGrid {
        let n = board.num_sites();
        let cubes: Vec<[i32; 3]> = (0..n).map(|s| board.cube(s)).collect();
        let x0 = cubes.iter().map(|c| c[0]).min().unwrap_or(0);
        let x1 = cubes.iter().map(|c| c[0]).max().unwrap_or(0);
        let z0 = cubes.iter().map(|c| c[2]).min().unwrap_or(0);
        let z1 = cubes.iter().map(|c| c[2]).max().unwrap_or(0);
        let width = (x1 - x0 + 1) as usize;
        let height = (z1 - z0 + 1) as usize;
        assert!(width < 64, "board too wide for the bit layout");
        let words = super::bits::runtime_width_for(width * height)
            .expect("board too large for the bit layout");
        let mut grid = HexGrid {
            width: width as u32,
            words,
            bit: vec![0; n],
            cell: vec![NO_CELL; words * 64],
            valid: vec![0; words],
            perimeter: vec![0; words],
            not_first: vec![0; words],
            not_last: vec![0; words],
        };
        for (s, c) in cubes.iter().enumerate() {
            let col = (c[0] - x0) as usize;
            let b = (c[2] - z0) as usize * width + col;
            grid.bit[s] = b as u16;
            grid.cell[b] = s as u16;
            grid.valid[b / 64] |= 1 << (b % 64);
            if board.is_perimeter(s) {
                grid.perimeter[b / 64] |= 1 << (b % 64);
            }
            if col != 0 {
                grid.not_first[b / 64] |= 1 << (b % 64);
            }
            if col != width - 1 {
                grid.not_last[b / 64] |= 1 << (b % 64);
            }
        }
        grid
    }

    /// Words per set.
    pub fn words(&self) -> usize {
        self.words
    }

    /// The bit of cell `c`.
    #[inline]
    pub fn bit(&self, c: usize) -> usize {
        self.bit[c] as usize
    }

    /// The number of groups (connected parts) of the cells of `set` (as words), and the
    /// largest one's size (0 for an empty set).
    pub fn groups(&self, set: &[u64]) -> (usize, usize) {
        fn groups_w<const K: usize>(grid: &HexGrid, set: &[u64]) -> (usize, usize) {
            let m = grid.masks::<K>();
            let mut rest = Bits::<K>::from_words(set) & m.valid;
            let (mut groups, mut largest) = (0, 0);
            while !rest.is_empty() {
                let part = m.fill(rest.isolate_lowest(), rest);
                groups += 1;
                largest = largest.max(part.count());
                rest &= !part;
            }
            (groups, largest)
        }
        with_width!(self.words, K => groups_w::<K>(self, set))
    }

    /// The set of cells holding `value`, as words.
    pub fn set_of(&self, cells: &[i8], value: i8) -> Vec<u64> {
        let mut out = vec![0; self.words];
        for (c, &v) in cells.iter().enumerate() {
            if v == value {
                let b = self.bit(c);
                out[b / 64] |= 1 << (b % 64);
            }
        }
        out
    }

    /// The set of stones, as words.
    pub fn stones_of(&self, cells: &[i8]) -> Vec<u64> {
        let mut out = self.set_of(cells, 1);
        for (o, t) in out.iter_mut().zip(self.set_of(cells, 2)) {
            *o |= t;
        }
        out
    }

    /// The masks as sets of `K` words, `K` being [`words`](Self::words).
    #[inline]
    pub fn masks<const K: usize>(&self) -> HexMasks<K> {
        HexMasks {
            valid: Bits::from_words(&self.valid),
            perimeter: Bits::from_words(&self.perimeter),
            not_first: Bits::from_words(&self.not_first),
            not_last: Bits::from_words(&self.not_last),
            w: self.width,
        }
    }

    /// Calls `f` on each cell of `set`, in ascending order of bits.
    #[inline]
    pub fn for_each_cell<const K: usize>(&self, set: Bits<K>, mut f: impl FnMut(usize)) {
        set.iter().for_each(|b| f(self.cell[b] as usize));
    }

    /// The cells of `set` into `out`, ascending.
    pub fn cells_into<const K: usize>(&self, set: Bits<K>, out: &mut Vec<u16>) {
        out.clear();
        self.for_each_cell(set, |c| out.push(c as u16));
        out.sort_unstable();
    }
}

/// The masks of a [`HexGrid`] as `K`-word sets, loaded once per fill so that they sit in
/// registers.
#[derive(Clone, Copy, Debug)]
pub struct HexMasks<const K: usize> {
    /// The bits of the board's cells.
    pub valid: Bits<K>,
    /// The bits of its perimeter cells.
    pub perimeter: Bits<K>,
    not_first: Bits<K>,
    not_last: Bits<K>,
    w: u32,
}

impl<const K: usize> HexMasks<K> {
    /// `x` and its neighbours.
    #[inline]
    pub fn grow(&self, x: Bits<K>) -> Bits<K> {
        let w = self.w;
        let left = x & self.not_first;
        let right = x & self.not_last;
        (x | right.shift_up(1)
            | left.shift_down(1)
            | x.shift_up(w)
            | x.shift_down(w)
            | left.shift_up(w - 1)
            | right.shift_down(w - 1))
            & self.valid
    }

    /// The cells of `through` that `seed` reaches through `through`.
    #[inline]
    pub fn fill(&self, seed: Bits<K>, through: Bits<K>) -> Bits<K> {
        let mut x = seed & through;
        loop {
            let y = self.grow(x) & through;
            if y == x {
                return x;
            }
            x = y;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn random_set<const K: usize>(grid: &HexGrid, n: usize, rng: &mut Rng, p: f64) -> Bits<K> {
        let mut b = Bits::EMPTY;
        for c in 0..n {
            if rng.unit() < p {
                b.insert(grid.bit(c));
            }
        }
        b
    }

    /// Growth and fills against neighbour lists, on a board of each side that picks `K` words.
    fn check<const K: usize>(size: usize, rng: &mut Rng) {
        let board = Board::hex_cells(size);
        let grid = HexGrid::new(&board);
        assert_eq!(grid.words(), K, "side {size}");
        let m = grid.masks::<K>();
        let n = board.num_sites();
        let of = |cells: &[usize]| -> Bits<K> { cells.iter().map(|&c| grid.bit(c)).collect() };
        assert_eq!(m.valid, of(&(0..n).collect::<Vec<_>>()));
        assert_eq!(
            m.perimeter,
            of(board
                .perimeter()
                .iter()
                .map(|&c| c as usize)
                .collect::<Vec<_>>()
                .as_slice())
        );
        for _ in 0..30 {
            let p = rng.unit();
            let x = random_set::<K>(&grid, n, rng, p * 0.3);
            let through = random_set::<K>(&grid, n, rng, 0.3 + 0.6 * p);
            let mut cells = Vec::new();
            grid.for_each_cell(x, |c| cells.push(c));
            let mut grown = cells.clone();
            for &c in &cells {
                grown.extend(board.orth(c).iter().map(|&t| t as usize));
            }
            assert_eq!(m.grow(x), of(&grown), "side {size}");
            // A scalar flood from the seeds inside `through`.
            let inside = |c: usize| through.contains(grid.bit(c));
            let mut seen: Vec<usize> = cells.iter().copied().filter(|&c| inside(c)).collect();
            let mut i = 0;
            while i < seen.len() {
                for &t in board.orth(seen[i]) {
                    let t = t as usize;
                    if inside(t) && !seen.contains(&t) {
                        seen.push(t);
                    }
                }
                i += 1;
            }
            assert_eq!(m.fill(x, through), of(&seen), "side {size}");
            let mut listed = Vec::new();
            grid.cells_into(x, &mut listed);
            cells.sort_unstable();
            assert_eq!(listed, cells.iter().map(|&c| c as u16).collect::<Vec<_>>());
        }
    }

    #[test]
    fn growth_and_fills_match_neighbour_lists() {
        let mut rng = Rng::new(5);
        check::<1>(3, &mut rng);
        check::<1>(4, &mut rng);
        check::<2>(5, &mut rng);
        check::<2>(6, &mut rng);
        check::<3>(7, &mut rng);
        check::<6>(10, &mut rng);
        check::<14>(15, &mut rng);
        check::<64>(30, &mut rng);
    }
}
