//! Per-game facts for the variant lab, gathered while a game is played or replayed.
//!
//! Everything the lab's metrics need from the positions themselves is computed here, so the
//! Python side only aggregates numbers. Two drivers feed one tracker, which notes each decision
//! (mover, legal count, action, heuristic numerators or search value) and each position's key
//! as the game goes, and works the facts out in tight loops once the game is over:
//! * [`random_game_stats`] plays a game between uniformly random agents and measures it on the
//!   way, with no second pass: the game's own loop ([`Rules::random_game_observed`]) reports the
//!   legal count that comes with each draw ([`Rules::random_action_counted`]), its heuristic
//!   numerators and the key of each position ([`Rules::key`]); the evaluations come
//!   from a table. Random agents are what a variant study runs by the hundred thousand, so
//!   this path is the fast one.
//! * [`replay_stats`] replays a finished game's actions, checking each, with the search values
//!   of agents that have them; [`game_stats`] and [`game_stats_batch`] wrap it.
//!
//! Both give the same facts for the same game (a test holds them to it). Equal keys are
//! confirmed by replaying the game and comparing whole boards; positions with equal boards are
//! equal exactly when their keys are (see [`crate::games::zobrist`]), so `repeated` is exact.
//!
//! # Definitions
//! For a game of L actions, s_0 is the start and s_i the position after action i; the decisions
//! D are s_0 … s_{L−1} (every position where an action was taken).
//! * **turns**: maximal runs of consecutive actions by the same player (a Faraday turn is a run
//!   of placements; the pie offer is player 0's first turn and the choice player 1's).
//! * **branching**: the number of legal actions at each decision; the sum, the count of decisions
//!   with more than one, and the sum per tenth of the game (decision i falls in tenth
//!   ⌊10 i / L⌋, so tenth k holds ⌈(k + 1) L / 10⌉ − ⌈k L / 10⌉ decisions, none when L < 10
//!   leaves it empty; the mean per tenth is the sum over that count).
//! * **coverage**: the share of sites that held a stone in at least one of s_0 … s_L.
//! * **repeated**: how many of s_1 … s_L equal an earlier position of the same game, a position
//!   being everything its key ([`Rules::key`]) covers: the board, the player to move and each
//!   game's own state (Windflowers' passes in a row, and the order of the last placements when
//!   they break ties; Faraday's phase, offer actions left, owed surplus placement and last
//!   placer), so passes in the pie offer and the choice to accept do not count as repeats. The
//!   move count is not part of a position.
//! * **top_tied**: for games with scores, whether the raw scores at the end tie for first
//!   (before any tie-break).
//! * **pie**: in Faraday, 1 when player 1 swapped, 0 when they accepted; −1 in other games.
//!
//! # Evaluation and Ludii's state-evaluation metrics
//! Each position s_0 … s_L gets an evaluation e_p(s) ∈ [−1, 1] for every player p:
//! * the terminal position: e_p = u_p, the player's return;
//! * with search values (one per decision, the mover's root value): the mover m at s_i gets
//!   e_m(s_i) = v_i; with two players the other gets −v_i; with more, every other player keeps
//!   the value of their own latest decision (0 before their first);
//! * otherwise the heuristic: e_p(s) = tanh(H(s, p) − Σ_{o≠p} H(s, o)), where H(s, p) =
//!   k_p / scale is the game's own [`Rules::heuristic_into`] over [`Rules::heuristic_scale`]:
//!   Windflowers, p's base score (stones or largest group) / sites; Faraday, p's score / sites
//!   (special scorings, a product: / (sites² / 4)); the Smallholder, the sites where p may place
//!   by the territory rule / sites (a player who cannot place loses, so room to play is what
//!   matters); Subsume, p's stones / sites. The value is computed as tanh((2 k_p − Σ_o k_o) /
//!   scale), from a table when the numerators are few.
//!
//! With W the players ranked first at the end (all players when the game ties or is
//! truncated), and the leaders of s the players of highest evaluation (exact ties share):
//! * **lead_change** = #{i ∈ 1..=L : leaders(s_i) ≠ leaders(s_{i−1})} / L;
//! * **drama** = mean over s_0 … s_L of mean over w ∈ W of (max_p e_p(s) − e_w(s));
//! * **threshold** T = max of e_p(s) over all positions and players p ∉ W (−1 when W is
//!   everyone); **decisiveness** = (first i with e_w(s_i) > T for some w ∈ W) / L, or 1 when no
//!   position passes it;
//! * **stability** = mean over players of the population variance of e_p over s_0 … s_L
//!   (from running sums: the mean square less the squared mean).
//!
//! None of these needs the series kept: lead changes, drama, the threshold and stability come
//! from running sums, and the first position past the threshold is found by a second scan that
//! stops there.

use rayon::prelude::*;

use crate::algo::FloodScratch;
use crate::error::{Error, Result};
pub use crate::games::MAX_PLAYERS;
use crate::games::{each_state, Game, Observer, Rules};
use crate::rng::Rng;

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
    /// Faraday's pie choice: 1 swap, 0 accept, −1 none.
    pub pie: i8,
    /// Whether the move cap ended the game.
    pub truncated: bool,
    /// Whether the game has scores.
    pub has_scores: bool,
    returns: [f64; MAX_PLAYERS],
    ranks: [f64; MAX_PLAYERS],
    scores: [f64; MAX_PLAYERS],
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

/// The heuristic evaluations e_p = tanh((2 k_p − Σ_o k_o) / scale) of a game's positions (module
/// docs), looked up in a table of every value the numerators allow when there are at most
/// 2¹⁶ of them. Built once per run and shared by its threads.
#[derive(Clone, Debug)]
pub struct Evaluator {
    scale: f64,
    low: i64,
    table: Vec<f64>,
    /// Two players and a table of odd symmetry: e_1 = −e_0 at every position.
    odd: bool,
}

impl Evaluator {
    /// The evaluator of `state`'s game.
    pub fn new<R: Rules>(state: &R) -> Evaluator {
        let players = state.num_players();
        let (scale, max) = state.heuristic_scale();
        let low = -((players as i64 - 1) * i64::from(max));
        let len = (i64::from(max) - low + 1) as usize;
        let table = if len <= 1 << 16 {
            (0..len as i64)
                .map(|i| ((low + i) as f64 / scale).tanh())
                .collect()
        } else {
            Vec::new()
        };
        let odd = players == 2
            && !table.is_empty()
            && table.iter().zip(table.iter().rev()).all(|(a, b)| *a == -*b);
        Evaluator {
            scale,
            low,
            table,
            odd,
        }
    }

    /// tanh(d / scale), for d = 2 k_p − Σ k.
    #[inline(always)]
    fn one(&self, d: i64) -> f64 {
        match self.table.get((d - self.low) as usize) {
            Some(&v) => v,
            None => (d as f64 / self.scale).tanh(),
        }
    }

    /// The evaluations of heuristic numerators `k` (`N` players) into `out`.
    #[inline(always)]
    fn row_n<const N: usize>(&self, k: &[u32], out: &mut [f64]) {
        let (k, out) = (&k[..N], &mut out[..N]);
        let total: i64 = k.iter().map(|&x| i64::from(x)).sum();
        for (o, &kp) in out.iter_mut().zip(k) {
            *o = self.one(2 * i64::from(kp) - total);
        }
    }
}

/// Words of the bitmap that screens position keys for repeats (2¹⁶ bits, 8 KiB).
const FILTER_WORDS: usize = 1 << 10;

/// Buffers reused from game to game by one thread.
#[derive(Debug, Default)]
pub struct Scratch {
    legal: Vec<u32>,
    /// The decisions of the game, in order.
    steps: Vec<Step>,
    /// What evaluates each decision, in order, unless [`TwoSums`] keeps the evaluations.
    decisions: Vec<Decision>,
    /// The keys of the positions s_0 … s_L, for games without levels.
    keys: Vec<u64>,
    /// The keys of the latest positions of one level, for games with levels.
    run: Vec<u64>,
    seen: KeySet,
    /// The bitmap that screens the keys for repeats (all zeros between games).
    filter: Vec<u64>,
    occupied: Vec<bool>,
    flood: FloodScratch,
}

impl Scratch {
    /// The actions of the game last measured, in order.
    pub fn actions(&self) -> impl ExactSizeIterator<Item = u32> + '_ {
        self.steps.iter().map(|d| d.action)
    }
}

/// What a driver reports of one decision; the facts are worked out at the end of the game, in
/// tight loops away from the game's own code.
#[derive(Clone, Copy, Debug)]
struct Step {
    action: u32,
    /// Legal actions at the decision.
    count: u32,
    /// With [`TwoSums`], what evaluates the decision: the mover's search value (its `f32`
    /// bits) when the decisions carry values, else the heuristic's k_0 − k_1 (`i32` bits).
    eval: u32,
    mover: u8,
}

/// What evaluates the position of a decision (kept only when the evaluations are not summed as
/// they come).
#[derive(Clone, Copy, Debug)]
struct Decision {
    mover: u8,
    /// The heuristic numerators of the position, or (`value` finite) nothing.
    k: [u32; MAX_PLAYERS],
    /// The mover's search value (NaN when the heuristic evaluates the position).
    value: f32,
}

/// A set of 64-bit position keys, emptied in constant time (each slot carries the number of
/// the game that wrote it).
#[derive(Debug, Default)]
struct KeySet {
    keys: Vec<u64>,
    stamps: Vec<u32>,
    stamp: u32,
    len: usize,
}

impl KeySet {
    fn clear(&mut self) {
        self.len = 0;
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 || self.keys.is_empty() {
            let cap = self.keys.len().max(256);
            self.keys = vec![0; cap];
            self.stamps = vec![0; cap];
            self.stamp = 1;
        }
    }

    /// Inserts `key`; true when it was already there.
    #[inline]
    fn insert(&mut self, key: u64) -> bool {
        if 2 * (self.len + 1) > self.keys.len() {
            self.grow();
        }
        let mask = self.keys.len() - 1;
        let mut i = (key >> 40) as usize & mask;
        loop {
            if self.stamps[i] != self.stamp {
                self.stamps[i] = self.stamp;
                self.keys[i] = key;
                self.len += 1;
                return false;
            }
            if self.keys[i] == key {
                return true;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let old: Vec<u64> = (0..self.keys.len())
            .filter(|&i| self.stamps[i] == self.stamp)
            .map(|i| self.keys[i])
            .collect();
        let cap = 2 * self.keys.len();
        self.keys = vec![0; cap];
        self.stamps = vec![0; cap];
        self.stamp = 1;
        self.len = 0;
        for k in old {
            self.insert(k);
        }
    }
}

/// Gathers one game's facts position by position (module docs); both drivers feed it.
struct Tracker<'s> {
    s: &'s mut Scratch,
    ev: &'s Evaluator,
    players: usize,
    sites: usize,
    /// Faraday: the first pie choice action (accept; swap is one more).
    pie_base: Option<u32>,
    /// Whether sites stay occupied (then coverage is read at the end).
    stays: bool,
    /// Whether the decisions carry search values (else the heuristic evaluates them).
    valued: bool,
    /// The level of the latest position (see [`Observer::position`]).
    level: u32,
    /// Whether two positions of one level had equal keys.
    suspect: bool,
    /// Two players and an odd heuristic: the rows are summed as they come ([`TwoSums`]).
    two: bool,
    two_sums: TwoSums,
}

/// Running sums over the evaluation rows e(s_0) … e(s_L), from which
/// [`evaluation_metrics`] finishes every metric but decisiveness without a second pass.
#[derive(Clone, Copy, Debug)]
struct Sums {
    rows: usize,
    /// Rows whose leaders differ from the row before's.
    changes: usize,
    previous: u32,
    /// Σ_i max_p e_p(s_i).
    max: f64,
    /// Σ_i e_p(s_i), Σ_i e_p(s_i)², and max_i e_p(s_i), per player.
    sum: [f64; MAX_PLAYERS],
    squares: [f64; MAX_PLAYERS],
    best: [f64; MAX_PLAYERS],
}

impl Sums {
    fn new() -> Sums {
        Sums {
            rows: 0,
            changes: 0,
            previous: u32::MAX,
            max: 0.0,
            sum: [0.0; MAX_PLAYERS],
            squares: [0.0; MAX_PLAYERS],
            best: [f64::NEG_INFINITY; MAX_PLAYERS],
        }
    }

    /// Adds one row (one entry per player).
    #[inline]
    fn add(&mut self, r: &[f64]) {
        // At a constant width the loops over the players unroll.
        match r.len() {
            2 => self.add_n::<2>(r),
            3 => self.add_n::<3>(r),
            4 => self.add_n::<4>(r),
            _ => self.add_n::<1>(r),
        }
    }

    #[inline(always)]
    fn add_n<const N: usize>(&mut self, r: &[f64]) {
        let r = &r[..N];
        let m = r.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut leaders = 0u32;
        for (p, &e) in r.iter().enumerate() {
            leaders |= u32::from(e == m) << p;
            self.sum[p] += e;
            self.squares[p] += e * e;
            self.best[p] = self.best[p].max(e);
        }
        // `&` rather than `&&`: no branch to mispredict.
        self.changes += usize::from((self.previous != u32::MAX) & (leaders != self.previous));
        self.previous = leaders;
        self.max += m;
        self.rows += 1;
    }
}

impl<'s> Tracker<'s> {
    /// Starts a game at `start` (whose position the driver then observes first).
    fn new<R: Rules>(s: &'s mut Scratch, ev: &'s Evaluator, start: &R) -> Tracker<'s> {
        let sites = start.board().num_sites();
        s.steps.clear();
        s.decisions.clear();
        s.keys.clear();
        let stays = start.sites_stay_occupied();
        s.occupied.clear();
        if !stays {
            s.occupied.resize(sites, false);
        }
        s.run.clear();
        Tracker {
            s,
            ev,
            players: start.num_players().min(MAX_PLAYERS),
            sites,
            pie_base: (start.game_name() == "faraday").then_some(2 * sites as u32),
            stays,
            valued: false,
            level: u32::MAX,
            suspect: false,
            two: start.num_players() == 2 && ev.odd,
            two_sums: TwoSums::new(),
        }
    }

    /// A decision with the mover's search value `value` as its evaluation.
    fn valued(&mut self, mover: usize, count: usize, action: u32, value: f32) {
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

    fn occupy(&mut self, cells: &[i8]) {
        for (o, &c) in self.s.occupied.iter_mut().zip(cells) {
            *o |= c != 0;
        }
    }

    /// The facts of the game that ended at `end`, started at `start` with the decisions seen.
    fn finish<R: Rules>(mut self, start: &R, end: &R) -> Result<GameStats> {
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
        };
        if !end.ranks_into(&mut st.ranks[..n]) {
            return Err(Error::Record(format!(
                "{}: the game is not over after {big_l} actions",
                end.game_name()
            )));
        }
        if !end.truncated() {
            crate::games::returns_from_ranks_into(&st.ranks[..n], &mut st.returns[..n]);
        }
        st.has_scores = end.scores_into(&mut st.scores[..n]);
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
        if let Some(base) = self.pie_base {
            for d in steps {
                if d.action == base + 1 {
                    st.pie = 0;
                } else if d.action == base + 2 {
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
        } else {
            self.s.occupied.iter().filter(|&&o| o).count()
        };
        st.coverage = occupied as f64 / self.sites.max(1) as f64;
        Ok(st)
    }
}

/// Whether two of `keys` are equal. A bitmap of 2¹⁶ bits indexed by the keys' top bits
/// (`filter`, all zeros between calls) sees first whether any two may be (a game of L positions
/// shares a bit with odds about L² / 2¹⁷); only then are the keys themselves compared.
fn has_equal_keys(keys: &[u64], filter: &mut Vec<u64>, seen: &mut KeySet) -> bool {
    if filter.is_empty() {
        filter.resize(FILTER_WORDS, 0);
    }
    let mut clash = 0u64;
    for &k in keys {
        let (word, bit) = ((k >> 54) as usize, 1u64 << (k >> 48 & 63));
        clash |= filter[word] & bit;
        filter[word] |= bit;
    }
    for &k in keys {
        filter[(k >> 54) as usize] = 0;
    }
    if clash == 0 {
        return false;
    }
    seen.clear();
    keys.iter().any(|&k| seen.insert(k))
}

/// Calls `f` with the evaluation row of each of s_0 … s_L in turn (one per decision: the search
/// values when `valued`, else the heuristic; then the returns) until it returns false.
fn each_row<const N: usize>(
    decisions: &[Decision],
    ev: &Evaluator,
    valued: bool,
    returns: &[f64],
    mut f: impl FnMut(usize, &[f64; N]) -> bool,
) {
    let mut row = [0.0f64; N];
    if valued {
        for (i, d) in decisions.iter().enumerate() {
            let (v, m) = (f64::from(d.value), d.mover as usize);
            row[m] = v;
            if N == 2 {
                row[1 - m] = -v;
            }
            if !f(i, &row) {
                return;
            }
        }
    } else {
        for (i, d) in decisions.iter().enumerate() {
            ev.row_n::<N>(&d.k[..N], &mut row);
            if !f(i, &row) {
                return;
            }
        }
    }
    row.copy_from_slice(&returns[..N]);
    f(decisions.len(), &row);
}

/// The evaluation metrics of a game of `N` players from its decisions (see [`each_row`]), with
/// a sum per player.
fn every_player_metrics<const N: usize>(
    decisions: &[Decision],
    ev: &Evaluator,
    valued: bool,
    returns: &[f64],
    ranks: &[f64],
) -> [f64; 5] {
    let mut sums = Sums::new();
    each_row::<N>(decisions, ev, valued, returns, |_, r| {
        sums.add_n::<N>(r);
        true
    });
    finish_metrics(&sums, N, ranks, |winners, threshold| {
        let mut first = None;
        each_row::<N>(decisions, ev, valued, returns, |i, r| {
            let above = (0..N).any(|w| winners >> w & 1 == 1 && r[w] > threshold);
            if above {
                first = Some(i);
            }
            !above
        });
        first
    })
}

/// Running sums of x = e_0 over the positions of a two-player game whose rows are (x, −x), as
/// search values, odd heuristics and returns always are: the sums per player follow from x
/// alone (Σ(−x) = −Σx, max(x, −x) = |x|, the best of −x is −min x, all exact), so each row costs
/// half of [`every_player_metrics`]'s. The tracker adds each row as the game is played.
#[derive(Clone, Copy, Debug)]
struct TwoSums {
    sum: f64,
    squares: f64,
    abs: f64,
    high: f64,
    low: f64,
    changes: usize,
    previous: u32,
    rows: usize,
}

impl TwoSums {
    fn new() -> TwoSums {
        TwoSums {
            sum: 0.0,
            squares: 0.0,
            abs: 0.0,
            high: f64::NEG_INFINITY,
            low: f64::INFINITY,
            changes: 0,
            previous: u32::MAX,
            rows: 0,
        }
    }

    #[inline(always)]
    fn add(&mut self, x: f64) {
        self.sum += x;
        self.squares += x * x;
        self.abs += x.abs();
        self.high = self.high.max(x);
        self.low = self.low.min(x);
        let leaders = u32::from(x >= 0.0) | u32::from(x <= 0.0) << 1;
        // `&` rather than `&&`: no branch to mispredict.
        self.changes += usize::from((self.previous != u32::MAX) & (leaders != self.previous));
        self.previous = leaders;
        self.rows += 1;
    }

    /// The metrics, `xs` being the x of every row added, in order.
    fn metrics(&self, ranks: &[f64], xs: impl Iterator<Item = f64>) -> [f64; 5] {
        let mut sums = Sums::new();
        sums.rows = self.rows;
        sums.changes = self.changes;
        sums.max = self.abs;
        sums.sum[..2].copy_from_slice(&[self.sum, -self.sum]);
        sums.squares[..2].copy_from_slice(&[self.squares, self.squares]);
        sums.best[..2].copy_from_slice(&[self.high, -self.low]);
        finish_metrics(&sums, 2, ranks, |winners, threshold| {
            let (first, second) = (winners & 1 == 1, winners & 2 == 2);
            let mut xs = xs;
            xs.position(|x| (first && x > threshold) || (second && -x > threshold))
        })
    }
}

/// x = e_0 at a decision of a two-player game: the value for its mover, or the odd heuristic.
#[inline(always)]
fn two_player_x(d: &Step, ev: &Evaluator, valued: bool) -> f64 {
    if valued {
        let v = f64::from(f32::from_bits(d.eval));
        if d.mover == 0 {
            v
        } else {
            -v
        }
    } else {
        ev.one(i64::from(d.eval as i32))
    }
}

/// [`every_player_metrics`] by [`TwoSums`], from the decisions.
#[cfg(test)]
fn two_player_metrics(
    decisions: &[Decision],
    ev: &Evaluator,
    valued: bool,
    returns: &[f64],
    ranks: &[f64],
) -> [f64; 5] {
    let mut xs: Vec<f64> = decisions
        .iter()
        .map(|d| {
            let step = Step {
                action: 0,
                count: 0,
                eval: if valued {
                    d.value.to_bits()
                } else {
                    d.k[0].wrapping_sub(d.k[1])
                },
                mover: d.mover,
            };
            two_player_x(&step, ev, valued)
        })
        .collect();
    xs.push(returns[0]);
    let mut sums = TwoSums::new();
    for &x in &xs {
        sums.add(x);
    }
    sums.metrics(ranks, xs.into_iter())
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
        if !self.stays {
            self.occupy(cells);
        }
    }
}

/// Plays one game between uniformly random agents from `start`, player p drawing from
/// `rngs[p]` exactly as [`Rules::random_action`] does, and returns its facts; its actions are
/// then [`Scratch::actions`].
pub fn random_game_stats<R: Rules>(
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
pub fn replay_stats<R: Rules>(
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
    let mut outcome = Ok(());
    for (i, &a) in actions.iter().enumerate() {
        let Some(mover) = state.current_player() else {
            outcome = Err(Error::GameOver(format!(
                "{}: the game ended after {i} actions but {big_l} were given",
                state.game_name()
            )));
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

/// How many of the positions reached by `actions` from `start` equal an earlier one (boards
/// and keys compared in full).
pub fn exact_repeats<R: Rules>(start: &R, actions: &[u32]) -> u32 {
    let sites = start.board().num_sites();
    let mut state = start.clone();
    let mut positions: Vec<i8> = Vec::with_capacity((actions.len() + 1) * sites);
    let mut keys: Vec<u64> = Vec::with_capacity(actions.len() + 1);
    positions.extend_from_slice(state.cells());
    keys.push(state.key());
    for &a in actions {
        state.apply_unchecked(a as usize);
        positions.extend_from_slice(state.cells());
        keys.push(state.key());
    }
    count_repeats(&positions, &keys, sites)
}

/// How many positions equal an earlier one: position k is `positions[k * sites..(k + 1) * sites]`
/// with the key `keys[k]` ([`Rules::key`]). Sorts the keys, then compares boards within runs of
/// equal keys: equal boards with equal keys are equal positions.
pub fn count_repeats(positions: &[i8], keys: &[u64], sites: usize) -> u32 {
    let pos = |k: u32| &positions[k as usize * sites..(k as usize + 1) * sites];
    let mut order: Vec<(u64, u32)> = (0..keys.len() as u32)
        .map(|k| (keys[k as usize], k))
        .collect();
    order.sort_unstable();
    let mut repeated = 0u32;
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && order[end].0 == order[start].0 {
            end += 1;
        }
        for j in start + 1..end {
            let kj = order[j].1;
            if (start..j).any(|i| pos(order[i].1) == pos(kj)) {
                repeated += 1;
            }
        }
        start = end;
    }
    repeated
}

/// Lead change, drama, decisiveness, its threshold and stability (module docs) from the
/// evaluations of the positions s_0 … s_L (`evals`, (L + 1) × n) and the final ranks.
pub fn evaluation_metrics(evals: &[f64], n: usize, ranks: &[f64]) -> [f64; 5] {
    let mut sums = Sums::new();
    for r in evals.chunks_exact(n) {
        sums.add(r);
    }
    finish_metrics(&sums, n, ranks, |winners, threshold| {
        evals
            .chunks_exact(n)
            .position(|r| (0..n).any(|w| winners >> w & 1 == 1 && r[w] > threshold))
    })
}

/// [`evaluation_metrics`] from the running sums of the rows; `first_above(winners, T)` finds
/// the first row where a winner (a bit of `winners`) is evaluated above T. The variance is the
/// mean square less the squared mean (clamped at 0).
fn finish_metrics(
    sums: &Sums,
    n: usize,
    ranks: &[f64],
    first_above: impl FnOnce(u32, f64) -> Option<usize>,
) -> [f64; 5] {
    let states = sums.rows.max(1) as f64;
    let moves = sums.rows.saturating_sub(1);
    let best = ranks.iter().copied().fold(f64::INFINITY, f64::min);
    let mut winners = 0u32;
    for (p, &r) in ranks.iter().enumerate() {
        winners |= u32::from(r == best) << p;
    }
    let is_winner = |p: usize| winners >> p & 1 == 1;
    let lead_change = if moves > 0 {
        sums.changes as f64 / moves as f64
    } else {
        0.0
    };
    // mean_i mean_w (max_i − e_w(s_i)) = (Σ_i max_i − mean_w Σ_i e_w(s_i)) / states.
    let w_count = winners.count_ones() as f64;
    let w_sum: f64 = (0..n).filter(|&p| is_winner(p)).map(|p| sums.sum[p]).sum();
    let drama = ((sums.max - w_sum / w_count) / states).max(0.0);
    // (+ 0.0 makes a −0 threshold +0, however the rows' zeros were signed.)
    let threshold = (0..n)
        .filter(|&p| !is_winner(p))
        .map(|p| sums.best[p])
        .fold(-1.0f64, f64::max)
        + 0.0;
    let decisiveness = match (first_above(winners, threshold), moves) {
        (_, 0) | (None, _) => 1.0,
        (Some(i), _) => i as f64 / moves as f64,
    };
    let stability = (0..n)
        .map(|p| {
            let mean = sums.sum[p] / states;
            (sums.squares[p] / states - mean * mean).max(0.0)
        })
        .sum::<f64>()
        / n as f64;
    [lead_change, drama, decisiveness, threshold, stability]
}

/// Calls `$m!` with every column of [`Columns`] as it is stored: per group (one allocation
/// each, of one element type), the group's columns in order with their widths per row.
macro_rules! column_groups {
    ($m:ident, $players:expr) => {
        $m!(
            whole: u32 = [
                length * 1,
                turns * 1,
                multi_choice * 1,
                repeated * 1,
                branching_bins * BINS
            ];
            floats: f64 = [
                branching_sum * 1,
                coverage * 1,
                lead_change * 1,
                drama * 1,
                decisiveness * 1,
                threshold * 1,
                stability * 1,
                returns * $players,
                ranks * $players,
                scores * $players
            ];
            flags: bool = [top_tied * 1, truncated * 1];
            signs: i8 = [pie * 1]
        )
    };
}

/// Per-game facts of many games as columns, one row per game (`returns`, `ranks` and `scores`
/// `players` entries a row; `scores` NaN for games without scores), and the action lists of
/// the games a run keeps.
///
/// The columns of one element type share one allocation (a group; [`Columns::layout`] says
/// where each lies): a run's facts are tens of megabytes, and four large blocks rather than
/// eighteen smaller ones let the allocator hand the same memory to the next run instead of
/// returning it to the system and faulting it in again page by page.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Columns {
    pub players: usize,
    games: usize,
    /// `length`, `turns`, `multi_choice`, `repeated`, `branching_bins`.
    pub whole: Vec<u32>,
    /// `branching_sum`, `coverage`, `lead_change`, `drama`, `decisiveness`, `threshold`,
    /// `stability`, `returns`, `ranks`, `scores`.
    pub floats: Vec<f64>,
    /// `top_tied`, `truncated`.
    pub flags: Vec<bool>,
    /// `pie`.
    pub signs: Vec<i8>,
    /// Games whose actions were kept, in game order.
    pub kept: Vec<Kept>,
}

/// Where a column of [`Columns`] lies: its group, the range of the group it takes and its
/// width per row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColumnPlace {
    pub name: &'static str,
    /// `"whole"`, `"floats"`, `"flags"` or `"signs"`.
    pub group: &'static str,
    pub start: usize,
    pub end: usize,
    pub width: usize,
}

/// Some consecutive rows of a [`Columns`], to fill in place.
pub struct ColumnsMut<'a> {
    players: usize,
    length: &'a mut [u32],
    turns: &'a mut [u32],
    multi_choice: &'a mut [u32],
    repeated: &'a mut [u32],
    branching_sum: &'a mut [f64],
    coverage: &'a mut [f64],
    lead_change: &'a mut [f64],
    drama: &'a mut [f64],
    decisiveness: &'a mut [f64],
    threshold: &'a mut [f64],
    stability: &'a mut [f64],
    top_tied: &'a mut [bool],
    truncated: &'a mut [bool],
    pie: &'a mut [i8],
    branching_bins: &'a mut [u32],
    returns: &'a mut [f64],
    ranks: &'a mut [f64],
    scores: &'a mut [f64],
}

impl<'a> ColumnsMut<'a> {
    /// The first `games` rows and the rest.
    pub fn split_at(self, games: usize) -> (ColumnsMut<'a>, ColumnsMut<'a>) {
        let players = self.players;
        macro_rules! split {
            ($($g:ident : $t:ty = [$($f:ident * $w:expr),+]);+) => {{
                $($(let $f = self.$f.split_at_mut(games * $w);)+)+
                (
                    ColumnsMut { players, $($($f: $f.0),+),+ },
                    ColumnsMut { players, $($($f: $f.1),+),+ },
                )
            }};
        }
        column_groups!(split, players)
    }

    /// The rows cut into consecutive pieces of `games` games (the last may be shorter), each
    /// writable on its own thread.
    pub fn parts(self, games: usize) -> Vec<ColumnsMut<'a>> {
        let games = games.max(1);
        let mut out = Vec::with_capacity(self.len().div_ceil(games));
        let mut rest = self;
        while !rest.is_empty() {
            let size = games.min(rest.len());
            let (part, more) = rest.split_at(size);
            out.push(part);
            rest = more;
        }
        out
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.length.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.length.is_empty()
    }

    /// Writes games `stats` into the first rows, one column at a time (a column's writes then
    /// run in order, which is cheaper than a game's scattered over every column).
    pub fn set_all(&mut self, stats: &[GameStats]) {
        let p = self.players;
        macro_rules! each {
            ($($f:ident),+) => {
                $(for (o, s) in self.$f.iter_mut().zip(stats) {
                    *o = s.$f;
                })+
            };
        }
        each!(
            length,
            turns,
            multi_choice,
            repeated,
            branching_sum,
            coverage,
            lead_change,
            drama,
            decisiveness,
            threshold,
            stability,
            top_tied,
            truncated,
            pie
        );
        for (o, s) in self.branching_bins.chunks_exact_mut(BINS).zip(stats) {
            o.copy_from_slice(&s.branching_bins);
        }
        for (o, s) in self.returns.chunks_exact_mut(p).zip(stats) {
            o.copy_from_slice(s.returns());
        }
        for (o, s) in self.ranks.chunks_exact_mut(p).zip(stats) {
            o.copy_from_slice(s.ranks());
        }
        for (o, s) in self.scores.chunks_exact_mut(p).zip(stats) {
            match s.scores() {
                Some(x) => o.copy_from_slice(x),
                None => o.fill(f64::NAN),
            }
        }
    }
}

/// A game's actions and the mover's search value at each (NaN for agents that do not search).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Kept {
    /// The game's index in its run.
    pub index: u64,
    pub actions: Vec<u32>,
    pub values: Vec<f32>,
}

impl Columns {
    /// Columns for `games` games, zeroed, to be filled through [`Columns::rows_mut`].
    pub fn zeroed(players: usize, games: usize) -> Columns {
        macro_rules! all {
            ($($g:ident : $t:ty = [$($f:ident * $w:expr),+]);+) => {
                Columns {
                    players,
                    games,
                    $($g: vec![<$t>::default(); games * (0 $(+ $w)+)],)+
                    kept: Vec::new(),
                }
            };
        }
        column_groups!(all, players)
    }

    /// Every row, writable in place (and cut into pieces by [`ColumnsMut::split_at`]).
    pub fn rows_mut(&mut self) -> ColumnsMut<'_> {
        let (players, games) = (self.players, self.games);
        macro_rules! all {
            ($($g:ident : $t:ty = [$($f:ident * $w:expr),+]);+) => {{
                $(
                    let rest = &mut self.$g[..];
                    $(let ($f, rest) = rest.split_at_mut(games * $w);)+
                    debug_assert!(rest.is_empty());
                )+
                ColumnsMut { players, $($($f),+),+ }
            }};
        }
        column_groups!(all, players)
    }

    /// Where each column lies: group by group, each group's columns in the order stored.
    pub fn layout(&self) -> Vec<ColumnPlace> {
        let (players, games) = (self.players, self.games);
        let mut out = Vec::new();
        macro_rules! all {
            ($($g:ident : $t:ty = [$($f:ident * $w:expr),+]);+) => {
                $(
                    let mut start = 0;
                    $(
                        let end = start + games * $w;
                        out.push(ColumnPlace {
                            name: stringify!($f),
                            group: stringify!($g),
                            start,
                            end,
                            width: $w,
                        });
                        start = end;
                    )+
                    let _ = start;
                )+
            };
        }
        column_groups!(all, players);
        out
    }

    /// Number of games.
    pub fn len(&self) -> usize {
        self.games
    }

    /// Whether there are no games.
    pub fn is_empty(&self) -> bool {
        self.games == 0
    }
}

/// Games handled per task of a parallel run (random games, or replays): enough that the
/// per-task scratch costs nothing next to the games.
pub const RANDOM_CHUNK: usize = 256;

/// [`replay_stats`] for many games: game g's actions are `actions[offsets[g]..offsets[g + 1]]`
/// (and its values the same slice of `values`). Runs on the current rayon pool when `parallel`.
/// The first failing game's error is returned, naming its index.
pub fn game_stats_batch(
    game: &Game,
    actions: &[u32],
    offsets: &[i64],
    values: Option<&[f32]>,
    parallel: bool,
) -> Result<Columns> {
    if offsets.is_empty() {
        return Err(Error::Record("offsets need at least one entry".into()));
    }
    let games = offsets.len() - 1;
    for g in 0..games {
        let (a, b) = (offsets[g], offsets[g + 1]);
        if a < 0 || b < a || b as usize > actions.len() {
            return Err(Error::Record(format!(
                "offsets {a}..{b} of game {g} do not fit {} actions",
                actions.len()
            )));
        }
    }
    check_values(actions, values)?;
    let mut cols = Columns::zeroed(game.num_players(), games);
    let parts = cols.rows_mut().parts(RANDOM_CHUNK);
    each_state!(game.new_state(), start => {
        let ev = Evaluator::new(&start);
        let part = |(k, mut rows): (usize, ColumnsMut<'_>)| -> Result<()> {
            let mut scratch = Scratch::default();
            let stats = (0..rows.len())
                .map(|r| {
                    let g = k * RANDOM_CHUNK + r;
                    let span = offsets[g] as usize..offsets[g + 1] as usize;
                    let acts = &actions[span.clone()];
                    replay_stats(&start, acts, values.map(|v| &v[span]), &ev, &mut scratch)
                        .map_err(|e| in_game(e, g))
                })
                .collect::<Result<Vec<_>>>()?;
            rows.set_all(&stats);
            Ok(())
        };
        if parallel {
            parts.into_par_iter().enumerate().try_for_each(part)
        } else {
            parts.into_iter().enumerate().try_for_each(part)
        }
    })?;
    Ok(cols)
}

/// Fails unless `values`, when given, has one entry per action.
fn check_values(actions: &[u32], values: Option<&[f32]>) -> Result<()> {
    match values {
        Some(v) if v.len() != actions.len() => Err(Error::Record(format!(
            "{} values for {} actions",
            v.len(),
            actions.len()
        ))),
        _ => Ok(()),
    }
}

/// Prefixes an error's message with the index of the game it came from.
pub fn in_game(e: Error, g: usize) -> Error {
    match e {
        Error::InvalidOption(m) => Error::InvalidOption(format!("game {g}: {m}")),
        Error::IllegalMove(m) => Error::IllegalMove(format!("game {g}: {m}")),
        Error::GameOver(m) => Error::GameOver(format!("game {g}: {m}")),
        Error::Record(m) => Error::Record(format!("game {g}: {m}")),
        Error::Evaluator(m) => Error::Evaluator(format!("game {g}: {m}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{OptionValue, State};
    use crate::rng::Rng;

    fn windflowers(extra: &[(&str, OptionValue)]) -> Game {
        let mut opts = vec![
            ("grid".to_string(), OptionValue::Str("square".into())),
            ("size".to_string(), OptionValue::Int(3)),
        ];
        opts.extend(extra.iter().map(|(k, v)| (k.to_string(), v.clone())));
        Game::make("windflowers", &opts).unwrap()
    }

    #[test]
    fn columns_lie_where_their_layout_says() {
        let g = windflowers(&[]);
        let games: Vec<Vec<u32>> = vec![vec![16, 16], vec![0, 16, 16], vec![0, 1, 16, 16]];
        let stats: Vec<GameStats> = games
            .iter()
            .map(|a| game_stats(&g, a, None).unwrap())
            .collect();
        let mut cols = Columns::zeroed(2, 3);
        // Rows written in two parts land in order.
        let (mut first, mut rest) = cols.rows_mut().split_at(1);
        first.set_all(&stats[..1]);
        rest.set_all(&stats[1..]);
        let layout = cols.layout();
        for group in ["whole", "floats", "flags", "signs"] {
            // Each group's columns tile it exactly.
            let places: Vec<_> = layout.iter().filter(|p| p.group == group).collect();
            assert_eq!(places[0].start, 0);
            for w in places.windows(2) {
                assert_eq!(w[0].end, w[1].start);
            }
            let len = match group {
                "whole" => cols.whole.len(),
                "floats" => cols.floats.len(),
                "flags" => cols.flags.len(),
                _ => cols.signs.len(),
            };
            assert_eq!(places.last().unwrap().end, len, "{group}");
        }
        let place = |name: &str| *layout.iter().find(|p| p.name == name).unwrap();
        let p = place("length");
        assert_eq!(cols.whole[p.start..p.end], [2, 3, 4]);
        let p = place("branching_bins");
        assert_eq!(p.width, BINS);
        assert_eq!(cols.whole[p.start..p.start + BINS], stats[0].branching_bins);
        let p = place("returns");
        assert_eq!(cols.floats[p.start..p.end], [0.0, 0.0, 1.0, -1.0, 0.0, 0.0]);
        let p = place("top_tied");
        // 0–0 and 1–1 tie for first; 1–0 does not.
        assert_eq!(cols.flags[p.start..p.end], [true, false, true]);
        let p = place("pie");
        assert_eq!(cols.signs[p.start..p.end], [-1, -1, -1]);
    }

    #[test]
    fn two_passes_end_an_empty_tied_game() {
        // 4 × 4 points, action 16 passes.
        let g = windflowers(&[]);
        let s = game_stats(&g, &[16, 16], None).unwrap();
        assert_eq!(
            (s.length, s.turns, s.multi_choice, s.repeated),
            (2, 2, 2, 0)
        );
        assert_eq!(s.branching_sum, 34.0);
        assert_eq!(s.coverage, 0.0);
        assert!(s.top_tied && !s.truncated);
        assert_eq!(s.ranks(), [1.5, 1.5]);
        assert_eq!(s.returns(), [0.0, 0.0]);
        // Every evaluation is 0, both players always lead and both are winners.
        assert_eq!([s.lead_change, s.drama, s.stability], [0.0, 0.0, 0.0]);
        assert_eq!((s.threshold, s.decisiveness), (-1.0, 0.0));
        // Two decisions fall in tenths 0 and 5; the others are empty.
        assert_eq!(s.branching_bins, [17, 0, 0, 0, 0, 17, 0, 0, 0, 0]);
    }

    #[test]
    fn one_stone_wins_and_the_evaluations_follow_the_heuristic() {
        let g = windflowers(&[]);
        let s = game_stats(&g, &[0, 16, 16], None).unwrap();
        assert_eq!((s.length, s.turns), (3, 3));
        // 17 actions at the start; then 16 for player 1 (site 0 is taken by player 0, who is
        // not outnumbered around it); player 0 then has 15 empty sites and the pass.
        assert_eq!(s.branching_sum, 17.0 + 16.0 + 16.0);
        assert_eq!(s.coverage, 1.0 / 16.0);
        assert!(!s.top_tied);
        assert_eq!(s.returns(), [1.0, -1.0]);
        // e over s0..s3: (0,0), (t,-t), (t,-t), (1,-1) with t = tanh(1/16).
        let t = (1.0f64 / 16.0).tanh();
        let e0 = [0.0, t, t, 1.0];
        let e1 = [0.0, -t, -t, -1.0];
        // Leaders: {0,1}, {0}, {0}, {0}: one change in 3 moves.
        assert!((s.lead_change - 1.0 / 3.0).abs() < 1e-12);
        // The winner always holds the maximum: no drama.
        assert_eq!(s.drama, 0.0);
        // Threshold: player 1's best is 0 (at s0); player 0 first exceeds it at s1.
        assert_eq!(s.threshold, 0.0);
        assert!((s.decisiveness - 1.0 / 3.0).abs() < 1e-12);
        let var = |e: &[f64]| {
            let m = e.iter().sum::<f64>() / 4.0;
            e.iter().map(|x| (x - m).powi(2)).sum::<f64>() / 4.0
        };
        assert!((s.stability - (var(&e0) + var(&e1)) / 2.0).abs() < 1e-12);
    }

    #[test]
    fn search_values_replace_the_heuristic() {
        let g = windflowers(&[]);
        // Player 0 thinks it is losing (−0.5) at s0, then player 1 thinks −0.25 at s1,
        // player 0 0.75 at s2; then the terminal returns (1, −1).
        let s = game_stats(&g, &[0, 16, 16], Some(&[-0.5, -0.25, 0.75])).unwrap();
        // e rows: (−.5, .5), (.25, −.25), (.75, −.75), (1, −1): leaders {1},{0},{0},{0}.
        assert!((s.lead_change - 1.0 / 3.0).abs() < 1e-12);
        // Drama: only s0 has the winner behind, by 1.0; mean over 4 positions.
        assert!((s.drama - 0.25).abs() < 1e-12);
        // Threshold 0.5 (player 1 at s0); the winner first exceeds it at s2.
        assert_eq!(s.threshold, 0.5);
        assert!((s.decisiveness - 2.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn three_players_keep_each_players_latest_value() {
        let g = windflowers(&[("players", OptionValue::Int(3))]);
        // Player 0 places, players 1, 2, 0 pass: the game ends, player 0 alone first.
        let s = game_stats(&g, &[0, 16, 16, 16], Some(&[0.1, -0.2, 0.3, 0.9])).unwrap();
        assert_eq!(s.ranks(), [1.0, 2.5, 2.5]);
        assert_eq!(s.returns(), [1.0, -0.5, -0.5]);
        // e rows: (.1,0,0), (.1,-.2,0), (.1,-.2,.3), (.9,-.2,.3), (1,-.5,-.5)
        // leaders: {0},{0},{2},{0},{0} → 2 changes in 4 moves.
        assert!((s.lead_change - 0.5).abs() < 1e-6);
        // Drama: 0 except at s2, where the winner trails by 0.2: 0.2 / 5.
        assert!((s.drama - 0.04).abs() < 1e-6);
        // Threshold: the best non-winner value is 0.3; the winner passes it at s3.
        assert!((s.threshold - 0.3).abs() < 1e-6);
        assert!((s.decisiveness - 0.75).abs() < 1e-12);
    }

    #[test]
    fn the_move_cap_truncates() {
        let g = windflowers(&[("max_moves", OptionValue::Int(2))]);
        let s = game_stats(&g, &[0, 5], None).unwrap();
        assert!(s.truncated);
        assert_eq!(s.returns(), [0.0, 0.0]);
        assert_eq!(s.coverage, 2.0 / 16.0);
    }

    #[test]
    fn bad_action_lists_are_errors() {
        let g = windflowers(&[]);
        assert!(matches!(
            game_stats(&g, &[0, 0], None),
            Err(Error::IllegalMove(_))
        ));
        assert!(matches!(game_stats(&g, &[0], None), Err(Error::Record(_))));
        assert!(matches!(
            game_stats(&g, &[16, 16, 16], None),
            Err(Error::GameOver(_))
        ));
        let err = game_stats_batch(&g, &[16, 16, 0], &[0, 2, 3], None, false).unwrap_err();
        assert!(err.to_string().starts_with("game 1:"));
    }

    #[test]
    fn faraday_pie_choice_and_turns() {
        let g = Game::make(
            "faraday",
            &[
                ("grid".to_string(), OptionValue::Str("square_omni".into())),
                ("order".to_string(), OptionValue::Int(3)),
            ],
        )
        .unwrap();
        let mut rng = Rng::new(7);
        let mut buf = Vec::new();
        for _ in 0..20 {
            let mut st = g.new_state();
            let mut acts = Vec::new();
            while let Some(a) = st.random_action(&mut rng, &mut buf) {
                acts.push(a as u32);
                st.apply_unchecked(a);
            }
            let s = game_stats(&g, &acts, None).unwrap();
            // 9 sites: accept is 19, swap 20.
            let want = if acts.contains(&20) { 1 } else { 0 };
            assert_eq!(s.pie, want);
            assert_eq!(s.repeated, 0);
            // The three offer actions form player 0's first turn, the choice player 1's.
            assert!(s.turns >= 2);
        }
    }

    #[test]
    fn faradays_heuristic_is_its_score() {
        for scoring in ["simple_orthogonal", "special"] {
            let g = Game::make(
                "faraday",
                &[
                    ("order".to_string(), OptionValue::Int(4)),
                    ("scoring".to_string(), OptionValue::Str(scoring.into())),
                ],
            )
            .unwrap();
            let sites = g.board().num_sites() as f64;
            let scale = if scoring == "special" {
                sites * sites / 4.0
            } else {
                sites
            };
            let mut rng = Rng::new(11);
            let mut buf = Vec::new();
            let mut scratch = FloodScratch::default();
            let mut st = g.new_state();
            assert_eq!(st.heuristic_scale().0, scale);
            while let Some(a) = st.random_action(&mut rng, &mut buf) {
                let mut h = [0; 2];
                st.heuristic_into(&mut scratch, &mut h);
                let State::Faraday(f) = &st else {
                    unreachable!()
                };
                let v = f.score_values();
                assert_eq!(h, [v[0] as u32, v[1] as u32]);
                st.apply_unchecked(a);
            }
        }
    }

    /// The share of sites that held a stone at some position of the game.
    fn ever_occupied(g: &Game, actions: &[u32]) -> f64 {
        let mut st = g.new_state();
        let mut ever = vec![false; st.cells().len()];
        for &a in actions {
            st.apply_unchecked(a as usize);
            for (e, &c) in ever.iter_mut().zip(st.cells()) {
                *e |= c != 0;
            }
        }
        ever.iter().filter(|&&e| e).count() as f64 / ever.len() as f64
    }

    /// Repeats, turns and coverage against naive references on random games of every game.
    #[test]
    fn repeats_match_a_naive_count() {
        let games = [
            windflowers(&[]),
            windflowers(&[("grid", OptionValue::Str("hex".into()))]),
            windflowers(&[("players", OptionValue::Int(3))]),
            Game::make("subsume", &[("size".to_string(), OptionValue::Int(3))]).unwrap(),
            Game::make("smallholder", &[]).unwrap(),
        ];
        let mut rng = Rng::new(3);
        let mut buf = Vec::new();
        let mut total_repeats = 0;
        for g in &games {
            for _ in 0..200 {
                let mut st = g.new_state();
                let mut seen: Vec<(Vec<i8>, Option<usize>)> =
                    vec![(st.cells().to_vec(), st.current_player())];
                let mut acts = Vec::new();
                let mut naive = 0;
                let mut turns = 0;
                let mut last = None;
                while let Some(a) = st.random_action(&mut rng, &mut buf) {
                    if st.current_player() != last {
                        turns += 1;
                        last = st.current_player();
                    }
                    acts.push(a as u32);
                    st.apply_unchecked(a);
                    let key = (st.cells().to_vec(), st.current_player());
                    if seen.contains(&key) {
                        naive += 1;
                    }
                    seen.push(key);
                }
                let s = game_stats(g, &acts, None).unwrap();
                let ever = ever_occupied(g, &acts);
                assert_eq!(s.coverage, ever, "{}", g.name());
                assert_eq!(s.repeated, naive);
                assert_eq!(s.turns, turns);
                total_repeats += naive;
            }
        }
        // Random games of these rules never repeated in our probes; the counting itself is
        // checked on constructed sequences below.
        assert_eq!(total_repeats, 0);
    }

    /// Configurations covering every game and the options that change what the lab measures.
    fn lab_configs() -> Vec<Game> {
        let make = |name: &str, opts: &[(&str, OptionValue)]| {
            let opts: Vec<(String, OptionValue)> = opts
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect();
            Game::make(name, &opts).unwrap()
        };
        let s = |v: &str| OptionValue::Str(v.into());
        vec![
            make("windflowers", &[]),
            make("windflowers", &[("scoring", s("largest_group"))]),
            make(
                "windflowers",
                &[("players", OptionValue::Int(3)), ("grid", s("hex"))],
            ),
            make(
                "windflowers",
                &[("players", OptionValue::Int(4)), ("grid", s("square"))],
            ),
            make(
                "windflowers",
                &[
                    ("size", OptionValue::Int(3)),
                    ("max_moves", OptionValue::Int(12)),
                ],
            ),
            make("windflowers", &[("size", OptionValue::Int(6))]),
            make("smallholder", &[]),
            make("smallholder", &[("ruleset", s("gaps_original"))]),
            make("faraday", &[("order", OptionValue::Int(4))]),
            make(
                "faraday",
                &[("order", OptionValue::Int(4)), ("scoring", s("special"))],
            ),
            make(
                "faraday",
                &[
                    ("grid", s("hex_omni")),
                    ("order", OptionValue::Int(3)),
                    ("scoring", s("simple")),
                ],
            ),
            make(
                "faraday",
                &[
                    ("grid", s("square_omni")),
                    ("order", OptionValue::Int(5)),
                    ("surplus_charge", OptionValue::Bool(true)),
                    ("scoring", s("special_orthogonal")),
                ],
            ),
            make("subsume", &[("size", OptionValue::Int(4))]),
        ]
    }

    /// The fused path (facts gathered while playing, each game's own loop and keys) gives
    /// exactly what replaying the same actions through the generic path gives, and plays the
    /// games each seat's generator draws with `random_action`.
    #[test]
    fn random_games_measured_in_play_match_their_replay() {
        for g in lab_configs() {
            let start = g.new_state();
            let n = start.num_players();
            let ev = Evaluator::new(&start);
            let (mut fused, mut replayed) = (Scratch::default(), Scratch::default());
            for i in 0..40u64 {
                let seeds: Vec<Rng> = (0..n).map(|j| Rng::stream(i, j as u64)).collect();
                let mut rngs = seeds.clone();
                let st = random_game_stats(&start, &mut rngs, &ev, &mut fused);
                let actions: Vec<u32> = fused.actions().collect();
                // The same draws, one seat generator each, through `random_action`.
                let mut rngs = seeds;
                let mut state = g.new_state();
                let mut buf = Vec::new();
                let mut plain = Vec::new();
                while let Some(p) = state.current_player() {
                    let a = state.random_action(&mut rngs[p], &mut buf).unwrap();
                    plain.push(a as u32);
                    state.apply_unchecked(a);
                }
                assert_eq!(actions, plain, "{}", g.name());
                let again = replay_stats(&start, &actions, None, &ev, &mut replayed).unwrap();
                // Debug strings, so that NaN fields compare as equal.
                assert_eq!(format!("{st:?}"), format!("{again:?}"), "{}", g.name());
                assert_eq!(st.length as usize, actions.len());
            }
        }
    }

    /// The counted draw makes the same draws as `random_action`, and its count, `legal_count`
    /// and the legal list agree at every position.
    #[test]
    fn counted_draws_are_the_plain_draws() {
        for g in lab_configs() {
            let mut rng = Rng::new(5);
            let mut buf = Vec::new();
            for _ in 0..20 {
                let mut st = g.new_state();
                loop {
                    let mut a = rng.clone();
                    let mut b = rng.clone();
                    let plain = st.random_action(&mut a, &mut buf);
                    let counted = st.random_action_counted(&mut b, &mut buf);
                    assert_eq!(plain, counted.map(|(x, _)| x), "{}", g.name());
                    assert_eq!(a.next_u64(), b.next_u64(), "{}", g.name());
                    let legal = st.legal_actions().len();
                    assert_eq!(st.legal_count(&mut buf), legal, "{}", g.name());
                    let Some((action, count)) = counted else {
                        assert_eq!(legal, 0);
                        break;
                    };
                    assert_eq!(count, legal, "{}", g.name());
                    rng = b;
                    st.apply_unchecked(action);
                }
            }
        }
    }

    /// Equal positions get equal keys whichever way they were reached, and the games that
    /// keep their stones say so truthfully.
    #[test]
    fn keys_follow_the_position_and_stones_stay_where_promised() {
        for g in lab_configs() {
            let mut rng = Rng::new(9);
            let mut buf = Vec::new();
            for _ in 0..20 {
                let mut st = g.new_state();
                let stays = st.sites_stay_occupied();
                while let Some(a) = st.random_action(&mut rng, &mut buf) {
                    let before: Vec<bool> = st.cells().iter().map(|&c| c != 0).collect();
                    st.apply_unchecked(a);
                    if stays {
                        assert!(st.cells().iter().zip(&before).all(|(&c, &b)| c != 0 || !b));
                    }
                    // A copy keys alike; the key does not depend on the path's history.
                    assert_eq!(st.clone().key(), st.key());
                }
            }
        }
        // Windflowers: the same board and mover reached by different orders.
        let g = windflowers(&[("players", OptionValue::Int(3))]);
        let (mut a, mut b) = (g.new_state(), g.new_state());
        for x in [0, 5, 9] {
            a.apply_unchecked(x);
        }
        for x in [16, 16, 0] {
            b.apply_unchecked(x);
        }
        // a: stones 0 (p0), 5 (p1), 9 (p2), p0 to move; b: p2's stone on 0, p0 to move.
        assert_ne!(a.key(), b.key());
        let mut c = g.new_state();
        for x in [16, 16, 9, 0, 5] {
            c.apply_unchecked(x);
        }
        // c: p2 on 9, p0 on 0, p1 on 5, p2 to move: a's board with another mover.
        assert_eq!(a.cells(), c.cells());
        assert_ne!(a.key(), c.key());
        // d: a's board and mover after a pass: another position (one pass nearer the end).
        let mut d = g.new_state();
        for x in [16, 16, 9, 0, 5, 16] {
            d.apply_unchecked(x);
        }
        assert_eq!(
            (a.cells(), a.current_player()),
            (d.cells(), d.current_player())
        );
        assert_ne!(a.key(), d.key());
        // e: a's position by another path, passes between the same placements.
        let mut e = g.new_state();
        for x in [16, 5, 16, 0, 16, 9] {
            e.apply_unchecked(x);
        }
        assert_eq!(a.cells(), e.cells());
        assert_eq!(a.key(), e.key());
    }

    /// The two-player shortcut gives the very numbers the sums per player give.
    #[test]
    fn two_player_rows_sum_as_every_row_does() {
        for g in lab_configs().into_iter().filter(|g| g.num_players() == 2) {
            let start = g.new_state();
            let ev = Evaluator::new(&start);
            assert!(ev.odd, "{}", g.name());
            let mut scratch = Scratch::default();
            let mut rng = Rng::new(4);
            for _ in 0..30 {
                let mut rngs = [rng.clone(), Rng::stream(rng.next_u64(), 1)];
                let st = random_game_stats(&start, &mut rngs, &ev, &mut scratch);
                // The tracker summed the rows as they came; rebuild what they came from.
                assert!(scratch.decisions.is_empty());
                let mut state = g.new_state();
                let mut flood = FloodScratch::default();
                let mut decisions = Vec::new();
                for a in scratch.actions() {
                    let mut k = [0; MAX_PLAYERS];
                    state.heuristic_into(&mut flood, &mut k[..2]);
                    let mover = state.current_player().unwrap() as u8;
                    decisions.push(Decision {
                        mover,
                        k,
                        value: f32::NAN,
                    });
                    state.apply_unchecked(a as usize);
                }
                let decisions = &decisions;
                let (returns, ranks) = (st.returns(), st.ranks());
                // The sums the tracker kept as the game went.
                let online = [
                    st.lead_change,
                    st.drama,
                    st.decisiveness,
                    st.threshold,
                    st.stability,
                ];
                let slow = every_player_metrics::<2>(decisions, &ev, false, returns, ranks);
                assert_eq!(
                    online.map(f64::to_bits),
                    slow.map(f64::to_bits),
                    "{}",
                    g.name()
                );
                let values: Vec<Decision> = decisions
                    .iter()
                    .map(|d| Decision {
                        value: (rng.unit() * 2.0 - 1.0) as f32,
                        ..*d
                    })
                    .collect();
                for (rows, valued) in [(decisions, false), (&values, true)] {
                    let fast = two_player_metrics(rows, &ev, valued, returns, ranks);
                    let slow = every_player_metrics::<2>(rows, &ev, valued, returns, ranks);
                    assert_eq!(
                        fast.map(f64::to_bits),
                        slow.map(f64::to_bits),
                        "{}",
                        g.name()
                    );
                }
            }
        }
    }

    /// With levels, equal keys are looked for only among the positions of one level.
    #[test]
    fn levels_limit_the_comparison_to_one_run() {
        let g = windflowers(&[]);
        let start = g.new_state();
        let ev = Evaluator::new(&start);
        let mut scratch = Scratch::default();
        let cells = start.cells().to_vec();
        let mut t = Tracker::new(&mut scratch, &ev, &start);
        for (key, level) in [(1, 0), (1, 1), (2, 1), (3, 2), (4, 2)] {
            t.position(key, Some(level), &cells);
        }
        // Key 1 came back, but at another level: not a candidate.
        assert!(!t.suspect);
        t.position(3, Some(2), &cells);
        assert!(t.suspect);
        assert_eq!(t.s.run, [3, 4, 3]);
        assert!(t.s.keys.is_empty());
    }

    #[test]
    fn equal_keys_are_found_and_the_filter_is_left_clear() {
        let mut filter = Vec::new();
        let mut seen = KeySet::default();
        let keys: Vec<u64> = (0..500u64)
            .map(|i| crate::games::zobrist::mix64(i + 1))
            .collect();
        assert!(!has_equal_keys(&keys, &mut filter, &mut seen));
        assert!(filter.iter().all(|&w| w == 0));
        let mut twice = keys.clone();
        twice.push(keys[321]);
        assert!(has_equal_keys(&twice, &mut filter, &mut seen));
        assert!(filter.iter().all(|&w| w == 0));
        // Keys alike in their top bits but different pass the screen and are told apart.
        let close = [7u64 << 48 | 1, 7u64 << 48 | 2, 7u64 << 48 | 3];
        assert!(!has_equal_keys(&close, &mut filter, &mut seen));
        // The set grows past its first size and forgets between games.
        seen.clear();
        assert!((0..2000u64).all(|k| !seen.insert(crate::games::zobrist::mix64(k))));
        assert!(seen.insert(crate::games::zobrist::mix64(1999)));
        seen.clear();
        assert!(!seen.insert(crate::games::zobrist::mix64(1999)));
    }

    #[test]
    fn repeats_count_each_return_to_an_earlier_position() {
        // Positions of 2 sites: A=(0,0,p0) B=(1,0,p1) A B A C=(0,0,p1): three repeats.
        let positions = [0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0];
        let keys = [0, 1, 0, 1, 0, 1];
        assert_eq!(count_repeats(&positions, &keys, 2), 3);
        assert_eq!(count_repeats(&positions[..4], &keys[..2], 2), 0);
    }
}
