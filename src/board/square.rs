//! Square-grid points, `width × height`, spacing 1. Site `y · width + x` is at `(x, y)`:
//!
//! ```text
//!   y=2   8 · 9 ·10 ·11         orthogonal: the 4 points at distance 1
//!         |   |   |   |          diagonal:   the 4 points at distance √2
//!   y=1   4 · 5 · 6 · 7
//!         |   |   |   |
//!   y=0   0 · 1 · 2 · 3
//! ```

use super::{Board, Shape};

pub(super) fn build(width: usize, height: usize) -> Board {
    let n = width * height;
    let coords: Vec<[f64; 2]> = (0..n)
        .map(|s| [(s % width) as f64, (s / width) as f64])
        .collect();
    let at = |x: isize, y: isize| {
        (x >= 0 && y >= 0 && (x as usize) < width && (y as usize) < height)
            .then(|| y as usize * width + x as usize)
    };
    let around = |steps: &[(isize, isize)]| -> Vec<Vec<usize>> {
        (0..n)
            .map(|s| {
                let (x, y) = ((s % width) as isize, (s / width) as isize);
                steps
                    .iter()
                    .filter_map(|&(dx, dy)| at(x + dx, y + dy))
                    .collect()
            })
            .collect()
    };
    let orth = around(&[(1, 0), (-1, 0), (0, 1), (0, -1)]);
    let diag = around(&[(1, 1), (-1, 1), (1, -1), (-1, -1)]);
    Board::assemble(
        Shape::Square { width, height },
        coords,
        Vec::new(),
        orth,
        diag,
        4,
        None,
        None,
    )
}

/// Names of square points, as on a chessboard: the file is x (a on the left), the rank y
/// (1 at the bottom).
///
/// ```text
///   3   a3 b3 c3 d3
///   2   a2 b2 c2 d2
///   1   a1 b1 c1 d1
///        a  b  c  d
/// ```
pub(super) fn grid(coords: &[[f64; 2]]) -> Vec<[i32; 2]> {
    coords
        .iter()
        .map(|c| [c[0].round() as i32, c[1].round() as i32])
        .collect()
}

/// The steps to the next file and to the next rank, in board coordinates.
pub(super) const NAME_STEPS: [[f64; 2]; 2] = [[1.0, 0.0], [0.0, 1.0]];
