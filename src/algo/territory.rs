//! Territory of stone groups on hexagonal regions: *gap* and *hull* holdings.
//!
//! A group holds sites by its shape alone, whatever stands on them:
//!
//! * **gap**: every site lying strictly between two members of the group on one straight lattice
//!   line (one of the three hex axes), at any distance. Only the two extreme members of the group
//!   on each line matter, so the holdings are one run per line the group touches twice or more.
//! * **hull**: every site inside the smallest grid-oriented hexagon around the group, that is
//!   every site whose three cube coordinates each lie within the group's range of that
//!   coordinate. A group lying on one straight line (a single stone included) holds nothing: its
//!   hexagon is the group itself.
//!
//! A player's territory is the union of the holdings of each of their groups taken separately; two
//! groups never combine. Cube coordinates and the line axes are those of [`crate::board`]. On the
//! regular hexagon of side 3:
//!
//! ```text
//!       16  17  18           axis 0 lines run up-right, e.g. 0 4 9 14 18
//!     12  13  14  15         axis 1 lines run up-left,  e.g. 2 5 9 13 16
//!    7   8   9  10  11       axis 2 lines are the rows, e.g. 7 8 9 10 11
//!      3   4   5   6
//!        0   1   2
//! ```
//!
//! Sites along each line are numbered in ascending order, so "strictly between two members on a
//! line" is the line's mask restricted to the bit range between their site numbers.

use super::bits::{Bits, NeighborMasks};
use crate::board::{Board, Relation};

/// Which holdings a group has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TerritoryKind {
    Gap,
    Hull,
}

/// Precomputed masks for the holdings of groups on one hexagonal board.
#[derive(Clone, Debug)]
pub struct TerritoryMasks<const K: usize> {
    /// Orthogonal neighbour masks, which define the groups.
    pub orth: NeighborMasks<K>,
    /// `line[axis][s]`: every site of the line through `s` along which cube coordinate `axis` is
    /// fixed.
    line: [Vec<Bits<K>>; 3],
    /// Cube coordinates of each site.
    cube: Vec<[i16; 3]>,
    /// Smallest value of each cube coordinate on the board.
    lo: [i16; 3],
    /// `ge[axis][v − lo]`: the sites whose coordinate `axis` is at least v; `le` likewise, at most.
    ge: [Vec<Bits<K>>; 3],
    le: [Vec<Bits<K>>; 3],
}

impl<const K: usize> TerritoryMasks<K> {
    /// The masks of a hexagonal board; `None` when the board is not a hexagonal region or has more
    /// than `64·K` sites.
    pub fn new(board: &Board) -> Option<TerritoryMasks<K>> {
        let lines = board.lines()?;
        let orth = NeighborMasks::new(board, Relation::Orthogonal)?;
        let n = board.num_sites();
        let cube: Vec<[i16; 3]> = (0..n).map(|s| board.cube(s).map(|c| c as i16)).collect();
        let mut line: [Vec<Bits<K>>; 3] = Default::default();
        let mut lo = [0i16; 3];
        let mut ge: [Vec<Bits<K>>; 3] = Default::default();
        let mut le: [Vec<Bits<K>>; 3] = Default::default();
        for axis in 0..3 {
            line[axis] = (0..n)
                .map(|s| {
                    let (id, _) = lines.line_of(axis, s);
                    lines.line(axis, id).iter().map(|&t| t as usize).collect()
                })
                .collect();
            let min = cube.iter().map(|c| c[axis]).min().unwrap_or(0);
            let max = cube.iter().map(|c| c[axis]).max().unwrap_or(0);
            lo[axis] = min;
            ge[axis] = (min..=max)
                .map(|v| (0..n).filter(|&s| cube[s][axis] >= v).collect())
                .collect();
            le[axis] = (min..=max)
                .map(|v| (0..n).filter(|&s| cube[s][axis] <= v).collect())
                .collect();
        }
        Some(TerritoryMasks {
            orth,
            line,
            cube,
            lo,
            ge,
            le,
        })
    }

    /// Gap holdings of one group.
    #[inline]
    pub fn gap(&self, group: Bits<K>) -> Bits<K> {
        let mut out = Bits::EMPTY;
        for axis in 0..3 {
            let lines = &self.line[axis];
            let mut rest = group;
            while let Some(s) = rest.lowest() {
                let line = lines[s];
                rest &= !line;
                // `s` is the group's first member on this line: any earlier member on it would
                // have removed the whole line from `rest` already.
                if let Some(last) = (group & line).highest() {
                    if last > s + 1 {
                        out |= line & Bits::range(s + 1, last);
                    }
                }
            }
        }
        out
    }

    /// Gap holdings of `group` on the three lines through its member `x`. For any set g holding
    /// x, gap(g) = gap(g − x) ∪ gap_through(g, x): pairs without x are pairs of g − x, and the
    /// run between the extreme members on a line through x covers every pair with x and lies
    /// within gap(g). So when a stone extends a single group, this is all its territory gains.
    #[inline]
    pub fn gap_through(&self, group: Bits<K>, x: usize) -> Bits<K> {
        let mut out = Bits::EMPTY;
        for lines in &self.line {
            let line = lines[x];
            let on = group & line;
            if let (Some(first), Some(last)) = (on.lowest(), on.highest()) {
                if last > first + 1 {
                    out |= line & Bits::range(first + 1, last);
                }
            }
        }
        out
    }

    /// Hull holdings of one group.
    #[inline]
    pub fn hull(&self, group: Bits<K>) -> Bits<K> {
        // Fewer than three stones of a connected group always lie on one line.
        if group.count() < 3 {
            return Bits::EMPTY;
        }
        let mut min = [i16::MAX; 3];
        let mut max = [i16::MIN; 3];
        for s in group.iter() {
            let c = self.cube[s];
            for k in 0..3 {
                min[k] = min[k].min(c[k]);
                max[k] = max[k].max(c[k]);
            }
        }
        if (0..3).any(|k| min[k] == max[k]) {
            return Bits::EMPTY;
        }
        let mut out = self.orth.all;
        for k in 0..3 {
            out &= self.ge[k][(min[k] - self.lo[k]) as usize];
            out &= self.le[k][(max[k] - self.lo[k]) as usize];
        }
        out
    }

    /// The holdings of one group.
    #[inline]
    pub fn hold(&self, kind: TerritoryKind, group: Bits<K>) -> Bits<K> {
        match kind {
            TerritoryKind::Gap => self.gap(group),
            TerritoryKind::Hull => self.hull(group),
        }
    }

    /// The territory of a player whose stones are `stones`: the union of the holdings of each of
    /// its orthogonal groups.
    pub fn territory(&self, kind: TerritoryKind, stones: Bits<K>) -> Bits<K> {
        let mut out = Bits::EMPTY;
        let mut rest = stones;
        while let Some(s) = rest.lowest() {
            let (group, _) = self.orth.component(s, stones);
            rest &= !group;
            out |= self.hold(kind, group);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::reference::UnionFind;
    use crate::board::Shape;

    fn lcg(x: &mut u64) -> u64 {
        *x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *x >> 33
    }

    /// Gap by its definition: for every pair of members on one line (one cube coordinate equal),
    /// every site of that line strictly between them (the other coordinates strictly between).
    fn naive_gap(board: &Board, group: &[usize]) -> Vec<bool> {
        let n = board.num_sites();
        let mut out = vec![false; n];
        for &a in group {
            for &b in group {
                let (ca, cb) = (board.cube(a), board.cube(b));
                for axis in 0..3 {
                    if ca[axis] != cb[axis] || a == b {
                        continue;
                    }
                    let other = (axis + 1) % 3;
                    let (lo, hi) = (ca[other].min(cb[other]), ca[other].max(cb[other]));
                    for (s, o) in out.iter_mut().enumerate() {
                        let c = board.cube(s);
                        if c[axis] == ca[axis] && lo < c[other] && c[other] < hi {
                            *o = true;
                        }
                    }
                }
            }
        }
        out
    }

    /// Hull by its definition: a site is held when, on each of the three axes, some member has a
    /// coordinate at most the site's and some member one at least the site's (the six half-planes
    /// bounded by the lattice lines through the site each contain a member), unless the whole
    /// group lies on one line.
    fn naive_hull(board: &Board, group: &[usize]) -> Vec<bool> {
        let n = board.num_sites();
        let c0 = board.cube(group[0]);
        let straight = (0..3).any(|k| group.iter().all(|&g| board.cube(g)[k] == c0[k]));
        (0..n)
            .map(|s| {
                let c = board.cube(s);
                !straight
                    && (0..3).all(|k| {
                        group.iter().any(|&g| board.cube(g)[k] <= c[k])
                            && group.iter().any(|&g| board.cube(g)[k] >= c[k])
                    })
            })
            .collect()
    }

    /// A random connected group grown from a random site.
    fn random_group(board: &Board, x: &mut u64, size: usize) -> Vec<usize> {
        let n = board.num_sites();
        let mut group = vec![(lcg(x) as usize) % n];
        for _ in 1..size {
            let frontier: Vec<usize> = group
                .iter()
                .flat_map(|&s| board.orth(s).iter().map(|&t| t as usize))
                .filter(|t| !group.contains(t))
                .collect();
            if frontier.is_empty() {
                break;
            }
            group.push(frontier[(lcg(x) as usize) % frontier.len()]);
        }
        group
    }

    fn check_groups<const K: usize>(board: &Board, seed: u64, rounds: usize) {
        let masks = TerritoryMasks::<K>::new(board).expect("fits");
        let mut x = seed;
        for round in 0..rounds {
            let size = 1 + round % 12;
            let group = random_group(board, &mut x, size);
            let bits: Bits<K> = group.iter().copied().collect();
            let n = board.num_sites();
            assert_eq!(
                masks.gap(bits).to_bools(n),
                naive_gap(board, &group),
                "gap {group:?}"
            );
            assert_eq!(
                masks.hull(bits).to_bools(n),
                naive_hull(board, &group),
                "hull {group:?}"
            );
        }
    }

    /// gap(g) = gap(g − x) ∪ gap_through(g, x) for any set g and member x.
    fn check_gap_through<const K: usize>(board: &Board, seed: u64, rounds: usize) {
        let masks = TerritoryMasks::<K>::new(board).expect("fits");
        let n = board.num_sites();
        let mut x = seed;
        for round in 0..rounds {
            let g: Bits<K> = if round % 2 == 0 {
                random_group(board, &mut x, 1 + round % 10)
                    .into_iter()
                    .collect()
            } else {
                (0..n).filter(|_| lcg(&mut x) % 5 == 0).collect()
            };
            for m in g.iter() {
                let mut without = g;
                without.remove(m);
                assert_eq!(
                    masks.gap(without) | masks.gap_through(g, m),
                    masks.gap(g),
                    "{:?} {m}",
                    g.iter().collect::<Vec<_>>()
                );
            }
        }
    }

    #[test]
    fn gap_grows_by_the_lines_through_the_new_stone() {
        check_gap_through::<1>(&Board::hex_cells(4), 21, 300);
        check_gap_through::<2>(&Board::hex_cells(7), 22, 100);
        check_gap_through::<16>(&Board::hex_cells(10), 23, 20);
    }

    fn check_territory<const K: usize>(board: &Board, seed: u64, rounds: usize) {
        let masks = TerritoryMasks::<K>::new(board).expect("fits");
        let n = board.num_sites();
        let mut x = seed;
        for _ in 0..rounds {
            let density = 2 + lcg(&mut x) % 4;
            let stones: Vec<usize> = (0..n).filter(|_| lcg(&mut x) % density == 0).collect();
            let bits: Bits<K> = stones.iter().copied().collect();
            let mut uf = UnionFind::new(n);
            for &s in &stones {
                for &t in board.orth(s) {
                    if bits.contains(t as usize) {
                        uf.union(s, t as usize);
                    }
                }
            }
            let root: Vec<usize> = (0..n).map(|s| uf.find(s)).collect();
            for kind in [TerritoryKind::Gap, TerritoryKind::Hull] {
                let mut expect = vec![false; n];
                for &r in stones.iter().filter(|&&s| root[s] == s) {
                    let group: Vec<usize> =
                        stones.iter().copied().filter(|&s| root[s] == r).collect();
                    let held = match kind {
                        TerritoryKind::Gap => naive_gap(board, &group),
                        TerritoryKind::Hull => naive_hull(board, &group),
                    };
                    for (e, h) in expect.iter_mut().zip(held) {
                        *e |= h;
                    }
                }
                assert_eq!(masks.territory(kind, bits).to_bools(n), expect, "{kind:?}");
            }
        }
    }

    #[test]
    fn holdings_agree_with_the_definitions() {
        let hex = |a, b| Board::new(Shape::HexCells { a, b });
        check_groups::<1>(&hex(3, 3), 1, 300);
        check_groups::<1>(&hex(4, 4), 2, 600);
        check_groups::<1>(&hex(2, 3), 3, 200);
        check_groups::<1>(&hex(4, 5), 4, 300);
        check_groups::<2>(&hex(7, 7), 5, 300);
        check_groups::<4>(&hex(9, 9), 6, 100);
        check_groups::<16>(&hex(12, 12), 7, 60);
        check_groups::<1>(&Board::new(Shape::HexPoints { a: 3, b: 4 }), 8, 200);
    }

    #[test]
    fn territory_is_the_union_over_separate_groups() {
        let hex = |a, b| Board::new(Shape::HexCells { a, b });
        check_territory::<1>(&hex(4, 4), 11, 200);
        check_territory::<1>(&hex(3, 4), 12, 100);
        check_territory::<2>(&hex(6, 6), 13, 60);
        check_territory::<16>(&hex(10, 10), 14, 10);
    }

    #[test]
    fn the_module_picture_is_right() {
        let board = Board::hex_cells(3);
        let lines = board.lines().expect("hex board");
        let through = |axis: usize| lines.line(axis, lines.line_of(axis, 9).0).to_vec();
        assert_eq!(through(0), vec![0, 4, 9, 14, 18]);
        assert_eq!(through(1), vec![2, 5, 9, 13, 16]);
        assert_eq!(through(2), vec![7, 8, 9, 10, 11]);
    }

    #[test]
    fn boards_without_lines_or_too_large_are_refused() {
        assert!(TerritoryMasks::<1>::new(&Board::new(Shape::Square {
            width: 4,
            height: 4
        }))
        .is_none());
        assert!(TerritoryMasks::<1>::new(&Board::hex_cells(6)).is_none());
        assert!(TerritoryMasks::<2>::new(&Board::hex_cells(6)).is_some());
    }
}
