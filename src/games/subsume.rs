//! Subsume (Luis Bolaños Mures), for two players: Red (player 0, moves first) and Blue (player 1).
//!
//! No other program plays Subsume, so this module is its reference implementation. The designer
//! describes the game in prose; what follows is the exact reading stonefield implements.
//!
//! # Board
//!
//! A regular hexagon of hex cells with side `size` (option, default 6 = 91 cells; 3 to 30). Two
//! cells are neighbours when they share an edge. The **perimeter** is the outer ring of 6(n − 1)
//! cells. The board starts empty.
//!
//! # Words
//!
//! * A **group** is a maximal connected set of stones, of one colour or both: colours do not
//!   matter for groups in this game.
//! * A **loop** is a set of at least 6 stones, of any colours, forming a cycle with no shortcut:
//!   connected, and each of its stones touches exactly two others of the set. That is how we read
//!   "a single-width loop without kinks". On this grid such a cycle has 3 stones (a triangle,
//!   which encloses nothing and is not a loop) or at least 6, and every loop encloses at least one
//!   cell.
//! * The **interior** of a loop is the set of cells not on it that cannot be joined to the edge
//!   of the board by a path of cells avoiding the loop. Interior cells may hold stones.
//! * A loop M is a **sub-loop** of a loop L when M lies within L and its interior.
//! * The **maximally encompassing loop** (MEL) of a group is a loop of the group of which every
//!   loop of the group is a sub-loop. A group has at most one, and possibly none: two loops side
//!   by side, or sharing two adjacent stones, have no loop around both; a figure eight (two loops
//!   sharing a single stone) does, the outer cycle, which leaves the shared stone inside.
//! * A cell is **surrounded** when it lies in the interior of some loop on the board.
//!
//! # A turn
//!
//! The mover places a stone on an empty cell that is not surrounded and that has at least as
//! many enemy stones as friendly stones among its neighbours. There is no pass: a player without
//! such a cell has the turn skipped, and when neither player has one the game is drawn (the engine
//! handles this although a full perimeter always ends the game first).
//!
//! When the placement creates a MEL that did not exist before (the new stone's group now has a
//! MEL and the new stone is on it), the loop is settled:
//!
//! 1. if the mover owns at least half of its stones, every enemy stone on it becomes the mover's;
//!    otherwise every mover's stone on it becomes the enemy's (a tie goes to the mover);
//! 2. every stone in its interior, of either colour, is removed.
//!
//! The loop is then one colour with an empty interior, which stays unplayable for the rest of the
//! game: a loop can only vanish inside a larger one.
//!
//! # End
//!
//! After each move, if the stones of one colour contain a loop holding more than half of the
//! perimeter cells (more than 3(n − 1) of them, counting the cells the loop's stones stand on),
//! that colour's player wins, whichever player moved: a flip can hand the win to the opponent.
//! Both colours can never have such a loop at once.
//!
//! # Choices this reading makes
//!
//! * Neighbour counts for the anti-blob rule count stones only: the edge of the board is neither
//!   friend nor enemy, and an isolated empty cell (0 against 0) is playable.
//! * "Surrounded by a loop" means inside *any* loop on the board, whatever its colours or group,
//!   settled or not: the two middles of two rings side by side are unplayable although their
//!   group has no MEL.
//! * A MEL is new when no group had it before the move. Then the new stone is on it, and one
//!   placement settles at most one loop. A MEL that already existed (a tail added to a settled
//!   loop) is not settled again.
//! * "At least half" is 2·own ≥ |L| over the loop's stones, after placing and before flipping.
//! * Order within a move: place, settle the new MEL (flip, then removal), then the win test,
//!   then whose turn: the opponent if they can place, else the mover again, else a draw.
//! * "More than half of the perimeter" counts the perimeter cells the one-colour loop's stones
//!   occupy, not those it encloses.
//!
//! # The designer's two asides, as options
//!
//! The designer's notes say that "the removal of surrounded stones doesn't really affect the
//! game", and that the game "is playable without [the anti-blob] rule, strictly speaking, but
//! ends up being two big blobs growing and eventually facing off". Two flags, both true by
//! default, let players check:
//!
//! * `anti_blob=false` drops the neighbour condition of a turn: any empty cell that is not
//!   surrounded is a legal placement.
//! * `remove_surrounded=false` keeps the stones inside a new MEL on the board, in their colours,
//!   out of play: their cells stay closed, they are never flipped, they count for nobody's
//!   neighbours and belong to no loop (pictures draw them faded; `enclosed_stones` lists them).
//!   Every cell next to such a stone is inside the same loop, so this reading changes no legal
//!   move and no result: a game with the flag off plays exactly as with it on, move for move,
//!   and only the stones left on the board differ. The tests hold the engine to that.
//!
//! # Actions
//!
//! Action `a` in `0..N` places on cell `a` (the board numbering: rows from the bottom, left to
//! right). Every game ends within N placements, so there is no move cap and no truncation.
//!
//! The loop tests themselves (flood fills instead of loop enumeration) are in
//! [`crate::algo::loops`].

use std::cell::RefCell;
use std::sync::Arc;

use super::options::{OptionSpec, OptionValue, Options, Resolved};
use super::zobrist::{self, Zobrist};
use super::{GameConfig, Rules};
use crate::algo::hexgrid::HexGrid;
use crate::algo::loops::{self, OpenCells, Scratch};
use crate::board::Board;
use crate::error::{Error, Result};
use crate::rng::Rng;

/// Smallest and largest accepted `size`.
pub const SIZES: (usize, usize) = (3, 30);

/// The version of this reading of the rules, written into game records. It changes only when
/// the same options and actions could play out differently.
pub const RULES_VERSION: u32 = 1;

/// Subsume's options.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec::int(
        "size",
        SIZES.0 as i64,
        SIZES.1 as i64,
        Some(6),
        "the hexagon's side (91 cells at 6)",
    ),
    OptionSpec::boolean(
        "anti_blob",
        true,
        "the anti-blob rule: a placement needs at least as many enemy as friendly neighbours \
         (false: any open cell)",
    ),
    OptionSpec::boolean(
        "remove_surrounded",
        true,
        "a new MEL removes the stones inside it (false: they stay, faded, and take no further \
         part)",
    ),
];

/// Resolved Subsume options and the board.
#[derive(Clone, Debug)]
pub struct Config {
    pub board: Board,
    /// Side of the hexagon.
    pub size: usize,
    /// Neighbours of each cell in turning order.
    ring: Vec<[u16; 6]>,
    /// The bit layout of the loop tests.
    grid: HexGrid,
    /// A winning loop holds more than this many perimeter cells: 3(n − 1).
    threshold: usize,
    /// The stone values of the position key.
    zobrist: Zobrist,
    /// Rule 1 of a turn (the designer's anti-blob rule) applies.
    pub anti_blob: bool,
    /// A new MEL removes the stones inside it; with false they stay on the board, inert.
    pub remove_surrounded: bool,
    options: Options,
}

impl Config {
    /// Resolves user options: `size` (3 to 30, default 6), `anti_blob` and `remove_surrounded`
    /// (both true by default).
    pub fn new(given: &[(String, OptionValue)]) -> Result<Config> {
        let r = Resolved::new("subsume", OPTIONS, given)?;
        let size = r.count("size")?;
        let anti_blob = r.boolean("anti_blob")?;
        let remove_surrounded = r.boolean("remove_surrounded")?;
        let board = Board::hex_cells(size);
        let ring = loops::cyclic_neighbours(&board);
        let grid = HexGrid::new(&board);
        Ok(Config {
            zobrist: Zobrist::new(board.num_sites()),
            board,
            size,
            ring,
            grid,
            threshold: 3 * (size - 1),
            anti_blob,
            remove_surrounded,
            options: r.into_options(|_| OptionValue::Int(0)),
        })
    }
}

impl GameConfig for Config {
    const NAME: &'static str = "subsume";
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
        5
    }
    fn has_scores(&self) -> bool {
        false
    }
    /// A cell is filled at most once (cells inside a loop close for good).
    fn max_game_length(&self) -> usize {
        self.board.num_sites()
    }
    /// Action `a` places on cell `a`, named by the cell's name (`c4`).
    fn action_name(&self, action: usize) -> Option<String> {
        (action < self.board.num_sites()).then(|| self.board.site_name(action))
    }
    /// Every symmetry of the board: the rules use only its neighbour relations and perimeter,
    /// and every action is a site (or the pass).
    fn symmetries(&self) -> Vec<Vec<u16>> {
        self.board.symmetries()
    }
}

/// How a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Running,
    Won(u8),
    Drawn,
}

thread_local! {
    /// Flood-fill buffers; kept out of `State` so that copying a state copies only the position.
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// A Subsume position.
#[derive(Debug)]
pub struct State {
    cfg: Arc<Config>,
    /// 0 empty, 1 Red, 2 Blue.
    cells: Vec<i8>,
    /// `near[c][p]`: player p's stones among the neighbours of c.
    near: Vec<[u8; 2]>,
    /// Empty cells that are not surrounded.
    open: OpenCells,
    /// The stones of each player, and all stones, as bit sets of the config's `grid`.
    sets: [Vec<u64>; 3],
    /// Each player's stones on the perimeter.
    on_perimeter: [u16; 2],
    /// Whether the anti-blob rule applies (the config's flag, kept here for the hot paths).
    anti_blob: bool,
    /// With `remove_surrounded` false: one flag per cell for the stones kept inside a settled
    /// loop. They stay in `cells` (pictures and observations show them) but are out of `sets`,
    /// `near` and `on_perimeter`, so the rules see their cells as the removal would leave them.
    /// Empty until the first stone is kept.
    kept: Vec<bool>,
    to_move: u8,
    moves: u32,
    outcome: Outcome,
    /// The board part of the position key ([`zobrist`]).
    zkey: u64,
}

impl Clone for State {
    fn clone(&self) -> Self {
        State {
            cfg: Arc::clone(&self.cfg),
            cells: self.cells.clone(),
            near: self.near.clone(),
            open: self.open.clone(),
            sets: self.sets.clone(),
            on_perimeter: self.on_perimeter,
            anti_blob: self.anti_blob,
            kept: self.kept.clone(),
            to_move: self.to_move,
            moves: self.moves,
            outcome: self.outcome,
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
            near,
            open,
            sets,
            on_perimeter,
            anti_blob,
            kept,
            to_move,
            moves,
            outcome,
            zkey,
        } = source;
        if !Arc::ptr_eq(&self.cfg, cfg) {
            self.cfg = Arc::clone(cfg);
        }
        self.cells.clone_from(cells);
        self.near.clone_from(near);
        self.open.clone_from(open);
        for (mine, theirs) in self.sets.iter_mut().zip(sets) {
            mine.clone_from(theirs);
        }
        self.on_perimeter = *on_perimeter;
        self.anti_blob = *anti_blob;
        self.kept.clone_from(kept);
        self.to_move = *to_move;
        self.moves = *moves;
        self.outcome = *outcome;
        self.zkey = *zkey;
    }
}

impl State {
    /// The empty board, Red to move.
    pub fn new(cfg: Arc<Config>) -> State {
        let n = cfg.board.num_sites();
        let cells = vec![0; n];
        let words = cfg.grid.words();
        State {
            open: OpenCells::from_cells(&cfg.board, &cells),
            sets: [vec![0; words], vec![0; words], vec![0; words]],
            cells,
            near: vec![[0; 2]; n],
            on_perimeter: [0; 2],
            anti_blob: cfg.anti_blob,
            kept: Vec::new(),
            to_move: 0,
            moves: 0,
            outcome: Outcome::Running,
            zkey: 0,
            cfg,
        }
    }

    /// A position from its board array (0 empty, 1 Red, 2 Blue) and the player to move, for
    /// analysis and tests. The stones are taken as they are (loops already on the board are not
    /// settled); a colour that already has a winning loop has won; a player to move without a
    /// legal placement is skipped, and if neither has one the game is drawn. The move count
    /// starts at 0.
    pub fn from_position(cfg: Arc<Config>, cells: &[i8], to_move: usize) -> Result<State> {
        super::check_position("subsume", cfg.board.num_sites(), 2, cells, to_move)?;
        let mut s = State::new(cfg);
        for (c, &v) in cells.iter().enumerate() {
            if v > 0 {
                s.put(c, v);
            }
        }
        s.open = OpenCells::from_cells(&s.cfg.board, &s.cells);
        let winners: Vec<u8> = (0..2u8).filter(|&p| s.has_winning_loop(p)).collect();
        if winners.len() > 1 {
            return Err(Error::InvalidPosition(
                "subsume: both colours have a winning loop".to_string(),
            ));
        }
        if let Some(&w) = winners.first() {
            s.outcome = Outcome::Won(w);
        } else {
            s.pass_turn(to_move as u8);
        }
        Ok(s)
    }

    /// The options and board.
    pub fn config(&self) -> &Arc<Config> {
        &self.cfg
    }

    /// The winner once the game is over, `None` while it runs or after a draw.
    pub fn winner(&self) -> Option<usize> {
        match self.outcome {
            Outcome::Won(p) => Some(p as usize),
            _ => None,
        }
    }

    /// One flag per cell: `true` for the empty cells inside a loop, which nobody may play.
    pub fn surrounded(&self) -> Vec<bool> {
        (0..self.cells.len())
            .map(|c| self.cells[c] == 0 && !self.open.contains(c))
            .collect()
    }

    /// One flag per cell: `true` for the stones kept inside a settled loop (only with
    /// `remove_surrounded=false`; pictures draw them faded). They take no further part: their
    /// cells are closed, they are never flipped, and they count for no neighbour and no loop.
    pub fn enclosed_stones(&self) -> Vec<bool> {
        let mut out = vec![false; self.cells.len()];
        for (o, &k) in out.iter_mut().zip(&self.kept) {
            *o = k;
        }
        out
    }

    /// Whether the stone on `c` is kept inside a settled loop.
    #[inline]
    fn is_kept(&self, c: usize) -> bool {
        self.kept.get(c).copied().unwrap_or(false)
    }

    /// Takes the live stone on `c` out of play but leaves it on the board
    /// (`remove_surrounded=false`): for the rules its cell is as a removal leaves it.
    fn keep(&mut self, c: usize) {
        let v = self.cells[c];
        if v == 0 || self.is_kept(c) {
            return;
        }
        self.put(c, 0);
        self.cells[c] = v;
        // The stone stays on the board, so it stays in the key, which covers the board exactly
        // (whether a stone is kept follows from the board: it lies inside a settled loop).
        self.zkey ^= self.cfg.zobrist.stone(c, v as usize - 1);
        if self.kept.is_empty() {
            self.kept = vec![false; self.cells.len()];
        }
        self.kept[c] = true;
    }

    /// Sets cell `c` to `v` (0 empty, 1 or 2 a stone), keeping the counts in step.
    fn put(&mut self, c: usize, v: i8) {
        let board = &self.cfg.board;
        let old = self.cells[c];
        if old == v {
            return;
        }
        let perimeter = board.is_perimeter(c);
        let b = self.cfg.grid.bit(c);
        let (word, bit) = (b / 64, 1u64 << (b % 64));
        if old > 0 {
            let q = old as usize - 1;
            self.zkey ^= self.cfg.zobrist.stone(c, q);
            self.sets[q][word] &= !bit;
            self.sets[2][word] &= !bit;
            for &t in board.orth(c) {
                self.near[t as usize][q] -= 1;
            }
            if perimeter {
                self.on_perimeter[q] -= 1;
            }
        }
        if v > 0 {
            let p = v as usize - 1;
            self.zkey ^= self.cfg.zobrist.stone(c, p);
            self.sets[p][word] |= bit;
            self.sets[2][word] |= bit;
            for &t in board.orth(c) {
                self.near[t as usize][p] += 1;
            }
            if perimeter {
                self.on_perimeter[p] += 1;
            }
        }
        self.cells[c] = v;
    }

    /// Anti-blob rule: at least as many enemy as friendly neighbours (always true with
    /// `anti_blob=false`).
    #[inline]
    fn balanced(&self, c: usize, p: usize) -> bool {
        let near = self.near[c];
        !self.anti_blob || near[1 - p] >= near[p]
    }

    /// Whether player p has a legal placement.
    #[inline]
    fn can_place(&self, p: usize) -> bool {
        self.open
            .as_slice()
            .iter()
            .any(|&c| self.balanced(c as usize, p))
    }

    /// Whether player p's stones contain a winning loop.
    fn has_winning_loop(&self, p: u8) -> bool {
        let threshold = self.cfg.threshold;
        if (self.on_perimeter[p as usize] as usize) <= threshold {
            return false;
        }
        loops::has_winning_loop(&self.cfg.grid, &self.sets[p as usize], threshold)
    }

    /// Gives the turn to `next` if they can place, else back to the other player, else ends the
    /// game in a draw.
    fn pass_turn(&mut self, next: u8) {
        if self.can_place(next as usize) {
            self.to_move = next;
        } else if self.can_place(1 - next as usize) {
            self.to_move = 1 - next;
        } else {
            self.outcome = Outcome::Drawn;
        }
    }

    /// Settles a new MEL found by [`loops::new_mel`] for the mover p: majority flip, then
    /// removal of the interior (or, with `remove_surrounded=false`, its stones kept out of play).
    /// Returns the colour the loop now has.
    fn settle(&mut self, p: usize, sc: &Scratch) -> i8 {
        let mine = p as i8 + 1;
        let own = sc
            .loop_cells
            .iter()
            .filter(|&&c| self.cells[c as usize] == mine)
            .count();
        let colour = if 2 * own >= sc.loop_cells.len() {
            mine
        } else {
            3 - mine
        };
        for &c in &sc.loop_cells {
            self.put(c as usize, colour);
        }
        if self.cfg.remove_surrounded {
            for &c in &sc.interior {
                self.put(c as usize, 0);
            }
        } else {
            for &c in &sc.interior {
                self.keep(c as usize);
            }
        }
        colour
    }
}

impl Rules for State {
    fn game_name(&self) -> &'static str {
        "subsume"
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
        (self.outcome == Outcome::Running).then_some(self.to_move as usize)
    }

    fn truncated(&self) -> bool {
        false
    }

    /// Planes 0–2: the viewer's stones, the opponent's, empty sites. Plane 3: the cells inside
    /// a loop that hold no live stone (closed to both players: empty ones, and with
    /// `remove_surrounded=false` the stones kept inside a settled loop, which planes 0–1 also
    /// show). Plane 4: the perimeter ring.
    fn observation_planes(&self) -> usize {
        self.cfg.observation_planes()
    }

    fn write_observation_for(&self, viewer: usize, out: &mut [f32]) {
        let n = self.cells.len();
        let k = super::write_stone_planes(&self.cells, 2, viewer, out);
        for c in 0..n {
            let closed = (self.cells[c] == 0 || self.is_kept(c)) && !self.open.contains(c);
            out[k + c] = if closed { 1.0 } else { 0.0 };
            out[k + n + c] = if self.cfg.board.is_perimeter(c) {
                1.0
            } else {
                0.0
            };
        }
    }

    fn move_count(&self) -> usize {
        self.moves as usize
    }

    /// The board and the player to move (turn number 0 or 1). The closed cells (empty cells
    /// inside a loop) and the outcome follow from the board.
    #[inline]
    fn key(&self) -> u64 {
        self.zkey ^ zobrist::turn(u64::from(self.to_move))
    }

    fn legal_actions_into(&self, out: &mut Vec<u32>) {
        out.clear();
        if self.outcome != Outcome::Running {
            return;
        }
        let p = self.to_move as usize;
        out.extend(
            (0..self.cells.len())
                .filter(|&c| self.open.contains(c) && self.balanced(c, p))
                .map(|c| c as u32),
        );
    }

    #[inline]
    fn is_legal(&self, action: usize) -> bool {
        self.outcome == Outcome::Running
            && action < self.cells.len()
            && self.open.contains(action)
            && self.balanced(action, self.to_move as usize)
    }

    fn apply_unchecked(&mut self, s: usize) {
        let p = self.to_move as usize;
        self.put(s, p as i8 + 1);
        self.moves += 1;
        let gainer = SCRATCH.with(|sc| {
            let sc = &mut *sc.borrow_mut();
            let (board, ring) = (&self.cfg.board, &self.cfg.ring);
            let cut = self
                .open
                .place(&self.cfg.grid, ring, &self.cells, &self.sets[2], s);
            let closed = loops::may_close_mel(board, &self.cells, &self.open, s, cut)
                && loops::new_mel(&self.cfg.grid, &self.sets[2], s, sc);
            if closed {
                self.settle(p, sc)
            } else {
                p as i8 + 1
            }
        });
        // Only a colour that gained stones can have a new winning loop: a loop of a colour that
        // only lost stones was there before. Without a flip to the enemy, that is the mover
        // alone. (Both can never win at once.)
        let gained: &[u8] = if gainer == p as i8 + 1 {
            &[p as u8]
        } else {
            &[p as u8, 1 - p as u8]
        };
        for &w in gained {
            if self.has_winning_loop(w) {
                self.outcome = Outcome::Won(w);
                return;
            }
        }
        self.pass_turn(1 - p as u8);
    }

    fn ranks(&self) -> Option<Vec<f64>> {
        match self.outcome {
            Outcome::Running => None,
            Outcome::Won(0) => Some(vec![1.0, 2.0]),
            Outcome::Won(_) => Some(vec![2.0, 1.0]),
            Outcome::Drawn => Some(vec![1.5, 1.5]),
        }
    }

    /// Uniform over the legal set: draws from the open cells and keeps the first that passes the
    /// anti-blob rule (rejection keeps the draw uniform), falling back to the full list.
    fn random_action(&self, rng: &mut Rng, buf: &mut Vec<u32>) -> Option<usize> {
        if self.outcome != Outcome::Running {
            return None;
        }
        let open = self.open.as_slice();
        let p = self.to_move as usize;
        for _ in 0..8 {
            let c = open[rng.below(open.len())] as usize;
            if self.balanced(c, p) {
                return Some(c);
            }
        }
        buf.clear();
        buf.extend(
            open.iter()
                .filter(|&&c| self.balanced(c as usize, p))
                .map(|&c| u32::from(c)),
        );
        if buf.is_empty() {
            None
        } else {
            Some(buf[rng.below(buf.len())] as usize)
        }
    }
}

mod knowledge;
mod measure;
#[cfg(test)]
mod tests;
