//! The driver: a search over threads, its seeds and the checks of its root.

use super::*;

/// Mixes a search's seed with the position, so that consecutive searches of one game draw
/// different numbers while staying a pure function of (state, seed).
pub(in crate::search) fn position_seed<R: Rules>(state: &R, seed: u64) -> u64 {
    let mut h = 0xCBF2_9CE4_8422_2325u64 ^ seed;
    h = (h ^ state.move_count() as u64).wrapping_mul(0x0100_0000_01B3);
    for &c in state.cells() {
        h = (h ^ c as u8 as u64).wrapping_mul(0x0100_0000_01B3);
    }
    h ^= u64::from(state.current_player().map_or(255, |p| p as u8));
    h.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The action of a random agent with `seed` in `state`: uniformly random, and a pure function
/// of the position and the seed.
pub fn random_agent_action(state: &State, seed: u64) -> Result<u32> {
    check_state(state)?;
    let mut rng = Rng::new(each_state!(state, s => position_seed(s, seed)));
    state
        .random_action(&mut rng, &mut Vec::new())
        .map(|a| a as u32)
        .ok_or_else(|| {
            GameOver {
                game: state.game_name(),
                asked: Asked::Move,
            }
            .into()
        })
}

/// Searches `root` with `trees` (one per thread, possibly carried over from an earlier search)
/// and reports the summed root statistics.
pub(super) fn search_typed<R: Knowledge>(
    root: &R,
    cfg: &MctsConfig,
    trees: &mut [Tree],
    started: Instant,
    stop: Option<&AtomicBool>,
    node_cap: usize,
) -> Result<SearchResult> {
    let k = trees.len();
    let per_thread_nodes = cfg.max_nodes.min(node_cap) / k;
    let legal = root.legal_actions();
    if legal.len() + 1 > per_thread_nodes {
        return Err(Error::InvalidOption(format!(
            "MCTS max_nodes: {} node(s) per thread cannot hold this root and its {} children",
            per_thread_nodes,
            legal.len()
        )));
    }
    let total_iters = cfg.iterations.unwrap_or(u64::MAX);
    // A budget too far in the future for the clock (about 9.2e18 s or more) is no limit.
    let deadline = cfg.time.and_then(|t| {
        std::time::Duration::try_from_secs_f64(t)
            .ok()
            .and_then(|d| started.checked_add(d))
    });
    let solver = cfg.solver_for(root.num_players());
    let seed = position_seed(root, cfg.seed);
    let limits = |t: usize| Limits {
        stop,
        iterations: if total_iters == u64::MAX {
            u64::MAX
        } else {
            total_iters / k as u64 + u64::from((t as u64) < total_iters % k as u64)
        },
        deadline,
        max_nodes: per_thread_nodes,
        c: cfg.c,
        solver,
        selection: cfg.selection,
        grave_ref: cfg.grave_ref,
        grave_bias: cfg.grave_bias,
        playouts: cfg.playouts,
    };
    let outcomes: Vec<ThreadOutcome> = if k == 1 {
        let mut rng = Rng::stream(seed, 0);
        vec![trees[0].run(root, &limits(0), &mut rng)]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = trees
                .iter_mut()
                .enumerate()
                .map(|(t, tree)| {
                    let lim = limits(t);
                    scope.spawn(move || {
                        let mut rng = Rng::stream(seed, t as u64);
                        tree.run(root, &lim, &mut rng)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| match h.join() {
                    Ok(o) => o,
                    Err(e) => std::panic::resume_unwind(e),
                })
                .collect()
        })
    };
    let seconds = started.elapsed().as_secs_f64();
    Ok(summarise(root, &legal, trees, &outcomes, solver, seconds))
}

/// Checks that a state can be searched.
pub(in crate::search) fn check_state(state: &State) -> Result<()> {
    if state.is_terminal() {
        return Err(GameOver {
            game: state.game_name(),
            asked: Asked::Search,
        }
        .into());
    }
    if state.num_actions() > usize::from(u16::MAX) + 1 {
        return Err(Error::InvalidOption(format!(
            "MCTS handles at most {} actions; this game has {}",
            usize::from(u16::MAX) + 1,
            state.num_actions()
        )));
    }
    Ok(())
}

/// Searches `state` once with `cfg` (a fresh tree; see [`Mcts`] for tree reuse).
pub fn search(state: &State, cfg: &MctsConfig) -> Result<SearchResult> {
    Mcts::new(MctsConfig {
        reuse: false,
        ..cfg.clone()
    })?
    .search(state, &[])
}
