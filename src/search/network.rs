//! The graph network of `stonefield train` played natively: a [`BatchEvaluator`] for PUCT that
//! needs no Python, so searches run without the GIL and on many threads.
//!
//! The architecture is `graph` of the Python package (its `_graphnet` module defines it and its
//! numpy forward pass is the reference this one follows): per site, the observation's planes
//! and three fixed features (orthogonal neighbours / 6, diagonal neighbours / 6, on the
//! perimeter) go through `h = relu(x·W_in + b_in)`; each block is
//! `u = relu(h·A + mean_orth(h)·B + mean_diag(h)·Bd + mean_sites(h)·C + b1)`,
//! `h = relu(h + u·D + b2)`; each site has `K` logits `h·W_p + b_p`, the actions naming no site
//! get `z·W_e + b_e` with `z = [mean_sites(h), max_sites(h)]`, and the values are
//! `tanh(relu(z·W_v1 + b_v1)·W_v2 + b_v2)`. Priors are the softmax of the legal actions'
//! logits.
//!
//! The weights ([`GraphWeights`]) are shared between threads; each [`GraphNet`] holds the
//! tables of one board and its own scratch memory, sized when it is made, so evaluating a batch
//! allocates nothing. The weight matrices are kept as stored, `(in, out)` row-major, so every
//! inner loop runs over a contiguous row of `out` floats.

use std::sync::Arc;

use super::puct::{Batch, BatchEvaluator};
use crate::board::Relation;
use crate::error::{Error, Result};
use crate::games::Game;

/// Fixed per-site features after the observation's planes.
pub const STATIC_FEATURES: usize = 3;

/// Weights per block: A, B, Bd, C, b1, D, b2.
const BLOCK_WEIGHTS: usize = 7;

/// The logit of an illegal action before the softmax (as the reference's).
const ILLEGAL: f32 = -1e9;

/// One residual message-passing block.
#[derive(Clone, Debug)]
struct Block {
    a: Vec<f32>,
    b: Vec<f32>,
    bd: Vec<f32>,
    c: Vec<f32>,
    b1: Vec<f32>,
    d: Vec<f32>,
    b2: Vec<f32>,
}

/// The weights of a graph network, for every board of its game.
#[derive(Clone, Debug)]
pub struct GraphWeights {
    planes: usize,
    hidden: usize,
    site_blocks: usize,
    extras: usize,
    players: usize,
    w_in: Vec<f32>,
    b_in: Vec<f32>,
    blocks: Vec<Block>,
    w_p: Vec<f32>,
    b_p: Vec<f32>,
    w_e: Vec<f32>,
    b_e: Vec<f32>,
    w_v1: Vec<f32>,
    b_v1: Vec<f32>,
    w_v2: Vec<f32>,
    b_v2: Vec<f32>,
}

impl GraphWeights {
    /// The shapes of the weight arrays, in the order [`GraphWeights::new`] takes them, of a
    /// network with `f` input features, `h` hidden units, `k` site outputs, `e` extra actions
    /// and `blocks` blocks (as `_graphnet.graph_shapes` in Python).
    fn shapes(
        f: usize,
        h: usize,
        k: usize,
        e: usize,
        players: usize,
        blocks: usize,
    ) -> Vec<Vec<usize>> {
        let mut shapes = vec![vec![f, h], vec![h]];
        for _ in 0..blocks {
            shapes.extend([
                vec![h, h],
                vec![h, h],
                vec![h, h],
                vec![h, h],
                vec![h],
                vec![h, h],
                vec![h],
            ]);
        }
        shapes.extend([
            vec![h, k],
            vec![k],
            vec![2 * h, e],
            vec![e],
            vec![2 * h, h],
            vec![h],
            vec![h, players],
            vec![players],
        ]);
        shapes
    }

    /// The network of `blocks` blocks whose arrays (shape, row-major data) are `arrays`, in the
    /// order of the architecture: `W_in (F, H), b_in (H)`; per block `A, B, Bd, C (H, H),
    /// b1 (H), D (H, H), b2 (H)`; `W_p (H, K), b_p (K), W_e (2H, E), b_e (E), W_v1 (2H, H),
    /// b_v1 (H), W_v2 (H, players), b_v2 (players)`, F = planes + 3. Arrays of other shapes
    /// are an [`Error::InvalidOption`] naming the first that does not fit.
    pub fn new(blocks: usize, arrays: Vec<(Vec<usize>, Vec<f32>)>) -> Result<GraphWeights> {
        let expected = 2 + BLOCK_WEIGHTS * blocks + 8;
        if arrays.len() != expected {
            return Err(Error::InvalidOption(format!(
                "a graph network of {blocks} blocks has {expected} weight arrays, got {}",
                arrays.len()
            )));
        }
        let (f, h) = match arrays[0].0.as_slice() {
            &[f, h] if f > STATIC_FEATURES && h > 0 => (f, h),
            s => {
                return Err(Error::InvalidOption(format!(
                    "a graph network's first weights are (planes + 3, hidden), got {s:?}"
                )))
            }
        };
        let dim = |i: usize, j: usize| arrays.get(i).and_then(|a| a.0.get(j)).copied();
        let k = dim(2 + BLOCK_WEIGHTS * blocks, 1).unwrap_or(0);
        let e = dim(4 + BLOCK_WEIGHTS * blocks, 1).unwrap_or(0);
        let players = dim(8 + BLOCK_WEIGHTS * blocks, 1).unwrap_or(0);
        let shapes = Self::shapes(f, h, k, e, players, blocks);
        for (i, ((shape, data), want)) in arrays.iter().zip(&shapes).enumerate() {
            if shape != want || data.len() != want.iter().product::<usize>() {
                return Err(Error::InvalidOption(format!(
                    "graph network weights {i}: expected shape {want:?}, got {shape:?} with {} \
                     values",
                    data.len()
                )));
            }
        }
        if players == 0 {
            return Err(Error::InvalidOption(
                "a graph network needs a value per player, got none".into(),
            ));
        }
        let mut it = arrays.into_iter().map(|(_, d)| d);
        let mut next = || it.next().unwrap_or_default();
        let w_in = next();
        let b_in = next();
        let blocks = (0..blocks)
            .map(|_| Block {
                a: next(),
                b: next(),
                bd: next(),
                c: next(),
                b1: next(),
                d: next(),
                b2: next(),
            })
            .collect();
        Ok(GraphWeights {
            planes: f - STATIC_FEATURES,
            hidden: h,
            site_blocks: k,
            extras: e,
            players,
            w_in,
            b_in,
            blocks,
            w_p: next(),
            b_p: next(),
            w_e: next(),
            b_e: next(),
            w_v1: next(),
            b_v1: next(),
            w_v2: next(),
            b_v2: next(),
        })
    }
}

/// A neighbour table: each site's neighbours (`start[s]..start[s + 1]` of `list`) and the
/// inverse of their number (0 for a site without any).
#[derive(Clone, Debug)]
struct Neighbours {
    start: Vec<usize>,
    list: Vec<usize>,
    inverse: Vec<f32>,
}

impl Neighbours {
    fn of(game: &Game, relation: Relation) -> Neighbours {
        let board = game.board();
        let mut start = vec![0];
        let mut list = Vec::new();
        let mut inverse = Vec::new();
        for s in 0..board.num_sites() {
            let n = board.neighbors(relation, s);
            list.extend(n.iter().map(|&t| usize::from(t)));
            start.push(list.len());
            inverse.push(if n.is_empty() {
                0.0
            } else {
                1.0 / n.len() as f32
            });
        }
        Neighbours {
            start,
            list,
            inverse,
        }
    }

    fn count(&self, s: usize) -> usize {
        self.start[s + 1] - self.start[s]
    }

    /// `out` (S × H) = the mean of `h` over each site's neighbours.
    #[inline(always)]
    fn mean(&self, h: &[f32], width: usize, out: &mut [f32]) {
        for (s, row) in out.chunks_exact_mut(width).enumerate() {
            row.fill(0.0);
            for &t in &self.list[self.start[s]..self.start[s + 1]] {
                for (o, &x) in row.iter_mut().zip(&h[t * width..(t + 1) * width]) {
                    *o += x;
                }
            }
            let inv = self.inverse[s];
            row.iter_mut().for_each(|o| *o *= inv);
        }
    }
}

/// `o[j0..j0 + N] += xr · w[.., j0..j0 + N]` (`w` row-major, `m` wide), the `N` sums held in
/// registers over the whole of `xr`, so each weight and each output is loaded once.
#[inline(always)]
fn add_block<const N: usize>(o: &mut [f32], xr: &[f32], w: &[f32], m: usize, j0: usize) {
    let mut acc = [0.0f32; N];
    acc.copy_from_slice(&o[j0..j0 + N]);
    for (&a, wr) in xr.iter().zip(w.chunks_exact(m)) {
        if let Ok(wr) = <&[f32; N]>::try_from(&wr[j0..j0 + N]) {
            for (c, &wj) in acc.iter_mut().zip(wr) {
                *c += a * wj;
            }
        }
    }
    o[j0..j0 + N].copy_from_slice(&acc);
}

/// [`add_block`] for two rows at once (`o0 += x0 · w`, `o1 += x1 · w`): each weight loaded
/// once for both, each row's sums in the same order as alone.
#[inline(always)]
fn add_block2<const N: usize>(
    o0: &mut [f32],
    o1: &mut [f32],
    x0: &[f32],
    x1: &[f32],
    w: &[f32],
    m: usize,
    j0: usize,
) {
    let mut acc0 = [0.0f32; N];
    let mut acc1 = [0.0f32; N];
    acc0.copy_from_slice(&o0[j0..j0 + N]);
    acc1.copy_from_slice(&o1[j0..j0 + N]);
    for ((&a0, &a1), wr) in x0.iter().zip(x1).zip(w.chunks_exact(m)) {
        if let Ok(wr) = <&[f32; N]>::try_from(&wr[j0..j0 + N]) {
            for ((c0, c1), &wj) in acc0.iter_mut().zip(acc1.iter_mut()).zip(wr) {
                *c0 += a0 * wj;
                *c1 += a1 * wj;
            }
        }
    }
    o0[j0..j0 + N].copy_from_slice(&acc0);
    o1[j0..j0 + N].copy_from_slice(&acc1);
}

/// One row of [`matmul_add`]: `o (m) += xr (n) · w (n × m)`, output columns in register
/// blocks of 32, then 8, then one by one.
#[inline(always)]
fn row_add(o: &mut [f32], xr: &[f32], w: &[f32], m: usize) {
    let mut j0 = 0;
    while j0 + 32 <= m {
        add_block::<32>(o, xr, w, m, j0);
        j0 += 32;
    }
    while j0 + 8 <= m {
        add_block::<8>(o, xr, w, m, j0);
        j0 += 8;
    }
    if j0 < m {
        for (&a, wr) in xr.iter().zip(w.chunks_exact(m)) {
            for (oj, &wj) in o[j0..].iter_mut().zip(&wr[j0..]) {
                *oj += a * wj;
            }
        }
    }
}

/// `out (rows × m) += x (rows × n) · w (n × m)`, row-major: output columns in register blocks
/// of 32, then 8, then one by one (measured on Subsume size 6, hidden 32: 32 at once is about
/// twice as fast as a plain loop over the columns), the 32-wide blocks two rows at a time.
/// Each output's sum runs over `n` in order whatever the blocking, so the result is the same
/// on every instruction set.
#[inline(always)]
fn matmul_add(out: &mut [f32], x: &[f32], n: usize, w: &[f32], m: usize) {
    if n == 0 || m == 0 {
        return;
    }
    let wide = m - m % 32;
    let mut pairs = out.chunks_exact_mut(2 * m);
    let mut x_pairs = x.chunks_exact(2 * n);
    for (o, xr) in (&mut pairs).zip(&mut x_pairs) {
        let (o0, o1) = o.split_at_mut(m);
        let (x0, x1) = xr.split_at(n);
        let mut j0 = 0;
        while j0 < wide {
            add_block2::<32>(o0, o1, x0, x1, w, m, j0);
            j0 += 32;
        }
        if wide < m {
            // The narrow columns row by row.
            for (o, xr) in [(o0, x0), (o1, x1)] {
                let mut j0 = wide;
                while j0 + 8 <= m {
                    add_block::<8>(o, xr, w, m, j0);
                    j0 += 8;
                }
                if j0 < m {
                    for (&a, wr) in xr.iter().zip(w.chunks_exact(m)) {
                        for (oj, &wj) in o[j0..].iter_mut().zip(&wr[j0..]) {
                            *oj += a * wj;
                        }
                    }
                }
            }
        }
    }
    let rest = pairs.into_remainder();
    if !rest.is_empty() {
        row_add(rest, x_pairs.remainder(), w, m);
    }
}

/// Every row of `out` (`m` wide) set to `bias`.
#[inline(always)]
fn fill_rows(out: &mut [f32], bias: &[f32]) {
    if bias.is_empty() {
        return;
    }
    for row in out.chunks_exact_mut(bias.len()) {
        row.copy_from_slice(bias);
    }
}

#[inline(always)]
fn relu(x: &mut [f32]) {
    x.iter_mut().for_each(|v| *v = v.max(0.0));
}

/// A graph network on one board of its game: a native [`BatchEvaluator`].
#[derive(Clone, Debug)]
pub struct GraphNet {
    w: Arc<GraphWeights>,
    /// The widest vector instructions of this processor: the forward pass is compiled for
    /// each set and runs with the best one (the same sums in the same order on every set, so
    /// the outputs do not depend on the processor).
    arch: pulp::Arch,
    sites: usize,
    num_actions: usize,
    orth: Neighbours,
    diag: Neighbours,
    /// The fixed features, S × 3.
    fixed: Vec<f32>,
    /// The column of each action in the site logits (site-major) and then the extras.
    index: Vec<usize>,
    // Scratch, sized once.
    x: Vec<f32>,
    h: Vec<f32>,
    u: Vec<f32>,
    t: Vec<f32>,
    mo: Vec<f32>,
    md: Vec<f32>,
    cvec: Vec<f32>,
    raw: Vec<f32>,
    z: Vec<f32>,
    v1: Vec<f32>,
}

impl GraphNet {
    /// The network `weights` on `game`'s board. A game whose observation planes, players or
    /// kinds of actions are not those of the weights is an [`Error::InvalidOption`] naming
    /// both.
    pub fn new(weights: Arc<GraphWeights>, game: &Game) -> Result<GraphNet> {
        let w = &weights;
        let sites = game.board().num_sites();
        let na = game.num_actions();
        // The action layout: an action naming site s at id a is in block (a − s) / S.
        let mut blocks = 0;
        let mut placed = Vec::with_capacity(na);
        for a in 0..na {
            match game.action_site(a) {
                None => placed.push(None),
                Some(s) if a >= s && (a - s) % sites == 0 => {
                    let block = (a - s) / sites;
                    blocks = blocks.max(block + 1);
                    placed.push(Some((s, block)));
                }
                Some(s) => {
                    return Err(Error::InvalidOption(format!(
                        "{}: action {a} names site {s} out of the block layout the graph \
                         network reads",
                        game.name()
                    )))
                }
            }
        }
        let mut extra = 0;
        let index: Vec<usize> = placed
            .iter()
            .map(|p| match p {
                Some((s, b)) => s * blocks + b,
                None => {
                    extra += 1;
                    sites * blocks + extra - 1
                }
            })
            .collect();
        let (planes, players) = (game.observation_planes(), game.num_players());
        if (planes, players, blocks, extra) != (w.planes, w.players, w.site_blocks, w.extras) {
            return Err(Error::InvalidOption(format!(
                "this graph network reads {} observation planes, {} players, {} site actions \
                 per site and {} other actions; {} has {planes}, {players}, {blocks} and {extra}",
                w.planes,
                w.players,
                w.site_blocks,
                w.extras,
                game.name()
            )));
        }
        let orth = Neighbours::of(game, Relation::Orthogonal);
        let diag = Neighbours::of(game, Relation::Diagonal);
        let mut on_edge = vec![0.0f32; sites];
        for &s in game.board().perimeter() {
            on_edge[usize::from(s)] = 1.0;
        }
        let mut fixed = Vec::with_capacity(sites * STATIC_FEATURES);
        for (s, &edge) in on_edge.iter().enumerate() {
            fixed.extend([orth.count(s) as f32 / 6.0, diag.count(s) as f32 / 6.0, edge]);
        }
        let h = w.hidden;
        let f = w.planes + STATIC_FEATURES;
        Ok(GraphNet {
            sites,
            num_actions: na,
            orth,
            diag,
            fixed,
            index,
            x: vec![0.0; sites * f],
            h: vec![0.0; sites * h],
            u: vec![0.0; sites * h],
            t: vec![0.0; sites * h],
            mo: vec![0.0; sites * h],
            md: vec![0.0; sites * h],
            cvec: vec![0.0; h],
            raw: vec![0.0; sites * w.site_blocks + w.extras],
            z: vec![0.0; 2 * h],
            v1: vec![0.0; h],
            arch: pulp::Arch::new(),
            w: weights,
        })
    }

    /// The priors (`num_actions`) and values (`players`) of one position. Inlined into
    /// [`GraphNet::evaluate`]'s dispatch, so that it is compiled for each instruction set.
    #[inline(always)]
    fn forward(&mut self, obs: &[f32], legal: &[bool], priors: &mut [f32], values: &mut [f32]) {
        let w = &*self.w;
        let (s_count, h) = (self.sites, w.hidden);
        let f = w.planes + STATIC_FEATURES;
        for (s, row) in self.x.chunks_exact_mut(f).enumerate() {
            for (p, v) in row[..w.planes].iter_mut().enumerate() {
                *v = obs[p * s_count + s];
            }
            row[w.planes..]
                .copy_from_slice(&self.fixed[s * STATIC_FEATURES..(s + 1) * STATIC_FEATURES]);
        }
        fill_rows(&mut self.h, &w.b_in);
        matmul_add(&mut self.h, &self.x, f, &w.w_in, h);
        relu(&mut self.h);
        let inv_sites = 1.0 / s_count as f32;
        for b in &w.blocks {
            self.orth.mean(&self.h, h, &mut self.mo);
            self.diag.mean(&self.h, h, &mut self.md);
            // mean_sites(h)·C + b1, the same for every site.
            self.z[..h].fill(0.0);
            for row in self.h.chunks_exact(h) {
                for (m, &v) in self.z[..h].iter_mut().zip(row) {
                    *m += v;
                }
            }
            self.z[..h].iter_mut().for_each(|m| *m *= inv_sites);
            self.cvec.copy_from_slice(&b.b1);
            matmul_add(&mut self.cvec, &self.z[..h], h, &b.c, h);
            fill_rows(&mut self.u, &self.cvec);
            matmul_add(&mut self.u, &self.h, h, &b.a, h);
            matmul_add(&mut self.u, &self.mo, h, &b.b, h);
            matmul_add(&mut self.u, &self.md, h, &b.bd, h);
            relu(&mut self.u);
            for (t, &x) in self
                .t
                .chunks_exact_mut(h)
                .zip(self.h.chunks_exact(h))
                .flat_map(|(tr, hr)| {
                    tr.copy_from_slice(&b.b2);
                    tr.iter_mut().zip(hr)
                })
            {
                *t += x;
            }
            matmul_add(&mut self.t, &self.u, h, &b.d, h);
            relu(&mut self.t);
            std::mem::swap(&mut self.h, &mut self.t);
        }
        // z = [mean_sites(h), max_sites(h)].
        let (mean, max) = self.z.split_at_mut(h);
        mean.fill(0.0);
        max.fill(f32::NEG_INFINITY);
        for row in self.h.chunks_exact(h) {
            for ((m, x), &v) in mean.iter_mut().zip(max.iter_mut()).zip(row) {
                *m += v;
                *x = x.max(v);
            }
        }
        mean.iter_mut().for_each(|m| *m *= inv_sites);
        let k = w.site_blocks;
        let (site_logits, extra_logits) = self.raw.split_at_mut(s_count * k);
        fill_rows(site_logits, &w.b_p);
        matmul_add(site_logits, &self.h, h, &w.w_p, k);
        extra_logits.copy_from_slice(&w.b_e);
        matmul_add(extra_logits, &self.z, 2 * h, &w.w_e, w.extras);
        // The softmax of the legal actions' logits.
        let mut top = f32::NEG_INFINITY;
        for ((p, &i), &ok) in priors.iter_mut().zip(&self.index).zip(legal) {
            *p = if ok { self.raw[i] } else { ILLEGAL };
            top = top.max(*p);
        }
        let mut sum = 0.0f32;
        for p in priors.iter_mut() {
            *p = (*p - top).exp();
            sum += *p;
        }
        priors.iter_mut().for_each(|p| *p /= sum);
        self.v1.copy_from_slice(&w.b_v1);
        matmul_add(&mut self.v1, &self.z, 2 * h, &w.w_v1, h);
        relu(&mut self.v1);
        values.copy_from_slice(&w.b_v2);
        matmul_add(values, &self.v1, h, &w.w_v2, w.players);
        values.iter_mut().for_each(|v| *v = v.tanh());
    }
}

/// A batch's forward passes, compiled by `pulp` for each instruction set (the work is inlined
/// into `with_simd`, which `pulp` calls from a function built for the processor's best set).
struct Forward<'a> {
    net: &'a mut GraphNet,
    batch: &'a mut Batch,
}

impl pulp::WithSimd for Forward<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _simd: S) {
        let Forward { net, batch } = self;
        let (na, p) = (batch.num_actions, batch.players);
        let obs = net.w.planes * net.sites;
        for r in 0..batch.len {
            net.forward(
                &batch.observations[r * obs..(r + 1) * obs],
                &batch.legal[r * na..(r + 1) * na],
                &mut batch.priors[r * na..(r + 1) * na],
                &mut batch.values[r * p..(r + 1) * p],
            );
        }
    }
}

impl BatchEvaluator for GraphNet {
    fn evaluate(&mut self, batch: &mut Batch) -> Result<()> {
        let (na, p) = (batch.num_actions, batch.players);
        let obs = self.w.planes * self.sites;
        if batch.obs_size != obs || na != self.num_actions || p != self.w.players {
            return Err(Error::Evaluator(format!(
                "this graph network plays boards of {} sites, {} actions and {} players; the \
                 batch has observations of {} floats, {na} actions and {p} players",
                self.sites, self.num_actions, self.w.players, batch.obs_size
            )));
        }
        let n = batch.len;
        batch.priors.resize(n * na, 0.0);
        batch.values.resize(n * p, 0.0);
        let arch = self.arch;
        arch.dispatch(Forward { net: self, batch });
        Ok(())
    }

    fn fork(&self) -> Option<Box<dyn BatchEvaluator + Send>> {
        Some(Box::new(self.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn random_weights(game: &Game, hidden: usize, blocks: usize, seed: u64) -> GraphWeights {
        let net = GraphNet::layout_of(game);
        let (k, e) = net;
        let f = game.observation_planes() + STATIC_FEATURES;
        let h = hidden;
        let shapes = GraphWeights::shapes(f, h, k, e, game.num_players(), blocks);
        let mut rng = Rng::new(seed);
        let arrays = shapes
            .into_iter()
            .map(|s| {
                let n = s.iter().product::<usize>();
                let scale = 1.0 / (s[0] as f32).sqrt();
                let d = (0..n)
                    .map(|_| (rng.unit() as f32 * 2.0 - 1.0) * scale)
                    .collect();
                (s, d)
            })
            .collect();
        GraphWeights::new(blocks, arrays).expect("shapes fit")
    }

    impl GraphNet {
        /// (K, E) of a game, for the tests.
        fn layout_of(game: &Game) -> (usize, usize) {
            let s = game.board().num_sites();
            let mut k = 0;
            let mut e = 0;
            for a in 0..game.num_actions() {
                match game.action_site(a) {
                    Some(site) => k = k.max((a - site) / s + 1),
                    None => e += 1,
                }
            }
            (k, e)
        }
    }

    /// The blocked product (two rows at once, registers of 32 and 8 columns) against the
    /// plain triple loop, which sums each output over `n` in the same order: equal to the bit,
    /// for odd and even row counts and widths that are and are not multiples of 32 and 8.
    #[test]
    fn the_blocked_product_is_the_plain_one_to_the_bit() {
        let mut rng = Rng::new(7);
        let mut random =
            |len: usize| -> Vec<f32> { (0..len).map(|_| rng.unit() as f32 * 2.0 - 1.0).collect() };
        for (rows, n, m) in [
            (1, 3, 32),
            (2, 5, 32),
            (5, 7, 40),
            (4, 32, 64),
            (3, 9, 3),
            (6, 64, 71),
        ] {
            let (x, w, start) = (random(rows * n), random(n * m), random(rows * m));
            let mut fast = start.clone();
            let arch = pulp::Arch::new();
            arch.dispatch(|| matmul_add(&mut fast, &x, n, &w, m));
            let mut plain = start.clone();
            for r in 0..rows {
                for k in 0..n {
                    for j in 0..m {
                        plain[r * m + j] += x[r * n + k] * w[k * m + j];
                    }
                }
            }
            let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&fast), bits(&plain), "rows {rows}, n {n}, m {m}");
        }
    }

    #[test]
    fn priors_are_distributions_over_legal_actions_and_values_in_range() {
        for name in ["subsume", "windflowers", "faraday", "smallholder"] {
            let game = Game::make(name, &[]).expect("default options");
            let w = Arc::new(random_weights(&game, 8, 2, 1));
            let mut net = GraphNet::new(w.clone(), &game).expect("its game");
            let state = game.new_state();
            let mut batch = Batch::new(&state, true);
            batch.push(&state);
            net.evaluate(&mut batch).expect("evaluates");
            batch.check().expect("well formed");
            let legal_sum: f32 = batch
                .priors
                .iter()
                .zip(&batch.legal)
                .filter(|(_, &l)| l)
                .map(|(p, _)| p)
                .sum();
            assert!((legal_sum - 1.0).abs() < 1e-4, "{name}: {legal_sum}");
            // A fork gives the same outputs.
            let mut fork = net.fork().expect("native");
            let before = batch.priors.clone();
            fork.evaluate(&mut batch).expect("evaluates");
            assert_eq!(before, batch.priors);
        }
    }

    #[test]
    fn another_game_is_refused() {
        let sub = Game::make("subsume", &[]).expect("default options");
        let wind = Game::make("windflowers", &[]).expect("default options");
        let w = Arc::new(random_weights(&sub, 8, 1, 1));
        assert!(matches!(
            GraphNet::new(w, &wind),
            Err(Error::InvalidOption(_))
        ));
        let bad = GraphWeights::new(1, vec![(vec![4, 8], vec![0.0; 32])]);
        assert!(matches!(bad, Err(Error::InvalidOption(_))));
    }
}
