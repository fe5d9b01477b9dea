//! Subsume's measured play: the facts gathered at every position ([`Measure`]), kept apart
//! from the rules.

use super::*;
use crate::algo::FloodScratch;
use crate::games::{FinalColumn, Measure};

/// The final-shape columns Subsume declares: how the stones of the last position hang together
/// (the designer warns that without the anti-blob rule the game "ends up being two big blobs").
const FINAL: [FinalColumn; 6] = [
    FinalColumn {
        name: "groups_final",
        description: "groups at the end (connected stones of either colour, as the rules count)",
        low: 0.0,
        high: f64::INFINITY,
    },
    FinalColumn {
        name: "groups_final_0",
        description: "groups of Red's stones alone at the end",
        low: 0.0,
        high: f64::INFINITY,
    },
    FinalColumn {
        name: "groups_final_1",
        description: "groups of Blue's stones alone at the end",
        low: 0.0,
        high: f64::INFINITY,
    },
    FinalColumn {
        name: "largest_group_share",
        description: "the largest group's share of the stones at the end (0 without stones)",
        low: 0.0,
        high: 1.0,
    },
    FinalColumn {
        name: "largest_group_share_0",
        description: "Red's largest group's share of Red's stones at the end (0 without any)",
        low: 0.0,
        high: 1.0,
    },
    FinalColumn {
        name: "largest_group_share_1",
        description: "Blue's largest group's share of Blue's stones at the end (0 without any)",
        low: 0.0,
        high: 1.0,
    },
];

impl Measure for State {
    /// The open cells that pass the anti-blob rule (only the open ones are looked at; all of
    /// them without the rule).
    fn legal_count(&self, _buf: &mut Vec<u32>) -> usize {
        /// The open cells with at least as many of the enemy's stones as of player `ME`'s
        /// among their neighbours: the mover fixed, each cell is one load and one compare.
        fn balanced_count<const ME: usize>(open: &[u16], near: &[[u8; 2]]) -> usize {
            open.iter()
                .filter(|&&c| {
                    let n = near[c as usize];
                    n[1 - ME] >= n[ME]
                })
                .count()
        }
        if self.outcome != Outcome::Running {
            return 0;
        }
        let open = self.open.as_slice();
        if !self.anti_blob {
            return open.len();
        }
        match self.to_move {
            0 => balanced_count::<0>(open, &self.near),
            _ => balanced_count::<1>(open, &self.near),
        }
    }

    /// Each action places a stone on its site; flips change owners and settling removes
    /// stones, but no stone appears anywhere else.
    fn placed_by_actions(&self) -> bool {
        true
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

    /// Groups in all, of each colour, and the largest group's share of the stones in play, in
    /// all and of each colour (stones kept inside a settled loop, `remove_surrounded=false`,
    /// take no part).
    fn final_facts(&self, out: &mut [f64]) {
        shape_facts(
            &self.cfg.grid,
            [&self.sets[2], &self.sets[0], &self.sets[1]],
            out,
        );
    }

    /// The stones in play of each colour and of both (the sets the facts are counted on).
    fn facts_snapshot(&self, out: &mut Vec<u64>) {
        for set in [&self.sets[2], &self.sets[0], &self.sets[1]] {
            out.extend_from_slice(set);
        }
    }

    fn snapshot_facts(&self, snapshot: &[u64], out: &mut [f64]) {
        let words = self.cfg.grid.words();
        let set = |i: usize| &snapshot[i * words..(i + 1) * words];
        shape_facts(&self.cfg.grid, [set(0), set(1), set(2)], out);
    }
}

/// The declared facts of the stones in play `sets` (all, Red's, Blue's): the groups of each,
/// then each one's largest group's share of its stones.
fn shape_facts(grid: &HexGrid, sets: [&[u64]; 3], out: &mut [f64]) {
    let share = |set: &[u64], largest: usize| {
        let stones: u32 = set.iter().map(|w| w.count_ones()).sum();
        // No stones, no group holding any: 0 (a number, so that columns compare exactly).
        if stones == 0 {
            0.0
        } else {
            largest as f64 / f64::from(stones)
        }
    };
    let [all, red, blue] = sets.map(|set| grid.groups(set));
    let facts = [
        all.0 as f64,
        red.0 as f64,
        blue.0 as f64,
        share(sets[0], all.1),
        share(sets[1], red.1),
        share(sets[2], blue.1),
    ];
    out.copy_from_slice(&facts[..out.len()]);
}
