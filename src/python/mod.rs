//! The Python extension module `stonefield._core`. This is the only place that names pyo3 or
//! numpy; it converts arguments, maps core errors to exceptions, and releases the GIL for long
//! work. The public Python API is re-exported by `python/stonefield/__init__.py`.

mod game;
mod search;
mod sim;

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyString};

use crate::error::Error;
use crate::games::OptionValue;

create_exception!(
    stonefield,
    StonefieldError,
    PyValueError,
    "Base class of every stonefield error (a ValueError)."
);
create_exception!(
    stonefield,
    IllegalMoveError,
    StonefieldError,
    "An action that is out of range or not legal in the current state."
);
create_exception!(
    stonefield,
    InvalidOptionError,
    StonefieldError,
    "An unknown game, option or option value."
);
create_exception!(
    stonefield,
    GameOverError,
    StonefieldError,
    "An action given to a finished game."
);
create_exception!(
    stonefield,
    RecordError,
    StonefieldError,
    "A malformed or inconsistent game record or serialized state."
);

/// Maps a core error to its exception class.
pub(crate) fn to_py(e: Error) -> PyErr {
    match e {
        Error::InvalidOption(m) => InvalidOptionError::new_err(m),
        Error::IllegalMove(m) => IllegalMoveError::new_err(m),
        Error::GameOver(m) => GameOverError::new_err(m),
        Error::Record(m) => RecordError::new_err(m),
    }
}

/// Converts Python keyword options to core option values (bool before int: bool is an int).
pub(crate) fn options_from_py(
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<(String, OptionValue)>> {
    let mut out = Vec::new();
    let Some(kwargs) = kwargs else {
        return Ok(out);
    };
    for (k, v) in kwargs.iter() {
        let key: String = k.extract()?;
        let value = if v.is_instance_of::<PyBool>() {
            OptionValue::Bool(v.extract()?)
        } else if v.is_instance_of::<PyInt>()
            || v.hasattr("__index__")? && !v.is_instance_of::<PyFloat>()
        {
            match v.extract::<i64>() {
                Ok(i) => OptionValue::Int(i),
                Err(_) => {
                    return Err(InvalidOptionError::new_err(format!(
                        "option {key}: integer {v} is out of range"
                    )))
                }
            }
        } else if v.is_instance_of::<PyString>() {
            OptionValue::Str(v.extract()?)
        } else {
            return Err(InvalidOptionError::new_err(format!(
                "option {key}: values are str, int or bool, got {} {}",
                v.get_type().name()?,
                v.repr()?
            )));
        };
        out.push((key, value));
    }
    Ok(out)
}

/// Converts resolved options to a Python dict.
pub(crate) fn options_to_py<'py>(
    py: Python<'py>,
    options: &[(String, OptionValue)],
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (k, v) in options {
        match v {
            OptionValue::Int(i) => d.set_item(k, i)?,
            OptionValue::Bool(b) => d.set_item(k, b)?,
            OptionValue::Str(s) => d.set_item(k, s)?,
        }
    }
    Ok(d)
}

/// Fast engines for The Smallholder, Windflowers, Faraday and Subsume.
#[pymodule]
mod _core {
    #[pymodule_export]
    use super::game::{games, make, PyGame, PyState};
    #[pymodule_export]
    use super::search::{play_games, selfplay_games, PyMcts, PyRandomAgent, PySearchResult};
    #[pymodule_export]
    use super::sim::{simulate_raw, PyVectorEnv};
    #[pymodule_export]
    use super::{
        GameOverError, IllegalMoveError, InvalidOptionError, RecordError, StonefieldError,
    };

    #[allow(non_upper_case_globals)]
    #[pymodule_export]
    const __version__: &str = env!("CARGO_PKG_VERSION");
}
