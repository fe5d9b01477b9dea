//! Faraday (Dale Walton, 2021), for two players.
//!
//! Stones behave like electric charges. An empty site may only receive a stone of the mover's
//! colour where the opposite charge dominates its neighbourhood, and the players aim for the
//! largest group.
//!
//! # Grids
//!
//! The option `grid` picks the board and the *placement relation* (the neighbours whose stones are
//! counted), `order` N its size. Each grid also has a *forced-fill level* F: a site surrounded by
//! at least F opposite charges takes a stone whatever the mover's own charges say.
//!
//! | grid | board | placement relation | F |
//! |---|---|---|---|
//! | trisquare_omni | triangle-square points, diamond d = N − 2 | all (7 inside) | 4 |
//! | trisquare | triangle-square points, diamond d = N − 2 | orthogonal (5 inside) | 3 |
//! | hex_limping | lattice points, alternating hexagon (N − 1, N) | orthogonal (6) | 3 |
//! | hex (default) | lattice points, regular hexagon of side N | orthogonal (6) | 3 |
//! | hex_omni | hex cells, regular hexagon of side N | all (12 inside) | 7 |
//! | square_omni | square points N × N | all (8 inside) | 4 |
//!
//! Orders from 3 to 25 are accepted on every grid (6 by default).
//!
//! # Placing a stone
//!
//! For the mover and an empty site x, let own(x) and opp(x) be the numbers of the mover's and of
//! the opponent's stones among the neighbours of x under the placement relation. The mover may
//! place on x when **opp(x) > own(x)** or **opp(x) ≥ F**.
//!
//! # The pie offer (phase 1)
//!
//! Player 0 first makes exactly three offer actions: each puts a stone of either colour on any
//! empty site, or passes (0 to 3 stones, as in Ludii; the placement rule does not apply here).
//! The designer's text says "1 to 3 stones": the option `min_offer_stones` (0 to 3, default 0 as
//! in Ludii) makes a pass legal only once that many stones are on the board, so the offer holds
//! at least that many. With 0, player 0 may pass three times; nobody can then place on the empty
//! board and the game ends drawn.
//! Player 1 then either *accepts* the offer, keeping the colours and moving first, or *swaps*:
//! every stone on the board changes colour and player 0 moves first. Swapping always exchanges
//! the colours, even when no player-0 stone was offered.
//!
//! # Placement (phase 2)
//!
//! A turn is a run of placements by one player, each checked against the counts left by the
//! previous one; the mover keeps placing while any placement is legal and may not stop early.
//! When the mover has nothing left, the turn passes by itself; when neither player can place the
//! game is over. Nothing is ever removed, so a game has at most N + 4 actions and needs no move
//! cap ([`Rules::truncated`] is always false).
//!
//! # Scores and result
//!
//! | scoring | score of player p |
//! |---|---|
//! | simple_orthogonal (default) | p's largest group, groups joined orthogonally |
//! | simple | p's largest group, groups joined through the placement relation |
//! | special_orthogonal | p's largest orthogonal group × the opponent's stone count |
//! | special | p's largest placement-relation group × the opponent's stone count |
//!
//! The higher score wins. Equal scores make the player who placed the last stone lose; stones of
//! the pie offer count as player 0's, and a game that ends on an empty board is drawn. Scores can
//! be read at any time; they describe the board as it stands.
//!
//! # Surplus charge (the designer's variant, `surplus_charge=true`)
//!
//! Ludii does not implement this. When a placement lands on a site x that had opp(x) ≥ F + 1
//! (a surplus of opposite charge), the mover's *next* placement in the same turn must go to an
//! empty site y that the placement rule forbids and that is balanced, own(y) = opp(y) ≥ 1, if
//! there is one; that placement is allowed although the rule forbids it. If no site qualifies,
//! play goes on normally. A balanced site has fewer than F opposite charges around it, so the
//! forced placement never triggers another one.
//!
//! # Actions
//!
//! With N sites there are 2N + 3 actions:
//!
//! | action | meaning |
//! |---|---|
//! | a < N | offer: a player-0 stone on site a; placement: a stone of the mover on site a |
//! | N ≤ a < 2N | offer only: a player-1 stone on site a − N |
//! | 2N | offer only: pass |
//! | 2N + 1 | player 1's choice: accept |
//! | 2N + 2 | player 1's choice: swap |
//!
//! There is no pass action in phase 2: turns change by themselves.

use std::sync::Arc;

use super::options::{named_enum, Named, OptionSpec, OptionValue, Options, Resolved};
use super::zobrist::{self, Zobrist};
use super::{ranks_from_values, GameConfig, Rules};
use crate::algo::groups::largest_components;
use crate::algo::sparse::SparseSets;
use crate::algo::unionfind::{join_stone, UnionFind};
use crate::algo::FloodScratch;
use crate::board::{Board, Relation, Shape};
use crate::error::{Error, Result};
use crate::rng::Rng;

/// Smallest and largest accepted order. Below 3 some boards do not exist; above 25 the boards
/// (over 1,800 sites) are far beyond anything the game is played on.
pub const MIN_ORDER: i64 = 3;
pub const MAX_ORDER: i64 = 25;
/// Number of offer actions player 0 takes in phase 1.
pub const PIE_ACTIONS: u8 = 3;
/// The largest `min_offer_stones`: every offer action a stone.
pub const MAX_OFFER_STONES: i64 = PIE_ACTIONS as i64;

/// The version of this reading of the rules, written into game records. It changes only when
/// the same options and actions could play out differently.
pub const RULES_VERSION: u32 = 1;

named_enum! {
    /// The board family and placement relation (option `grid`), in the order of the
    /// specification.
    pub enum Grid: "grid" {
        TriSquareOmni = "trisquare_omni": "snub-square points, edges and square diagonals, F = 4",
        TriSquare = "trisquare": "snub-square points, edges only, F = 3",
        HexLimping = "hex_limping": "alternating hexagon (N−1, N) of lattice points, F = 3",
        Hex = "hex": "lattice points of a regular hexagon, 6 neighbours, F = 3",
        HexOmni = "hex_omni": "hex cells, 12 neighbours, F = 7",
        SquareOmni = "square_omni": "N×N points, 8 neighbours, F = 4",
    }
}

named_enum! {
    /// How final scores are computed (option `scoring`).
    pub enum Scoring: "scoring" {
        SimpleOrthogonal = "simple_orthogonal": "largest orthogonal group",
        Simple = "simple": "largest group through the placement relation",
        SpecialOrthogonal = "special_orthogonal":
            "largest orthogonal group times the opponent's stone count",
        Special = "special": "largest placement group times the opponent's stone count",
    }
}

/// Faraday's options.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec::choice(
        "grid",
        Grid::CHOICES,
        "hex",
        "the board family and placement relation",
    ),
    OptionSpec::int(
        "order",
        MIN_ORDER,
        MAX_ORDER,
        Some(6),
        "the board's order N (its side for the hexagons and the square)",
    ),
    OptionSpec::choice(
        "scoring",
        Scoring::CHOICES,
        "simple_orthogonal",
        "how final scores are counted",
    ),
    OptionSpec::boolean(
        "surplus_charge",
        false,
        "the designer's variant (not in Ludii): right after a placement on a site with at least \
         F + 1 opposite charges, the next placement of the turn must go, if possible, to an \
         otherwise illegal site with equal numbers of both charges (at least one each)",
    ),
    OptionSpec::int(
        "min_offer_stones",
        0,
        MAX_OFFER_STONES,
        Some(0),
        "the fewest stones the pie offer may hold: a pass is legal only once that many stones \
         are on the board (0 as in Ludii; the designer's text says 1 to 3)",
    ),
];

impl Grid {
    /// The board of order `n` (n ≥ 3).
    pub fn shape(self, n: usize) -> Shape {
        match self {
            Grid::TriSquareOmni | Grid::TriSquare => Shape::TriSquare { d: n - 2 },
            Grid::HexLimping => Shape::HexPoints { a: n - 1, b: n },
            Grid::Hex => Shape::HexPoints { a: n, b: n },
            Grid::HexOmni => Shape::HexCells { a: n, b: n },
            Grid::SquareOmni => Shape::Square {
                width: n,
                height: n,
            },
        }
    }

    /// The relation whose stones are counted for placement.
    pub fn placement_relation(self) -> Relation {
        match self {
            Grid::TriSquare | Grid::HexLimping | Grid::Hex => Relation::Orthogonal,
            Grid::TriSquareOmni | Grid::HexOmni | Grid::SquareOmni => Relation::All,
        }
    }

    /// The forced-fill level F.
    pub fn forced_level(self) -> u8 {
        match self {
            Grid::TriSquare | Grid::HexLimping | Grid::Hex => 3,
            Grid::TriSquareOmni | Grid::SquareOmni => 4,
            Grid::HexOmni => 7,
        }
    }
}

impl Scoring {
    /// Whether the largest group is multiplied by the opponent's stone count.
    pub fn is_special(self) -> bool {
        matches!(self, Scoring::SpecialOrthogonal | Scoring::Special)
    }
}

/// Resolved Faraday options and the board.
#[derive(Clone, Debug)]
pub struct Config {
    pub board: Board,
    pub grid: Grid,
    pub order: usize,
    pub scoring: Scoring,
    pub surplus_charge: bool,
    /// Stones the offer must hold before player 0 may pass.
    pub min_offer_stones: u32,
    /// Relation for the placement counts.
    pub placement: Relation,
    /// Relation joining stones into groups for scoring.
    pub group: Relation,
    /// The forced-fill level F.
    pub forced_level: u8,
    /// 1 / the largest placement-neighbour count, to scale charges in observations.
    pub charge_scale: f32,
    /// The stone values of the position key.
    zobrist: Zobrist,
    options: Options,
}

impl Config {
    /// Resolves user options: grid, order, scoring, surplus_charge, min_offer_stones.
    pub fn new(given: &[(String, OptionValue)]) -> Result<Config> {
        let r = Resolved::new("faraday", OPTIONS, given)?;
        let grid: Grid = r.named("grid")?;
        let order = r.count("order")?;
        let scoring: Scoring = r.named("scoring")?;
        let surplus_charge = r.boolean("surplus_charge")?;
        let min_offer_stones = r.count("min_offer_stones")? as u32;
        let placement = grid.placement_relation();
        let group = match scoring {
            Scoring::SimpleOrthogonal | Scoring::SpecialOrthogonal => Relation::Orthogonal,
            Scoring::Simple | Scoring::Special => placement,
        };
        let board = Board::new(grid.shape(order));
        let charge_scale = 1.0 / board.max_degree(placement).max(1) as f32;
        Ok(Config {
            zobrist: Zobrist::new(board.num_sites()),
            board,
            charge_scale,
            grid,
            order,
            scoring,
            surplus_charge,
            min_offer_stones,
            placement,
            group,
            forced_level: grid.forced_level(),
            options: r.into_options(|_| OptionValue::Int(0)),
        })
    }
}

impl GameConfig for Config {
    const NAME: &'static str = "faraday";
    const OPTIONS: &'static [OptionSpec] = OPTIONS;
    const RULES_VERSION: u32 = RULES_VERSION;
    fn board(&self) -> &Board {
        &self.board
    }
    fn options(&self) -> &Options {
        &self.options
    }
    fn num_players(&self) -> usize {
        2
    }
    /// Placements on any site in either colour during the offer, the end of the offer, accept
    /// and swap.
    fn num_actions(&self) -> usize {
        2 * self.board.num_sites() + 3
    }
    fn observation_planes(&self) -> usize {
        8
    }
    fn has_scores(&self) -> bool {
        true
    }
    /// Each placement fills a site; the pie adds at most three offer actions and a choice.
    fn max_game_length(&self) -> usize {
        self.board.num_sites() + 4
    }
    /// Sites by name (`c4`: a stone of the first colour while offering, else the mover's), then
    /// `second <site>` (an offer stone of the second colour), `pass` (ending the offer),
    /// `accept` and `swap`.
    fn action_name(&self, action: usize) -> Option<String> {
        let n = self.board.num_sites();
        match action {
            a if a < n => Some(self.board.site_name(a)),
            a if a < 2 * n => Some(format!("second {}", self.board.site_name(a - n))),
            a if a == 2 * n => Some("pass".into()),
            a if a == 2 * n + 1 => Some("accept".into()),
            a if a == 2 * n + 2 => Some("swap".into()),
            _ => None,
        }
    }
    /// As named, or a site's number where its name goes (`12`, `second 12`: earlier versions'
    /// names).
    fn parse_action(&self, text: &str) -> Option<usize> {
        let text = text.trim().to_ascii_lowercase();
        let n = self.board.num_sites();
        match text.strip_prefix("second ") {
            Some(site) => self.board.parse_site(site).map(|s| n + s),
            None => self.board.parse_site(&text).or_else(|| {
                (2 * n..self.num_actions())
                    .find(|&a| self.action_name(a).as_deref() == Some(text.as_str()))
            }),
        }
    }
    fn action_site(&self, action: usize) -> Option<usize> {
        let n = self.board.num_sites();
        (action < 2 * n).then_some(action % n)
    }
}

/// Where a game of Faraday stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Player 0's pie offer, with `left` (3, 2 or 1) offer actions still to take.
    Offer { left: u8 },
    /// Player 1 accepts or swaps.
    Choice,
    /// Placement turns, from the first to the end of the game.
    Placement,
}

impl Phase {
    /// The phase's name, as Python's `State.phase` gives it.
    pub const fn name(self) -> &'static str {
        match self {
            Phase::Offer { .. } => "offer",
            Phase::Choice => "choice",
            Phase::Placement => "placement",
        }
    }

    /// Offer actions player 0 still has to take (0 once the offer is complete).
    pub const fn offer_actions_left(self) -> u8 {
        match self {
            Phase::Offer { left } => left,
            _ => 0,
        }
    }
}

/// The placement rule for player p given a site's charges: opp > own, or opp ≥ F.
#[inline]
fn may_place(charge: [u8; 2], p: usize, forced_level: u8) -> bool {
    let (own, opp) = (charge[p], charge[1 - p]);
    opp > own || opp >= forced_level
}

/// A Faraday position.
///
/// Besides the board it keeps, for every site, the number of each colour's stones among its
/// placement neighbours, and during phase 2 each player's set of legal sites as an unordered list
/// with a position index (O(1) insertion, removal and uniform sampling). A placement touches only
/// its own neighbours' entries.
#[derive(Debug)]
pub struct State {
    cfg: Arc<Config>,
    cells: Vec<i8>,
    /// `charge[s][q]`: player q's stones among the placement neighbours of s.
    charge: Vec<[u8; 2]>,
    /// Each player's legal sites (phase 2 only), both in one allocation so that cloning a state
    /// stays cheap.
    legal: SparseSets<2>,
    stones: [u32; 2],
    phase: Phase,
    to_move: u8,
    over: bool,
    /// A surplus-charge placement is owed (and possible).
    forced: bool,
    /// Whether the offer put any stone on the board.
    pie_stones: bool,
    /// The player who made the latest phase-2 placement.
    last_placement: Option<u8>,
    /// The scores, fixed once the game is over (the board no longer changes), so that ranks,
    /// returns and scores of a finished game cost no group search.
    final_scores: Option<[usize; 2]>,
    moves: usize,
    /// The board part of the position key ([`zobrist`]).
    zkey: u64,
}

impl Clone for State {
    fn clone(&self) -> Self {
        State {
            cfg: Arc::clone(&self.cfg),
            cells: self.cells.clone(),
            charge: self.charge.clone(),
            legal: self.legal.clone(),
            stones: self.stones,
            phase: self.phase,
            to_move: self.to_move,
            over: self.over,
            forced: self.forced,
            pie_stones: self.pie_stones,
            last_placement: self.last_placement,
            final_scores: self.final_scores,
            moves: self.moves,
            zkey: self.zkey,
        }
    }

    /// Copies into the buffers already there (no allocation, the configuration's count left
    /// alone for a position of the same game): the solver and the searches copy a position a
    /// node.
    fn clone_from(&mut self, source: &Self) {
        let State {
            cfg,
            cells,
            charge,
            legal,
            stones,
            phase,
            to_move,
            over,
            forced,
            pie_stones,
            last_placement,
            final_scores,
            moves,
            zkey,
        } = source;
        if !Arc::ptr_eq(&self.cfg, cfg) {
            self.cfg = Arc::clone(cfg);
        }
        self.cells.clone_from(cells);
        self.charge.clone_from(charge);
        self.legal.clone_from(legal);
        self.stones = *stones;
        self.phase = *phase;
        self.to_move = *to_move;
        self.over = *over;
        self.forced = *forced;
        self.pie_stones = *pie_stones;
        self.last_placement = *last_placement;
        self.final_scores = *final_scores;
        self.moves = *moves;
        self.zkey = *zkey;
    }
}

impl State {
    /// The empty board at the start of the pie offer, player 0 to move.
    pub fn new(cfg: Arc<Config>) -> State {
        let n = cfg.board.num_sites();
        State {
            cells: vec![0; n],
            charge: vec![[0; 2]; n],
            legal: SparseSets::new(n),
            stones: [0; 2],
            phase: Phase::Offer { left: PIE_ACTIONS },
            to_move: 0,
            over: false,
            forced: false,
            pie_stones: false,
            last_placement: None,
            final_scores: None,
            moves: 0,
            zkey: 0,
            cfg,
        }
    }

    /// A phase-2 position from its board array (0 empty, k a stone of player k − 1), the player
    /// whose turn it is and the last player to have placed (`None` only for an empty board). For
    /// analysis and tests. As after any action, a player who cannot place is skipped, and the
    /// position is terminal if neither can. No surplus-charge obligation is pending.
    pub fn from_position(
        cfg: Arc<Config>,
        cells: &[i8],
        to_move: usize,
        last_placer: Option<usize>,
    ) -> Result<State> {
        super::check_position("faraday", cfg.board.num_sites(), 2, cells, to_move)?;
        let empty = cells.iter().all(|&c| c == 0);
        match last_placer {
            Some(p) if p > 1 => {
                return Err(Error::InvalidPosition(format!(
                    "faraday: last placer {p} out of range 0..2"
                )))
            }
            Some(_) if empty => {
                return Err(Error::InvalidPosition(
                    "faraday: an empty board has no last placer".to_string(),
                ))
            }
            None if !empty => {
                return Err(Error::InvalidPosition(
                    "faraday: a board with stones needs a last placer".to_string(),
                ))
            }
            _ => {}
        }
        let mut s = State::new(cfg);
        for (site, &c) in cells.iter().enumerate() {
            if c > 0 {
                s.put(site, c as usize - 1);
            }
        }
        s.phase = Phase::Placement;
        s.last_placement = last_placer.map(|p| p as u8);
        s.start_placement(to_move);
        Ok(s)
    }

    /// The options and board.
    pub fn config(&self) -> &Arc<Config> {
        &self.cfg
    }

    /// Where the game stands: the pie offer, player 1's choice, or placement (also once the
    /// game is over).
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// How many offer actions player 0 still has to take: 3, 2 or 1 during the offer, 0 once
    /// it is complete (at player 1's accept-or-swap choice and after).
    pub fn pie_actions_left(&self) -> usize {
        usize::from(self.phase.offer_actions_left())
    }

    /// For each site, the number of `player`'s stones among its neighbours under the placement
    /// relation. Players other than 0 and 1 have no stones: all zeros.
    pub fn charge_counts(&self, player: usize) -> Vec<u8> {
        if player > 1 {
            return vec![0; self.cells.len()];
        }
        self.charge.iter().map(|c| c[player]).collect()
    }

    /// The empty sites where `player` may place under the placement rule (opp > own or
    /// opp ≥ F), ascending, whoever is to move and in any phase; ignores surplus obligations.
    /// Empty for players other than 0 and 1.
    pub fn placeable_sites(&self, player: usize) -> Vec<usize> {
        if player > 1 {
            return Vec::new();
        }
        let f = self.cfg.forced_level;
        (0..self.cells.len())
            .filter(|&s| self.cells[s] == 0 && may_place(self.charge[s], player, f))
            .collect()
    }

    /// Whether the mover owes a surplus-charge placement: the previous placement of this turn
    /// had a surplus of opposite charge and a balanced site exists, so only balanced sites are
    /// legal now. Always false without the `surplus_charge` option.
    pub fn forced_surplus(&self) -> bool {
        self.forced
    }

    /// The player who placed the last stone: the latest phase-2 placer, else player 0 if the
    /// offer put any stone down, else `None` (empty board).
    pub fn last_placer(&self) -> Option<usize> {
        match self.last_placement {
            Some(p) => Some(p as usize),
            None => self.pie_stones.then_some(0),
        }
    }

    /// Each player's stone count.
    pub fn stone_counts(&self) -> [usize; 2] {
        [self.stones[0] as usize, self.stones[1] as usize]
    }

    /// Each player's largest group under the scoring's group relation.
    pub fn largest_groups(&self) -> [usize; 2] {
        let mut out = [0; 2];
        largest_components(
            &self.cfg.board,
            self.cfg.group,
            &self.cells,
            &mut FloodScratch::default(),
            &mut out,
        );
        out
    }

    /// Each player's score on the board as it stands.
    pub fn score_values(&self) -> [usize; 2] {
        if let Some(f) = self.final_scores {
            return f;
        }
        let g = self.largest_groups();
        if self.cfg.scoring.is_special() {
            [
                g[0] * self.stones[1] as usize,
                g[1] * self.stones[0] as usize,
            ]
        } else {
            g
        }
    }

    /// Whether the empty `site` qualifies for a surplus-charge placement: balanced and forbidden
    /// by the rule (with own = opp only opp ≥ F would allow it), for either player.
    #[inline]
    fn is_balanced(&self, site: usize) -> bool {
        let [a, b] = self.charge[site];
        self.cells[site] == 0 && a == b && a >= 1 && a < self.cfg.forced_level
    }

    /// Puts a stone of player p on the empty `site`, keeping the charges in step (no legal sets:
    /// used before phase 2).
    fn put(&mut self, site: usize, p: usize) {
        self.cells[site] = p as i8 + 1;
        self.zkey ^= self.cfg.zobrist.stone(site, p);
        self.stones[p] += 1;
        let cfg = &self.cfg;
        for &t in cfg.board.neighbors(cfg.placement, site) {
            self.charge[t as usize][p] += 1;
        }
    }

    /// Builds both legal sets from scratch and hands the turn to `first`, or the other player
    /// if `first` cannot place, or ends the game.
    fn start_placement(&mut self, first: usize) {
        let f = self.cfg.forced_level;
        self.legal.clear();
        for site in 0..self.cells.len() {
            if self.cells[site] == 0 {
                for p in 0..2 {
                    if may_place(self.charge[site], p, f) {
                        self.legal.insert(p, site);
                    }
                }
            }
        }
        self.pass_turn_from(first);
    }

    /// `p` keeps the turn if it can place; otherwise the opponent takes it if it can; otherwise
    /// the game is over.
    #[inline]
    fn pass_turn_from(&mut self, p: usize) {
        if !self.legal.is_empty(p) {
            self.to_move = p as u8;
        } else if !self.legal.is_empty(1 - p) {
            self.to_move = 1 - p as u8;
        } else {
            self.over = true;
            self.final_scores = Some(self.score_values());
        }
    }

    /// A phase-2 placement by p on the empty `site`, updating charges and both legal sets.
    fn place(&mut self, site: usize, p: usize) {
        let q = 1 - p;
        let State {
            cfg,
            cells,
            charge,
            legal,
            ..
        } = self;
        let f = cfg.forced_level;
        let surplus = charge[site][q] > f;
        cells[site] = p as i8 + 1;
        self.zkey ^= cfg.zobrist.stone(site, p);
        for r in 0..2 {
            legal.discard(r, site);
        }
        for &t in cfg.board.neighbors(cfg.placement, site) {
            let t = t as usize;
            charge[t][p] += 1;
            if cells[t] != 0 {
                continue;
            }
            // p's own charge grew: t can only become illegal for p and legal for q.
            if legal.contains(p, t) && !may_place(charge[t], p, f) {
                legal.remove(p, t);
            }
            if !legal.contains(q, t) && may_place(charge[t], q, f) {
                legal.insert(q, t);
            }
        }
        self.stones[p] += 1;
        self.last_placement = Some(p as u8);
        // Only the designer's variant can owe a placement; a forced one never owes another
        // (a balanced site has fewer than F opposite charges).
        self.forced = surplus
            && self.cfg.surplus_charge
            && (0..self.cells.len()).any(|s| self.is_balanced(s));
        if self.forced {
            self.to_move = p as u8;
        } else {
            self.pass_turn_from(p);
        }
    }

    /// Exchanges the colours of every stone (player 1's swap).
    fn swap_colours(&mut self) {
        for c in self.cells.iter_mut() {
            if *c > 0 {
                *c = 3 - *c;
            }
        }
        for c in self.charge.iter_mut() {
            c.swap(0, 1);
        }
        self.stones.swap(0, 1);
        self.zkey = self.cfg.zobrist.board(&self.cells);
    }

    /// Whether player 0 may pass now in the offer: the board holds `min_offer_stones` stones.
    #[inline]
    fn may_pass_offer(&self) -> bool {
        self.stones[0] + self.stones[1] >= self.cfg.min_offer_stones
    }

    fn n2(&self) -> usize {
        2 * self.cells.len()
    }
}

impl Rules for State {
    fn game_name(&self) -> &'static str {
        "faraday"
    }

    fn num_players(&self) -> usize {
        2
    }

    fn num_actions(&self) -> usize {
        self.n2() + 3
    }

    fn board(&self) -> &Board {
        &self.cfg.board
    }

    fn cells(&self) -> &[i8] {
        &self.cells
    }

    fn current_player(&self) -> Option<usize> {
        (!self.over).then_some(self.to_move as usize)
    }

    /// Faraday games always end (every placement fills a site): never truncated.
    fn truncated(&self) -> bool {
        false
    }

    /// Planes 0–2: the viewer's stones, the opponent's, empty sites. Planes 3 and 4: at each
    /// site, the viewer's and the opponent's stones among its placement neighbours (the
    /// charges), divided by the board's largest neighbour count. Plane 5: 1 during the pie
    /// (phase 1). Plane 6: offer actions player 0 still has, divided by 3. Plane 7: 1 when a
    /// surplus-charge placement is owed.
    fn observation_planes(&self) -> usize {
        self.cfg.observation_planes()
    }

    fn write_observation_for(&self, viewer: usize, out: &mut [f32]) {
        let n = self.cells.len();
        let k = super::write_stone_planes(&self.cells, 2, viewer, out);
        let scale = self.cfg.charge_scale;
        for (s, c) in self.charge.iter().enumerate() {
            out[k + s] = f32::from(c[viewer]) * scale;
            out[k + n + s] = f32::from(c[1 - viewer]) * scale;
        }
        let pie = if self.phase == Phase::Placement {
            0.0
        } else {
            1.0
        };
        out[k + 2 * n..k + 3 * n].fill(pie);
        out[k + 3 * n..k + 4 * n].fill(f32::from(self.phase.offer_actions_left()) / 3.0);
        out[k + 4 * n..k + 5 * n].fill(if self.forced { 1.0 } else { 0.0 });
    }

    fn move_count(&self) -> usize {
        self.moves
    }

    /// The board, and as the turn number: the phase (offer actions left 3, 2 or 1, the
    /// choice, placement), the player to move, whether a surplus-charge placement is owed, and
    /// the last placer (none, 0 or 1), which breaks equal scores.
    #[inline]
    fn key(&self) -> u64 {
        let phase = match self.phase {
            Phase::Offer { left } => u64::from(left - 1),
            Phase::Choice => 3,
            Phase::Placement => 4,
        };
        let last = self.last_placer().map_or(0, |p| p as u64 + 1);
        let i = phase + 5 * (u64::from(self.to_move) + 2 * (u64::from(self.forced) + 2 * last));
        self.zkey ^ zobrist::turn(i)
    }

    fn legal_actions_into(&self, out: &mut Vec<u32>) {
        out.clear();
        if self.over {
            return;
        }
        let n = self.cells.len();
        match self.phase {
            Phase::Offer { .. } => {
                for colour in 0..2 {
                    out.extend(
                        (0..n)
                            .filter(|&s| self.cells[s] == 0)
                            .map(|s| (colour * n + s) as u32),
                    );
                }
                if self.may_pass_offer() {
                    out.push(2 * n as u32);
                }
            }
            Phase::Choice => out.extend([2 * n as u32 + 1, 2 * n as u32 + 2]),
            Phase::Placement => {
                out.extend((0..n).filter(|&s| self.is_legal(s)).map(|s| s as u32));
            }
        }
    }

    #[inline]
    fn is_legal(&self, action: usize) -> bool {
        if self.over {
            return false;
        }
        let n = self.cells.len();
        match self.phase {
            Phase::Offer { .. } => {
                return (action == 2 * n && self.may_pass_offer())
                    || (action < 2 * n && self.cells[action % n] == 0);
            }
            Phase::Choice => return action == 2 * n + 1 || action == 2 * n + 2,
            Phase::Placement => {}
        }
        if action >= n || self.cells[action] != 0 {
            return false;
        }
        if self.forced {
            self.is_balanced(action)
        } else {
            self.legal.contains(self.to_move as usize, action)
        }
    }

    fn apply_unchecked(&mut self, action: usize) {
        let n = self.cells.len();
        self.moves += 1;
        match self.phase {
            Phase::Placement => self.place(action, self.to_move as usize),
            Phase::Offer { left } => {
                if action < 2 * n {
                    self.put(action % n, action / n);
                    self.pie_stones = true;
                }
                if left > 1 {
                    self.phase = Phase::Offer { left: left - 1 };
                } else {
                    self.phase = Phase::Choice;
                    self.to_move = 1;
                }
            }
            Phase::Choice => {
                self.phase = Phase::Placement;
                if action == 2 * n + 2 {
                    self.swap_colours();
                    self.start_placement(0);
                } else {
                    self.start_placement(1);
                }
            }
        }
    }

    fn ranks(&self) -> Option<Vec<f64>> {
        if !self.over {
            return None;
        }
        let [a, b] = self.score_values();
        if a != b {
            return Some(ranks_from_values(&[a as f64, b as f64]));
        }
        Some(match self.last_placer() {
            Some(0) => vec![2.0, 1.0],
            Some(_) => vec![1.0, 2.0],
            None => vec![1.5, 1.5],
        })
    }

    fn scores(&self) -> Option<Vec<f64>> {
        Some(self.score_values().iter().map(|&s| s as f64).collect())
    }

    fn random_action(&self, rng: &mut Rng, buf: &mut Vec<u32>) -> Option<usize> {
        if self.over {
            return None;
        }
        let n = self.cells.len();
        match self.phase {
            Phase::Choice => return Some(2 * n + 1 + rng.below(2)),
            // At most three sites are taken, so drawing until legal ends quickly; every legal
            // action is equally likely on each draw.
            Phase::Offer { .. } => loop {
                let a = rng.below(2 * n + 1);
                if self.is_legal(a) {
                    return Some(a);
                }
            },
            Phase::Placement => {}
        }
        if self.forced {
            buf.clear();
            buf.extend((0..n).filter(|&s| self.is_balanced(s)).map(|s| s as u32));
            return Some(buf[rng.below(buf.len())] as usize);
        }
        let p = self.to_move as usize;
        Some(self.legal.get(p, rng.below(self.legal.len(p))))
    }
}

mod knowledge;
mod measure;
#[cfg(test)]
mod tests;
