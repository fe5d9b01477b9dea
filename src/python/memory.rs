//! The extension's memory checks, over the crate's one probe ([`crate::memory`]): the refusal
//! of a request that would not fit, and the search tree's cap. `simulate`, `VectorEnv` and the
//! search tree (`MCTS`, and the searches of native matches, self-play and the lab) all size
//! themselves by it, so a request too big for the machine is a MemoryError or a search stopped at its node
//! cap, never an abort or the kernel's out-of-memory killer.

use pyo3::exceptions::PyMemoryError;
use pyo3::prelude::*;

use crate::search::mcts::{AMAF_BYTES, MIN_NODES_PER_THREAD, NODE_BYTES};

/// Bytes of memory this process may still take: the smallest of the memory available
/// (MemAvailable), the room under the control group's memory limit and the room under
/// `ulimit -v` and `ulimit -d`; None where none of these can be read. Every table of the
/// extension (the solver's, the state graph's, the search tree) is sized by it.
///
/// >>> import stonefield._core as c
/// >>> m = c.available_memory()
/// >>> m is None or m > 0
/// True
#[pyfunction]
pub fn available_memory() -> Option<u64> {
    crate::memory::available_memory()
}

/// Refuses, with a MemoryError naming the numbers, a request for `count` items of `bytes_each`
/// bytes that does not fit in the memory available (see [`crate::memory`]). What passes is
/// then allocated with `try_reserve`, so a refusal the estimate missed is a MemoryError too,
/// never an abort.
pub(crate) fn check_memory(what: &str, count: usize, bytes_each: usize) -> PyResult<()> {
    let available = available_memory();
    let fits = match (count.checked_mul(bytes_each), available) {
        (None, _) => false,
        (Some(total), Some(avail)) => total as u64 <= avail,
        (Some(_), None) => true,
    };
    if fits {
        return Ok(());
    }
    let (avail_text, most) = match available {
        Some(a) => (
            format!("{:.1} GiB are available", a as f64 / f64::from(1u32 << 30)),
            a / bytes_each as u64,
        ),
        None => ("that is more than memory can address".to_string(), 0),
    };
    Err(PyMemoryError::new_err(format!(
        "{what} = {count} needs {bytes_each} bytes each and {avail_text}; at most {most} fit"
    )))
}

/// The most search-tree nodes that `trees` trees growing at once may hold between them in the
/// memory available: half of it (the trees' vectors double as they grow, so one may briefly
/// need twice its nodes), at [`NODE_BYTES`] + [`AMAF_BYTES`] each (a GRAVE node's size, so the
/// cap holds whatever the selection); at least [`MIN_NODES_PER_THREAD`] per tree.
/// `usize::MAX` where the memory cannot be read.
pub(crate) fn node_cap(trees: usize) -> usize {
    match available_memory() {
        Some(bytes) => {
            let per_node = (NODE_BYTES + AMAF_BYTES) as u64;
            let nodes = (bytes / 2 / per_node).min(usize::MAX as u64) as usize;
            nodes.max(MIN_NODES_PER_THREAD * trees.max(1))
        }
        None => usize::MAX,
    }
}
