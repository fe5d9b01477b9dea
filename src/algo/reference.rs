//! Slow references written from the definitions, for the tests only: connected-component sizes
//! by a plain flood fill, and (from [`super::unionfind`]) the union-find.

use crate::board::{Board, Relation};

pub use super::unionfind::UnionFind;

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
