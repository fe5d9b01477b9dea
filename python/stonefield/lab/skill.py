"""The skill trace of a variant: does more thinking keep paying off?

Like Ludii's SkillTrace: over a ladder of doubling budgets b, 2b, 4b, …, MCTS with twice the
budget plays MCTS with the budget (seats rotating, ``games`` games a rung, 100 by default; with
3 or 4 players one stronger agent against the weaker in every other seat), and the stronger
side's score w̄ (win 1, draw ½, loss 0) is recorded with its Wilson interval. A game
where skill matters keeps w̄ well above ½ all the way up the ladder; a game that saturates (or a
variant decided by the first move) falls back towards ½.

The curve is summarised by its **area**: the mean over the rungs of 2 w̄ − 1, in [−1, 1]
(0: the doubled budget never helps; 1: it wins every game at every rung).

Every rung is one :func:`stonefield.match` of native agents: whole games in Rust over every core,
reproducible from the seed (rung k uses the seed derived from (seed, k)).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .._core import MCTS, InvalidOptionError, make
from .._seeds import seat_seed
from ..matches import match
from . import metrics as M
from .plan import make_plan
from .plots import new_figure, save_figure


@dataclass(frozen=True)
class SkillTrace:
    """One variant's trace.

    Attributes:
        label: The variant (its varied options).
        options: Every option of its game.
        budgets: The weaker side's iterations at each rung (the stronger has twice as many).
        scores: The stronger side's score at each rung, with its Wilson interval.
        games: Games a rung.
        preset: The agents' preset (None: plain UCT).
    """

    label: str
    options: dict[str, Any]
    budgets: tuple[int, ...]
    scores: tuple[M.Metric, ...]
    games: int
    preset: str | None = None

    @property
    def area(self) -> float:
        """The mean over the rungs of 2 w̄ − 1 (see the module documentation)."""
        return sum(2 * m.value - 1 for m in self.scores) / len(self.scores)

    def label_of_rung(self, k: int) -> str:
        """Who played rung k, e.g. "mcts:iterations=100 vs mcts:iterations=50"."""
        b = self.budgets[k]
        p = f",preset={self.preset}" if self.preset else ""
        return f"mcts:iterations={2 * b}{p} vs mcts:iterations={b}{p}"


def skill_trace(
    game: str,
    vary: Mapping[str, Sequence[Any]] | None = None,
    fixed: dict[str, Any] | None = None,
    *,
    base_iterations: int = 50,
    rungs: int = 4,
    games: int = 100,
    seed: int = 0,
    threads: int | None = None,
    preset: str | None = None,
) -> list[SkillTrace]:
    """The skill trace of every variant of a grid (see the module documentation).

    Args:
        game: A game id.
        vary: Options to vary (the cartesian product is the grid), as for
            :func:`~stonefield.lab.evaluate`.
        fixed: Options that every variant shares.
        base_iterations: The weaker side's budget at the first rung.
        rungs: Rungs of the ladder (the weaker side's budget doubles from rung to rung).
        games: Games a rung (100 by default; an even number seats both sides equally).
        seed: The trace's seed.
        threads: Threads of each match (None: every core).
        preset: The agents' preset (``"strong"``: GRAVE, MAST and the rest of
            ``MCTS(preset="strong")``), or None for plain UCT.

    Returns:
        One :class:`SkillTrace` per variant, in grid order.

    >>> traces = skill_trace("subsume", fixed={"size": 3}, base_iterations=4, rungs=2, games=4)
    >>> traces[0].budgets, len(traces[0].scores), -1 <= traces[0].area <= 1
    ((4, 8), 2, True)
    """
    if not isinstance(base_iterations, int) or base_iterations < 1:
        raise InvalidOptionError(f"base_iterations must be an integer ≥ 1, got {base_iterations!r}")
    if not isinstance(rungs, int) or not 1 <= rungs <= 16:
        raise InvalidOptionError(f"rungs must be an integer from 1 to 16, got {rungs!r}")
    if not isinstance(games, int) or games < 2:
        raise InvalidOptionError(f"games must be an integer ≥ 2, got {games!r}")
    plan = make_plan(game, vary, fixed, None, games, seed, 0, 0)
    out = []
    for v in plan.variants:
        g = make(game, **v.options)
        budgets = tuple(base_iterations * 2**k for k in range(rungs))
        scores = []
        for k, b in enumerate(budgets):
            rung_seed = seat_seed(seed, v.index, k)
            # One stronger agent against the weaker in every other seat (fair: w̄ = ½).
            weak = [MCTS(iterations=b, seed=rung_seed, preset=preset)] * (g.num_players - 1)
            m = match(
                g,
                [MCTS(iterations=2 * b, seed=rung_seed, preset=preset), *weak],
                games=games,
                seed=rung_seed,
                threads=threads,
            )
            scores.append(M.share((m.agent_returns[:, 0] + 1.0) / 2.0))
        out.append(SkillTrace(v.label, dict(v.options), budgets, tuple(scores), games, preset))
    return out


def plot_skill_traces(traces: Sequence[SkillTrace], path: str) -> None:
    """The curves (stronger side's score against the weaker side's budget, log scale), one line
    per variant with its area in the legend, written as a PNG."""
    fig = new_figure(6.5, 4.0)
    ax = fig.add_subplot()
    for t in traces:
        vals = [m.value for m in t.scores]
        lo = [m.value - m.low for m in t.scores]
        hi = [m.high - m.value for m in t.scores]
        ax.errorbar(
            t.budgets,
            vals,
            yerr=[lo, hi],
            marker="o",
            capsize=3,
            label=f"{t.label} ({t.area:+.2f})",
        )
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("iterations of the weaker side (the stronger has twice as many)")
    ax.set_ylabel("stronger side's score (95 % Wilson)")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=7, title="variant (area)", title_fontsize=7)
    save_figure(fig, path)


__all__ = ["SkillTrace", "plot_skill_traces", "skill_trace"]
