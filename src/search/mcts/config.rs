//! A search's settings: the selection, the playouts, the presets and [`MctsConfig`].

use super::*;

/// How a node chooses the child to descend into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    /// UCB1 over each child's mean return.
    Uct,
    /// Generalized RAVE (Cazenave 2015): each child's mean is mixed with the all-moves-as-first
    /// mean of its action, taken at the closest node on the path where the same player chooses
    /// and which has enough playouts (see the module documentation).
    Grave,
}

impl Selection {
    /// The name used by Python and agent strings.
    pub fn name(self) -> &'static str {
        match self {
            Selection::Uct => "uct",
            Selection::Grave => "grave",
        }
    }

    /// The selection named `name`.
    pub fn from_name(name: &str) -> Result<Selection> {
        match name {
            "uct" => Ok(Selection::Uct),
            "grave" => Ok(Selection::Grave),
            _ => Err(Error::InvalidOption(format!(
                "MCTS selection must be one of uct, grave; got {name:?}"
            ))),
        }
    }
}

/// How a new node is evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Playouts {
    /// Uniformly random actions, by the game's own sampler.
    Random,
    /// Move-Average Sampling (MAST, Finnsson and Björnsson 2008): every playout action is the
    /// better, by its mean return so far for the player making it, of two uniformly drawn legal
    /// actions.
    Mast,
    /// MAST with the game's knowledge first: every playout action is the better of two
    /// uniformly drawn legal actions by the game's [`Knowledge::playout_score`], and by MAST's
    /// means when the scores tie. In a game without knowledge (every score alike) it plays as
    /// MAST.
    Knowledge,
}

impl Playouts {
    /// The name used by Python and agent strings.
    pub fn name(self) -> &'static str {
        match self {
            Playouts::Random => "random",
            Playouts::Mast => "mast",
            Playouts::Knowledge => "knowledge",
        }
    }

    /// The playout policy named `name`.
    pub fn from_name(name: &str) -> Result<Playouts> {
        match name {
            "random" => Ok(Playouts::Random),
            "mast" => Ok(Playouts::Mast),
            "knowledge" => Ok(Playouts::Knowledge),
            _ => Err(Error::InvalidOption(format!(
                "MCTS playouts must be one of random, mast, knowledge; got {name:?}"
            ))),
        }
    }

    /// Whether the playouts keep and use MAST's table.
    pub fn uses_mast(self) -> bool {
        matches!(self, Playouts::Mast | Playouts::Knowledge)
    }

    /// Whether the playouts use the game's [`Knowledge::playout_score`].
    pub fn uses_knowledge(self) -> bool {
        self == Playouts::Knowledge
    }
}

/// A named configuration, resolved per game when a search starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    /// The strongest settings measured for the game at equal time per move (the strength
    /// ladder and the duels in `docs/search.md`, "Stronger search", chose them).
    Strong,
}

impl Preset {
    /// The names of the presets.
    pub const NAMES: &'static [&'static str] = &["strong"];

    /// The name used by Python and agent strings.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Strong => "strong",
        }
    }

    /// The preset named `name`.
    pub fn from_name(name: &str) -> Result<Preset> {
        match name {
            "strong" => Ok(Preset::Strong),
            _ => Err(Error::InvalidOption(format!(
                "MCTS preset must be one of {}; got {name:?}",
                Preset::NAMES.join(", ")
            ))),
        }
    }

    /// The settings the preset gives `cfg` for the game named `game`: selection, c, grave_ref,
    /// grave_bias and playouts; the budget, threads, seed and the rest stay as they are.
    pub fn apply(self, game: &str, cfg: &MctsConfig) -> MctsConfig {
        // From the equal-time duels of `docs/search.md` (0.1 s a move): GRAVE everywhere;
        // MAST playouts where they won on top of it, with the game's playout knowledge where
        // that won on top of MAST (Windflowers, Subsume); a little UCB exploration where it won
        // (Faraday).
        let (c, grave_ref, playouts) = match (self, game) {
            (Preset::Strong, "faraday") => (0.3, DEFAULT_GRAVE_REF, Playouts::Random),
            (Preset::Strong, "windflowers") => (0.0, DEFAULT_GRAVE_REF, Playouts::Knowledge),
            (Preset::Strong, "subsume") => (0.0, DEFAULT_GRAVE_REF, Playouts::Knowledge),
            (Preset::Strong, _) => (0.0, DEFAULT_GRAVE_REF, Playouts::Random),
        };
        MctsConfig {
            selection: Selection::Grave,
            c,
            grave_ref,
            grave_bias: DEFAULT_GRAVE_BIAS,
            playouts,
            preset: None,
            ..cfg.clone()
        }
    }
}

/// The default `grave_ref`: a node needs this many playouts before its AMAF statistics are used.
pub const DEFAULT_GRAVE_REF: u32 = 50;

/// The exploration constant GRAVE gets when none is given: 0, as in Ludii's MC-GRAVE (the AMAF
/// statistics of untried children do the exploring).
pub const DEFAULT_GRAVE_C: f64 = 0.0;

/// The default `grave_bias` of the β schedule.
pub const DEFAULT_GRAVE_BIAS: f64 = 1e-6;

/// The settings of a search. Check them with [`MctsConfig::validate`].
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// Iterations in all (split over the threads); `None` for no limit.
    pub iterations: Option<u64>,
    /// Seconds of wall time; `None` for no limit. The first budget reached stops the search.
    pub time: Option<f64>,
    /// The UCB1 exploration constant.
    pub c: f64,
    /// Threads for root parallelism (1 to [`MAX_THREADS`]).
    pub threads: usize,
    /// MCTS-Solver; `None` turns it on for two-player games. It is never used with more players.
    pub solver: Option<bool>,
    /// The seed: with an iteration budget alone a search is a pure function of the state, the
    /// settings and the seed.
    pub seed: u64,
    /// Largest number of tree nodes, summed over threads; each thread's tree gets an equal share.
    pub max_nodes: usize,
    /// Keep the tree between consecutive searches of one game (see [`Mcts`]).
    pub reuse: bool,
    /// How children are chosen.
    pub selection: Selection,
    /// GRAVE: the fewest playouts through a node for its AMAF statistics to be used by the
    /// nodes below it; `u32::MAX` never uses them (GRAVE then plays as UCT).
    pub grave_ref: u32,
    /// GRAVE: the bias b of the β schedule β = m / (m + n + b·m·n), with n the child's
    /// playouts and m its AMAF playouts.
    pub grave_bias: f64,
    /// How new nodes are evaluated.
    pub playouts: Playouts,
    /// A named configuration: when set, it decides `selection`, `c`, `grave_ref`, `grave_bias`
    /// and `playouts` for each game searched (see [`Preset::apply`]), whatever they say here.
    pub preset: Option<Preset>,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            iterations: Some(1000),
            time: None,
            c: DEFAULT_C,
            threads: 1,
            solver: None,
            seed: 0,
            max_nodes: DEFAULT_MAX_NODES,
            reuse: false,
            selection: Selection::Uct,
            grave_ref: DEFAULT_GRAVE_REF,
            grave_bias: DEFAULT_GRAVE_BIAS,
            playouts: Playouts::Random,
            preset: None,
        }
    }
}

impl MctsConfig {
    /// An iteration budget with every other setting at its default.
    pub fn with_iterations(iterations: u64) -> MctsConfig {
        MctsConfig {
            iterations: Some(iterations),
            ..MctsConfig::default()
        }
    }

    /// Fails with [`Error::InvalidOption`], naming what is allowed, on settings that make no
    /// sense.
    pub fn validate(&self) -> Result<()> {
        let bad = |m: String| Err(Error::InvalidOption(m));
        if self.iterations.is_none() && self.time.is_none() {
            return bad("MCTS needs a budget: iterations (≥ 1), time (seconds > 0) or both".into());
        }
        if self.iterations == Some(0) {
            return bad("MCTS iterations must be at least 1 (or None with a time budget)".into());
        }
        if let Some(t) = self.time {
            if !(t.is_finite() && t > 0.0) {
                return bad(format!(
                    "MCTS time must be a finite number of seconds > 0 (or None), got {t}"
                ));
            }
        }
        if !(self.c.is_finite() && self.c >= 0.0) {
            return bad(format!(
                "MCTS c must be a finite number ≥ 0, got {}",
                self.c
            ));
        }
        if self.threads == 0 || self.threads > MAX_THREADS {
            return bad(format!(
                "MCTS threads must be 1 to {MAX_THREADS}, got {}",
                self.threads
            ));
        }
        if self.grave_ref == 0 {
            return bad("MCTS grave_ref must be at least 1 playout (or infinite)".into());
        }
        if !(self.grave_bias.is_finite() && self.grave_bias >= 0.0) {
            return bad(format!(
                "MCTS grave_bias must be a finite number ≥ 0, got {}",
                self.grave_bias
            ));
        }
        if self.max_nodes > u32::MAX as usize {
            return bad(format!(
                "MCTS max_nodes must be at most {} (nodes are numbered by 32 bits), got {}",
                u32::MAX,
                self.max_nodes
            ));
        }
        if self.max_nodes / self.threads < MIN_NODES_PER_THREAD {
            return bad(format!(
                "MCTS max_nodes must be at least {MIN_NODES_PER_THREAD} per thread ({} for {} \
                 thread(s)), got {}",
                MIN_NODES_PER_THREAD * self.threads,
                self.threads,
                self.max_nodes
            ));
        }
        Ok(())
    }

    /// The settings a search of the game named `game` runs with: the preset's, if one is set.
    pub fn resolved(&self, game: &str) -> MctsConfig {
        match self.preset {
            Some(p) => p.apply(game, self),
            None => self.clone(),
        }
    }

    pub(super) fn solver_for(&self, players: usize) -> bool {
        players == 2 && self.solver.unwrap_or(true)
    }
}
