//! Sparse sets of site ids: `P` sets over the sites `0..n` sharing one allocation, each kept as an
//! unordered list plus the index of every site in it. Membership, insertion and removal (swap
//! with the last entry) are O(1), and a uniform random member is one draw of an index. Subsume
//! keeps its open cells in one ([`SparseSet`]), Faraday each player's legal sites in two.
//!
//! ```text
//! data: [ list 0 | list 1 | … | index 0 | index 1 | … ]   each block n entries of u16
//!         list p holds len[p] sites; index p maps a site to its slot in list p, or ABSENT
//! ```

/// Marks a site absent from a set.
const ABSENT: u16 = u16::MAX;

/// `P` sets of sites below `n` (n < 65,535), in one allocation so that a copy is one `memcpy`.
#[derive(Debug)]
pub struct SparseSets<const P: usize> {
    n: usize,
    data: Vec<u16>,
    len: [usize; P],
}

impl<const P: usize> Clone for SparseSets<P> {
    fn clone(&self) -> Self {
        SparseSets {
            n: self.n,
            data: self.data.clone(),
            len: self.len,
        }
    }

    /// Copies into the allocation already there (a search's child positions reuse theirs).
    fn clone_from(&mut self, source: &Self) {
        self.n = source.n;
        self.data.clone_from(&source.data);
        self.len = source.len;
    }
}

/// One sparse set.
pub type SparseSet = SparseSets<1>;

impl<const P: usize> SparseSets<P> {
    /// `P` empty sets over the sites `0..n`.
    pub fn new(n: usize) -> SparseSets<P> {
        debug_assert!(n < ABSENT as usize);
        let mut data = vec![0; 2 * P * n];
        data[P * n..].fill(ABSENT);
        SparseSets {
            n,
            data,
            len: [0; P],
        }
    }

    /// Bytes the sets keep on the heap.
    pub fn heap_bytes(&self) -> usize {
        self.data.capacity() * std::mem::size_of::<u16>()
    }

    /// Empties every set.
    pub fn clear(&mut self) {
        self.data[P * self.n..].fill(ABSENT);
        self.len = [0; P];
    }

    /// Number of sites in set `p`.
    #[inline]
    pub fn len(&self, p: usize) -> usize {
        self.len[p]
    }

    /// Whether set `p` is empty.
    #[inline]
    pub fn is_empty(&self, p: usize) -> bool {
        self.len[p] == 0
    }

    /// Whether `site` is in set `p`.
    #[inline]
    pub fn contains(&self, p: usize, site: usize) -> bool {
        self.data[(P + p) * self.n + site] != ABSENT
    }

    /// Adds `site`, which must not be in set `p` yet.
    #[inline]
    pub fn insert(&mut self, p: usize, site: usize) {
        debug_assert!(!self.contains(p, site));
        let len = self.len[p];
        self.data[p * self.n + len] = site as u16;
        self.data[(P + p) * self.n + site] = len as u16;
        self.len[p] = len + 1;
    }

    /// Removes `site` from set `p` if it is there (the last entry takes its slot).
    #[inline]
    pub fn discard(&mut self, p: usize, site: usize) {
        if self.contains(p, site) {
            self.remove(p, site);
        }
    }

    /// Removes `site`, which must be in set `p` (the last entry takes its slot). Hot loops that
    /// have just tested membership call this rather than [`SparseSets::discard`].
    #[inline]
    pub fn remove(&mut self, p: usize, site: usize) {
        debug_assert!(self.contains(p, site));
        let n = self.n;
        let i = self.data[(P + p) * n + site];
        let last = self.len[p] - 1;
        let moved = self.data[p * n + last];
        self.data[p * n + i as usize] = moved;
        self.data[(P + p) * n + moved as usize] = i;
        self.data[(P + p) * n + site] = ABSENT;
        self.len[p] = last;
    }

    /// The `i`-th entry of set `p` (i < len(p)), in no particular order.
    #[inline]
    pub fn get(&self, p: usize, i: usize) -> usize {
        self.data[p * self.n + i] as usize
    }

    /// The sites of set `p`, in no particular order.
    #[inline]
    pub fn as_slice(&self, p: usize) -> &[u16] {
        &self.data[p * self.n..p * self.n + self.len[p]]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use std::collections::BTreeSet;

    #[test]
    fn agrees_with_a_btree_set() {
        let mut rng = Rng::new(9);
        let n = 50;
        let mut sets = SparseSets::<2>::new(n);
        let mut reference = [BTreeSet::new(), BTreeSet::new()];
        for step in 0..2000 {
            let (p, s) = (rng.below(2), rng.below(n));
            if rng.below(2) == 0 {
                if !sets.contains(p, s) {
                    sets.insert(p, s);
                }
                reference[p].insert(s);
            } else {
                sets.discard(p, s);
                reference[p].remove(&s);
            }
            if step == 1000 {
                sets.clear();
                reference = [BTreeSet::new(), BTreeSet::new()];
            }
            for (q, want) in reference.iter().enumerate() {
                let got: BTreeSet<usize> = sets.as_slice(q).iter().map(|&x| x as usize).collect();
                assert_eq!(&got, want);
                assert_eq!(sets.len(q), want.len());
                assert!((0..n).all(|x| sets.contains(q, x) == want.contains(&x)));
                assert!((0..sets.len(q)).all(|i| want.contains(&sets.get(q, i))));
            }
        }
    }
}
