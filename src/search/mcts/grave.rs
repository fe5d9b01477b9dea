//! GRAVE's all-moves-as-first statistics and its running choice of a child.

use super::*;

/// Bytes of AMAF statistics per tree node, on top of [`NODE_BYTES`], when the selection is GRAVE.
pub const AMAF_BYTES: usize = std::mem::size_of::<Amaf>();

/// All-moves-as-first statistics of one child: over the playouts through its parent in which
/// the child's mover played the child's action at some later point, the summed return of that
/// mover. Kept beside the node arena, index for index, only when the selection is GRAVE.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Amaf {
    pub(super) value: f32,
    pub(super) visits: u32,
}

/// GRAVE's running choice over the children of one node (see [`Tree::select_grave`]).
pub(super) struct GravePick {
    pub(super) solver: bool,
    /// The bias b of the β schedule.
    pub(super) b: f64,
    /// c·√(ln N), the exploration factor (0: none).
    pub(super) k: f64,
    pub(super) best: usize,
    pub(super) best_score: f64,
    /// Untried children without AMAF statistics seen so far, and the one drawn among them.
    pub(super) fresh: usize,
    pub(super) fresh_pick: usize,
}

impl GravePick {
    pub(super) fn new(solver: bool, b: f64, k: f64) -> GravePick {
        GravePick {
            solver,
            b,
            k,
            best: 0,
            best_score: f64::NEG_INFINITY,
            fresh: 0,
            fresh_pick: usize::MAX,
        }
    }

    /// The index in `kids` of the child to descend into, `amaf(j, child)` giving the AMAF
    /// statistics of child j's action at the reference. The first `tried` children are the
    /// tried ones; the rest have never been entered, so they have no visits and no proof and
    /// score by their AMAF mean alone.
    // Indexed loops: callgrind counts about 7 % more instructions a GRAVE iteration with
    // `enumerate` over the subslices.
    #[allow(clippy::needless_range_loop)]
    #[inline(always)]
    pub(super) fn scan<F: Fn(usize, &Node) -> Amaf>(
        &mut self,
        kids: &[Node],
        tried: usize,
        rng: &mut Rng,
        amaf: F,
    ) -> usize {
        if self.k > 0.0 {
            self.scan_tried::<true, F>(kids, tried, rng, &amaf);
        } else {
            self.scan_tried::<false, F>(kids, tried, rng, &amaf);
        }
        for j in tried..kids.len() {
            let ch = &kids[j];
            debug_assert!(ch.visits == 0 && ch.proof == OPEN);
            self.untried(j, amaf(j, ch), rng);
        }
        if self.fresh_pick != usize::MAX {
            self.fresh_pick
        } else {
            self.best
        }
    }

    /// The tried children, the first `tried` of `kids`; `EXPLORE` when k > 0.
    #[allow(clippy::needless_range_loop)]
    #[inline(always)]
    pub(super) fn scan_tried<const EXPLORE: bool, F: Fn(usize, &Node) -> Amaf>(
        &mut self,
        kids: &[Node],
        tried: usize,
        rng: &mut Rng,
        amaf: &F,
    ) {
        let (b, k, solver) = (self.b, self.k, self.solver);
        let mut best = self.best;
        let mut best_score = self.best_score;
        for j in 0..tried.min(kids.len()) {
            let ch = &kids[j];
            if solver && ch.proof == -1 {
                continue;
            }
            let am = amaf(j, ch);
            if ch.visits == 0 {
                // Tried but never backed up (a search stopped by the node limit): as untried.
                self.best = best;
                self.best_score = best_score;
                self.untried(j, am, rng);
                best = self.best;
                best_score = self.best_score;
                continue;
            }
            let m = f64::from(am.visits);
            // (1 − β)·v/n + β·a/m with β = m / D, D = m + n + b·m·n, is
            // (v·(1 + b·m) + a) / D: one division.
            let n = f64::from(ch.visits);
            let mixed = (ch.value * (1.0 + b * m) + f64::from(am.value)) / (m + n + b * m * n);
            let score = if EXPLORE { mixed + k / n.sqrt() } else { mixed };
            if score > best_score {
                best_score = score;
                best = j;
            }
        }
        self.best = best;
        self.best_score = best_score;
    }

    /// Child j, never backed up, with AMAF statistics `am` at the reference.
    #[inline(always)]
    pub(super) fn untried(&mut self, j: usize, am: Amaf, rng: &mut Rng) {
        if am.visits == 0 {
            self.fresh += 1;
            if rng.below(self.fresh) == 0 {
                self.fresh_pick = j;
            }
        } else if self.fresh == 0 {
            // Once a child without statistics is seen it is chosen over any score.
            let score = f64::from(am.value) / f64::from(am.visits);
            if score > self.best_score {
                self.best_score = score;
                self.best = j;
            }
        }
    }
}
