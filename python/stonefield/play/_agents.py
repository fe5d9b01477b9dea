"""The players a seat can hold, and how an agent's thinking is reported while it runs.

A seat is a human (the page waits for a click) or an agent named by an agent string, the one
grammar of :func:`stonefield.parse_agent` that ``stonefield match``, the lab and the ladder read
(``random``, ``mcts:iterations=2000,c=0.8``, ``puct:simulations=400``,
``puct:checkpoint=run/latest.npz``), or by the same settings as a JSON object
(``{"kind": "mcts", "iterations": 2000}``). Budgets are capped so that a request cannot occupy
the machine for long, and a request may only name a network checkpoint that the server was
started with (``stonefield play GAME --opponent puct:checkpoint=PATH``): the page never makes the
server read a file of its choosing.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import _core
from ..agents import AGENT_KINDS, MCTS_SETTINGS, PUCT_SETTINGS, agent_kind, parse_agent

#: The largest iteration budget a request may ask of MCTS.
MAX_ITERATIONS = 200_000
#: However large the budget, one move's searches stop after this many seconds in all.
MAX_SECONDS = 20.0
#: The budget of ``mcts`` when none is given.
DEFAULT_ITERATIONS = 10_000
#: The most search threads a request may ask for.
MAX_THREADS = 4
#: How many snapshots of a search the page sees: the search runs at budgets b/8, b/4, b/2, b
#: (same seed), and each finished run is shown; the last one picks the move.
_SNAPSHOTS = 4

#: Called with a snapshot of the search (see :func:`snapshot`) while an agent thinks.
Publish = Callable[[dict[str, Any]], None]


class SeatError(ValueError):
    """A seat description that cannot be used; the message says what is allowed."""


@dataclass(frozen=True)
class Seat:
    """Who sits in one seat: ``kind`` is ``human`` or an agent kind of
    :func:`stonefield.parse_agent` (``random``, ``mcts``, ``puct``); ``iterations`` is the
    search's budget (MCTS iterations, PUCT simulations); ``settings`` holds the agent's other
    settings (as :func:`stonefield.parse_agent` reads them) that differ from the defaults.

    >>> Seat.parse("mcts:iterations=500")
    Seat(kind='mcts', iterations=500, settings=())
    >>> Seat.parse("mcts:500,c=0.5")
    Seat(kind='mcts', iterations=500, settings=(('c', 0.5),))
    >>> Seat.parse({"kind": "mcts"}).label
    'MCTS 10,000'
    >>> Seat.parse("puct:simulations=400,c=2")
    Seat(kind='puct', iterations=400, settings=(('c', 2.0),))
    """

    kind: str
    iterations: int | None = None
    settings: tuple[tuple[str, Any], ...] = ()

    @property
    def is_agent(self) -> bool:
        return self.kind != "human"

    @property
    def label(self) -> str:
        if self.kind == "mcts":
            shown = dict(self.settings)
            name = "strong MCTS" if shown.pop("preset", None) == "strong" else "MCTS"
            extra = "".join(f", {k}={v}" for k, v in shown.items())
            return f"{name} {self.iterations:,}{extra}"
        if self.kind == "puct":
            shown = dict(self.settings)
            path = shown.pop("checkpoint", None)
            guide = f"network {os.path.basename(path)}" if path else "rollouts"
            extra = "".join(f", {k}={v}" for k, v in shown.items())
            return f"PUCT {self.iterations:,} ({guide}){extra}"
        return self.kind

    @property
    def agent(self) -> str | None:
        """The agent string of an agent's seat (None for a human): what ``match`` reads.

        >>> Seat.parse({"kind": "puct", "simulations": 300}).agent
        'puct:simulations=300'
        """
        if self.kind == "human":
            return None
        if self.kind == "random":
            return "random" + "".join(f":seed={v}" for k, v in self.settings if k == "seed")
        budget = "simulations" if self.kind == "puct" else "iterations"
        items = [f"{budget}={self.iterations}"] if self.iterations is not None else []
        for key, value in self.settings:
            shown = "none" if value is None else str(value)
            items.append(f"{key}={shown.lower() if isinstance(value, bool) else shown}")
        return f"{self.kind}:{','.join(items)}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "label": self.label}
        if self.agent is not None:
            out["agent"] = self.agent
        if self.iterations is not None:
            out["simulations" if self.kind == "puct" else "iterations"] = self.iterations
        out.update(self.settings)
        return out

    @staticmethod
    def parse(spec: Any, checkpoints: Collection[str] | None = None) -> Seat:
        """A seat from ``"human"``, an agent string (``"random"``, ``"mcts"``,
        ``"mcts:iterations=N,c=..."``, ``"mcts:N"``, ``"puct:simulations=N,checkpoint=PATH"``)
        or the equivalent JSON object (``kind`` and the agent's settings; ``label`` and
        ``agent`` are ignored).

        Args:
            spec: the seat.
            checkpoints: the network checkpoints a ``puct`` seat may name (None: any file);
                the server passes those it was started with.

        Raises:
            SeatError: anything else, a budget outside 1..MAX_ITERATIONS, more than
                MAX_THREADS threads, or a checkpoint not in ``checkpoints``.
        """
        if isinstance(spec, dict):
            spec = _agent_string(spec)
        if not isinstance(spec, str):
            raise SeatError(f"a seat is a string or an object, got {type(spec).__name__}")
        kind = spec.partition(":")[0].strip().lower()
        if kind not in available_kinds():
            raise SeatError(f"seat kind must be one of {available_kinds()}, got {kind!r}")
        if kind == "human":
            if spec.strip().lower() != "human":
                raise SeatError("a human seat takes no settings")
            return Seat("human")
        if kind == "puct":
            return _puct_seat(spec, checkpoints)
        try:
            agent = parse_agent(spec)
        except (_core.InvalidOptionError, TypeError) as e:
            raise SeatError(str(e)) from None
        if agent_kind(agent) == "random":
            return Seat("random", settings=(("seed", agent.seed),) if agent.seed else ())
        given = {item.partition("=")[0].strip() for item in spec.partition(":")[2].split(",")}
        iterations = agent.iterations
        if not given & {"iterations", "time"} and not spec.partition(":")[2].strip()[:1].isdigit():
            iterations = DEFAULT_ITERATIONS
        if iterations is None or not 1 <= iterations <= MAX_ITERATIONS:
            raise SeatError(f"iterations must be 1..{MAX_ITERATIONS}, got {iterations}")
        if agent.threads > MAX_THREADS:
            raise SeatError(f"threads must be 1..{MAX_THREADS}, got {agent.threads}")
        default = _core.MCTS(iterations=1)
        settings = tuple(
            (k, getattr(agent, k))
            for k in MCTS_SETTINGS
            if k not in ("iterations", "time")
            # A preset leaves the settings it decides unset (None): they are not the seat's own.
            and getattr(agent, k) is not None
            and getattr(agent, k) != getattr(default, k)
        )
        if agent.time is not None:
            settings += (("time", agent.time),)
        return Seat("mcts", iterations, settings)


def _puct_seat(spec: str, checkpoints: Collection[str] | None) -> Seat:
    """The seat of a ``puct`` agent string (see :meth:`Seat.parse`)."""
    given = {}
    for item in spec.partition(":")[2].split(","):
        key, _, value = item.partition("=")
        given[key.strip().lower().replace("-", "_")] = value.strip()
    path = given.get("checkpoint")
    if path and checkpoints is not None:
        allowed = {os.path.abspath(c) for c in checkpoints}
        if os.path.abspath(path) not in allowed:
            raise SeatError(
                "a network checkpoint is named when the server starts"
                " (stonefield play GAME --opponent puct:checkpoint=PATH); this one was not"
            )
    try:
        agent = parse_agent(spec)
    except (_core.InvalidOptionError, TypeError) as e:
        raise SeatError(str(e)) from None
    simulations = int(agent.simulations)
    if not 1 <= simulations <= MAX_ITERATIONS:
        raise SeatError(f"simulations must be 1..{MAX_ITERATIONS}, got {simulations}")
    _EVALUATORS[_evaluator_key(path)] = agent.evaluator
    default = parse_agent("puct")
    settings = tuple(
        (k, getattr(agent, k))
        for k in PUCT_SETTINGS
        if k != "simulations" and getattr(agent, k) != getattr(default, k)
    )
    if path:
        settings += (("checkpoint", path),)
    return Seat("puct", simulations, settings)


#: The evaluators of the ``puct`` seats parsed so far, by checkpoint (None: the rollouts), so
#: that a network is read once, not at every move.
_EVALUATORS: dict[str | None, Any] = {}


def _evaluator_key(path: str | None) -> str | None:
    return None if not path else os.path.abspath(path)


def checkpoints_of(seats: Collection[str] | None) -> list[str]:
    """The network checkpoints the agent strings ``seats`` name (what a request may name).

    >>> checkpoints_of(["human", "puct:simulations=50,checkpoint=run/latest.npz"])
    ['run/latest.npz']
    """
    out = []
    for seat in seats or ():
        name, _, rest = seat.partition(":")
        if name.strip().lower() == "puct":
            for item in rest.split(","):
                key, _, value = item.partition("=")
                if key.strip().lower() == "checkpoint" and value.strip():
                    out.append(value.strip())
    return out


def _agent_string(spec: dict[str, Any]) -> Any:
    """The agent string of a seat's JSON object."""
    kind = spec.get("kind")
    if not isinstance(kind, str):
        raise SeatError(f"seat kind must be one of {available_kinds()}, got {kind!r}")
    items = []
    for key, value in spec.items():
        if key in ("kind", "label", "agent"):
            continue
        if isinstance(value, float) and key in ("iterations", "simulations"):
            raise SeatError(f"iterations is a whole number, got {value!r}")
        shown = "none" if value is None else str(value).lower()
        items.append(f"{key}={shown}")
    return kind + (":" + ",".join(items) if items else "")


#: The opponent of ``stonefield play GAME`` and the page's form when none is named.
STRONG_OPPONENT = "mcts:preset=strong"


def default_opponent() -> str:
    """The opponent when none is named: the strong search (``mcts:preset=strong``, 10,000
    iterations a move) where seats can name it, else plain MCTS (``mcts``).

    >>> default_opponent()
    'mcts:preset=strong'
    """
    try:
        Seat.parse(STRONG_OPPONENT)
    except SeatError:
        return "mcts"
    return STRONG_OPPONENT


def available_kinds() -> list[str]:
    """The seat kinds a request may name: a human, or any agent kind that
    :func:`stonefield.parse_agent` reads.

    >>> available_kinds()
    ['human', 'random', 'mcts', 'puct']
    """
    return ["human", *AGENT_KINDS]


def shut_down(stopping: threading.Event) -> None:
    """Stops every agent's thinking in one server: sets its ``stopping`` event (the
    application's ``app.state.stopping``), so no new search of that server starts, and stops
    the searches running now (``_core.cancel_native_calls``; their requests get 503). Called
    when the server stops; another server in the same process, started before or after, goes
    on serving.
    """
    stopping.set()
    _core.cancel_native_calls()


def choose(
    seat: Seat,
    state: _core.State,
    seed: int,
    publish: Publish,
    seconds: float = MAX_SECONDS,
    stopping: threading.Event | None = None,
) -> int:
    """The agent's action for the player to move; ``state`` is not changed. The searches
    together stop after ``seconds`` (the page's clock gives its agents a share of their time),
    and no further search starts once ``stopping`` (the server's; see :func:`shut_down`) is set.

    MCTS searches at growing budgets and publishes each result, so the page can show the
    search taking shape; the action is the full-budget search's choice. A forced move (one
    legal action) or a proven root stops after the first search that settles it.
    """
    if state.is_terminal():
        raise _core.GameOverError("the game is over")
    if seat.kind == "random":
        own = int(dict(seat.settings).get("seed", 0))
        return int(_core.RandomAgent(seed=(seed ^ own) & (2**64 - 1)).act(state))
    if seat.kind not in ("mcts", "puct") or seat.iterations is None:
        raise SeatError(f"a {seat.kind} seat does not choose moves")
    budgets = sorted({max(1, seat.iterations >> k) for k in range(_SNAPSHOTS - 1, -1, -1)})
    forced = len(state.legal_actions()) == 1
    best = -1
    deadline = time.monotonic() + min(seconds, MAX_SECONDS)
    for budget in budgets:
        if stopping is not None and stopping.is_set():
            raise KeyboardInterrupt("the server is shutting down")
        left = deadline - time.monotonic()
        if left <= 0 and best >= 0:
            break
        settings = dict(seat.settings)
        own = int(settings.pop("seed", 0))
        search: Any
        if seat.kind == "puct":
            # PUCT has no time budget: its budgets grow until the deadline, as MCTS's do.
            evaluator = _puct_evaluator(settings.pop("checkpoint", None))
            search = _core.PUCT(
                evaluator,
                simulations=budget,
                seed=(seed ^ own) & (2**64 - 1),
                **{"dirichlet_fraction": 0.0, **settings},
            )
        else:
            limit = min(left, float(settings.pop("time", left)))
            search = _core.MCTS(
                iterations=budget,
                time=max(limit, 0.01),
                seed=(seed ^ own) & (2**64 - 1),
                **settings,
            )
        result = search.analyse(state)
        publish(snapshot(state, result, seat.iterations))
        best = int(result.best)
        if forced or result.proven is not None:
            break  # a forced move or a proven result does not change with more iterations
    return best


def _puct_evaluator(path: str | None) -> Any:
    """The evaluator of a ``puct`` seat: the rollouts, or the network its checkpoint holds
    (read once; see :data:`_EVALUATORS`)."""
    key = _evaluator_key(path)
    if key not in _EVALUATORS:
        spec = "puct" + (f":checkpoint={path}" if path else "")
        _EVALUATORS[key] = parse_agent(spec).evaluator
    return _EVALUATORS[key]


def snapshot(state: _core.State, result: Any, budget: int) -> dict[str, Any]:
    """A search result as the page shows it: the root value and the visit share per site.

    An action counts towards the site it marks (``Game.action_site``: Faraday's offer stones of
    either colour count towards their site); the others (pass, accept, swap) are listed under
    ``actions``.
    """
    visits = np.asarray(result.visits, dtype=np.float64)
    actions = np.asarray(result.actions, dtype=np.int64)
    total = float(visits.sum()) or 1.0
    sites: dict[int, float] = {}
    others: dict[int, float] = {}
    for a, v in zip(actions.tolist(), visits.tolist()):
        share = v / total
        site = state.game.action_site(a)
        if site is not None:
            sites[site] = sites.get(site, 0.0) + share
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
