//! Fixed-width bit sets over board sites, and per-board neighbour masks for flood fills on them.
//!
//! `Bits<K>` holds `64·K` bits in `K` words; bit `s` is site `s`. The width is a compile-time
//! constant so that the common boards (K = 1 up to 64 sites, K = 2 up to 128) compile to plain
//! register arithmetic, while larger boards use the same code with wider arrays.
//!
//! Two ways to pick the width, both "the smallest listed width that fits":
//! * a game whose state holds sets (the Smallholder, Windflowers) keeps its position as a
//!   [`Width`]: one variant per width of [`WIDTHS`], built with `at_width!` and used with
//!   `each_width!`, so each game's engine is compiled once per width and chosen once per call;
//! * code that keeps its sets as word slices (Subsume, through [`super::loops`]) loads them at the
//!   width chosen per board, one of the 15 [`RUNTIME_WIDTHS`], under `with_width!`
//!   ([`runtime_width_for`]). A state made of plain words needs no enum, and the finer widths
//!   save up to half of every fill step on its large boards.
//!
//! Flood fills on these sets grow through per-site neighbour masks here ([`NeighborMasks`]) or
//! through six shifts on hex regions ([`super::hexgrid`]).

use std::hash::{Hash, Hasher};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

use crate::board::{Board, Relation};

/// The widths (in 64-bit words) games instantiate, smallest first.
pub const WIDTHS: [usize; 5] = [1, 2, 4, 8, 16];

/// The number of words of the smallest instantiated width holding `n` bits, if any.
pub fn width_for(n: usize) -> Option<usize> {
    smallest_holding(&WIDTHS, n)
}

/// A type built at each bit-set width: `At<K>` for every K of [`WIDTHS`] (a game's position).
pub trait PerWidth {
    type At<const K: usize>: Clone + std::fmt::Debug;
}

/// A value of `F::At<K>` at the one width its board needs. One-word boards (up to 64 sites, every
/// game's default) are inline, so copying a position for a playout does not allocate; wider ones
/// are boxed, so that the enum stays as small as a one-word value.
pub enum Width<F: PerWidth> {
    W1(F::At<1>),
    W2(Box<F::At<2>>),
    W4(Box<F::At<4>>),
    W8(Box<F::At<8>>),
    W16(Box<F::At<16>>),
}

impl<F: PerWidth> Clone for Width<F> {
    fn clone(&self) -> Self {
        match self {
            Width::W1(p) => Width::W1(p.clone()),
            Width::W2(p) => Width::W2(p.clone()),
            Width::W4(p) => Width::W4(p.clone()),
            Width::W8(p) => Width::W8(p.clone()),
            Width::W16(p) => Width::W16(p.clone()),
        }
    }

    /// Copies in place when both are at the same width, so a position's own clone_from can
    /// reuse its buffers.
    fn clone_from(&mut self, source: &Self) {
        match (self, source) {
            (Width::W1(a), Width::W1(b)) => a.clone_from(b),
            (Width::W2(a), Width::W2(b)) => a.clone_from(b),
            (Width::W4(a), Width::W4(b)) => a.clone_from(b),
            (Width::W8(a), Width::W8(b)) => a.clone_from(b),
            (Width::W16(a), Width::W16(b)) => a.clone_from(b),
            (this, b) => *this = b.clone(),
        }
    }
}

/// Builds a [`Width`] for `$sites` sites: `$make` evaluated with the constant `$k` bound to the
/// width [`width_for`] picks, `None` when no width holds that many sites.
/// `at_width!(n, K => Pos::<K>::new(n))`.
macro_rules! at_width {
    ($sites:expr, $k:ident => $make:expr) => {
        match $crate::algo::bits::width_for($sites) {
            Some(1) => {
                const $k: usize = 1;
                Some($crate::algo::bits::Width::W1($make))
            }
            Some(2) => {
                const $k: usize = 2;
                Some($crate::algo::bits::Width::W2(Box::new($make)))
            }
            Some(4) => {
                const $k: usize = 4;
                Some($crate::algo::bits::Width::W4(Box::new($make)))
            }
            Some(8) => {
                const $k: usize = 8;
                Some($crate::algo::bits::Width::W8(Box::new($make)))
            }
            Some(16) => {
                const $k: usize = 16;
                Some($crate::algo::bits::Width::W16(Box::new($make)))
            }
            _ => None,
        }
    };
}
pub(crate) use at_width;

/// Runs `$body` with `$p` bound to the value inside a [`Width`] (by reference, or by mutable
/// reference for `&mut`), whatever its width; the body is compiled once per width.
macro_rules! each_width {
    ($w:expr, $p:ident => $body:expr) => {
        match $w {
            $crate::algo::bits::Width::W1($p) => $body,
            $crate::algo::bits::Width::W2($p) => $body,
            $crate::algo::bits::Width::W4($p) => $body,
            $crate::algo::bits::Width::W8($p) => $body,
            $crate::algo::bits::Width::W16($p) => $body,
        }
    };
}
pub(crate) use each_width;

impl<F: PerWidth> Width<F> {
    /// Bytes the wider widths keep on the heap (the narrowest is held inline).
    pub fn boxed_bytes(&self) -> usize {
        match self {
            Width::W1(_) => 0,
            Width::W2(p) => std::mem::size_of_val(&**p),
            Width::W4(p) => std::mem::size_of_val(&**p),
            Width::W8(p) => std::mem::size_of_val(&**p),
            Width::W16(p) => std::mem::size_of_val(&**p),
        }
    }
}

impl<F: PerWidth> std::fmt::Debug for Width<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        each_width!(self, p => p.fmt(f))
    }
}

/// Every width `with_width!` compiles code for, smallest first: [`WIDTHS`] and the widths in
/// between. Sets whose width is picked per board at run time (Subsume's hex layouts: side 6 needs
/// 2 words, side 10 needs 6, side 15 needs 14, side 30 needs 55) would waste up to half of every
/// fill step if rounded up to the next power of two.
pub const RUNTIME_WIDTHS: [usize; 15] = [1, 2, 3, 4, 5, 6, 8, 10, 12, 14, 16, 20, 24, 32, 64];

/// The smallest of [`RUNTIME_WIDTHS`] holding `n` bits, if any.
pub fn runtime_width_for(n: usize) -> Option<usize> {
    smallest_holding(&RUNTIME_WIDTHS, n)
}

fn smallest_holding(widths: &[usize], n: usize) -> Option<usize> {
    widths.iter().copied().find(|&k| 64 * k >= n)
}

/// Evaluates `$body` with the constant `$k` bound to the width `$words`, one of
/// [`RUNTIME_WIDTHS`], so that code over sets of a run-time width still runs on fixed-size
/// arrays the compiler unrolls: `with_width!(grid.words(), K => fill::<K>(grid, seed))`. A width
/// not in the list takes the widest.
macro_rules! with_width {
    ($words:expr, $k:ident => $body:expr) => {
        match $words {
            1 => with_width!(@at 1, $k => $body),
            2 => with_width!(@at 2, $k => $body),
            3 => with_width!(@at 3, $k => $body),
            4 => with_width!(@at 4, $k => $body),
            5 => with_width!(@at 5, $k => $body),
            6 => with_width!(@at 6, $k => $body),
            8 => with_width!(@at 8, $k => $body),
            10 => with_width!(@at 10, $k => $body),
            12 => with_width!(@at 12, $k => $body),
            14 => with_width!(@at 14, $k => $body),
            16 => with_width!(@at 16, $k => $body),
            20 => with_width!(@at 20, $k => $body),
            24 => with_width!(@at 24, $k => $body),
            32 => with_width!(@at 32, $k => $body),
            _ => with_width!(@at 64, $k => $body),
        }
    };
    (@at $n:literal, $k:ident => $body:expr) => {{
        const $k: usize = $n;
        $body
    }};
}
pub(crate) use with_width;

/// A set of sites as `K` 64-bit words.
#[derive(Clone, Copy, Debug)]
pub struct Bits<const K: usize>(pub [u64; K]);

/// Folds the differences of all words: fills compare sets once per growth step, and the derived
/// comparison takes a branch per word (or a `memcmp` call on wide sets).
impl<const K: usize> PartialEq for Bits<K> {
    #[inline]
    fn eq(&self, other: &Bits<K>) -> bool {
        self.0
            .iter()
            .zip(&other.0)
            .fold(0, |acc, (a, b)| acc | (a ^ b))
            == 0
    }
}

impl<const K: usize> Eq for Bits<K> {}

/// As derived; written out only because `PartialEq` is.
impl<const K: usize> Hash for Bits<K> {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl<const K: usize> Default for Bits<K> {
    fn default() -> Self {
        Bits([0; K])
    }
}

impl<const K: usize> Bits<K> {
    /// The empty set.
    pub const EMPTY: Bits<K> = Bits([0; K]);

    /// Number of bits the set can hold.
    pub const CAPACITY: usize = 64 * K;

    /// The set `{s}`.
    #[inline]
    pub fn single(s: usize) -> Bits<K> {
        let mut b = Bits::EMPTY;
        b.insert(s);
        b
    }

    /// The sites `lo..hi` (empty when `hi <= lo`).
    #[inline]
    pub fn range(lo: usize, hi: usize) -> Bits<K> {
        Bits::below(hi) & !Bits::below(lo)
    }

    /// The sites `0..n`.
    #[inline]
    pub fn below(n: usize) -> Bits<K> {
        let mut b = Bits::EMPTY;
        for (i, w) in b.0.iter_mut().enumerate() {
            let base = 64 * i;
            *w = if n >= base + 64 {
                u64::MAX
            } else if n > base {
                (1u64 << (n - base)) - 1
            } else {
                0
            };
        }
        b
    }

    #[inline]
    pub fn insert(&mut self, s: usize) {
        self.0[s >> 6] |= 1u64 << (s & 63);
    }

    #[inline]
    pub fn remove(&mut self, s: usize) {
        self.0[s >> 6] &= !(1u64 << (s & 63));
    }

    /// Whether `s` is in the set; false for `s` beyond the capacity.
    #[inline]
    pub fn contains(&self, s: usize) -> bool {
        match self.0.get(s >> 6) {
            Some(w) => (w >> (s & 63)) & 1 != 0,
            None => false,
        }
    }

    /// Whether the set has no site. Folds every word rather than stopping at the first non-zero
    /// one: fills test this once per step, and a branch per word costs more than the words.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().fold(0, |acc, &w| acc | w) == 0
    }

    #[inline]
    pub fn any(&self) -> bool {
        !self.is_empty()
    }

    /// Whether the two sets share a site.
    #[inline]
    pub fn intersects(&self, other: &Bits<K>) -> bool {
        (*self & *other).any()
    }

    #[inline]
    pub fn count(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The smallest site, if any.
    #[inline]
    pub fn lowest(&self) -> Option<usize> {
        for (i, &w) in self.0.iter().enumerate() {
            if w != 0 {
                return Some(64 * i + w.trailing_zeros() as usize);
            }
        }
        None
    }

    /// The largest site, if any.
    #[inline]
    pub fn highest(&self) -> Option<usize> {
        for (i, &w) in self.0.iter().enumerate().rev() {
            if w != 0 {
                return Some(64 * i + 63 - w.leading_zeros() as usize);
            }
        }
        None
    }

    /// Removes and returns the smallest site.
    #[inline]
    pub fn pop_lowest(&mut self) -> Option<usize> {
        for (i, w) in self.0.iter_mut().enumerate() {
            if *w != 0 {
                let t = w.trailing_zeros() as usize;
                *w &= *w - 1;
                return Some(64 * i + t);
            }
        }
        None
    }

    /// The `r`-th smallest site (0-based), if the set has more than `r` sites.
    #[inline]
    pub fn nth(&self, mut r: usize) -> Option<usize> {
        // Per word: byte counts by SWAR, their running totals by one multiplication, the byte
        // holding the bit by a parallel compare, and the bit within it from a table. Without a
        // hardware popcount (baseline x86-64) this is about twice as fast as counting bits.
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGHS: u64 = 0x8080_8080_8080_8080;
        for (i, &w) in self.0.iter().enumerate() {
            let mut b = w - ((w >> 1) & 0x5555_5555_5555_5555);
            b = (b & 0x3333_3333_3333_3333) + ((b >> 2) & 0x3333_3333_3333_3333);
            b = (b + (b >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
            // Byte j of `upto`: the bits in bytes 0..=j (at most 64, so no carries between bytes).
            let upto = b.wrapping_mul(ONES);
            let c = (upto >> 56) as usize;
            if r >= c {
                r -= c;
                continue;
            }
            // The wanted bit's byte is the number of bytes whose running total is at most r.
            let le = ((((r as u64) * ONES) | HIGHS) - upto) & HIGHS;
            let byte = ((le >> 7).wrapping_mul(ONES) >> 56) as usize;
            let before = ((upto << 8) >> (8 * byte)) & 0xFF;
            let bits = (w >> (8 * byte)) & 0xFF;
            let within = SELECT_IN_BYTE[(bits as usize) << 3 | (r - before as usize)];
            return Some(64 * i + 8 * byte + within as usize);
        }
        None
    }

    /// The sites in ascending order.
    #[inline]
    pub fn iter(&self) -> BitsIter<K> {
        BitsIter(*self)
    }

    /// The set held in the first `K` words of `words` (which must have that many), for sets
    /// whose width is chosen at run time and stored as slices.
    #[inline]
    pub fn from_words(words: &[u64]) -> Bits<K> {
        let mut b = Bits::EMPTY;
        b.0.copy_from_slice(&words[..K]);
        b
    }

    /// The smallest site alone (empty for the empty set): a seed for a fill that stays a set, so
    /// it costs no search for the word it sits in.
    #[inline]
    pub fn isolate_lowest(&self) -> Bits<K> {
        let mut out = Bits::EMPTY;
        if let Some(i) = self.0.iter().position(|&w| w != 0) {
            out.0[i] = self.0[i] & self.0[i].wrapping_neg();
        }
        out
    }

    /// Every site moved `k` places up (`0 < k < 64`); sites pushed past the capacity are lost.
    #[inline]
    pub fn shift_up(self, k: u32) -> Bits<K> {
        debug_assert!(0 < k && k < 64);
        Bits(std::array::from_fn(|i| {
            let carry = if i > 0 { self.0[i - 1] >> (64 - k) } else { 0 };
            self.0[i] << k | carry
        }))
    }

    /// Every site moved `k` places down (`0 < k < 64`); sites pushed below 0 are lost.
    #[inline]
    pub fn shift_down(self, k: u32) -> Bits<K> {
        debug_assert!(0 < k && k < 64);
        Bits(std::array::from_fn(|i| {
            let carry = if i + 1 < K {
                self.0[i + 1] << (64 - k)
            } else {
                0
            };
            self.0[i] >> k | carry
        }))
    }

    /// A boolean per site for the first `n` sites.
    pub fn to_bools(&self, n: usize) -> Vec<bool> {
        (0..n).map(|s| self.contains(s)).collect()
    }
}

/// `SELECT_IN_BYTE[b << 3 | r]`: the position of the r-th set bit of the byte b (0 past the end).
static SELECT_IN_BYTE: [u8; 2048] = {
    let mut t = [0u8; 2048];
    let mut b = 0;
    while b < 256 {
        let (mut r, mut bit) = (0, 0);
        while bit < 8 {
            if b >> bit & 1 == 1 {
                t[b << 3 | r] = bit as u8;
                r += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

/// Ascending iterator over the sites of a [`Bits`].
#[derive(Clone, Debug)]
pub struct BitsIter<const K: usize>(Bits<K>);

impl<const K: usize> Iterator for BitsIter<K> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        self.0.pop_lowest()
    }

    /// Word by word: `next` searches from the first word for every site, which adds up on wide
    /// sets. `for_each` and the other consuming adaptors come through here.
    #[inline]
    fn fold<B, F: FnMut(B, usize) -> B>(self, init: B, mut f: F) -> B {
        let mut acc = init;
        for (i, &w) in self.0 .0.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                acc = f(acc, 64 * i + w.trailing_zeros() as usize);
                w &= w - 1;
            }
        }
        acc
    }
}

// Word-wise operations build a fresh array rather than updating a copy in place: the fills' long
// chains of them (six shifts and ors per growth step) compile to fewer instructions that way.
impl<const K: usize> BitAnd for Bits<K> {
    type Output = Bits<K>;
    #[inline]
    fn bitand(self, rhs: Bits<K>) -> Bits<K> {
        Bits(std::array::from_fn(|i| self.0[i] & rhs.0[i]))
    }
}

impl<const K: usize> BitOr for Bits<K> {
    type Output = Bits<K>;
    #[inline]
    fn bitor(self, rhs: Bits<K>) -> Bits<K> {
        Bits(std::array::from_fn(|i| self.0[i] | rhs.0[i]))
    }
}

impl<const K: usize> BitXor for Bits<K> {
    type Output = Bits<K>;
    #[inline]
    fn bitxor(self, rhs: Bits<K>) -> Bits<K> {
        Bits(std::array::from_fn(|i| self.0[i] ^ rhs.0[i]))
    }
}

impl<const K: usize> Not for Bits<K> {
    type Output = Bits<K>;
    #[inline]
    fn not(self) -> Bits<K> {
        Bits(std::array::from_fn(|i| !self.0[i]))
    }
}

impl<const K: usize> BitAndAssign for Bits<K> {
    #[inline]
    fn bitand_assign(&mut self, rhs: Bits<K>) {
        *self = *self & rhs;
    }
}

impl<const K: usize> BitOrAssign for Bits<K> {
    #[inline]
    fn bitor_assign(&mut self, rhs: Bits<K>) {
        *self = *self | rhs;
    }
}

impl<const K: usize> FromIterator<usize> for Bits<K> {
    fn from_iter<I: IntoIterator<Item = usize>>(iter: I) -> Bits<K> {
        let mut b = Bits::EMPTY;
        for s in iter {
            b.insert(s);
        }
        b
    }
}

/// Neighbour masks of one board under one relation, for flood fills on [`Bits`].
#[derive(Clone, Debug)]
pub struct NeighborMasks<const K: usize> {
    /// Every site of the board.
    pub all: Bits<K>,
    /// `nbr[s]`: the neighbours of `s`.
    pub nbr: Vec<Bits<K>>,
}

impl<const K: usize> NeighborMasks<K> {
    /// The masks of `board` under `relation`; `None` when the board has more than `64·K` sites.
    pub fn new(board: &Board, relation: Relation) -> Option<NeighborMasks<K>> {
        let n = board.num_sites();
        if n > Bits::<K>::CAPACITY {
            return None;
        }
        let nbr = (0..n)
            .map(|s| {
                board
                    .neighbors(relation, s)
                    .iter()
                    .map(|&t| t as usize)
                    .collect()
            })
            .collect();
        Some(NeighborMasks {
            all: Bits::below(n),
            nbr,
        })
    }

    /// The union of the neighbour masks of the sites of `set`.
    #[inline]
    pub fn dilate(&self, set: Bits<K>) -> Bits<K> {
        let mut d = Bits::EMPTY;
        for s in set.iter() {
            d |= self.nbr[s];
        }
        d
    }

    /// The connected parts of `set`, in the order of their lowest sites.
    pub fn components(&self, set: Bits<K>) -> impl Iterator<Item = Bits<K>> + '_ {
        let mut rest = set;
        std::iter::from_fn(move || {
            let s = rest.lowest()?;
            let (part, _) = self.component(s, rest);
            rest &= !part;
            Some(part)
        })
    }

    /// The connected component of `seed` within `set` (`seed` is taken as a member), and its
    /// closed neighbourhood: the component together with every neighbour of it.
    #[inline]
    pub fn component(&self, seed: usize, set: Bits<K>) -> (Bits<K>, Bits<K>) {
        let mut group = Bits::single(seed);
        let mut frontier = group;
        let mut reach = group;
        while let Some(s) = frontier.pop_lowest() {
            let nb = self.nbr[s];
            reach |= nb;
            let new = nb & set & !group;
            group |= new;
            frontier |= new;
        }
        (group, reach)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::reference::UnionFind;
    use crate::board::Shape;

    fn lcg(x: &mut u64) -> u64 {
        *x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *x >> 33
    }

    fn check_nth<const K: usize>(seed: u64) {
        let mut x = seed;
        for density in [1u64, 2, 8, 32, 63, 64] {
            for _ in 0..50 {
                let sites: Vec<usize> =
                    (0..64 * K).filter(|_| lcg(&mut x) % 64 < density).collect();
                let b: Bits<K> = sites.iter().copied().collect();
                for (r, &s) in sites.iter().enumerate() {
                    assert_eq!(b.nth(r), Some(s));
                }
                assert_eq!(b.nth(sites.len()), None);
            }
        }
    }

    #[test]
    fn nth_at_every_density() {
        check_nth::<1>(1);
        check_nth::<2>(2);
        check_nth::<16>(3);
    }

    fn check_ops<const K: usize>(seed: u64) {
        let n = 64 * K;
        let mut x = seed;
        for _ in 0..200 {
            let sites: Vec<usize> = (0..n).filter(|_| lcg(&mut x) % 4 == 0).collect();
            let b: Bits<K> = sites.iter().copied().collect();
            assert_eq!(b.count(), sites.len());
            assert_eq!(b.iter().collect::<Vec<_>>(), sites);
            assert_eq!(b.lowest(), sites.first().copied());
            assert_eq!(b.highest(), sites.last().copied());
            for (r, &s) in sites.iter().enumerate() {
                assert_eq!(b.nth(r), Some(s));
            }
            assert_eq!(b.nth(sites.len()), None);
            let lo = (lcg(&mut x) as usize) % (n + 1);
            let hi = (lcg(&mut x) as usize) % (n + 1);
            let r = Bits::<K>::range(lo, hi);
            let expect: Vec<usize> = (lo..hi).collect();
            assert_eq!(r.iter().collect::<Vec<_>>(), expect);
            assert!(!b.contains(n) && !b.contains(n + 100));
        }
    }

    /// The operations the bit-parallel fills use, against per-site references.
    fn check_word_ops<const K: usize>(seed: u64) {
        let n = 64 * K;
        let mut x = seed;
        let naive_shift = |b: &Bits<K>, k: i64| -> Bits<K> {
            b.iter()
                .map(|s| s as i64 + k)
                .filter(|&t| (0..n as i64).contains(&t))
                .map(|t| t as usize)
                .collect()
        };
        for round in 0..200 {
            // Sparse and dense sets, and now and then the empty one.
            let density = [0, 2, 8, 60][round % 4];
            let sites: Vec<usize> = (0..n).filter(|_| (lcg(&mut x) % 64) < density).collect();
            let b: Bits<K> = sites.iter().copied().collect();
            assert_eq!(b.is_empty(), sites.is_empty());
            assert_eq!(Bits::<K>::from_words(&b.0), b);
            let mut longer = b.0.to_vec();
            longer.push(u64::MAX);
            assert_eq!(Bits::<K>::from_words(&longer), b);
            assert_eq!(
                b.isolate_lowest(),
                sites.first().map_or(Bits::EMPTY, |&s| Bits::single(s))
            );
            for k in [1, 2, 7, 10, 31, 58, 63] {
                assert_eq!(b.shift_up(k), naive_shift(&b, k as i64), "up {k}");
                assert_eq!(b.shift_down(k), naive_shift(&b, -(k as i64)), "down {k}");
            }
            let mut folded = Vec::new();
            b.iter().for_each(|s| folded.push(s));
            assert_eq!(folded, sites);
            assert_eq!(b.iter().sum::<usize>(), sites.iter().sum::<usize>());
            // Equality against the site lists, also for sets differing in one site only.
            let other: Bits<K> = (0..n).filter(|_| lcg(&mut x) % 64 < density).collect();
            assert_eq!(b == other, b.iter().eq(other.iter()));
            if let Some(&s) = sites.last() {
                let mut c = b;
                c.remove(s);
                assert!(c != b && c.count() + 1 == b.count());
                c.insert(s);
                assert!(c == b);
            }
        }
    }

    #[test]
    fn word_operations_agree_with_site_lists() {
        check_word_ops::<1>(11);
        check_word_ops::<2>(12);
        check_word_ops::<3>(13);
        check_word_ops::<6>(14);
        check_word_ops::<64>(15);
    }

    #[test]
    fn widths_dispatch_to_themselves() {
        for w in RUNTIME_WIDTHS {
            assert_eq!(with_width!(w, K => Bits::<K>::CAPACITY), 64 * w);
        }
        assert!(WIDTHS.iter().all(|w| RUNTIME_WIDTHS.contains(w)));
        for n in 0..=64 * 64 + 1 {
            let fit = runtime_width_for(n);
            match fit {
                Some(r) => {
                    assert!(64 * r >= n);
                    assert!(RUNTIME_WIDTHS.iter().all(|&w| w >= r || 64 * w < n));
                }
                None => assert!(n > 64 * 64),
            }
            // The run-time width never exceeds the width of the per-width enums.
            if let (Some(r), Some(k)) = (fit, width_for(n)) {
                assert!(r <= k);
            }
        }
    }

    #[test]
    fn operations_agree_with_lists() {
        check_ops::<1>(1);
        check_ops::<2>(2);
        check_ops::<4>(3);
        check_ops::<8>(5);
        check_ops::<16>(4);
    }

    #[test]
    fn components_agree_with_union_find() {
        let board = Board::new(Shape::HexCells { a: 5, b: 5 });
        let n = board.num_sites();
        let masks = NeighborMasks::<1>::new(&board, Relation::Orthogonal).expect("fits");
        let mut x = 99u64;
        for _ in 0..100 {
            let set: Bits<1> = (0..n).filter(|_| lcg(&mut x) % 2 == 0).collect();
            let mut uf = UnionFind::new(n);
            for s in set.iter() {
                for &t in board.orth(s) {
                    if set.contains(t as usize) {
                        uf.union(s, t as usize);
                    }
                }
            }
            for s in set.iter() {
                let (g, reach) = masks.component(s, set);
                let expect: Bits<1> = set.iter().filter(|&t| uf.find(t) == uf.find(s)).collect();
                assert_eq!(g, expect);
                let mut closed = g;
                for t in g.iter() {
                    closed |= masks.nbr[t];
                }
                assert_eq!(reach, closed);
                assert_eq!(masks.dilate(g) | g, closed);
            }
        }
    }
}
