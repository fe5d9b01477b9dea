//! Largest groups: the size of the largest connected set of equal stones, for every colour at
//! once, in one sweep over the board.

use super::FloodScratch;
use crate::board::{Board, Relation};

/// For each value `v` in `1..=out.len()`, writes to `out[v - 1]` the size of the largest connected
/// component (under `relation`) of the sites where `cells[s] == v`, or 0 when there is none.
/// Other cell values are ignored. `scratch` is reused between calls to avoid allocation.
pub fn largest_components(
    board: &Board,
    relation: Relation,
    cells: &[i8],
    scratch: &mut FloodScratch,
    out: &mut [usize],
) {
    out.fill(0);
    scratch.reset(cells.len());
    // A plain depth-first search on the shared buffers; one fill can reach every site, so the
    // stack is sized once rather than grown mid-fill.
    let stack = &mut scratch.stack;
    let seen = &mut scratch.seen;
    stack.clear();
    stack.reserve(cells.len());
    for s in 0..cells.len() {
        let v = cells[s];
        if v <= 0 || v as usize > out.len() || seen[s] {
            continue;
        }
        seen[s] = true;
        stack.push(s as u16);
        let mut size = 0;
        while let Some(x) = stack.pop() {
            size += 1;
            for &t in board.neighbors(relation, x as usize) {
                let t = t as usize;
                if cells[t] == v && !seen[t] {
                    seen[t] = true;
                    stack.push(t as u16);
                }
            }
        }
        let best = &mut out[v as usize - 1];
        *best = (*best).max(size);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::reference::UnionFind;
    use crate::board::Shape;

    /// Reference: union every equal-valued neighbouring pair, then take the largest set per value.
    fn naive(board: &Board, relation: Relation, cells: &[i8], values: usize) -> Vec<usize> {
        let n = cells.len();
        let mut uf = UnionFind::new(n);
        for s in 0..n {
            for &t in board.neighbors(relation, s) {
                if cells[s] != 0 && cells[s] == cells[t as usize] {
                    uf.union(s, t as usize);
                }
            }
        }
        let mut best = vec![0; values];
        for (s, &v) in cells.iter().enumerate() {
            if v > 0 && v as usize <= values {
                let size = uf.set_size(s);
                best[v as usize - 1] = best[v as usize - 1].max(size);
            }
        }
        best
    }

    #[test]
    fn agrees_with_union_find_on_random_boards() {
        let shapes = [
            Shape::TriSquare { d: 3 },
            Shape::HexPoints { a: 4, b: 5 },
            Shape::HexCells { a: 4, b: 4 },
            Shape::Square {
                width: 6,
                height: 5,
            },
        ];
        let mut x = 99u64;
        let mut scratch = FloodScratch::default();
        for shape in shapes {
            let board = Board::new(shape);
            let n = board.num_sites();
            for round in 0..60 {
                // Vary the density so that both sparse and crowded boards occur.
                let colours = 2 + round % 3;
                let cells: Vec<i8> = (0..n)
                    .map(|_| {
                        x = x
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        ((x >> 33) % (colours as u64 + 1)) as i8
                    })
                    .collect();
                for rel in Relation::ALL {
                    for values in [1, 2, 3] {
                        let mut got = vec![7; values];
                        largest_components(&board, rel, &cells, &mut scratch, &mut got);
                        assert_eq!(got, naive(&board, rel, &cells, values), "{shape} {rel:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn empty_board_has_no_groups() {
        let board = Board::new(Shape::Square {
            width: 3,
            height: 3,
        });
        let mut out = [5, 5];
        largest_components(
            &board,
            Relation::All,
            &[0; 9],
            &mut FloodScratch::default(),
            &mut out,
        );
        assert_eq!(out, [0, 0]);
    }
}
