//! The enumeration on hand-made graphs (so the cycle detector is known to fire) and on games.

use super::*;
use crate::games::{Game, Rules};

/// A hand-made graph: node i has the listed children (action k leads to `edges[i][k]`); nodes
/// without children are finished, won by the player who moved into them. Two players alternate.
struct Hand {
    edges: Vec<Vec<usize>>,
}

impl Explore for Hand {
    /// (node, player to move).
    type Node = (usize, usize);
    fn code(&self, n: &(usize, usize)) -> Result<u64> {
        Ok((n.0 * 2 + n.1) as u64)
    }
    fn mover(&self, n: &(usize, usize)) -> Option<usize> {
        (!self.edges[n.0].is_empty()).then_some(n.1)
    }
    fn actions(&self, n: &(usize, usize), out: &mut Vec<u32>) {
        out.clear();
        out.extend(0..self.edges[n.0].len() as u32);
    }
    fn child(&self, n: &(usize, usize), a: u32) -> (usize, usize) {
        (self.edges[n.0][a as usize], 1 - n.1)
    }
    fn outcome(&self, n: &(usize, usize), player: usize) -> i8 {
        // The player to move at a finished node lost.
        if player == n.1 {
            -1
        } else {
            1
        }
    }
    fn players(&self) -> usize {
        2
    }
    /// Codes are the player to move plus twice the node: a direct table has a slab a node.
    fn boards(&self) -> Option<u64> {
        Some(2)
    }
}

const KINDS: [TableKind; 3] = [TableKind::Auto, TableKind::Direct, TableKind::Hashed];

#[test]
fn a_cycle_is_found_and_returns_to_the_line() {
    // 0 → 1 → 2 → 3 → 0 (with the players alternating, node 0 comes back with player 0 to move
    // after four actions), and 2 → 4 (finished).
    let h = Hand {
        edges: vec![vec![1], vec![2], vec![4, 3], vec![0], vec![]],
    };
    for kind in KINDS {
        let g = enumerate_with(&h, &(0, 0), None, 1 << 20, None, kind).expect("runs");
        let cycle = g.cycle.expect("a cycle");
        assert_eq!(cycle, vec![0, 0, 1, 0]);
        let mut n = (0, 0);
        for &a in &cycle {
            n = h.child(&n, a);
        }
        assert_eq!(n, (0, 0));
        assert_eq!(g.value, None);
        assert_eq!(g.longest, None);
        assert_eq!(g.stopped_by, GraphStop::Complete);
    }
}

#[test]
fn an_acyclic_graph_gets_its_values_and_longest_game() {
    // 0 → {1, 2}; 1 → 3 (finished: player 0 to move there loses); 2 → {3', 4}.
    let h = Hand {
        edges: vec![vec![1, 2], vec![3], vec![5, 4], vec![], vec![5], vec![]],
    };
    for kind in KINDS {
        let g = enumerate_with(&h, &(0, 0), None, 1 << 20, None, kind).expect("runs");
        assert_eq!(g.cycle, None);
        // Lines: 0-1-3 (p1 moves into 3 with p0 to move: p0 loses); 0-2-5 (p1 moves into 5, p0
        // to move there loses); 0-2-4-5 (p0 moves into 5: p0 wins). At 2, p1 picks 5: p0 loses
        // everywhere.
        assert_eq!(g.value, Some(-1));
        assert_eq!(g.longest, Some(3));
        // Nodes with players: (0,0) (1,1) (2,1) (3,0) (5,0) (4,0) (5,1).
        assert_eq!(g.positions, 7);
        assert_eq!(g.edges, 2 + 1 + 2 + 1);
    }
}

/// The direct table and the hash table give the same graph, whole or cut short, and a direct
/// table without room for one slab stops by memory.
#[test]
fn direct_and_hashed_tables_agree() {
    /// A game, its options and a limit on positions.
    type Case = (&'static str, Vec<(String, OptionValue)>, Option<u64>);
    let cases: [Case; 3] = [
        (
            "smallholder",
            vec![("board".into(), "hex232323".into())],
            None,
        ),
        (
            "windflowers",
            vec![("size".into(), 3i64.into())],
            Some(300_000),
        ),
        (
            "windflowers",
            vec![
                ("size".into(), 3i64.into()),
                ("last_placer_breaks_ties".into(), true.into()),
            ],
            Some(300_000),
        ),
    ];
    for (name, options, limit) in cases {
        let game = uncapped(&Game::make(name, &options).expect("valid")).expect("valid");
        let results: Vec<StateGraph> = [TableKind::Direct, TableKind::Hashed]
            .into_iter()
            .map(|kind| {
                crate::games::each_state!(game.new_state(), s => {
                    let g = GameGraph::new(&s).expect("fits");
                    enumerate_with(&g, &s, limit, 1 << 30, None, kind).expect("runs")
                })
            })
            .collect();
        let (d, h) = (&results[0], &results[1]);
        assert_eq!(
            (
                d.positions,
                d.edges,
                d.longest,
                &d.cycle,
                d.value,
                d.stopped_by
            ),
            (
                h.positions,
                h.edges,
                h.longest,
                &h.cycle,
                h.value,
                h.stopped_by
            ),
            "{name} {options:?}"
        );
        assert!(d.positions > 1000);
    }
    let game = Game::make("windflowers", &[("size".into(), 3i64.into())]).expect("valid");
    let s = match game.new_state() {
        crate::games::State::Windflowers(s) => s,
        _ => unreachable!(),
    };
    let g = GameGraph::new(&s).expect("fits");
    let r = enumerate_with(&g, &s, None, 1 << 10, None, TableKind::Direct).expect("runs");
    assert_eq!((r.stopped_by, r.positions), (GraphStop::Memory, 0));
}

#[test]
fn limits_stop_with_a_partial_result() {
    let game = Game::make("windflowers", &[("size".into(), 3i64.into())]).expect("valid");
    let g = state_graph(&game, Some(1000), 1 << 30, None).expect("runs");
    assert_eq!(g.stopped_by, GraphStop::MaxPositions);
    assert_eq!(g.positions, 1000);
    assert_eq!((g.value, g.longest), (None, None));
    let g = state_graph(&game, None, 1 << 16, None).expect("runs");
    assert_eq!(g.stopped_by, GraphStop::Memory);
    let stop = AtomicBool::new(true);
    let g = state_graph(&game, None, 1 << 30, Some(&stop)).expect("runs");
    assert_eq!(g.stopped_by, GraphStop::Interrupted);
}

/// Windflowers cycles on the smallest board: a replacement undone by a replacement back. The
/// cycle found replays to a position already on its line.
#[test]
fn windflowers_cycles_replay() {
    let game = Game::make("windflowers", &[("size".into(), 3i64.into())]).expect("valid");
    let g = state_graph(&game, Some(200_000), 1 << 30, None).expect("runs");
    if let Some(cycle) = g.cycle {
        let mut s = uncapped(&game).expect("valid").new_state();
        let mut seen = vec![(s.cells().to_vec(), s.key())];
        for &a in &cycle {
            s.apply(i64::from(a)).expect("legal");
            seen.push((s.cells().to_vec(), s.key()));
        }
        let last = seen.last().expect("non-empty").clone();
        assert!(seen[..seen.len() - 1].contains(&last));
    }
}

/// Windflowers tells a child's code and mover without making it ([`Peek::peek_child`]): on
/// random positions of every grid, player count and turn-number option, and with a move cap
/// that ends games, each legal action's peek is the made child's changed cell, code and mover,
/// and `None` exactly when the action ends the game; the peeks of all actions at once
/// ([`Peek::peek_each`]) are the peeks one at a time.
#[test]
fn windflowers_peeks_are_the_children() {
    let mut checked = 0;
    for grid in ["trisquare", "square", "hex"] {
        for players in 2..=4i64 {
            for last_placer in [false, true] {
                let options: Vec<(String, OptionValue)> = vec![
                    ("grid".into(), grid.into()),
                    ("size".into(), 3i64.into()),
                    ("players".into(), players.into()),
                    ("last_placer_breaks_ties".into(), last_placer.into()),
                    ("max_moves".into(), 40i64.into()),
                ];
                let game = Game::make("windflowers", &options).expect("valid");
                let mut rng = crate::rng::Rng::new(players as u64 * 10 + u64::from(last_placer));
                let (mut buf, mut actions, mut peeks) = (Vec::new(), Vec::new(), Vec::new());
                for _ in 0..20 {
                    let crate::games::State::Windflowers(mut s) = game.new_state() else {
                        unreachable!()
                    };
                    let g = GameGraph::new(&s).expect("fits");
                    while s.current_player().is_some() {
                        // Four players with last placers on 16 points: not every code fits.
                        let Ok(code) = g.code(&s) else {
                            let a = s.random_action(&mut rng, &mut buf).expect("running");
                            s.apply_unchecked(a);
                            continue;
                        };
                        s.legal_actions_into(&mut actions);
                        g.peek_children(&s, code, &actions, &mut peeks);
                        assert_eq!(peeks.len(), actions.len());
                        let mut each = Vec::new();
                        s.peek_each(&actions, |p| each.push(p));
                        assert_eq!(each.len(), actions.len());
                        for ((&a, &peek), &told_together) in actions.iter().zip(&peeks).zip(&each) {
                            let child = g.child(&s, a);
                            let told = s.peek_child(a as usize);
                            assert_eq!(told, told_together, "{options:?} action {a}");
                            match child.current_player() {
                                None => assert_eq!((told, peek), (None, None)),
                                Some(m) => {
                                    let told = told.expect("a going game is told");
                                    let changed: Vec<(usize, i8)> = (0..s.cells().len())
                                        .filter(|&i| s.cells()[i] != child.cells()[i])
                                        .map(|i| (i, child.cells()[i]))
                                        .collect();
                                    assert_eq!(changed, told.cell.into_iter().collect::<Vec<_>>());
                                    assert_eq!(Some(told.turn_number), child.key_turn_number());
                                    assert_eq!(told.mover, m);
                                    let code = g.code(&child).ok().map(|c| (c, m));
                                    assert_eq!(peek, code, "{options:?} action {a}");
                                    checked += usize::from(code.is_some());
                                }
                            }
                        }
                        let a = s.random_action(&mut rng, &mut buf).expect("running");
                        s.apply_unchecked(a);
                    }
                }
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

/// A graph that makes every child (no peeking), to hold the peeking walk to the plain one.
struct Made<'g, G>(&'g G);

impl<G: Explore> Explore for Made<'_, G> {
    type Node = G::Node;
    fn code(&self, n: &G::Node) -> Result<u64> {
        self.0.code(n)
    }
    fn mover(&self, n: &G::Node) -> Option<usize> {
        self.0.mover(n)
    }
    fn actions(&self, n: &G::Node, out: &mut Vec<u32>) {
        self.0.actions(n, out)
    }
    fn child(&self, n: &G::Node, a: u32) -> G::Node {
        self.0.child(n, a)
    }
    fn outcome(&self, n: &G::Node, player: usize) -> i8 {
        self.0.outcome(n, player)
    }
    fn players(&self) -> usize {
        self.0.players()
    }
    fn boards(&self) -> Option<u64> {
        self.0.boards()
    }
}

/// Peeking at the children changes nothing about the graph: whole two-player graphs (values
/// and longest games) and partial ones of three and four players.
#[test]
fn peeking_gives_the_same_graph() {
    let cases: [(&str, i64, bool, Option<u64>); 6] = [
        ("hex", 2, false, Some(400_000)),
        ("trisquare", 2, true, Some(400_000)),
        ("trisquare", 3, false, Some(200_000)),
        ("square", 4, false, Some(200_000)),
        ("trisquare", 4, true, Some(100_000)),
        ("trisquare", 2, false, Some(2_000)),
    ];
    for (grid, players, last_placer, limit) in cases {
        let options: Vec<(String, OptionValue)> = vec![
            ("grid".into(), grid.into()),
            ("size".into(), 3i64.into()),
            ("players".into(), players.into()),
            ("last_placer_breaks_ties".into(), last_placer.into()),
        ];
        let game = uncapped(&Game::make("windflowers", &options).expect("valid")).expect("valid");
        let crate::games::State::Windflowers(s) = game.new_state() else {
            unreachable!()
        };
        let g = GameGraph::new(&s).expect("fits");
        for kind in [TableKind::Direct, TableKind::Hashed] {
            let peeked = enumerate_with(&g, &s, limit, 1 << 30, None, kind).expect("runs");
            let made = enumerate_with(&Made(&g), &s, limit, 1 << 30, None, kind).expect("runs");
            let seen = |r: &StateGraph| {
                (
                    r.positions,
                    r.edges,
                    r.longest,
                    r.cycle.clone(),
                    r.value,
                    r.stopped_by,
                )
            };
            assert_eq!(seen(&peeked), seen(&made), "{options:?} {kind:?}");
        }
    }
}

/// Whole graphs from positions late in a game (ten stones on the 14 points of trisquare 3),
/// two and three players: the peeking walk finds the same positions, value and longest game.
#[test]
fn whole_peeked_graphs_have_the_same_values() {
    let mut valued = 0;
    for players in [2i64, 3] {
        let options: Vec<(String, OptionValue)> = vec![
            ("size".into(), 3i64.into()),
            ("players".into(), players.into()),
        ];
        let game = uncapped(&Game::make("windflowers", &options).expect("valid")).expect("valid");
        for seed in 0..4 {
            let mut rng = crate::rng::Rng::new(seed);
            let crate::games::State::Windflowers(mut s) = game.new_state() else {
                unreachable!()
            };
            let mut buf = Vec::new();
            while s.cells().iter().filter(|&&c| c != 0).count() < 10 {
                let a = s.random_action(&mut rng, &mut buf).expect("running");
                s.apply_unchecked(a);
            }
            let g = GameGraph::new(&s).expect("fits");
            let peeked = enumerate(&g, &s, None, 1 << 30, None).expect("runs");
            let made = enumerate(&Made(&g), &s, None, 1 << 30, None).expect("runs");
            assert_eq!(
                peeked,
                StateGraph {
                    seconds: peeked.seconds,
                    ..made.clone()
                },
                "{players} players, seed {seed}"
            );
            assert_eq!(peeked.stopped_by, GraphStop::Complete);
            assert!(peeked.positions > 1000 && peeked.longest.is_some());
            valued += usize::from(peeked.value.is_some());
        }
    }
    assert_eq!(valued, 4);
}

#[test]
fn the_direct_tables_place_is_the_quotient_and_remainder() {
    let mut rng = crate::rng::Rng::new(7);
    for boards in [
        1u64,
        2,
        3,
        7,
        3u64.pow(14),
        4u64.pow(19),
        5u64.pow(18),
        (1 << 44) - 1,
    ] {
        let d = Direct::new(boards, 0);
        let top = (1u64 << 48) - 1;
        let mut codes = vec![
            0,
            1,
            boards - 1,
            boards,
            boards + 1,
            top,
            top - top % boards,
        ];
        codes.extend((1..40).map(|t| t * boards - 1).filter(|&c| c <= top));
        codes.extend((0..1000).map(|_| rng.next_u64() & top));
        for code in codes {
            let want = ((code / boards) as usize, (code % boards) as usize);
            assert_eq!(d.place(code), want, "code {code}, boards {boards}");
        }
    }
}

#[test]
fn slabs_start_zeroed_and_keep_what_is_set() {
    let mut s = Slab::zeroed(100_003).expect("memory");
    assert!((0..100_003).all(|i| s.get(i) == 0));
    for i in (0..100_003).step_by(97) {
        s.set(i, (i as u16).wrapping_mul(31) | 1);
        s.prefetch(i);
    }
    for i in 0..100_003 {
        let want = if i % 97 == 0 {
            (i as u16).wrapping_mul(31) | 1
        } else {
            0
        };
        assert_eq!(s.get(i), want);
    }
}
