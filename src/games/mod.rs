//! The games: one rules trait ([`Rules`]), one file per game, and the enums [`Game`] and [`State`]
//! that choose a game at run time.
//!
//! Conventions shared by every game: players are `0..n`, player 0 moves first; a board array is
//! `i8` per site (0 empty, k a stone of player k − 1); actions are dense integers (each game file
//! gives its encoding); turns a player cannot take pass by themselves, so a state is either
//! terminal or has a player to move with at least one legal action.

pub mod faraday;
pub mod knowledge;
pub mod measure;
pub mod options;
mod session;
pub mod smallholder;
pub mod subsume;
#[cfg(test)]
pub mod testing;
pub mod windflowers;
pub mod zobrist;

use std::fmt;
use std::sync::Arc;

pub use knowledge::{ChildPeek, Footprint, Knowledge, Peek};
pub use measure::{FinalColumn, Measure, Observer, MAX_DECLARED};
pub use options::{OptionKind, OptionSpec, OptionValue, Options};
pub use session::Session;

use crate::board::Board;
pub use crate::error::preview;
use crate::error::{Asked, Error, GameOver, IllegalMove, Result};
use crate::rng::Rng;

/// The rules of one game, implemented by its state type.
///
/// Checked entry points ([`Rules::apply`]) validate user input and return errors; the
/// `_unchecked` twin is for the engine's own loops, which only play legal actions.
///
/// Provided methods whose body opens with `/* FINAL */` are built on the others and must not be
/// overridden (not even by [`State`]'s dispatch), so that they agree with the methods they are
/// built on in every game. The other provided methods may be overridden where a game answers
/// faster, drawing and answering exactly as the default does.
///
/// What tools need of a game beyond its rules lives in opt-in traits over this one, each with
/// defaults: [`Peek`], [`Knowledge`] and [`Footprint`] ([`knowledge`]), and [`Measure`].
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
    /// The position key: a 64-bit Zobrist hash of everything that decides the legal moves and
    /// the outcome from here (board, player to move and each game's own extra state), kept up
    /// to date by [`Rules::apply_unchecked`]. The move count is not part of it. Two positions
    /// with equal boards are equal exactly when their keys are; see [`zobrist`] for the
    /// definition and the rule for when keys may change.
    fn key(&self) -> u64;
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
    fn write_observation(&self, out: &mut [f32]) {
        self.write_observation_for(self.current_player().unwrap_or(0), out);
    }

    /// Writes the observation tensor from the point of view of `viewer` (`0..num_players()`),
    /// whoever is to move.
    ///
    /// The default planes: for k = 0..n, the stones of player (viewer + k) mod n (plane 0 is the
    /// viewer's own stones, plane 1 the next player's, …), then the empty sites. Games append
    /// their own planes after these.
    fn write_observation_for(&self, viewer: usize, out: &mut [f32]) {
        write_stone_planes(self.cells(), self.num_players(), viewer, out);
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
        /* FINAL */
        self.current_player().is_none()
    }

    /// The legal actions, ascending.
    fn legal_actions(&self) -> Vec<u32> {
        /* FINAL */
        let mut v = Vec::new();
        self.legal_actions_into(&mut v);
        v
    }

    /// Utilities in [−1, 1] from the ranks: u = 1 − 2·(rank − 1)/(n − 1); zero for everyone when
    /// truncated; `None` while the game is running.
    fn returns(&self) -> Option<Vec<f64>> {
        /* FINAL */
        let n = self.num_players();
        let (mut ranks, mut out) = (vec![0.0; n], vec![0.0; n]);
        self.returns_into(&mut ranks, &mut out).then_some(out)
    }

    /// [`Rules::returns`] written into `out`, with the ranks written into `ranks` on the way
    /// (both one entry per player): the one place where ranks become returns. False, writing
    /// nothing, while the game is running.
    fn returns_into(&self, ranks: &mut [f64], out: &mut [f64]) -> bool {
        /* FINAL */
        if !self.ranks_into(ranks) {
            return false;
        }
        if self.truncated() {
            out.fill(0.0);
        } else {
            returns_from_ranks_into(ranks, out);
        }
        true
    }

    /// Checks and applies an action; on error nothing changes.
    fn apply(&mut self, action: i64) -> Result<()> {
        /* FINAL */
        let game = self.game_name();
        if self.is_terminal() {
            return Err(GameOver {
                game,
                asked: Asked::Action(action),
            }
            .into());
        }
        let n = self.num_actions();
        if action < 0 || action as u64 >= n as u64 {
            return Err(IllegalMove::OutOfRange {
                game,
                action,
                actions: n,
            }
            .into());
        }
        if !self.is_legal(action as usize) {
            return Err(IllegalMove::NotLegal {
                game,
                action,
                player: self.current_player().unwrap_or(0),
                legal: self.legal_actions(),
            }
            .into());
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

/// The most players any game has (Windflowers' four).
pub const MAX_PLAYERS: usize = 4;

/// Writes the player-relative stone planes and the empty plane shared by every game's
/// observation: plane k holds the stones of player (viewer + k) mod n, plane n the empty sites.
/// Returns the number of values written.
pub fn write_stone_planes(cells: &[i8], players: usize, viewer: usize, out: &mut [f32]) -> usize {
    let n = cells.len();
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
        return Err(Error::InvalidPosition(format!(
            "{game}: a board array needs {sites} sites, got {}",
            cells.len()
        )));
    }
    if let Some(bad) = cells.iter().find(|&&c| c < 0 || c as usize > players) {
        return Err(Error::InvalidPosition(format!(
            "{game}: cell value {bad} out of range 0..={players}"
        )));
    }
    if to_move >= players {
        return Err(Error::InvalidPosition(format!(
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

/// What a game knows from its options alone, before any state exists: implemented by each
/// game's `Config`. [`Game`] answers its static questions (players, actions, observation shape,
/// whether there are scores) from here, without building a state.
pub trait GameConfig: fmt::Debug + Send + Sync + 'static {
    /// The game id.
    const NAME: &'static str;
    /// The options the game declares (see [`options`]).
    const OPTIONS: &'static [OptionSpec];
    /// The version of the game's reading of the rules. Records carry it; it changes only when
    /// the same options and actions could play out differently (never for a refactor or a
    /// speed-up), so a record of another version is refused rather than replayed wrongly.
    const RULES_VERSION: u32;
    /// The board the game is played on.
    fn board(&self) -> &Board;
    /// Every option, resolved, defaults filled in, in the declaration's order.
    fn options(&self) -> &Options;
    /// Number of players.
    fn num_players(&self) -> usize;
    /// Size of the action space.
    fn num_actions(&self) -> usize;
    /// Number of observation planes.
    fn observation_planes(&self) -> usize;
    /// Whether states report scores.
    fn has_scores(&self) -> bool;
    /// An upper bound on the number of actions of any game.
    fn max_game_length(&self) -> usize;
    /// The action's name: short, stable, human-readable (the site's name, [`Board::site_name`],
    /// for an action that places on a site; words such as `pass`, `accept`, `swap` for the
    /// others); `None` out of range. [`GameConfig::parse_action`] is its inverse.
    fn action_name(&self, action: usize) -> Option<String>;
    /// The action named `text` (as [`GameConfig::action_name`] names it, or by its site's number
    /// as earlier versions named it; surrounding space and case ignored), or `None`.
    fn parse_action(&self, text: &str) -> Option<usize> {
        let text = text.trim().to_ascii_lowercase();
        let site = self.board().parse_site(&text);
        (0..self.num_actions()).find(|&a| match site {
            Some(s) => self.action_site(a) == Some(s),
            None => self.action_name(a).as_deref() == Some(text.as_str()),
        })
    }
    /// The site an action puts a stone on or marks, if any (for highlighting and for pictures
    /// of a policy over the board): by default the action itself when it is below the number
    /// of sites.
    fn action_site(&self, action: usize) -> Option<usize> {
        (action < self.board().num_sites()).then_some(action)
    }
    /// The board's symmetries ([`Board::symmetries`]) under which the rules play the same:
    /// a position and its image have the same value, and action `a` on a site maps to the
    /// image's action `perm[a]` (the other actions to themselves). By default the identity
    /// alone; a game whose rules depend only on the board's neighbour relations and perimeter,
    /// and whose actions are its sites (and a pass), returns the board's.
    fn symmetries(&self) -> Vec<Vec<u16>> {
        vec![(0..self.board().num_sites() as u16).collect()]
    }
}

/// The registry: the one list of games. From it come [`GAME_NAMES`], the [`Game`] and [`State`]
/// enums (in this order), [`each_state!`], and every dispatch of `Game`, `State` and `Rules for
/// State`.
///
/// # Adding a game
/// 1. Write `src/games/<game>.rs`: the rules as its module doc, `RULES_VERSION`, `OPTIONS` (the
///    option table, with `named_enum!` for named values), a `Config` with `new(&[(String,
///    OptionValue)]) -> Result<Config>` resolving them through [`options::Resolved`] and
///    implementing [`GameConfig`], and a `State` with `new(Arc<Config>)`, `config()` and
///    [`Rules`].
/// 2. Write `src/games/<game>/knowledge.rs`, declared by `mod knowledge;` at the end of the
///    rules file: `impl Footprint for State` (its `heap_bytes`, required), and `impl Peek for
///    State {}` and `impl Knowledge for State {}`, overriding their defaults where the game can
///    do better (see [`knowledge`]: peeks for the state graph, a `playout_score` for knowledge
///    playouts and the solver's move order, a `guided_playout` beside an overridden
///    `random_playout`).
/// 3. Write `src/games/<game>/measure.rs` (`mod measure;`): an `impl Measure for State` that
///    overrides [`Measure`]'s defaults where the game's state answers more cheaply (see
///    [`measure`] for which ones matter).
/// 4. Add its `pub mod` above and one line to the `games!` call below.
/// 5. Outside `src/games`: game-specific state attributes, if any, in `src/python/game.rs` and
///    `_core.pyi`; overlays in `python/stonefield/render.py` and `text.py` if it draws marks;
///    its docs page `docs/games/GAME.md` (the option table is generated: `python -m
///    stonefield._optiondocs --write docs/games/GAME.md`); its settings in the strong
///    preset of MCTS, which are chosen by game name (a new game gets the default ones); the
///    play page's rules text. The conformance suites, the test configurations and the
///    benchmarks enumerate its options from the table by themselves.
macro_rules! games {
    ($d:tt $($id:ident => $variant:ident),+ $(,)?) => {
        /// Every game id, in the order `games()` lists them.
        pub const GAME_NAMES: &[&str] = &[$(stringify!($id)),+];

        /// A configured game: its rules with every option resolved. Cheap to clone (shared
        /// config).
        #[derive(Clone, Debug)]
        pub enum Game {
            $($variant(Arc<$id::Config>)),+
        }

        /// A game state of any game. Implements [`Rules`] by dispatching to the game's own state
        /// type; hot loops that know their game use that type directly. Variants are not boxed:
        /// a one-word Windflowers position is the largest, and copying it inline is what keeps
        /// a playout's start free of allocation.
        #[allow(clippy::large_enum_variant)]
        #[derive(Clone, Debug)]
        pub enum State {
            $($variant($id::State)),+
        }

        /// Runs `$body` with `$s` bound to the inner value of any [`State`] variant. The body
        /// is compiled once per game, so generic code called from it is statically dispatched.
        #[macro_export]
        macro_rules! each_state {
            ($d state:expr, $d s:ident => $d body:expr) => {
                match $d state {
                    $($crate::games::State::$variant($d s) => $d body,)+
                }
            };
        }

        /// Runs `$body` with `$c` bound to the config (`&Arc<Config>`) of any [`Game`] variant.
        macro_rules! each_config {
            ($d game:expr, $d c:ident => $d body:expr) => {
                match $d game {
                    $(Game::$variant($d c) => $d body,)+
                }
            };
        }

        impl Game {
            /// Builds a game from its id and user options; unknown ids, options or values fail
            /// with [`Error::InvalidOption`] naming what is allowed.
            pub fn make(name: &str, options: &[(String, OptionValue)]) -> Result<Game> {
                match name {
                    $(stringify!($id) => Ok(Game::$variant(Arc::new($id::Config::new(options)?))),)+
                    _ => Err(Error::InvalidOption(format!(
                        "unknown game {name:?}; games: {}",
                        options::quoted(GAME_NAMES)
                    ))),
                }
            }

            /// The option table of the game `name`, or `None` for an unknown id.
            pub fn option_spec(name: &str) -> Option<&'static [OptionSpec]> {
                match name {
                    $(stringify!($id) => Some(<$id::Config as GameConfig>::OPTIONS),)+
                    _ => None,
                }
            }

            /// The rules version of the game `name`, or `None` for an unknown id.
            pub fn rules_version_of(name: &str) -> Option<u32> {
                match name {
                    $(stringify!($id) => Some(<$id::Config as GameConfig>::RULES_VERSION),)+
                    _ => None,
                }
            }

            /// The starting position.
            pub fn new_state(&self) -> State {
                match self {
                    $(Game::$variant(c) => State::$variant($id::State::new(c.clone())),)+
                }
            }
        }

        impl State {
            /// The game this state belongs to.
            pub fn game(&self) -> Game {
                match self {
                    $(State::$variant(s) => Game::$variant(s.config().clone()),)+
                }
            }
        }
    };
}

games! {$
    smallholder => Smallholder,
    windflowers => Windflowers,
    faraday => Faraday,
    subsume => Subsume,
}
pub use each_state;

fn config_name<C: GameConfig>(_: &C) -> &'static str {
    C::NAME
}

fn config_rules_version<C: GameConfig>(_: &C) -> u32 {
    C::RULES_VERSION
}

impl Game {
    /// The game's id.
    pub fn name(&self) -> &'static str {
        each_config!(self, c => config_name(&**c))
    }

    /// The version of the game's reading of the rules (see [`GameConfig::RULES_VERSION`]).
    pub fn rules_version(&self) -> u32 {
        each_config!(self, c => config_rules_version(&**c))
    }

    /// Every option, resolved, defaults filled in.
    pub fn options(&self) -> Options {
        each_config!(self, c => c.options().clone())
    }

    /// The board.
    pub fn board(&self) -> &Board {
        each_config!(self, c => c.board())
    }

    /// Number of players.
    pub fn num_players(&self) -> usize {
        each_config!(self, c => c.num_players())
    }

    /// Size of the action space.
    pub fn num_actions(&self) -> usize {
        each_config!(self, c => c.num_actions())
    }

    /// Number of observation planes.
    pub fn observation_planes(&self) -> usize {
        each_config!(self, c => c.observation_planes())
    }

    /// Whether the game reports scores.
    pub fn has_scores(&self) -> bool {
        each_config!(self, c => c.has_scores())
    }

    /// An upper bound on the number of actions of any game (see [`GameConfig::max_game_length`]).
    pub fn max_game_length(&self) -> usize {
        each_config!(self, c => c.max_game_length())
    }

    /// The site an action puts a stone on or marks, if any ([`GameConfig::action_site`]).
    pub fn action_site(&self, action: usize) -> Option<usize> {
        each_config!(self, c => c.action_site(action))
    }

    /// The board symmetries the rules respect ([`GameConfig::symmetries`]), identity first.
    pub fn symmetries(&self) -> Vec<Vec<u16>> {
        each_config!(self, c => c.symmetries())
    }

    /// The action's name ([`GameConfig::action_name`]); out-of-range actions fail naming the
    /// range.
    pub fn action_name(&self, action: i64) -> Result<String> {
        let n = self.num_actions();
        usize::try_from(action)
            .ok()
            .and_then(|a| each_config!(self, c => c.action_name(a)))
            .ok_or_else(|| {
                IllegalMove::OutOfRange {
                    game: self.name(),
                    action,
                    actions: n,
                }
                .into()
            })
    }

    /// The action named `text` ([`GameConfig::parse_action`]); an unknown name fails naming the
    /// forms allowed.
    pub fn parse_action(&self, text: &str) -> Result<usize> {
        each_config!(self, c => c.parse_action(text)).ok_or_else(|| {
            let n = self.num_actions();
            let mut forms: Vec<String> = (0..n)
                .filter_map(|a| {
                    let name = each_config!(self, c => c.action_name(a))?;
                    (each_config!(self, c => c.action_site(a)).is_none()).then_some(name)
                })
                .take(4)
                .collect();
            let board = self.board();
            let last = board.num_sites().saturating_sub(1);
            let [files, ranks] = board.name_extent();
            forms.insert(
                0,
                format!(
                    "a site name such as {} or {} (files a to {}, ranks 1 to {ranks}, as the \
                     board's edge shows them) or a site number 0 to {last}",
                    board.site_name(0),
                    board.site_name(last),
                    crate::board::file_letters(files.saturating_sub(1)),
                ),
            );
            IllegalMove::Unnamed {
                game: self.name(),
                text: text.to_string(),
                forms,
            }
            .into()
        })
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
    #[inline]
    fn key(&self) -> u64 {
        each_state!(self, s => s.key())
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
    fn write_observation_for(&self, viewer: usize, out: &mut [f32]) {
        each_state!(self, s => s.write_observation_for(viewer, out))
    }
    fn write_legal_mask(&self, out: &mut [bool]) {
        each_state!(self, s => s.write_legal_mask(out))
    }
}

impl Peek for State {
    fn key_turn_number(&self) -> Option<u64> {
        each_state!(self, s => s.key_turn_number())
    }
    fn peek_child(&self, action: usize) -> Option<ChildPeek> {
        each_state!(self, s => s.peek_child(action))
    }
    fn peek_each<F: FnMut(Option<ChildPeek>)>(&self, actions: &[u32], f: F) {
        each_state!(self, s => s.peek_each(actions, f))
    }
}

impl Knowledge for State {
    fn playout_score(&self, action: usize) -> u32 {
        each_state!(self, s => s.playout_score(action))
    }
    fn solver_knowledge(&self) -> bool {
        each_state!(self, s => s.solver_knowledge())
    }
    fn guided_playout<F: FnMut(usize, usize, Option<usize>) -> usize>(
        &mut self,
        rng: &mut Rng,
        buf: &mut Vec<u32>,
        pairs: bool,
        knowledge: bool,
        choose: F,
    ) -> usize {
        each_state!(self, s => s.guided_playout(rng, buf, pairs, knowledge, choose))
    }
}

impl Footprint for State {
    fn heap_bytes(&self) -> usize {
        each_state!(self, s => s.heap_bytes())
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
    fn returns_into_writes_the_ranks_and_their_returns_once_over() {
        // Every game, played out at random, and a Windflowers game cut by its move cap.
        let mut games: Vec<Game> = GAME_NAMES
            .iter()
            .map(|name| Game::make(name, &[]).unwrap())
            .collect();
        let cap = [("max_moves".to_string(), OptionValue::from(3_i64))];
        games.push(Game::make("windflowers", &cap).unwrap());
        let mut truncated = 0;
        for (k, g) in games.iter().enumerate() {
            let mut s = g.new_state();
            let n = s.num_players();
            let (mut ranks, mut out) = (vec![7.0; n], vec![7.0; n]);
            assert!(!s.returns_into(&mut ranks, &mut out));
            assert_eq!(
                (&ranks, &out),
                (&vec![7.0; n], &vec![7.0; n]),
                "nothing written"
            );
            s.random_playout(&mut Rng::new(k as u64), &mut Vec::new());
            assert!(s.returns_into(&mut ranks, &mut out));
            assert_eq!(Some(ranks.clone()), s.ranks());
            let expected = if s.truncated() {
                truncated += 1;
                vec![0.0; n]
            } else {
                returns_from_ranks(&ranks)
            };
            assert_eq!(out, expected, "{}", s.game_name());
            assert_eq!(s.returns(), Some(out));
        }
        assert!(truncated >= 1, "the capped game is truncated");
    }

    #[test]
    fn action_names_are_short_distinct_and_parse_back() {
        for name in GAME_NAMES {
            let g = Game::make(name, &[]).unwrap();
            let mut seen = std::collections::HashSet::new();
            for a in 0..g.num_actions() {
                let text = g.action_name(a as i64).unwrap();
                assert!(!text.is_empty() && text.len() <= 12, "{name}: {text:?}");
                assert!(seen.insert(text.clone()), "{name}: {text:?} twice");
                assert_eq!(g.parse_action(&text).unwrap(), a, "{name}: {text:?}");
                assert_eq!(
                    g.parse_action(&format!(" {} ", text.to_uppercase()))
                        .unwrap(),
                    a
                );
            }
            assert!(g.action_name(-1).is_err() && g.action_name(g.num_actions() as i64).is_err());
            let err = g.parse_action("nowhere").unwrap_err();
            assert!(matches!(
                err,
                Error::IllegalMove(IllegalMove::Unnamed { .. })
            ));
            assert!(err.to_string().contains("a site number"), "{err}");
            assert!(err.to_string().contains("a site name such as"), "{err}");
            // A name the board does not have fails the same way.
            assert!(g.parse_action("zz99").is_err() && g.parse_action("a0").is_err());
            assert!(g.max_game_length() >= g.board().num_sites());
        }
        let f = Game::make("faraday", &[]).unwrap();
        let n = f.board().num_sites();
        let names: Vec<String> = (2 * n..2 * n + 3)
            .map(|a| f.action_name(a as i64).unwrap())
            .collect();
        assert_eq!(names, ["pass", "accept", "swap"]);
        let c1 = f.board().site_name(2);
        assert_eq!(f.action_name(n as i64 + 2).unwrap(), format!("second {c1}"));
        // Earlier versions named sites by number: those names still read.
        assert_eq!(f.parse_action("2").unwrap(), 2);
        assert_eq!(f.parse_action(" Second 2").unwrap(), n + 2);
        assert_eq!(f.parse_action(&format!("second {c1}")).unwrap(), n + 2);
        for name in GAME_NAMES {
            let g = Game::make(name, &[]).unwrap();
            for s in 0..g.board().num_sites() {
                assert_eq!(g.parse_action(&s.to_string()).unwrap(), s, "{name}");
            }
            let n = g.board().num_sites();
            assert!(g.parse_action(&n.to_string()).is_err());
            assert!(g.parse_action("00").is_err());
        }
        assert_eq!(f.action_site(n + 2), Some(2));
        assert_eq!(f.action_site(2 * n), None);
        let w = Game::make("windflowers", &[]).unwrap();
        let sites = w.board().num_sites();
        assert_eq!(w.action_name(sites as i64).unwrap(), "pass");
        assert_eq!(w.action_site(sites), None);
    }

    #[test]
    fn unknown_game_names_the_games() {
        let err = Game::make("chess", &[]).unwrap_err();
        assert!(matches!(err, Error::InvalidOption(ref m) if m.contains("windflowers")));
    }
}
