//! `SearchResult`: what an MCTS search found.

use super::*;

/// What an MCTS search found. Per-action arrays have one entry per legal root action, in
/// ascending order of action.
///
/// >>> import stonefield as sf
/// >>> res = sf.MCTS(iterations=300).analyse(sf.make("smallholder").new_state())
/// >>> int(res.visits.sum()), res.iterations, res.stopped_by
/// (300, 300, 'iterations')
/// >>> res.pv[0] == res.best
/// True
#[pyclass(name = "SearchResult", module = "stonefield", frozen)]
pub struct PySearchResult {
    pub(crate) result: SearchResult,
}

#[pymethods]
impl PySearchResult {
    /// The legal root actions, ascending (int64).
    #[getter]
    pub(super) fn actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        PyArray1::from_iter(py, self.result.actions.iter().map(|&a| i64::from(a)))
    }
    /// Visits of each root action (int64).
    #[getter]
    pub(super) fn visits<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        PyArray1::from_iter(py, self.result.visits.iter().map(|&v| v as i64))
    }
    /// Mean return of each root action for the player to move (float64; 0 if unvisited).
    #[getter]
    pub(super) fn values<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        PyArray1::from_slice(py, &self.result.values)
    }
    /// Root visit fractions over the whole action space (float64, num_actions).
    #[getter]
    pub(super) fn policy<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        PyArray1::from_vec(py, self.result.policy())
    }
    /// The root's mean return for the player to move.
    #[getter]
    pub(super) fn value(&self) -> f64 {
        self.result.value
    }
    /// The action `act` plays.
    #[getter]
    pub(super) fn best(&self) -> u32 {
        self.result.best
    }
    /// Iterations run, over all threads.
    #[getter]
    pub(super) fn iterations(&self) -> u64 {
        self.result.iterations
    }
    /// Wall time of the search in seconds.
    #[getter]
    pub(super) fn seconds(&self) -> f64 {
        self.result.seconds
    }
    /// Tree nodes allocated, over all threads.
    #[getter]
    pub(super) fn nodes(&self) -> u64 {
        self.result.nodes
    }
    /// None, or +1 / −1 / 0 when the root is proven won / lost / drawn for the player to move.
    #[getter]
    pub(super) fn proven(&self) -> Option<i8> {
        self.result.proven
    }
    /// The principal variation: the most visited path from the root.
    #[getter]
    pub(super) fn pv(&self) -> Vec<u32> {
        self.result.pv.clone()
    }
    /// What ended the search: "iterations", "time", "nodes" or "proven".
    #[getter]
    pub(super) fn stopped_by(&self) -> &'static str {
        self.result.stopped_by.name()
    }

    pub(super) fn __repr__(&self) -> String {
        let r = &self.result;
        format!(
            "SearchResult(best={}, value={:.4}, iterations={}, nodes={}, proven={}, \
             stopped_by='{}')",
            r.best,
            r.value,
            r.iterations,
            r.nodes,
            r.proven.map_or("None".into(), |p| p.to_string()),
            r.stopped_by.name()
        )
    }
}
