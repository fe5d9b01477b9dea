"""The players a seat can hold, and how an agent's thinking is reported while it runs.

A seat is a human (the page waits for a click) or an agent named by an agent string, the one
grammar of :func:`stonefield.parse_agent` that ``stonefield match``, the lab and the ladder read
(``random``, ``mcts:iterations=2000,c=0.8``, ``puct:simulations=400``,
``puct:checkpoint=run/latest.npz``, ``expert``: the network shipped for the game), or by the same
settings as a JSON object
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

from .. import _core, experts
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

#: The perfect seat and the page's perfect-play marks are offered on two-player boards of at
#: most this many sites (the boards the solver settles at the table, docs/solved/; on larger
#: ones it would spend its budget proving nothing).
PERFECT_MAX_SITES = 30
#: The solver's node budget for one position of the perfect seat or the perfect-play marks.
PERFECT_NODES = 5_000_000
#: And its time budget in seconds.
PERFECT_SECONDS = 10.0

#: Called with a snapshot of the search (see :func:`snapshot`) while an agent thinks.
Publish = Callable[[dict[str, Any]], None]


class SeatError(ValueError):
    """A seat description that cannot be used; the message says what is allowed."""


def perfect_refusal(game: _core.Game) -> str | None:
    """Why perfect play (the perfect seat, the perfect-play marks) is not offered for
    ``game``, or None where it is: two players and at most :data:`PERFECT_MAX_SITES` sites.

    >>> import stonefield as sf
    >>> perfect_refusal(sf.make("subsume", size=3)) is None
    True
    >>> print(perfect_refusal(sf.make("subsume")))  # doctest: +NORMALIZE_WHITESPACE
    perfect play is offered on boards of at most 30 sites (those the solver settles);
    this one has 91
    """
    if game.num_players != 2:
        return (
            f"perfect play is offered in two-player games; this one has {game.num_players} players"
        )
    if game.num_sites > PERFECT_MAX_SITES:
        return (
            f"perfect play is offered on boards of at most {PERFECT_MAX_SITES} sites (those "
            f"the solver settles); this one has {game.num_sites}"
        )
    return None


def solve_position(state: _core.State, seconds: float = PERFECT_SECONDS) -> _core.SolveResult:
    """The solver's analysis of ``state`` within :data:`PERFECT_NODES` nodes and ``seconds``
    (at most :data:`PERFECT_SECONDS`): one thread, a small table. Ctrl-C or the server's
    shutdown (``cancel_native_calls``) raises ``SolveInterrupted``, a ``KeyboardInterrupt``."""
    return _core.solve(
        state,
        max_nodes=PERFECT_NODES,
        time=max(0.05, min(seconds, PERFECT_SECONDS)),
        threads=1,
        table_mb=32,
    )


@dataclass(frozen=True)
class Seat:
    """Who sits in one seat: ``kind`` is ``human`` or an agent kind of
    :func:`stonefield.parse_agent` (``random``, ``mcts``, ``puct``, ``expert``); ``iterations``
    is the search's budget (MCTS iterations, PUCT and expert simulations); ``settings`` holds
    the agent's other settings (as :func:`stonefield.parse_agent` reads them) that differ from
    the defaults.

    >>> Seat.parse("mcts:iterations=500")
    Seat(kind='mcts', iterations=500, settings=())
    >>> Seat.parse("mcts:500,c=0.5")
    Seat(kind='mcts', iterations=500, settings=(('c', 0.5),))
    >>> Seat.parse({"kind": "mcts"}).label
    'MCTS 10,000'
    >>> Seat.parse("puct:simulations=400,c=2")
    Seat(kind='puct', iterations=400, settings=(('c', 2.0),))
    >>> Seat.parse("expert").label, Seat.parse("expert:simulations=200,seed=3").agent
    ('Expert (trained network)', 'expert:simulations=200,seed=3')
    >>> Seat.parse("perfect").label
    'perfect (solver)'
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
        if self.kind == "expert":
            extra = "".join(f", {k}={v}" for k, v in self.settings)
            if self.iterations != experts.DEFAULT_SIMULATIONS:
                extra = f", {self.iterations:,} simulations{extra}"
            return f"Expert (trained network){extra}"
        if self.kind == "perfect":
            return "perfect (solver)"
        return self.kind

    def refusal(self, game: _core.Game) -> str | None:
        """Why this seat cannot play ``game`` (an expert whose game ships no network, or
        whose network cannot play this board; the solver on a board too big for it), None
        when it can.

        >>> import stonefield as sf
        >>> Seat.parse("expert").refusal(sf.make("subsume", size=4)) is None
        True
        """
        if self.kind == "perfect":
            return perfect_refusal(game)
        return experts.plays(game) if self.kind == "expert" else None

    @property
    def agent(self) -> str | None:
        """The agent string of an agent's seat (None for a human): what ``match`` reads (but
        ``perfect``, the page's own seat; scripts have :class:`stonefield.Solver`).

        >>> Seat.parse({"kind": "puct", "simulations": 300}).agent
        'puct:simulations=300'
        """
        if self.kind == "human":
            return None
        if self.kind == "perfect":
            return "perfect"
        if self.kind == "random":
            return "random" + "".join(f":seed={v}" for k, v in self.settings if k == "seed")
        if self.kind == "expert":
            return str(experts.expert_string(self.expert(0)))
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
            budget = "simulations" if self.kind in ("puct", "expert") else "iterations"
            out[budget] = self.iterations
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
        if kind == "perfect":
            if spec.strip().lower() != "perfect":
                raise SeatError("a perfect seat takes no settings")
            return Seat("perfect")
        if kind == "puct":
            return _puct_seat(spec, checkpoints)
        if kind == "expert":
            return _expert_seat(spec)
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

    def expert(
        self, seed: int, simulations: int | None = None, game: _core.Game | None = None
    ) -> Any:
        """The PUCT search of an expert seat with its own seed mixed with ``seed``, at
        ``simulations`` (default: the seat's), guided by ``game``'s evaluator (one per board
        the server plays, read once; None: a fresh one)."""
        settings = dict(self.settings)
        own = int(settings.pop("seed", 0))
        settings["simulations"] = self.iterations if simulations is None else simulations
        settings["seed"] = (seed ^ own) & (2**64 - 1)
        agent = experts.build(None, settings)
        if game is None:
            return agent
        return _core.PUCT(expert_evaluator(game), **{k: getattr(agent, k) for k in PUCT_SETTINGS})


def _expert_seat(spec: str) -> Seat:
    """The seat of an ``expert`` agent string (see :meth:`Seat.parse`)."""
    try:
        agent = parse_agent(spec)
    except (_core.InvalidOptionError, TypeError) as e:
        raise SeatError(str(e)) from None
    if getattr(agent, "time", None) is not None:
        raise SeatError("an expert seat takes simulations, not time (the page's clock decides)")
    if getattr(agent, "threads", 1) != 1:
        raise SeatError("an expert seat searches with one thread")
    simulations = int(agent.simulations)
    if not 1 <= simulations <= MAX_ITERATIONS:
        raise SeatError(f"simulations must be 1..{MAX_ITERATIONS}, got {simulations}")
    default = parse_agent("expert")
    settings = tuple(
        (k, getattr(agent, k))
        for k in PUCT_SETTINGS
        if k != "simulations" and getattr(agent, k) != getattr(default, k)
    )
    return Seat("expert", simulations, settings)


#: The evaluators of the expert seats, one per board (by the game's description), so that a
#: network is read once and two boards alike in size never share one.
_EXPERTS: dict[str, Any] = {}
_EXPERTS_LOCK = threading.Lock()


def expert_evaluator(game: _core.Game) -> Any:
    """The evaluator of the expert on ``game`` (checked now), one per board."""
    key = repr((game.name, sorted(dict(game.options).items())))
    with _EXPERTS_LOCK:
        if key not in _EXPERTS:
            evaluator = experts.ExpertEvaluator(game.name)
            evaluator.check_game(game)
            _EXPERTS[key] = evaluator
        return _EXPERTS[key]


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
    if agent.simulations is None:
        raise SeatError("a puct seat needs simulations (time alone is not a seat's budget)")
    if agent.threads > MAX_THREADS:
        raise SeatError(f"threads must be 1..{MAX_THREADS}, got {agent.threads}")
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
    """The seat kinds a request may name: a human, any agent kind that
    :func:`stonefield.parse_agent` reads, and ``perfect``, the solver (on small two-player
    boards only, see :func:`perfect_refusal`; elsewhere a seat naming it is refused).

    >>> available_kinds()
    ['human', 'random', 'mcts', 'puct', 'expert', 'perfect']
    """
    return ["human", *AGENT_KINDS, "perfect"]


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
    if seat.kind == "perfect":
        return perfect_action(seat, state, seed, publish, seconds)
    if seat.kind not in ("mcts", "puct", "expert") or seat.iterations is None:
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
        if seat.kind == "expert":
            # Its budgets grow until the deadline, as MCTS's do.
            search = seat.expert(seed, budget, state.game)
        elif seat.kind == "puct":
            # Its budgets grow until the deadline, as MCTS's do.
            evaluator = _puct_evaluator(settings.pop("checkpoint", None))
            limit = min(left, float(settings.pop("time", left)))
            search = _core.PUCT(
                evaluator,
                simulations=budget,
                time=max(limit, 0.01),
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


def perfect_action(
    seat: Seat, state: _core.State, seed: int, publish: Publish, seconds: float = MAX_SECONDS
) -> int:
    """The perfect seat's action: one of the solver's best actions (chosen by ``seed``, so a
    game replays the same), or a proven winning one; where the solver does not settle the
    position within its budget, the strong search's choice (the page names which answered).

    Raises:
        SeatError: perfect play is not offered for this game (:func:`perfect_refusal`).
    """
    refusal = perfect_refusal(state.game)
    if refusal is not None:
        raise SeatError(refusal)
    deadline = time.monotonic() + min(seconds, MAX_SECONDS)
    res = solve_position(state, min(seconds, PERFECT_SECONDS))
    best = sorted(int(a) for a in res.best)
    publish(
        {
            "player": state.current_player,
            "budget": PERFECT_NODES,
            "iterations": int(res.nodes),
            "solved": res.value,
            "stopped_by": res.stopped_by,
        }
    )
    if best:
        return best[seed % len(best)]
    left = max(0.05, deadline - time.monotonic())
    return choose(Seat.parse(default_opponent()), state, seed, publish, seconds=left)


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
