//! Shared algorithms on boards: bit sets over sites and flood fills on them ([`bits`]),
//! bit-parallel fills on hex regions ([`hexgrid`]), territory of gap and hull holdings
//! ([`territory`]), largest groups by flood fill ([`groups`]) or grown stone by stone
//! ([`unionfind`]), sparse sets of sites ([`sparse`]) and the loops of Subsume ([`loops`]). Game
//! files call these rather than writing their own. The slow references the tests hold them to
//! live in `reference`, compiled for tests only.

pub mod bits;
pub mod groups;
pub mod hexgrid;
pub mod loops;
#[cfg(test)]
pub(crate) mod reference;
pub mod sparse;
pub mod territory;
pub mod unionfind;

/// Reusable buffers for flood fills.
#[derive(Clone, Debug, Default)]
pub struct FloodScratch {
    /// Sites reached by fills since the last reset.
    pub seen: Vec<bool>,
    stack: Vec<u16>,
}

impl FloodScratch {
    /// Clears `seen` for a board of `n` sites.
    pub fn reset(&mut self, n: usize) {
        self.seen.clear();
        self.seen.resize(n, false);
    }
}
