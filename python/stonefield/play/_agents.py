"""The players a seat can hold, and how an agent's thinking is reported while it runs.

A seat is a human (the page waits for a click) or an agent: ``random`` or ``mcts`` with an
iteration budget. Agents are built from small JSON descriptions such as
``{"kind": "mcts", "iterations": 2000}`` or the command line's ``mcts:iterations=2000``.
Budgets are capped so that a request cannot occupy the machine for long.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import _core

#: The largest iteration budget a request may ask of MCTS.
MAX_ITERATIONS = 200_000
#: However large the budget, one move's searches stop after this many seconds in all.
MAX_SECONDS = 20.0
#: The budget of ``mcts`` when none is given.
DEFAULT_ITERATIONS = 10_000
#: How many snapshots of a search the page sees: the search runs at budgets b/8, b/4, b/2, b
#: (same seed), and each finished run is shown; the last one picks the move.
_SNAPSHOTS = 4

#: Set when the server shuts down: agents stop searching (see :func:`shut_down`).
SHUTTING_DOWN = threading.Event()

#: Called with a snapshot of the search (see :func:`snapshot`) while an agent thinks.
Publish = Callable[[dict[str, Any]], None]


class SeatError(ValueError):
    """A seat description that cannot be used; the message says what is allowed."""


@dataclass(frozen=True)
class Seat:
    """Who sits in one seat: ``kind`` is ``human``, ``random`` or ``mcts``.

    >>> Seat.parse("mcts:iterations=500")
    Seat(kind='mcts', iterations=500)
    >>> Seat.parse({"kind": "mcts"}).label
    'MCTS 10,000'
    """

    kind: str
    iterations: int | None = None

    @property
    def is_agent(self) -> bool:
        return self.kind != "human"

    @property
    def label(self) -> str:
        if self.kind == "mcts":
            return f"MCTS {self.iterations:,}"
        return self.kind

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "label": self.label}
        if self.iterations is not None:
            out["iterations"] = self.iterations
        return out

    @staticmethod
    def parse(spec: Any) -> Seat:
        """A seat from ``"human"``, ``"random"``, ``"mcts"``, ``"mcts:iterations=N"`` (or
        ``"mcts:N"``) or the equivalent JSON object.

        Raises:
            SeatError: anything else, or a budget outside 1..MAX_ITERATIONS.
        """
        if isinstance(spec, str):
            name, _, rest = spec.partition(":")
            fields: dict[str, Any] = {"kind": name}
            for item in filter(None, rest.split(",")):
                key, eq, value = item.partition("=")
                if not eq:
                    key, value = "iterations", key
                fields[key.strip()] = value.strip()
            spec = fields
        if not isinstance(spec, dict):
            raise SeatError(f"a seat is a string or an object, got {type(spec).__name__}")
        kind: Any = spec.get("kind")
        if not isinstance(kind, str) or kind not in available_kinds():
            raise SeatError(f"seat kind must be one of {available_kinds()}, got {kind!r}")
        extra = set(spec) - {"kind", "iterations", "label"}
        if extra:
            raise SeatError(f"unknown seat setting {sorted(extra)[0]!r}; allowed: iterations")
        if kind != "mcts":
            return Seat(kind)
        raw = spec.get("iterations", DEFAULT_ITERATIONS)
        try:
            if isinstance(raw, bool) or isinstance(raw, float):
                raise ValueError
            iterations = int(raw)
        except (TypeError, ValueError):
            raise SeatError(f"iterations is a whole number, got {raw!r}") from None
        if not 1 <= iterations <= MAX_ITERATIONS:
            raise SeatError(f"iterations must be 1..{MAX_ITERATIONS}, got {iterations}")
        return Seat("mcts", iterations)


def available_kinds() -> list[str]:
    """The seat kinds a request may name.

    >>> available_kinds()
    ['human', 'random', 'mcts']
    """
    return ["human", "random", "mcts"]


def shut_down() -> None:
    """Stops every agent's thinking: no new search starts, and those running stop at once
    (``_core.cancel_native_calls``; their requests get 503). Called when the server stops."""
    SHUTTING_DOWN.set()
    _core.cancel_native_calls()


def choose(
    seat: Seat, state: _core.State, seed: int, publish: Publish, seconds: float = MAX_SECONDS
) -> int:
    """The agent's action for the player to move; ``state`` is not changed. The searches
    together stop after ``seconds`` (the page's clock gives its agents a share of their time).

    MCTS searches at growing budgets and publishes each result, so the page can show the
    search taking shape; the action is the full-budget search's choice.
    """
    if state.is_terminal():
        raise _core.GameOverError("the game is over")
    if seat.kind == "random":
        return int(_core.RandomAgent(seed=seed).act(state))
    if seat.kind != "mcts" or seat.iterations is None:
        raise SeatError(f"a {seat.kind} seat does not choose moves")
    budgets = sorted({max(1, seat.iterations >> k) for k in range(_SNAPSHOTS - 1, -1, -1)})
    best = -1
    deadline = time.monotonic() + min(seconds, MAX_SECONDS)
    for budget in budgets:
        if SHUTTING_DOWN.is_set():
            raise KeyboardInterrupt("the server is shutting down")
        left = deadline - time.monotonic()
        if left <= 0 and best >= 0:
            break
        search = _core.MCTS(iterations=budget, time=max(left, 0.01), seed=seed)
        result = search.analyse(state)
        publish(snapshot(state, result, seat.iterations))
        best = int(result.best)
        if result.proven is not None:
            break  # a proven result does not change with more iterations
    return best


def snapshot(state: _core.State, result: Any, budget: int) -> dict[str, Any]:
    """A search result as the page shows it: the root value and the visit share per site.

    Faraday's offer actions for the second colour (``N + s``) count towards site ``s``; other
    actions beyond the sites (pass, accept, swap) are listed under ``actions``.
    """
    n = state.game.num_sites
    visits = np.asarray(result.visits, dtype=np.float64)
    actions = np.asarray(result.actions, dtype=np.int64)
    total = float(visits.sum()) or 1.0
    sites: dict[int, float] = {}
    others: dict[int, float] = {}
    offer = state.game.name == "faraday"
    for a, v in zip(actions.tolist(), visits.tolist()):
        share = v / total
        if a < n:
            sites[a] = sites.get(a, 0.0) + share
        elif offer and a < 2 * n:
            sites[a - n] = sites.get(a - n, 0.0) + share
        else:
            others[a] = share
    return {
        "player": state.current_player,
        "value": float(result.value),
        "iterations": int(result.iterations),
        "budget": budget,
        "best": int(result.best),
        "proven": None if result.proven is None else int(result.proven),
        "sites": {str(s): round(v, 4) for s, v in sites.items()},
        "actions": {str(a): round(v, 4) for a, v in others.items()},
    }
