//! Subsume's measured play: the facts gathered at every position ([`Measure`]), kept apart
//! from the rules.

use super::*;
use crate::games::Measure;

impl Measure for State {
    /// The open cells that pass the anti-blob rule (only the open ones are looked at).
    fn legal_count(&self, _buf: &mut Vec<u32>) -> usize {
        if self.outcome != Outcome::Running {
            return 0;
        }
        let p = self.to_move as usize;
        let open = self.open.as_slice();
        open.iter()
            .filter(|&&c| self.balanced(c as usize, p))
            .count()
    }
}
