//! Faraday's knowledge beyond its rules ([`Peek`], [`Knowledge`], [`Footprint`]), kept apart
//! from the rules.

use super::*;
use crate::games::{Footprint, Knowledge, Peek};

impl Footprint for State {
    fn heap_bytes(&self) -> usize {
        self.cells.capacity()
            + self.charge.capacity() * std::mem::size_of::<[u8; 2]>()
            + self.legal.heap_bytes()
    }
}

impl Peek for State {}

impl Knowledge for State {}
