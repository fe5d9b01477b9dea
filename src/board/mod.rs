//! Board geometry: every board the four games are played on.
//!
//! A [`Board`] is a finite set of sites with 2-D coordinates and two neighbour relations,
//! *orthogonal* and *diagonal* (their union is *all*). Everything a rule needs at play time is
//! precomputed here once per board: neighbour lists, the three lattice line families of hexagonal
//! regions, cube coordinates and the perimeter. Rules never do geometry.
//!
//! Sites are numbered `0..N` by increasing y, then increasing x of the coordinates (rows from the
//! bottom, left to right), the numbering Ludii uses, so records can be exchanged site for site.
//!
//! Four kinds of board exist:
//!
//! * hex **cells** of a hexagonal region (pointy-top cells, circumradius 1),
//! * lattice **points** of a hexagonal region (unit spacing; same graph, other coordinates and no
//!   diagonal relation),
//! * **square** points, an `w × h` array,
//! * **triangle-square** points (the 3.3.4.3.4 snub square tiling), a diamond of order `d`.

mod hex;
mod names;
mod square;
mod trisquare;

pub use hex::HexRegion;
pub use names::file_letters;

use std::fmt;

/// Which neighbour relation a rule uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    /// Sites adjacent in the tiling (edge-sharing cells, lattice edges).
    Orthogonal,
    /// Hex cells two steps away through a corner, the opposite corner of a square face.
    Diagonal,
    /// The union of the two.
    All,
}

impl Relation {
    /// Every relation, in the order used by [`Board::neighbors`] tables.
    pub const ALL: [Relation; 3] = [Relation::Orthogonal, Relation::Diagonal, Relation::All];

    /// The name used in options and in the Python API.
    pub fn name(self) -> &'static str {
        match self {
            Relation::Orthogonal => "orthogonal",
            Relation::Diagonal => "diagonal",
            Relation::All => "all",
        }
    }

    /// Parses a relation name (`"orthogonal"`, `"diagonal"` or `"all"`).
    pub fn parse(name: &str) -> Option<Relation> {
        Relation::ALL.into_iter().find(|r| r.name() == name)
    }
}

/// What a board's sites are, which decides how it is drawn: hex cells (hexagons that touch), or
/// the points of one lattice (joined by their edges).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardKind {
    HexCells,
    LatticePoints,
    SquarePoints,
    TriSquarePoints,
}

impl BoardKind {
    /// Every kind.
    pub const ALL: [BoardKind; 4] = [
        BoardKind::HexCells,
        BoardKind::LatticePoints,
        BoardKind::SquarePoints,
        BoardKind::TriSquarePoints,
    ];

    /// The kind's name, as Python's `Game.board_kind` gives it.
    pub const fn name(self) -> &'static str {
        match self {
            BoardKind::HexCells => "hex cells",
            BoardKind::LatticePoints => "lattice points",
            BoardKind::SquarePoints => "square points",
            BoardKind::TriSquarePoints => "triangle-square points",
        }
    }
}

/// The shape and size of a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// Hex cells of a hexagonal region with sides alternating `a, b` (regular when `a == b`).
    HexCells { a: usize, b: usize },
    /// Lattice points of a hexagonal region with sides alternating `a, b`.
    HexPoints { a: usize, b: usize },
    /// A `width × height` array of square-grid points.
    Square { width: usize, height: usize },
    /// Triangle-square (snub square) points, a diamond of `d × d` tiles.
    TriSquare { d: usize },
}

impl Shape {
    /// What the board's sites are.
    pub fn kind(self) -> BoardKind {
        match self {
            Shape::HexCells { .. } => BoardKind::HexCells,
            Shape::HexPoints { .. } => BoardKind::LatticePoints,
            Shape::Square { .. } => BoardKind::SquarePoints,
            Shape::TriSquare { .. } => BoardKind::TriSquarePoints,
        }
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Shape::HexCells { a, b } if a == b => write!(f, "hex cells, regular hexagon side {a}"),
            Shape::HexCells { a, b } => write!(f, "hex cells, alternating hexagon ({a}, {b})"),
            Shape::HexPoints { a, b } if a == b => {
                write!(f, "lattice points, regular hexagon side {a}")
            }
            Shape::HexPoints { a, b } => {
                write!(f, "lattice points, alternating hexagon ({a}, {b})")
            }
            Shape::Square { width, height } => write!(f, "square points {width}x{height}"),
            Shape::TriSquare { d } => write!(f, "triangle-square points, order d = {d}"),
        }
    }
}

/// Neighbour lists in compressed form: the neighbours of site `s` are
/// `idx[off[s]..off[s + 1]]`, in ascending site order.
#[derive(Clone, Debug, Default)]
struct Adjacency {
    off: Vec<u32>,
    idx: Vec<u16>,
}

impl Adjacency {
    fn from_lists(lists: &[Vec<usize>]) -> Adjacency {
        let mut off = Vec::with_capacity(lists.len() + 1);
        let mut idx = Vec::new();
        off.push(0);
        for l in lists {
            let mut l = l.clone();
            l.sort_unstable();
            l.dedup();
            idx.extend(l.iter().map(|&s| s as u16));
            off.push(idx.len() as u32);
        }
        Adjacency { off, idx }
    }

    #[inline]
    fn get(&self, s: usize) -> &[u16] {
        &self.idx[self.off[s] as usize..self.off[s + 1] as usize]
    }
}

/// The three line families of a hexagonal region. A line is a maximal straight row of sites; its
/// sites are stored in ascending site order, which is also their order along the line.
#[derive(Clone, Debug, Default)]
pub struct Lines {
    /// `lines[axis][id]`: the sites of one line.
    lines: [Vec<Vec<u16>>; 3],
    /// `line_of[axis][site]`: (line id, position along the line).
    line_of: [Vec<(u16, u16)>; 3],
}

/// A board: sites, coordinates and precomputed neighbour tables.
#[derive(Clone, Debug)]
pub struct Board {
    shape: Shape,
    coords: Vec<[f64; 2]>,
    /// Cube coordinates (x, y, z), x + y + z = 0, for hexagonal regions; empty otherwise.
    cube: Vec<[i32; 3]>,
    adjacency: [Adjacency; 3],
    perimeter: Vec<bool>,
    perimeter_sites: Vec<u16>,
    lines: Option<Lines>,
    /// Dense lookup from cube (x, z) to site, for hexagonal regions.
    cube_lookup: Option<hex::CubeLookup>,
    /// Every site's name (file and rank), see [`Board::site_name`].
    names: names::SiteNames,
    /// Board coordinates of the step to the next file and to the next rank.
    name_steps: [[f64; 2]; 2],
}

/// Largest board the engine accepts (site ids are stored as `u16`).
pub const MAX_SITES: usize = 16_384;

impl Board {
    /// Builds a board of the given shape. Sizes must be at least 1 (2 for hexagonal regions);
    /// callers that take sizes from users check ranges first and report the allowed values.
    pub fn new(shape: Shape) -> Board {
        let mut board = match shape {
            Shape::HexCells { a, b } => hex::build(a, b, true),
            Shape::HexPoints { a, b } => hex::build(a, b, false),
            Shape::Square { width, height } => square::build(width, height),
            Shape::TriSquare { d } => trisquare::build(d),
        };
        // Each kind names its sites by its own function, from the coordinates just built.
        let (grid, steps) = match shape {
            Shape::HexCells { .. } | Shape::HexPoints { .. } => {
                (hex::grid(&board.cube), hex::name_steps(shape.kind()))
            }
            Shape::Square { .. } => (square::grid(&board.coords), square::NAME_STEPS),
            Shape::TriSquare { .. } => (trisquare::grid(&board.coords), trisquare::name_steps()),
        };
        board.names = names::SiteNames::new(&grid);
        board.name_steps = steps;
        board
    }

    /// Regular hexagon of hex cells with side `n`.
    pub fn hex_cells(n: usize) -> Board {
        Board::new(Shape::HexCells { a: n, b: n })
    }

    /// The number of sites a board of this shape has, without building it.
    pub fn count_sites(shape: Shape) -> usize {
        match shape {
            Shape::HexCells { a, b } | Shape::HexPoints { a, b } => {
                HexRegion::new(a, b).row_lengths().iter().sum()
            }
            Shape::Square { width, height } => width * height,
            Shape::TriSquare { d } => 4 * d * d + 8 * d + 2,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn assemble(
        shape: Shape,
        coords: Vec<[f64; 2]>,
        cube: Vec<[i32; 3]>,
        orth: Vec<Vec<usize>>,
        diag: Vec<Vec<usize>>,
        full_degree: usize,
        lines: Option<Lines>,
        cube_lookup: Option<hex::CubeLookup>,
    ) -> Board {
        let n = coords.len();
        assert!(n <= MAX_SITES, "board too large");
        let all: Vec<Vec<usize>> = (0..n)
            .map(|s| orth[s].iter().chain(diag[s].iter()).copied().collect())
            .collect();
        let perimeter: Vec<bool> = orth.iter().map(|l| l.len() < full_degree).collect();
        let perimeter_sites = (0..n).filter(|&s| perimeter[s]).map(|s| s as u16).collect();
        Board {
            shape,
            coords,
            cube,
            adjacency: [
                Adjacency::from_lists(&orth),
                Adjacency::from_lists(&diag),
                Adjacency::from_lists(&all),
            ],
            perimeter,
            perimeter_sites,
            lines,
            cube_lookup,
            names: names::SiteNames::default(),
            name_steps: [[0.0; 2]; 2],
        }
    }

    /// The shape and size of the board.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Number of sites N.
    #[inline]
    pub fn num_sites(&self) -> usize {
        self.coords.len()
    }

    /// The (x, y) coordinates of every site.
    pub fn coords(&self) -> &[[f64; 2]] {
        &self.coords
    }

    /// The neighbours of `site` under `relation`, in ascending order.
    #[inline]
    pub fn neighbors(&self, relation: Relation, site: usize) -> &[u16] {
        self.adjacency[relation as usize].get(site)
    }

    /// Orthogonal neighbours of `site`.
    #[inline]
    pub fn orth(&self, site: usize) -> &[u16] {
        self.adjacency[0].get(site)
    }

    /// Diagonal neighbours of `site`.
    #[inline]
    pub fn diag(&self, site: usize) -> &[u16] {
        self.adjacency[1].get(site)
    }

    /// All neighbours of `site` (orthogonal then diagonal, each ascending).
    #[inline]
    pub fn all(&self, site: usize) -> &[u16] {
        self.adjacency[2].get(site)
    }

    /// The board's symmetries: every isometry of the sites' coordinates (a rotation by a multiple
    /// of 30° about their centroid, with or without a reflection) that maps sites onto sites and
    /// keeps the orthogonal and the diagonal neighbour relations and the perimeter. Each is a
    /// permutation (site `s` goes to `perm[s]`); the identity comes first.
    pub fn symmetries(&self) -> Vec<Vec<u16>> {
        let n = self.num_sites();
        let (cx, cy) = self
            .coords
            .iter()
            .fold((0.0, 0.0), |(x, y), c| (x + c[0], y + c[1]));
        let centred: Vec<[f64; 2]> = self
            .coords
            .iter()
            .map(|c| [c[0] - cx / n as f64, c[1] - cy / n as f64])
            .collect();
        // Matching tolerance: a small fraction of the closest distance between two sites.
        let mut closest = f64::INFINITY;
        for (i, a) in centred.iter().enumerate() {
            for b in &centred[i + 1..] {
                closest = closest.min((a[0] - b[0]).hypot(a[1] - b[1]));
            }
        }
        let tol = if closest.is_finite() {
            1e-4 * closest
        } else {
            1.0
        };
        let keeps = |perm: &[u16]| {
            (0..n).all(|s| {
                let t = usize::from(perm[s]);
                self.perimeter[s] == self.perimeter[t]
                    && [0usize, 1].iter().all(|&r| {
                        let mut mapped: Vec<u16> = self.adjacency[r]
                            .get(s)
                            .iter()
                            .map(|&x| perm[usize::from(x)])
                            .collect();
                        mapped.sort_unstable();
                        mapped == self.adjacency[r].get(t)
                    })
            })
        };
        let mut found: Vec<Vec<u16>> = Vec::new();
        for reflect in [false, true] {
            for k in 0..12 {
                let (sin, cos) = (f64::from(k) * std::f64::consts::PI / 6.0).sin_cos();
                let mut perm = Vec::with_capacity(n);
                for c in &centred {
                    let y = if reflect { -c[1] } else { c[1] };
                    let (x, y) = (cos * c[0] - sin * y, sin * c[0] + cos * y);
                    match centred
                        .iter()
                        .position(|d| (d[0] - x).abs() <= tol && (d[1] - y).abs() <= tol)
                    {
                        Some(t) => perm.push(t as u16),
                        None => break,
                    }
                }
                if perm.len() == n && keeps(&perm) && !found.contains(&perm) {
                    found.push(perm);
                }
            }
        }
        found
    }

    /// The largest number of neighbours any site has under `relation`.
    pub fn max_degree(&self, relation: Relation) -> usize {
        (0..self.num_sites())
            .map(|s| self.neighbors(relation, s).len())
            .max()
            .unwrap_or(0)
    }

    /// Whether `site` is on the perimeter: it has fewer orthogonal neighbours than an interior
    /// site of the tiling (6 on hexagonal regions, 4 on square, 5 on triangle-square boards).
    #[inline]
    pub fn is_perimeter(&self, site: usize) -> bool {
        self.perimeter[site]
    }

    /// The perimeter sites, ascending.
    pub fn perimeter(&self) -> &[u16] {
        &self.perimeter_sites
    }

    /// Whether the board is a hexagonal region (cells or points), with cube coordinates and lines.
    pub fn is_hex_region(&self) -> bool {
        self.lines.is_some()
    }

    /// Cube coordinates `[x, y, z]` (x + y + z = 0) of a site of a hexagonal region.
    ///
    /// Panics on other boards.
    #[inline]
    pub fn cube(&self, site: usize) -> [i32; 3] {
        self.cube[site]
    }

    /// The site at cube coordinates `[x, y, z]`, if it is on the board (hexagonal regions only).
    #[inline]
    pub fn site_at_cube(&self, c: [i32; 3]) -> Option<usize> {
        if c[0] + c[1] + c[2] != 0 {
            return None;
        }
        self.cube_lookup.as_ref()?.get(c[0], c[2])
    }

    /// The name players read for `site`: a file letter and a rank number, such as `c4` (see
    /// [`Board::file_rank`] for how each board kind lays them out).
    pub fn site_name(&self, site: usize) -> String {
        names::name(self.names.grid(site))
    }

    /// The site a player's text names: a site name as [`Board::site_name`] writes it, or a site
    /// number (`0` to `N − 1`, as records and earlier versions write sites). Case and surrounding
    /// space are ignored.
    pub fn parse_site(&self, text: &str) -> Option<usize> {
        let text = text.trim();
        if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
            let site: usize = text.parse().ok()?;
            return (site < self.num_sites() && site.to_string() == text).then_some(site);
        }
        self.names.site(text)
    }

    /// The `[file, rank]` of `site`, both counted from 0 (file 0 is `a`, rank 0 is `1`).
    ///
    /// * Hexagonal regions: the rank is the row from the bottom; the file is the line that
    ///   slants up to the left, counted from the left. On the regular hexagon of side 3:
    ///
    /// ```text
    ///               c5  d5  e5                 rank 5
    ///             b4  c4  d4  e4               rank 4
    ///           a3  b3  c3  d3  e3             rank 3     files a..e slant up to the left:
    ///             a2  b2  c2  d2               rank 2     a1 a2 a3, b1 b2 b3 b4, c1 .. c5,
    ///               a1  b1  c1                 rank 1     d2 .. d5, e3 e4 e5
    /// ```
    ///
    ///   The corners of side n are a1, an, and so on round the board (Little Golem's Havannah
    ///   board names its corners the same way).
    /// * Square points: files from the left, ranks from the bottom, as on a chessboard.
    /// * Triangle-square points: the tiling is a square grid of 2d + 2 by 2d + 2 points (less
    ///   its top and bottom corner) whose squares are partly cut into two triangles; files run
    ///   up to the left (file a is the lower left edge) and ranks up to the right (rank 1 is the
    ///   lower right edge), a chessboard turned by 45° with a1 at the missing bottom corner.
    ///   Order d = 1:
    ///
    /// ```text
    ///                  c4    d3
    ///           b4                   d2
    ///                      c3
    ///      a4       b3           c2       d1
    ///                      b2
    ///           a3                   c1
    ///                  a2    b1
    /// ```
    pub fn file_rank(&self, site: usize) -> [usize; 2] {
        self.names.grid(site).map(usize::from)
    }

    /// `[files, ranks]`: how many files and ranks the board's names use.
    pub fn name_extent(&self) -> [usize; 2] {
        self.names.extent()
    }

    /// Where a picture writes the file letters and rank numbers: one label per file beyond
    /// its lower end, and one per rank beyond its left (trisquare: lower left) end, in board
    /// coordinates, files first.
    pub fn coordinate_labels(&self) -> Vec<(String, [f64; 2])> {
        let n = self.num_sites();
        if n == 0 {
            return Vec::new();
        }
        let [u, v] = self.name_steps;
        let at = |f: f64, r: f64, c0: [f64; 2]| {
            [c0[0] + f * u[0] + r * v[0], c0[1] + f * u[1] + r * v[1]]
        };
        // The grid's origin: the mean of each site less its file and rank steps (exact on the
        // lattices, the best straight fit on the triangle-square tiling).
        let mut c0 = [0.0; 2];
        for s in 0..n {
            let [f, r] = self.file_rank(s).map(|k| k as f64);
            let p = at(-f, -r, self.coords[s]);
            c0 = [c0[0] + p[0] / n as f64, c0[1] + p[1] / n as f64];
        }
        let [files, ranks] = self.name_extent();
        // Hexagonal regions label each line beyond its own end; the other boards are full
        // grids (less two corners), labelled along a straight edge.
        let mut low = [vec![0usize; files], vec![0usize; ranks]];
        if self.is_hex_region() {
            low = [vec![usize::MAX; files], vec![usize::MAX; ranks]];
            for s in 0..n {
                let [f, r] = self.file_rank(s);
                low[0][f] = low[0][f].min(r);
                low[1][r] = low[1][r].min(f);
            }
        }
        // How far beyond the line's end, in steps: less where the sites are denser or the edge
        // zigzags about the straight fit.
        let gap = match self.shape.kind() {
            BoardKind::HexCells | BoardKind::LatticePoints => 0.9,
            BoardKind::SquarePoints => 0.8,
            BoardKind::TriSquarePoints => 0.7,
        };
        let mut out = Vec::with_capacity(files + ranks);
        for (f, &r) in low[0].iter().enumerate() {
            out.push((file_letters(f), at(f as f64, r as f64 - gap, c0)));
        }
        for (r, &f) in low[1].iter().enumerate() {
            out.push(((r + 1).to_string(), at(f as f64 - gap, r as f64, c0)));
        }
        out
    }

    /// The line families of a hexagonal region. Axis `k` holds the lines along which cube
    /// coordinate `k` is constant (axis 2 are the horizontal rows).
    pub fn lines(&self) -> Option<&Lines> {
        self.lines.as_ref()
    }
}

impl Lines {
    /// Number of lines on `axis` (0, 1 or 2).
    pub fn count(&self, axis: usize) -> usize {
        self.lines[axis].len()
    }

    /// The sites of line `id` on `axis`, in order along the line (ascending site ids).
    #[inline]
    pub fn line(&self, axis: usize, id: usize) -> &[u16] {
        &self.lines[axis][id]
    }

    /// The line through `site` on `axis`, and the site's position along it.
    #[inline]
    pub fn line_of(&self, axis: usize, site: usize) -> (usize, usize) {
        let (l, p) = self.line_of[axis][site];
        (l as usize, p as usize)
    }
}

/// Sorts points by increasing y (values within 1e-6 are one row), then increasing x, and returns
/// the permutation: `order[new_id] = old_index`.
pub(crate) fn numbering_order(points: &[[f64; 2]]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by(|&i, &j| points[i][1].total_cmp(&points[j][1]));
    let mut rows: Vec<Vec<usize>> = Vec::new();
    let mut last_y = f64::NEG_INFINITY;
    for i in order {
        let y = points[i][1];
        if rows.is_empty() || (y - last_y).abs() > 1e-6 {
            rows.push(Vec::new());
            last_y = y;
        }
        rows.last_mut().expect("row pushed above").push(i);
    }
    let mut out = Vec::with_capacity(points.len());
    for mut row in rows {
        row.sort_by(|&i, &j| points[i][0].total_cmp(&points[j][0]));
        out.extend(row);
    }
    out
}

#[cfg(test)]
mod tests;
