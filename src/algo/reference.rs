//! Slow references written from the definitions, for the tests only: a union-find and
//! connected-component sizes by a plain flood fill.

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
/// in no particular order.
pub fn component_sizes(board: &Board, relation: Relation, cells: &[i8], value: i8) -> Vec<usize> {
    let mut sizes = Vec::new();
    let mut seen = vec![false; cells.len()];
    for s in 0..cells.len() {
        if cells[s] != value || seen[s] {
            continue;
        }
        seen[s] = true;
        let mut stack = vec![s];
        let mut size = 0;
        while let Some(x) = stack.pop() {
            size += 1;
            for &t in board.neighbors(relation, x) {
                let t = t as usize;
                if cells[t] == value && !seen[t] {
                    seen[t] = true;
                    stack.push(t);
                }
            }
        }
        sizes.push(size);
    }
    sizes
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
                let mut got = component_sizes(&board, rel, &cells, 1);
                expect.sort_unstable();
                got.sort_unstable();
                assert_eq!(got, expect);
            }
        }
    }
}
