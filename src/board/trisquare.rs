//! Triangle-square points: the vertices of the snub square (3.3.4.3.4) tiling, a diamond of
//! `d × d` tiles. Every interior vertex meets three triangles and two squares.
//!
//! With unit edges, s = √3/2 and h = (1 + √3)/2, tile (r, c) has its origin at
//! (h·(c − r), h·(r + c)) and contributes these 14 points (merged with its neighbours' shared
//! points):
//!
//! ```text
//!                 (−½, ½+s)   (½, ½+s)
//!      (−½−s, s)         (0, ½)         (½+s, s)
//!   (−1−s, 0)   (−s, 0)          (s, 0)    (1+s, 0)
//!      (−½−s, −s)        (0, −½)        (½+s, −s)
//!                 (−½, −½−s)  (½, −½−s)
//! ```
//!
//! Orthogonal neighbours are the tiling's edges (distance 1, five around an interior point);
//! diagonal neighbours are the opposite corners of a square face (distance √2, two inside).

use super::{numbering_order, Board, Shape};

pub(super) fn build(d: usize) -> Board {
    let s = 3f64.sqrt() / 2.0;
    let h = (1.0 + 3f64.sqrt()) / 2.0;
    let offsets: [[f64; 2]; 14] = [
        [-0.5, -0.5 - s],
        [0.5, -0.5 - s],
        [-0.5 - s, -s],
        [0.5 + s, -s],
        [0.0, -0.5],
        [-1.0 - s, 0.0],
        [-s, 0.0],
        [s, 0.0],
        [1.0 + s, 0.0],
        [0.0, 0.5],
        [-0.5 - s, s],
        [0.5 + s, s],
        [-0.5, 0.5 + s],
        [0.5, 0.5 + s],
    ];
    let mut points: Vec<[f64; 2]> = Vec::new();
    for r in 0..d {
        for c in 0..d {
            let ox = h * (c as f64 - r as f64);
            let oy = h * (r as f64 + c as f64);
            for o in &offsets {
                let p = [ox + o[0], oy + o[1]];
                let dup = points
                    .iter()
                    .any(|q| (q[0] - p[0]).hypot(q[1] - p[1]) < 0.1);
                if !dup {
                    points.push(p);
                }
            }
        }
    }
    let order = numbering_order(&points);
    let coords: Vec<[f64; 2]> = order.iter().map(|&i| points[i]).collect();
    let n = coords.len();
    let mut orth = vec![Vec::new(); n];
    let mut diag = vec![Vec::new(); n];
    let sqrt2 = 2f64.sqrt();
    for i in 0..n {
        for j in (i + 1)..n {
            let dist = (coords[i][0] - coords[j][0]).hypot(coords[i][1] - coords[j][1]);
            if (dist - 1.0).abs() < 1e-6 {
                orth[i].push(j);
                orth[j].push(i);
            } else if (dist - sqrt2).abs() < 1e-6 {
                diag[i].push(j);
                diag[j].push(i);
            }
        }
    }
    Board::assemble(
        Shape::TriSquare { d },
        coords,
        Vec::new(),
        orth,
        diag,
        5,
        None,
        None,
    )
}

/// Names of triangle-square points. The snub square tiling is a square grid in disguise: every
/// tile's 2 × 2 block of grid points sits on the tile's origin, turned by 45°, and cutting
/// some of the grid's squares into two triangles gives the tiling's edges. Measured in tile
/// halves h along the two diagonals, (x + y) / h and (y − x) / h of a point lie within 0.37 of
/// a half-integer, so their floors are the point's file and rank: a diamond of 2d + 2 by
/// 2d + 2 grid points less its bottom corner (a1) and its top corner.
///
/// ```text
///                  c4    d3             order d = 1 (14 points); file a climbs the lower
///           b4                   d2     left edge, rank 1 the lower right edge
///                      c3
///      a4       b3           c2       d1
///                      b2
///           a3                   c1
///                  a2    b1
/// ```
pub(super) fn grid(coords: &[[f64; 2]]) -> Vec<[i32; 2]> {
    let h = (1.0 + 3f64.sqrt()) / 2.0;
    coords
        .iter()
        .map(|c| {
            [
                ((c[0] + c[1]) / h).floor() as i32,
                ((c[1] - c[0]) / h).floor() as i32,
            ]
        })
        .collect()
}

/// The steps to the next file (up to the right) and to the next rank (up to the left), in
/// board coordinates: half a tile along each diagonal.
pub(super) fn name_steps() -> [[f64; 2]; 2] {
    let h = (1.0 + 3f64.sqrt()) / 2.0;
    [[h / 2.0, h / 2.0], [-h / 2.0, h / 2.0]]
}
