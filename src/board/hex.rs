//! Hexagonal regions of the triangular lattice, as hex cells or as lattice points.
//!
//! A region is given by its row lengths from the bottom up. While rows grow, each row starts half a
//! spacing further left than the row below; while they shrink, half a spacing further right. The
//! alternating hexagon (2, 3), rows 3, 4, 3, 2, numbered as the engine numbers it:
//!
//! ```text
//!          10  11              row 3   z = 3
//!         7   8   9            row 2   z = 2
//!       3   4   5   6          row 1   z = 1
//!         0   1   2            row 0   z = 0
//! ```
//!
//! Within a row a site has a "doubled" column `dx` (neighbours in a row differ by 2, a site and its
//! up-left/up-right neighbours by 1). Axial coordinates are `q = (dx − z) / 2` and `z` = row; cube
//! coordinates are `(x, y, z) = (q, −q − z, z)`. A straight lattice line keeps one cube coordinate
//! fixed: axis 2 is the rows, axes 0 and 1 the two slanted line families.

use super::{numbering_order, Board, Lines, Shape};

/// Row structure of an alternating hexagon with sides `a, b, a, b, a, b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HexRegion {
    pub a: usize,
    pub b: usize,
}

impl HexRegion {
    pub fn new(a: usize, b: usize) -> HexRegion {
        HexRegion { a, b }
    }

    /// Row lengths from the bottom: b, b+1, …, a+b−1 (a rows), then down to a (b−1 more rows).
    pub fn row_lengths(&self) -> Vec<usize> {
        let (a, b) = (self.a, self.b);
        let mut rows: Vec<usize> = (0..a).map(|i| b + i).collect();
        rows.extend((1..b).map(|i| a + b - 1 - i));
        rows
    }
}

/// Dense map from cube (x, z) to site id over the bounding box of a region.
#[derive(Clone, Debug)]
pub(crate) struct CubeLookup {
    x0: i32,
    z0: i32,
    width: i32,
    height: i32,
    sites: Vec<i32>,
}

impl CubeLookup {
    #[inline]
    pub(crate) fn get(&self, x: i32, z: i32) -> Option<usize> {
        let (i, j) = (x - self.x0, z - self.z0);
        if i < 0 || j < 0 || i >= self.width || j >= self.height {
            return None;
        }
        let s = self.sites[(j * self.width + i) as usize];
        (s >= 0).then_some(s as usize)
    }
}

/// The six orthogonal cube steps.
pub const ORTH_STEPS: [[i32; 3]; 6] = [
    [1, -1, 0],
    [-1, 1, 0],
    [1, 0, -1],
    [-1, 0, 1],
    [0, 1, -1],
    [0, -1, 1],
];

/// The six diagonal cube steps of hex cells (through a cell corner, distance 3).
pub const DIAG_STEPS: [[i32; 3]; 6] = [
    [2, -1, -1],
    [-1, 2, -1],
    [-1, -1, 2],
    [-2, 1, 1],
    [1, -2, 1],
    [1, 1, -2],
];

pub(super) fn build(a: usize, b: usize, cells: bool) -> Board {
    let region = HexRegion::new(a, b);
    let rows = region.row_lengths();
    // Doubled column of each row's first site.
    let mut off = 0i32;
    let mut raw: Vec<([i32; 3], i32)> = Vec::new(); // (cube, dx)
    for (z, &len) in rows.iter().enumerate() {
        if z > 0 {
            off += if len > rows[z - 1] { -1 } else { 1 };
        }
        let z = z as i32;
        for i in 0..len as i32 {
            let dx = off + 2 * i;
            let q = (dx - z) / 2;
            raw.push(([q, -q - z, z], dx));
        }
    }
    let min_dx = raw.iter().map(|r| r.1).min().unwrap_or(0);
    let (sx, sy) = if cells {
        (3f64.sqrt() / 2.0, 1.5)
    } else {
        (0.5, 3f64.sqrt() / 2.0)
    };
    let coords_raw: Vec<[f64; 2]> = raw
        .iter()
        .map(|&(c, dx)| [f64::from(dx - min_dx) * sx, f64::from(c[2]) * sy])
        .collect();
    // Rows are generated bottom-up and left to right, which is already the numbering order; sort
    // anyway so that the one numbering rule is applied everywhere.
    let order = numbering_order(&coords_raw);
    let coords: Vec<[f64; 2]> = order.iter().map(|&i| coords_raw[i]).collect();
    let cube: Vec<[i32; 3]> = order.iter().map(|&i| raw[i].0).collect();
    let n = cube.len();

    let x0 = cube.iter().map(|c| c[0]).min().unwrap_or(0);
    let x1 = cube.iter().map(|c| c[0]).max().unwrap_or(0);
    let z0 = cube.iter().map(|c| c[2]).min().unwrap_or(0);
    let z1 = cube.iter().map(|c| c[2]).max().unwrap_or(0);
    let (width, height) = (x1 - x0 + 1, z1 - z0 + 1);
    let mut sites = vec![-1i32; (width * height) as usize];
    for (s, c) in cube.iter().enumerate() {
        sites[((c[2] - z0) * width + (c[0] - x0)) as usize] = s as i32;
    }
    let lookup = CubeLookup {
        x0,
        z0,
        width,
        height,
        sites,
    };
    let at = |c: [i32; 3]| lookup.get(c[0], c[2]);
    let step = |s: usize, d: [i32; 3]| {
        let c = cube[s];
        at([c[0] + d[0], c[1] + d[1], c[2] + d[2]])
    };
    let orth: Vec<Vec<usize>> = (0..n)
        .map(|s| ORTH_STEPS.iter().filter_map(|&d| step(s, d)).collect())
        .collect();
    let diag: Vec<Vec<usize>> = if cells {
        (0..n)
            .map(|s| DIAG_STEPS.iter().filter_map(|&d| step(s, d)).collect())
            .collect()
    } else {
        vec![Vec::new(); n]
    };

    // Lines: group sites by the fixed cube coordinate; ascending site order is line order.
    let mut lines: [Vec<Vec<u16>>; 3] = Default::default();
    let mut line_of: [Vec<(u16, u16)>; 3] = Default::default();
    for axis in 0..3 {
        let lo = cube.iter().map(|c| c[axis]).min().unwrap_or(0);
        let hi = cube.iter().map(|c| c[axis]).max().unwrap_or(0);
        let mut by_value: Vec<Vec<u16>> = vec![Vec::new(); (hi - lo + 1).max(0) as usize];
        for (s, c) in cube.iter().enumerate() {
            by_value[(c[axis] - lo) as usize].push(s as u16);
        }
        line_of[axis] = vec![(0, 0); n];
        for (id, line) in by_value.into_iter().filter(|l| !l.is_empty()).enumerate() {
            for (pos, &s) in line.iter().enumerate() {
                line_of[axis][s as usize] = (id as u16, pos as u16);
            }
            lines[axis].push(line);
        }
    }
    let shape = if cells {
        Shape::HexCells { a, b }
    } else {
        Shape::HexPoints { a, b }
    };
    Board::assemble(
        shape,
        coords,
        cube,
        orth,
        diag,
        6,
        Some(Lines { lines, line_of }),
        Some(lookup),
    )
}

/// Names of a hexagonal region's sites, as `[file, rank]` before shifting to start at 0: the
/// rank is the row (cube z); the file is the line that slants up to the left, on which cube y is
/// fixed, counted from the left (−y grows to the right).
///
/// ```text
///          c4  d4              the (2, 3) hexagon above, named: file c is c1 c2 c3 c4
///        b3  c3  d3            (up to the left from c1), file a is a1 a2
///      a2  b2  c2  d2
///        a1  b1  c1
/// ```
pub(super) fn grid(cube: &[[i32; 3]]) -> Vec<[i32; 2]> {
    cube.iter().map(|c| [-c[1], c[2]]).collect()
}

/// The steps in board coordinates to the next file (along a row) and to the next rank (up to
/// the left along a file), for cells (centres √3 apart) or points (1 apart).
pub(super) fn name_steps(kind: super::BoardKind) -> [[f64; 2]; 2] {
    let root3 = 3f64.sqrt();
    if kind == super::BoardKind::HexCells {
        [[root3, 0.0], [-root3 / 2.0, 1.5]]
    } else {
        [[1.0, 0.0], [-0.5, root3 / 2.0]]
    }
}
