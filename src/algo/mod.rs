//! Shared algorithms on boards: connected components (flood fill), union-find, bit sets over
//! sites ([`bits`]) and bit-parallel fills on hex regions with them ([`hexgrid`]), territory of
//! gap and hull holdings ([`territory`]), largest groups ([`groups`]) and the loops of Subsume
//! ([`loops`]). Game files call these rather than writing
//! their own.

pub mod bits;
pub mod groups;
pub mod hexgrid;
pub mod loops;
pub mod territory;

use crate::board::{Board, Relation};

/// Disjoint-set forest with path halving and union by size.
#[derive(Clone, Debug, Default)]
pub struct UnionFind {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl UnionFind {
    /// `n` singletons.
    pub fn new(n: usize) -> UnionFind {
        UnionFind {
            parent: (0..n as u32).collect(),
            size: vec![1; n],
        }
    }

    /// Makes every element a singleton again.
    pub fn reset(&mut self) {
        for (i, p) in self.parent.iter_mut().enumerate() {
            *p = i as u32;
        }
        self.size.fill(1);
    }

    /// The representative of `x`'s set.
    #[inline]
    pub fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] as usize != x {
            let grand = self.parent[self.parent[x] as usize];
            self.parent[x] = grand;
            x = grand as usize;
        }
        x
    }

    /// Joins the sets of `a` and `b`; returns the new representative.
    #[inline]
    pub fn union(&mut self, a: usize, b: usize) -> usize {
        let (mut ra, mut rb) = (self.find(a), self.find(b));
        if ra == rb {
            return ra;
        }
        if self.size[ra] < self.size[rb] {
            std::mem::swap(&mut ra, &mut rb);
        }
        self.parent[rb] = ra as u32;
        self.size[ra] += self.size[rb];
        ra
    }

    /// Size of `x`'s set.
    #[inline]
    pub fn set_size(&mut self, x: usize) -> usize {
        let r = self.find(x);
        self.size[r] as usize
    }
}

/// Sizes of the connected components of the sites where `cells[s] == value`, under `relation`,
/// in no particular order. `scratch` is reused between calls to avoid allocation.
pub fn component_sizes(
    board: &Board,
    relation: Relation,
    cells: &[i8],
    value: i8,
    scratch: &mut FloodScratch,
) -> Vec<usize> {
    let mut sizes = Vec::new();
    scratch.reset(cells.len());
    for s in 0..cells.len() {
        if cells[s] == value && !scratch.seen[s] {
            sizes.push(scratch.fill(board, relation, s, |t| cells[t] == value));
        }
    }
    sizes
}

/// Reusable buffers for flood fills.
#[derive(Clone, Debug, Default)]
pub struct FloodScratch {
    /// Sites reached by fills since the last reset.
    pub seen: Vec<bool>,
    /// The sites of the most recent fill, in visiting order.
    pub last: Vec<u16>,
    stack: Vec<u16>,
}

impl FloodScratch {
    /// Clears `seen` for a board of `n` sites.
    pub fn reset(&mut self, n: usize) {
        self.seen.clear();
        self.seen.resize(n, false);
    }

    /// Fills from `start` through neighbours (under `relation`) satisfying `inside`, marking them
    /// seen and recording them in `last`; returns how many sites it reached. `start` is taken as
    /// inside.
    pub fn fill(
        &mut self,
        board: &Board,
        relation: Relation,
        start: usize,
        inside: impl Fn(usize) -> bool,
    ) -> usize {
        self.last.clear();
        self.stack.clear();
        self.seen[start] = true;
        self.stack.push(start as u16);
        while let Some(s) = self.stack.pop() {
            self.last.push(s);
            for &t in board.neighbors(relation, s as usize) {
                let t = t as usize;
                if !self.seen[t] && inside(t) {
                    self.seen[t] = true;
                    self.stack.push(t as u16);
                }
            }
        }
        self.last.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;

    #[test]
    fn components_agree_with_union_find() {
        let board = Board::new(Shape::TriSquare { d: 3 });
        let n = board.num_sites();
        let mut x = 12345u64;
        let mut scratch = FloodScratch::default();
        for _ in 0..50 {
            let cells: Vec<i8> = (0..n)
                .map(|_| {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((x >> 33) % 3) as i8
                })
                .collect();
            for rel in [Relation::Orthogonal, Relation::All] {
                let mut uf = UnionFind::new(n);
                for s in 0..n {
                    for &t in board.neighbors(rel, s) {
                        if cells[s] == 1 && cells[t as usize] == 1 {
                            uf.union(s, t as usize);
                        }
                    }
                }
                let mut expect = Vec::new();
                for (s, &c) in cells.iter().enumerate() {
                    if c == 1 && uf.find(s) == s {
                        expect.push(uf.set_size(s));
                    }
                }
                let mut got = component_sizes(&board, rel, &cells, 1, &mut scratch);
                expect.sort_unstable();
                got.sort_unstable();
                assert_eq!(got, expect);
            }
        }
    }
}
