"""The variant lab: self-play evaluation of rule variants, with metrics, reports and Ray.

>>> import stonefield as sf
>>> lab = sf.lab.evaluate("windflowers", vary={"scoring": ["stones", "largest_group"]},
...                       fixed={"grid": "square", "size": 3}, games=30, seed=1)
>>> [v["scoring"] for v in lab.variants]
['stones', 'largest_group']
>>> print(lab.table(["completion"]).splitlines()[-1])  # doctest: +ELLIPSIS
completion  ...

Games are played in Rust (``_core.lab_play``: the native match runner), and every fact that
needs the positions is gathered in Rust (``src/lab/``), where it stays (a
:class:`~stonefield._core.Facts` per chunk, joined per variant), as are the sums over games the
metrics rest on (``Facts.summary``, in a fixed order); Python draws the values and their
intervals from those. With
random agents each game is measured while it is played, in one pass; games of searching agents
(or of Python agents) are replayed once they end. Game i of every variant draws from the random
streams of (seed, i) exactly as ``sf.match`` plays it, so the numbers do not depend on the
backend, the chunk size or the thread count.

Metrics
-------
Per variant, over its games. u_p is player p's return (1 for a sole win, −1 for a sole loss,
ranks in between for 3–4 players, 0 for everyone in a truncated game), w_p = (u_p + 1) / 2, L a
game's length in actions and D its decisions (the positions where an action was taken).

* ``seat_score_p`` = mean of w_p (Wilson interval); ``advantage`` = ``seat_score_0``.
* ``balance`` = 1 − max over seat pairs |w̄_a − w̄_b| (draws count ½, no integer truncation).
  Ludii's balance divides integer win counts, which rounds.
* ``completion``: share of games with a single winner; ``drawishness``: share of games that
  the rules end with first place shared; ``truncation``: share ended by ``max_moves``. The
  three add up to 1 (Wilson intervals).
* ``tiebreak_reach`` (games with scores): share of games whose raw final scores tie for first;
  ``tiebreak_unresolved``: share whose raw scores tie and whose first place is still shared
  after every tie-break (Wilson).
* ``length_*``, ``turns_*``: mean (t interval), median, 10th and 90th percentile (numpy's
  linear interpolation) of L and of the number of turns, a turn being a run of consecutive
  actions by one player (in Faraday a run of placements; the pie offer is one turn).
* ``branching`` = Σ over all D of the number of legal actions / |D| (pooled over games);
  ``decision_moves`` = share of D with more than one legal action.
* ``coverage``: mean over games of the share of sites that held a stone at some point (t).
* ``repetition`` = Σ repeated positions / Σ L, a position being the board and the player to
  move (in Faraday also the pie stage) and a repeat one equal to an earlier position of the same
  game; ``repeated_games``: share of games with a repeat (Wilson). Games with a
  repeat keep their actions in the results file (:meth:`Lab.records`). Ludii counts repeats with
  integer arithmetic; here nothing is truncated.
* ``lead_change``, ``drama``, ``decisiveness``, ``stability`` (t intervals of per-game values),
  after Ludii's definitions, over the positions s_0 … s_L with evaluations e_p(s):
  terminal positions evaluate to u_p; when the agents search (MCTS), the mover's root value v
  at each decision (with two players the opponent gets −v; with more, each player keeps the
  value of their latest decision, 0 before it); otherwise e_p(s) = tanh(H(s, p) − Σ_{o≠p}
  H(s, o)) with the heuristic H: Windflowers a player's base score / sites, Faraday the score /
  sites (/ (sites² / 4) for the product scorings), Smallholder the sites the player may place
  on by the territory rule / sites, Subsume the player's stones / sites. W = the players ranked
  first (everyone after a tie or truncation); leaders(s) = the players of highest e.

  - lead change = #{i ≥ 1 : leaders(s_i) ≠ leaders(s_{i−1})} / L. Ludii starts from an empty
    leader set, so its first position always counts as a change;
  - drama = mean over positions of mean over w ∈ W of (max_p e_p(s) − e_w(s));
  - decisiveness = (first i where some w ∈ W has e_w(s_i) > T) / L, T the highest evaluation
    any player outside W ever reaches (−1 when W is everyone); 1 when never. Ludii divides two
    integers here, so its value is 0 or 1;
  - stability = mean over players of the variance of e_p over the positions (computed from
    running sums, the mean square less the squared mean). Ludii sums the variances over
    players.

  The heuristic value is tanh((2 k_p − Σ_o k_o) / scale) with H(s, p) = k_p / scale, which is
  the formula above; it is read from a table of every value the whole numbers k allow.
* ``kingmaking`` (3–4 players; Wilson): the first ``kingmaking`` games (default 10) of each
  variant are judged. For every player who finishes last (worst rank, if not everyone shares
  it), the last 3 of their decisions are examined, latest first; at each, the position before
  the move is rebuilt, and up to 4 alternatives (evenly spaced in the ascending legal list,
  the actual move left out) are each played to the end by the same agents with the same seeds
  (seat j of game i gets seed (seed, i, j)), as is the actual move. The game is king-made if
  some alternative gives a different set of winners while the last player wins in neither.
  The agents' own randomness changes winners too, so the same games are put through the
  **null procedure**: at the same decisions, the actual move is played again as many times as
  there were alternatives, each continued by the same agents under another run's seeds, and
  the game is flagged (``kingmaking_null``) if a replay gives a different set of winners
  without the last player. ``kingmaking_excess`` = kingmaking − kingmaking_null over the same
  games (a Student t interval of the paired differences): above 0, the last player's choices
  decide more than noise does.
* Columns a game declares (``Measure::final_columns`` in Rust): facts of each game's last
  position, each averaged into the metric of its name (t interval). Subsume declares
  ``groups_final`` (groups at the end: connected stones of either colour, as its rules count
  groups), ``groups_final_0`` and ``groups_final_1`` (groups of Red's, of Blue's stones alone)
  and ``largest_group_share`` (the largest group's share of the stones), and
  ``largest_group_share_0`` / ``_1`` (a colour's largest group's share of that colour's stones),
  by which "two big blobs" can be told from a board of many small groups. Stones kept inside a
  settled loop (``remove_surrounded=False``) take no part.
* The series of each declared column (``<name>_series``, games × 10): the same fact at the end
  of each tenth of the game, the position after action ⌈(k + 1) L / 10⌉ for k = 0 … 9 (a game
  shorter than ten actions repeats the position where its previous tenth ended; tenth 9 is the
  last position, so it equals the column itself). Each tenth is averaged into a metric,
  ``<name>_series_0`` … ``<name>_series_9`` (t interval within the column's range), and the
  reports plot them over the game, per variant (and per strength in a study's report).
* ``pie_swap`` (Faraday): share of games where player 1 swapped (Wilson), and
  ``seat_score_p_swap`` / ``seat_score_p_accept``: seat scores among games with each choice.
* ``skill`` (with ``skill=N``): N more games per variant of the lab's agent at 4× its budget
  (an MCTS's iterations or time, a PUCT's simulations; every other setting, its preset
  included, kept) against the agent itself, the stronger one rotating through the seats; its
  mean w (Wilson). Above ½ means better play wins more often. A lab of random (or Python)
  agents plays MCTS with 400 against 100 iterations instead.

Intervals: Wilson score (z = 1.96) for shares, Student t for means of per-game values, the
delta method for pooled ratios, R ± t · sd(x − R y) / (√n · ȳ) with games as the units, and for
balance the Wilson intervals of the two extreme seats (exact with two players, Newcombe's
interval for a difference with more), so that a balance of 1 keeps a real interval. Intervals of
shares stay within [0, 1]. No bootstrap: every interval is a
closed formula, so the metrics of 100,000 games take about a millisecond.

Columns
-------
:meth:`Lab.columns` gives a variant's per-game facts as numpy arrays, one row per game (made on
request; :meth:`Lab.facts` gives them as the core holds them). Their
list, types, widths and descriptions come from the core (:func:`stonefield.lab.columns.columns_of`,
``_core.lab_schema``; one list in ``src/lab/columns.rs`` plus the columns the game declares),
which the results file, the decoding of its chunks and the sums all read: Python names no
column except to read a metric.

Results file
------------
``out=`` is kept as a small database would keep it (:mod:`stonefield.lab.results`): locked for
the whole run (a second run on it raises :class:`ResultsFileBusyError` naming the holder), an
interrupted last line repaired or cut before anything is appended, every line checked (a
:class:`~stonefield.RecordError` names the bad one), and no game counted twice.
"""

from __future__ import annotations

from .lab import Lab, evaluate
from .metrics import Metric
from .results import ResultsFileBusyError
from .skill import SkillTrace, plot_skill_traces, skill_trace
from .studies import STUDIES
from .study import Arm, Study, StudyRun, get_study, run_study, study

__all__ = [
    "STUDIES",
    "Arm",
    "Lab",
    "Metric",
    "ResultsFileBusyError",
    "SkillTrace",
    "Study",
    "StudyRun",
    "evaluate",
    "get_study",
    "plot_skill_traces",
    "run_study",
    "skill_trace",
    "study",
]
