//! What a search reports ([`SearchResult`]), summed over the threads' trees.

use super::*;

/// What ended a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum StoppedBy {
    /// The iteration budget was spent.
    Iterations,
    /// The time budget ran out.
    Time,
    /// The tree reached the node limit.
    Nodes,
    /// The root was proven won, drawn or lost.
    Proven,
    /// The caller asked the search to stop (see [`Mcts::search_until`]).
    Interrupted,
}

impl StoppedBy {
    /// The name Python sees: "iterations", "time", "nodes" or "proven".
    pub fn name(self) -> &'static str {
        match self {
            StoppedBy::Iterations => "iterations",
            StoppedBy::Time => "time",
            StoppedBy::Nodes => "nodes",
            StoppedBy::Proven => "proven",
            StoppedBy::Interrupted => "interrupted",
        }
    }
}

/// What a search found. Per-action vectors have one entry per legal root action, ascending.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The legal root actions, ascending.
    pub actions: Vec<u32>,
    /// Visits of each root action, summed over threads.
    pub visits: Vec<u64>,
    /// Mean return of each root action for the player to move at the root (0 if unvisited).
    pub values: Vec<f64>,
    /// Proven outcome of each root action for the player to move (+1, 0, −1), if proven.
    pub proofs: Vec<Option<i8>>,
    /// The size of the action space (for the policy vector).
    pub num_actions: usize,
    /// The root's mean return for the player to move.
    pub value: f64,
    /// The action to play.
    pub best: u32,
    /// Iterations run, over all threads.
    pub iterations: u64,
    /// Wall time of the search.
    pub seconds: f64,
    /// Tree nodes allocated, over all threads.
    pub nodes: u64,
    /// The root's proven outcome for the player to move (+1 won, 0 drawn, −1 lost).
    pub proven: Option<i8>,
    /// The principal variation: the most-visited path from the root.
    pub pv: Vec<u32>,
    /// What ended the search.
    pub stopped_by: StoppedBy,
}

impl SearchResult {
    /// Root visit fractions over the whole action space.
    pub fn policy(&self) -> Vec<f64> {
        let mut out = vec![0.0; self.num_actions];
        let total: u64 = self.visits.iter().sum();
        if total > 0 {
            for (&a, &n) in self.actions.iter().zip(&self.visits) {
                out[a as usize] = n as f64 / total as f64;
            }
        }
        out
    }

    /// [`SearchResult::policy`] into `out` (`num_actions` long), as f32.
    pub fn policy_into(&self, out: &mut [f32]) {
        out.fill(0.0);
        let total: u64 = self.visits.iter().sum();
        if total == 0 {
            return;
        }
        for (&a, &n) in self.actions.iter().zip(&self.visits) {
            out[a as usize] = (n as f64 / total as f64) as f32;
        }
    }
}

/// Sums the threads' root statistics and picks the move.
pub(in crate::search) fn summarise<R: Rules>(
    root: &R,
    legal: &[u32],
    trees: &[Tree],
    outcomes: &[ThreadOutcome],
    solver: bool,
    seconds: f64,
) -> SearchResult {
    let m = legal.len();
    let mut visits = vec![0u64; m];
    let mut sums = vec![0.0f64; m];
    let mut proofs: Vec<Option<i8>> = vec![None; m];
    let mut proven = None;
    for tree in trees {
        let r = tree.nodes[0];
        if r.proof != OPEN {
            proven = Some(r.proof);
        }
        for i in r.children() {
            let ch = tree.nodes[i];
            if let Ok(j) = legal.binary_search(&u32::from(ch.action)) {
                visits[j] += u64::from(ch.visits);
                sums[j] += ch.value;
                if solver && ch.proof != OPEN {
                    proofs[j] = Some(ch.proof);
                }
            }
        }
    }
    let values: Vec<f64> = (0..m)
        .map(|j| {
            if visits[j] == 0 {
                0.0
            } else {
                sums[j] / visits[j] as f64
            }
        })
        .collect();
    let best = legal[choose(&visits, &values, &proofs)];
    // Every iteration passes through one root child, so their sums are the root's.
    let n: u64 = visits.iter().sum();
    let value = if n == 0 {
        0.0
    } else {
        sums.iter().sum::<f64>() / n as f64
    };
    let pv = principal_variation(trees, best);
    let stopped_by = outcomes
        .iter()
        .map(|o| o.stopped)
        .max()
        .unwrap_or(StoppedBy::Iterations);
    let stopped_by = if proven.is_some() {
        StoppedBy::Proven
    } else {
        stopped_by
    };
    SearchResult {
        actions: legal.to_vec(),
        visits,
        values,
        proofs,
        num_actions: root.num_actions(),
        value,
        best,
        iterations: outcomes.iter().map(|o| o.iterations).sum(),
        seconds,
        nodes: trees.iter().map(|t| t.nodes.len() as u64).sum(),
        proven,
        pv,
        stopped_by,
    }
}

/// The index of the move to play: a proven win at once; otherwise the most visits among the
/// children not proven lost (all of them if every one is), ties to the higher mean, then the
/// lower action (the earlier index).
pub(super) fn choose(visits: &[u64], values: &[f64], proofs: &[Option<i8>]) -> usize {
    let pick = |allowed: &dyn Fn(usize) -> bool| -> Option<usize> {
        let mut best: Option<usize> = None;
        for j in 0..visits.len() {
            if !allowed(j) {
                continue;
            }
            best = match best {
                None => Some(j),
                Some(b) => {
                    if visits[j] > visits[b] || visits[j] == visits[b] && values[j] > values[b] {
                        Some(j)
                    } else {
                        Some(b)
                    }
                }
            };
        }
        best
    };
    pick(&|j| proofs[j] == Some(1))
        .or_else(|| pick(&|j| proofs[j] != Some(-1)))
        .or_else(|| pick(&|_| true))
        .unwrap_or(0)
}

/// The most-visited path, its statistics summed over the trees, starting with `best`.
pub(super) fn principal_variation(trees: &[Tree], best: u32) -> Vec<u32> {
    let mut pv = vec![best];
    // Each tree's node on the path so far (None once the path leaves that tree).
    let mut at: Vec<Option<usize>> = trees
        .iter()
        .map(|t| {
            t.nodes[0]
                .children()
                .find(|&i| u32::from(t.nodes[i].action) == best)
        })
        .collect();
    loop {
        // (action, visits, value sum), merged over the trees.
        let mut stats: Vec<(u32, u64, f64)> = Vec::new();
        for (t, node) in trees.iter().zip(&at) {
            let Some(node) = *node else { continue };
            for i in t.nodes[node].children() {
                let ch = t.nodes[i];
                if ch.visits == 0 {
                    continue;
                }
                let a = u32::from(ch.action);
                match stats.iter_mut().find(|s| s.0 == a) {
                    Some(s) => {
                        s.1 += u64::from(ch.visits);
                        s.2 += ch.value;
                    }
                    None => stats.push((a, u64::from(ch.visits), ch.value)),
                }
            }
        }
        let Some(&(a, _, _)) = stats.iter().max_by(|x, y| {
            let mx = x.2 / x.1 as f64;
            let my = y.2 / y.1 as f64;
            x.1.cmp(&y.1).then(mx.total_cmp(&my)).then(y.0.cmp(&x.0))
        }) else {
            return pv;
        };
        pv.push(a);
        for (t, node) in trees.iter().zip(at.iter_mut()) {
            *node = node.and_then(|n| {
                t.nodes[n]
                    .children()
                    .find(|&i| u32::from(t.nodes[i].action) == a)
            });
        }
    }
}
