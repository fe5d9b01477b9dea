//! The Smallholder's knowledge beyond its rules ([`Peek`], [`Knowledge`], [`Footprint`]), kept apart
//! from the rules.

use super::*;
use crate::games::{Footprint, Knowledge, Peek};

impl Footprint for State {
    fn heap_bytes(&self) -> usize {
        let groups = each_width!(&self.core, p => p.groups_heap_bytes());
        self.cells.capacity() + groups + self.core.boxed_bytes()
    }
}

impl Peek for State {}

impl Knowledge for State {}
