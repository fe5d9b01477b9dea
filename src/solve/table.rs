//! The transposition table: a fixed array of 16-byte entries shared by every search thread.
//!
//! An entry is two words, `check = key ^ data` and `data`. A probe reads both and accepts the
//! entry only when `check ^ data` equals the probed key, so an entry torn by two threads writing
//! at once (one word from each) fails the check instead of being misread (lock-free hashing in
//! the manner of Hyatt and Mann). The full 64-bit key is compared, not only the bits that chose
//! the slot: a wrong answer needs two different positions with the same 64-bit key, with odds
//! about n²/2⁶⁵ over n distinct positions searched (below 10⁻⁶ for n = 6·10⁶); the state graph
//! (`super::graph`), which compares positions in full, cross-checks the solved boards.
//!
//! `data` holds, from the low bits: the value (16 bits, two's complement), the bound kind
//! (2 bits), whether the value is free of the move cap (1 bit), the moves the value is good for
//! (24 bits, see [`Entry::usable`]), the best action (16 bits) and the work the value cost
//! (5 bits: the bit length of the nodes searched under it).
//!
//! **Replacement.** Entries come in buckets of two, in one 32-byte half of a cache line, chosen
//! by the key; a probe reads both at the price of one memory access. The first keeps the entry
//! that cost the most work, the second the newest: a result replaces the first when it cost at
//! least as much (the first's old entry moves to the second) and the second otherwise. So once
//! the table is full, the results that are dear to recompute (those near the root of a solve)
//! stay while the cheap ones near the leaves churn through the second half, and a solve larger
//! than its table slows down gradually instead of losing its expensive results first (measured
//! in experiments/solver-speed/).
//!
//! **Growth.** The memory is mapped whole but used from its first [`START_ENTRIES`] entries
//! (8 MiB), and the part in use doubles each time a quarter of its buckets' first slots
//! are filled, up to the whole: a solve of a few thousand nodes touches (and the kernel zeroes)
//! 8 MiB, not the gigabyte a large solve is given. The thread whose store crosses the mark
//! widens the mask and moves each entry whose key has the new bit to its bucket in the new half;
//! the others go on meanwhile, and what a race costs is at most an entry lost (a miss, searched
//! again), never a wrong one: every probe checks the full key.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use crate::error::{Error, Result};

/// What a stored value says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value.
    Exact,
    /// The true value is at least this.
    Lower,
    /// The true value is at most this.
    Upper,
}

/// No best action stored.
pub const NO_MOVE: u32 = 0xFFFF;
/// The moves-left field's largest value, used for games without a move cap.
pub const UNLIMITED: u32 = (1 << 24) - 1;

/// One stored result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub value: i32,
    pub bound: Bound,
    /// The value was found without any line reaching the move cap.
    pub cap_free: bool,
    /// With `cap_free`, the longest line the value rests on (it holds whenever at least that
    /// many moves are left); otherwise the exact number of moves that were left.
    pub moves: u32,
    pub best: u32,
    /// The work the value cost: the bit length of the nodes searched for it (0 to 31).
    pub work: u32,
}

impl Entry {
    /// Whether the entry holds for a position with `left` moves before the cap.
    #[inline]
    pub fn usable(&self, left: u32) -> bool {
        if self.cap_free {
            left >= self.moves
        } else {
            left == self.moves
        }
    }

    fn pack(&self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 1u64,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        u64::from(self.value as i16 as u16)
            | bound << 16
            | u64::from(self.cap_free) << 18
            | u64::from(self.moves.min(UNLIMITED)) << 19
            | u64::from(self.best.min(NO_MOVE)) << 43
            | u64::from(self.work.min(MAX_WORK)) << 59
    }

    fn unpack(d: u64) -> Option<Entry> {
        let bound = match (d >> 16) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        Some(Entry {
            value: i32::from(d as u16 as i16),
            bound,
            cap_free: (d >> 18) & 1 == 1,
            moves: ((d >> 19) & u64::from(UNLIMITED)) as u32,
            best: ((d >> 43) & 0xFFFF) as u32,
            work: (d >> 59) as u32,
        })
    }
}

/// Bytes per entry.
pub const ENTRY_BYTES: usize = 16;
/// The largest work an entry records.
pub const MAX_WORK: u32 = 31;

/// The work of a search of `nodes` nodes as an entry records it: the bit length of the count.
#[inline]
pub fn work_of(nodes: u64) -> u32 {
    (64 - nodes.leading_zeros()).min(MAX_WORK)
}

/// The memory of a [`Table`], zeroed: on Linux a mapping on huge pages (`solve::memory`),
/// elsewhere a plain array.
pub struct TableMemory {
    #[cfg(target_os = "linux")]
    map: memmap2::MmapMut,
    #[cfg(not(target_os = "linux"))]
    slots: Box<[[AtomicU64; 2]]>,
}

impl TableMemory {
    /// Room for the largest power of two of entries that fits in `bytes` (at least 1024).
    pub fn new(bytes: usize) -> Result<TableMemory> {
        let want = (bytes / ENTRY_BYTES).max(1024);
        let len = if want.is_power_of_two() {
            want
        } else {
            want.next_power_of_two() / 2
        };
        let refused = || {
            Error::InvalidOption(format!(
                "solve: a table of {} MiB cannot be had here; ask for a smaller table",
                (len * ENTRY_BYTES) >> 20
            ))
        };
        #[cfg(target_os = "linux")]
        {
            let map = super::memory::huge_zeroed(len * ENTRY_BYTES).ok_or_else(refused)?;
            Ok(TableMemory { map })
        }
        #[cfg(not(target_os = "linux"))]
        {
            let mut slots = Vec::new();
            slots.try_reserve_exact(len).map_err(|_| refused())?;
            slots.resize_with(len, || [AtomicU64::new(0), AtomicU64::new(0)]);
            Ok(TableMemory {
                slots: slots.into_boxed_slice(),
            })
        }
    }

    /// The table over this memory, its first [`START_ENTRIES`] in use (a new memory's table
    /// is empty).
    pub fn table(&mut self) -> Table<'_> {
        let slots = self.slots();
        let len = slots.len().min(START_ENTRIES);
        let used = slots[..len]
            .iter()
            .step_by(2)
            .filter(|s| s[1].load(Ordering::Relaxed) != 0)
            .count();
        Table {
            slots,
            mask: AtomicUsize::new(len - 1),
            used: Padded(AtomicUsize::new(used)),
        }
    }

    /// The table over this memory as `was` left it (its size and count, from
    /// [`Table::state`]): its entries are where that table put them.
    pub fn table_as(&mut self, was: TableState) -> Table<'_> {
        let slots = self.slots();
        let len = was.len.clamp(2, slots.len());
        Table {
            slots,
            mask: AtomicUsize::new(len - 1),
            used: Padded(AtomicUsize::new(was.used)),
        }
    }

    fn slots(&mut self) -> &[[AtomicU64; 2]] {
        #[cfg(target_os = "linux")]
        let slots: &[[AtomicU64; 2]] = {
            use zerocopy::FromBytes;
            // Any bytes are valid atomics, and a mapping is page-aligned and a whole number
            // of entries long, so the view cannot fail.
            <[[AtomicU64; 2]]>::mut_from_bytes(&mut self.map[..]).expect("aligned entries")
        };
        #[cfg(not(target_os = "linux"))]
        let slots: &[[AtomicU64; 2]] = &self.slots;
        slots
    }
}

/// A table's size in use and its count of filled buckets, to take it up again over the same
/// memory ([`TableMemory::table_as`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableState {
    len: usize,
    used: usize,
}

/// The entries a table uses at first (8 MiB); it doubles as it fills (module docs).
pub const START_ENTRIES: usize = 1 << 19;

/// The table: a view of its [`TableMemory`], shared by the search threads.
pub struct Table<'m> {
    slots: &'m [[AtomicU64; 2]],
    /// The entries in use less one (a power of two less one, at most `slots.len() − 1`).
    mask: AtomicUsize,
    /// The buckets in use whose first slot holds an entry (counted as they fill, recounted
    /// when the table grows), on a cache line of its own: `mask` is read at every probe.
    used: Padded,
}

/// A counter alone on its cache line.
#[repr(align(64))]
struct Padded(AtomicUsize);

impl Table<'_> {
    /// Number of entries in use (the table grows up to [`Table::capacity`]).
    pub fn len(&self) -> usize {
        self.mask.load(Ordering::Relaxed) + 1
    }

    /// Its size in use and count, to take it up again later ([`TableMemory::table_as`]).
    pub fn state(&self) -> TableState {
        TableState {
            len: self.len(),
            used: self.used.0.load(Ordering::Relaxed),
        }
    }

    /// Number of entries the table may grow to.
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Always false: a table has at least 1024 entries.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Grows the table to its whole memory (before a checkpoint's entries are loaded into it:
    /// a table at least as large as the one they were saved from holds every one of them).
    pub fn grow_to_capacity(&self) {
        loop {
            let mask = self.mask.load(Ordering::Relaxed);
            if mask + 1 >= self.slots.len() {
                return;
            }
            self.grow(mask);
        }
    }

    /// Bytes the entries in use take.
    pub fn bytes(&self) -> usize {
        self.len() * ENTRY_BYTES
    }

    /// The index of `key`'s bucket (its first slot) under `mask`.
    #[inline]
    fn index(key: u64, mask: usize) -> usize {
        key as usize & mask & !1
    }

    /// The bucket of `key`: its two slots.
    #[inline]
    fn bucket(&self, key: u64) -> &[[AtomicU64; 2]] {
        let at = Self::index(key, self.mask.load(Ordering::Relaxed));
        &self.slots[at..at + 2]
    }

    /// Doubles the part in use, from `mask`, unless another thread already did or it is
    /// whole: moves each entry whose key has the new bit into the new half (the same slot of
    /// the bucket there), then recounts the filled first slots.
    #[cold]
    fn grow(&self, mask: usize) {
        let wider = mask << 1 | 1;
        if wider >= self.slots.len()
            || self
                .mask
                .compare_exchange(mask, wider, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        let half = mask + 1;
        for (i, slot) in self.slots[..half].iter().enumerate() {
            let data = slot[1].load(Ordering::Relaxed);
            if data == 0 {
                continue;
            }
            let key = slot[0].load(Ordering::Relaxed) ^ data;
            if key as usize & half != 0 {
                slot[0].store(0, Ordering::Relaxed);
                slot[1].store(0, Ordering::Relaxed);
                let to = &self.slots[i + half];
                to[0].store(key ^ data, Ordering::Relaxed);
                to[1].store(data, Ordering::Relaxed);
            }
        }
        let used = self.slots[..=wider]
            .iter()
            .step_by(2)
            .filter(|s| s[1].load(Ordering::Relaxed) != 0)
            .count();
        self.used.0.store(used, Ordering::Relaxed);
    }

    /// Asks the processor to bring `key`'s bucket into its cache, without waiting for it.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let at = Self::index(key, self.mask.load(Ordering::Relaxed));
        prefetch_index::prefetch_index(self.slots, at);
    }

    /// The entry stored for `key`, if any (checked against the full key).
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        for slot in self.bucket(key) {
            let check = slot[0].load(Ordering::Relaxed);
            let data = slot[1].load(Ordering::Relaxed);
            if check ^ data == key {
                return Entry::unpack(data);
            }
        }
        None
    }

    /// Stores `e` for `key` by the replacement rule of the module's docs.
    #[inline]
    pub fn store(&self, key: u64, e: Entry) {
        self.store_raw(key, e.pack());
    }

    /// Calls `f(key, packed entry)` for every entry in use whose check holds and whose key
    /// chooses its bucket (an entry torn by two writers at once is skipped), for a checkpoint
    /// (`super::checkpoint`) taken while the search runs.
    pub fn each_entry(&self, mut f: impl FnMut(u64, u64)) {
        let mask = self.mask.load(Ordering::Relaxed);
        for (i, slot) in self.slots[..=mask].iter().enumerate() {
            let data = slot[1].load(Ordering::Relaxed);
            if data == 0 {
                continue;
            }
            let key = slot[0].load(Ordering::Relaxed) ^ data;
            if Self::index(key, mask) == i & !1 && Entry::unpack(data).is_some() {
                f(key, data);
            }
        }
    }

    /// Whether `data` is a packed entry (as `each_entry` gives).
    pub fn valid_data(data: u64) -> bool {
        Entry::unpack(data).is_some()
    }

    /// Stores a packed entry (as `each_entry` gives) by the replacement rule: into the first
    /// slot of its bucket when it holds the same key or cost no more work (its entry then
    /// moves to the second), else into the second. The store that fills a quarter of the
    /// buckets' first slots grows the table.
    #[inline]
    pub fn store_raw(&self, key: u64, data: u64) {
        let mask = self.mask.load(Ordering::Relaxed);
        let at = Self::index(key, mask);
        let (deep, recent) = (&self.slots[at], &self.slots[at + 1]);
        let old = deep[1].load(Ordering::Relaxed);
        let old_key = deep[0].load(Ordering::Relaxed) ^ old;
        if old == 0 {
            let used = self.used.0.fetch_add(1, Ordering::Relaxed) + 1;
            if used > (mask + 1) / 8 && mask + 1 < self.slots.len() {
                self.grow(mask);
                // Stored again under the new mask (grown by this thread or another).
                return self.store_raw(key, data);
            }
        }
        // An entry left in the first slot by a store racing a growth, whose key is no longer
        // this bucket's, can never be found: it gives way like an empty slot.
        let foreign = Self::index(old_key, mask) != at;
        if old_key == key || foreign || old >> 59 <= data >> 59 {
            if old != 0 && old_key != key && !foreign {
                recent[0].store(old_key ^ old, Ordering::Relaxed);
                recent[1].store(old, Ordering::Relaxed);
            } else {
                // An older result for this key in the second slot (left there when a growth
                // moved the first slot's entry away) goes, so that no key is held twice.
                let r = recent[1].load(Ordering::Relaxed);
                if r != 0 && recent[0].load(Ordering::Relaxed) ^ r == key {
                    recent[0].store(0, Ordering::Relaxed);
                    recent[1].store(0, Ordering::Relaxed);
                }
            }
            deep[0].store(key ^ data, Ordering::Relaxed);
            deep[1].store(data, Ordering::Relaxed);
        } else {
            recent[0].store(key ^ data, Ordering::Relaxed);
            recent[1].store(data, Ordering::Relaxed);
        }
    }

    /// Entries in use (a full scan of the part in use).
    pub fn filled(&self) -> usize {
        self.slots[..self.len()]
            .iter()
            .filter(|s| s[1].load(Ordering::Relaxed) != 0)
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_other_keys_miss() {
        let mut memory = TableMemory::new(1 << 16).expect("memory");
        let t = memory.table();
        assert_eq!(t.len(), 4096);
        assert_eq!(t.filled(), 0);
        let e = Entry {
            value: -37,
            bound: Bound::Lower,
            cap_free: true,
            moves: 140,
            best: 14,
            work: 31,
        };
        t.store(0xDEAD_BEEF_0000_0001, e);
        assert_eq!(t.probe(0xDEAD_BEEF_0000_0001), Some(e));
        // Same slot, different key: the full-key check refuses it.
        assert_eq!(t.probe(0xDEAD_BEEF_0000_0001 ^ 1 << 40), None);
        assert!(e.usable(140) && e.usable(200) && !e.usable(139));
        let exact = Entry {
            cap_free: false,
            ..e
        };
        assert!(exact.usable(140) && !exact.usable(141));
        assert_eq!(t.len() * ENTRY_BYTES, t.bytes());
    }

    #[test]
    fn a_table_larger_than_memory_is_refused_not_an_abort() {
        let e = TableMemory::new(usize::MAX / 2).err().expect("refused");
        assert!(e.to_string().contains("smaller table"), "{e}");
    }
}

#[cfg(test)]
mod replacement {
    use super::*;

    fn entry(value: i32, work: u32) -> Entry {
        Entry {
            value,
            bound: Bound::Exact,
            cap_free: true,
            moves: 3,
            best: 1,
            work,
        }
    }

    /// Three keys of one bucket: the dearest result stays, the newest cheap one takes the
    /// second slot, and a dearer newcomer pushes the first one into the second.
    #[test]
    fn the_dearest_entry_of_a_bucket_stays() {
        let mut memory = TableMemory::new(1 << 16).expect("memory");
        let t = memory.table();
        let (a, b, c) = (
            0x10_0000_0000_0000u64,
            0x20_0000_0000_0001,
            0x30_0000_0000_0000,
        );
        t.store(a, entry(1, 20));
        t.store(b, entry(0, 3));
        assert_eq!(t.probe(a), Some(entry(1, 20)));
        assert_eq!(t.probe(b), Some(entry(0, 3)));
        t.store(c, entry(-1, 5));
        assert_eq!(t.probe(a), Some(entry(1, 20)), "the dear one stays");
        assert_eq!(t.probe(b), None, "the older cheap one went");
        assert_eq!(t.probe(c), Some(entry(-1, 5)));
        t.store(b, entry(0, 25));
        assert_eq!(t.probe(b), Some(entry(0, 25)));
        assert_eq!(t.probe(a), Some(entry(1, 20)), "moved to the second slot");
        assert_eq!(t.probe(c), None);
        // The same key again updates the first slot in place.
        t.store(b, entry(1, 2));
        assert_eq!(t.probe(b), Some(entry(1, 2)));
        assert_eq!(t.probe(a), Some(entry(1, 20)));
        assert_eq!(t.filled(), 2);
        let mut seen = Vec::new();
        t.each_entry(|k, d| seen.push((k, Entry::unpack(d))));
        seen.sort_unstable_by_key(|x| x.0);
        assert_eq!(seen, vec![(a, Some(entry(1, 20))), (b, Some(entry(1, 2)))]);
    }

    /// A table starts at `START_ENTRIES` and doubles as its buckets fill, up to its memory;
    /// what it finds after growing is what was stored (the entries moved with their keys),
    /// and nearly everything stored is still found.
    #[test]
    fn a_table_grows_as_it_fills_and_keeps_what_it_holds() {
        let mut memory = TableMemory::new(4 * START_ENTRIES * ENTRY_BYTES).expect("memory");
        let t = memory.table();
        assert_eq!((t.len(), t.capacity()), (START_ENTRIES, 4 * START_ENTRIES));
        let mut rng = crate::rng::Rng::new(5);
        let keys: Vec<u64> = (0..START_ENTRIES).map(|_| rng.next_u64() | 1).collect();
        let e = |i: usize| entry((i % 20_000) as i32 - 10_000, (i % 7) as u32);
        for (i, &k) in keys.iter().enumerate() {
            t.store(k, e(i));
        }
        assert!(t.len() > START_ENTRIES, "grown");
        let mut found = 0;
        for (i, &k) in keys.iter().enumerate() {
            if let Some(got) = t.probe(k) {
                assert_eq!(got, e(i));
                found += 1;
            }
        }
        assert!(found * 10 > keys.len() * 8, "{found} of {}", keys.len());
        let mut seen = 0;
        t.each_entry(|k, d| {
            assert_eq!(t.probe(k).map(|e| e.pack()), Some(d));
            seen += 1;
        });
        assert_eq!(seen, t.filled());
        // No key is held twice: a checkpoint (each entry in slot order) would reload an older
        // result over a newer one.
        let mut all = Vec::new();
        t.each_entry(|k, _| all.push(k));
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
        // It never grows beyond its memory.
        for _ in 0..4 * START_ENTRIES {
            t.store(rng.next_u64(), entry(0, 1));
        }
        assert_eq!(t.len(), t.capacity());
    }

    /// A growth that moves a bucket's first entry away leaves the second alone; storing that
    /// second key again fills the first slot and drops the older copy.
    #[test]
    fn a_key_is_never_held_twice_after_a_growth() {
        let mut memory = TableMemory::new(2 * START_ENTRIES * ENTRY_BYTES).expect("memory");
        let t = memory.table();
        let moved = START_ENTRIES as u64 | 0x10; // the new bit set: moves on growth
        let stays = 1 << 40 | 0x10; // same bucket, new bit clear
        t.store(moved, entry(1, 20));
        t.store(stays, entry(0, 2));
        t.grow_to_capacity();
        assert_eq!(t.len(), 2 * START_ENTRIES);
        assert_eq!(t.probe(moved), Some(entry(1, 20)));
        assert_eq!(t.probe(stays), Some(entry(0, 2)));
        t.store(stays, entry(-1, 6));
        let mut seen = Vec::new();
        t.each_entry(|k, d| seen.push((k, Entry::unpack(d))));
        seen.sort_unstable_by_key(|x| x.0);
        assert_eq!(
            seen,
            vec![(moved, Some(entry(1, 20))), (stays, Some(entry(-1, 6)))]
        );
    }
}
