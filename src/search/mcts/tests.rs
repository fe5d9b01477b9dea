//! The AMAF update and GRAVE's choice, on trees made by hand.

use super::*;

/// A tree by hand: the root (player 0 to move) with children on sites 0, 1, 2; the child on
/// 0 (player 1 to move there) with children on sites 1 and 2.
fn tree() -> Tree {
    let mut nodes = vec![Node::new(0, 0)];
    nodes[0].first = 1;
    nodes[0].len = 3;
    nodes.extend([0u16, 1, 2].map(|a| Node::new(a, 0)));
    nodes[1].first = 4;
    nodes[1].len = 2;
    nodes.extend([1u16, 2].map(|a| Node::new(a, 1)));
    let amaf = vec![Amaf::default(); nodes.len()];
    Tree { nodes, amaf }
}

fn scratch(players: usize, sites: usize) -> Scratch {
    // The sites and a pass.
    let actions = sites + 1;
    Scratch {
        path: Vec::new(),
        buf: Vec::new(),
        ranks: vec![0.0; players],
        returns: vec![0.0; players],
        played: Vec::new(),
        actions,
        seen: vec![0; players * actions],
        stamp: 0,
        dense: vec![Amaf::default(); players * actions],
        dense_of: vec![usize::MAX; players],
        mast: vec![MastStat::default(); players * actions],
    }
}

#[test]
fn amaf_counts_each_later_action_of_the_chooser_once() {
    let mut t = tree();
    let mut s = scratch(2, 19);
    // The iteration went root → site 0 (player 0) → site 1 (player 1), then the playout
    // played player 0 on site 2, player 1 on site 0, player 0 on site 2 again (a
    // replacement, say) and a pass (action 19, no AMAF statistics); player 0 won.
    s.path = vec![0, 1, 4];
    s.played = vec![(0, 2), (1, 0), (0, 2), (0, 19)];
    s.returns = vec![1.0, -1.0];
    t.update_amaf(&mut s, 19);
    let got: Vec<(f32, u32)> = t.amaf.iter().map(|a| (a.value, a.visits)).collect();
    assert_eq!(
        got,
        vec![
            (0.0, 0),  // the root: no statistics of its own
            (1.0, 1),  // site 0 by player 0 at the root: played (in the tree)
            (0.0, 0),  // site 1 by player 0: only player 1 played it
            (1.0, 1),  // site 2 by player 0: played twice in the playout, counted once
            (-1.0, 1), // site 1 by player 1 below the child: played, player 1 lost
            (0.0, 0),  // site 2 by player 1: only player 0 played it
        ]
    );
    // A second iteration through the root only: root → site 2, playout player 1 on 1.
    s.path = vec![0, 3];
    s.played = vec![(1, 1)];
    s.returns = vec![-1.0, 1.0];
    t.update_amaf(&mut s, 19);
    assert_eq!((t.amaf[3].value, t.amaf[3].visits), (0.0, 2));
    assert_eq!((t.amaf[2].value, t.amaf[2].visits), (0.0, 0));
    assert_eq!((t.amaf[1].value, t.amaf[1].visits), (1.0, 1));
}

#[test]
fn the_reference_row_reads_by_action_and_follows_the_updates() {
    let mut t = tree();
    let mut s = scratch(2, 19);
    // The root's children hold sites 0, 1, 2 in the order 2, 0, 1 (tried ones swapped
    // forward); the child on 0 (now at index 2) has children on 1 and 2.
    t.nodes.swap(1, 3);
    t.nodes.swap(2, 3);
    t.amaf[1] = Amaf {
        value: 2.0,
        visits: 3,
    };
    t.amaf[2] = Amaf {
        value: -1.0,
        visits: 1,
    };
    t.load_dense(&mut s, 0, 0);
    let row = |s: &Scratch, p: usize| -> Vec<(f32, u32)> {
        s.dense[p * s.actions..p * s.actions + 3]
            .iter()
            .map(|a| (a.value, a.visits))
            .collect()
    };
    assert_eq!(row(&s, 0), vec![(-1.0, 1), (0.0, 0), (2.0, 3)]);
    // An update through the root keeps the row equal to the children's statistics: root →
    // site 0 (index 2), then player 0 plays site 1 in the playout and wins.
    t.nodes[2].first = 4;
    t.nodes[2].len = 2;
    s.path = vec![0, 2];
    s.played = vec![(0, 1)];
    s.returns = vec![1.0, -1.0];
    t.update_amaf(&mut s, 19);
    assert_eq!(row(&s, 0), vec![(0.0, 2), (1.0, 1), (2.0, 3)]);
    let by_action = |t: &Tree, a: u16| -> (f32, u32) {
        let i = (1..4).find(|&i| t.nodes[i].action == a).expect("a child");
        (t.amaf[i].value, t.amaf[i].visits)
    };
    assert_eq!(
        (0..3).map(|a| by_action(&t, a)).collect::<Vec<_>>(),
        row(&s, 0)
    );
    // Another reference for player 0 clears the row first: node 2's children (sites 1, 2).
    t.amaf[4] = Amaf {
        value: 0.5,
        visits: 2,
    };
    t.load_dense(&mut s, 0, 2);
    assert_eq!(row(&s, 0), vec![(0.0, 0), (0.5, 2), (0.0, 0)]);
    assert_eq!(s.dense_of, vec![2, usize::MAX]);
}

#[test]
fn grave_mixes_by_the_beta_schedule_and_ranks_untried_children_by_amaf() {
    let mut t = tree();
    let lim = Limits {
        stop: None,
        iterations: 1,
        deadline: None,
        max_nodes: 100,
        c: 0.0,
        solver: false,
        selection: Selection::Grave,
        grave_ref: 1,
        grave_bias: 0.0,
        playouts: Playouts::Random,
    };
    let mut s = scratch(2, 19);
    // Site 0: tried, mean 0.5 over 10, AMAF mean 0 over 30: β = 30 / 40, score 0.125.
    // Site 1: tried, mean 0 over 10, AMAF mean 0.2 over 10: β = 1/2, score 0.1.
    // Site 2: untried, AMAF mean 0.15 over 20: scores 0.15 and is chosen.
    t.nodes[0].visits = 20;
    t.nodes[0].tried = 2;
    t.nodes[1].visits = 10;
    t.nodes[1].value = 5.0;
    t.nodes[2].visits = 10;
    t.amaf[1] = Amaf {
        value: 0.0,
        visits: 30,
    };
    t.amaf[2] = Amaf {
        value: 2.0,
        visits: 10,
    };
    t.amaf[3] = Amaf {
        value: 3.0,
        visits: 20,
    };
    let mut rng = Rng::new(0);
    assert_eq!(t.select_grave(0, 0, &lim, &mut rng, &mut s), 3);
    assert_eq!(t.nodes[0].tried, 3);
    // With a weaker AMAF mean for site 2 (0.1 < 0.125) site 0 wins.
    let mut t2 = tree();
    t2.nodes = t.nodes.clone();
    t2.amaf = t.amaf.clone();
    t2.nodes[0].tried = 2;
    t2.amaf[3].value = 2.0;
    assert_eq!(t2.select_grave(0, 0, &lim, &mut rng, &mut s), 1);
    // A reference above (the mechanism only: the search takes as references only nodes
    // where the same player chooses): the child on site 0 reads the AMAF
    // statistics of sites 1 and 2 at the root's children instead of its own.
    let mut t3 = tree();
    t3.nodes[1].visits = 5;
    t3.amaf[2] = Amaf {
        value: -1.0,
        visits: 4,
    };
    t3.amaf[3] = Amaf {
        value: 2.0,
        visits: 4,
    };
    assert_eq!(t3.select_grave(1, 0, &lim, &mut rng, &mut s), 4);
    assert_eq!(
        t3.nodes[4].action, 2,
        "site 2 has the better AMAF mean at the root"
    );
}
