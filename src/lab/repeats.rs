//! Repeated positions: a bitmap screen over position keys, then exact comparison.

use super::*;

/// Words of the bitmap that screens position keys for repeats (2¹⁶ bits, 8 KiB).
pub(crate) const FILTER_WORDS: usize = 1 << 10;

/// A set of 64-bit position keys, emptied in constant time (each slot carries the number of
/// the game that wrote it).
#[derive(Debug, Default)]
pub(crate) struct KeySet {
    pub(crate) keys: Vec<u64>,
    pub(crate) stamps: Vec<u32>,
    pub(crate) stamp: u32,
    pub(crate) len: usize,
}

impl KeySet {
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 || self.keys.is_empty() {
            let cap = self.keys.len().max(256);
            self.keys = vec![0; cap];
            self.stamps = vec![0; cap];
            self.stamp = 1;
        }
    }

    /// Inserts `key`; true when it was already there.
    #[inline]
    pub(crate) fn insert(&mut self, key: u64) -> bool {
        if 2 * (self.len + 1) > self.keys.len() {
            self.grow();
        }
        let mask = self.keys.len() - 1;
        let mut i = (key >> 40) as usize & mask;
        loop {
            if self.stamps[i] != self.stamp {
                self.stamps[i] = self.stamp;
                self.keys[i] = key;
                self.len += 1;
                return false;
            }
            if self.keys[i] == key {
                return true;
            }
            i = (i + 1) & mask;
        }
    }

    pub(crate) fn grow(&mut self) {
        let old: Vec<u64> = (0..self.keys.len())
            .filter(|&i| self.stamps[i] == self.stamp)
            .map(|i| self.keys[i])
            .collect();
        let cap = 2 * self.keys.len();
        self.keys = vec![0; cap];
        self.stamps = vec![0; cap];
        self.stamp = 1;
        self.len = 0;
        for k in old {
            self.insert(k);
        }
    }
}

/// Whether two of `keys` are equal. A bitmap of 2¹⁶ bits indexed by the keys' top bits
/// (`filter`, all zeros between calls) sees first whether any two may be (a game of L positions
/// shares a bit with odds about L² / 2¹⁷); only then are the keys themselves compared.
pub(crate) fn has_equal_keys(keys: &[u64], filter: &mut Vec<u64>, seen: &mut KeySet) -> bool {
    if filter.is_empty() {
        filter.resize(FILTER_WORDS, 0);
    }
    let mut clash = 0u64;
    for &k in keys {
        let (word, bit) = ((k >> 54) as usize, 1u64 << (k >> 48 & 63));
        clash |= filter[word] & bit;
        filter[word] |= bit;
    }
    for &k in keys {
        filter[(k >> 54) as usize] = 0;
    }
    if clash == 0 {
        return false;
    }
    seen.clear();
    keys.iter().any(|&k| seen.insert(k))
}

/// How many of the positions reached by `actions` from `start` equal an earlier one (boards
/// and keys compared in full).
pub fn exact_repeats<R: Measure>(start: &R, actions: &[u32]) -> u32 {
    let sites = start.board().num_sites();
    let mut state = start.clone();
    let mut positions: Vec<i8> = Vec::with_capacity((actions.len() + 1) * sites);
    let mut keys: Vec<u64> = Vec::with_capacity(actions.len() + 1);
    positions.extend_from_slice(state.cells());
    keys.push(state.key());
    for &a in actions {
        state.apply_unchecked(a as usize);
        positions.extend_from_slice(state.cells());
        keys.push(state.key());
    }
    count_repeats(&positions, &keys, sites)
}

/// How many positions equal an earlier one: position k is `positions[k * sites..(k + 1) * sites]`
/// with the key `keys[k]` ([`Rules::key`](crate::games::Rules::key)). Sorts the keys, then
/// compares boards within runs of equal keys: equal boards with equal keys are equal positions.
pub fn count_repeats(positions: &[i8], keys: &[u64], sites: usize) -> u32 {
    let pos = |k: u32| &positions[k as usize * sites..(k as usize + 1) * sites];
    let mut order: Vec<(u64, u32)> = (0..keys.len() as u32)
        .map(|k| (keys[k as usize], k))
        .collect();
    order.sort_unstable();
    let mut repeated = 0u32;
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && order[end].0 == order[start].0 {
            end += 1;
        }
        for j in start + 1..end {
            let kj = order[j].1;
            if (start..j).any(|i| pos(order[i].1) == pos(kj)) {
                repeated += 1;
            }
        }
        start = end;
    }
    repeated
}
