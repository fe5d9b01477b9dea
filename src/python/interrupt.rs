//! One way to run a long native call so that Ctrl-C stops it promptly.
//!
//! [`interruptible`] runs the work on a helper thread with the GIL released, while the calling
//! thread wakes every [`POLL`] to look for two things: a signal (`py.check_signals()`, which runs
//! Python's handlers when called on the main thread, so Ctrl-C's KeyboardInterrupt comes from
//! there), and a cancellation of every running native call by [`cancel_native_calls`] (which any
//! thread may call: a server shutting down uses it, since signals reach only the main thread).
//! On either it sets the work's stop flag and waits for the work to return; then it hands back
//! the work's result *and* the error, so that a caller can keep what was finished (a match its
//! finished games).
//!
//! The work must look at its flag often: every search iteration, every move of a game, every
//! block of random games (blocks are sized to about a tenth of a second). Then a call stops
//! within about [`POLL`] plus one iteration or block. Every long call of the extension (search
//! of any budget, matches, self-play, the lab, `simulate`) goes through here; a new one (a
//! solver, say) should too:
//!
//! ```ignore
//! let (result, interrupted) = interruptible(py, |stop| long_work(stop));
//! if let Some(e) = interrupted { return Err(e); }   // or keep the part `result` finished
//! ```

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;

/// How often the calling thread looks for a signal or a cancellation.
pub(crate) const POLL: Duration = Duration::from_millis(20);

/// Bumped by [`cancel_native_calls`]: a call started before a bump stops.
static CANCELLED: AtomicU64 = AtomicU64::new(0);

/// Runs `work(stop)` on a helper thread with the GIL released until it returns; sets `stop`
/// once Ctrl-C (any signal handler that raises) or [`cancel_native_calls`] asks, and returns
/// the work's result with that error (`None` when nothing asked).
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&AtomicBool) -> T + Send,
) -> (T, Option<PyErr>) {
    let epoch = CANCELLED.load(Ordering::SeqCst);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (tx, mut rx) = mpsc::channel();
        let stop = &stop;
        scope.spawn(move || {
            // The receiver goes away only after the result arrives.
            let _ = tx.send(work(stop));
        });
        let mut error: Option<PyErr> = None;
        loop {
            // The receiver is Send but not Sync: it goes into the GIL-free closure and back.
            let wait = if error.is_some() { None } else { Some(POLL) };
            let (got, back) = py.detach(move || {
                let got = match wait {
                    Some(t) => rx.recv_timeout(t),
                    None => rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected),
                };
                (got, rx)
            });
            rx = back;
            match got {
                Ok(result) => {
                    // A signal that came while the work finished (or during a call shorter
                    // than one poll) is seen here, so a loop of short calls stops too.
                    if error.is_none() {
                        error = py.check_signals().err();
                    }
                    return (result, error);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        error = Some(e);
                    } else if CANCELLED.load(Ordering::SeqCst) != epoch {
                        error = Some(PyKeyboardInterrupt::new_err(
                            "native calls were cancelled (cancel_native_calls)",
                        ));
                    }
                    if error.is_some() {
                        stop.store(true, Ordering::SeqCst);
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    // Only when the work panicked (a bug): leaving the scope re-raises it.
                    panic!("a native call's thread ended without a result");
                }
            }
        }
    })
}

/// Stops every native call running now in any thread (searches, matches, self-play, the lab,
/// `simulate`): each raises KeyboardInterrupt within about 20 ms plus one search iteration.
/// Calls made afterwards run normally. Signals reach only the main thread, so a program that
/// runs searches in worker threads (the `stonefield play` server) calls this when it shuts
/// down.
#[pyfunction]
pub fn cancel_native_calls() {
    CANCELLED.fetch_add(1, Ordering::SeqCst);
}
