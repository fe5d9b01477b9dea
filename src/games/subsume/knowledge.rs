//! Subsume's knowledge beyond its rules ([`Peek`], [`Knowledge`], [`Footprint`]), kept apart
//! from the rules.

use super::*;
use crate::games::{Footprint, Knowledge, Peek};

impl Footprint for State {
    fn heap_bytes(&self) -> usize {
        self.cells.capacity()
            + self.near.capacity() * std::mem::size_of::<[u8; 2]>()
            + self.open.heap_bytes()
            + self.sets.iter().map(|s| s.capacity() * 8).sum::<usize>()
            + self.kept.capacity()
    }
}

impl Peek for State {}

impl Knowledge for State {
    /// Playout knowledge (`playouts="knowledge"`): 1 for a perimeter cell, 0 for any other. A
    /// winning loop needs more than half of the perimeter, and playouts that prefer it end in
    /// such loops sooner; at equal iterations this beat MAST alone, while preferring cells that
    /// join or extend chains of stones, or the outer two rings, or cells by their distance from
    /// the centre, did not (`docs/search.md`, "Playout knowledge").
    #[inline]
    fn playout_score(&self, c: usize) -> u32 {
        u32::from(self.cfg.board.is_perimeter(c))
    }
}
