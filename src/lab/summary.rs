//! The sums behind the lab's per-variant metrics, taken over a variant's per-game columns.
//!
//! Python turns these into metrics with intervals (`stonefield.lab.metrics`, whose docs give
//! the formulas). The sums are taken here, in one or two passes over each column, because
//! numpy's way (a temporary array per step) took longer over a hundred thousand random games
//! than the lab's share of playing them. Every sum runs in a fixed order (eight interleaved
//! partial sums added as a tree; squared deviations taken per block of rows about the block's
//! mean, the blocks merged in order), so the numbers depend on the rows alone: never on
//! threads, backends or how a run was cut into chunks.

use crate::error::{Error, Result};
use crate::games::MAX_PLAYERS;

/// The per-game columns the metrics read: every column of a run ([`super::ColumnsRef`]).
pub type Facts<'a> = super::ColumnsRef<'a>;

/// How many values there are, their mean and their squared deviations about it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Moments {
    /// The values counted (NaN values are left out).
    pub n: u64,
    /// NaN without values.
    pub mean: f64,
    /// Σ (x − mean)² (NaN without values).
    pub squares: f64,
}

/// A pooled ratio Σ a / Σ b over games, with the moments of the per-game residuals a − R b
/// (R = Σ a / Σ b) that its delta-method interval rests on (NaN when Σ b = 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ratio {
    pub num: f64,
    pub den: f64,
    pub residuals: Moments,
}

/// Every sum a variant's metrics need.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub games: u64,
    /// Per seat, the mean of w = (u + 1) / 2 (u the return).
    pub seats: Vec<f64>,
    /// Of 1 − (w_a − w_b) per game, a and b the first seats of highest and lowest mean.
    pub balance: Moments,
    /// Games not truncated whose best rank one player holds alone, and those where several do.
    pub single: u64,
    pub draw: u64,
    pub truncated: u64,
    /// Games whose raw scores tied for first, and those of them that ended drawn.
    pub top_tied: u64,
    pub top_tied_draw: u64,
    pub repeated_games: u64,
    pub length: Moments,
    pub turns: Moments,
    /// The 50th, 10th and 90th percentiles, as numpy's `percentile` gives them.
    pub length_percentiles: [f64; 3],
    pub turns_percentiles: [f64; 3],
    /// `branching_sum`, `multi_choice` and `repeated` over `length`.
    pub branching: Ratio,
    pub decision_moves: Ratio,
    pub repetition: Ratio,
    pub coverage: Moments,
    pub lead_change: Moments,
    pub drama: Moments,
    pub decisiveness: Moments,
    pub stability: Moments,
    /// Faraday's pie: games where player 1 chose, of them those where they swapped, and per
    /// seat the mean w over the swapped games and over the accepted ones (NaN without any).
    pub pie_chose: u64,
    pub pie_swap: u64,
    pub swap_seats: Vec<f64>,
    pub accept_seats: Vec<f64>,
    /// The moments of each column the game declares, in its order.
    pub game: Vec<Moments>,
    /// The moments of each series given ([`super::ColumnsRef::series`]), tenth by tenth.
    pub series: Vec<[Moments; super::BINS]>,
}

/// The percentiles [`Summary`] reports.
const PERCENTS: [f64; 3] = [50.0, 10.0, 90.0];

/// Largest value whose count a percentile table holds (larger columns are sorted instead).
const MAX_TABLED: u32 = 1 << 20;

/// Eight partial sums added as a tree.
#[inline(always)]
fn tree(l: [f64; 8]) -> f64 {
    ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]))
}

/// Σ f(row) over the rows of `width` entries of `xs`, in eight interleaved partial sums (row i
/// into sum i mod 8) added as a tree, then the rows left over in order.
#[inline(always)]
fn sum_rows<T: Copy>(xs: &[T], width: usize, f: impl Fn(&[T]) -> f64) -> f64 {
    let mut lanes = [0.0f64; 8];
    let mut blocks = xs.chunks_exact(8 * width);
    for block in &mut blocks {
        for (lane, row) in lanes.iter_mut().zip(block.chunks_exact(width)) {
            *lane += f(row);
        }
    }
    let mut tail = 0.0;
    for row in blocks.remainder().chunks_exact(width) {
        tail += f(row);
    }
    tree(lanes) + tail
}

/// Σ f(x) over `xs` (as [`sum_rows`] with rows of one).
#[inline(always)]
fn sum_by<T: Copy>(xs: &[T], f: impl Fn(T) -> f64) -> f64 {
    let mut lanes = [0.0f64; 8];
    let mut blocks = xs.chunks_exact(8);
    for block in &mut blocks {
        for (lane, &x) in lanes.iter_mut().zip(block) {
            *lane += f(x);
        }
    }
    let mut tail = 0.0;
    for &x in blocks.remainder() {
        tail += f(x);
    }
    tree(lanes) + tail
}

/// Σ f(a, b) over pairs of `a` and `b` (as long as each other), as [`sum_by`].
#[inline(always)]
fn sum_pairs<T: Copy>(a: &[T], b: &[u32], f: impl Fn(T, u32) -> f64) -> f64 {
    let mut lanes = [0.0f64; 8];
    let (mut xs, mut ys) = (a.chunks_exact(8), b.chunks_exact(8));
    for (x, y) in (&mut xs).zip(&mut ys) {
        for (lane, (&x, &y)) in lanes.iter_mut().zip(x.iter().zip(y)) {
            *lane += f(x, y);
        }
    }
    let mut tail = 0.0;
    for (&x, &y) in xs.remainder().iter().zip(ys.remainder()) {
        tail += f(x, y);
    }
    tree(lanes) + tail
}

/// The sum of whole numbers, exact.
fn whole_sum(xs: &[u32]) -> u64 {
    xs.iter().map(|&v| u64::from(v)).sum()
}

/// Moments without values.
const EMPTY: Moments = Moments {
    n: 0,
    mean: f64::NAN,
    squares: f64::NAN,
};

/// Rows per block of [`blocked`]: a block of a column sits in the first-level cache.
const BLOCK: usize = 2048;

/// The moments of two parts together (Chan, Golub and LeVeque's pairwise update).
fn merge(a: Moments, b: Moments) -> Moments {
    if a.n == 0 {
        return b;
    }
    if b.n == 0 {
        return a;
    }
    let n = a.n + b.n;
    let delta = b.mean - a.mean;
    let (an, bn, nf) = (a.n as f64, b.n as f64, n as f64);
    Moments {
        n,
        mean: a.mean + delta * (bn / nf),
        squares: a.squares + b.squares + delta * delta * (an * bn / nf),
    }
}

/// Moments over rows 0..n taken block by block: `block(range)` gives a block's moments (two
/// passes over it while it is in cache), and the blocks are merged in order. One pass over
/// memory, and a block's deviations are taken about its own mean, which keeps them accurate.
fn blocked(n: usize, block: impl Fn(std::ops::Range<usize>) -> Moments) -> Moments {
    (0..n)
        .step_by(BLOCK)
        .map(|start| block(start..(start + BLOCK).min(n)))
        .fold(EMPTY, merge)
}

/// The moments of `xs`, NaN values left out.
fn moments(xs: &[f64]) -> Moments {
    blocked(xs.len(), |range| {
        let xs = &xs[range];
        let sum = sum_by(xs, |x| x);
        let (count, sum) = if sum.is_nan() {
            // Some values are NaN (or the sum overflowed): count and sum the others.
            let count = xs.iter().filter(|x| !x.is_nan()).count();
            (count, sum_by(xs, |x| if x.is_nan() { 0.0 } else { x }))
        } else {
            (xs.len(), sum)
        };
        if count == 0 {
            return EMPTY;
        }
        let mean = sum / count as f64;
        let squares = sum_by(xs, |x| {
            let d = (x - mean) * (x - mean);
            if d.is_nan() {
                0.0
            } else {
                d
            }
        });
        Moments {
            n: count as u64,
            mean,
            squares,
        }
    })
}

/// The moments of whole numbers, their mean from their exact sum.
fn whole_moments(xs: &[u32]) -> Moments {
    let m = blocked(xs.len(), |range| {
        let xs = &xs[range];
        let mean = whole_sum(xs) as f64 / xs.len() as f64;
        Moments {
            n: xs.len() as u64,
            mean,
            squares: sum_by(xs, |x| (f64::from(x) - mean) * (f64::from(x) - mean)),
        }
    });
    Moments {
        mean: whole_sum(xs) as f64 / xs.len() as f64,
        ..m
    }
}

/// Σ a / Σ b over games, with the moments of the residuals a − R b.
fn ratio<T: Copy>(a: &[T], b: &[u32], value: impl Fn(T) -> f64) -> Ratio {
    let num = sum_by(a, &value);
    let den = whole_sum(b) as f64;
    let residuals = if den == 0.0 || a.is_empty() {
        EMPTY
    } else {
        let r = num / den;
        let residual = |x: T, y: u32| value(x) - r * f64::from(y);
        blocked(a.len(), |range| {
            let (a, b) = (&a[range.clone()], &b[range]);
            let mean = sum_pairs(a, b, residual) / a.len() as f64;
            Moments {
                n: a.len() as u64,
                mean,
                squares: sum_pairs(a, b, |x, y| {
                    (residual(x, y) - mean) * (residual(x, y) - mean)
                }),
            }
        })
    };
    Ratio {
        num,
        den,
        residuals,
    }
}

/// numpy's linear interpolation between order statistics a and b at fraction t.
fn lerp(a: f64, b: f64, t: f64) -> f64 {
    let diff = b - a;
    if t >= 0.5 {
        b - diff * (1.0 - t)
    } else {
        a + diff * t
    }
}

/// The [`PERCENTS`] percentiles of whole numbers, as `numpy.percentile` (its default, linear
/// method) gives them: from a table of counts when the values are small, else by sorting.
fn percentiles(x: &[u32]) -> [f64; 3] {
    let n = x.len();
    if n == 0 {
        return [f64::NAN; 3];
    }
    let max = x.iter().copied().max().unwrap_or(0);
    // The k-th smallest value (k from 0).
    let order: Box<dyn Fn(usize) -> f64> = if max <= MAX_TABLED {
        let mut cumulative = vec![0u64; max as usize + 1];
        for &v in x {
            cumulative[v as usize] += 1;
        }
        for i in 1..cumulative.len() {
            cumulative[i] += cumulative[i - 1];
        }
        Box::new(move |k| cumulative.partition_point(|&c| c <= k as u64) as f64)
    } else {
        let mut sorted = x.to_vec();
        sorted.sort_unstable();
        Box::new(move |k| f64::from(sorted[k]))
    };
    PERCENTS.map(|q| {
        let position = q / 100.0 * (n - 1) as f64;
        let low = position.floor();
        let k = low as usize;
        lerp(order(k), order((k + 1).min(n - 1)), position - low)
    })
}

/// Runs this long have their seats and their columns summed on two threads.
const PARALLEL_GAMES: usize = 1 << 15;

/// The sums over the seats: per-seat means, balance, outcomes and the pie.
struct SeatSums {
    seats: Vec<f64>,
    balance: Moments,
    single: u64,
    draw: u64,
    top_tied_draw: u64,
    pie_chose: u64,
    pie_swap: u64,
    swap_seats: Vec<f64>,
    accept_seats: Vec<f64>,
}

/// w = (u + 1) / 2.
#[inline(always)]
fn w(u: f64) -> f64 {
    (u + 1.0) / 2.0
}

/// [`SeatSums`] of games of `N` players (rows of a constant width unroll).
fn seat_sums<const N: usize>(f: &Facts<'_>) -> SeatSums {
    let n = f.length.len();
    let seats: Vec<f64> = (0..N)
        .map(|s| sum_rows(f.returns, N, |r| w(r[s])) / n as f64)
        .collect();
    // The first seats of highest and lowest mean, as numpy's argmax and argmin pick them.
    let (mut a, mut b) = (0, 0);
    for (s, &m) in seats.iter().enumerate() {
        if m > seats[a] {
            a = s;
        }
        if m < seats[b] {
            b = s;
        }
    }
    let d = |r: &[f64]| 1.0 - (w(r[a]) - w(r[b]));
    let balance = blocked(n, |range| {
        let rows = &f.returns[range.start * N..range.end * N];
        let mean = sum_rows(rows, N, d) / range.len() as f64;
        Moments {
            n: range.len() as u64,
            mean,
            squares: sum_rows(rows, N, |r| (d(r) - mean) * (d(r) - mean)),
        }
    });

    // Per game, how many players share the best rank (counted without branches).
    let (mut single, mut draw, mut top_tied_draw) = (0u64, 0u64, 0u64);
    for ((r, &truncated), &tied) in f.ranks.chunks_exact(N).zip(f.truncated).zip(f.top_tied) {
        let best = r.iter().copied().fold(f64::INFINITY, f64::min);
        let firsts: u32 = r.iter().map(|&x| u32::from(x == best)).sum();
        let played = u64::from(!truncated);
        single += played & u64::from(firsts == 1);
        let drawn = played & u64::from(firsts > 1);
        draw += drawn;
        top_tied_draw += drawn & u64::from(tied);
    }

    let pie_chose = f.pie.iter().filter(|&&c| c >= 0).count() as u64;
    let pie_swap = f.pie.iter().filter(|&&c| c == 1).count() as u64;
    let seat_means_where = |choice: i8, games: u64| -> Vec<f64> {
        let mut hits = [0.0; N];
        for (r, &c) in f.returns.chunks_exact(N).zip(f.pie) {
            if c == choice {
                for (h, &u) in hits.iter_mut().zip(r) {
                    *h += w(u);
                }
            }
        }
        hits.iter().map(|h| h / games as f64).collect()
    };
    let (swap_seats, accept_seats) = if pie_chose > 0 {
        (
            seat_means_where(1, pie_swap),
            seat_means_where(0, pie_chose - pie_swap),
        )
    } else {
        (vec![f64::NAN; N], vec![f64::NAN; N])
    };
    SeatSums {
        seats,
        balance,
        single,
        draw,
        top_tied_draw,
        pie_chose,
        pie_swap,
        swap_seats,
        accept_seats,
    }
}

/// The sums over the per-game columns that do not involve seats.
struct ColumnSums {
    length: Moments,
    turns: Moments,
    length_percentiles: [f64; 3],
    turns_percentiles: [f64; 3],
    branching: Ratio,
    decision_moves: Ratio,
    repetition: Ratio,
    coverage: Moments,
    lead_change: Moments,
    drama: Moments,
    decisiveness: Moments,
    stability: Moments,
}

/// [`ColumnSums`] of a run's columns.
fn column_sums(f: &Facts<'_>) -> ColumnSums {
    ColumnSums {
        length: whole_moments(f.length),
        turns: whole_moments(f.turns),
        length_percentiles: percentiles(f.length),
        turns_percentiles: percentiles(f.turns),
        branching: ratio(f.branching_sum, f.length, |x| x),
        decision_moves: ratio(f.multi_choice, f.length, f64::from),
        repetition: ratio(f.repeated, f.length, f64::from),
        coverage: moments(f.coverage),
        lead_change: moments(f.lead_change),
        drama: moments(f.drama),
        decisiveness: moments(f.decisiveness),
        stability: moments(f.stability),
    }
}

/// Every sum of a variant's metrics over its per-game columns (see [`Summary`]). Fails when
/// the players are not 2 to 4 or the columns are not all as long as one row per game.
pub fn summarize(f: &Facts<'_>) -> Result<Summary> {
    let n = f.length.len();
    let p = f.players;
    if !(2..=MAX_PLAYERS).contains(&p) {
        return Err(Error::InvalidOption(format!(
            "players must be 2 to {MAX_PLAYERS}, got {p}"
        )));
    }
    f.check(f.game.len())?;
    let seats = || match p {
        2 => seat_sums::<2>(f),
        3 => seat_sums::<3>(f),
        _ => seat_sums::<4>(f),
    };
    // The seats and the columns are summed side by side on large runs; each part is the same
    // computation either way, so the numbers do not change.
    let (s, c) = if n >= PARALLEL_GAMES {
        std::thread::scope(|scope| {
            let columns = scope.spawn(|| column_sums(f));
            let s = seats();
            let c = columns
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e));
            (s, c)
        })
    } else {
        (seats(), column_sums(f))
    };
    Ok(Summary {
        games: n as u64,
        seats: s.seats,
        balance: s.balance,
        single: s.single,
        draw: s.draw,
        truncated: f.truncated.iter().filter(|&&t| t).count() as u64,
        top_tied: f.top_tied.iter().filter(|&&t| t).count() as u64,
        top_tied_draw: s.top_tied_draw,
        repeated_games: f.repeated.iter().filter(|&&r| r > 0).count() as u64,
        length: c.length,
        turns: c.turns,
        length_percentiles: c.length_percentiles,
        turns_percentiles: c.turns_percentiles,
        branching: c.branching,
        decision_moves: c.decision_moves,
        repetition: c.repetition,
        coverage: c.coverage,
        lead_change: c.lead_change,
        drama: c.drama,
        decisiveness: c.decisiveness,
        stability: c.stability,
        pie_chose: s.pie_chose,
        pie_swap: s.pie_swap,
        swap_seats: s.swap_seats,
        accept_seats: s.accept_seats,
        game: f.game.iter().map(|c| moments(c)).collect(),
        series: f.series.iter().map(|c| tenth_moments(c)).collect(),
    })
}

/// The moments of each tenth of a series (games × [`super::BINS`], row-major), each taken as
/// [`moments`] takes a column's.
fn tenth_moments(series: &[f64]) -> [Moments; super::BINS] {
    let bins = super::BINS;
    let mut tenth = Vec::with_capacity(series.len() / bins);
    std::array::from_fn(|k| {
        tenth.clear();
        tenth.extend(series.iter().skip(k).step_by(bins));
        moments(&tenth)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// Moments by the textbook two passes over the values that are not NaN.
    fn naive(xs: &[f64]) -> Moments {
        let kept: Vec<f64> = xs.iter().copied().filter(|x| !x.is_nan()).collect();
        if kept.is_empty() {
            return EMPTY;
        }
        let mean = kept.iter().sum::<f64>() / kept.len() as f64;
        Moments {
            n: kept.len() as u64,
            mean,
            squares: kept.iter().map(|x| (x - mean) * (x - mean)).sum(),
        }
    }

    fn close(a: Moments, b: Moments) -> bool {
        let near = |x: f64, y: f64| (x - y).abs() <= 1e-9 * (1.0 + x.abs().max(y.abs()));
        a.n == b.n && near(a.mean, b.mean) && near(a.squares, b.squares)
    }

    #[test]
    fn blocked_moments_equal_two_passes() {
        let mut rng = Rng::new(3);
        for n in [
            0,
            1,
            2,
            7,
            8,
            9,
            BLOCK - 1,
            BLOCK,
            BLOCK + 1,
            5 * BLOCK + 17,
        ] {
            let xs: Vec<f64> = (0..n)
                .map(|i| {
                    if i % 7 == 3 {
                        f64::NAN
                    } else {
                        1e6 + (rng.below(1000) as f64) / 7.0
                    }
                })
                .collect();
            let (got, want) = (moments(&xs), naive(&xs));
            assert!(
                close(got, want) || (n == 0 && got.n == 0),
                "{n}: {got:?} {want:?}"
            );
            let whole: Vec<u32> = (0..n).map(|_| rng.below(5000) as u32).collect();
            let as_floats: Vec<f64> = whole.iter().map(|&x| f64::from(x)).collect();
            if n > 0 {
                let got = whole_moments(&whole);
                assert!(close(got, naive(&as_floats)), "{n}");
                let total: u64 = whole.iter().map(|&x| u64::from(x)).sum();
                assert_eq!(got.mean, total as f64 / n as f64);
            }
        }
        // Every value NaN in a block, and a block of one value.
        let xs = [f64::NAN; 3];
        assert_eq!(moments(&xs).n, 0);
        assert_eq!(
            moments(&[2.5]),
            Moments {
                n: 1,
                mean: 2.5,
                squares: 0.0
            }
        );
    }

    #[test]
    fn percentiles_interpolate_like_numpy() {
        // numpy.percentile([4, 1, 3, 2], [50, 10, 90]) = [2.5, 1.3, 3.7].
        let got = percentiles(&[4, 1, 3, 2]);
        for (g, w) in got.iter().zip([2.5, 1.3, 3.7]) {
            assert!((g - w).abs() < 1e-12, "{got:?}");
        }
        assert_eq!(percentiles(&[7]), [7.0; 3]);
        assert!(percentiles(&[]).iter().all(|x| x.is_nan()));
        // A table of counts and a sort give the same order statistics.
        let mut rng = Rng::new(9);
        let small: Vec<u32> = (0..1001).map(|_| rng.below(40) as u32).collect();
        let mut big = small.clone();
        big.push(MAX_TABLED + 1);
        let mut sorted = big.clone();
        sorted.sort_unstable();
        let at = |q: f64| {
            let pos = q / 100.0 * (sorted.len() - 1) as f64;
            let k = pos.floor() as usize;
            lerp(
                f64::from(sorted[k]),
                f64::from(sorted[k + 1]),
                pos - pos.floor(),
            )
        };
        assert_eq!(percentiles(&big), PERCENTS.map(at));
    }

    fn facts<'a>(
        players: usize,
        length: &'a [u32],
        floats: &'a [f64],
        flags: &'a [bool],
        pie: &'a [i8],
        returns: &'a [f64],
        ranks: &'a [f64],
    ) -> Facts<'a> {
        Facts {
            players,
            length,
            turns: length,
            multi_choice: length,
            repeated: length,
            branching_bins: Box::leak(vec![0; length.len() * super::super::BINS].into()),
            branching_sum: floats,
            coverage: floats,
            lead_change: floats,
            drama: floats,
            decisiveness: floats,
            threshold: floats,
            stability: floats,
            returns,
            ranks,
            scores: &[],
            top_tied: flags,
            truncated: flags,
            pie,
            game: Vec::new(),
            series: Vec::new(),
        }
    }

    #[test]
    fn seats_outcomes_and_pie_by_hand() {
        // Three two-player games: player 0 wins after a swap, a draw, player 1 wins after an
        // accept; the draw's scores tied for first.
        let length = [3, 4, 5];
        let floats = [1.0, 2.0, 3.0];
        let flags = [false, true, false];
        let truncated_none = [false; 3];
        let pie = [1, -1, 0];
        let returns = [1.0, -1.0, 0.0, 0.0, -1.0, 1.0];
        let ranks = [1.0, 2.0, 1.5, 1.5, 2.0, 1.0];
        let mut f = facts(2, &length, &floats, &flags, &pie, &returns, &ranks);
        f.truncated = &truncated_none;
        let s = summarize(&f).unwrap();
        assert_eq!(s.games, 3);
        assert_eq!(s.seats, vec![0.5, 0.5]);
        assert_eq!(
            (s.single, s.draw, s.top_tied, s.top_tied_draw),
            (2, 1, 1, 1)
        );
        assert_eq!((s.pie_chose, s.pie_swap), (2, 1));
        assert_eq!(
            (s.swap_seats.clone(), s.accept_seats.clone()),
            (vec![1.0, 0.0], vec![0.0, 1.0])
        );
        // Branching: Σ 1 + 2 + 3 over Σ 3 + 4 + 5.
        assert_eq!((s.branching.num, s.branching.den), (6.0, 12.0));
        assert_eq!(s.length.mean, 4.0);
        assert_eq!(s.length_percentiles, [4.0, 3.2, 4.8]);
        // Seat means tie: the first seat is both highest and lowest, so 1 − 0 every game.
        assert_eq!(
            s.balance,
            Moments {
                n: 3,
                mean: 1.0,
                squares: 0.0
            }
        );
    }

    #[test]
    fn mismatched_columns_and_players_are_refused() {
        let (length, floats, flags, pie) = ([1, 2], [0.0; 2], [false; 2], [-1i8; 2]);
        let (returns, ranks) = ([0.0; 4], [1.0; 4]);
        let f = facts(2, &length, &floats, &flags, &pie, &returns, &ranks);
        assert!(summarize(&f).is_ok());
        let short = [0.0; 1];
        let bad = Facts {
            drama: &short,
            ..f.clone()
        };
        let e = summarize(&bad).unwrap_err().to_string();
        assert!(e.contains("drama has 1 rows"), "{e}");
        let bad = Facts {
            returns: &short,
            ..f.clone()
        };
        let e = summarize(&bad).unwrap_err().to_string();
        assert!(
            e.contains("returns needs 2 entries for each of 2 games"),
            "{e}"
        );
        let bad = Facts { players: 5, ..f };
        assert!(summarize(&bad)
            .unwrap_err()
            .to_string()
            .contains("players must be 2 to 4"));
    }
}
