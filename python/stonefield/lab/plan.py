"""What a lab plays: the grid of variants, the agents, the seats of every game.

:func:`make_plan` checks the arguments of :func:`~stonefield.lab.evaluate` and expands the grid;
:func:`seating` says who sits where in each game; :func:`at_budget` is the one place that copies
an agent at another budget (the skill games' stronger agent).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import _core
from .._core import Game, InvalidOptionError
from ..agents import BUDGETS, agent_kind, agent_string, parse_agent, rebuilt

#: Format tag of the first line of a results file (the plan's header).
FORMAT = "stonefield-lab/2"


@dataclass
class Variant:
    """One cell of the grid: its varied options and every option of the game it makes."""

    index: int
    varied: dict[str, Any]
    options: dict[str, Any]
    game: Game

    @property
    def label(self) -> str:
        """``key=value`` pairs of the varied options (the game's name for a one-cell grid)."""
        if not self.varied:
            return self.game.name
        return ", ".join(f"{k}={v}" for k, v in self.varied.items())


@dataclass
class Chunk:
    """A block of consecutive games of one variant (``kind`` "games" or "skill")."""

    variant: int
    kind: str
    first: int
    count: int


@dataclass
class Plan:
    """What a lab plays: resolved arguments, the variants and the agents."""

    game: str
    vary: dict[str, list[Any]]
    fixed: dict[str, Any]
    variants: list[Variant]
    agents: list[Any]
    games: int
    seed: int
    kingmaking: int
    skill: int
    extra: dict[str, Any] = field(default_factory=dict)

    def header(self) -> dict[str, Any]:
        """The arguments as the first line of the results file records them."""
        return {
            "format": FORMAT,
            "game": self.game,
            "vary": self.vary,
            "fixed": self.fixed,
            "agents": [agent_string(a) + _seed_suffix(a) for a in self.agents],
            "games": self.games,
            "seed": self.seed,
            "kingmaking": self.kingmaking,
            "skill": self.skill,
            "variants": [v.options for v in self.variants],
        }

    @property
    def players(self) -> int:
        return self.variants[0].game.num_players


def _seed_suffix(agent: Any) -> str:
    # agent_string leaves out a zero seed; the results file must tell agents apart exactly,
    # so the seed is added as one more setting of the agent string (``mcts:iterations=50,seed=0``).
    seed = getattr(agent, "seed", None)
    text = agent_string(agent)
    if not isinstance(seed, int) or "seed=" in text:
        return ""
    return f"{',' if ':' in text else ':'}seed={seed}"


def _jsonable(value: Any) -> Any:
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.bool_,)):
        return bool(value)
    return value


def make_plan(
    game: str,
    vary: Mapping[str, Sequence[Any]] | None,
    fixed: dict[str, Any] | None,
    agents: Any,
    games: int,
    seed: int,
    kingmaking: int,
    skill: int,
) -> Plan:
    """Checks the arguments and expands the grid (the cartesian product of ``vary``)."""
    if not isinstance(game, str) or game not in _core.games():
        raise InvalidOptionError(f"unknown game {game!r}; games: {', '.join(_core.games())}")
    if isinstance(games, bool) or not isinstance(games, int) or games <= 0:
        raise InvalidOptionError(f"games must be a positive integer, got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InvalidOptionError(f"seed must be an integer ≥ 0, got {seed!r}")
    for name, value in (("kingmaking", kingmaking), ("skill", skill)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidOptionError(f"{name} must be an integer ≥ 0, got {value!r}")
    vary = dict(vary or {})
    fixed = dict(fixed or {})
    for key, values in vary.items():
        if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
            raise InvalidOptionError(f"vary[{key!r}] must be a list of values, got {values!r}")
        if len(values) == 0:
            raise InvalidOptionError(f"vary[{key!r}] is empty: the grid has no variants")
        if key in fixed:
            raise InvalidOptionError(f"option {key!r} is both varied and fixed")
    keys = list(vary)
    variants = []
    for i, combo in enumerate(itertools.product(*(vary[k] for k in keys))):
        varied = {k: _jsonable(v) for k, v in zip(keys, combo)}
        given = {**{k: _jsonable(v) for k, v in fixed.items()}, **varied}
        g = _core.make(game, **given)
        variants.append(Variant(i, varied, dict(g.options), g))
    players = {v.game.num_players for v in variants}
    if len(players) > 1 and not (agents is None or _single_agent(agents)):
        raise InvalidOptionError(
            "the variants have different player counts; give one agent for every seat"
        )
    agent_list = _agents(agents, min(players))
    return Plan(
        game,
        {k: [_jsonable(v) for v in vs] for k, vs in vary.items()},
        {k: _jsonable(v) for k, v in fixed.items()},
        variants,
        agent_list,
        games,
        seed,
        kingmaking,
        skill,
    )


def _single_agent(agents: Any) -> bool:
    return isinstance(agents, str) or hasattr(agents, "act")


def _agents(agents: Any, players: int) -> list[Any]:
    if agents is None:
        return [_core.RandomAgent()]
    if _single_agent(agents):
        agents = [agents]
    out = []
    for a in agents:
        a = parse_agent(a) if isinstance(a, str) else a
        if not callable(getattr(a, "act", None)):
            raise InvalidOptionError(f"an agent needs an act(state) method, got {a!r}")
        out.append(a)
    if len(out) not in (1, players):
        raise InvalidOptionError(
            f"give one agent for every seat or one per seat ({players}), got {len(out)}"
        )
    return out


def seating(plan: Plan, variant: Variant, kind: str, first: int, count: int) -> Any:
    """The agent index in each seat of games ``first .. first + count``.

    "games": one agent everywhere, or agent j in seat j. "skill": agents [strong, base], the
    strong one in seat ``i mod n`` of game i (every seat equally often).
    """
    n = variant.game.num_players
    if kind == "skill":
        seats = np.ones((count, n), dtype=np.int64)
        idx = np.arange(first, first + count)
        seats[np.arange(count), idx % n] = 0
        return seats
    if len(plan.agents) == 1:
        return np.zeros((count, n), dtype=np.int64)
    return np.tile(np.arange(n, dtype=np.int64), (count, 1))


#: The skill games' budget multiplier: the stronger agent gets this many times the base's.
SKILL_FACTOR = 4

#: The base agent of the skill games when the lab's agent has no budget to multiply (random
#: agents, Python agents).
SKILL_FALLBACK_ITERATIONS = 100


def at_budget(agent: Any, factor: float) -> Any:
    """``agent`` at ``factor`` times its budget, every other setting kept: an MCTS's
    ``iterations`` and ``time`` (whichever it has), a PUCT's ``simulations``; its preset,
    selection, playouts, GRAVE settings, threads, solver, seed, node cap and reuse (an MCTS),
    its evaluator (a network read from a checkpoint included), noise and batch size (a PUCT)
    as they are.

    >>> import stonefield as sf
    >>> agent_string(at_budget(sf.MCTS(preset="strong", iterations=200, seed=3), 4))
    'mcts:iterations=800,seed=3,preset=strong'

    Raises:
        InvalidOptionError: ``agent`` has no budget (a random or a Python agent), or
            ``factor`` is not a number > 0.
    """
    if isinstance(factor, bool) or not isinstance(factor, (int, float)) or not factor > 0:
        raise InvalidOptionError(f"a budget factor is a number > 0, got {factor!r}")
    key = BUDGETS.get(agent_kind(agent) or "")
    if key is not None:
        changes = {}
        if getattr(agent, key) is not None:
            changes[key] = max(1, round(getattr(agent, key) * factor))
        if getattr(agent, "time", None) is not None:
            changes["time"] = agent.time * factor
        return rebuilt(agent, **changes)
    raise InvalidOptionError(
        f"{agent_string(agent)} has no budget to scale; agents with one: mcts (iterations,"
        " time), puct (simulations)"
    )


def with_budget(agent: Any, budget: int, *, seed: int | None = None) -> Any:
    """``agent`` with a budget of ``budget`` (an MCTS's iterations or a PUCT's simulations, its
    time budget dropped) and, when given, ``seed``; every other setting kept: a study's agent at
    one of its strengths.

    >>> import stonefield as sf
    >>> agent_string(with_budget(sf.MCTS(preset="strong"), 200, seed=3))
    'mcts:iterations=200,seed=3,preset=strong'
    """
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
        raise InvalidOptionError(f"a budget is an integer ≥ 1, got {budget!r}")
    kind = agent_kind(agent)
    key = BUDGETS.get(kind or "")
    if key is not None:
        changes: dict[str, Any] = {key: budget, **({"seed": seed} if seed is not None else {})}
        if kind in ("mcts", "puct"):
            changes["time"] = None
        return rebuilt(agent, **changes)
    raise InvalidOptionError(
        f"{agent_string(agent)} has no budget to set; agents with one: mcts (iterations), puct"
        " (simulations)"
    )


def skill_agents(plan: Plan) -> list[Any]:
    """[the base agent at :data:`SKILL_FACTOR` times its budget, the base agent]: the lab's
    (first) agent, or MCTS with :data:`SKILL_FALLBACK_ITERATIONS` iterations when it has no
    budget (a random or a Python agent)."""
    base = plan.agents[0]
    if agent_kind(base) not in BUDGETS:
        base = _core.MCTS(iterations=SKILL_FALLBACK_ITERATIONS)
    return [at_budget(base, SKILL_FACTOR), base]


__all__ = [
    "FORMAT",
    "SKILL_FACTOR",
    "Chunk",
    "Plan",
    "Variant",
    "at_budget",
    "make_plan",
    "seating",
    "skill_agents",
    "with_budget",
]
