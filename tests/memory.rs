//! Memory of states and sessions, measured by counting what the allocator hands out.
//!
//! * `Footprint::heap_bytes` equals the bytes a clone allocates, for every game and width, so memory
//!   estimates built on it (the vector environment's refusal of oversized requests) are true.
//! * A session's memory grows with its history, not with moves × board: a finished random
//!   Subsume game on a size-30 board holds well under 1 MiB, copy included.
//! * Undo through checkpoints restores the state exactly: every field (its `Debug` text) equals
//!   that of the same history replayed from the start.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use stonefield::games::OptionValue;
use stonefield::rng::Rng;
use stonefield::{Footprint, Game, Rules, Session};

/// The system allocator, counting the bytes each thread allocates (tests run on many threads).
struct Counting;

thread_local! {
    static ALLOCATED: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded unchanged to the system allocator; the counter is a
// thread-local `Cell` with a const initialiser, which neither allocates nor locks.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATED.with(|a| a.set(a.get() + layout.size()));
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Bytes allocated on this thread while `f` runs (frees not subtracted).
fn allocated_by<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = ALLOCATED.with(Cell::get);
    let out = f();
    (out, ALLOCATED.with(Cell::get) - before)
}

fn make(name: &str, options: &[(&str, OptionValue)]) -> Game {
    let opts: Vec<(String, OptionValue)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    Game::make(name, &opts).unwrap()
}

/// Every game, at sizes that cover each bit-set width the engines use.
fn games() -> Vec<Game> {
    let mut v = Vec::new();
    for size in [3i64, 4, 6, 9, 13] {
        v.push(make("windflowers", &[("size", OptionValue::Int(size))]));
    }
    v.push(make(
        "windflowers",
        &[
            ("players", OptionValue::Int(4)),
            ("size", OptionValue::Int(5)),
        ],
    ));
    for board in ["hex3", "hex5", "hex8", "hex12", "hex454545"] {
        v.push(make("smallholder", &[("board", OptionValue::from(board))]));
    }
    for grid in ["hex", "trisquare", "square_omni"] {
        v.push(make("faraday", &[("grid", OptionValue::from(grid))]));
    }
    for size in [3i64, 8, 30] {
        v.push(make("subsume", &[("size", OptionValue::Int(size))]));
    }
    v
}

fn random_session(game: &Game, seed: u64) -> Session {
    let mut session = Session::new(game);
    let mut rng = Rng::stream(seed, 0);
    let mut buf = Vec::new();
    while let Some(a) = session.state().random_action(&mut rng, &mut buf) {
        session.apply(a as i64).unwrap();
    }
    session
}

#[test]
fn heap_bytes_is_what_a_clone_allocates() {
    for game in games() {
        let session = random_session(&game, 7);
        let mut states = vec![game.new_state()];
        // Positions along the game too: some states grow lists as they go.
        let mut replay = Session::new(&game);
        for (i, &a) in session.history().iter().enumerate() {
            replay.apply(i64::from(a)).unwrap();
            if i % 17 == 0 {
                states.push(replay.state().clone());
            }
        }
        states.push(session.state().clone());
        for s in &states {
            let (copy, bytes) = allocated_by(|| s.clone());
            assert_eq!(
                copy.heap_bytes(),
                bytes,
                "{} {:?}: heap_bytes against the allocator",
                game.name(),
                game.options()
            );
        }
    }
}

#[test]
fn a_finished_subsume_30_game_holds_well_under_a_mebibyte() {
    let game = make("subsume", &[("size", OptionValue::Int(30))]);
    let session = random_session(&game, 1);
    assert!(session.state().is_terminal());
    assert!(session.history().len() > 1000, "a long game");
    let (copy, bytes) = allocated_by(|| session.clone());
    assert!(
        bytes < 700 * 1024,
        "a copy of a {}-action game allocates {bytes} bytes",
        session.history().len()
    );
    assert!(copy.heap_bytes() < 700 * 1024);
    assert!(session.heap_bytes() < 700 * 1024);
}

#[test]
fn undo_restores_exactly_what_a_replay_reaches() {
    for game in games() {
        if game.board().num_sites() > 250 {
            continue; // the replay below is quadratic in the game's length
        }
        let mut session = random_session(&game, 3);
        let history = session.history().to_vec();
        for n in (0..history.len()).rev() {
            assert_eq!(session.undo(), Some(history[n]));
            let mut replay = Session::new(&game);
            for &a in &history[..n] {
                replay.apply(i64::from(a)).unwrap();
            }
            assert_eq!(
                format!("{:?}", session.state()),
                format!("{:?}", replay.state()),
                "{} after undoing to {n} actions",
                game.name()
            );
            assert_eq!(session.history(), &history[..n]);
        }
        assert_eq!(session.undo(), None);
        assert_eq!(session.kept_states(), 1, "only the start is left");
    }
}

#[test]
fn undo_then_apply_continues_like_a_fresh_session() {
    let game = make("windflowers", &[("size", OptionValue::Int(9))]);
    let full = random_session(&game, 11);
    let history = full.history().to_vec();
    assert!(history.len() > 300, "a game across checkpoints");
    let mut session = full.clone();
    // Back across two checkpoints, then forward again along the same actions.
    for _ in 0..300 {
        session.undo();
    }
    for &a in &history[session.history().len()..] {
        session.apply(i64::from(a)).unwrap();
    }
    assert_eq!(format!("{:?}", session), format!("{:?}", full));
}
