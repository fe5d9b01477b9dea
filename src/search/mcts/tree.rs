//! The tree: its nodes, one thread's arena and scratch, and the iteration that walks, expands,
//! plays out and backs up (UCT, GRAVE and MCTS-Solver).

use super::*;

/// One node of the tree, shared by UCT ([`Mcts`]) and PUCT ([`crate::search::puct`]). `proof` is the
/// proven outcome for `mover` (+1 won, 0 drawn, −1 lost) or [`OPEN`]; PUCT, which proves
/// nothing, marks a leaf waiting for its evaluation there instead.
#[derive(Clone, Copy, Debug)]
pub(in crate::search) struct Node {
    /// Summed return of `mover` over the playouts (evaluations) through this node.
    pub(in crate::search) value: f64,
    pub(in crate::search) visits: u32,
    /// Index of the first child; 0 while the node has no children (the root is never a child).
    pub(in crate::search) first: u32,
    /// The action that leads here from the parent.
    pub(in crate::search) action: u16,
    /// Number of children.
    pub(in crate::search) len: u16,
    /// Number of children tried so far: they come first in the block (UCT only).
    pub(in crate::search) tried: u16,
    /// The player who moved into this node (at the root: the player to move there).
    pub(in crate::search) mover: u8,
    pub(in crate::search) proof: i8,
}

impl Node {
    pub(in crate::search) fn new(action: u16, mover: u8) -> Node {
        Node {
            value: 0.0,
            visits: 0,
            first: 0,
            action,
            len: 0,
            tried: 0,
            mover,
            proof: OPEN,
        }
    }

    pub(in crate::search) fn children(&self) -> std::ops::Range<usize> {
        self.first as usize..self.first as usize + self.len as usize
    }
}

/// One thread's tree: the arena shared by UCT and PUCT.
#[derive(Clone, Debug, Default)]
pub(in crate::search) struct Tree {
    pub(in crate::search) nodes: Vec<Node>,
    /// GRAVE's statistics, one per node (empty for UCT and PUCT).
    pub(super) amaf: Vec<Amaf>,
}

/// Scratch space of one search thread, reused across iterations.
pub(super) struct Scratch {
    pub(super) path: Vec<u32>,
    pub(super) buf: Vec<u32>,
    pub(super) ranks: Vec<f64>,
    pub(super) returns: Vec<f64>,
    /// The playout's actions with their players, when GRAVE or MAST needs them.
    pub(super) played: Vec<(u8, u16)>,
    /// The number of actions of the game (the row length of `seen`, `dense` and `mast`).
    pub(super) actions: usize,
    /// GRAVE: per (player, action), the number of the last AMAF update in which that player
    /// played that site below the node being updated (stamps, so nothing is cleared between
    /// iterations).
    pub(super) seen: Vec<u32>,
    /// The stamp of the current AMAF update (never 0 once one ran).
    pub(super) stamp: u32,
    /// GRAVE: per (player, action), the AMAF statistics of that action at the node
    /// `dense_of[player]` (zero for actions it has no child for): the reference node's row,
    /// read by action without searching its children. `update_amaf` keeps it in step, so it
    /// stays valid across iterations while the same reference serves.
    pub(super) dense: Vec<Amaf>,
    /// Per player, the node whose children's statistics `dense` holds (`usize::MAX`: none).
    pub(super) dense_of: Vec<usize>,
    /// MAST: per (player, action), the summed return and count over this search's iterations.
    pub(super) mast: Vec<MastStat>,
}

impl Scratch {
    pub(super) fn new<R: Rules>(root: &R, lim: &Limits) -> Scratch {
        let players = root.num_players();
        let actions = root.num_actions();
        let grave = lim.selection == Selection::Grave;
        Scratch {
            path: Vec::with_capacity(64),
            buf: Vec::with_capacity(64),
            ranks: vec![0.0; players],
            returns: vec![0.0; players],
            played: Vec::with_capacity(if lim.records() { 4 * actions } else { 0 }),
            actions,
            seen: vec![0; if grave { players * actions } else { 0 }],
            stamp: 0,
            dense: vec![Amaf::default(); if grave { players * actions } else { 0 }],
            dense_of: vec![usize::MAX; players],
            mast: vec![
                MastStat::default();
                if lim.playouts.uses_mast() {
                    players * actions
                } else {
                    0
                }
            ],
        }
    }
}

/// Writes a finished game's returns (zero when truncated).
pub(super) fn terminal_returns<R: Rules>(state: &R, s: &mut Scratch) {
    final_returns(state, &mut s.ranks, &mut s.returns);
}

/// Writes a finished game's returns into `returns` (zero when truncated), with `ranks` as
/// scratch (both `num_players` long).
pub(in crate::search) fn final_returns<R: Rules>(
    state: &R,
    ranks: &mut [f64],
    returns: &mut [f64],
) {
    if !state.returns_into(ranks, returns) {
        returns.fill(0.0);
    }
}

/// The proven outcome `v` for player `from`, seen by player `to` (two players, zero-sum).
pub(super) fn flip(v: i8, from: u8, to: u8) -> i8 {
    if from == to {
        v
    } else {
        -v
    }
}

/// How one thread's search ended.
pub(in crate::search) struct ThreadOutcome {
    pub(in crate::search) iterations: u64,
    pub(in crate::search) stopped: StoppedBy,
}

/// Budgets and switches shared by the threads of one search.
#[derive(Clone, Copy)]
pub(super) struct Limits<'a> {
    /// Set from outside to end the search early (Ctrl-C).
    pub(super) stop: Option<&'a AtomicBool>,
    pub(super) iterations: u64,
    pub(super) deadline: Option<Instant>,
    pub(super) max_nodes: usize,
    pub(super) c: f64,
    pub(super) solver: bool,
    pub(super) selection: Selection,
    pub(super) grave_ref: u32,
    pub(super) grave_bias: f64,
    pub(super) playouts: Playouts,
}

impl Limits<'_> {
    /// Whether iterations record their playouts' actions.
    pub(super) fn records(&self) -> bool {
        self.selection == Selection::Grave || self.playouts != Playouts::Random
    }
}

impl Tree {
    /// A tree holding only the root, for `state` (not terminal).
    pub(in crate::search) fn new<R: Rules>(state: &R) -> Tree {
        let p = state.current_player().unwrap_or(0) as u8;
        Tree {
            nodes: vec![Node::new(0, p)],
            amaf: Vec::new(),
        }
    }

    /// Runs iterations until a budget is spent or the root is proven.
    ///
    /// The stop flag is read every iteration (one relaxed load). Under a time budget the clock
    /// is read after every iteration while they are slower than [`SLOW_ITERATION`] (on a large
    /// board one takes milliseconds, and a budget should not overshoot by eight of them), and
    /// every [`CLOCK_EVERY`] iterations while they are quick.
    pub(super) fn run<R: Knowledge>(
        &mut self,
        root: &R,
        lim: &Limits,
        rng: &mut Rng,
    ) -> ThreadOutcome {
        let mut s = Scratch::new(root, lim);
        // The iterations' position, copied over from the root each time (no allocation).
        let mut state = root.clone();
        if lim.selection == Selection::Grave {
            self.amaf.resize(self.nodes.len(), Amaf::default());
        } else {
            self.amaf = Vec::new();
        }
        let mut done = 0u64;
        let mut every = CLOCK_EVERY;
        let mut last_clock = lim.deadline.map(|_| (Instant::now(), 0u64));
        loop {
            if self.nodes[0].proof != OPEN {
                return ThreadOutcome {
                    iterations: done,
                    stopped: StoppedBy::Proven,
                };
            }
            if done >= lim.iterations {
                return ThreadOutcome {
                    iterations: done,
                    stopped: StoppedBy::Iterations,
                };
            }
            if lim.stop.is_some_and(|f| f.load(Ordering::Relaxed)) {
                return ThreadOutcome {
                    iterations: done,
                    stopped: StoppedBy::Interrupted,
                };
            }
            if let (Some(deadline), Some((last, last_done))) = (lim.deadline, last_clock) {
                if done % every == 0 {
                    let now = Instant::now();
                    if now >= deadline {
                        return ThreadOutcome {
                            iterations: done,
                            stopped: StoppedBy::Time,
                        };
                    }
                    // Every iteration at first and while iterations are slow, else every few.
                    let since = (done - last_done) as u32;
                    every = if since == 0 || now - last > SLOW_ITERATION * since {
                        1
                    } else {
                        CLOCK_EVERY
                    };
                    last_clock = Some((now, done));
                }
            }
            if !self.iterate(root, &mut state, lim, rng, &mut s) {
                return ThreadOutcome {
                    iterations: done,
                    stopped: StoppedBy::Nodes,
                };
            }
            done += 1;
        }
    }

    /// Allocates the children of `node` (state `state`, not terminal), one per legal action in
    /// ascending order (left in `buf`); false when they would pass the node limit `max`.
    pub(in crate::search) fn expand<R: Rules>(
        &mut self,
        node: usize,
        state: &R,
        max: usize,
        buf: &mut Vec<u32>,
    ) -> bool {
        state.legal_actions_into(buf);
        if self.nodes.len() + buf.len() > max {
            return false;
        }
        // A tree that cannot grow (memory refused) is full: the search ends as at the node
        // limit, never with an allocation failure's abort.
        if self.nodes.try_reserve(buf.len()).is_err() {
            return false;
        }
        let mover = state.current_player().unwrap_or(0) as u8;
        let first = self.nodes.len();
        self.nodes
            .extend(buf.iter().map(|&a| Node::new(a as u16, mover)));
        if !self.amaf.is_empty() {
            self.amaf.resize(self.nodes.len(), Amaf::default());
        }
        let n = &mut self.nodes[node];
        n.first = first as u32;
        n.len = buf.len() as u16;
        true
    }

    /// The n-player backup: every node on `path` adds the return of its mover (the player who
    /// moved into it) from `returns`, and `visits` to its visit count (0 when the visit was
    /// counted already, as a virtual loss).
    #[inline]
    pub(in crate::search) fn backup(
        &mut self,
        path: &[u32],
        returns: &[f64],
        visits: u32,
        offset: f64,
    ) {
        for &i in path {
            let n = &mut self.nodes[i as usize];
            n.visits += visits;
            n.value += returns[n.mover as usize] + offset;
        }
    }

    /// The child of `node` to descend into: the next untried child if any (drawn at random
    /// from the untried tail), else the best by UCB1. With the solver, children proven lost
    /// for the mover are skipped while others remain.
    pub(super) fn select(&mut self, node: usize, lim: &Limits, rng: &mut Rng) -> usize {
        let parent = self.nodes[node];
        let range = parent.children();
        if parent.tried < parent.len {
            // Children before `first + tried` have been tried; draw the next from the rest.
            let i = range.start + parent.tried as usize;
            let j = i + rng.below(range.end - i);
            self.nodes.swap(i, j);
            self.nodes[node].tried += 1;
            return i;
        }
        let k = lim.c * f64::from(parent.visits.max(1)).ln().sqrt();
        let mut best = range.start;
        let mut best_score = f64::NEG_INFINITY;
        for (i, ch) in self.nodes[range.clone()].iter().enumerate() {
            let inv = 1.0 / f64::from(ch.visits);
            let score = if lim.solver && ch.proof == -1 {
                f64::NEG_INFINITY
            } else {
                ch.value * inv + k * inv.sqrt()
            };
            if score > best_score {
                best_score = score;
                best = range.start + i;
            }
        }
        best
    }

    /// Swaps the child at `i` of `node` to the front of its untried tail when it is untried,
    /// counts it as tried, and returns where it now is.
    pub(super) fn mark_tried(&mut self, node: usize, i: usize) -> usize {
        let parent = self.nodes[node];
        let front = parent.first as usize + parent.tried as usize;
        if i < front {
            return i;
        }
        self.nodes.swap(i, front);
        self.amaf.swap(i, front);
        self.nodes[node].tried += 1;
        front
    }

    /// GRAVE's choice among the children of `node`, whose chooser's closest ancestor (or
    /// `node` itself) with at least `grave_ref` playouts is `reference`.
    ///
    /// A child's score is (1 − β)·mean + β·amaf + c·√(ln N / n), with β = m / (m + n + b·m·n),
    /// n its playouts, m the AMAF playouts of its action at the reference and amaf their mean;
    /// an untried child scores its AMAF mean alone. Untried children without AMAF statistics
    /// (a pass, say, or a site never reached below the reference) come first, drawn at random.
    ///
    /// The reference's statistics are read by action from `s.dense` (loaded once for the
    /// reference and kept in step by [`Tree::update_amaf`]) unless the reference is `node`
    /// itself, whose children's statistics are read in place.
    pub(super) fn select_grave(
        &mut self,
        node: usize,
        reference: usize,
        lim: &Limits,
        rng: &mut Rng,
        s: &mut Scratch,
    ) -> usize {
        let parent = self.nodes[node];
        let range = parent.children();
        // c = 0 (GRAVE's default) makes k 0 whatever ln N is: no logarithm then.
        let k = if lim.c > 0.0 {
            lim.c * f64::from(parent.visits.max(1)).ln().sqrt()
        } else {
            0.0
        };
        let kids = &self.nodes[range.clone()];
        let tried = usize::from(parent.tried).min(kids.len());
        let mut pick = GravePick::new(lim.solver, lim.grave_bias, k);
        let j = if reference == node {
            let stats = &self.amaf[range.clone()];
            let stats = &stats[..kids.len()];
            pick.scan(kids, tried, rng, |j, _| stats[j])
        } else {
            let p = usize::from(kids.first().map_or(0, |ch| ch.mover));
            self.load_dense(s, p, reference);
            let row = &s.dense[p * s.actions..(p + 1) * s.actions];
            pick.scan(kids, tried, rng, |_, ch| {
                row.get(usize::from(ch.action)).copied().unwrap_or_default()
            })
        };
        self.mark_tried(node, range.start + j)
    }

    /// Makes player `p`'s row of `s.dense` hold the AMAF statistics of the children of
    /// `reference` by action (the row of the node it held before is cleared first).
    pub(super) fn load_dense(&self, s: &mut Scratch, p: usize, reference: usize) {
        if s.dense_of[p] == reference {
            return;
        }
        let row = &mut s.dense[p * s.actions..(p + 1) * s.actions];
        if let Some(old) = self.nodes.get(s.dense_of[p]) {
            for ch in &self.nodes[old.children()] {
                if let Some(d) = row.get_mut(usize::from(ch.action)) {
                    *d = Amaf::default();
                }
            }
        }
        let r = self.nodes[reference].children();
        for (ch, am) in self.nodes[r.clone()].iter().zip(&self.amaf[r]) {
            if let Some(d) = row.get_mut(usize::from(ch.action)) {
                *d = *am;
            }
        }
        s.dense_of[p] = reference;
    }

    /// GRAVE's update after an iteration: every child, along the path, whose action its mover
    /// played later in the iteration (in the tree or the playout) adds the return to its AMAF
    /// statistics. Only site actions (below `sites`) take AMAF statistics.
    pub(super) fn update_amaf(&mut self, s: &mut Scratch, sites: usize) {
        let actions = s.actions;
        s.stamp = s.stamp.wrapping_add(1);
        if s.stamp == 0 {
            s.seen.fill(0);
            s.stamp = 1;
        }
        let now = s.stamp;
        let sites = sites.min(actions);
        for &(p, a) in &s.played {
            let a = usize::from(a);
            if a < sites {
                s.seen[usize::from(p) * actions + a] = now;
            }
        }
        for d in (0..s.path.len().saturating_sub(1)).rev() {
            let child = self.nodes[s.path[d + 1] as usize];
            let p = usize::from(child.mover);
            let a = usize::from(child.action);
            if a < sites {
                s.seen[p * actions + a] = now;
            }
            let ret = s.returns[p] as f32;
            let row = &s.seen[p * actions..(p + 1) * actions];
            let parent = s.path[d] as usize;
            let range = self.nodes[parent].children();
            let kids = &self.nodes[range.clone()];
            let stats = &mut self.amaf[range];
            // The reference row of `p` copies these statistics when it is this node's.
            let mut dense =
                (s.dense_of[p] == parent).then(|| &mut s.dense[p * actions..(p + 1) * actions]);
            for (ch, am) in kids.iter().zip(stats.iter_mut()) {
                let a = usize::from(ch.action);
                if row.get(a) == Some(&now) {
                    am.value += ret;
                    am.visits += 1;
                    if let Some(d) = dense.as_deref_mut().and_then(|r| r.get_mut(a)) {
                        *d = *am;
                    }
                }
            }
        }
    }

    /// MAST's update after an iteration: every action of the tree path and the playout adds
    /// the return of the player who made it.
    pub(super) fn update_mast(&self, s: &mut Scratch, actions: usize) {
        for &i in &s.path[1..] {
            let n = self.nodes[i as usize];
            s.mast[usize::from(n.mover) * actions + usize::from(n.action)]
                .add(s.returns[usize::from(n.mover)] as f32);
        }
        for &(p, a) in &s.played {
            s.mast[usize::from(p) * actions + usize::from(a)].add(s.returns[usize::from(p)] as f32);
        }
    }

    /// One iteration; false (and nothing changed but the tree's scratch) when the node limit
    /// stopped it.
    pub(super) fn iterate<R: Knowledge>(
        &mut self,
        root: &R,
        state: &mut R,
        lim: &Limits,
        rng: &mut Rng,
        s: &mut Scratch,
    ) -> bool {
        state.clone_from(root);
        s.path.clear();
        s.path.push(0);
        s.played.clear();
        let grave = lim.selection == Selection::Grave;
        // GRAVE: per player, the deepest node so far on the path where that player chooses and
        // which has at least `grave_ref` playouts.
        let mut refs = [usize::MAX; MAX_PLAYERS];
        let mut node = 0usize;
        let mut proven_leaf = false;
        loop {
            let n = self.nodes[node];
            if node != 0 && n.proof != OPEN {
                // A proven node (a draw, or a terminal): its outcome needs no playout.
                let other = 1 - n.mover as usize;
                s.returns[n.mover as usize] = f64::from(n.proof);
                s.returns[other] = -f64::from(n.proof);
                break;
            }
            if n.first == 0 {
                if state.is_terminal() {
                    terminal_returns(state, s);
                    proven_leaf = lim.solver;
                    break;
                }
                if node != 0 && n.visits == 0 {
                    // A new node: evaluate it by a playout.
                    if lim.records() {
                        recorded_playout(state, rng, s, lim.playouts);
                    } else {
                        state.random_playout(rng, &mut s.buf);
                    }
                    terminal_returns(state, s);
                    break;
                }
                if !self.expand(node, state, lim.max_nodes, &mut s.buf) {
                    return false;
                }
            }
            let child = if grave {
                let chooser = usize::from(self.nodes[self.nodes[node].first as usize].mover);
                if n.visits >= lim.grave_ref {
                    refs[chooser] = node;
                }
                match refs[chooser] {
                    usize::MAX => self.select(node, lim, rng),
                    r => self.select_grave(node, r, lim, rng, s),
                }
            } else {
                self.select(node, lim, rng)
            };
            state.apply_unchecked(self.nodes[child].action as usize);
            s.path.push(child as u32);
            node = child;
        }
        if proven_leaf {
            let n = &mut self.nodes[node];
            let v = s.returns[n.mover as usize];
            n.proof = if v > 0.0 {
                1
            } else if v < 0.0 {
                -1
            } else {
                0
            };
        }
        self.backup(&s.path, &s.returns, 1, 0.0);
        if grave {
            self.update_amaf(s, root.board().num_sites());
        }
        if lim.playouts.uses_mast() {
            self.update_mast(s, root.num_actions());
        }
        if proven_leaf {
            self.propagate_proof(s);
        }
        true
    }

    /// Carries a new proof at the end of `s.path` up the path as far as it decides parents.
    pub(super) fn propagate_proof(&mut self, s: &Scratch) {
        for w in (1..s.path.len()).rev() {
            let child = self.nodes[s.path[w] as usize];
            let parent_i = s.path[w - 1] as usize;
            let parent = self.nodes[parent_i];
            if parent.proof != OPEN {
                return;
            }
            // The children's mover chooses at the parent.
            let chooser = child.mover;
            let best = if child.proof == 1 {
                1
            } else {
                let mut best = -1i8;
                for i in parent.children() {
                    let p = self.nodes[i].proof;
                    if p == OPEN {
                        return;
                    }
                    best = best.max(p);
                }
                best
            };
            self.nodes[parent_i].proof = flip(best, chooser, parent.mover);
        }
    }

    /// Re-roots the tree at the node reached by `actions` from the root, keeping its subtree
    /// (compacted into a new arena); `None` when that node was never created. `mover` is the
    /// player to move at the new root.
    pub(super) fn descend(&self, actions: &[u32], mover: u8) -> Option<Tree> {
        let mut node = 0usize;
        for &a in actions {
            let n = self.nodes[node];
            node = n
                .children()
                .find(|&i| u32::from(self.nodes[i].action) == a)?;
        }
        let mut root = self.nodes[node];
        if root.proof != OPEN {
            root.proof = flip(root.proof, root.mover, mover);
        }
        // The root scores for the player to move there, who is the mover of its children:
        // every iteration passes through one child, so their sums are the root's.
        root.mover = mover;
        root.visits = root.children().map(|i| self.nodes[i].visits).sum();
        root.value = root.children().map(|i| self.nodes[i].value).sum();
        let keep_amaf = !self.amaf.is_empty();
        let mut out = Tree {
            nodes: Vec::with_capacity(self.nodes.len()),
            amaf: Vec::new(),
        };
        out.nodes.push(root);
        if keep_amaf {
            out.amaf.push(Amaf::default());
        }
        // Breadth first: (old index, new index) of nodes whose children still need copying.
        let mut queue = std::collections::VecDeque::new();
        queue.push_back((node, 0usize));
        while let Some((old, new)) = queue.pop_front() {
            let n = self.nodes[old];
            if n.first == 0 {
                out.nodes[new].first = 0;
                continue;
            }
            let first = out.nodes.len();
            out.nodes[new].first = first as u32;
            for (k, i) in n.children().enumerate() {
                out.nodes.push(self.nodes[i]);
                if keep_amaf {
                    out.amaf.push(self.amaf[i]);
                }
                queue.push_back((i, first + k));
            }
        }
        Some(out)
    }
}
