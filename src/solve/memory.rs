//! Zeroed memory for the large tables of this layer (the solver's transposition table, the
//! state graph's direct table), asked of the kernel on huge pages.
//!
//! On Linux a table is an anonymous mapping with `MADV_HUGEPAGE`: reads land anywhere in
//! hundreds of MiB, and with 4 KiB pages nearly every one would also miss the processor's
//! page-table cache, and the pages would be faulted in one by one. The advice may be declined
//! (huge pages turned off), and then the pages are ordinary ones. Elsewhere the tables are
//! plain arrays.

/// `bytes` zeroed bytes (at least one), on huge pages where the kernel grants them; `None`
/// when the memory cannot be had.
#[cfg(target_os = "linux")]
pub(super) fn huge_zeroed(bytes: usize) -> Option<memmap2::MmapMut> {
    let map = memmap2::MmapOptions::new()
        .len(bytes.max(1))
        .map_anon()
        .ok()?;
    // Advice only: without huge pages the memory works the same, a little slower.
    let _ = map.advise(memmap2::Advice::HugePage);
    Some(map)
}
