//! One game's facts: [`GameStats`], the tracker that gathers them position by position, and
//! the two drivers that feed it (a random game played and measured in one pass, a replay).

use super::*;

/// Number of progress bins for the branching factor over the game.
pub const BINS: usize = 10;

/// What the lab learns from one game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameStats {
    /// Number of players (the length of [`GameStats::returns`] and the others).
    pub players: usize,
    /// Actions played (L).
    pub length: u32,
    /// Runs of consecutive actions by the same player.
    pub turns: u32,
    /// Sum over the decisions of the number of legal actions.
    pub branching_sum: f64,
    /// Decisions with more than one legal action.
    pub multi_choice: u32,
    /// Legal actions summed over each tenth of the game's decisions (0 for an empty tenth;
    /// see the module docs for which decisions a tenth holds).
    pub branching_bins: [u32; BINS],
    /// Share of sites ever occupied.
    pub coverage: f64,
    /// Positions repeating an earlier one.
    pub repeated: u32,
    /// Whether the raw final scores tie for first (false for games without scores).
    pub top_tied: bool,
    /// The pie choice ([`Measure::pie_actions`]): 1 swap, 0 accept, −1 none.
    pub pie: i8,
    /// Whether the move cap ended the game.
    pub truncated: bool,
    /// Whether the game has scores.
    pub has_scores: bool,
    pub(crate) returns: [f64; MAX_PLAYERS],
    pub(crate) ranks: [f64; MAX_PLAYERS],
    pub(crate) scores: [f64; MAX_PLAYERS],
    /// The facts of the columns the game declares ([`Measure::final_columns`]), then zeros.
    pub game: [f64; MAX_DECLARED],
    /// Ludii-style state-evaluation metrics (see the module docs).
    pub lead_change: f64,
    pub drama: f64,
    pub decisiveness: f64,
    pub threshold: f64,
    pub stability: f64,
}

impl GameStats {
    /// Final returns, one per player.
    pub fn returns(&self) -> &[f64] {
        &self.returns[..self.players]
    }

    /// Final ranks, one per player.
    pub fn ranks(&self) -> &[f64] {
        &self.ranks[..self.players]
    }

    /// Final raw scores, for games with scores.
    pub fn scores(&self) -> Option<&[f64]> {
        self.has_scores.then_some(&self.scores[..self.players])
    }
}

/// Buffers reused from game to game by one thread.
#[derive(Debug, Default)]
pub struct Scratch {
    pub(crate) legal: Vec<u32>,
    /// The decisions of the game, in order.
    pub(crate) steps: Vec<Step>,
    /// What evaluates each decision, in order, unless [`TwoSums`] keeps the evaluations.
    pub(crate) decisions: Vec<Decision>,
    /// The keys of the positions s_0 … s_L, for games without levels.
    pub(crate) keys: Vec<u64>,
    /// The keys of the latest positions of one level, for games with levels.
    pub(crate) run: Vec<u64>,
    pub(crate) seen: KeySet,
    /// The bitmap that screens the keys for repeats (all zeros between games).
    pub(crate) filter: Vec<u64>,
    pub(crate) occupied: Vec<bool>,
    pub(crate) flood: FloodScratch,
    /// The declared facts at the end of each tenth of the game last measured ([`Scratch::series`]).
    pub(crate) series: Vec<f64>,
    /// The [`Measure::facts_snapshot`] of each position s_0 … s_L, one after the other, for
    /// games that declare columns and give snapshots.
    pub(crate) snapshots: Vec<u64>,
}

impl Scratch {
    /// The actions of the game last measured, in order.
    pub fn actions(&self) -> impl ExactSizeIterator<Item = u32> + '_ {
        self.steps.iter().map(|d| d.action)
    }

    /// The series of the game last measured: the facts of every column the game declares
    /// ([`Measure::final_columns`]) at the end of each tenth of the game (see the module docs),
    /// column j's tenth k at `j * BINS + k`. Empty for games that declare no columns.
    pub fn series(&self) -> &[f64] {
        &self.series
    }
}

/// Writes into `out` the declared facts at the end of each tenth of a game of `actions` played
/// from `start` (column j's tenth k at `j * BINS + k`): those of the position s_{e_k},
/// e_k = ⌈(k + 1) L / 10⌉. `last` holds the facts of the last position s_L, which every tenth
/// ending there takes as they are; a tenth that holds no decision (L < 10) ends where the tenth
/// before it ended. The other positions' facts come from their snapshots when `snapshots`
/// holds one of `width` words for each of s_0 … s_L ([`Measure::facts_snapshot`]), else from
/// replaying the actions once. Leaves `out` empty when the game declares nothing (`last`
/// empty), at no cost.
pub(crate) fn tenth_facts<R: Measure>(
    start: &R,
    actions: &[Step],
    last: &[f64],
    snapshots: &[u64],
    width: usize,
    out: &mut Vec<f64>,
) {
    out.clear();
    let declared = last.len();
    if declared == 0 {
        return;
    }
    out.resize(declared * BINS, 0.0);
    let big_l = actions.len();
    let snapped = width > 0 && snapshots.len() == width * (big_l + 1);
    let mut state = None;
    let mut at = 0;
    let mut facts = [0.0; MAX_DECLARED];
    let facts = &mut facts[..declared];
    let mut done = usize::MAX;
    for k in 0..BINS {
        let end = ((k + 1) * big_l).div_ceil(BINS);
        if end == big_l {
            facts.copy_from_slice(last);
        } else if end != done {
            if snapped {
                start.snapshot_facts(&snapshots[end * width..(end + 1) * width], facts);
            } else {
                let state = state.get_or_insert_with(|| start.clone());
                for d in &actions[at..end] {
                    state.apply_unchecked(d.action as usize);
                }
                at = end;
                state.final_facts(facts);
            }
        }
        done = end;
        for (j, &f) in facts.iter().enumerate() {
            out[j * BINS + k] = f;
        }
    }
}

/// What a driver reports of one decision; the facts are worked out at the end of the game, in
/// tight loops away from the game's own code.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    pub(crate) action: u32,
    /// Legal actions at the decision.
    pub(crate) count: u32,
    /// With [`TwoSums`], what evaluates the decision: the mover's search value (its `f32`
    /// bits) when the decisions carry values, else the heuristic's k_0 − k_1 (`i32` bits).
    pub(crate) eval: u32,
    pub(crate) mover: u8,
}

/// What evaluates the position of a decision (kept only when the evaluations are not summed as
/// they come).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Decision {
    pub(crate) mover: u8,
    /// The heuristic numerators of the position, or (`value` finite) nothing.
    pub(crate) k: [u32; MAX_PLAYERS],
    /// The mover's search value (NaN when the heuristic evaluates the position).
    pub(crate) value: f32,
}

/// Gathers one game's facts position by position (module docs); both drivers feed it.
pub(crate) struct Tracker<'s> {
    pub(crate) s: &'s mut Scratch,
    pub(crate) ev: &'s Evaluator,
    pub(crate) players: usize,
    pub(crate) sites: usize,
    /// The pie's choice actions (accept, swap), in games with a pie rule.
    pub(crate) pie: Option<(u32, u32)>,
    /// Whether sites stay occupied (then coverage is read at the end).
    pub(crate) stays: bool,
    /// Whether every stone comes from an action on its site (then coverage is read from the
    /// actions, and `occupied` holds the start's stones).
    pub(crate) placed: bool,
    /// Whether the decisions carry search values (else the heuristic evaluates them).
    pub(crate) valued: bool,
    /// The level of the latest position (see [`Observer::position`]).
    pub(crate) level: u32,
    /// Whether two positions of one level had equal keys.
    pub(crate) suspect: bool,
    /// Two players and an odd heuristic: the rows are summed as they come ([`TwoSums`]).
    pub(crate) two: bool,
    pub(crate) two_sums: TwoSums,
    /// Words of a position's [`Measure::facts_snapshot`]: 0 unless the game declares columns
    /// and gives snapshots, which the tracker then keeps ([`Observer::snapshots`]).
    pub(crate) snapshot_width: usize,
}

impl<'s> Tracker<'s> {
    /// Starts a game at `start` (whose position the driver then observes first).
    pub(crate) fn new<R: Measure>(s: &'s mut Scratch, ev: &'s Evaluator, start: &R) -> Tracker<'s> {
        let sites = start.board().num_sites();
        s.steps.clear();
        s.decisions.clear();
        s.keys.clear();
        let stays = start.sites_stay_occupied();
        let placed = !stays && start.placed_by_actions();
        s.occupied.clear();
        if !stays {
            s.occupied.resize(sites, false);
        }
        if placed {
            for (o, &c) in s.occupied.iter_mut().zip(start.cells()) {
                *o = c != 0;
            }
        }
        s.run.clear();
        s.snapshots.clear();
        let mut snapshot_width = 0;
        if !start.final_columns().is_empty() {
            start.facts_snapshot(&mut s.snapshots);
            snapshot_width = s.snapshots.len();
            s.snapshots.clear();
        }
        Tracker {
            s,
            ev,
            players: start.num_players().min(MAX_PLAYERS),
            sites,
            pie: start.pie_actions(),
            stays,
            placed,
            valued: false,
            level: u32::MAX,
            suspect: false,
            two: start.num_players() == 2 && ev.odd,
            two_sums: TwoSums::new(),
            snapshot_width,
        }
    }

    /// A decision with the mover's search value `value` as its evaluation.
    pub(crate) fn valued(&mut self, mover: usize, count: usize, action: u32, value: f32) {
        self.valued = true;
        let step = Step {
            action,
            count: count as u32,
            eval: value.to_bits(),
            mover: mover as u8,
        };
        self.s.steps.push(step);
        if self.two {
            self.two_sums.add(two_player_x(&step, self.ev, true));
        } else {
            self.s.decisions.push(Decision {
                mover: mover as u8,
                k: [0; MAX_PLAYERS],
                value,
            });
        }
    }

    pub(crate) fn occupy(&mut self, cells: &[i8]) {
        for (o, &c) in self.s.occupied.iter_mut().zip(cells) {
            *o |= c != 0;
        }
    }

    /// The facts of the game that ended at `end`, started at `start` with the decisions seen.
    pub(crate) fn finish<R: Measure>(mut self, start: &R, end: &R) -> Result<GameStats> {
        let n = self.players;
        let (steps, decisions) = (&self.s.steps, &self.s.decisions);
        let big_l = steps.len();
        let mut st = GameStats {
            players: n,
            length: big_l as u32,
            turns: 0,
            branching_sum: 0.0,
            multi_choice: 0,
            branching_bins: [0; BINS],
            coverage: 0.0,
            repeated: 0,
            top_tied: false,
            pie: -1,
            truncated: end.truncated(),
            has_scores: false,
            returns: [0.0; MAX_PLAYERS],
            ranks: [0.0; MAX_PLAYERS],
            scores: [0.0; MAX_PLAYERS],
            lead_change: 0.0,
            drama: 0.0,
            decisiveness: 0.0,
            threshold: 0.0,
            stability: 0.0,
            game: [0.0; MAX_DECLARED],
        };
        if !end.returns_into(&mut st.ranks[..n], &mut st.returns[..n]) {
            return Err(Error::Record(format!(
                "{}: the game is not over after {big_l} actions",
                end.game_name()
            )));
        }
        st.has_scores = end.scores_into(&mut st.scores[..n]);
        let declared = end.final_columns().len().min(MAX_DECLARED);
        end.final_facts(&mut st.game[..declared]);
        // The same facts at the end of each tenth, from the positions' snapshots (or a replay);
        // for games that declare nothing this clears an empty list.
        let (snapshots, width) = (&self.s.snapshots, self.snapshot_width);
        tenth_facts(
            start,
            steps,
            &st.game[..declared],
            snapshots,
            width,
            &mut self.s.series,
        );
        if st.has_scores {
            let s = &st.scores[..n];
            let top = s.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            st.top_tied = s.iter().filter(|&&x| x == top).count() > 1;
        }

        // Turns, branching and its tenths, in one pass. Decision i is in tenth ⌊10 i / L⌋:
        // tenth k holds i from ⌈k L / 10⌉ to before ⌈(k + 1) L / 10⌉ (no division per decision).
        let mut last = u8::MAX;
        let mut branching = 0u64;
        let edge = |k: usize| (k * big_l).div_ceil(BINS);
        for (k, bin) in st.branching_bins.iter_mut().enumerate() {
            let part = &steps[edge(k)..edge(k + 1)];
            let mut sum = 0u64;
            for d in part {
                st.turns += u32::from(d.mover != last);
                last = d.mover;
                sum += u64::from(d.count);
                st.multi_choice += u32::from(d.count > 1);
            }
            // A tenth holds at most ⌈L / 10⌉ decisions of at most 2³² legal actions each:
            // no game comes near a sum that does not fit.
            *bin = sum as u32;
            branching += sum;
        }
        st.branching_sum = branching as f64;
        if let Some((accept, swap)) = self.pie {
            for d in steps {
                if d.action == accept {
                    st.pie = 0;
                } else if d.action == swap {
                    st.pie = 1;
                }
            }
        }

        // The evaluation rows of s_0 … s_{L−1}, then the returns at s_L.
        let (ev, valued, returns, ranks) = (self.ev, self.valued, &st.returns, &st.ranks[..n]);
        [
            st.lead_change,
            st.drama,
            st.decisiveness,
            st.threshold,
            st.stability,
        ] = match n {
            2 if self.two => {
                self.two_sums.add(returns[0]);
                let xs = steps.iter().map(|d| two_player_x(d, ev, valued));
                self.two_sums.metrics(ranks, xs.chain([returns[0]]))
            }
            2 => every_player_metrics::<2>(decisions, ev, valued, returns, ranks),
            3 => every_player_metrics::<3>(decisions, ev, valued, returns, ranks),
            4 => every_player_metrics::<4>(decisions, ev, valued, returns, ranks),
            _ => every_player_metrics::<1>(decisions, ev, valued, returns, ranks),
        };

        // Repeats: two equal keys mark a candidate, confirmed by comparing whole boards.
        if self.suspect || has_equal_keys(&self.s.keys, &mut self.s.filter, &mut self.s.seen) {
            let actions: Vec<u32> = steps.iter().map(|d| d.action).collect();
            st.repeated = exact_repeats(start, &actions);
        }
        // Where sites stay occupied, those occupied at the end are all that ever were.
        let occupied = if self.stays {
            end.cells().iter().filter(|&&c| c != 0).count()
        } else if self.placed {
            // The start's stones, and the site of every action (others name no site).
            for d in steps {
                if let Some(o) = self.s.occupied.get_mut(d.action as usize) {
                    *o = true;
                }
            }
            self.s.occupied.iter().filter(|&&o| o).count()
        } else {
            self.s.occupied.iter().filter(|&&o| o).count()
        };
        st.coverage = occupied as f64 / self.sites.max(1) as f64;
        Ok(st)
    }
}

impl Observer for Tracker<'_> {
    #[inline(always)]
    fn decision(&mut self, mover: usize, count: usize, action: u32, k: &[u32; MAX_PLAYERS]) {
        // k_0 − k_1, exact: heuristic numerators stay far below 2³¹ on any board.
        let d = k[0].wrapping_sub(k[1]) as i32;
        self.s.steps.push(Step {
            action,
            count: count as u32,
            eval: d as u32,
            mover: mover as u8,
        });
        if self.two {
            self.two_sums.add(self.ev.one(i64::from(d)));
        } else {
            self.s.decisions.push(Decision {
                mover: mover as u8,
                k: *k,
                value: f32::NAN,
            });
        }
    }

    /// Observes a position (s_0 … s_L): its key, level and stones. With levels, a position can
    /// only repeat one of the run of positions at its level, compared at once; without, the
    /// keys are screened when the game ends.
    #[inline(always)]
    fn position(&mut self, key: u64, level: Option<u32>, cells: &[i8]) {
        match level {
            Some(level) => {
                if level != self.level {
                    self.level = level;
                    self.s.run.clear();
                } else if self.s.run.contains(&key) {
                    self.suspect = true;
                }
                self.s.run.push(key);
            }
            None => self.s.keys.push(key),
        }
        if !self.stays && !self.placed {
            self.occupy(cells);
        }
    }

    #[inline(always)]
    fn snapshots(&mut self) -> Option<&mut Vec<u64>> {
        (self.snapshot_width > 0).then_some(&mut self.s.snapshots)
    }
}

/// Plays one game between uniformly random agents from `start`, player p drawing from
/// `rngs[p]` exactly as [`Rules::random_action`](crate::games::Rules::random_action) does, and returns its facts; its actions are
/// then [`Scratch::actions`].
pub fn random_game_stats<R: Measure>(
    start: &R,
    rngs: &mut [Rng],
    ev: &Evaluator,
    scratch: &mut Scratch,
) -> GameStats {
    let mut state = start.clone();
    let mut legal = std::mem::take(&mut scratch.legal);
    let mut flood = std::mem::take(&mut scratch.flood);
    let mut t = Tracker::new(scratch, ev, start);
    state.random_game_observed(rngs, &mut legal, &mut flood, &mut t);
    let stats = t.finish(start, &state);
    scratch.legal = legal;
    scratch.flood = flood;
    // A game played to its end always ranks its players.
    stats.unwrap_or_else(|_| unreachable!("a random game ends with ranks"))
}

/// Replays `actions` from `start` and returns the game's facts. `values`, when given, holds
/// the mover's search value at each decision (as long as `actions`) and replaces the heuristic.
/// Fails when an action is illegal or the game does not end with the last one.
pub fn replay_stats<R: Measure>(
    start: &R,
    actions: &[u32],
    values: Option<&[f32]>,
    ev: &Evaluator,
    scratch: &mut Scratch,
) -> Result<GameStats> {
    check_values(actions, values)?;
    let big_l = actions.len();
    let n = start.num_players().min(MAX_PLAYERS);
    let mut k = [0u32; MAX_PLAYERS];
    let mut state = start.clone();
    let mut legal = std::mem::take(&mut scratch.legal);
    let mut flood = std::mem::take(&mut scratch.flood);
    let mut t = Tracker::new(scratch, ev, start);
    t.position(start.key(), None, start.cells());
    if let Some(out) = t.snapshots() {
        start.facts_snapshot(out);
    }
    let mut outcome = Ok(());
    for (i, &a) in actions.iter().enumerate() {
        let Some(mover) = state.current_player() else {
            outcome = Err(GameOver {
                game: state.game_name(),
                asked: Asked::Replay {
                    played: i,
                    given: big_l,
                },
            }
            .into());
            break;
        };
        state.legal_actions_into(&mut legal);
        // The legal list is at hand: checking against it spares apply's own legality test.
        if legal.binary_search(&a).is_err() {
            if let Err(e) = state.apply(i64::from(a)) {
                outcome = Err(e);
                break;
            }
        }
        match values {
            Some(v) => t.valued(mover, legal.len(), a, v[i]),
            None => {
                state.heuristic_into(&mut flood, &mut k[..n]);
                t.decision(mover, legal.len(), a, &k);
            }
        }
        state.apply_unchecked(a as usize);
        t.position(state.key(), None, state.cells());
        if let Some(out) = t.snapshots() {
            state.facts_snapshot(out);
        }
    }
    let stats = outcome.and_then(|()| t.finish(start, &state));
    scratch.legal = legal;
    scratch.flood = flood;
    stats
}

/// Replays `actions` from the start of `game` and reports the game's facts (see
/// [`replay_stats`]).
pub fn game_stats(game: &Game, actions: &[u32], values: Option<&[f32]>) -> Result<GameStats> {
    let mut scratch = Scratch::default();
    each_state!(game.new_state(), s => {
        let ev = Evaluator::new(&s);
        replay_stats(&s, actions, values, &ev, &mut scratch)
    })
}
