//! The one memory check of the extension: how much memory this process may still take, and
//! the refusal of a request that would not fit. `simulate`, `VectorEnv` and the search tree
//! (`MCTS`, and the searches of native matches, self-play and the lab) all size themselves by
//! it, so a request too big for the machine is a MemoryError or a search stopped at its node
//! cap, never an abort or the kernel's out-of-memory killer.

use pyo3::exceptions::PyMemoryError;
use pyo3::prelude::*;

use crate::search::mcts::{AMAF_BYTES, MIN_NODES_PER_THREAD, NODE_BYTES};

/// Bytes of memory this process may still allocate, as far as the system says: the smallest of
/// the kernel's estimate of available memory (`MemAvailable` in /proc/meminfo), the room left
/// under a cgroup (v2) memory limit, and the room left under the address-space limit (`ulimit
/// -v`, from /proc/self/limits and the process's `VmSize`). `None` where none of these can be
/// read (systems other than Linux): there only a failed allocation (a MemoryError) refuses.
pub(crate) fn available_memory() -> Option<u64> {
    fn read(path: &str) -> Option<String> {
        std::fs::read_to_string(path).ok()
    }
    fn kib_field(text: &str, key: &str) -> Option<u64> {
        let line = text.lines().find(|l| l.starts_with(key))?;
        let kib: u64 = line[key.len()..].split_whitespace().next()?.parse().ok()?;
        Some(kib * 1024)
    }
    let mut limits = Vec::new();
    if let Some(meminfo) = read("/proc/meminfo") {
        limits.extend(kib_field(&meminfo, "MemAvailable:"));
    }
    if let (Some(max), Some(current)) = (
        read("/sys/fs/cgroup/memory.max"),
        read("/sys/fs/cgroup/memory.current"),
    ) {
        if let (Ok(max), Ok(current)) = (max.trim().parse::<u64>(), current.trim().parse::<u64>()) {
            limits.push(max.saturating_sub(current));
        }
    }
    if let (Some(proc_limits), Some(status)) =
        (read("/proc/self/limits"), read("/proc/self/status"))
    {
        let soft = proc_limits
            .lines()
            .find(|l| l.starts_with("Max address space"))
            .and_then(|l| l["Max address space".len()..].split_whitespace().next())
            .and_then(|v| v.parse::<u64>().ok());
        if let (Some(soft), Some(used)) = (soft, kib_field(&status, "VmSize:")) {
            limits.push(soft.saturating_sub(used));
        }
    }
    limits.into_iter().min()
}

/// Refuses, with a MemoryError naming the numbers, a request for `count` items of `bytes_each`
/// bytes that does not fit in the memory available (see [`available_memory`]). What passes is
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
