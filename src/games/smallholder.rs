//! The Smallholder (Dale Walton, 2022), for two players on a hexagon of hex cells.
//!
//! Black (player 0) and White (player 1) take turns placing one stone of their colour on an empty
//! cell; there is no passing. **A player who cannot place a stone on their turn loses**, so the
//! goal is to be the last one able to play. Every adjacency in the game is the six-neighbour one.
//!
//! # Holdings and territory
//! Each group (orthogonally connected stones of one colour) *holds* cells by its shape, whatever
//! stands on them (see [`crate::algo::territory`]):
//! * `territory = "gap"`: cells lying strictly between two stones of the group on one straight
//!   line of cells, at any distance;
//! * `territory = "hull"`: cells inside the smallest hexagon, with sides along the grid lines,
//!   around the group (nothing for a group lying on one line).
//!
//! A player's territory is the union of what their groups hold separately; two groups of the same
//! colour never combine.
//!
//! # Where the mover may play
//! The mover's *playable sites* are the empty cells outside the opponent's territory; with
//! `capture = "groupwise_reentry"`, also any empty cell next to one of the mover's own stones. An
//! empty cell inside both territories is thus closed to both players (apart from re-entry).
//!
//! A group of the mover is *playable* when it touches a playable site, and *blocked* otherwise.
//! A placement either **creates** a group (a playable site touching none of the mover's stones)
//! or **extends** one (a playable site touching the mover's stones). Extensions are rationed to
//! the smallest groups, by the `adjacent` option:
//!
//! | adjacent | the new stone must touch | smallest among |
//! |---|---|---|
//! | `smallest_playable` (default) | at least one smallest group | playable groups |
//! | `smallest_playable_only` | only smallest groups | playable groups |
//! | `smallest_else_lose` | at least one smallest group | all groups |
//! | `smallest_only_else_lose` | only smallest groups | all groups |
//!
//! Under the `*_else_lose` rules a blocked smallest group leaves no extension at all (unless
//! another group of the same size is playable: extensions must touch a group of that size).
//! The `groups` option then says when creating is compulsory or preferred (n counts the mover's
//! groups, or only the playable ones; "fewer than two" includes none, so the first stone of each
//! player always creates):
//!
//! | groups | n counts | legal placements |
//! |---|---|---|
//! | `must_create_if_only_1` | all groups | n < 2: creations only; else creations and extensions |
//! | `must_create_if_1_playable` (default) | playable | as above |
//! | `priority_if_only_1` | all groups | n < 2 and a creation exists: creations; else both |
//! | `priority_if_1_playable` | playable | as above |
//! | `priority_always` | — | creations if any exist, else extensions |
//!
//! # Captures
//! After a placement that touches the mover's own stones (an isolated placement captures nothing),
//! the mover captures, using their whole territory after the placement:
//! * `piecewise` (default): every enemy stone inside it;
//! * `groupwise` and `groupwise_reentry`: every enemy group lying entirely inside it.
//!
//! Enemy stones left inside the mover's territory stay until the mover next extends a group.
//!
//! # Rulesets
//! `ruleset` sets the four rule options at once; options given beside it override it.
//!
//! | ruleset | groups | adjacent | territory | capture |
//! |---|---|---|---|---|
//! | `nibbler` (default) | must_create_if_1_playable | smallest_playable | gap | piecewise |
//! | `gaps_original` | must_create_if_only_1 | smallest_else_lose | gap | piecewise |
//! | `offshore_gaps` | priority_if_1_playable | smallest_playable | gap | piecewise |
//! | `stymie` | priority_if_1_playable | smallest_else_lose | gap | groupwise_reentry |
//! | `hull_setbacks` | must_create_if_1_playable | smallest_playable | hull | groupwise |
//!
//! Boards (`board`): regular hexagons `"hex3"` to `"hex18"` (default `"hex4"`, 37 cells) and the
//! alternating hexagons `"hex232323"` (12 cells), `"hex343434"` (27) and `"hex454545"` (48).
//! Captures mean nothing bounds a game's length, so `max_moves` (default 10 × cells) ends it as
//! truncated, a draw. Action `a` places a stone on cell `a`.
//!
//! # Implementation
//! Positions are bit sets over the cells (one 64-bit word up to 64 cells, two up to 128, then 4,
//! 8 or 16 words), with per-cell neighbour and line masks precomputed per board. Kept across moves:
//! * each player's groups (stones, closed neighbourhood, size): a placement merges the groups it
//!   touches; only groups that lose stones to a piecewise capture are flooded again;
//! * each player's territory: an extension can only add the holdings of the group it made (for
//!   gap, when it extends a single group, only the runs on the three lines through the new stone),
//!   and it is recomputed from the groups only for a player who has just lost stones;
//! * the legal placements of the player to move, computed at the end of the previous move in one
//!   pass over that player's groups, so `is_legal` is one bit test and a uniform random action
//!   is one draw and a select-the-r-th-bit.

use std::sync::Arc;

use super::options::{named_enum, Choice, Named, OptionSpec, OptionValue, Options, Resolved};
use super::zobrist::{self, Zobrist};
use super::{GameConfig, Rules};
use crate::algo::bits::{at_width, each_width, Bits, PerWidth, Width};
use crate::algo::territory::{TerritoryKind, TerritoryMasks};
use crate::board::{Board, Shape};
use crate::error::{Error, Result};
use crate::rng::Rng;

/// The version of this reading of the rules, written into game records. It changes only when
/// the same options and actions could play out differently.
pub const RULES_VERSION: u32 = 1;

/// Board names: regular hexagons of side 3 to 18, then the alternating hexagons.
const BOARDS: &[Choice] = &[
    Choice::new("hex3", "19 cells"),
    Choice::new("hex4", "37 cells"),
    Choice::new("hex5", "61 cells"),
    Choice::new("hex6", "91 cells"),
    Choice::new("hex7", "127 cells"),
    Choice::new("hex8", "169 cells"),
    Choice::new("hex9", "217 cells"),
    Choice::new("hex10", "271 cells"),
    Choice::new("hex11", "331 cells"),
    Choice::new("hex12", "397 cells"),
    Choice::new("hex13", "469 cells"),
    Choice::new("hex14", "547 cells"),
    Choice::new("hex15", "631 cells"),
    Choice::new("hex16", "721 cells"),
    Choice::new("hex17", "817 cells"),
    Choice::new("hex18", "919 cells"),
    Choice::new("hex232323", "alternating hexagon, 12 cells"),
    Choice::new("hex343434", "alternating hexagon, 27 cells"),
    Choice::new("hex454545", "alternating hexagon, 48 cells"),
];

/// The named rulesets and the four rule options each sets.
const RULESETS: &[Choice] = &[
    Choice::ruleset(
        "nibbler",
        "",
        &[
            ("groups", "must_create_if_1_playable"),
            ("adjacent", "smallest_playable"),
            ("territory", "gap"),
            ("capture", "piecewise"),
        ],
    ),
    Choice::ruleset(
        "gaps_original",
        "",
        &[
            ("groups", "must_create_if_only_1"),
            ("adjacent", "smallest_else_lose"),
            ("territory", "gap"),
            ("capture", "piecewise"),
        ],
    ),
    Choice::ruleset(
        "offshore_gaps",
        "",
        &[
            ("groups", "priority_if_1_playable"),
            ("adjacent", "smallest_playable"),
            ("territory", "gap"),
            ("capture", "piecewise"),
        ],
    ),
    Choice::ruleset(
        "stymie",
        "",
        &[
            ("groups", "priority_if_1_playable"),
            ("adjacent", "smallest_else_lose"),
            ("territory", "gap"),
            ("capture", "groupwise_reentry"),
        ],
    ),
    Choice::ruleset(
        "hull_setbacks",
        "",
        &[
            ("groups", "must_create_if_1_playable"),
            ("adjacent", "smallest_playable"),
            ("territory", "hull"),
            ("capture", "groupwise"),
        ],
    ),
];

named_enum! {
    /// When creating a group is compulsory or preferred (option `groups`).
    pub enum Groups: "groups" {
        MustCreateIfOnly1 = "must_create_if_only_1": "",
        MustCreateIf1Playable = "must_create_if_1_playable": "",
        PriorityIfOnly1 = "priority_if_only_1": "",
        PriorityIf1Playable = "priority_if_1_playable": "",
        PriorityAlways = "priority_always": "",
    }
}

named_enum! {
    /// Which extensions are allowed (option `adjacent`).
    pub enum Adjacent: "adjacent" {
        SmallestPlayable = "smallest_playable": "",
        SmallestPlayableOnly = "smallest_playable_only": "",
        SmallestElseLose = "smallest_else_lose": "",
        SmallestOnlyElseLose = "smallest_only_else_lose": "",
    }
}

named_enum! {
    /// What a group holds (option `territory`).
    pub enum Territory: "territory" {
        Gap = "gap": "cells strictly between two of the group's stones on one line",
        Hull = "hull": "cells inside the smallest hexagon around the group",
    }
}

named_enum! {
    /// What an extension captures (option `capture`).
    pub enum Capture: "capture" {
        Piecewise = "piecewise": "every enemy stone in your territory",
        Groupwise = "groupwise": "enemy groups wholly inside it",
        GroupwiseReentry = "groupwise_reentry":
            "groupwise, and you may always play next to your own stones",
    }
}

/// The Smallholder's options.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec::choice(
        "board",
        BOARDS,
        "hex4",
        "regular hexagons of side 3 to 18, or alternating hexagons",
    ),
    OptionSpec::choice(
        "ruleset",
        RULESETS,
        "nibbler",
        "sets the four rule options below; any of them given explicitly wins",
    ),
    OptionSpec::choice(
        "groups",
        Groups::CHOICES,
        "must_create_if_1_playable",
        "when creating a group is compulsory or preferred",
    ),
    OptionSpec::choice(
        "adjacent",
        Adjacent::CHOICES,
        "smallest_playable",
        "which groups an extension may touch",
    ),
    OptionSpec::choice("territory", Territory::CHOICES, "gap", "what a group holds"),
    OptionSpec::choice(
        "capture",
        Capture::CHOICES,
        "piecewise",
        "what an extension captures",
    ),
    OptionSpec::int(
        "max_moves",
        1,
        1 << 40,
        None,
        "move cap (default 10 × cells); reaching it ends the game as truncated, a draw",
    ),
];

impl Territory {
    /// The holdings algorithm.
    pub fn kind(self) -> TerritoryKind {
        match self {
            Territory::Gap => TerritoryKind::Gap,
            Territory::Hull => TerritoryKind::Hull,
        }
    }
}

/// The four rule options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuleOptions {
    pub groups: Groups,
    pub adjacent: Adjacent,
    pub territory: TerritoryKind,
    pub capture: Capture,
}

impl Adjacent {
    /// Whether the smallest group is taken among playable groups only (m_play) rather than all.
    fn among_playable(self) -> bool {
        matches!(
            self,
            Adjacent::SmallestPlayable | Adjacent::SmallestPlayableOnly
        )
    }
    /// Whether every own neighbour of an extension must be in a smallest group.
    fn only(self) -> bool {
        matches!(
            self,
            Adjacent::SmallestPlayableOnly | Adjacent::SmallestOnlyElseLose
        )
    }
}

/// Resolved Smallholder options and the board.
#[derive(Clone, Debug)]
pub struct Config {
    pub board: Board,
    pub rules: RuleOptions,
    pub max_moves: usize,
    /// The empty position, holding the board's masks at the width that fits it.
    start: Core,
    /// The stone values of the position key.
    zobrist: Zobrist,
    /// The resolved options. The four rule options are always listed, so they rebuild the same
    /// game whatever the ruleset says.
    options: Options,
}

/// The shape named by a board option value.
fn board_shape(name: &str) -> Option<Shape> {
    let (a, b) = match name {
        "hex232323" => (2, 3),
        "hex343434" => (3, 4),
        "hex454545" => (4, 5),
        _ => {
            let n: usize = name.strip_prefix("hex")?.parse().ok()?;
            (n, n)
        }
    };
    Some(Shape::HexCells { a, b })
}

impl Config {
    /// Resolves user options: board, ruleset, groups, adjacent, territory, capture, max_moves.
    pub fn new(given: &[(String, OptionValue)]) -> Result<Config> {
        let r = Resolved::new("smallholder", OPTIONS, given)?;
        let board_name = r.text("board")?;
        let rules = RuleOptions {
            groups: r.named("groups")?,
            adjacent: r.named("adjacent")?,
            territory: r.named::<Territory>("territory")?.kind(),
            capture: r.named("capture")?,
        };
        let bad = |what: &str| Error::InvalidOption(format!("smallholder: unknown {what}"));
        let shape = board_shape(board_name).ok_or_else(|| bad("board"))?;
        let sites = Board::count_sites(shape);
        let max_moves = r.int("max_moves")?.map_or(10 * sites, |m| m as usize);
        let board = Board::new(shape);
        let too_big = || bad("board (too large for the bit sets)");
        let start = at_width!(sites, K => {
            Pos::<K>::empty(Arc::new(TerritoryMasks::new(&board).ok_or_else(too_big)?))
        })
        .ok_or_else(too_big)?;
        Ok(Config {
            board,
            rules,
            max_moves,
            start,
            zobrist: Zobrist::new(sites),
            options: r.into_options(|_| OptionValue::from(max_moves)),
        })
    }
}

impl GameConfig for Config {
    const NAME: &'static str = "smallholder";
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
    /// A placement on each cell; there is no pass.
    fn num_actions(&self) -> usize {
        self.board.num_sites()
    }
    fn observation_planes(&self) -> usize {
        7
    }
    fn has_scores(&self) -> bool {
        false
    }
    /// The move cap: every game ends by then.
    fn max_game_length(&self) -> usize {
        self.max_moves
    }
    /// Action `a` places on site `a`, named by the site's name (`c4`).
    fn action_name(&self, action: usize) -> Option<String> {
        (action < self.board.num_sites()).then(|| self.board.site_name(action))
    }
    /// Every symmetry of the board: the rules use only its neighbour relations and perimeter,
    /// and every action is a site (or the pass).
    fn symmetries(&self) -> Vec<Vec<u16>> {
        self.board.symmetries()
    }
}

/// Streaming minimum over groups: the smallest size seen, the union of the closed neighbourhoods
/// of the groups of that size, and the union of those of larger groups.
#[derive(Clone, Copy)]
struct Smallest<const K: usize> {
    size: usize,
    at_min: Bits<K>,
    above: Bits<K>,
}

impl<const K: usize> Smallest<K> {
    const NONE: Smallest<K> = Smallest {
        size: usize::MAX,
        at_min: Bits::EMPTY,
        above: Bits::EMPTY,
    };

    #[inline]
    fn add(&mut self, size: usize, reach: Bits<K>) {
        if size < self.size {
            self.above |= self.at_min;
            self.at_min = reach;
            self.size = size;
        } else if size == self.size {
            self.at_min |= reach;
        } else {
            self.above |= reach;
        }
    }
}

/// One group: its stones and its closed neighbourhood (the stones and every cell next to them).
#[derive(Clone, Copy, Debug)]
struct Group<const K: usize> {
    stones: Bits<K>,
    reach: Bits<K>,
    /// The number of stones, kept to save population counts in the hot loop.
    size: u32,
}

/// The position as bit sets, at one width.
#[derive(Debug)]
struct Pos<const K: usize> {
    m: Arc<TerritoryMasks<K>>,
    stones: [Bits<K>; 2],
    /// Each player's groups, in no particular order, kept across moves: a placement merges the
    /// groups it touches, and only captured groups are flooded again.
    groups: [Vec<Group<K>>; 2],
    /// T(p), kept exact across moves.
    terr: [Bits<K>; 2],
    /// The legal placements of the player to move.
    legal: Bits<K>,
}

impl<const K: usize> Clone for Pos<K> {
    fn clone(&self) -> Self {
        Pos {
            m: Arc::clone(&self.m),
            stones: self.stones,
            groups: self.groups.clone(),
            terr: self.terr,
            legal: self.legal,
        }
    }

    /// Reuses the group lists' buffers (searches copy a position once a node or an iteration).
    fn clone_from(&mut self, source: &Self) {
        if !Arc::ptr_eq(&self.m, &source.m) {
            self.m = Arc::clone(&source.m);
        }
        self.stones = source.stones;
        self.groups[0].clone_from(&source.groups[0]);
        self.groups[1].clone_from(&source.groups[1]);
        self.terr = source.terr;
        self.legal = source.legal;
    }
}

impl<const K: usize> Pos<K> {
    fn groups_heap_bytes(&self) -> usize {
        self.groups
            .iter()
            .map(|g| g.capacity() * std::mem::size_of::<Group<K>>())
            .sum()
    }
}

/// What one pass over a player's groups finds.
struct Survey<const K: usize> {
    legal: Bits<K>,
    /// The player's territory, when asked for.
    terr: Bits<K>,
}

impl<const K: usize> Pos<K> {
    fn empty(m: Arc<TerritoryMasks<K>>) -> Pos<K> {
        Pos {
            m,
            stones: [Bits::EMPTY; 2],
            groups: [Vec::new(), Vec::new()],
            terr: [Bits::EMPTY; 2],
            legal: Bits::EMPTY,
        }
    }

    /// Adds the groups of the stones `set` (a union of whole groups of p) to p's list.
    fn add_groups(&mut self, p: usize, set: Bits<K>) {
        let mut rest = set;
        while let Some(s) = rest.lowest() {
            let (stones, reach) = self.m.orth.component(s, set);
            rest &= !stones;
            let size = stones.count() as u32;
            self.groups[p].push(Group {
                stones,
                reach,
                size,
            });
        }
    }

    /// Empty sites, PS(p), and the empty sites that count when deciding whether one of p's groups
    /// is playable (under re-entry every empty neighbour of an own group is playable, so that is
    /// every empty site).
    #[inline]
    fn playable_sites(&self, rules: &RuleOptions, p: usize) -> (Bits<K>, Bits<K>, Bits<K>) {
        let empty = self.m.orth.all & !(self.stones[0] | self.stones[1]);
        let free = empty & !self.terr[1 - p];
        if rules.capture == Capture::GroupwiseReentry {
            let near_own = self.m.orth.dilate(self.stones[p]);
            (empty, free | (empty & near_own), empty)
        } else {
            (empty, free, free)
        }
    }

    /// The legal placements of p, in one pass over p's groups; p's territory too if `want_terr`.
    #[inline]
    fn survey(&self, rules: &RuleOptions, p: usize, want_terr: bool) -> Survey<K> {
        let m = &*self.m;
        let empty = m.orth.all & !(self.stones[0] | self.stones[1]);
        let free = empty & !self.terr[1 - p];
        let reentry = rules.capture == Capture::GroupwiseReentry;
        let near = if reentry { empty } else { free };
        let groups = &self.groups[p];
        let n_all = groups.len();
        let mut n_playable = 0usize;
        let mut all = Smallest::NONE;
        let mut playable = Smallest::NONE;
        let mut reach_all = Bits::EMPTY;
        let mut terr = Bits::EMPTY;
        for g in groups {
            let size = g.size as usize;
            reach_all |= g.reach;
            all.add(size, g.reach);
            if g.reach.intersects(&near) {
                n_playable += 1;
                playable.add(size, g.reach);
            }
            if want_terr {
                terr |= m.hold(rules.territory, g.stones);
            }
        }
        let ps = if reentry {
            free | (empty & reach_all)
        } else {
            free
        };
        let create = ps & !reach_all;
        // A blocked group touches no playable site, so leaving blocked groups out of `playable`
        // changes neither "touches a smallest group" nor "touches only smallest groups" for sites
        // of PS.
        let extend = || {
            let smallest = if rules.adjacent.among_playable() {
                &playable
            } else {
                &all
            };
            if smallest.size == usize::MAX {
                Bits::EMPTY
            } else if rules.adjacent.only() {
                ps & smallest.at_min & !smallest.above
            } else {
                ps & smallest.at_min
            }
        };
        let legal = match rules.groups {
            Groups::MustCreateIfOnly1 | Groups::MustCreateIf1Playable => {
                let n = if rules.groups == Groups::MustCreateIfOnly1 {
                    n_all
                } else {
                    n_playable
                };
                if n < 2 {
                    create
                } else {
                    create | extend()
                }
            }
            Groups::PriorityIfOnly1 | Groups::PriorityIf1Playable => {
                let n = if rules.groups == Groups::PriorityIfOnly1 {
                    n_all
                } else {
                    n_playable
                };
                if n < 2 && create.any() {
                    create
                } else {
                    create | extend()
                }
            }
            Groups::PriorityAlways => {
                if create.any() {
                    create
                } else {
                    extend()
                }
            }
        };
        Survey { legal, terr }
    }

    /// Puts p's stone on `x`, captures, and computes the opponent's legal placements. Returns
    /// whether the opponent has any.
    #[inline]
    fn play(&mut self, rules: &RuleOptions, p: usize, x: usize, cells: &mut [i8]) -> bool {
        let q = 1 - p;
        let m = &*self.m;
        self.stones[p].insert(x);
        cells[x] = p as i8 + 1;
        // Merge the groups x touches into one.
        let nbr = m.orth.nbr[x];
        let mut merged = Group {
            stones: Bits::single(x),
            reach: nbr | Bits::single(x),
            size: 1,
        };
        let mut joined = 0;
        let list = &mut self.groups[p];
        let mut i = 0;
        while i < list.len() {
            if list[i].stones.intersects(&nbr) {
                let g = list.swap_remove(i);
                merged.stones |= g.stones;
                merged.reach |= g.reach;
                merged.size += g.size;
                joined += 1;
            } else {
                i += 1;
            }
        }
        list.push(merged);
        let mut lost = false;
        if joined > 0 {
            // Holdings only grow when groups grow or merge, so T(p) gains exactly the holdings of
            // the group just made; when x extends a single group, only the gap holdings on the
            // lines through x are new.
            self.terr[p] |= match rules.territory {
                TerritoryKind::Gap if joined == 1 => m.gap_through(merged.stones, x),
                kind => m.hold(kind, merged.stones),
            };
            let terr = self.terr[p];
            if self.stones[q].intersects(&terr) {
                lost = self.capture(rules.capture, q, terr, cells);
            }
        }
        let survey = self.survey(rules, q, lost);
        if lost {
            self.terr[q] = survey.terr;
        }
        self.legal = survey.legal;
        self.legal.any()
    }

    /// Removes q's stones captured by the territory `terr`; returns whether any were.
    fn capture(&mut self, capture: Capture, q: usize, terr: Bits<K>, cells: &mut [i8]) -> bool {
        let mut captured = Bits::EMPTY;
        // Stones of groups that lose some but not all of their stones.
        let mut leftover = Bits::EMPTY;
        let list = &mut self.groups[q];
        let mut i = 0;
        while i < list.len() {
            let g = list[i].stones;
            let inside = g & terr;
            let take = match capture {
                Capture::Piecewise => inside.any(),
                Capture::Groupwise | Capture::GroupwiseReentry => inside == g,
            };
            if take {
                list.swap_remove(i);
                captured |= inside;
                leftover |= g & !inside;
            } else {
                i += 1;
            }
        }
        if captured.is_empty() {
            return false;
        }
        self.stones[q] &= !captured;
        for s in captured.iter() {
            cells[s] = 0;
        }
        // Pieces of a split group touch no other group of theirs, so they regroup on their own.
        self.add_groups(q, leftover);
        true
    }

    fn blocked_stones(&self, rules: &RuleOptions, p: usize) -> Bits<K> {
        let (_, _, near) = self.playable_sites(rules, p);
        let mut out = Bits::EMPTY;
        for g in &self.groups[p] {
            if !g.reach.intersects(&near) {
                out |= g.stones;
            }
        }
        out
    }

    fn groups(&self, p: usize) -> Vec<Vec<u16>> {
        let mut out: Vec<Vec<u16>> = self.groups[p]
            .iter()
            .map(|g| g.stones.iter().map(|t| t as u16).collect())
            .collect();
        out.sort_unstable();
        out
    }
}

/// The positions at every width, one a state.
#[derive(Clone, Debug)]
struct Positions;

impl PerWidth for Positions {
    type At<const K: usize> = Pos<K>;
}

/// The position at the width of its board (one word inline, wider ones boxed).
type Core = Width<Positions>;

/// A Smallholder position.
#[derive(Debug)]
pub struct State {
    cfg: Arc<Config>,
    cells: Vec<i8>,
    /// The player to move; once the game is over without truncation, the player who lost.
    to_move: usize,
    moves: usize,
    over: bool,
    truncated: bool,
    /// The board part of the position key ([`zobrist`]).
    zkey: u64,
    core: Core,
}

impl Clone for State {
    fn clone(&self) -> Self {
        State {
            cfg: Arc::clone(&self.cfg),
            cells: self.cells.clone(),
            to_move: self.to_move,
            moves: self.moves,
            over: self.over,
            truncated: self.truncated,
            zkey: self.zkey,
            core: self.core.clone(),
        }
    }

    /// Copies without allocating when `self` is a position of the same board (the solver's and
    /// the searches' scratch positions).
    fn clone_from(&mut self, source: &Self) {
        if !Arc::ptr_eq(&self.cfg, &source.cfg) {
            self.cfg = Arc::clone(&source.cfg);
        }
        self.cells.clone_from(&source.cells);
        self.to_move = source.to_move;
        self.moves = source.moves;
        self.over = source.over;
        self.truncated = source.truncated;
        self.zkey = source.zkey;
        self.core.clone_from(&source.core);
    }
}

impl State {
    /// A uniformly random legal action and the number of legal actions it was drawn among.
    #[inline]
    fn draw_counted(&self, rng: &mut Rng) -> Option<(usize, usize)> {
        if self.over {
            return None;
        }
        each_width!(&self.core, p => {
            let count = p.legal.count();
            if count == 0 {
                None
            } else {
                p.legal.nth(rng.below(count)).map(|a| (a, count))
            }
        })
    }

    /// The empty board, Black (player 0) to move.
    pub fn new(cfg: Arc<Config>) -> State {
        let n = cfg.board.num_sites();
        let core = cfg.start.clone();
        let mut s = State {
            cells: vec![0; n],
            to_move: 0,
            moves: 0,
            over: false,
            truncated: false,
            zkey: 0,
            core,
            cfg,
        };
        s.settle();
        s
    }

    /// A position given by its board array (0 empty, 1 Black, 2 White) and the player to move,
    /// with no moves played. Territories are computed from the stones; enemy stones may stand
    /// inside them (as after re-entry or a groupwise capture). If the player to move has no legal
    /// placement, the position is already lost for them. For analysis and tests.
    pub fn from_position(cfg: Arc<Config>, cells: &[i8], to_move: usize) -> Result<State> {
        super::check_position("smallholder", cfg.board.num_sites(), 2, cells, to_move)?;
        let mut s = State::new(cfg);
        s.cells.copy_from_slice(cells);
        s.zkey = s.cfg.zobrist.board(cells);
        s.to_move = to_move;
        let kind = s.cfg.rules.territory;
        each_width!(&mut s.core, p => {
            for (site, &c) in cells.iter().enumerate() {
                if c > 0 {
                    p.stones[c as usize - 1].insert(site);
                }
            }
            for k in 0..2 {
                p.terr[k] = p.m.territory(kind, p.stones[k]);
                let stones = p.stones[k];
                p.add_groups(k, stones);
            }
        });
        s.settle();
        Ok(s)
    }

    /// Computes the legal placements of the player to move from scratch; ends the game if there
    /// are none.
    fn settle(&mut self) {
        let rules = self.cfg.rules;
        let to_move = self.to_move;
        let any = each_width!(&mut self.core, p => {
            p.legal = p.survey(&rules, to_move, false).legal;
            p.legal.any()
        });
        self.over = !any;
    }

    /// The options and board.
    pub fn config(&self) -> &Arc<Config> {
        &self.cfg
    }

    /// The territory T(player) of player 0 or 1, one boolean per site: every site held by one of
    /// the player's groups, whatever stands on it (own stones included). All false for other
    /// player numbers.
    pub fn territory(&self, player: usize) -> Vec<bool> {
        let n = self.cells.len();
        if player > 1 {
            return vec![false; n];
        }
        each_width!(&self.core, p => p.terr[player].to_bools(n))
    }

    /// The stones of `player` (0 or 1) that belong to blocked groups: groups with no empty
    /// neighbour where that player could play, judged as if that player were to move. A user
    /// interface marks these stones (for example with a grey dot). All false for other player
    /// numbers.
    pub fn blocked_stones(&self, player: usize) -> Vec<bool> {
        let n = self.cells.len();
        if player > 1 {
            return vec![false; n];
        }
        let rules = self.cfg.rules;
        each_width!(&self.core, p => p.blocked_stones(&rules, player).to_bools(n))
    }

    /// The sites PS(player) where `player` (0 or 1) may place a stone by the territory rule alone,
    /// before the group and adjacency rules narrow them. All false for other player numbers.
    pub fn playable_sites(&self, player: usize) -> Vec<bool> {
        let n = self.cells.len();
        if player > 1 {
            return vec![false; n];
        }
        let rules = self.cfg.rules;
        each_width!(&self.core, p => p.playable_sites(&rules, player).1.to_bools(n))
    }

    /// The groups of `player` (0 or 1), each as its sites ascending, ordered by their smallest
    /// site. Empty for other player numbers.
    pub fn groups(&self, player: usize) -> Vec<Vec<u16>> {
        if player > 1 {
            return Vec::new();
        }
        each_width!(&self.core, p => p.groups(player))
    }
}

impl Rules for State {
    fn game_name(&self) -> &'static str {
        "smallholder"
    }

    fn num_players(&self) -> usize {
        2
    }

    fn num_actions(&self) -> usize {
        self.cells.len()
    }

    fn board(&self) -> &Board {
        &self.cfg.board
    }

    fn cells(&self) -> &[i8] {
        &self.cells
    }

    fn current_player(&self) -> Option<usize> {
        (!self.over).then_some(self.to_move)
    }

    fn truncated(&self) -> bool {
        self.truncated
    }

    /// Planes 0–2: the viewer's stones, the opponent's, empty sites. Planes 3 and 4: the viewer's
    /// and the opponent's territory. Planes 5 and 6: the viewer's and the opponent's stones in
    /// blocked groups.
    fn observation_planes(&self) -> usize {
        self.cfg.observation_planes()
    }

    fn write_observation_for(&self, viewer: usize, out: &mut [f32]) {
        let n = self.cells.len();
        let k = super::write_stone_planes(&self.cells, 2, viewer, out);
        let planes = [
            self.territory(viewer),
            self.territory(1 - viewer),
            self.blocked_stones(viewer),
            self.blocked_stones(1 - viewer),
        ];
        for (i, plane) in planes.iter().enumerate() {
            let dst = &mut out[k + i * n..k + (i + 1) * n];
            for (d, &b) in dst.iter_mut().zip(plane) {
                *d = if b { 1.0 } else { 0.0 };
            }
        }
    }

    fn move_count(&self) -> usize {
        self.moves
    }

    /// The board and the player to move (turn number 0 or 1): territories, legal moves and the
    /// outcome all follow from these.
    #[inline]
    fn key(&self) -> u64 {
        self.zkey ^ zobrist::turn(self.to_move as u64)
    }

    fn legal_actions_into(&self, out: &mut Vec<u32>) {
        out.clear();
        if self.over {
            return;
        }
        each_width!(&self.core, p => out.extend(p.legal.iter().map(|s| s as u32)));
    }

    #[inline]
    fn is_legal(&self, action: usize) -> bool {
        !self.over && each_width!(&self.core, p => p.legal.contains(action))
    }

    fn apply_unchecked(&mut self, action: usize) {
        let rules = self.cfg.rules;
        let mover = self.to_move;
        let cells = &mut self.cells;
        let z = &self.cfg.zobrist;
        let mut key = self.zkey ^ z.stone(action, mover);
        let next_can_move = each_width!(&mut self.core, p => {
            let before = p.stones[1 - mover];
            let next = p.play(&rules, mover, action, cells);
            let captured = before & !p.stones[1 - mover];
            for s in captured.iter() {
                key ^= z.stone(s, 1 - mover);
            }
            next
        });
        self.zkey = key;
        self.moves += 1;
        self.to_move = 1 - mover;
        if !next_can_move {
            self.over = true;
        } else if self.moves >= self.cfg.max_moves {
            self.over = true;
            self.truncated = true;
        }
    }

    fn ranks(&self) -> Option<Vec<f64>> {
        if !self.over {
            return None;
        }
        if self.truncated {
            return Some(vec![1.5, 1.5]);
        }
        let mut ranks = vec![1.0, 1.0];
        ranks[self.to_move] = 2.0;
        Some(ranks)
    }

    #[inline]
    fn random_action(&self, rng: &mut Rng, _buf: &mut Vec<u32>) -> Option<usize> {
        self.draw_counted(rng).map(|(a, _)| a)
    }
}

mod knowledge;
mod measure;
#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;
