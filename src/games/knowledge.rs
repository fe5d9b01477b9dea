//! What a game tells the tools that drive it, beyond its rules: opt-in traits over [`Rules`],
//! each with defaults built on the rules, so that the rules trait stays the rules.
//!
//! * [`Peek`] serves the state graph of small boards: a position's children's position codes
//!   without making the children.
//! * [`Knowledge`] serves the searches and the exact solver: cheap game knowledge for playouts
//!   and move order, and the playout loop that applies it.
//! * [`Footprint`] serves memory estimates and limits: the bytes a state owns on the heap.
//!
//! Each game's overrides live in `<game>/knowledge.rs`, beside its rules file and apart from it
//! (as its [`Measure`](super::Measure) overrides live in `<game>/measure.rs`). None of them
//! changes how a game plays: a peek must tell what applying the action tells, a knowledge
//! playout must draw what [`Rules::random_action`] draws, and a score changes which of two drawn
//! actions is played, never which are legal.

use super::Rules;
use crate::rng::Rng;

/// What an action would make of a position, without making it ([`Peek::peek_child`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChildPeek {
    /// The cell that changes and its new value (0 empty, k a stone of player k − 1), if any.
    pub cell: Option<(usize, i8)>,
    /// The child's [`Peek::key_turn_number`].
    pub turn_number: u64,
    /// The child's player to move (the game goes on).
    pub mover: usize,
}

/// Cheap looks one move ahead, for the state graph, which codes a position as its board and its
/// key's turn number and makes its children's codes from these answers. The defaults say
/// "cannot tell", and the graph then makes each child.
pub trait Peek: Rules {
    /// The turn number of [`Rules::key`] (the key is its board part xor
    /// [`zobrist::turn`](super::zobrist::turn) of this number), for a game that keeps it at
    /// hand; `None` where it must be read from the key
    /// ([`zobrist::turn_number`](super::zobrist::turn_number)).
    fn key_turn_number(&self) -> Option<u64> {
        None
    }

    /// What [`Rules::apply_unchecked`] of the legal `action` would make of the position, told
    /// without applying it, for a game that can tell cheaply: the one cell it changes (if any),
    /// the child's [`Peek::key_turn_number`] and its player to move. `None` when the game cannot
    /// say, the action changes more than one cell, or it ends the game.
    fn peek_child(&self, _action: usize) -> Option<ChildPeek> {
        None
    }

    /// [`Peek::peek_child`] of each of the legal `actions` in turn, handed to `f`; a game whose
    /// actions share most of their answer (Windflowers: every placement the same turn number and
    /// mover) works that out once.
    fn peek_each<F: FnMut(Option<ChildPeek>)>(&self, actions: &[u32], mut f: F) {
        for &a in actions {
            f(self.peek_child(a as usize));
        }
    }
}

/// Cheap game knowledge, for the searches (knowledge and MAST playouts) and the exact solver
/// (move order). The defaults know nothing: every action scores alike.
pub trait Knowledge: Rules {
    /// A score of the legal `action` for the player to move, higher meaning better; of two drawn
    /// actions a knowledge playout (`playouts="knowledge"`) plays the higher-scored one. The
    /// default scores every action alike, which leaves the playout uniformly random (or to
    /// MAST).
    #[inline]
    fn playout_score(&self, _action: usize) -> u32 {
        0
    }

    /// Whether the exact solver should order a position's actions by
    /// [`Knowledge::playout_score`] before its history: yes unless measured otherwise for the
    /// game (`docs/solved/` has the node counts). Changes only how many nodes a search takes,
    /// never its answer.
    #[inline]
    fn solver_knowledge(&self) -> bool {
        true
    }

    /// Plays to the end of the game with `choose` deciding each action; returns how many were
    /// played. Every move draws an action as [`Rules::random_action`] does and, when `pairs` is
    /// set, a second one from the same position; `choose(player, first, second)` returns the
    /// action to play, one of the two. With `knowledge` (and `pairs`), a pair whose
    /// [`Knowledge::playout_score`]s differ is settled by the score instead: `choose` is then
    /// called with the better action alone. MCTS records its playouts and runs MAST's and the
    /// knowledge tournaments of two through it. Games that override [`Rules::random_playout`]
    /// override this too, drawing the same numbers.
    fn guided_playout<F: FnMut(usize, usize, Option<usize>) -> usize>(
        &mut self,
        rng: &mut Rng,
        buf: &mut Vec<u32>,
        pairs: bool,
        knowledge: bool,
        mut choose: F,
    ) -> usize {
        let start = self.move_count();
        while let Some(p) = self.current_player() {
            let Some(a) = self.random_action(rng, buf) else {
                break;
            };
            let b = if pairs {
                self.random_action(rng, buf)
            } else {
                None
            };
            let c = match b {
                Some(b) if knowledge => {
                    let (sa, sb) = (self.playout_score(a), self.playout_score(b));
                    choose_by_score(&mut choose, p, (a, sa), (b, sb))
                }
                _ => choose(p, a, b),
            };
            self.apply_unchecked(c);
        }
        self.move_count() - start
    }
}

/// The memory a state holds, for memory estimates and limits (a vector of environments, a
/// session, the bindings' `__sizeof__`); `tests/memory.rs` holds it to the allocator's count.
pub trait Footprint: Rules {
    /// Bytes this state owns on the heap (beyond `size_of::<Self>()`), not counting data shared
    /// with other states of the same configuration (boards, masks, tables).
    fn heap_bytes(&self) -> usize;
}

/// A knowledge playout's pair: the better-scored action alone goes to `choose`, and both do
/// when the scores tie (shared by [`Knowledge::guided_playout`] and the games that override it).
#[inline]
pub(crate) fn choose_by_score<F: FnMut(usize, usize, Option<usize>) -> usize>(
    choose: &mut F,
    p: usize,
    (a, sa): (usize, u32),
    (b, sb): (usize, u32),
) -> usize {
    if sa > sb {
        choose(p, a, None)
    } else if sb > sa {
        choose(p, b, None)
    } else {
        choose(p, a, Some(b))
    }
}
