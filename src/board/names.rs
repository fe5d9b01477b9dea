//! Site names players read: a letter (the *file*) and a number (the *rank*), as in `c4`.
//!
//! Every board kind puts its sites on a grid of two line families, each board kind by its own
//! naming function (`hex::grid`, `square::grid`, `trisquare::grid`), which gives each site its
//! file and rank from the board's coordinates:
//!
//! * hexagonal regions: the rank is the row, counted from the bottom; the file is the slanting
//!   line that climbs to the upper left, counted from the left (the Havannah naming of Little
//!   Golem and pbmserv, turned so that its numbers are the board's rows);
//! * square points: chess files from the left, ranks from the bottom;
//! * triangle-square points: the snub square tiling is a square grid whose squares are partly
//!   cut into two triangles, so its points are named like a chessboard turned by 45°.
//!
//! Files are lettered `a`..`z`, then `aa`, `ab`, … (as spreadsheet columns); ranks start at 1.
//! Names are lower case; reading ignores case and surrounding space.

use std::collections::HashMap;

/// The file and rank of every site, and the way back.
#[derive(Clone, Debug, Default)]
pub(crate) struct SiteNames {
    /// `grid[site] = [file, rank]`, both from 0.
    grid: Vec<[u16; 2]>,
    /// `[files, ranks]`: one more than the largest file and rank.
    extent: [usize; 2],
    by_name: HashMap<[u16; 2], u16>,
}

impl SiteNames {
    /// From each site's `[file, rank]`, shifted so that the smallest file and rank are 0. Panics
    /// when two sites share a name (a naming function's bug, caught by the board tests).
    pub(crate) fn new(raw: &[[i32; 2]]) -> SiteNames {
        let lo = |k: usize| raw.iter().map(|g| g[k]).min().unwrap_or(0);
        let (f0, r0) = (lo(0), lo(1));
        let grid: Vec<[u16; 2]> = raw
            .iter()
            .map(|g| [(g[0] - f0) as u16, (g[1] - r0) as u16])
            .collect();
        let extent = [0, 1].map(|k| {
            grid.iter()
                .map(|g| usize::from(g[k]) + 1)
                .max()
                .unwrap_or(0)
        });
        let mut by_name = HashMap::with_capacity(grid.len());
        for (s, &g) in grid.iter().enumerate() {
            let before = by_name.insert(g, s as u16);
            assert!(before.is_none(), "two sites named {}", name(g));
        }
        SiteNames {
            grid,
            extent,
            by_name,
        }
    }

    /// `[file, rank]` of a site, both from 0.
    pub(crate) fn grid(&self, site: usize) -> [u16; 2] {
        self.grid[site]
    }

    /// `[files, ranks]`.
    pub(crate) fn extent(&self) -> [usize; 2] {
        self.extent
    }

    /// The site called `text` (a name as [`name`] writes it; case and surrounding space are
    /// ignored).
    pub(crate) fn site(&self, text: &str) -> Option<usize> {
        let g = parse(text)?;
        self.by_name.get(&g).map(|&s| usize::from(s))
    }
}

/// The letters of file `k`: `a`..`z`, `aa`..`az`, `ba`, … (bijective base 26).
pub fn file_letters(k: usize) -> String {
    let mut k = k + 1;
    let mut out = Vec::new();
    while k > 0 {
        k -= 1;
        out.push(b'a' + (k % 26) as u8);
        k /= 26;
    }
    out.reverse();
    String::from_utf8(out).expect("ASCII letters")
}

/// The name of `[file, rank]` (both from 0): `a1` for `[0, 0]`.
pub fn name(g: [u16; 2]) -> String {
    format!(
        "{}{}",
        file_letters(usize::from(g[0])),
        usize::from(g[1]) + 1
    )
}

/// `[file, rank]` from a name: letters, then a number from 1 without leading zeros.
fn parse(text: &str) -> Option<[u16; 2]> {
    let text = text.trim();
    let split = text.find(|c: char| !c.is_ascii_alphabetic())?;
    let (letters, digits) = text.split_at(split);
    if letters.is_empty()
        || letters.len() > 3
        || digits.is_empty()
        || digits.len() > 5
        || digits.starts_with('0')
        || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let mut file = 0usize;
    for b in letters.bytes() {
        file = file * 26 + usize::from(b.to_ascii_lowercase() - b'a') + 1;
    }
    let rank: usize = digits.parse().ok()?;
    Some([u16::try_from(file - 1).ok()?, u16::try_from(rank - 1).ok()?])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_lettered_like_spreadsheet_columns() {
        let got: Vec<String> = [0, 1, 25, 26, 27, 51, 52, 701, 702]
            .iter()
            .map(|&k| file_letters(k))
            .collect();
        assert_eq!(
            got,
            ["a", "b", "z", "aa", "ab", "az", "ba", "zz", "aaa"].map(String::from)
        );
        for k in 0..2000 {
            let g = [k as u16, 7];
            assert_eq!(parse(&name(g)), Some(g));
            assert_eq!(parse(&format!(" {} ", name(g).to_uppercase())), Some(g));
        }
    }

    #[test]
    fn only_letters_then_a_number_from_one_parse() {
        for bad in [
            "", "a", "7", "a0", "a01", "1a", "a1b", "a-1", "a 1", "é1", "pass", "abcd1",
        ] {
            assert_eq!(parse(bad), None, "{bad:?}");
        }
        assert_eq!(parse("B12"), Some([1, 11]));
    }
}
