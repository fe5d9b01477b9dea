//! Exact values of two-player positions: negamax alpha-beta over [`Rules`], with the shared
//! transposition table of [`super::table`].
//!
//! * **Values.** The outcome for the player to move (+1 win, 0 draw, −1 loss, from the game's
//!   `returns()`, so a truncation by the move cap is a draw), or with `margin` the final score
//!   difference (mover − other, from `scores()`; 0 for a truncated game).
//! * **Turns.** A child whose mover is the same player (Faraday's runs of placements, skipped
//!   turns) keeps the sign; a child with the other player to move negates it.
//! * **The move cap.** Keys leave the move count out, but a position with fewer moves left may
//!   have another value. Every entry says whether its value rests on any line that reached the
//!   cap: if none did, it holds whenever at least as many moves are left as its longest line
//!   used; otherwise only for exactly the same number of moves left. With the cap the game tree
//!   is finite, so a position repeated on the current line is simply searched again with fewer
//!   moves left: results stay exact without any repetition rule.
//! * **Ordering.** The table's best action first, then the others by [`Order`]: the game's
//!   knowledge score ([`Knowledge::playout_score`]) where the game chose it, and a history score
//!   (actions that caused cut-offs before, weighted by the depth left); ties by action. With a
//!   [`Guide`] (a trained network), positions up to [`SolveOptions::guide_depth`] moves below
//!   the root are ordered by its scores instead (still after the table's move): few positions,
//!   each the root of a large subtree, where a good first try saves the most.
//! * **Cut-offs from the table.** Before any child is searched, every child is made and its
//!   table entry read (the buckets prefetched together, so the misses overlap); a child whose
//!   entry refutes the window, or that ends the game at the cut, cuts the position off
//!   (enhanced transposition cut-offs, [`SolveOptions::cutoff_probes`]). The children are then
//!   searched as made. Not at positions of more than [`MAX_CUTOFF_ACTIONS`] actions, where
//!   keeping the children of every position on the line would cost too much memory.
//!
//! The root's bookkeeping (budgets, partial results, threads, the perfect line) is
//! [`super::root`]'s, the same for both methods.

use super::common::{
    guide_key, outcome, Budget, Exact, Guide, Images, Order, Reach, SolveOptions, Symmetry,
    ACTION_BITS,
};
use super::table::{work_of, Bound, Entry, Table, NO_MOVE, UNLIMITED};
use crate::games::{Knowledge, Rules};

/// Values beyond every real one (scores stay far inside ±10⁴).
const INF: i32 = 30_000;

/// The most actions a position may have for its children's entries to be read first (and its
/// children kept until they are searched): the children of every position on the current line
/// are kept at once, so on large boards (Subsume size 20 has about a thousand actions a
/// position) keeping them all would take gigabytes.
pub const MAX_CUTOFF_ACTIONS: usize = 64;

/// One thread's search.
pub(super) struct Searcher<'a, R: Rules> {
    table: &'a Table<'a>,
    budget: &'a Budget<'a>,
    symmetry: Option<&'a Symmetry>,
    margin: bool,
    cap: Option<usize>,
    /// Legal-action buffers, one per ply.
    bufs: Vec<Vec<u32>>,
    /// Child positions, one per ply, copied over with `clone_from` (no allocation a node).
    kids: Vec<Option<R>>,
    /// With symmetries, the board parts of the images of the position at each ply, set by its
    /// parent from the cells the move changed (`Symmetry::update`).
    images: Vec<Images>,
    history: Vec<u32>,
    /// The order after the table's move (never [`Order::Auto`]).
    order: Order,
    /// The ordering's packed keys (the node being ordered only).
    keys: Vec<u64>,
    /// The guide, its depth, and its scores (the node being ordered only).
    guide: Option<Box<dyn Guide<R>>>,
    guide_depth: usize,
    scores: Vec<f32>,
    /// Enhanced transposition cut-offs at positions with at least this many actions (0: none).
    cutoff_probes: usize,
    /// The children's table keys, whether their mover is the parent's, and their moves left
    /// (the node being cut off only; `None` for a finished game).
    probes: Vec<Option<(u64, bool, u32)>>,
    /// Per ply, the children made for the cut-off's probes, searched next without making
    /// them again.
    families: Vec<Vec<R>>,
    /// Nodes not yet charged to the budget.
    pending: u64,
    /// Nodes this searcher has searched (the work of a subtree is the difference).
    searched: u64,
    _game: std::marker::PhantomData<R>,
}

impl<'a, R: Knowledge> Searcher<'a, R> {
    pub(super) fn new(
        table: &'a Table<'a>,
        budget: &'a Budget<'a>,
        symmetry: Option<&'a Symmetry>,
        opts: &SolveOptions,
        actions: usize,
        order: Order,
        guide: Option<Box<dyn Guide<R>>>,
    ) -> Self {
        Searcher {
            table,
            budget,
            symmetry,
            margin: opts.margin,
            cap: opts.max_moves,
            bufs: Vec::new(),
            kids: Vec::new(),
            images: Vec::new(),
            history: vec![0; actions],
            order,
            keys: Vec::new(),
            guide,
            guide_depth: opts.guide_depth,
            scores: Vec::new(),
            cutoff_probes: opts.cutoff_probes,
            probes: Vec::new(),
            families: Vec::new(),
            pending: 0,
            searched: 0,
            _game: std::marker::PhantomData,
        }
    }

    /// Moves left before the cap (`UNLIMITED` without one).
    fn left(&self, s: &R) -> u32 {
        match self.cap {
            Some(c) => (c.saturating_sub(s.move_count()) as u32).min(UNLIMITED - 1),
            None => UNLIMITED,
        }
    }

    /// The value of a finished game for `player`.
    fn terminal(&self, s: &R, player: usize) -> (i32, Reach) {
        let reach = Reach {
            depth: 0,
            capped: s.truncated(),
        };
        if self.margin {
            if s.truncated() {
                return (0, reach);
            }
            let sc = s.scores().unwrap_or_default();
            let mine = sc.get(player).copied().unwrap_or(0.0);
            let theirs = sc.get(1 - player).copied().unwrap_or(0.0);
            return ((mine - theirs).round() as i32, reach);
        }
        (outcome(s, player), reach)
    }

    /// The value of `child` (just reached from a position of `mover`) for `mover`, searched
    /// within (alpha, beta) of `mover`'s values. `None` once the budget stopped the search.
    fn child_value(
        &mut self,
        child: &R,
        mover: usize,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<(i32, Reach)> {
        match child.current_player() {
            None => Some(self.terminal(child, mover)),
            Some(p) if p == mover => self.search(child, alpha, beta, ply),
            Some(_) => self.search(child, -beta, -alpha, ply).map(|(v, r)| (-v, r)),
        }
    }

    /// Negamax with fail-soft bounds: the value of the running position `s` for its mover, exact
    /// when strictly inside (alpha, beta), else a bound on the failing side.
    fn search(&mut self, s: &R, mut alpha: i32, beta: i32, ply: usize) -> Option<(i32, Reach)> {
        self.pending += 1;
        self.searched += 1;
        let start = self.searched;
        if self.budget.due(self.pending) {
            let n = std::mem::take(&mut self.pending);
            if !self.budget.charge(n) {
                return None;
            }
        }
        let mover = s.current_player()?;
        let left = self.left(s);
        // The table's key, and the symmetry that takes the position to the one it stands for.
        let (key, image) = match self.symmetry {
            Some(y) => y.pick(&self.images[ply], s.key()),
            None => (s.key(), 0),
        };
        let mut first = NO_MOVE;
        if let Some(mut e) = self.table.probe(key) {
            if let Some(y) = self.symmetry {
                e.best = y.back_from_image(image, e.best);
            }
            if e.usable(left) {
                let reach = Reach {
                    depth: if e.cap_free { e.moves } else { 0 },
                    capped: !e.cap_free,
                };
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.value >= beta,
                    Bound::Upper => e.value <= alpha,
                };
                if cut {
                    return Some((e.value, reach));
                }
            }
            first = e.best;
        }
        let alpha0 = alpha;
        if self.bufs.len() <= ply {
            self.bufs.resize_with(ply + 1, Vec::new);
            self.kids.resize_with(ply + 1, || None);
        }
        if self.symmetry.is_some() && self.images.len() <= ply + 1 {
            self.images.resize(ply + 2, Images::default());
        }
        let mut moves = std::mem::take(&mut self.bufs[ply]);
        let mut child = self.kids[ply].take().unwrap_or_else(|| s.clone());
        s.legal_actions_into(&mut moves);
        // The table's move first, then the order's keys (the game's own knowledge,
        // `Knowledge::playout_score`: in Subsume the perimeter, in Windflowers the safe actions; and
        // history), then the lower action: one packed key an action, sorted without allocating.
        // Near the root, the guide's scores instead (one evaluation a position).
        let guided = match &mut self.guide {
            Some(g) if ply <= self.guide_depth && moves.len() > 1 => {
                g.rank(s, &moves, &mut self.scores);
                self.scores.len() == moves.len()
            }
            _ => false,
        };
        let history = &self.history;
        let scores = &self.scores;
        let order = self.order;
        self.keys.clear();
        self.keys.extend(moves.iter().enumerate().map(|(i, &a)| {
            let h = u64::from(u32::MAX - history.get(a as usize).copied().unwrap_or(0));
            let score = || u64::from(255 - s.playout_score(a as usize).min(255));
            let rest = match order {
                _ if guided => guide_key(scores[i]) << 23,
                Order::History => h << 23,
                Order::HistoryKnowledge => h << 31 | score() << 23,
                Order::Knowledge | Order::Auto => score() << 55 | h << 23,
            };
            u64::from(a != first) << 63 | rest | u64::from(a)
        }));
        self.keys.sort_unstable();
        for (m, k) in moves.iter_mut().zip(&self.keys) {
            *m = (k & ACTION_BITS) as u32;
        }
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        let mut reach = Reach::default();
        let mut aborted = false;
        let top = if self.margin { INF } else { 1 };
        let probing = self.cutoff_probes != 0
            && moves.len() >= self.cutoff_probes
            && moves.len() <= MAX_CUTOFF_ACTIONS;
        if probing && self.families.len() <= ply {
            self.families.resize_with(ply + 1, Vec::new);
        }
        let mut family = if probing {
            std::mem::take(&mut self.families[ply])
        } else {
            Vec::new()
        };
        // Enhanced transposition cut-offs: every child is made and its table entry read before
        // any is searched (then searched as made). Tried after the first child instead, they
        // saved less on most boards (docs/solved/index.md, "Speed and memory").
        let cut = if probing {
            self.cutoff(s, &moves, &mut family, mover, beta.min(top), ply)
        } else {
            None
        };
        if let Some((v, r, a)) = cut {
            reach.join(r);
            best = v;
            best_move = a;
            if let Some(h) = self.history.get_mut(a as usize) {
                *h = h.saturating_add(1 + left.min(64));
            }
        }
        for (i, &a) in moves.iter().enumerate() {
            if cut.is_some() {
                break;
            }
            // The children the cut-off made (none when it did not run), else made here.
            let child = match family.get(i) {
                Some(made) => made,
                None => {
                    child.clone_from(s);
                    child.apply_unchecked(a as usize);
                    &child
                }
            };
            if let Some(y) = self.symmetry {
                // The child's images: the parent's, brought along by the changed cells.
                let (parent, below) = self.images.split_at_mut(ply + 1);
                below[0] = parent[ply];
                y.update(&mut below[0], s.cells(), child.cells());
            }
            let Some((v, r)) = self.child_value(child, mover, alpha, beta, ply + 1) else {
                aborted = true;
                break;
            };
            reach.join(r);
            if v > best {
                best = v;
                best_move = a;
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta || best >= top {
                if let Some(h) = self.history.get_mut(a as usize) {
                    *h = h.saturating_add(1 + left.min(64));
                }
                break;
            }
        }
        self.bufs[ply] = moves;
        self.kids[ply] = Some(child);
        if probing {
            self.families[ply] = family;
        }
        if aborted {
            return None;
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta || best >= top {
            Bound::Lower
        } else {
            Bound::Exact
        };
        // A win (the largest outcome) and an upper bound of a loss are exact whatever the
        // window.
        let extreme = best == 1 || (best == -1 && bound == Bound::Upper);
        let bound = if !self.margin && extreme {
            Bound::Exact
        } else {
            bound
        };
        let e = Entry {
            value: best,
            bound,
            cap_free: !reach.capped,
            moves: if reach.capped { left } else { reach.depth },
            best: match self.symmetry {
                Some(y) => y.onto_image(image, best_move),
                None => best_move,
            },
            work: work_of(self.searched - start + 1),
        };
        self.table.store(key, e);
        Some((best, reach))
    }

    /// An enhanced transposition cut-off of the running position `s` (of `mover`, ordered
    /// actions `moves`): the value for `mover`, what it rests on and the action of the first
    /// child that ends the game at `cut` or more, or whose table entry says so (every child's
    /// bucket is asked of memory before any is read, so the misses overlap, and the children's
    /// own searches then find their buckets in the cache). The children are made into `family`,
    /// in the order of `moves`.
    fn cutoff(
        &mut self,
        s: &R,
        moves: &[u32],
        family: &mut Vec<R>,
        mover: usize,
        cut: i32,
        ply: usize,
    ) -> Option<(i32, Reach, u32)> {
        self.probes.clear();
        for (i, &a) in moves.iter().enumerate() {
            if family.len() <= i {
                family.push(s.clone());
            }
            let child = &mut family[i];
            child.clone_from(s);
            child.apply_unchecked(a as usize);
            let Some(p) = child.current_player() else {
                let (v, r) = self.terminal(child, mover);
                if v >= cut {
                    return Some((v, r, a));
                }
                self.probes.push(None);
                continue;
            };
            let key = match self.symmetry {
                Some(y) => {
                    let mut images = self.images[ply];
                    y.update(&mut images, s.cells(), child.cells());
                    y.pick(&images, child.key()).0
                }
                None => child.key(),
            };
            self.table.prefetch(key);
            self.probes.push(Some((key, p == mover, self.left(child))));
        }
        for (&a, probe) in moves.iter().zip(&self.probes) {
            let Some((key, same, left)) = *probe else {
                continue;
            };
            let Some(e) = self.table.probe(key) else {
                continue;
            };
            if !e.usable(left) {
                continue;
            }
            // The entry's value for `mover`, when it is a lower bound of it.
            let at_least = match (same, e.bound) {
                (_, Bound::Exact) | (true, Bound::Lower) | (false, Bound::Upper) => {
                    if same {
                        e.value
                    } else {
                        -e.value
                    }
                }
                _ => continue,
            };
            if at_least >= cut {
                let reach = Reach {
                    depth: if e.cap_free { e.moves } else { 0 },
                    capped: !e.cap_free,
                };
                return Some((at_least, reach, a));
            }
        }
        None
    }

    /// The exact value of `child` for `mover`.
    fn exact(&mut self, child: &R, mover: usize) -> Option<i32> {
        let (lo, hi) = if self.margin { (-INF, INF) } else { (-2, 2) };
        if let Some(y) = self.symmetry {
            if self.images.len() < 2 {
                self.images.resize(2, Images::default());
            }
            self.images[1] = y.images(child.cells());
        }
        self.child_value(child, mover, lo, hi, 1).map(|(v, _)| v)
    }

    fn flush(&mut self) {
        let n = std::mem::take(&mut self.pending);
        self.budget.charge(n);
    }

    /// What the table holds for `s`: its best action (mapped back from the image it was
    /// stored under; `None` if it names none) and the work its value cost (the bit length of
    /// the nodes searched for it), if it holds an entry.
    pub(super) fn table_entry(&self, s: &R) -> Option<(Option<u32>, u32)> {
        let (key, image) = match self.symmetry {
            Some(y) => y.canonical(s.cells(), s.key()),
            None => (s.key(), 0),
        };
        let e = self.table.probe(key)?;
        let best = match self.symmetry {
            Some(y) => y.back_from_image(image, e.best),
            None => e.best,
        };
        Some(((best != NO_MOVE).then_some(best), e.work))
    }
}

impl<R: Knowledge> Exact<R> for Searcher<'_, R> {
    fn exact(&mut self, child: &R, mover: usize) -> Option<i32> {
        Searcher::exact(self, child, mover)
    }
    fn flush(&mut self) {
        Searcher::flush(self)
    }
}
