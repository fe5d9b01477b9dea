//! The Python extension module `stonefield._core`. This is the only place that names pyo3 or
//! numpy; it converts arguments, maps core errors to exceptions, and releases the GIL for long
//! work. The public Python API is re-exported by `python/stonefield/__init__.py`.
//!
//! The doc comments of the classes and functions here are their Python docstrings, with `>>>`
//! examples that pytest runs; `x[0]` in them is Python indexing, not a rustdoc link.
#![allow(rustdoc::broken_intra_doc_links)]

mod game;
pub(crate) mod interrupt;
mod lab;
pub(crate) mod memory;
mod puct;
mod search;
mod sim;
mod solve;

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyString};

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
create_exception!(
    stonefield,
    EvaluatorError,
    StonefieldError,
    "A search's evaluator returned arrays of the wrong shape or dtype, NaN, negative priors or \
     values outside [-1, 1]."
);

/// Maps a core error to its exception class.
pub(crate) fn to_py(e: Error) -> PyErr {
    let message = e.to_string();
    // A batch's error ([`Error::At`]) is of the kind of the error inside it.
    match e.root() {
        Error::InvalidOption(_) => InvalidOptionError::new_err(message),
        Error::IllegalMove(_) => IllegalMoveError::new_err(message),
        Error::GameOver(_) => GameOverError::new_err(message),
        Error::Evaluator(_) => EvaluatorError::new_err(message),
        // Raised only inside runs whose stop flag Ctrl-C set; they discard it and raise their own.
        Error::Stopped { .. } => pyo3::exceptions::PyKeyboardInterrupt::new_err(message),
        // Bad positions and mismatched arrays come, like records, from data handed in whole.
        Error::InvalidPosition(_)
        | Error::InvalidArgument(_)
        | Error::Record(_)
        | Error::At { .. } => RecordError::new_err(message),
    }
}

/// Whether `obj` is a boolean, Python's or numpy's: refused wherever an integer is expected,
/// although Python counts `True` as 1.
pub(crate) fn is_bool(obj: &Bound<'_, PyAny>) -> bool {
    if obj.is_instance_of::<PyBool>() {
        return true;
    }
    let ty = obj.get_type();
    ty.name().is_ok_and(|n| n == "bool" || n == "bool_") && ty.module().is_ok_and(|m| m == "numpy")
}

/// The TypeError for a value that is not an integer.
fn not_an_integer(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<PyErr> {
    Ok(pyo3::exceptions::PyTypeError::new_err(format!(
        "{what} must be an integer, got {} {}",
        obj.get_type().name()?,
        obj.repr()?
    )))
}

/// An integer argument (a Python int or anything with `__index__`, such as numpy integers),
/// `None` when it does not fit in an `i64`. Booleans and floats are a TypeError; an error raised
/// by `__index__` itself propagates unchanged.
pub(crate) fn int_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Option<i64>> {
    if obj.is_exact_instance_of::<pyo3::types::PyInt>() {
        // The common case, without the checks below.
        return Ok(obj.extract::<i64>().ok());
    }
    if is_bool(obj) || obj.is_instance_of::<PyFloat>() {
        return Err(not_an_integer(obj, what)?);
    }
    match obj.extract::<i64>() {
        Ok(v) => Ok(Some(v)),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(obj.py()) => Ok(None),
        Err(e)
            if e.is_instance_of::<pyo3::exceptions::PyTypeError>(obj.py())
                && !obj.hasattr("__index__")? =>
        {
            Err(not_an_integer(obj, what)?)
        }
        Err(e) => Err(e),
    }
}

/// A non-negative integer argument at most `max` (seeds, counts, indices, players). Out of
/// range is a StonefieldError naming the range, not an OverflowError.
pub(crate) fn uint_arg(obj: &Bound<'_, PyAny>, what: &str, max: u64) -> PyResult<u64> {
    range_arg(obj, what, 0, max)
}

/// An integer argument from `min` to `max`, refused as [`uint_arg`] refuses.
fn range_arg(obj: &Bound<'_, PyAny>, what: &str, min: u64, max: u64) -> PyResult<u64> {
    if is_bool(obj) || obj.is_instance_of::<PyFloat>() {
        return Err(not_an_integer(obj, what)?);
    }
    let out_of_range = || -> PyResult<PyErr> {
        let max = if max == u64::MAX {
            "2**64 - 1".to_string()
        } else {
            max.to_string()
        };
        Ok(StonefieldError::new_err(format!(
            "{what} must be an integer from {min} to {max}, got {}",
            obj.repr()?
        )))
    };
    match obj.extract::<u64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        Ok(_) => Err(out_of_range()?),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(obj.py()) => {
            Err(out_of_range()?)
        }
        Err(e)
            if e.is_instance_of::<pyo3::exceptions::PyTypeError>(obj.py())
                && !obj.hasattr("__index__")? =>
        {
            Err(not_an_integer(obj, what)?)
        }
        Err(e) => Err(e),
    }
}

/// A seed: any integer from 0 to 2**64 − 1.
pub(crate) fn seed_arg(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    uint_arg(obj, "seed", u64::MAX)
}

/// Most worker threads a call may ask for (the core's cap, see [`crate::sim::batch::MAX_THREADS`]).
pub(crate) const MAX_THREADS: u64 = crate::sim::batch::MAX_THREADS as u64;

/// A thread count: `None` (every core) or 1 to [`MAX_THREADS`].
pub(crate) fn threads_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    let Some(obj) = obj else {
        return Ok(None);
    };
    // "from 1 to 256": 0 is refused like any other value out of range.
    Ok(Some(range_arg(obj, "threads", 1, MAX_THREADS)? as usize))
}

/// A setting of an agent or of a native match or self-play run (iterations, seeds, threads, game
/// counts) from `min` to `max`. These document every refusal, a bool or a float included, as an
/// InvalidOptionError: the error of [`range_arg`] is re-raised as one, with the same message.
pub(crate) fn setting_arg(obj: &Bound<'_, PyAny>, what: &str, min: u64, max: u64) -> PyResult<u64> {
    range_arg(obj, what, min, max).map_err(|e| as_invalid_option(obj.py(), e))
}

/// A TypeError or plain StonefieldError from the argument helpers as an InvalidOptionError;
/// any other error (one raised by `__index__` itself, say) unchanged.
pub(crate) fn as_invalid_option(py: Python<'_>, e: PyErr) -> PyErr {
    let refused = e.is_instance_of::<pyo3::exceptions::PyTypeError>(py)
        || e.get_type(py).is(py.get_type::<StonefieldError>());
    if refused {
        InvalidOptionError::new_err(e.value(py).to_string())
    } else {
        e
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
        let key = text_arg(&k, "option names")?;
        let bad = || -> PyResult<PyErr> {
            Ok(InvalidOptionError::new_err(format!(
                "option {key}: values are str, int or bool, got {} {}",
                v.get_type().name()?,
                v.repr()?
            )))
        };
        let value = if is_bool(&v) {
            OptionValue::Bool(v.is_truthy()?)
        } else if v.is_instance_of::<PyString>() {
            OptionValue::Str(text_arg(&v, &format!("option {key}"))?)
        } else if v.is_instance_of::<PyFloat>() || !v.hasattr("__index__")? {
            return Err(bad()?);
        } else {
            match v.extract::<i64>() {
                Ok(i) => OptionValue::Int(i),
                Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(v.py()) => {
                    return Err(InvalidOptionError::new_err(format!(
                        "option {key}: integer {v} is out of range"
                    )))
                }
                Err(e) if e.is_instance_of::<pyo3::exceptions::PyTypeError>(v.py()) => {
                    return Err(bad()?)
                }
                Err(e) => return Err(e),
            }
        };
        out.push((key, value));
    }
    Ok(out)
}

/// A string argument that names something (a game, an option, a value): any `str` that is
/// valid Unicode text; a lone surrogate such as "\ud800" is an InvalidOptionError.
pub(crate) fn text_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    if !obj.is_instance_of::<PyString>() {
        return Err(InvalidOptionError::new_err(format!(
            "{what} are strings, got {} {}",
            obj.get_type().name()?,
            obj.repr()?
        )));
    }
    obj.extract::<String>().map_err(|_| {
        InvalidOptionError::new_err(format!(
            "{what}: {} is not valid Unicode text (it holds a lone surrogate)",
            obj.repr()
                .map(|r| r.to_string())
                .unwrap_or_else(|_| "the string".into())
        ))
    })
}

/// Converts resolved options to a Python dict.
pub(crate) fn options_to_py<'py>(
    py: Python<'py>,
    options: &[(String, OptionValue)],
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (k, v) in options {
        d.set_item(k, option_to_py(py, v)?)?;
    }
    Ok(d)
}

/// One option value as a Python int, bool or str.
pub(crate) fn option_to_py<'py>(py: Python<'py>, v: &OptionValue) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        OptionValue::Int(i) => i.into_pyobject(py)?.into_any(),
        OptionValue::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        OptionValue::Str(s) => s.into_pyobject(py)?.into_any(),
    })
}

/// Fast engines for The Smallholder, Windflowers, Faraday and Subsume.
#[pymodule]
mod _core {
    #[pymodule_export]
    use super::game::{games, make, option_spec, parse_option, PyGame, PyState};
    #[pymodule_export]
    use super::interrupt::cancel_native_calls;
    #[pymodule_export]
    use super::lab::{lab_play, lab_schema, lab_stats, lab_summary, PyFacts};
    #[pymodule_export]
    use super::memory::available_memory;
    #[pymodule_export]
    use super::puct::{graph_evaluate, puct_play_games, puct_selfplay_games, PyPuct};
    #[pymodule_export]
    use super::search::{
        play_games, seat_seed, selfplay_games, PyMcts, PyRandomAgent, PySearchResult,
    };
    #[pymodule_export]
    use super::sim::{simulate_raw, PyVectorEnv};
    #[pymodule_export]
    use super::solve::{
        proof_lines, solve, state_graph, PySolveResult, PySolveTable, PyStateGraph,
        SolveInterrupted,
    };
    #[pymodule_export]
    use super::{
        EvaluatorError, GameOverError, IllegalMoveError, InvalidOptionError, RecordError,
        StonefieldError,
    };

    #[allow(non_upper_case_globals)]
    #[pymodule_export]
    const __version__: &str = env!("CARGO_PKG_VERSION");
}
