//! A slow reference implementation of the rules, written straight from their definitions over
//! plain arrays (no bit sets, nothing kept across moves), and random games checked against it.

use super::*;
use crate::games::options::{opt, value_names};

fn orth(board: &Board, s: usize) -> impl Iterator<Item = usize> + '_ {
    board.orth(s).iter().map(|&t| t as usize)
}

/// Player p's groups, each a list of sites.
pub fn groups_of(board: &Board, cells: &[i8], p: usize) -> Vec<Vec<usize>> {
    let n = cells.len();
    let colour = p as i8 + 1;
    let mut seen = vec![false; n];
    let mut out = Vec::new();
    for s in 0..n {
        if cells[s] != colour || seen[s] {
            continue;
        }
        let mut group = vec![s];
        seen[s] = true;
        let mut i = 0;
        while i < group.len() {
            let t = group[i];
            for u in orth(board, t) {
                if cells[u] == colour && !seen[u] {
                    seen[u] = true;
                    group.push(u);
                }
            }
            i += 1;
        }
        out.push(group);
    }
    out
}

/// hold(g): gap by pairs of members on a line, hull by cube bounds.
pub fn hold(board: &Board, kind: TerritoryKind, group: &[usize]) -> Vec<bool> {
    let n = board.num_sites();
    let mut out = vec![false; n];
    match kind {
        TerritoryKind::Gap => {
            for &a in group {
                for &b in group {
                    let (ca, cb) = (board.cube(a), board.cube(b));
                    for axis in 0..3 {
                        if a == b || ca[axis] != cb[axis] {
                            continue;
                        }
                        let o = (axis + 1) % 3;
                        for (s, held) in out.iter_mut().enumerate() {
                            let c = board.cube(s);
                            let between = c[o] > ca[o].min(cb[o]) && c[o] < ca[o].max(cb[o]);
                            if c[axis] == ca[axis] && between {
                                *held = true;
                            }
                        }
                    }
                }
            }
        }
        TerritoryKind::Hull => {
            let c0 = board.cube(group[0]);
            if (0..3).any(|k| group.iter().all(|&g| board.cube(g)[k] == c0[k])) {
                return out;
            }
            for (s, held) in out.iter_mut().enumerate() {
                let c = board.cube(s);
                *held = (0..3).all(|k| {
                    let lo = group.iter().map(|&g| board.cube(g)[k]).min();
                    let hi = group.iter().map(|&g| board.cube(g)[k]).max();
                    lo <= Some(c[k]) && Some(c[k]) <= hi
                });
            }
        }
    }
    out
}

/// T(p).
pub fn territory(board: &Board, kind: TerritoryKind, cells: &[i8], p: usize) -> Vec<bool> {
    let mut out = vec![false; cells.len()];
    for g in groups_of(board, cells, p) {
        for (o, h) in out.iter_mut().zip(hold(board, kind, &g)) {
            *o |= h;
        }
    }
    out
}

/// PS(p).
pub fn playable_sites(cfg: &Config, cells: &[i8], p: usize) -> Vec<bool> {
    let board = &cfg.board;
    let enemy = territory(board, cfg.rules.territory, cells, 1 - p);
    let own = p as i8 + 1;
    (0..cells.len())
        .map(|x| {
            cells[x] == 0
                && (!enemy[x]
                    || (cfg.rules.capture == Capture::GroupwiseReentry
                        && orth(board, x).any(|t| cells[t] == own)))
        })
        .collect()
}

/// Stones of p in blocked groups.
pub fn blocked(cfg: &Config, cells: &[i8], p: usize) -> Vec<bool> {
    let ps = playable_sites(cfg, cells, p);
    let mut out = vec![false; cells.len()];
    for g in groups_of(&cfg.board, cells, p) {
        if !g.iter().any(|&s| orth(&cfg.board, s).any(|t| ps[t])) {
            for s in g {
                out[s] = true;
            }
        }
    }
    out
}

/// The legal placements of p, by the tables of the rules.
pub fn legal(cfg: &Config, cells: &[i8], p: usize) -> Vec<u32> {
    let board = &cfg.board;
    let n = cells.len();
    let ps = playable_sites(cfg, cells, p);
    let groups = groups_of(board, cells, p);
    let mut group_of = vec![usize::MAX; n];
    for (i, g) in groups.iter().enumerate() {
        for &s in g {
            group_of[s] = i;
        }
    }
    let playable: Vec<bool> = groups
        .iter()
        .map(|g| g.iter().any(|&s| orth(board, s).any(|t| ps[t])))
        .collect();
    let m_abs = groups.iter().map(|g| g.len()).min();
    let m_play = (0..groups.len())
        .filter(|&i| playable[i])
        .map(|i| groups[i].len())
        .min();
    let m = match cfg.rules.adjacent {
        Adjacent::SmallestPlayable | Adjacent::SmallestPlayableOnly => m_play,
        _ => m_abs,
    };
    let own_nbrs = |x: usize| -> Vec<usize> {
        orth(board, x)
            .filter(|&t| group_of[t] != usize::MAX)
            .map(|t| groups[group_of[t]].len())
            .collect()
    };
    let create: Vec<usize> = (0..n)
        .filter(|&x| ps[x] && own_nbrs(x).is_empty())
        .collect();
    let extend: Vec<usize> = match m {
        None => Vec::new(),
        Some(m) => (0..n)
            .filter(|&x| {
                let sizes = own_nbrs(x);
                ps[x]
                    && !sizes.is_empty()
                    && match cfg.rules.adjacent {
                        Adjacent::SmallestPlayable | Adjacent::SmallestElseLose => {
                            sizes.contains(&m)
                        }
                        _ => sizes.iter().all(|&s| s == m),
                    }
            })
            .collect(),
    };
    let n_all = groups.len();
    let n_playable = playable.iter().filter(|&&b| b).count();
    let both = || {
        let mut v: Vec<usize> = create.iter().chain(extend.iter()).copied().collect();
        v.sort_unstable();
        v
    };
    let chosen = match cfg.rules.groups {
        Groups::MustCreateIfOnly1 if n_all < 2 => create.clone(),
        Groups::MustCreateIf1Playable if n_playable < 2 => create.clone(),
        Groups::PriorityIfOnly1 if n_all < 2 && !create.is_empty() => create.clone(),
        Groups::PriorityIf1Playable if n_playable < 2 && !create.is_empty() => create.clone(),
        Groups::PriorityAlways if !create.is_empty() => create.clone(),
        Groups::PriorityAlways => extend.clone(),
        _ => both(),
    };
    chosen.into_iter().map(|x| x as u32).collect()
}

/// The board after p places on x.
pub fn apply(cfg: &Config, cells: &[i8], p: usize, x: usize) -> Vec<i8> {
    let board = &cfg.board;
    let mut cells = cells.to_vec();
    let own = p as i8 + 1;
    let extends = orth(board, x).any(|t| cells[t] == own);
    cells[x] = own;
    if !extends {
        return cells;
    }
    let t = territory(board, cfg.rules.territory, &cells, p);
    match cfg.rules.capture {
        Capture::Piecewise => {
            for s in 0..cells.len() {
                if t[s] && cells[s] == 2 - p as i8 {
                    cells[s] = 0;
                }
            }
        }
        _ => {
            for g in groups_of(board, &cells, 1 - p) {
                if g.iter().all(|&s| t[s]) {
                    for s in g {
                        cells[s] = 0;
                    }
                }
            }
        }
    }
    cells
}

fn lcg(x: &mut u64) -> u64 {
    *x = x
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *x >> 33
}

/// Plays a random game with the engine, checking every position against the reference.
fn check_game(cfg: &Arc<Config>, seed: u64) {
    let mut x = seed;
    let mut state = State::new(cfg.clone());
    let mut cells = vec![0i8; cfg.board.num_sites()];
    let mut p = 0;
    loop {
        assert_eq!(state.cells(), &cells[..]);
        for q in 0..2 {
            let kind = cfg.rules.territory;
            assert_eq!(state.territory(q), territory(&cfg.board, kind, &cells, q));
            assert_eq!(state.blocked_stones(q), blocked(cfg, &cells, q));
            assert_eq!(state.playable_sites(q), playable_sites(cfg, &cells, q));
            let mut expect: Vec<Vec<u16>> = groups_of(&cfg.board, &cells, q)
                .into_iter()
                .map(|mut g| {
                    g.sort_unstable();
                    g.into_iter().map(|s| s as u16).collect()
                })
                .collect();
            expect.sort_unstable();
            assert_eq!(state.groups(q), expect);
        }
        let expect = legal(cfg, &cells, p);
        if expect.is_empty() {
            assert!(state.is_terminal());
            assert!(!state.truncated());
            let mut ranks = vec![1.0, 1.0];
            ranks[p] = 2.0;
            assert_eq!(state.ranks(), Some(ranks));
            return;
        }
        if state.move_count() == cfg.max_moves {
            assert!(state.truncated() && state.is_terminal());
            return;
        }
        assert_eq!(state.current_player(), Some(p));
        assert_eq!(state.legal_actions(), expect, "{:?} {cells:?}", cfg.rules);
        let a = expect[(lcg(&mut x) as usize) % expect.len()] as usize;
        state.apply(a as i64).expect("legal");
        cells = apply(cfg, &cells, p, a);
        p = 1 - p;
    }
}

fn every_rule() -> Vec<[&'static str; 4]> {
    let mut v = Vec::new();
    for g in &value_names(OPTIONS, "groups") {
        for a in &value_names(OPTIONS, "adjacent") {
            for t in &value_names(OPTIONS, "territory") {
                for c in &value_names(OPTIONS, "capture") {
                    v.push([*g, *a, *t, *c]);
                }
            }
        }
    }
    v
}

fn config_of(board: &str, rule: [&str; 4]) -> Arc<Config> {
    Arc::new(
        Config::new(&[
            opt("board", board),
            opt("groups", rule[0]),
            opt("adjacent", rule[1]),
            opt("territory", rule[2]),
            opt("capture", rule[3]),
        ])
        .expect("valid"),
    )
}

#[test]
fn every_rule_combination_agrees_with_the_reference_on_small_boards() {
    for (i, rule) in every_rule().into_iter().enumerate() {
        for board in ["hex3", "hex232323", "hex4"] {
            let cfg = config_of(board, rule);
            for seed in 0..3 {
                check_game(&cfg, 1000 * i as u64 + seed);
            }
        }
    }
}

#[test]
fn wider_boards_agree_with_the_reference() {
    // One word (hex454545: 48 cells), two (hex7), four (hex9) and eight (hex10).
    let rules = every_rule();
    for (k, board) in ["hex454545", "hex343434", "hex5", "hex7", "hex9", "hex10"]
        .into_iter()
        .enumerate()
    {
        for j in 0..3 {
            let rule = rules[(37 * k + 53 * j) % rules.len()];
            check_game(&config_of(board, rule), (k * 10 + j) as u64);
        }
    }
}

#[test]
fn the_widest_bit_sets_agree_with_the_reference() {
    // hex15 (631 cells) takes sixteen words; the first 60 moves of a few games.
    for (j, ruleset) in value_names(OPTIONS, "ruleset").iter().enumerate() {
        let cfg = Arc::new(
            Config::new(&[
                opt("board", "hex15"),
                opt("ruleset", *ruleset),
                opt("max_moves", 60i64),
            ])
            .expect("valid"),
        );
        check_game(&cfg, j as u64);
    }
}

#[test]
fn the_named_rulesets_agree_with_the_reference() {
    for name in &value_names(OPTIONS, "ruleset") {
        let cfg = Arc::new(Config::new(&[opt("ruleset", *name)]).expect("valid"));
        for seed in 0..20 {
            check_game(&cfg, seed);
        }
    }
}
