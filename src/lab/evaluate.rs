//! The evaluations of a game's positions and the metrics made from them (lead change, drama,
//! decisiveness, threshold, stability): the heuristic table and the running sums.

use super::*;

/// The heuristic evaluations e_p = tanh((2 k_p − Σ_o k_o) / scale) of a game's positions (module
/// docs), looked up in a table of every value the numerators allow when there are at most
/// 2¹⁶ of them. Built once per run and shared by its threads.
#[derive(Clone, Debug)]
pub struct Evaluator {
    pub(crate) scale: f64,
    pub(crate) low: i64,
    pub(crate) table: Vec<f64>,
    /// Two players and a table of odd symmetry: e_1 = −e_0 at every position.
    pub(crate) odd: bool,
}

impl Evaluator {
    /// The evaluator of `state`'s game.
    pub fn new<R: Measure>(state: &R) -> Evaluator {
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
    pub(crate) fn one(&self, d: i64) -> f64 {
        match self.table.get((d - self.low) as usize) {
            Some(&v) => v,
            None => (d as f64 / self.scale).tanh(),
        }
    }

    /// The evaluations of heuristic numerators `k` (`N` players) into `out`.
    #[inline(always)]
    pub(crate) fn row_n<const N: usize>(&self, k: &[u32], out: &mut [f64]) {
        let (k, out) = (&k[..N], &mut out[..N]);
        let total: i64 = k.iter().map(|&x| i64::from(x)).sum();
        for (o, &kp) in out.iter_mut().zip(k) {
            *o = self.one(2 * i64::from(kp) - total);
        }
    }
}

/// Running sums over the evaluation rows e(s_0) … e(s_L), from which
/// [`evaluation_metrics`] finishes every metric but decisiveness without a second pass.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sums {
    pub(crate) rows: usize,
    /// Rows whose leaders differ from the row before's.
    pub(crate) changes: usize,
    pub(crate) previous: u32,
    /// Σ_i max_p e_p(s_i).
    pub(crate) max: f64,
    /// Σ_i e_p(s_i), Σ_i e_p(s_i)², and max_i e_p(s_i), per player.
    pub(crate) sum: [f64; MAX_PLAYERS],
    pub(crate) squares: [f64; MAX_PLAYERS],
    pub(crate) best: [f64; MAX_PLAYERS],
}

impl Sums {
    pub(crate) fn new() -> Sums {
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
    pub(crate) fn add(&mut self, r: &[f64]) {
        // At a constant width the loops over the players unroll.
        match r.len() {
            2 => self.add_n::<2>(r),
            3 => self.add_n::<3>(r),
            4 => self.add_n::<4>(r),
            _ => self.add_n::<1>(r),
        }
    }

    #[inline(always)]
    pub(crate) fn add_n<const N: usize>(&mut self, r: &[f64]) {
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

/// Calls `f` with the evaluation row of each of s_0 … s_L in turn (one per decision: the search
/// values when `valued`, else the heuristic; then the returns) until it returns false.
pub(crate) fn each_row<const N: usize>(
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
pub(crate) fn every_player_metrics<const N: usize>(
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
pub(crate) struct TwoSums {
    pub(crate) sum: f64,
    pub(crate) squares: f64,
    pub(crate) abs: f64,
    pub(crate) high: f64,
    pub(crate) low: f64,
    pub(crate) changes: usize,
    pub(crate) previous: u32,
    pub(crate) rows: usize,
}

impl TwoSums {
    pub(crate) fn new() -> TwoSums {
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
    pub(crate) fn add(&mut self, x: f64) {
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
    pub(crate) fn metrics(&self, ranks: &[f64], xs: impl Iterator<Item = f64>) -> [f64; 5] {
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
pub(crate) fn two_player_x(d: &Step, ev: &Evaluator, valued: bool) -> f64 {
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
pub(crate) fn two_player_metrics(
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
pub(crate) fn finish_metrics(
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
