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
//! `a = N` passes. Nothing bounds the game's length (stones can be replaced back and forth), so a
//! move cap (`max_moves`, default 10 × sites) ends it as truncated, a draw among all players.

use std::sync::Arc;

use super::options::{opt, OptionReader, OptionValue, Options};
use super::{ranks_from_values, Rules};
use crate::algo::{component_sizes, FloodScratch};
use crate::board::{Board, Relation, Shape};
use crate::error::Result;

/// Grids, scorings and tie-breaks by option name.
pub const GRIDS: &[&str] = &["hex", "trisquare", "square"];
pub const SCORINGS: &[&str] = &["stones", "largest_group"];
pub const TIEBREAKS: &[&str] = &["underdog", "cascade"];

/// How base scores are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// Number of own stones on the board.
    Stones,
    /// Size of the largest own group under the group relation.
    LargestGroup,
}

/// How a tie for first is broken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tiebreak {
    /// The player with the smaller largest unpaired group takes the difference.
    Underdog,
    /// The player with the larger largest unpaired group takes the difference.
    Cascade,
}

/// Resolved Windflowers options and the board.
#[derive(Clone, Debug)]
pub struct Config {
    pub board: Board,
    pub players: usize,
    pub grid: &'static str,
    pub size: usize,
    pub scoring: Scoring,
    pub tiebreak: Tiebreak,
    pub last_placer_breaks_ties: bool,
    pub max_moves: usize,
    /// Relation for replacement counts.
    pub capture: Relation,
    /// Relation for groups.
    pub group: Relation,
}

impl Config {
    /// Resolves user options: players, grid, size, scoring, tiebreak, last_placer_breaks_ties,
    /// max_moves.
    pub fn new(given: &[(String, OptionValue)]) -> Result<Config> {
        let mut r = OptionReader::new("windflowers", given);
        let players = r.int("players", 2, 4, 2)? as usize;
        let grid = r.choice("grid", GRIDS, "trisquare")?;
        let size = r.int("size", 3, 15, 4)? as usize;
        let scoring = match r.choice("scoring", SCORINGS, "stones")? {
            "stones" => Scoring::Stones,
            _ => Scoring::LargestGroup,
        };
        let tiebreak = match r.choice("tiebreak", TIEBREAKS, "underdog")? {
            "underdog" => Tiebreak::Underdog,
            _ => Tiebreak::Cascade,
        };
        let last_placer_breaks_ties = r.boolean("last_placer_breaks_ties", false)?;
        let shape = match grid {
            "hex" => Shape::HexCells {
                a: size - 1,
                b: size + 1,
            },
            "square" => Shape::Square {
                width: 2 * size - 2,
                height: 2 * size - 2,
            },
            _ => Shape::TriSquare { d: size - 2 },
        };
        let sites = Board::count_sites(shape);
        let max_moves = r.int_opt("max_moves", 1, 1 << 40)?;
        r.finish()?;
        let (capture, group) = match grid {
            "hex" => (Relation::Orthogonal, Relation::Orthogonal),
            _ => (Relation::All, Relation::Orthogonal),
        };
        Ok(Config {
            board: Board::new(shape),
            players,
            grid,
            size,
            scoring,
            tiebreak,
            last_placer_breaks_ties,
            max_moves: max_moves.map_or(10 * sites, |m| m as usize),
            capture,
            group,
        })
    }

    /// The resolved options, in a fixed order.
    pub fn options(&self) -> Options {
        vec![
            opt("players", self.players),
            opt("grid", self.grid),
            opt("size", self.size),
            opt(
                "scoring",
                match self.scoring {
                    Scoring::Stones => "stones",
                    Scoring::LargestGroup => "largest_group",
                },
            ),
            opt(
                "tiebreak",
                match self.tiebreak {
                    Tiebreak::Underdog => "underdog",
                    Tiebreak::Cascade => "cascade",
                },
            ),
            opt("last_placer_breaks_ties", self.last_placer_breaks_ties),
            opt("max_moves", self.max_moves),
        ]
    }
}

/// A Windflowers position.
#[derive(Clone, Debug)]
pub struct State {
    cfg: Arc<Config>,
    cells: Vec<i8>,
    /// `near[s][q]`: player q's stones among the capture neighbours of s.
    near: Vec<[u8; 4]>,
    stones: [u32; 4],
    to_move: usize,
    /// Consecutive passes ending with the last action.
    passes: usize,
    moves: usize,
    /// Move number (1-based) of each player's latest placement; 0 if none.
    last_placed: [usize; 4],
    over: bool,
    truncated: bool,
}

impl State {
    /// The empty board, player 0 to move.
    pub fn new(cfg: Arc<Config>) -> State {
        let n = cfg.board.num_sites();
        State {
            cells: vec![0; n],
            near: vec![[0; 4]; n],
            stones: [0; 4],
            to_move: 0,
            passes: 0,
            moves: 0,
            last_placed: [0; 4],
            over: false,
            truncated: false,
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
        s.to_move = to_move;
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

    /// Puts player p's stone on `site`, replacing whatever stood there, keeping counts in step.
    fn put(&mut self, site: usize, p: usize) {
        let old = self.cells[site];
        let board = &self.cfg.board;
        if old > 0 {
            let q = old as usize - 1;
            self.stones[q] -= 1;
            for &t in board.neighbors(self.cfg.capture, site) {
                self.near[t as usize][q] -= 1;
            }
        }
        self.cells[site] = p as i8 + 1;
        self.stones[p] += 1;
        for &t in board.neighbors(self.cfg.capture, site) {
            self.near[t as usize][p] += 1;
        }
    }

    /// Sizes of player p's groups under the group relation.
    pub fn group_sizes(&self, p: usize) -> Vec<usize> {
        let mut scratch = FloodScratch::default();
        component_sizes(
            &self.cfg.board,
            self.cfg.group,
            &self.cells,
            p as i8 + 1,
            &mut scratch,
        )
    }

    /// Base scores S_p.
    pub fn base_scores(&self) -> Vec<usize> {
        (0..self.cfg.players)
            .map(|p| match self.cfg.scoring {
                Scoring::Stones => self.stones[p] as usize,
                Scoring::LargestGroup => self.group_sizes(p).into_iter().max().unwrap_or(0),
            })
            .collect()
    }

    /// Final scores F_p after the tie-break for first place (equal to S_p for everyone when the
    /// top score is unique).
    pub fn final_scores(&self) -> Vec<usize> {
        let base = self.base_scores();
        let top = base.iter().copied().max().unwrap_or(0);
        let tied: Vec<usize> = (0..base.len()).filter(|&p| base[p] == top).collect();
        let mut fin = base.clone();
        if tied.len() < 2 {
            return fin;
        }
        let sizes: Vec<Vec<usize>> = (0..base.len()).map(|p| self.group_sizes(p)).collect();
        for &p in &tied {
            for &v in &tied {
                if v == p {
                    continue;
                }
                let (lp, lv) = (
                    largest_unpaired(&sizes[p], &sizes[v]),
                    largest_unpaired(&sizes[v], &sizes[p]),
                );
                fin[p] += match self.cfg.tiebreak {
                    Tiebreak::Cascade => lp.saturating_sub(lv),
                    Tiebreak::Underdog => lv.saturating_sub(lp),
                };
            }
        }
        fin
    }
}

/// LG(a, b): the largest value of the multiset difference a ⊖ b (one copy of a removed for each
/// copy in b), or 0 if it is empty.
pub fn largest_unpaired(a: &[usize], b: &[usize]) -> usize {
    let mut a = a.to_vec();
    let mut b = b.to_vec();
    a.sort_unstable_by(|x, y| y.cmp(x));
    b.sort_unstable_by(|x, y| y.cmp(x));
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
    0
}

impl Rules for State {
    fn game_name(&self) -> &'static str {
        "windflowers"
    }

    fn num_players(&self) -> usize {
        self.cfg.players
    }

    fn num_actions(&self) -> usize {
        self.cells.len() + 1
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

    fn move_count(&self) -> usize {
        self.moves
    }

    fn legal_actions_into(&self, out: &mut Vec<u32>) {
        out.clear();
        if self.over {
            return;
        }
        for site in 0..self.cells.len() {
            if self.is_legal(site) {
                out.push(site as u32);
            }
        }
        out.push(self.cells.len() as u32);
    }

    #[inline]
    fn is_legal(&self, action: usize) -> bool {
        if self.over {
            return false;
        }
        let n = self.cells.len();
        if action >= n {
            return action == n;
        }
        let c = self.cells[action];
        if c == 0 {
            return true;
        }
        let q = c as usize - 1;
        let near = &self.near[action];
        q != self.to_move && near[q] > near[self.to_move]
    }

    fn apply_unchecked(&mut self, action: usize) {
        let p = self.to_move;
        self.moves += 1;
        if action == self.cells.len() {
            self.passes += 1;
        } else {
            self.put(action, p);
            self.passes = 0;
            self.last_placed[p] = self.moves;
        }
        if self.passes >= self.cfg.players {
            self.over = true;
        } else if self.moves >= self.cfg.max_moves {
            self.over = true;
            self.truncated = true;
        }
        self.to_move = (p + 1) % self.cfg.players;
    }

    fn ranks(&self) -> Option<Vec<f64>> {
        if !self.over {
            return None;
        }
        let n = self.cfg.players;
        if self.truncated {
            return Some(vec![(n as f64 + 1.0) / 2.0; n]);
        }
        let fin = self.final_scores();
        let mut values: Vec<f64> = fin.iter().map(|&f| f as f64).collect();
        if self.cfg.last_placer_breaks_ties {
            let top = fin.iter().copied().max().unwrap_or(0);
            let tied: Vec<usize> = (0..n).filter(|&p| fin[p] == top).collect();
            if tied.len() > 1 {
                let latest = tied.iter().copied().max_by_key(|&p| self.last_placed[p]);
                if let Some(w) = latest.filter(|&w| self.last_placed[w] > 0) {
                    values[w] += 0.5;
                }
            }
        }
        Some(ranks_from_values(&values))
    }

    fn scores(&self) -> Option<Vec<f64>> {
        Some(self.base_scores().into_iter().map(|s| s as f64).collect())
    }

    /// Planes 0..n: stones of the viewer and the players after it in turn order; plane n: empty
    /// sites; plane n + 1: every site holds the number of consecutive passes so far divided by
    /// the number of players (the game ends when it reaches 1).
    fn observation_planes(&self) -> usize {
        self.cfg.players + 2
    }

    fn write_observation(&self, out: &mut [f32]) {
        let n = self.cells.len();
        let k =
            super::write_stone_planes(&self.cells, self.cfg.players, self.current_player(), out);
        out[k..k + n].fill(self.passes as f32 / self.cfg.players as f32);
    }

    fn write_legal_mask(&self, out: &mut [bool]) {
        for (a, m) in out.iter_mut().enumerate() {
            *m = self.is_legal(a);
        }
    }
}

#[cfg(test)]
mod tests;
