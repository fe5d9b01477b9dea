//! Agents (`MCTS`, `RandomAgent`), `SearchResult`, and native matches and self-play.
//!
//! The files, one job each: [`args`] the arguments from Python, [`agents`] the native agents,
//! [`result`] a search's result, [`run`] native matches and self-play.

use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::Instant;

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyTuple};

use super::game::{PyGame, PyState};
use super::interrupt::interruptible;
use super::memory::node_cap;
use super::{
    as_invalid_option, is_bool, setting_arg, threads_arg, to_py, InvalidOptionError, MAX_THREADS,
};
use crate::games::{Game, Rules};
use crate::lab::lab_range_into;
use crate::lab::Columns;
use crate::search::mcts::{
    random_agent_action, DEFAULT_GRAVE_BIAS, DEFAULT_GRAVE_C, DEFAULT_GRAVE_REF,
};
use crate::search::play::{play_range_map, selfplay_games as selfplay_range};
use crate::search::{
    Agent, GameRecord, Mcts, MctsConfig, Playouts, Preset, SearchResult, Selection, DEFAULT_C,
    DEFAULT_MAX_NODES,
};
use crate::sim::batch::thread_pool;

mod agents;
mod args;
mod result;
mod run;

pub use agents::*;
pub(crate) use args::*;
pub use result::*;
pub use run::*;
