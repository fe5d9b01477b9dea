//! Subsume's measured play: the facts gathered at every position ([`Measure`]), kept apart
//! from the rules.

use super::*;
use crate::algo::FloodScratch;
use crate::games::{FinalColumn, Measure};

/// The final-shape columns Subsume declares: how the stones of the last position hang together
/// (the designer warns that without the anti-blob rule the game "ends up being two big blobs").
const FINAL: [FinalColumn; 4] = [
    FinalColumn {
        name: "groups_final",
        description: "groups at the end (connected stones of either colour, as the rules count)",
    },
    FinalColumn {
        name: "groups_final_0",
        description: "groups of Red's stones alone at the end",
    },
    FinalColumn {
        name: "groups_final_1",
        description: "groups of Blue's stones alone at the end",
    },
    FinalColumn {
        name: "largest_group_share",
        description: "the largest group's share of the stones at the end (NaN without stones)",
    },
];

impl State {
    /// Whether cell c holds a stone in play of colour `colour` (1 Red, 2 Blue, 0 either).
    /// Stones kept inside a settled loop (`remove_surrounded=false`) take no part.
    fn in_play(&self, c: usize, colour: i8) -> bool {
        let v = self.cells[c];
        v > 0 && (colour == 0 || v == colour) && !self.kept.get(c).copied().unwrap_or(false)
    }

    /// The number of groups of `colour`'s stones (0: of every stone) and the largest one's
    /// size.
    fn groups(&self, colour: i8, seen: &mut [bool], stack: &mut Vec<usize>) -> (usize, usize) {
        let board = &self.cfg.board;
        seen.fill(false);
        let (mut groups, mut largest) = (0, 0);
        for c in 0..self.cells.len() {
            if seen[c] || !self.in_play(c, colour) {
                continue;
            }
            groups += 1;
            seen[c] = true;
            stack.push(c);
            let mut size = 0;
            while let Some(x) = stack.pop() {
                size += 1;
                for &t in board.orth(x) {
                    let t = t as usize;
                    if !seen[t] && self.in_play(t, colour) {
                        seen[t] = true;
                        stack.push(t);
                    }
                }
            }
            largest = largest.max(size);
        }
        (groups, largest)
    }
}

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

    /// The heuristic: each player's stones in play. Stones kept inside a settled loop
    /// (`remove_surrounded=false`) take no part, so they do not count; with the default options
    /// this is every stone on the board, as the default heuristic counts.
    fn heuristic_into(&self, _scratch: &mut FloodScratch, out: &mut [u32]) {
        for (o, set) in out.iter_mut().zip(&self.sets[..2]) {
            *o = set.iter().map(|w| w.count_ones()).sum();
        }
    }

    fn final_columns(&self) -> &'static [FinalColumn] {
        &FINAL
    }

    /// Groups in all, of each colour, and the largest group's share of the stones in play.
    fn final_facts(&self, out: &mut [f64]) {
        let mut seen = vec![false; self.cells.len()];
        let mut stack = Vec::new();
        let (all, largest) = self.groups(0, &mut seen, &mut stack);
        let (red, _) = self.groups(1, &mut seen, &mut stack);
        let (blue, _) = self.groups(2, &mut seen, &mut stack);
        let stones = (0..self.cells.len()).filter(|&c| self.in_play(c, 0)).count();
        let share = if stones == 0 {
            f64::NAN
        } else {
            largest as f64 / stones as f64
        };
        out.copy_from_slice(&[all as f64, red as f64, blue as f64, share][..out.len()]);
    }
}
