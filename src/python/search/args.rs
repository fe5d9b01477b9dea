//! Arguments from Python: settings, states, games and agents, each checked into a typed error.

use super::*;

/// Iterations of an `MCTS()` given no budget, as of the agent string `"mcts"`
/// (`stonefield.agents.DEFAULT_ITERATIONS`).
pub(super) const DEFAULT_ITERATIONS: u64 = 1000;

pub(crate) fn bad(msg: String) -> PyErr {
    InvalidOptionError::new_err(msg)
}

/// A type name and repr for error messages.
pub(crate) fn describe(v: &Bound<'_, PyAny>) -> String {
    let ty = v
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "object".into());
    let r = v.repr().map(|r| r.to_string()).unwrap_or_default();
    format!("{ty} {r}")
}

/// A real setting (int or float, not bool), finite and ≥ `min` (> `min` when `strict`).
pub(crate) fn real_arg(name: &str, v: &Bound<'_, PyAny>, min: f64, strict: bool) -> PyResult<f64> {
    let what = if strict {
        format!("a finite number > {min}")
    } else {
        format!("a finite number ≥ {min}")
    };
    if v.is_instance_of::<PyBool>() {
        return Err(bad(format!("{name} must be {what}, got {}", describe(v))));
    }
    let x: f64 = v
        .extract()
        .map_err(|_| bad(format!("{name} must be {what}, got {}", describe(v))))?;
    if !x.is_finite() || x < min || strict && x == min {
        return Err(bad(format!("{name} must be {what}, got {x}")));
    }
    Ok(x)
}

/// A bool setting: True or False (numpy bools too), nothing else.
pub(crate) fn bool_arg(name: &str, v: &Bound<'_, PyAny>) -> PyResult<bool> {
    if !is_bool(v) {
        return Err(bad(format!(
            "{name} must be True or False, got {}",
            describe(v)
        )));
    }
    v.extract()
}

pub(crate) fn opt<'a, 'py>(v: &'a Option<Bound<'py, PyAny>>) -> Option<&'a Bound<'py, PyAny>> {
    v.as_ref().filter(|v| !v.is_none())
}

/// The state argument of `act` and `analyse`.
pub(crate) fn state_arg(state: &Bound<'_, PyAny>) -> PyResult<(crate::games::State, Vec<u32>)> {
    let s = state.cast::<PyState>().map_err(|_| {
        PyTypeError::new_err(format!(
            "agents act on a stonefield.State, got {}",
            describe(state)
        ))
    })?;
    let s = s.borrow();
    Ok((s.session.state().clone(), s.session.history().to_vec()))
}

/// A setting given by name (`selection`, `playouts`, `preset`).
pub(super) fn name_arg(what: &str, v: &Bound<'_, PyAny>) -> PyResult<String> {
    v.extract::<String>()
        .map_err(|_| bad(format!("{what} must be a string, got {}", describe(v))))
}

/// `grave_ref`: an integer ≥ 1, or infinity (never use AMAF statistics: GRAVE plays as UCT).
pub(super) fn grave_ref_arg(v: &Bound<'_, PyAny>) -> PyResult<u32> {
    if let Ok(x) = v.extract::<f64>() {
        if x == f64::INFINITY && !v.is_instance_of::<PyBool>() {
            return Ok(u32::MAX);
        }
    }
    setting_arg(v, "grave_ref", 1, u64::from(u32::MAX)).map(|n| n as u32)
}

/// The game argument: a Game, or a game id.
pub(crate) fn game_arg(game: &Bound<'_, PyAny>) -> PyResult<Game> {
    if let Ok(g) = game.cast::<PyGame>() {
        return Ok(g.get().game.clone());
    }
    if game.extract::<String>().is_ok() {
        return crate::python::game::make(game, None).map(|g| g.game);
    }
    Err(PyTypeError::new_err(format!(
        "game must be a stonefield.Game or a game id, got {}",
        describe(game)
    )))
}

/// A native agent from a Python `MCTS` or `RandomAgent`.
pub(crate) fn agent_arg(i: usize, a: &Bound<'_, PyAny>) -> PyResult<Agent> {
    if let Ok(m) = a.cast::<PyMcts>() {
        return Ok(Agent::Mcts(m.get().config.clone()));
    }
    if let Ok(r) = a.cast::<PyRandomAgent>() {
        return Ok(Agent::Random { seed: r.get().seed });
    }
    Err(PyTypeError::new_err(format!(
        "agent {i}: native games take stonefield.MCTS and stonefield.RandomAgent, got {}",
        describe(a)
    )))
}
