//! The enumeration on hand-made graphs (so the cycle detector is known to fire) and on games.

use super::*;
use crate::games::Game;

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
}

#[test]
fn a_cycle_is_found_and_returns_to_the_line() {
    // 0 → 1 → 2 → 3 → 0 (with the players alternating, node 0 comes back with player 0 to move
    // after four actions), and 2 → 4 (finished).
    let h = Hand {
        edges: vec![vec![1], vec![2], vec![4, 3], vec![0], vec![]],
    };
    let g = enumerate(&h, &(0, 0), None, 1 << 20, None).expect("runs");
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

#[test]
fn an_acyclic_graph_gets_its_values_and_longest_game() {
    // 0 → {1, 2}; 1 → 3 (finished: player 0 to move there loses); 2 → {3', 4}.
    let h = Hand {
        edges: vec![vec![1, 2], vec![3], vec![5, 4], vec![], vec![5], vec![]],
    };
    let g = enumerate(&h, &(0, 0), None, 1 << 20, None).expect("runs");
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
