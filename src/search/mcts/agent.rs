//! The [`Mcts`] agent, which can keep its tree between moves.

use super::*;

/// The tree kept by an agent with `reuse` between searches, with the position it was grown
/// from.
#[derive(Clone, Debug)]
pub(super) struct Kept {
    pub(super) state: State,
    pub(super) history: Vec<u32>,
    pub(super) trees: Vec<Tree>,
}

impl Kept {
    /// The kept trees re-rooted at `state`, when `history` extends the kept history, replaying
    /// the extra actions from the kept position gives `state`, and the trees hold that path.
    pub(super) fn follow(&self, state: &State, history: &[u32]) -> Option<Vec<Tree>> {
        let extra = history.strip_prefix(&self.history[..])?;
        if !same_game(&self.state.game(), &state.game()) {
            return None;
        }
        let mut replay = self.state.clone();
        for &a in extra {
            replay.apply(i64::from(a)).ok()?;
        }
        if replay.cells() != state.cells()
            || replay.current_player() != state.current_player()
            || replay.move_count() != state.move_count()
        {
            return None;
        }
        let mover = state.current_player()? as u8;
        self.trees.iter().map(|t| t.descend(extra, mover)).collect()
    }
}

/// An MCTS agent: its settings and, with `reuse`, the trees of its last search.
///
/// Tree reuse: when asked about a position that follows the last one searched in the same game
/// (its history extends the earlier history and the tree holds the path between them), the
/// search starts from that subtree, so the statistics of earlier searches count. It is off by
/// default because a result then depends on the searches before it, not only on the state and
/// the seed.
#[derive(Clone, Debug)]
pub struct Mcts {
    pub(super) config: MctsConfig,
    pub(super) kept: Option<Box<Kept>>,
    pub(super) node_cap: usize,
}

/// The share of its time budget that [`Mcts::decide`] spends on a forced move.
pub const FORCED_TIME_SHARE: f64 = 0.1;

/// The time budget [`Mcts::decide`] searches a root of `legal` actions with.
pub(in crate::search) fn time_to_decide(time: Option<f64>, legal: usize) -> Option<f64> {
    time.map(|t| if legal == 1 { t * FORCED_TIME_SHARE } else { t })
}

pub(super) fn same_game(a: &Game, b: &Game) -> bool {
    a.name() == b.name() && a.options() == b.options()
}

impl Mcts {
    /// An agent with checked settings.
    pub fn new(config: MctsConfig) -> Result<Mcts> {
        config.validate()?;
        Ok(Mcts {
            config,
            kept: None,
            node_cap: usize::MAX,
        })
    }

    /// Caps the tree below `max_nodes` for the searches to come, at least
    /// [`MIN_NODES_PER_THREAD`] per thread (the caller's estimate of the memory there is, say);
    /// a search that reaches the cap stops as at the node limit (`StoppedBy::Nodes`).
    pub fn cap_nodes(&mut self, cap: usize) {
        self.node_cap = cap.max(MIN_NODES_PER_THREAD * self.config.threads);
    }

    /// The settings.
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// Forgets any kept tree.
    pub fn reset(&mut self) {
        self.kept = None;
    }

    /// Searches `state`, whose game went through `history` from the start (used only for tree
    /// reuse; pass `&[]` when unknown). Fails with [`Error::GameOver`] on a finished game.
    pub fn search(&mut self, state: &State, history: &[u32]) -> Result<SearchResult> {
        self.search_until(state, history, None)
    }

    /// [`Mcts::search`] that also ends, within a few iterations, once `stop` is set (its result
    /// then says [`StoppedBy::Interrupted`]).
    pub fn search_until(
        &mut self,
        state: &State,
        history: &[u32],
        stop: Option<&AtomicBool>,
    ) -> Result<SearchResult> {
        self.search_as(state, history, stop, false)
    }

    /// The search an agent plays by: [`Mcts::search_until`], except that a move with no choice
    /// (one legal action) under a time budget is searched for [`FORCED_TIME_SHARE`] of that
    /// time, enough for a value and the tree below it, not for a choice that cannot change.
    /// An iteration budget is spent in full, so such a search plays and reports as before.
    pub fn decide(
        &mut self,
        state: &State,
        history: &[u32],
        stop: Option<&AtomicBool>,
    ) -> Result<SearchResult> {
        self.search_as(state, history, stop, true)
    }

    pub(super) fn search_as(
        &mut self,
        state: &State,
        history: &[u32],
        stop: Option<&AtomicBool>,
        deciding: bool,
    ) -> Result<SearchResult> {
        let started = Instant::now();
        check_state(state)?;
        let k = self.config.threads;
        let mut trees = match self.kept.take() {
            Some(kept) if self.config.reuse => kept.follow(state, history).unwrap_or_default(),
            _ => Vec::new(),
        };
        if trees.len() != k {
            trees = (0..k)
                .map(|_| each_state!(state, s => Tree::new(s)))
                .collect();
        }
        let mut config = self.config.resolved(state.game_name());
        if deciding {
            config.time = time_to_decide(config.time, state.legal_actions().len());
        }
        let res = each_state!(state, s => search_typed(s, &config, &mut trees, started, stop, self.node_cap))?;
        if self.config.reuse {
            self.kept = Some(Box::new(Kept {
                state: state.clone(),
                history: history.to_vec(),
                trees,
            }));
        }
        Ok(res)
    }
}
