//! `Game` and `State` for Python.

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use super::{
    int_arg, option_to_py, options_from_py, options_to_py, seed_arg, text_arg, to_py,
    IllegalMoveError, RecordError,
};
use crate::board::Relation;
use crate::games::{Game, OptionKind, OptionValue, Rules, Session, State, GAME_NAMES};
use crate::rng::Rng;

/// The ids of every game.
#[pyfunction]
pub fn games() -> Vec<&'static str> {
    GAME_NAMES.to_vec()
}

/// The option table of a game: one dict per option, in declaration order, with the keys
/// `name`, `kind` ("choice", "int" or "bool"), `default` (None for a default that depends on
/// the board), `help`, `values` (for choices: dicts with `name`, `help` and `sets`, the options a
/// ruleset sets; else None), and `min` and `max` (for integers; else None).
#[pyfunction]
pub fn option_spec<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyList>> {
    let spec = Game::option_spec(name).ok_or_else(|| {
        super::InvalidOptionError::new_err(format!(
            "unknown game {name:?}; games: {}",
            crate::games::options::quoted(GAME_NAMES)
        ))
    })?;
    let out = PyList::empty(py);
    for o in spec {
        let d = PyDict::new(py);
        d.set_item("name", o.name)?;
        d.set_item("help", o.help)?;
        let (kind, min, max, values) = match o.kind {
            OptionKind::Choice { values, .. } => {
                let list = PyList::empty(py);
                for c in values {
                    let v = PyDict::new(py);
                    v.set_item("name", c.name)?;
                    v.set_item("help", c.help)?;
                    let sets = PyDict::new(py);
                    for &(k, val) in c.sets {
                        sets.set_item(k, val)?;
                    }
                    v.set_item("sets", sets)?;
                    list.append(v)?;
                }
                ("choice", None, None, Some(list))
            }
            OptionKind::Int { min, max, .. } => ("int", Some(min), Some(max), None),
            OptionKind::Bool { .. } => ("bool", None, None, None),
        };
        d.set_item("kind", kind)?;
        match o.default_value() {
            Some(v) => d.set_item("default", option_to_py(py, &v)?)?,
            None => d.set_item("default", py.None())?,
        }
        d.set_item("values", values)?;
        d.set_item("min", min)?;
        d.set_item("max", max)?;
        out.append(d)?;
    }
    Ok(out)
}

/// Reads one command-line option, `key=value`: `-` in the key read as `_`; the value `true` or
/// `false` in any case, else an integer, else a string. Returns `(key, value)`.
#[pyfunction]
pub fn parse_option<'py>(py: Python<'py>, item: &str) -> PyResult<(String, Bound<'py, PyAny>)> {
    let (key, value) = OptionValue::parse_item(item).map_err(to_py)?;
    Ok((key, option_to_py(py, &value)?))
}

/// Builds a game from its id and options given as keyword arguments.
#[pyfunction]
#[pyo3(signature = (name, /, **options))]
pub fn make(name: &Bound<'_, PyAny>, options: Option<&Bound<'_, PyDict>>) -> PyResult<PyGame> {
    let name = text_arg(name, "game ids")?;
    let opts = options_from_py(options)?;
    Game::make(&name, &opts)
        .map(|game| PyGame { game })
        .map_err(to_py)
}

/// A configured game: rules with every option resolved, and its board.
#[pyclass(name = "Game", module = "stonefield", frozen, skip_from_py_object)]
#[derive(Clone)]
pub struct PyGame {
    pub(crate) game: Game,
}

#[pymethods]
impl PyGame {
    /// The game id.
    #[getter]
    fn name(&self) -> &'static str {
        self.game.name()
    }

    /// Every option, resolved, with defaults filled in.
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        options_to_py(py, &self.game.options())
    }

    #[getter]
    fn num_players(&self) -> usize {
        self.game.num_players()
    }

    /// The version of the game's reading of the rules; records carry it.
    #[getter]
    fn rules_version(&self) -> u32 {
        self.game.rules_version()
    }

    /// What the board's sites are: "hex cells", "lattice points", "square points" or
    /// "triangle-square points".
    #[getter]
    fn board_kind(&self) -> &'static str {
        self.game.board().shape().kind().name()
    }

    #[getter]
    fn num_sites(&self) -> usize {
        self.game.board().num_sites()
    }

    #[getter]
    fn num_actions(&self) -> usize {
        self.game.num_actions()
    }

    /// An upper bound on the number of actions of any game.
    #[getter]
    fn max_game_length(&self) -> usize {
        self.game.max_game_length()
    }

    /// The action's name: its site's name (`c4`, see `site_names`), or words (`pass`, `accept`,
    /// `swap`, `second c4`).
    fn action_name(&self, action: i64) -> PyResult<String> {
        self.game.action_name(action).map_err(to_py)
    }

    /// The action named `text` (the inverse of `action_name`); a site's number (`12`,
    /// `second 12`) is read where its name goes, as earlier versions named sites.
    /// A string with a lone surrogate (no move's name) is an `IllegalMoveError`, as is any
    /// other text that names no action.
    fn parse_action(&self, text: &Bound<'_, PyString>) -> PyResult<usize> {
        // `to_cow`, not `to_str`: the stable ABI of the wheels (3.9) has no borrowed UTF-8 view.
        let Ok(text) = text.to_cow() else {
            return Err(IllegalMoveError::new_err(format!(
                "{} names no move (it holds a lone surrogate)",
                text.repr()
                    .map(|r| r.to_string())
                    .unwrap_or_else(|_| "the text".into())
            )));
        };
        self.game.parse_action(&text).map_err(to_py)
    }

    /// The site an action puts a stone on or marks, or None.
    fn action_site(&self, action: i64) -> Option<usize> {
        usize::try_from(action)
            .ok()
            .and_then(|a| self.game.action_site(a))
    }

    /// Site coordinates, float64 of shape (num_sites, 2).
    #[getter]
    fn coords<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let flat: Vec<f64> = self
            .game
            .board()
            .coords()
            .iter()
            .flatten()
            .copied()
            .collect();
        let n = self.game.board().num_sites();
        PyArray1::from_vec(py, flat).reshape([n, 2])
    }

    /// The neighbours of every site under a relation ("orthogonal", "diagonal" or "all"): a list
    /// with one int64 array of site ids per site.
    #[pyo3(signature = (relation = "orthogonal"))]
    fn neighbors<'py>(
        &self,
        py: Python<'py>,
        relation: &str,
    ) -> PyResult<Vec<Bound<'py, PyArray1<i64>>>> {
        let rel = Relation::parse(relation).ok_or_else(|| {
            super::InvalidOptionError::new_err(format!(
                "unknown relation {relation:?}; relations: \"orthogonal\", \"diagonal\", \"all\""
            ))
        })?;
        let b = self.game.board();
        Ok((0..b.num_sites())
            .map(|s| {
                let v: Vec<i64> = b.neighbors(rel, s).iter().map(|&t| i64::from(t)).collect();
                PyArray1::from_vec(py, v)
            })
            .collect())
    }

    /// The board's symmetries: the rotations and reflections of the site coordinates that map
    /// sites onto sites and keep the neighbour relations and the perimeter, as int64 site
    /// permutations of shape (count, num_sites) (site `s` goes to `perm[s]`), identity first.
    #[getter]
    fn board_symmetries<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i64>>> {
        perms_array(
            py,
            &self.game.board().symmetries(),
            self.game.board().num_sites(),
        )
    }

    /// The board symmetries under which the rules play the same (a position and its image have
    /// the same value; a site action `a` maps to `perm[a]`, other actions to themselves), as
    /// `board_symmetries`: all of them for Windflowers, the Smallholder and Subsume, the identity
    /// alone for Faraday (whose actions are not all sites). `sf.solve` uses them.
    #[getter]
    fn symmetries<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i64>>> {
        perms_array(py, &self.game.symmetries(), self.game.board().num_sites())
    }

    /// Sites on the board's outer edge, ascending (int64).
    #[getter]
    fn perimeter<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let v: Vec<i64> = self
            .game
            .board()
            .perimeter()
            .iter()
            .map(|&t| i64::from(t))
            .collect();
        PyArray1::from_vec(py, v)
    }

    /// Every site's name, a file letter and a rank number (`a1`, `c4`), by site number: on
    /// hexagonal boards the rank is the row from the bottom and the file the line that slants
    /// up to the left; square points are named as a chessboard; triangle-square points as a
    /// chessboard turned by 45° (file a along the lower left edge, rank 1 the lower right).
    #[getter]
    fn site_names(&self) -> Vec<String> {
        let b = self.game.board();
        (0..b.num_sites()).map(|s| b.site_name(s)).collect()
    }

    /// Where pictures write the file letters and rank numbers beside the board: a list of
    /// `(text, x, y)` in the board's coordinates (`coords`), files first.
    #[getter]
    fn coordinate_labels(&self) -> Vec<(String, f64, f64)> {
        self.game
            .board()
            .coordinate_labels()
            .into_iter()
            .map(|(t, p)| (t, p[0], p[1]))
            .collect()
    }

    /// A short description of the board.
    #[getter]
    fn board_shape(&self) -> String {
        self.game.board().shape().to_string()
    }

    /// Shape of a state's observation tensor: (planes, num_sites).
    #[getter]
    fn observation_shape(&self) -> (usize, usize) {
        (
            self.game.observation_planes(),
            self.game.board().num_sites(),
        )
    }

    /// The starting position.
    fn new_state(&self) -> PyState {
        PyState {
            session: Session::new(&self.game),
        }
    }

    fn __repr__(&self) -> String {
        let opts: Vec<String> = self
            .game
            .options()
            .iter()
            .map(|(k, v)| format!("{k}={}", py_literal(v)))
            .collect();
        format!(
            "stonefield.make({:?}, {})",
            self.game.name(),
            opts.join(", ")
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyGame>()
            .map(|o| {
                let o = o.get();
                o.game.name() == self.game.name() && o.game.options() == self.game.options()
            })
            .unwrap_or(false)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.game.name().hash(&mut h);
        self.game.options().hash(&mut h);
        h.finish()
    }

    /// Pickles as `make(name, **options)`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let module = py.import("stonefield._core")?;
        let rebuild = module.getattr("Game")?.getattr("_from_options")?;
        let args = (self.game.name(), options_to_py(py, &self.game.options())?);
        PyTuple::new(py, [rebuild.into_any(), args.into_pyobject(py)?.into_any()])
    }

    /// The game `make(name, **options)` (how pickles load). Anything wrong, as in a damaged
    /// pickle, is a RecordError.
    #[staticmethod]
    fn _from_options(name: &Bound<'_, PyAny>, options: &Bound<'_, PyAny>) -> PyResult<PyGame> {
        let py = name.py();
        let options = options.cast::<PyDict>().map_err(|_| {
            RecordError::new_err("serialized game: the options are not a dict".to_string())
        })?;
        make(name, Some(options)).map_err(|e| {
            if e.is_instance_of::<super::StonefieldError>(py) {
                RecordError::new_err(format!("serialized game: {}", e.value(py)))
            } else {
                e
            }
        })
    }
}

fn py_literal(v: &crate::games::OptionValue) -> String {
    use crate::games::OptionValue;
    match v {
        OptionValue::Int(i) => i.to_string(),
        OptionValue::Bool(true) => "True".into(),
        OptionValue::Bool(false) => "False".into(),
        OptionValue::Str(s) => format!("{s:?}"),
    }
}

/// A game in progress: the position, the history of actions, and undo. Its pictures, text and
/// records (`__str__`, `_repr_svg_`, `to_svg`, `to_record`, `from_record`) are written in Python
/// and put on the class by the package (`stonefield._methods`); the bindings never import the
/// package.
///
/// A state shared between threads needs a lock around its use: calls that overlap raise
/// RuntimeError ("Already borrowed") and leave it as it was.
#[pyclass(name = "State", module = "stonefield", skip_from_py_object)]
#[derive(Clone)]
pub struct PyState {
    pub(crate) session: Session,
}

impl PyState {
    fn state(&self) -> &State {
        self.session.state()
    }

    fn smallholder(&self, what: &str) -> PyResult<&crate::games::smallholder::State> {
        match self.state() {
            State::Smallholder(s) => Ok(s),
            other => Err(not_for(what, "smallholder", other)),
        }
    }

    fn subsume(&self, what: &str) -> PyResult<&crate::games::subsume::State> {
        match self.state() {
            State::Subsume(s) => Ok(s),
            other => Err(not_for(what, "subsume", other)),
        }
    }

    fn faraday(&self, what: &str) -> PyResult<&crate::games::faraday::State> {
        match self.state() {
            State::Faraday(s) => Ok(s),
            other => Err(not_for(what, "faraday", other)),
        }
    }
}

/// The error for a game-specific attribute asked of another game's state. An AttributeError,
/// so that `hasattr(state, name)` tells which games have it.
fn not_for(what: &str, game: &str, state: &State) -> PyErr {
    pyo3::exceptions::PyAttributeError::new_err(format!(
        "{what} is a {game} attribute; this state is {}",
        state.game_name()
    ))
}

/// A player argument checked against the game's player count.
fn player_arg(state: &State, player: &Bound<'_, PyAny>) -> PyResult<usize> {
    let n = state.num_players();
    match int_arg(player, "player")? {
        Some(p) if p >= 0 && (p as u64) < n as u64 => Ok(p as usize),
        _ => Err(super::StonefieldError::new_err(format!(
            "player {} out of range; players are 0..{n}",
            player.repr()?
        ))),
    }
}

fn bools<'py>(py: Python<'py>, v: Vec<bool>) -> Bound<'py, PyArray1<bool>> {
    PyArray1::from_vec(py, v)
}

/// Reads an action: any Python integer (numpy integers included), never a boolean or a float
/// (TypeError). Integers beyond 64 bits are out of range like any other (IllegalMoveError); an
/// exception raised by an object's `__index__` propagates unchanged.
fn action_arg(action: &Bound<'_, PyAny>, n: usize) -> PyResult<i64> {
    match int_arg(action, "an action")? {
        Some(a) => Ok(a),
        None => Err(IllegalMoveError::new_err(format!(
            "action {} is out of range; actions are 0 to {}",
            action.repr()?,
            n.saturating_sub(1)
        ))),
    }
}

#[pymethods]
impl PyState {
    /// The game this state belongs to.
    #[getter]
    fn game(&self) -> PyGame {
        PyGame {
            game: self.state().game(),
        }
    }

    /// The player to move, or None once the game is over.
    #[getter]
    fn current_player(&self) -> Option<usize> {
        self.state().current_player()
    }

    /// The legal actions, ascending (int64).
    fn legal_actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let v: Vec<i64> = self
            .state()
            .legal_actions()
            .into_iter()
            .map(i64::from)
            .collect();
        PyArray1::from_vec(py, v)
    }

    /// Boolean mask of the legal actions, shape (num_actions,).
    fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let s = self.state();
        let mut mask = vec![false; s.num_actions()];
        for a in s.legal_actions() {
            mask[a as usize] = true;
        }
        PyArray1::from_vec(py, mask)
    }

    /// Whether an action is legal now (False for integers out of range, and once the game is
    /// over). Raises TypeError for anything that is not an integer, as `apply` does.
    fn is_legal(&self, action: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(int_arg(action, "an action")?
            .and_then(|a| usize::try_from(a).ok())
            .is_some_and(|a| self.state().is_legal(a)))
    }

    /// Applies an action. Raises IllegalMoveError (out of range or illegal) or GameOverError
    /// (the game is over); the state is unchanged after an error.
    fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let s = self.session.state();
        let a = match action_arg(action, s.num_actions()) {
            Err(e) if s.is_terminal() && e.is_instance_of::<IllegalMoveError>(action.py()) => {
                return Err(super::GameOverError::new_err(format!(
                    "{}: the game is over; no action is legal (got {})",
                    s.game_name(),
                    action.repr()?
                )));
            }
            a => a?,
        };
        self.session.apply(a).map_err(to_py)
    }

    /// Takes back the last action and returns it. Raises IndexError at the start of the game.
    fn undo(&mut self) -> PyResult<u32> {
        self.session
            .undo()
            .ok_or_else(|| PyIndexError::new_err("undo: no action to take back"))
    }

    /// An independent copy (history included).
    fn copy(&self) -> PyState {
        self.clone()
    }

    fn __copy__(&self) -> PyState {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyState {
        self.clone()
    }

    /// The board: int8 per site, 0 empty, k a stone of player k − 1.
    #[getter]
    fn board<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        PyArray1::from_slice(py, self.state().cells())
    }

    /// The actions applied so far.
    #[getter]
    fn history(&self) -> Vec<u32> {
        self.session.history().to_vec()
    }

    /// Number of actions applied so far.
    #[getter]
    fn move_count(&self) -> usize {
        self.state().move_count()
    }

    fn is_terminal(&self) -> bool {
        self.state().is_terminal()
    }

    /// The position key: a 64-bit Zobrist hash (int in 0..2**64) of everything that decides
    /// the legal moves and the outcome from here (board, player to move, and each game's own
    /// state: Windflowers' passes, Faraday's phase, offer and owed surplus placement). The move
    /// count is not part of it, so the same position reached by different paths has the same
    /// key; two positions with the same board have equal keys exactly when they are equal.
    /// Keys are stable across versions (pinned by golden values).
    ///
    /// >>> import stonefield as sf
    /// >>> game = sf.make("windflowers", size=3)
    /// >>> a, b = game.new_state(), game.new_state()
    /// >>> for x in (0, 14, 5):
    /// ...     a.apply(x)
    /// >>> for x in (14, 0, 5):
    /// ...     b.apply(x)
    /// >>> a.key() == b.key(), a.history == b.history
    /// (False, False)
    /// >>> c = game.new_state()
    /// >>> for x in (5, 14, 0):
    /// ...     c.apply(x)
    /// >>> a.key() == c.key()
    /// True
    fn key(&self) -> u64 {
        self.state().key()
    }

    /// Whether the move cap ended the game (a draw among all players).
    #[getter]
    fn truncated(&self) -> bool {
        self.state().truncated()
    }

    /// Utilities in [−1, 1] per player (float64), or None while the game runs.
    fn returns<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        self.state().returns().map(|v| PyArray1::from_vec(py, v))
    }

    /// Ranks per player (1 = best, ties share the average; float64), or None while the game runs.
    fn ranks<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        self.state().ranks().map(|v| PyArray1::from_vec(py, v))
    }

    /// Scores per player (float64) for games that have scores, at any time; None otherwise.
    fn scores<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        self.state().scores().map(|v| PyArray1::from_vec(py, v))
    }

    /// The observation tensor, float32 (planes, num_sites), from the point of view of `player`
    /// (by default the player to move, or player 0 once the game is over): plane k holds the
    /// stones of the k-th player from the viewer in turn order (plane 0 = own), then the empty
    /// sites, then the game's own planes (see docs/batches.md).
    #[pyo3(signature = (player = None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        player: Option<i64>,
    ) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let s = self.state();
        let n_players = s.num_players();
        let viewer = match player {
            None => s.current_player().unwrap_or(0),
            Some(p) => usize::try_from(p)
                .ok()
                .filter(|&p| p < n_players)
                .ok_or_else(|| {
                    super::StonefieldError::new_err(format!(
                        "player {p} out of range; players are 0..{n_players}"
                    ))
                })?,
        };
        let (planes, n) = (s.observation_planes(), s.board().num_sites());
        let mut v = vec![0f32; planes * n];
        s.write_observation_for(viewer, &mut v);
        PyArray1::from_vec(py, v).reshape([planes, n])
    }

    /// A uniformly random legal action (None once the game is over), from a generator seeded by
    /// `seed` and the number of actions played, so the same seed replays the same game.
    #[pyo3(signature = (seed = None), text_signature = "($self, seed=0)")]
    fn random_action(&self, seed: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
        let seed = seed.map(seed_arg).transpose()?.unwrap_or(0);
        let mut rng = Rng::stream(seed, self.state().move_count() as u64);
        Ok(self.state().random_action(&mut rng, &mut Vec::new()))
    }

    fn __repr__(&self) -> String {
        let s = self.state();
        let status = match s.current_player() {
            Some(p) => format!("player {p} to move"),
            None if s.truncated() => "truncated".to_string(),
            None => "over".to_string(),
        };
        format!(
            "<stonefield.State {} after {} actions, {status}>",
            s.game_name(),
            s.move_count()
        )
    }

    // ---- The Smallholder ----

    /// Smallholder: `player`'s territory T(player), one bool per site (every site held by one
    /// of its groups, whatever stands there).
    fn territory<'py>(
        &self,
        py: Python<'py>,
        player: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let s = self.smallholder("territory")?;
        let p = player_arg(self.state(), player)?;
        Ok(bools(py, s.territory(p)))
    }

    /// Smallholder: `player`'s stones that belong to blocked groups (no empty neighbour where
    /// that player may play); interfaces mark them with a grey dot.
    fn blocked_stones<'py>(
        &self,
        py: Python<'py>,
        player: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let s = self.smallholder("blocked_stones")?;
        let p = player_arg(self.state(), player)?;
        Ok(bools(py, s.blocked_stones(p)))
    }

    /// Smallholder: the empty sites `player` may play on by the territory rule alone (before the
    /// group and adjacency rules narrow them).
    fn playable_sites<'py>(
        &self,
        py: Python<'py>,
        player: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let s = self.smallholder("playable_sites")?;
        let p = player_arg(self.state(), player)?;
        Ok(bools(py, s.playable_sites(p)))
    }

    /// Smallholder: `player`'s groups, each a list of its sites ascending.
    fn groups(&self, player: &Bound<'_, PyAny>) -> PyResult<Vec<Vec<u16>>> {
        let s = self.smallholder("groups")?;
        let p = player_arg(self.state(), player)?;
        Ok(s.groups(p))
    }

    // ---- Subsume ----

    /// Subsume: the empty cells surrounded by a loop, which neither player may play (bool per
    /// cell).
    fn surrounded<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        Ok(bools(py, self.subsume("surrounded")?.surrounded()))
    }

    /// Subsume: the stones kept inside a settled loop, on the board but out of play (bool per
    /// cell; only with `remove_surrounded=False`, all false otherwise).
    fn enclosed_stones<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        Ok(bools(
            py,
            self.subsume("enclosed_stones")?.enclosed_stones(),
        ))
    }

    /// The game's own marks for pictures of the position, as a dict holding whichever of these
    /// the game has: `territory` (one bool array per player: the Smallholder's territories),
    /// `blocked` (bool array: stones of blocked groups), `surrounded` (bool array: Subsume's
    /// closed cells), `enclosed` (bool array: Subsume's stones kept out of play), `phase`
    /// (Faraday's phase name) and `charges` (Faraday: one uint8 array per player, that player's
    /// stones among each site's placement neighbours). Empty for games without marks.
    fn marks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        match self.state() {
            State::Smallholder(s) => {
                let players = s.num_players();
                let territory: Vec<_> = (0..players).map(|p| bools(py, s.territory(p))).collect();
                let mut blocked = vec![false; s.cells().len()];
                for p in 0..players {
                    for (b, x) in blocked.iter_mut().zip(s.blocked_stones(p)) {
                        *b |= x;
                    }
                }
                d.set_item("territory", territory)?;
                d.set_item("blocked", bools(py, blocked))?;
            }
            State::Subsume(s) => {
                d.set_item("surrounded", bools(py, s.surrounded()))?;
                d.set_item("enclosed", bools(py, s.enclosed_stones()))?;
            }
            State::Faraday(s) => {
                d.set_item("phase", s.phase().name())?;
                let charges: Vec<_> = (0..s.num_players())
                    .map(|p| PyArray1::from_vec(py, s.charge_counts(p)))
                    .collect();
                d.set_item("charges", charges)?;
            }
            State::Windflowers(_) => {}
        }
        Ok(d)
    }

    /// Subsume: the player whose one-colour loop holds more than half the perimeter, once the
    /// game is won; None while it runs or after a draw.
    #[getter]
    fn winner(&self) -> PyResult<Option<usize>> {
        Ok(self.subsume("winner")?.winner())
    }

    // ---- Faraday ----

    /// Faraday: "offer" (player 0's three pie actions), "choice" (player 1 accepts or swaps)
    /// or "placement" (phase 2, also once the game is over).
    #[getter]
    fn phase(&self) -> PyResult<&'static str> {
        Ok(self.faraday("phase")?.phase().name())
    }

    /// Faraday: offer actions player 0 still has to take (3, 2, 1, then 0).
    #[getter]
    fn pie_actions_left(&self) -> PyResult<usize> {
        Ok(self.faraday("pie_actions_left")?.pie_actions_left())
    }

    /// Faraday: per site, `player`'s stones among its placement neighbours (uint8).
    fn charge_counts<'py>(
        &self,
        py: Python<'py>,
        player: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<u8>>> {
        let s = self.faraday("charge_counts")?;
        let p = player_arg(self.state(), player)?;
        Ok(PyArray1::from_vec(py, s.charge_counts(p)))
    }

    /// Faraday: whether a surplus-charge placement is owed now.
    #[getter]
    fn forced_surplus(&self) -> PyResult<bool> {
        Ok(self.faraday("forced_surplus")?.forced_surplus())
    }

    /// Faraday: the player who placed last (pie stones count as player 0's), or None.
    #[getter]
    fn last_placer(&self) -> PyResult<Option<usize>> {
        Ok(self.faraday("last_placer")?.last_placer())
    }

    /// Faraday: the empty sites where the placement rule lets `player` place, as a bool mask.
    fn placeable<'py>(
        &self,
        py: Python<'py>,
        player: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let s = self.faraday("placeable")?;
        let p = player_arg(self.state(), player)?;
        let mut v = vec![false; s.cells().len()];
        for site in s.placeable_sites(p) {
            v[site] = true;
        }
        Ok(bools(py, v))
    }

    /// Pickles as the game plus its history, replayed on load.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let module = py.import("stonefield._core")?;
        let rebuild = module.getattr("State")?.getattr("_from_history")?;
        let args = (self.game(), self.history());
        PyTuple::new(py, [rebuild.into_any(), args.into_pyobject(py)?.into_any()])
    }

    /// The state reached by playing `history` from the start of `game` (how pickles load).
    /// Anything wrong with the arguments, as in a damaged pickle, is a RecordError.
    #[staticmethod]
    fn _from_history(game: &Bound<'_, PyAny>, history: &Bound<'_, PyAny>) -> PyResult<PyState> {
        let bad = |what: String| RecordError::new_err(format!("serialized state: {what}"));
        let game = game.cast::<PyGame>().map_err(|_| {
            bad(format!(
                "expected a stonefield.Game, got {}",
                game.get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            ))
        })?;
        let actions = history
            .try_iter()
            .map_err(|_| bad("the history is not a sequence of actions".into()))?;
        let mut session = Session::new(&game.get().game);
        for (index, item) in actions.enumerate() {
            let item = item?;
            let a = match int_arg(&item, "an action") {
                Ok(Some(a)) => a,
                Ok(None) => i64::MAX,
                Err(e) => return Err(bad(format!("action at index {index}: {e}"))),
            };
            session
                .apply(a)
                .map_err(|e| bad(format!("action {a} (index {index}): {e}")))?;
        }
        Ok(PyState { session })
    }

    /// Bytes held by the state: the position, the history and the checkpoints undo replays
    /// from (see `sys.getsizeof`).
    fn __sizeof__(&self) -> usize {
        std::mem::size_of::<Self>() + self.session.heap_bytes()
    }
}

/// Site permutations as an int64 array of shape (count, sites).
fn perms_array<'py>(
    py: Python<'py>,
    perms: &[Vec<u16>],
    sites: usize,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let flat: Vec<i64> = perms.iter().flatten().map(|&t| i64::from(t)).collect();
    PyArray1::from_vec(py, flat).reshape([perms.len(), sites])
}
