//! Windflowers (Dale Walton, 2021), for 2, 3 or 4 players.
//!
//! On a turn the mover passes, places a stone on an empty site, or *replaces* an opponent's stone
//! with their own. Replacing the stone of player Q on site s is legal when, among the neighbours
//! of s under the capture relation, Q's stones strictly outnumber the mover's (other players'
//! stones do not count). The game ends when every player has passed in succession. Scores are the
//! number of own stones ("stones") or the size of the largest own group ("largest_group"); a tie
//! for first is broken by comparing unpaired group sizes ("underdog" or "cascade").
//!
//! | grid | board | capture relation | group relation |
//! |---|---|---|---|
//! | hex | hex cells, alternating hexagon (N−1, N+1) | orthogonal (6) | orthogonal |
//! | trisquare (default) | triangle-square points, d = N − 2 | all (7 inside) | orthogonal (5) |
//! | square | square points (2N−2)² | all (8) | orthogonal (4) |
//!
//! Actions: `a < N` places on site a when it is empty and replaces the stone on it otherwise;
//! `a = N` passes.
//!
//! # Every game ends
//! Call Φ the number of capture-neighbour pairs whose sites hold stones of one player. A
//! replacement on s of o's stone by m's changes only the pairs through s, by (m's neighbours −
//! o's neighbours), which the rule makes negative: Φ falls by at least one. A placement adds a
//! stone and nothing removes one. So a game has at most N placements and at most E replacements
//! (E = capture pairs: placements raise Φ by at most E in all), and, with at most n − 1 passes
//! before each of those and n at the end, at most n · (N + E + 1) actions (n players). The
//! move cap (`max_moves`, default 10 × sites; reaching it ends the game as truncated, a draw
//! among all players) lies below that bound with 3 or 4 players on most boards, so there it can
//! in principle cut a legal game short; `docs/games/windflowers.md` has the proof and the table,
//! and `tests/windflowers_potential.rs` measures Φ along random and MCTS games.
//!
//! # Implementation
//! Positions are bit sets over the sites (one 64-bit word up to 64 sites, two up to 128, then 4,
//! 8 or 16 words). Random playouts spend their time choosing among the legal actions, so the
//! legal set of every player is kept exact across moves and a uniform random action is one draw
//! and a select-the-r-th-bit:
//! * each player's count of stones among the capture neighbours of every site, as bit planes
//!   (3, or 4 on the square grid whose sites have up to 8 capture neighbours), so a placement
//!   adds to all the neighbours of a site in a few word operations; with two players only the
//!   difference of the two counts;
//! * for every player, the opponents' stones they may replace. A stone's status depends only on
//!   its owner and the counts around it, so a placement on s changes it only on s and its
//!   neighbours, and only the words holding those are recomputed (one bit-sliced comparison of
//!   the owner's count against the mover's per word).

use std::sync::Arc;

use super::options::{named_enum, Named, OptionSpec, OptionValue, Options, Resolved};
use super::zobrist::{self, Zobrist};
use super::{ranks_from_values_into, GameConfig, Rules};
use crate::algo::bits::{at_width, each_width, Bits, NeighborMasks, PerWidth, Width};
use crate::board::{Board, Relation, Shape};
use crate::error::{Error, Result};
use crate::rng::Rng;

/// The version of this reading of the rules, written into game records. It changes only when
/// the same options and actions could play out differently.
pub const RULES_VERSION: u32 = 1;

named_enum! {
    /// The board and its relations (option `grid`).
    pub enum Grid: "grid" {
        Hex = "hex": "hex cells, alternating hexagon (N−1, N+1); 6 neighbours count for capture",
        TriSquare = "trisquare":
            "snub-square points, d = N − 2; capture counts edges and square diagonals",
        Square = "square": "(2N−2)² square points; capture counts 8 neighbours",
    }
}

named_enum! {
    /// How base scores are counted (option `scoring`).
    pub enum Scoring: "scoring" {
        /// Number of own stones on the board.
        Stones = "stones": "stones on the board",
        /// Size of the largest own group under the group relation.
        LargestGroup = "largest_group": "size of the largest own group",
    }
}

named_enum! {
    /// How a tie for first is broken (option `tiebreak`).
    pub enum Tiebreak: "tiebreak" {
        /// The player with the smaller largest unpaired group takes the difference.
        Underdog = "underdog": "the smaller largest unpaired group gains the difference",
        /// The player with the larger largest unpaired group takes the difference.
        Cascade = "cascade": "the larger one does",
    }
}

/// Windflowers' options.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec::int("players", 2, 4, Some(2), "number of players"),
    OptionSpec::choice("grid", Grid::CHOICES, "trisquare", "the board and its relations"),
    OptionSpec::int(
        "size",
        3,
        15,
        Some(4),
        "board size N (at 4: 34 trisquare points, 36 hex cells, 6×6 square points)",
    ),
    OptionSpec::choice("scoring", Scoring::CHOICES, "stones", "how base scores are counted"),
    OptionSpec::choice("tiebreak", Tiebreak::CHOICES, "underdog", "how a tie for first is broken"),
    OptionSpec::boolean(
        "last_placer_breaks_ties",
        false,
        "the most recent placer wins a tie that remains",
    ),
    OptionSpec::int(
        "max_moves",
        1,
        1 << 40,
        None,
        "move cap (default 10 × sites); reaching it ends the game as truncated, a draw for everyone",
    ),
];

impl Grid {
    /// The board of size `size` (3 or more).
    pub fn shape(self, size: usize) -> Shape {
        match self {
            Grid::Hex => Shape::HexCells {
                a: size - 1,
                b: size + 1,
            },
            Grid::Square => Shape::Square {
                width: 2 * size - 2,
                height: 2 * size - 2,
            },
            Grid::TriSquare => Shape::TriSquare { d: size - 2 },
        }
    }

    /// The relations counted for replacement and joining groups.
    pub fn relations(self) -> (Relation, Relation) {
        match self {
            Grid::Hex => (Relation::Orthogonal, Relation::Orthogonal),
            Grid::TriSquare | Grid::Square => (Relation::All, Relation::Orthogonal),
        }
    }
}

/// Resolved Windflowers options and the board.
#[derive(Clone, Debug)]
pub struct Config {
    pub board: Board,
    pub players: usize,
    pub grid: Grid,
    pub size: usize,
    pub scoring: Scoring,
    pub tiebreak: Tiebreak,
    pub last_placer_breaks_ties: bool,
    pub max_moves: usize,
    /// Relation for replacement counts.
    pub capture: Relation,
    /// Relation for groups.
    pub group: Relation,
    /// The empty position, holding the board's masks at the width that fits it.
    start: Core,
    options: Options,
}

impl Config {
    /// Resolves user options: players, grid, size, scoring, tiebreak, last_placer_breaks_ties,
    /// max_moves.
    pub fn new(given: &[(String, OptionValue)]) -> Result<Config> {
        let r = Resolved::new("windflowers", OPTIONS, given)?;
        let players = r.count("players")?;
        let grid: Grid = r.named("grid")?;
        let size = r.count("size")?;
        let scoring: Scoring = r.named("scoring")?;
        let tiebreak: Tiebreak = r.named("tiebreak")?;
        let last_placer_breaks_ties = r.boolean("last_placer_breaks_ties")?;
        let shape = grid.shape(size);
        let sites = Board::count_sites(shape);
        let max_moves = r.int("max_moves")?.map_or(10 * sites, |m| m as usize);
        let (capture, group) = grid.relations();
        let board = Board::new(shape);
        let too_big =
            || Error::InvalidOption("windflowers: board too large for the bit sets".to_string());
        let sites = board.num_sites();
        let start = at_width!(sites, K => {
            Pos::<K>::new(Arc::new(Masks::new(&board, capture, group).ok_or_else(too_big)?), sites)
        })
        .ok_or_else(too_big)?;
        Ok(Config {
            board,
            players,
            grid,
            size,
            scoring,
            tiebreak,
            last_placer_breaks_ties,
            max_moves,
            capture,
            group,
            start,
            options: r.into_options(|_| OptionValue::from(max_moves)),
        })
    }
}

impl GameConfig for Config {
    const NAME: &'static str = "windflowers";
    const OPTIONS: &'static [OptionSpec] = OPTIONS;
    const RULES_VERSION: u32 = RULES_VERSION;
    fn board(&self) -> &Board {
        &self.board
    }
    fn options(&self) -> &Options {
        &self.options
    }
    fn num_players(&self) -> usize {
        self.players
    }
    /// A placement or replacement on each site, then the pass.
    fn num_actions(&self) -> usize {
        self.board.num_sites() + 1
    }
    fn observation_planes(&self) -> usize {
        self.players + 2
    }
    fn has_scores(&self) -> bool {
        true
    }
    /// The move cap: every game ends by then.
    fn max_game_length(&self) -> usize {
        self.max_moves
    }
    /// Sites by name (`c4`), then `pass`.
    fn action_name(&self, action: usize) -> Option<String> {
        let n = self.board.num_sites();
        match action {
            a if a < n => Some(self.board.site_name(a)),
            a if a == n => Some("pass".into()),
            _ => None,
        }
    }
    /// Every symmetry of the board: the rules use only its neighbour relations and perimeter,
    /// and every action is a site (or the pass).
    fn symmetries(&self) -> Vec<Vec<u16>> {
        self.board.symmetries()
    }
}

/// Bit planes of the neighbour counts: at most 8 capture neighbours (square grid) fit in 4 bits.
/// Boards with at most 7 (hex, trisquare) use the low 3 and leave the top plane empty.
const PLANES: usize = 4;
/// Bit planes of a difference of two counts, −8 to 8 (one more than the counts use).
const DIFF_PLANES: usize = PLANES + 1;

/// The board's neighbour masks at one bit-set width.
#[derive(Clone, Debug)]
struct Masks<const K: usize> {
    /// `capture[s]`: the capture neighbours of s.
    capture: Vec<Bits<K>>,
    /// Group-relation neighbours, for flood fills.
    group: NeighborMasks<K>,
    /// `span[s]`: the first and last word holding s or a capture neighbour of s, the only words a
    /// placement on s can change.
    span: Vec<(u8, u8)>,
    /// Bit planes the counts need: 3 when no site has more than 7 capture neighbours, else 4.
    planes: usize,
    /// The stone values of the position key.
    zobrist: Zobrist,
}

impl<const K: usize> Masks<K> {
    fn new(board: &Board, capture: Relation, group: Relation) -> Option<Masks<K>> {
        let planes = if board.max_degree(capture) <= 7 {
            3
        } else {
            PLANES
        };
        let capture = NeighborMasks::<K>::new(board, capture)?.nbr;
        let group = NeighborMasks::<K>::new(board, group)?;
        let span = capture
            .iter()
            .enumerate()
            .map(|(s, &nb)| {
                let closed = nb | Bits::single(s);
                let word = |x: Option<usize>| (x.unwrap_or(s) / 64) as u8;
                (word(closed.lowest()), word(closed.highest()))
            })
            .collect();
        Some(Masks {
            planes,
            zobrist: Zobrist::new(board.num_sites()),
            capture,
            group,
            span,
        })
    }
}

/// The board of a position at one width: `K` words per set, `64·K` cells (the board's sites
/// first, the rest always empty and never legal).
#[derive(Debug)]
struct Pos<const K: usize> {
    /// The board's masks, shared by every position on it.
    m: Arc<Masks<K>>,
    /// The board array, in rows of 64 so that its length follows from `K` alone.
    cells: [[i8; 64]; K],
    empty: Bits<K>,
    /// Each player's stones.
    owned: [Bits<K>; 4],
    stones: [u32; 4],
    /// With 3 or 4 players, `count[q][i]`: bit i of the number of player q's stones among each
    /// site's capture neighbours.
    count: [[Bits<K>; PLANES]; 4],
    /// With 2 players, bit i of the difference between the two counts (player 0's minus player
    /// 1's, two's complement): only its sign matters, and one counter costs half of two.
    diff: [Bits<K>; DIFF_PLANES],
    /// `replaceable[p]`: the opponents' stones player p may replace.
    replaceable: [Bits<K>; 4],
    /// The board part of the position key ([`zobrist`]).
    zkey: u64,
}

impl<const K: usize> Clone for Pos<K> {
    fn clone(&self) -> Self {
        Pos {
            m: Arc::clone(&self.m),
            cells: self.cells,
            empty: self.empty,
            owned: self.owned,
            stones: self.stones,
            count: self.count,
            diff: self.diff,
            replaceable: self.replaceable,
            zkey: self.zkey,
        }
    }

    /// Copies in place, leaving the shared masks alone when they are the same (the solver's,
    /// the state graph's and the searches' scratch positions).
    fn clone_from(&mut self, source: &Self) {
        // Every field named, so that a new one cannot be forgotten here.
        let Pos {
            m,
            cells,
            empty,
            owned,
            stones,
            count,
            diff,
            replaceable,
            zkey,
        } = source;
        if !Arc::ptr_eq(&self.m, m) {
            self.m = Arc::clone(m);
        }
        self.cells = *cells;
        self.empty = *empty;
        self.owned = *owned;
        self.stones = *stones;
        self.count = *count;
        self.diff = *diff;
        self.replaceable = *replaceable;
        self.zkey = *zkey;
    }
}

/// The positions at every width, one a state.
#[derive(Clone, Debug)]
struct Positions;

impl PerWidth for Positions {
    type At<const K: usize> = Pos<K>;
}

/// The position at the width of its board. One-word boards (every grid up to size 5) are inline
/// so that copying a position for a playout does not allocate; wider ones are boxed.
type Core = Width<Positions>;

impl<const K: usize> Pos<K> {
    fn new(m: Arc<Masks<K>>, sites: usize) -> Self {
        debug_assert!(sites <= 64 * K);
        Pos {
            m,
            cells: [[0; 64]; K],
            empty: Bits::below(sites),
            owned: [Bits::EMPTY; 4],
            stones: [0; 4],
            count: [[Bits::EMPTY; PLANES]; 4],
            diff: [Bits::EMPTY; DIFF_PLANES],
            replaceable: [Bits::EMPTY; 4],
            zkey: 0,
        }
    }

    /// The sites player p may place on or replace.
    #[inline]
    fn legal(&self, p: usize) -> Bits<K> {
        self.empty | self.replaceable[p]
    }

    /// A uniformly random legal action of player p: a site, or `None` for a pass.
    #[inline]
    fn draw(&self, p: usize, rng: &mut Rng) -> Option<usize> {
        self.draw_counted(p, rng).0
    }

    /// [`Pos::draw`] and the number of legal actions it chose among (the sites and the pass).
    #[inline]
    fn draw_counted(&self, p: usize, rng: &mut Rng) -> (Option<usize>, usize) {
        let legal = self.legal(p);
        let count = legal.count();
        // r = count, one past the last legal site, is the pass.
        (legal.nth(rng.below(count + 1)), count + 1)
    }

    /// Player p's playout knowledge score of action `site` (the pass when `site` is off the
    /// board): 2 for a safe placement or replacement, 1 for the pass, 0 for an unsafe one. An
    /// action on a site is unsafe when an opponent could replace the new stone at once: p's
    /// stones around the site outnumber that opponent's. (A stone does not count around its
    /// own site, so the action leaves these counts as they are; the player whose stone is
    /// replaced is never the one, since its stones outnumber p's there.)
    #[inline]
    fn playout_score(&self, players: usize, p: usize, site: usize) -> u32 {
        let Some(&nb) = self.m.capture.get(site) else {
            return 1;
        };
        let mine = (nb & self.owned[p]).count();
        let safe = (0..players).all(|q| q == p || mine <= (nb & self.owned[q]).count());
        2 * u32::from(safe)
    }

    /// Puts player p's stone on `site`, replacing whatever stood there, keeping the counts and
    /// the replaceable sets in step.
    #[inline]
    fn put(&mut self, players: usize, site: usize, p: usize) {
        let cells = self.cells.as_flattened_mut();
        let old = cells[site];
        cells[site] = p as i8 + 1;
        self.empty.remove(site);
        self.owned[p].insert(site);
        self.stones[p] += 1;
        let q = (old > 0).then(|| old as usize - 1);
        let m = &*self.m;
        self.zkey ^= m.zobrist.stone(site, p);
        if let Some(q) = q {
            self.owned[q].remove(site);
            self.stones[q] -= 1;
            self.zkey ^= m.zobrist.stone(site, q);
        }
        let (lo, hi) = if K == 1 {
            (0, 0)
        } else {
            let (lo, hi) = m.span[site];
            (lo as usize, hi as usize)
        };
        let nb = m.capture[site];
        // The player count and the planes as constants, so that the loops over them unroll.
        match (players, m.planes) {
            (2, 3) => self.update::<2, 3>(&nb, lo, hi, p, q),
            (2, _) => self.update::<2, PLANES>(&nb, lo, hi, p, q),
            (3, 3) => self.update::<3, 3>(&nb, lo, hi, p, q),
            (3, _) => self.update::<3, PLANES>(&nb, lo, hi, p, q),
            (_, 3) => self.update::<4, 3>(&nb, lo, hi, p, q),
            _ => self.update::<4, PLANES>(&nb, lo, hi, p, q),
        }
    }

    /// The counts and replaceable sets after p's stone went on a site with capture neighbours
    /// `nb`, replacing q's, in the words `lo..=hi`; `P` players, `L` count planes.
    #[inline]
    fn update<const P: usize, const L: usize>(
        &mut self,
        nb: &Bits<K>,
        lo: usize,
        hi: usize,
        p: usize,
        q: Option<usize>,
    ) {
        for w in lo..=hi {
            if P == 2 {
                self.update_diff::<L>(nb.0[w], w, p, q.is_some());
            } else {
                self.update_counts::<P, L>(nb.0[w], w, p, q);
            }
        }
    }

    /// Two players: adds ±1 (±2 for a replacement) to the difference on `around`, in word `w`,
    /// and rederives the replaceable sets there.
    #[inline]
    fn update_diff<const L: usize>(&mut self, around: u64, w: usize, p: usize, replaced: bool) {
        // Player 0 placing raises the difference, player 1 lowers it; a replacement also
        // removes the other's stone, which doubles the step, so it starts one plane up. Plane L
        // is the sign.
        let d = &mut self.diff[..L + 1];
        let mut carry = around;
        for plane in d.iter_mut().skip(usize::from(replaced)) {
            let x = plane.0[w];
            plane.0[w] = x ^ carry;
            carry &= if p == 0 { x } else { !x };
        }
        let negative = d[L].0[w];
        let nonzero = d[..L].iter().fold(0, |acc, b| acc | b.0[w]);
        self.replaceable[0].0[w] = self.owned[1].0[w] & negative;
        self.replaceable[1].0[w] = self.owned[0].0[w] & nonzero & !negative;
    }

    /// Three or four players: adds 1 to p's counts and takes 1 from q's on `around`, in word `w`, and
    /// rederives every player's replaceable set there.
    #[inline]
    fn update_counts<const P: usize, const L: usize>(
        &mut self,
        around: u64,
        w: usize,
        p: usize,
        q: Option<usize>,
    ) {
        let mut carry = around;
        for plane in self.count[p][..L].iter_mut() {
            let x = plane.0[w];
            plane.0[w] = x ^ carry;
            carry &= x;
        }
        if let Some(q) = q {
            let mut borrow = around;
            for plane in self.count[q][..L].iter_mut() {
                let x = plane.0[w];
                plane.0[w] = x ^ borrow;
                borrow &= !x;
            }
        }
        // The owner's count at every stone (0 on empty sites). A stone is replaceable by p
        // exactly when that count exceeds p's own there; on p's own stones the two are equal,
        // so no mask for ownership or emptiness is needed.
        let mut own = [0u64; L];
        for (owner, count) in self.owned[..P].iter().zip(&self.count) {
            let o = owner.0[w];
            for (acc, plane) in own.iter_mut().zip(count) {
                *acc |= o & plane.0[w];
            }
        }
        for (r, count) in self.replaceable[..P].iter_mut().zip(&self.count) {
            let (mut gt, mut eq) = (0u64, !0u64);
            for (&a, plane) in own.iter().zip(count).rev() {
                let b = plane.0[w];
                gt |= eq & a & !b;
                eq &= !(a ^ b);
            }
            r.0[w] = gt;
        }
    }

    /// Player p's groups under the group relation.
    fn groups(&self, p: usize) -> impl Iterator<Item = Bits<K>> + '_ {
        self.m.group.components(self.owned[p])
    }

    /// Writes the sizes of player p's groups, largest first, to `out`; returns how many.
    fn group_sizes_into(&self, p: usize, out: &mut [u16]) -> usize {
        let mut k = 0;
        for (o, g) in out.iter_mut().zip(self.groups(p)) {
            *o = g.count() as u16;
            k += 1;
        }
        out[..k].sort_unstable_by(|a, b| b.cmp(a));
        k
    }

    /// Base scores S_p (entries beyond the players are 0).
    fn base_scores(&self, cfg: &Config) -> [usize; 4] {
        let mut base = [0; 4];
        for (p, b) in base[..cfg.players].iter_mut().enumerate() {
            *b = match cfg.scoring {
                Scoring::Stones => self.stones[p] as usize,
                Scoring::LargestGroup => self.groups(p).map(|g| g.count()).max().unwrap_or(0),
            };
        }
        base
    }

    /// Final scores F_p after the tie-break for first place.
    fn final_scores(&self, cfg: &Config) -> [usize; 4] {
        let n = cfg.players;
        let base = self.base_scores(cfg);
        let top = base[..n].iter().copied().max().unwrap_or(0);
        let tied = |p: &usize| base[*p] == top;
        if (0..n).filter(tied).count() < 2 {
            return base;
        }
        let mut sizes = [[[0u16; 64]; K]; 4];
        let mut len = [0; 4];
        for p in (0..n).filter(tied) {
            len[p] = self.group_sizes_into(p, sizes[p].as_flattened_mut());
        }
        let mut fin = base;
        for p in (0..n).filter(tied) {
            for v in (0..n).filter(tied).filter(|&v| v != p) {
                let (sp, sv) = (
                    &sizes[p].as_flattened()[..len[p]],
                    &sizes[v].as_flattened()[..len[v]],
                );
                let (lp, lv) = (unpaired_desc(sp, sv), unpaired_desc(sv, sp));
                fin[p] += usize::from(match cfg.tiebreak {
                    Tiebreak::Cascade => lp.saturating_sub(lv),
                    Tiebreak::Underdog => lv.saturating_sub(lp),
                });
            }
        }
        fin
    }
}

/// Whose turn it is and how the game stands, apart from the board.
#[derive(Clone, Debug)]
struct Turn {
    to_move: usize,
    /// Consecutive passes ending with the last action.
    passes: usize,
    moves: usize,
    /// Move number (1-based) of each player's latest placement; 0 if none.
    last_placed: [usize; 4],
    over: bool,
    truncated: bool,
}

impl Turn {
    /// Ends the mover's turn, after a placement (`placed`) or a pass.
    #[inline]
    fn advance(&mut self, cfg: &Config, placed: bool) {
        let p = self.to_move;
        self.moves += 1;
        if placed {
            self.passes = 0;
            self.last_placed[p] = self.moves;
        } else {
            self.passes += 1;
        }
        if self.passes >= cfg.players {
            self.over = true;
        } else if self.moves >= cfg.max_moves {
            self.over = true;
            self.truncated = true;
        }
        // Cheaper than a remainder, and this runs on every move.
        self.to_move = if p + 1 == cfg.players { 0 } else { p + 1 };
    }

    /// The turn number of the position key: the player to move, the passes in a row (the
    /// game is over at `players` of them), and with `last_placer_breaks_ties` the order in
    /// which the players placed last (most recent first, those who never placed left out),
    /// which is all of `last_placed` that can decide a rank.
    #[inline]
    fn key_number(&self, cfg: &Config) -> u64 {
        let mut i = (self.to_move + 4 * self.passes) as u64;
        if cfg.last_placer_breaks_ties {
            let mut order = [0usize, 1, 2, 3];
            let order = &mut order[..cfg.players];
            order.sort_unstable_by_key(|&p| std::cmp::Reverse(self.last_placed[p]));
            let mut code = 0u64;
            for &p in order.iter().filter(|&&p| self.last_placed[p] > 0).rev() {
                code = code * 5 + p as u64 + 1;
            }
            i += 32 * code;
        }
        i
    }
}

/// A Windflowers position.
#[derive(Debug)]
pub struct State {
    cfg: Arc<Config>,
    core: Core,
    turn: Turn,
}

impl Clone for State {
    fn clone(&self) -> Self {
        State {
            cfg: Arc::clone(&self.cfg),
            core: self.core.clone(),
            turn: self.turn.clone(),
        }
    }

    /// Copies in place without touching the shared configuration's count when `self` is a
    /// position of the same game.
    fn clone_from(&mut self, source: &Self) {
        let State { cfg, core, turn } = source;
        if !Arc::ptr_eq(&self.cfg, cfg) {
            self.cfg = Arc::clone(cfg);
        }
        self.core.clone_from(core);
        self.turn.clone_from(turn);
    }
}

impl State {
    /// The empty board, player 0 to move.
    pub fn new(cfg: Arc<Config>) -> State {
        let core = cfg.start.clone();
        State {
            core,
            turn: Turn {
                to_move: 0,
                passes: 0,
                moves: 0,
                last_placed: [0; 4],
                over: false,
                truncated: false,
            },
            cfg,
        }
    }

    /// A position given by its board array (0 empty, k a stone of player k − 1) and the player to
    /// move, as if reached without passes. For analysis and tests.
    pub fn from_position(cfg: Arc<Config>, cells: &[i8], to_move: usize) -> Result<State> {
        super::check_position(
            "windflowers",
            cfg.board.num_sites(),
            cfg.players,
            cells,
            to_move,
        )?;
        let mut s = State::new(cfg);
        s.turn.to_move = to_move;
        for (site, &c) in cells.iter().enumerate() {
            if c > 0 {
                s.put(site, c as usize - 1);
            }
        }
        Ok(s)
    }

    /// The options and board.
    pub fn config(&self) -> &Arc<Config> {
        &self.cfg
    }

    /// Puts player p's stone on `site`, replacing whatever stood there.
    #[inline]
    fn put(&mut self, site: usize, p: usize) {
        let players = self.cfg.players;
        each_width!(&mut self.core, pos => pos.put(players, site, p))
    }

    /// Sizes of player p's groups under the group relation.
    pub fn group_sizes(&self, p: usize) -> Vec<usize> {
        each_width!(&self.core, pos => pos.groups(p).map(|g| g.count()).collect())
    }

    /// Base scores S_p.
    pub fn base_scores(&self) -> Vec<usize> {
        let base = each_width!(&self.core, pos => pos.base_scores(&self.cfg));
        base[..self.cfg.players].to_vec()
    }

    /// Final scores F_p after the tie-break for first place (equal to S_p for everyone when the
    /// top score is unique).
    pub fn final_scores(&self) -> Vec<usize> {
        self.final_array()[..self.cfg.players].to_vec()
    }

    fn final_array(&self) -> [usize; 4] {
        each_width!(&self.core, pos => pos.final_scores(&self.cfg))
    }
}

/// LG(a, b): the largest value of the multiset difference a ⊖ b (one copy of a removed for each
/// copy in b), or 0 if it is empty.
pub fn largest_unpaired(a: &[usize], b: &[usize]) -> usize {
    let mut a = a.to_vec();
    let mut b = b.to_vec();
    a.sort_unstable_by(|x, y| y.cmp(x));
    b.sort_unstable_by(|x, y| y.cmp(x));
    unpaired_desc(&a, &b)
}

/// LG(a, b) for `a` and `b` sorted in descending order.
fn unpaired_desc<T: Copy + Ord + Default>(a: &[T], b: &[T]) -> T {
    // Walk both in descending order; the first value of a without a partner in b is the answer.
    let (mut i, mut j) = (0, 0);
    while i < a.len() {
        if j >= b.len() || a[i] > b[j] {
            return a[i];
        }
        if a[i] == b[j] {
            i += 1;
        }
        j += 1;
    }
    T::default()
}

impl Rules for State {
    fn game_name(&self) -> &'static str {
        "windflowers"
    }

    fn num_players(&self) -> usize {
        self.cfg.players
    }

    fn num_actions(&self) -> usize {
        self.cfg.board.num_sites() + 1
    }

    fn board(&self) -> &Board {
        &self.cfg.board
    }

    fn cells(&self) -> &[i8] {
        let n = self.cfg.board.num_sites();
        each_width!(&self.core, pos => &pos.cells.as_flattened()[..n])
    }

    fn current_player(&self) -> Option<usize> {
        (!self.turn.over).then_some(self.turn.to_move)
    }

    fn truncated(&self) -> bool {
        self.turn.truncated
    }

    fn move_count(&self) -> usize {
        self.turn.moves
    }

    fn legal_actions_into(&self, out: &mut Vec<u32>) {
        out.clear();
        if self.turn.over {
            return;
        }
        each_width!(&self.core, pos => {
            out.extend(pos.legal(self.turn.to_move).iter().map(|s| s as u32));
        });
        out.push(self.cfg.board.num_sites() as u32);
    }

    #[inline]
    fn is_legal(&self, action: usize) -> bool {
        if self.turn.over {
            return false;
        }
        let n = self.cfg.board.num_sites();
        if action >= n {
            return action == n;
        }
        each_width!(&self.core, pos => pos.legal(self.turn.to_move).contains(action))
    }

    fn apply_unchecked(&mut self, action: usize) {
        let placed = action < self.cfg.board.num_sites();
        if placed {
            self.put(action, self.turn.to_move);
        }
        self.turn.advance(&self.cfg, placed);
    }

    #[inline]
    fn random_action(&self, rng: &mut Rng, _buf: &mut Vec<u32>) -> Option<usize> {
        if self.turn.over {
            return None;
        }
        let n = self.cfg.board.num_sites();
        let drawn = each_width!(&self.core, pos => pos.draw(self.turn.to_move, rng));
        Some(drawn.unwrap_or(n))
    }

    /// The board part kept by every placement, and the turn number of `Turn::key_number`.
    #[inline]
    fn key(&self) -> u64 {
        let board = each_width!(&self.core, pos => pos.zkey);
        board ^ zobrist::turn(self.turn.key_number(&self.cfg))
    }

    /// The same draws as [`Rules::random_action`], with the board's width chosen once per game
    /// rather than on every move.
    fn random_playout(&mut self, rng: &mut Rng, _buf: &mut Vec<u32>) -> usize {
        let start = self.turn.moves;
        let (cfg, turn) = (&*self.cfg, &mut self.turn);
        // A local generator stays in registers; through the reference it is stored every move.
        let mut local = rng.clone();
        each_width!(&mut self.core, pos => {
            while !turn.over {
                let p = turn.to_move;
                let drawn = pos.draw(p, &mut local);
                if let Some(site) = drawn {
                    pos.put(cfg.players, site, p);
                }
                turn.advance(cfg, drawn.is_some());
            }
        });
        *rng = local;
        self.turn.moves - start
    }

    fn ranks(&self) -> Option<Vec<f64>> {
        let mut out = vec![0.0; self.cfg.players];
        self.ranks_into(&mut out).then_some(out)
    }

    fn ranks_into(&self, out: &mut [f64]) -> bool {
        if !self.turn.over {
            return false;
        }
        let n = self.cfg.players;
        if self.turn.truncated {
            out.fill((n as f64 + 1.0) / 2.0);
            return true;
        }
        let fin = self.final_array();
        let fin = &fin[..n];
        let mut values = [0.0; 4];
        for (v, &f) in values.iter_mut().zip(fin) {
            *v = f as f64;
        }
        if self.cfg.last_placer_breaks_ties {
            let top = fin.iter().copied().max().unwrap_or(0);
            let tied = || (0..n).filter(|&p| fin[p] == top);
            if tied().count() > 1 {
                let latest = tied().max_by_key(|&p| self.turn.last_placed[p]);
                if let Some(w) = latest.filter(|&w| self.turn.last_placed[w] > 0) {
                    values[w] += 0.5;
                }
            }
        }
        ranks_from_values_into(&values[..n], out);
        true
    }

    fn scores(&self) -> Option<Vec<f64>> {
        let mut out = vec![0.0; self.cfg.players];
        self.scores_into(&mut out).then_some(out)
    }

    fn scores_into(&self, out: &mut [f64]) -> bool {
        let base = each_width!(&self.core, pos => pos.base_scores(&self.cfg));
        for (o, &b) in out.iter_mut().zip(&base) {
            *o = b as f64;
        }
        true
    }

    /// Planes 0..n: stones of the viewer and the players after it in turn order; plane n: empty
    /// sites; plane n + 1: every site holds the number of consecutive passes so far divided by
    /// the number of players (the game ends when it reaches 1).
    fn observation_planes(&self) -> usize {
        self.cfg.observation_planes()
    }

    fn write_observation_for(&self, viewer: usize, out: &mut [f32]) {
        let n = self.cfg.board.num_sites();
        let k = super::write_stone_planes(self.cells(), self.cfg.players, viewer, out);
        out[k..k + n].fill(self.turn.passes as f32 / self.cfg.players as f32);
    }

    fn write_legal_mask(&self, out: &mut [bool]) {
        out.fill(false);
        if self.turn.over {
            return;
        }
        each_width!(&self.core, pos => {
            for s in pos.legal(self.turn.to_move).iter() {
                if let Some(m) = out.get_mut(s) {
                    *m = true;
                }
            }
        });
        let n = self.cfg.board.num_sites();
        if let Some(pass) = out.get_mut(n) {
            *pass = true;
        }
    }
}

mod knowledge;
mod measure;
#[cfg(test)]
mod tests;
