//! Per-game facts for the variant lab, gathered while a game is played or replayed.
//!
//! Everything the lab's metrics need from the positions themselves is computed here, so the
//! Python side only aggregates numbers. Two drivers feed one tracker, which notes each decision
//! (mover, legal count, action, heuristic numerators or search value) and each position's key
//! as the game goes, and works the facts out in tight loops once the game is over:
//! * [`random_game_stats`] plays a game between uniformly random agents and measures it on the
//!   way, with no second pass: the game's own loop ([`Measure::random_game_observed`]) reports the
//!   legal count that comes with each draw ([`Measure::random_action_counted`]), its heuristic
//!   numerators and the key of each position ([`Rules::key`](crate::games::Rules::key)); the
//!   evaluations come from a table. Random agents are what a variant study runs by the hundred
//!   thousand, so this path is the fast one.
//! * [`replay_stats`] replays a finished game's actions, checking each, with the search values
//!   of agents that have them; [`game_stats`] and [`game_stats_batch`] wrap it.
//!
//! Both give the same facts for the same game (a test holds them to it). Equal keys are
//! confirmed by replaying the game and comparing whole boards; positions with equal boards are
//! equal exactly when their keys are (see [`crate::games::zobrist`]), so `repeated` is exact.
//!
//! # Definitions
//! For a game of L actions, s_0 is the start and s_i the position after action i; the decisions
//! D are s_0 … s_{L−1} (every position where an action was taken).
//! * **turns**: maximal runs of consecutive actions by the same player (a Faraday turn is a run
//!   of placements; the pie offer is player 0's first turn and the choice player 1's).
//! * **branching**: the number of legal actions at each decision; the sum, the count of decisions
//!   with more than one, and the sum per tenth of the game (decision i falls in tenth
//!   ⌊10 i / L⌋, so tenth k holds ⌈(k + 1) L / 10⌉ − ⌈k L / 10⌉ decisions, none when L < 10
//!   leaves it empty; the mean per tenth is the sum over that count).
//! * **coverage**: the share of sites that held a stone in at least one of s_0 … s_L.
//! * **repeated**: how many of s_1 … s_L equal an earlier position of the same game, a position
//!   being everything its key ([`Rules::key`](crate::games::Rules::key)) covers: the board, the
//!   player to move and each game's own state (Windflowers' passes in a row, and the order of
//!   the last placements when they break ties; Faraday's phase, offer actions left, owed surplus
//!   placement and last placer), so passes in the pie offer and the choice to accept do not
//!   count as repeats. The move count is not part of a position.
//! * **top_tied**: for games with scores, whether the raw scores at the end tie for first
//!   (before any tie-break).
//! * **pie**: in Faraday, 1 when player 1 swapped, 0 when they accepted; −1 in other games.
//! * **declared columns**: the facts a game declares of a position
//!   ([`Measure::final_columns`], [`Measure::final_facts`]; Subsume's groups and largest-group
//!   shares), taken at s_L.
//! * **series** of a declared column: the same fact at the end of each tenth of the game, the
//!   position s_{e_k} with e_k = ⌈(k + 1) L / 10⌉ for k = 0 … 9 (the position after tenth k's
//!   last decision, in the branching tenths above). e_9 = L, so tenth 9 is the declared column
//!   itself, bit for bit. The position exists for every k whatever L: when L < 10 some tenths
//!   hold no decision, and such a tenth ends where the tenth before it ended (L = 3 gives
//!   positions 1, 1, 1, 2, 2, 2, 3, 3, 3, 3; L = 0, the start ten times). L is known only at
//!   the end, so both drivers hand the tracker a snapshot of every position as the game goes
//!   ([`Measure::facts_snapshot`]: what the facts are counted on, Subsume's three sets of stones
//!   in play), and the tracker counts the facts of s_{e_k} from its snapshot once the game is
//!   over ([`Measure::snapshot_facts`]); a game that gives no snapshots is replayed from the
//!   start instead, to s_{e_8} at most. Games that declare nothing keep neither.
//!
//! # Evaluation and Ludii's state-evaluation metrics
//! Each position s_0 … s_L gets an evaluation e_p(s) ∈ [−1, 1] for every player p:
//! * the terminal position: e_p = u_p, the player's return;
//! * with search values (one per decision, the mover's root value): the mover m at s_i gets
//!   e_m(s_i) = v_i; with two players the other gets −v_i; with more, every other player keeps
//!   the value of their own latest decision (0 before their first);
//! * otherwise the heuristic: e_p(s) = tanh(H(s, p) − Σ_{o≠p} H(s, o)), where H(s, p) =
//!   k_p / scale is the game's own [`Measure::heuristic_into`] over [`Measure::heuristic_scale`]:
//!   Windflowers, p's base score (stones or largest group) / sites; Faraday, p's score / sites
//!   (special scorings, a product: / (sites² / 4)); the Smallholder, the sites where p may place
//!   by the territory rule / sites (a player who cannot place loses, so room to play is what
//!   matters); Subsume, p's stones / sites. The value is computed as tanh((2 k_p − Σ_o k_o) /
//!   scale), from a table when the numerators are few.
//!
//! With W the players ranked first at the end (all players when the game ties or is
//! truncated), and the leaders of s the players of highest evaluation (exact ties share):
//! * **lead_change** = #{i ∈ 1..=L : leaders(s_i) ≠ leaders(s_{i−1})} / L;
//! * **drama** = mean over s_0 … s_L of mean over w ∈ W of (max_p e_p(s) − e_w(s));
//! * **threshold** T = max of e_p(s) over all positions and players p ∉ W (−1 when W is
//!   everyone); **decisiveness** = (first i with e_w(s_i) > T for some w ∈ W) / L, or 1 when no
//!   position passes it;
//! * **stability** = mean over players of the population variance of e_p over s_0 … s_L
//!   (from running sums: the mean square less the squared mean).
//!
//! None of these needs the series kept: lead changes, drama, the threshold and stability come
//! from running sums, and the first position past the threshold is found by a second scan that
//! stops there.
//!
//! The parts, each in its own file: [`facts`] (one game's facts and the drivers that gather
//! them), [`evaluate`] (evaluations and the metrics made from them), [`repeats`] (repeated
//! positions), [`columns`] (many games' facts stored by column), [`store`] (stored facts as
//! values: chunks joined in game order, and their byte encoding), [`summary`] (the sums over
//! games behind a variant's metrics) and [`run`] (lab runs over threads).
//!
//! A run's facts stay in these columns from play to sums: the bindings hand Python a chunk as
//! one object (`Facts` in `src/python/lab.rs`), join a variant's chunks here and take its sums
//! here, and make numpy arrays only of the columns a user asks for.

pub mod columns;
pub mod evaluate;
pub mod facts;
pub mod repeats;
pub mod run;
pub mod store;
pub mod summary;

use rayon::prelude::*;

use crate::algo::FloodScratch;
use crate::error::{Asked, Error, GameOver, Result};
pub use crate::games::MAX_PLAYERS;
use crate::games::{each_state, FinalColumn, Game, Measure, Observer, MAX_DECLARED};
use crate::rng::Rng;

pub use columns::*;
pub use evaluate::*;
pub use facts::*;
pub use repeats::*;
pub use run::*;
pub use store::ENCODING_VERSION;

#[cfg(test)]
mod tests;
