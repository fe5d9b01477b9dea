//! The games: one rules trait ([`Rules`]), one file per game, and the enums [`Game`] and [`State`]
//! that choose a game at run time.
//!
//! Conventions shared by every game: players are `0..n`, player 0 moves first; a board array is
//! `i8` per site (0 empty, k a stone of player k − 1); actions are dense integers (each game file
//! gives its encoding); turns a player cannot take pass by themselves, so a state is either
//! terminal or has a player to move with at least one legal action.

pub mod faraday;
pub mod options;
mod session;
pub mod smallholder;
pub mod subsume;
pub mod windflowers;

use std::sync::Arc;

pub use options::{OptionReader, OptionValue, Options};
pub use session::Session;

use crate::board::Board;
use crate::error::{Error, Result};
use crate::rng::Rng;

/// The rules of one game, implemented by its state type.
///
/// Checked entry points ([`Rules::apply`]) validate user input and return errors; the
/// `_unchecked` twin is for the engine's own loops, which only play legal actions.
pub trait Rules: Clone + Send + Sync + 'static {
    /// The game id, as given to [`Game::make`].
    fn game_name(&self) -> &'static str;
    /// Number of players.
    fn num_players(&self) -> usize;
    /// Size of the action space; actions are `0..num_actions()`.
    fn num_actions(&self) -> usize;
    /// The board the game is played on.
    fn board(&self) -> &Board;
    /// The board array: 0 empty, k a stone of player k − 1.
    fn cells(&self) -> &[i8];
    /// The player to move, or `None` once the game is over.
    fn current_player(&self) -> Option<usize>;
    /// Whether the game has ended because it reached its move cap.
    fn truncated(&self) -> bool;
    /// Number of actions applied since the start.
    fn move_count(&self) -> usize;
    /// Bytes this state owns on the heap (beyond `size_of::<Self>()`), not counting data shared
    /// with other states of the same configuration (boards, masks, tables). Memory estimates and
    /// limits use it; `tests/memory.rs` holds it to the allocator's count.
    fn heap_bytes(&self) -> usize;
    /// Appends the legal actions, ascending, to `out` (which is cleared first).
    fn legal_actions_into(&self, out: &mut Vec<u32>);
    /// Whether `action` is legal now. Out-of-range actions are not legal. False once terminal.
    fn is_legal(&self, action: usize) -> bool;
    /// Applies an action known to be legal.
    fn apply_unchecked(&mut self, action: usize);
    /// Each player's rank once the game is over (1 = best, tied players share the average rank);
    /// `None` while it is running. A truncated game ranks everyone equal.
    fn ranks(&self) -> Option<Vec<f64>>;
    /// Each player's score, for games that have scores (available at any time).
    fn scores(&self) -> Option<Vec<f64>> {
        None
    }
    /// [`Rules::ranks`] written into `out` (one entry per player); false, writing nothing, while
    /// the game is running. Batches call it once per game, so games may override it to skip the
    /// allocation.
    fn ranks_into(&self, out: &mut [f64]) -> bool {
        self.ranks().map(|r| out.copy_from_slice(&r)).is_some()
    }
    /// [`Rules::scores`] written into `out`; false, writing nothing, for games without scores.
    fn scores_into(&self, out: &mut [f64]) -> bool {
        self.scores().map(|s| out.copy_from_slice(&s)).is_some()
    }

    /// Number of observation planes (see [`Rules::write_observation`]).
    fn observation_planes(&self) -> usize {
        self.num_players() + 1
    }

    /// Writes the observation tensor, `observation_planes() × num_sites` values in plane-major
    /// order, from the point of view of the player to move (player 0 once the game is over).
    ///
    /// The default planes: for k = 0..n, the stones of player (viewer + k) mod n (plane 0 is the
    /// viewer's own stones, plane 1 the next player's, …), then the empty sites. Games append
    /// their own planes after these.
    fn write_observation(&self, out: &mut [f32]) {
        write_stone_planes(self.cells(), self.num_players(), self.current_player(), out);
    }

    /// Writes the legal-action mask (`num_actions` entries). The default asks `is_legal` of every
    /// action, which allocates nothing; every game keeps that test cheap.
    fn write_legal_mask(&self, out: &mut [bool]) {
        for (a, m) in out.iter_mut().enumerate() {
            *m = self.is_legal(a);
        }
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.current_player().is_none()
    }

    /// The legal actions, ascending.
    fn legal_actions(&self) -> Vec<u32> {
        let mut v = Vec::new();
        self.legal_actions_into(&mut v);
        v
    }

    /// Utilities in [−1, 1] from the ranks: u = 1 − 2·(rank − 1)/(n − 1); zero for everyone when
    /// truncated; `None` while the game is running.
    fn returns(&self) -> Option<Vec<f64>> {
        let ranks = self.ranks()?;
        if self.truncated() {
            return Some(vec![0.0; ranks.len()]);
        }
        Some(returns_from_ranks(&ranks))
    }

    /// Checks and applies an action; on error nothing changes.
    fn apply(&mut self, action: i64) -> Result<()> {
        if self.is_terminal() {
            return Err(Error::GameOver(format!(
                "{}: the game is over; no action is legal (got {action})",
                self.game_name()
            )));
        }
        let n = self.num_actions();
        if action < 0 || action as u64 >= n as u64 {
            return Err(Error::IllegalMove(format!(
                "{}: action {action} is out of range; actions are 0..{} (0 to {})",
                self.game_name(),
                n,
                n - 1
            )));
        }
        if !self.is_legal(action as usize) {
            let legal = self.legal_actions();
            return Err(Error::IllegalMove(format!(
                "{}: action {action} is not legal for player {} now; legal actions: {}",
                self.game_name(),
                self.current_player().unwrap_or(0),
                preview(&legal)
            )));
        }
        self.apply_unchecked(action as usize);
        Ok(())
    }

    /// A uniformly random legal action, or `None` once terminal. `buf` is scratch space.
    ///
    /// The default draws candidates from the whole action space and keeps the first legal one
    /// (rejection sampling, uniform over the legal set), falling back to the full legal list after
    /// a few misses, which keeps the draw uniform. Games with cheap `is_legal` need nothing more.
    fn random_action(&self, rng: &mut Rng, buf: &mut Vec<u32>) -> Option<usize> {
        if self.is_terminal() {
            return None;
        }
        let n = self.num_actions();
        for _ in 0..8 {
            let a = rng.below(n);
            if self.is_legal(a) {
                return Some(a);
            }
        }
        self.legal_actions_into(buf);
        if buf.is_empty() {
            None
        } else {
            Some(buf[rng.below(buf.len())] as usize)
        }
    }

    /// Plays random actions, each drawn as [`Rules::random_action`] draws it, to the end of the
    /// game; returns how many were played. `buf` is scratch space. Games override it to choose
    /// their representation once per game rather than once per move.
    fn random_playout(&mut self, rng: &mut Rng, buf: &mut Vec<u32>) -> usize {
        let start = self.move_count();
        while let Some(a) = self.random_action(rng, buf) {
            self.apply_unchecked(a);
        }
        self.move_count() - start
    }
}

/// Writes the player-relative stone planes and the empty plane shared by every game's
/// observation: plane k holds the stones of player (viewer + k) mod n, plane n the empty sites.
/// Returns the number of values written.
pub fn write_stone_planes(
    cells: &[i8],
    players: usize,
    viewer: Option<usize>,
    out: &mut [f32],
) -> usize {
    let n = cells.len();
    let viewer = viewer.unwrap_or(0);
    let planes = &mut out[..(players + 1) * n];
    planes.fill(0.0);
    for (s, &c) in cells.iter().enumerate() {
        let plane = if c == 0 {
            players
        } else {
            (c as usize - 1 + players - viewer) % players
        };
        planes[plane * n + s] = 1.0;
    }
    (players + 1) * n
}

/// Checks a position given by users (a board array and the player to move) against a game's
/// board size and player count, for the games' `from_position` constructors.
pub fn check_position(
    game: &str,
    sites: usize,
    players: usize,
    cells: &[i8],
    to_move: usize,
) -> Result<()> {
    if cells.len() != sites {
        return Err(Error::Record(format!(
            "{game}: a board array needs {sites} sites, got {}",
            cells.len()
        )));
    }
    if let Some(bad) = cells.iter().find(|&&c| c < 0 || c as usize > players) {
        return Err(Error::Record(format!(
            "{game}: cell value {bad} out of range 0..={players}"
        )));
    }
    if to_move >= players {
        return Err(Error::Record(format!(
            "{game}: player {to_move} out of range 0..{players}"
        )));
    }
    Ok(())
}

/// Ranks from values where higher is better; equal values share the average of their ranks.
pub fn ranks_from_values(values: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; values.len()];
    ranks_from_values_into(values, &mut out);
    out
}

/// [`ranks_from_values`] written into `out` (as long as `values`).
pub fn ranks_from_values_into(values: &[f64], out: &mut [f64]) {
    for (r, &v) in out.iter_mut().zip(values) {
        let better = values.iter().filter(|&&w| w > v).count();
        let equal = values.iter().filter(|&&w| w == v).count();
        // Ranks better+1 ..= better+equal, averaged.
        *r = better as f64 + (equal as f64 + 1.0) / 2.0;
    }
}

/// u = 1 − 2·(rank − 1)/(n − 1).
pub fn returns_from_ranks(ranks: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; ranks.len()];
    returns_from_ranks_into(ranks, &mut out);
    out
}

/// [`returns_from_ranks`] written into `out` (as long as `ranks`).
pub fn returns_from_ranks_into(ranks: &[f64], out: &mut [f64]) {
    let n = ranks.len();
    if n < 2 {
        out.fill(0.0);
        return;
    }
    for (u, r) in out.iter_mut().zip(ranks) {
        *u = 1.0 - 2.0 * (r - 1.0) / (n as f64 - 1.0);
    }
}

/// At most 20 actions, for error messages.
pub fn preview(actions: &[u32]) -> String {
    let head: Vec<String> = actions.iter().take(20).map(|a| a.to_string()).collect();
    if actions.len() > 20 {
        format!("[{}, … ({} in all)]", head.join(", "), actions.len())
    } else {
        format!("[{}]", head.join(", "))
    }
}

/// Every game id, in the order `games()` lists them.
pub const GAME_NAMES: &[&str] = &["smallholder", "windflowers", "faraday", "subsume"];

/// A configured game: its rules with every option resolved. Cheap to clone (shared config).
#[derive(Clone, Debug)]
pub enum Game {
    Windflowers(Arc<windflowers::Config>),
    Faraday(Arc<faraday::Config>),
    Smallholder(Arc<smallholder::Config>),
    Subsume(Arc<subsume::Config>),
}

/// A game state of any game. Implements [`Rules`] by dispatching to the game's own state type;
/// hot loops that know their game use that type directly.
#[derive(Clone, Debug)]
pub enum State {
    Windflowers(windflowers::State),
    Faraday(faraday::State),
    Smallholder(smallholder::State),
    Subsume(subsume::State),
}

/// Runs `$body` with `$s` bound to the inner value of any [`State`] variant. The body is
/// compiled once per game, so generic code called from it is statically dispatched.
#[macro_export]
macro_rules! each_state {
    ($state:expr, $s:ident => $body:expr) => {
        match $state {
            $crate::games::State::Windflowers($s) => $body,
            $crate::games::State::Faraday($s) => $body,
            $crate::games::State::Smallholder($s) => $body,
            $crate::games::State::Subsume($s) => $body,
        }
    };
}
pub use each_state;

impl Game {
    /// Builds a game from its id and user options; unknown ids, options or values fail with
    /// [`Error::InvalidOption`] naming what is allowed.
    pub fn make(name: &str, options: &[(String, OptionValue)]) -> Result<Game> {
        match name {
            "windflowers" => Ok(Game::Windflowers(Arc::new(windflowers::Config::new(
                options,
            )?))),
            "faraday" => Ok(Game::Faraday(Arc::new(faraday::Config::new(options)?))),
            "smallholder" => Ok(Game::Smallholder(Arc::new(smallholder::Config::new(
                options,
            )?))),
            "subsume" => Ok(Game::Subsume(Arc::new(subsume::Config::new(options)?))),
            _ => Err(Error::InvalidOption(format!(
                "unknown game {name:?}; games: {}",
                options::quoted(GAME_NAMES)
            ))),
        }
    }

    /// The game's id.
    pub fn name(&self) -> &'static str {
        match self {
            Game::Windflowers(_) => "windflowers",
            Game::Faraday(_) => "faraday",
            Game::Smallholder(_) => "smallholder",
            Game::Subsume(_) => "subsume",
        }
    }

    /// Every option, resolved, defaults filled in.
    pub fn options(&self) -> Options {
        match self {
            Game::Windflowers(c) => c.options(),
            Game::Faraday(c) => c.options(),
            Game::Smallholder(c) => c.options(),
            Game::Subsume(c) => c.options(),
        }
    }

    /// The board.
    pub fn board(&self) -> &Board {
        match self {
            Game::Windflowers(c) => &c.board,
            Game::Faraday(c) => &c.board,
            Game::Smallholder(c) => &c.board,
            Game::Subsume(c) => &c.board,
        }
    }

    /// The starting position.
    pub fn new_state(&self) -> State {
        match self {
            Game::Windflowers(c) => State::Windflowers(windflowers::State::new(c.clone())),
            Game::Faraday(c) => State::Faraday(faraday::State::new(c.clone())),
            Game::Smallholder(c) => State::Smallholder(smallholder::State::new(c.clone())),
            Game::Subsume(c) => State::Subsume(subsume::State::new(c.clone())),
        }
    }

    /// Number of players.
    pub fn num_players(&self) -> usize {
        self.new_state().num_players()
    }

    /// Size of the action space.
    pub fn num_actions(&self) -> usize {
        self.new_state().num_actions()
    }

    /// Number of observation planes.
    pub fn observation_planes(&self) -> usize {
        self.new_state().observation_planes()
    }

    /// Whether the game reports scores.
    pub fn new_state_has_scores(&self) -> bool {
        self.new_state().scores().is_some()
    }
}

impl State {
    /// The game this state belongs to.
    pub fn game(&self) -> Game {
        match self {
            State::Windflowers(s) => Game::Windflowers(s.config().clone()),
            State::Faraday(s) => Game::Faraday(s.config().clone()),
            State::Smallholder(s) => Game::Smallholder(s.config().clone()),
            State::Subsume(s) => Game::Subsume(s.config().clone()),
        }
    }
}

impl Rules for State {
    fn game_name(&self) -> &'static str {
        each_state!(self, s => s.game_name())
    }
    fn num_players(&self) -> usize {
        each_state!(self, s => s.num_players())
    }
    fn num_actions(&self) -> usize {
        each_state!(self, s => s.num_actions())
    }
    fn board(&self) -> &Board {
        each_state!(self, s => s.board())
    }
    fn cells(&self) -> &[i8] {
        each_state!(self, s => s.cells())
    }
    fn current_player(&self) -> Option<usize> {
        each_state!(self, s => s.current_player())
    }
    fn truncated(&self) -> bool {
        each_state!(self, s => s.truncated())
    }
    fn move_count(&self) -> usize {
        each_state!(self, s => s.move_count())
    }
    fn heap_bytes(&self) -> usize {
        each_state!(self, s => s.heap_bytes())
    }
    fn legal_actions_into(&self, out: &mut Vec<u32>) {
        each_state!(self, s => s.legal_actions_into(out))
    }
    fn is_legal(&self, action: usize) -> bool {
        each_state!(self, s => s.is_legal(action))
    }
    fn apply_unchecked(&mut self, action: usize) {
        each_state!(self, s => s.apply_unchecked(action))
    }
    fn ranks(&self) -> Option<Vec<f64>> {
        each_state!(self, s => s.ranks())
    }
    fn scores(&self) -> Option<Vec<f64>> {
        each_state!(self, s => s.scores())
    }
    fn ranks_into(&self, out: &mut [f64]) -> bool {
        each_state!(self, s => s.ranks_into(out))
    }
    fn scores_into(&self, out: &mut [f64]) -> bool {
        each_state!(self, s => s.scores_into(out))
    }
    fn is_terminal(&self) -> bool {
        each_state!(self, s => s.is_terminal())
    }
    fn returns(&self) -> Option<Vec<f64>> {
        each_state!(self, s => s.returns())
    }
    fn apply(&mut self, action: i64) -> Result<()> {
        each_state!(self, s => s.apply(action))
    }
    fn random_action(&self, rng: &mut Rng, buf: &mut Vec<u32>) -> Option<usize> {
        each_state!(self, s => s.random_action(rng, buf))
    }
    fn random_playout(&mut self, rng: &mut Rng, buf: &mut Vec<u32>) -> usize {
        each_state!(self, s => s.random_playout(rng, buf))
    }
    fn observation_planes(&self) -> usize {
        each_state!(self, s => s.observation_planes())
    }
    fn write_observation(&self, out: &mut [f32]) {
        each_state!(self, s => s.write_observation(out))
    }
    fn write_legal_mask(&self, out: &mut [bool]) {
        each_state!(self, s => s.write_legal_mask(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_share_the_average() {
        assert_eq!(ranks_from_values(&[3.0, 1.0]), vec![1.0, 2.0]);
        assert_eq!(ranks_from_values(&[2.0, 2.0]), vec![1.5, 1.5]);
        assert_eq!(
            ranks_from_values(&[5.0, 7.0, 7.0, 1.0]),
            vec![3.0, 1.5, 1.5, 4.0]
        );
        assert_eq!(returns_from_ranks(&[1.0, 2.0]), vec![1.0, -1.0]);
        assert_eq!(returns_from_ranks(&[1.5, 1.5]), vec![0.0, 0.0]);
        assert_eq!(returns_from_ranks(&[1.0, 2.0, 3.0]), vec![1.0, 0.0, -1.0]);
    }

    #[test]
    fn unknown_game_names_the_games() {
        let err = Game::make("chess", &[]).unwrap_err();
        assert!(matches!(err, Error::InvalidOption(ref m) if m.contains("windflowers")));
    }
}
