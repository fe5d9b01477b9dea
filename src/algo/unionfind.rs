//! A union-find over board sites, and groups of like stones grown by it as stones are placed:
//! what a game that never removes stones needs to know its largest groups without a flood fill
//! per position (Faraday's measured games). The tests also use it as the reference that the
//! flood fills are held to.

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

/// Adds the stone just placed on `site` to the groups of `uf`: joins it with every neighbour
/// under `relation` holding the same value in `cells`; returns the size of its group.
pub fn join_stone(
    uf: &mut UnionFind,
    board: &Board,
    relation: Relation,
    cells: &[i8],
    site: usize,
) -> usize {
    let value = cells[site];
    for &t in board.neighbors(relation, site) {
        if cells[t as usize] == value {
            uf.union(site, t as usize);
        }
    }
    uf.set_size(site)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::groups::largest_components;
    use crate::algo::FloodScratch;
    use crate::board::Shape;
    use crate::rng::Rng;

    /// Stones placed one by one in random order: the largest group grown by `join_stone`
    /// equals the flood fill's after every placement.
    #[test]
    fn grown_groups_match_the_flood_fill() {
        let board = Board::new(Shape::HexCells { a: 4, b: 4 });
        let n = board.num_sites();
        let mut rng = Rng::new(8);
        let mut scratch = FloodScratch::default();
        for relation in [Relation::Orthogonal, Relation::All] {
            for _ in 0..20 {
                let mut cells = vec![0i8; n];
                let mut uf = UnionFind::new(n);
                let mut largest = [0usize; 2];
                let mut order: Vec<usize> = (0..n).collect();
                for i in (1..n).rev() {
                    order.swap(i, rng.below(i + 1));
                }
                for &site in &order {
                    let colour = rng.below(2);
                    cells[site] = colour as i8 + 1;
                    let size = join_stone(&mut uf, &board, relation, &cells, site);
                    largest[colour] = largest[colour].max(size);
                    let mut want = [0usize; 2];
                    largest_components(&board, relation, &cells, &mut scratch, &mut want);
                    assert_eq!(largest, want);
                }
            }
        }
    }
}
