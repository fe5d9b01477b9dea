//! The front door of exact analysis: [`solve`] hands each root action to a method
//! (alpha-beta, [`super::alphabeta`], or proof numbers, [`super::pns`]) through `Exact`, and
//! keeps the root's bookkeeping, the same for both.
//!
//! * **Partial results.** The root's actions are solved one by one, each exactly, so when a
//!   budget (nodes, time, an interrupt) stops the search every root outcome already proven is
//!   kept, and a proven win decides the root's value even before the others are known.
//! * **Order and value only.** The root's actions are taken up in order, or in a [`Guide`]'s
//!   order (the most promising first); with `value_only` the solve stops at the first proven
//!   win, the root's value, leaving the other actions open.
//! * **Threads.** Root actions are handed out to the threads in turn; the threads share the
//!   table. Every stored value is exact for its bound, so results (values, outcomes, best
//!   actions, the principal line) are the same for any thread count; only node counts differ.
//! * **The perfect line** (`principal_line`) is asked again of the method that solved the
//!   root, through its table, so it is cheap.
//! * **Kept tables.** [`solve_kept`] searches in a [`KeptTable`] that outlives the solve:
//!   many positions of one game solved in turn share what each proved.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use super::alphabeta::Searcher;
use super::common::{
    guide_key, Budget, Exact, Guide, Method, Order, SolveOptions, StoppedBy, Symmetry, ACTION_BITS,
};
use super::pns::Prover;
use super::table::{Table, TableMemory, TableState};
use crate::error::{Asked, Error, GameOver, Result};
use crate::games::{Knowledge, Rules};

/// A solved (or partly solved) position.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveResult {
    /// The value for the player to move, `None` if not proven.
    pub value: Option<i32>,
    /// Every legal root action, ascending.
    pub actions: Vec<u32>,
    /// The value of each root action for the root's mover, `None` where not proven.
    pub outcomes: Vec<Option<i32>>,
    /// The actions that keep the best value (empty unless the value is proven).
    pub best: Vec<u32>,
    /// One perfect line to the end of the game (empty unless solved).
    pub pv: Vec<u32>,
    pub nodes: u64,
    pub seconds: f64,
    pub stopped_by: StoppedBy,
    /// Entries in the table and the bytes it takes.
    pub table_entries: usize,
    pub table_bytes: usize,
}

/// Stored root outcomes are offset to keep them apart from the "unproven" marker.
const OFFSET: i64 = 1 << 32;

/// Checks that `state` can be solved: two players and not over.
pub fn check_solvable<R: Rules>(state: &R) -> Result<()> {
    if state.num_players() != 2 {
        return Err(Error::InvalidOption(format!(
            "{}: solve handles two-player games only (this one has {} players); use \
             state_graph for whole-graph analysis of games with more players",
            state.game_name(),
            state.num_players()
        )));
    }
    if state.is_terminal() {
        return Err(GameOver {
            game: state.game_name(),
            asked: Asked::Solve,
        }
        .into());
    }
    Ok(())
}

/// Solves `root` (two players, not over) within the options' budgets. `stop`, when raised,
/// interrupts the search (Ctrl-C).
pub fn solve<R: Knowledge>(
    root: &R,
    opts: &SolveOptions,
    stop: Option<&AtomicBool>,
) -> Result<SolveResult> {
    solve_guided(root, opts, None, stop)
}

/// [`solve`] with a [`Guide`]: the root's actions are solved in the guide's order (the most
/// promising first, which with [`SolveOptions::value_only`] may be the only one solved) and
/// alpha-beta orders the positions up to [`SolveOptions::guide_depth`] moves below the root by
/// it. Values, outcomes and best actions are those of [`solve`]; only the work differs.
pub fn solve_guided<R: Knowledge>(
    root: &R,
    opts: &SolveOptions,
    guide: Option<&dyn Guide<R>>,
    stop: Option<&AtomicBool>,
) -> Result<SolveResult> {
    solve_on(root, opts, guide, stop, None)
}

/// [`solve_guided`] in a table kept from earlier solves ([`KeptTable`]): its entries, facts
/// about positions of the same game, spare this solve whatever the earlier ones proved (the
/// positions below sibling moves, say), and what this one proves stays for the next.
/// Alpha-beta's outcomes only: refused with proof numbers, the margin or a checkpoint. The
/// caller keeps one table to one game and its options (the table's keys do not name them).
pub fn solve_kept<R: Knowledge>(
    root: &R,
    opts: &SolveOptions,
    guide: Option<&dyn Guide<R>>,
    stop: Option<&AtomicBool>,
    kept: &mut KeptTable,
) -> Result<SolveResult> {
    if opts.method == Method::ProofNumber || opts.margin || opts.checkpoint.is_some() {
        return Err(Error::InvalidOption(
            "solve: a kept table holds alpha-beta's outcomes: not with method \"pns\", the \
             margin or a checkpoint"
                .to_string(),
        ));
    }
    solve_on(root, opts, guide, stop, Some(kept))
}

/// Alpha-beta's table kept between solves of one game ([`solve_kept`]): its memory, taken
/// once, and the part of it in use (the table doubles as it fills, and goes on from the size
/// it reached).
pub struct KeptTable {
    memory: TableMemory,
    state: TableState,
}

impl KeptTable {
    /// A table of at most `bytes` (as [`SolveOptions::table_bytes`]), empty.
    pub fn new(bytes: usize) -> Result<KeptTable> {
        let mut memory = TableMemory::new(bytes)?;
        let state = memory.table().state();
        Ok(KeptTable { memory, state })
    }

    /// Entries stored.
    pub fn entries(&mut self) -> usize {
        self.memory.table_as(self.state).filled()
    }

    /// Bytes of the part in use.
    pub fn bytes(&mut self) -> usize {
        self.memory.table_as(self.state).bytes()
    }

    /// Bytes it may grow to.
    pub fn capacity_bytes(&mut self) -> usize {
        self.memory.table_as(self.state).capacity() * super::table::ENTRY_BYTES
    }
}

/// The checks, the table (a kept one, or a new one for this solve), then the solve in it.
fn solve_on<R: Knowledge>(
    root: &R,
    opts: &SolveOptions,
    guide: Option<&dyn Guide<R>>,
    stop: Option<&AtomicBool>,
    kept: Option<&mut KeptTable>,
) -> Result<SolveResult> {
    check_solvable(root)?;
    if opts.value_only && opts.margin {
        return Err(Error::InvalidOption(
            "solve: value_only proves outcomes (it stops at the first winning action); the \
             margin needs every action solved"
                .to_string(),
        ));
    }
    for (n, &a) in opts.try_first.iter().enumerate() {
        if !root.is_legal(a as usize) || opts.try_first[..n].contains(&a) {
            return Err(Error::InvalidOption(format!(
                "solve: try_first must list legal root actions, each once; {a} is {}",
                if root.is_legal(a as usize) {
                    "there twice"
                } else {
                    "not legal here"
                }
            )));
        }
    }
    if opts.threads == 0 {
        return Err(Error::InvalidOption(
            "solve: threads must be at least 1".to_string(),
        ));
    }
    if opts.margin && opts.method == Method::ProofNumber {
        return Err(Error::InvalidOption(
            "solve: the margin needs method \"alphabeta\" (a proof-number search proves \
             outcomes only)"
                .to_string(),
        ));
    }
    if root.num_actions() as u64 > ACTION_BITS + 1 {
        return Err(Error::InvalidOption(format!(
            "solve: at most {} actions, not {}",
            ACTION_BITS + 1,
            root.num_actions()
        )));
    }
    let pns = opts.method == Method::ProofNumber;
    if let Some(c) = &opts.checkpoint {
        if pns || opts.margin {
            return Err(Error::InvalidOption(
                "solve: a checkpoint needs method \"alphabeta\" and no margin (it keeps \
                 alpha-beta's table of outcomes)"
                    .to_string(),
            ));
        }
        c.prepare()?;
    }
    let start = Instant::now();
    let threads = opts.threads.min(root.legal_actions().len()).max(1);
    // Alpha-beta's table is shared; each proof-number thread keeps its own share of the bytes.
    let mut own = None;
    let (table, was) = match kept {
        Some(k) => (k.memory.table_as(k.state), Some(&mut k.state)),
        None => (
            own.insert(TableMemory::new(if pns { 0 } else { opts.table_bytes })?)
                .table(),
            None,
        ),
    };
    let result = solve_in(root, opts, guide, stop, &table, start, threads);
    if let Some(was) = was {
        *was = table.state();
    }
    result
}

/// The solve of [`solve_on`] in its table.
fn solve_in<R: Knowledge>(
    root: &R,
    opts: &SolveOptions,
    guide: Option<&dyn Guide<R>>,
    stop: Option<&AtomicBool>,
    table: &Table<'_>,
    start: Instant,
    threads: usize,
) -> Result<SolveResult> {
    let pns = opts.method == Method::ProofNumber;
    let proof_bytes = opts.table_bytes / threads;
    let proof_tables = Mutex::new((0usize, 0usize));
    let kept = Mutex::new(None);
    let symmetry = Symmetry::new(
        &opts.symmetries,
        root.board().num_sites(),
        root.num_players(),
    )?;
    let symmetry = symmetry.as_ref();
    let budget = Budget::new(opts.max_nodes, opts.time, stop);
    let mover = root.current_player().unwrap_or(0);
    let actions = root.legal_actions();
    let outcomes: Vec<AtomicU64> = actions.iter().map(|_| AtomicU64::new(u64::MAX)).collect();
    // A saved run: its entries go straight into the table (a damaged file is an error here,
    // before any search, and the table it was read into goes with this solve).
    let saved = match &opts.checkpoint {
        Some(c) => c.load(table)?,
        None => None,
    };
    if let (Some(saved), Some(c)) = (&saved, &opts.checkpoint) {
        let theirs: Vec<u32> = saved.iter().map(|&(a, _)| a).collect();
        if theirs != actions {
            return Err(Error::InvalidOption(format!(
                "solve: the checkpoint in {} is of a position with other legal actions; give \
                 another directory",
                c.dir.display()
            )));
        }
        for (o, &(_, v)) in outcomes.iter().zip(saved) {
            if let Some(v) = v {
                o.store((i64::from(v) + OFFSET) as u64, Ordering::Relaxed);
            }
        }
    }
    let proven_outcomes = || -> Vec<(u32, Option<i32>)> {
        actions
            .iter()
            .zip(&outcomes)
            .map(|(&a, o)| {
                let v = o.load(Ordering::Relaxed);
                (a, (v != u64::MAX).then_some((v as i64 - OFFSET) as i32))
            })
            .collect()
    };
    // The order in which the root's actions are taken up: `try_first`, then the guide's order,
    // else the actions'.
    let mut queue: Vec<usize> = (0..actions.len()).collect();
    if let Some(g) = guide {
        let mut scores = Vec::new();
        g.fork().rank(root, &actions, &mut scores);
        if scores.len() == actions.len() {
            queue.sort_by_key(|&i| (guide_key(scores[i]), actions[i]));
        }
    }
    queue.sort_by_key(|&i| {
        opts.try_first
            .iter()
            .position(|&a| a == actions[i])
            .unwrap_or(usize::MAX)
    });
    let won = |v: i32| opts.value_only && v == 1;
    if opts.value_only
        && outcomes
            .iter()
            .any(|o| o.load(Ordering::Relaxed) == (1 + OFFSET) as u64)
    {
        // A resumed run that had proven a win already.
        budget.halt(StoppedBy::Value);
    }
    let next = AtomicUsize::new(0);
    let run = |s: &mut dyn Exact<R>| {
        loop {
            let q = next.fetch_add(1, Ordering::Relaxed);
            if q >= actions.len() || budget.stopped() {
                break;
            }
            let i = queue[q];
            if outcomes[i].load(Ordering::Relaxed) != u64::MAX {
                // Proven by a run this one resumes.
                continue;
            }
            let mut child = root.clone();
            child.apply_unchecked(actions[i] as usize);
            match s.exact(&child, mover) {
                Some(v) => {
                    outcomes[i].store((i64::from(v) + OFFSET) as u64, Ordering::Relaxed);
                    if won(v) {
                        // The value is known: every thread stops.
                        budget.halt(StoppedBy::Value);
                        break;
                    }
                }
                None => break,
            }
        }
        s.flush();
    };
    let order = match opts.order {
        Order::Auto if root.solver_knowledge() => Order::Knowledge,
        Order::Auto => Order::History,
        o => o,
    };
    let searcher = || {
        Searcher::<R>::new(
            table,
            &budget,
            symmetry,
            opts,
            root.num_actions(),
            order,
            guide.map(|g| g.fork()),
        )
    };
    // Every thread's prover is made before any search starts, so a table that cannot be had
    // is an error up front.
    let provers: Vec<Prover<R>> = if pns {
        (0..threads)
            .map(|_| Prover::<R>::new(proof_bytes, &budget, symmetry))
            .collect::<Result<_>>()?
    } else {
        Vec::new()
    };
    let provers = Mutex::new(provers);
    let work = |_: usize| {
        if pns {
            let Some(mut p) = provers.lock().unwrap_or_else(|e| e.into_inner()).pop() else {
                return;
            };
            run(&mut p);
            let mut t = proof_tables.lock().unwrap_or_else(|e| e.into_inner());
            t.0 += p.table_entries();
            t.1 += p.table_bytes();
            // One prover's table is kept for the perfect line, which asks again what it proved.
            let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
            if kept.is_none() {
                *kept = Some(p);
            }
        } else {
            run(&mut searcher());
        }
    };
    // The saver: a thread that saves the run every `every` while the others search.
    let done = AtomicBool::new(false);
    let save_error = Mutex::new(None);
    let saver = |c: &super::checkpoint::Checkpoint| {
        let mut last = Instant::now();
        while !done.load(Ordering::Relaxed) {
            std::thread::sleep(std::time::Duration::from_millis(50).min(c.every));
            if last.elapsed() >= c.every && !done.load(Ordering::Relaxed) {
                if let Err(e) = c.save(&proven_outcomes(), table) {
                    *save_error.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                    return;
                }
                last = Instant::now();
            }
        }
    };
    if threads == 1 && opts.checkpoint.is_none() {
        work(0);
    } else {
        std::thread::scope(|scope| {
            let saving = opts.checkpoint.as_ref().map(|c| {
                let saver = &saver;
                scope.spawn(move || saver(c))
            });
            let searchers: Vec<_> = (0..threads)
                .map(|t| {
                    let work = &work;
                    scope.spawn(move || work(t))
                })
                .collect();
            for h in searchers {
                if let Err(panic) = h.join() {
                    std::panic::resume_unwind(panic);
                }
            }
            done.store(true, Ordering::Relaxed);
            if let Some(h) = saving {
                if let Err(panic) = h.join() {
                    std::panic::resume_unwind(panic);
                }
            }
        });
    }
    let outcomes: Vec<Option<i32>> = outcomes
        .iter()
        .map(|o| {
            let v = o.load(Ordering::Relaxed);
            (v != u64::MAX).then_some((v as i64 - OFFSET) as i32)
        })
        .collect();
    let all = outcomes.iter().all(Option::is_some);
    let top = outcomes.iter().flatten().copied().max();
    // A proven win is the best there is, even with other actions unproven.
    let value = if all {
        top
    } else {
        top.filter(|&v| !opts.margin && v == 1)
    };
    let best: Vec<u32> = match value {
        Some(v) => actions
            .iter()
            .zip(&outcomes)
            .filter(|(_, o)| **o == Some(v))
            .map(|(&a, _)| a)
            .collect(),
        None => Vec::new(),
    };
    let stopped_by = if all { StoppedBy::Solved } else { budget.why() };
    let mut pv = Vec::new();
    if all {
        if pns {
            if let Some(mut p) = kept.lock().unwrap_or_else(|e| e.into_inner()).take() {
                pv = principal_line(&mut p, root, value.unwrap_or(0));
                p.flush();
            }
        } else {
            let mut s = searcher();
            pv = principal_line(&mut s, root, value.unwrap_or(0));
            s.flush();
        }
    }
    if let Some(c) = &opts.checkpoint {
        if let Some(e) = save_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(e);
        }
        c.save(&proven_outcomes(), table)?;
    }
    let (table_entries, table_bytes) = if pns {
        proof_tables.into_inner().unwrap_or_else(|e| e.into_inner())
    } else {
        (table.filled(), table.bytes())
    };
    Ok(SolveResult {
        value,
        actions,
        outcomes,
        best,
        pv,
        nodes: budget.nodes(),
        seconds: start.elapsed().as_secs_f64(),
        stopped_by,
        table_entries,
        table_bytes,
    })
}

/// One perfect line from `root`, whose value is `value`: at each position the lowest action
/// whose exact value equals the position's (found again through the table, so cheap), to the
/// end of the game. Cut short if the budget stops it.
fn principal_line<R: Rules>(s: &mut dyn Exact<R>, root: &R, value: i32) -> Vec<u32> {
    let mut line = Vec::new();
    let mut pos = root.clone();
    let mut v = value;
    let mut buf = Vec::new();
    while let Some(mover) = pos.current_player() {
        pos.legal_actions_into(&mut buf);
        let mut found = None;
        for &a in &buf {
            let mut child = pos.clone();
            child.apply_unchecked(a as usize);
            match s.exact(&child, mover) {
                Some(cv) if cv == v => {
                    found = Some((a, child));
                    break;
                }
                Some(_) => {}
                None => return line,
            }
        }
        let Some((a, child)) = found else {
            return line;
        };
        line.push(a);
        // The child's value for its own mover.
        if let Some(p) = child.current_player() {
            if p != mover {
                v = -v;
            }
        }
        pos = child;
    }
    line
}

#[cfg(test)]
mod tests;
