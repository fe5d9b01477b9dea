"""Running a lab: the grid of variants, the results file, and the local and Ray backends."""

from __future__ import annotations

import itertools
import logging
import math
import socket
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import numpy.typing as npt

from .. import _core
from .._actions import is_action_id
from .._core import Facts, Game, IllegalMoveError, InvalidOptionError, RecordError, StonefieldError
from .._seeds import seated
from ..agents import MCTS_SETTINGS, PUCT_SETTINGS, agent_string, is_native, parse_agent
from .columns import columns_of
from .results import FORMAT, ResultsFile


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
    if isinstance(agent, _core.MCTS):
        settings = {k: getattr(agent, k) for k in MCTS_SETTINGS}
        if settings["iterations"] is not None:
            settings["iterations"] = max(1, round(settings["iterations"] * factor))
        if settings["time"] is not None:
            settings["time"] = settings["time"] * factor
        return _core.MCTS(**settings)
    if isinstance(agent, _core.PUCT):
        settings = {k: getattr(agent, k) for k in PUCT_SETTINGS}
        settings["simulations"] = max(1, round(settings["simulations"] * factor))
        return _core.PUCT(agent.evaluator, **settings)
    raise InvalidOptionError(
        f"{agent_string(agent)} has no budget to scale; agents with one: mcts (iterations,"
        " time), puct (simulations)"
    )


def skill_agents(plan: Plan) -> list[Any]:
    """[the base agent at :data:`SKILL_FACTOR` times its budget, the base agent]: the lab's
    (first) agent, or MCTS with :data:`SKILL_FALLBACK_ITERATIONS` iterations when it has no
    budget (a random or a Python agent)."""
    base = plan.agents[0]
    if not isinstance(base, (_core.MCTS, _core.PUCT)):
        base = _core.MCTS(iterations=SKILL_FALLBACK_ITERATIONS)
    return [at_budget(base, SKILL_FACTOR), base]


def run_chunk(
    game: Game,
    agents: list[Any],
    seats: npt.NDArray[np.int64],
    seed: int,
    first: int,
    threads: int | None,
    label: str,
    keep: int = 0,
) -> Facts:
    """Plays one chunk and returns its per-game facts (native agents in Rust, others in Python
    on this thread), with the actions of the games it keeps (:meth:`Facts.records`): those with
    an index below ``keep`` and those that repeat a position."""
    if all(is_native(a) for a in agents):
        return _core.lab_play(game, agents, seats, seed, first, threads, keep)
    return _play_python(game, agents, seats, seed, first, threads, label, keep)


def _play_python(
    game: Game,
    agents: list[Any],
    seats: npt.NDArray[np.int64],
    seed: int,
    first: int,
    threads: int | None,
    label: str,
    keep: int,
) -> Facts:
    actions: list[int] = []
    offsets = [0]
    for k in range(seats.shape[0]):
        i = first + k
        players = [seated(agents[a], seed, i, j) for j, a in enumerate(seats[k])]
        state = game.new_state()
        while (p := state.current_player) is not None:
            who = agent_string(agents[int(seats[k, p])])
            try:
                action = players[p].act(state.copy())
            except Exception as e:
                raise StonefieldError(
                    f"variant {label}: agent {who} raised in game {i} (move {state.move_count})"
                    f" of {game.name}: {type(e).__name__}: {e}"
                ) from e
            try:
                if not is_action_id(action):
                    raise TypeError(f"an action is an integer, not {type(action).__name__}")
                state.apply(int(action))
            except (StonefieldError, TypeError, ValueError) as e:
                raise IllegalMoveError(
                    f"variant {label}: agent {who} played {action!r} in game {i}"
                    f" (move {state.move_count}) of {game.name}, which is not legal: {e}"
                ) from None
        actions.extend(state.history)
        offsets.append(len(actions))
    acts = np.array(actions, dtype=np.uint32)
    offs = np.array(offsets, dtype=np.int64)
    return _core.lab_stats(game, acts, offs, None, threads, first=first, keep=keep)


# ---------------------------------------------------------------------------------------------
# The results file


def encode_chunk(chunk: Chunk, seed: int, facts: Facts) -> dict[str, Any]:
    """A chunk's entry as a run holds it: its place, its per-game ``facts`` (kept in Rust) and
    the action lists of the games :func:`run_chunk` kept."""
    return {
        "kind": chunk.kind,
        "variant": chunk.variant,
        "first": chunk.first,
        "count": chunk.count,
        "seed": seed,
        "facts": facts,
        "records": list(facts.records()),
    }


def file_line(entry: dict[str, Any]) -> dict[str, Any]:
    """A chunk's entry as the results file holds it: the facts as ``stats``, one JSON list
    per column (:meth:`Facts.to_lists`, in the order of
    :func:`~stonefield.lab.columns.columns_of`)."""
    out = {k: v for k, v in entry.items() if k not in ("facts", "records")}
    out["stats"] = entry["facts"].to_lists()
    out["records"] = entry["records"]
    return out


def read_chunk(plan: Plan, entry: dict[str, Any], path: str) -> dict[str, Any]:
    """A chunk's entry of the results file ``path`` as a run holds it: its ``stats`` read into
    Rust once (:meth:`Facts.from_lists`); a column that does not read is a
    :class:`~stonefield.RecordError` naming the chunk."""
    game = plan.variants[entry["variant"]].game
    try:
        facts = Facts.from_lists(game, entry["stats"])
    except RecordError as e:
        raise RecordError(
            f"{path}: the {entry['kind']} chunk of variant {entry['variant']} from game"
            f" {entry['first']}: {e}"
        ) from None
    if len(facts) != entry["count"]:
        raise RecordError(
            f"{path}: the {entry['kind']} chunk of variant {entry['variant']} from game"
            f" {entry['first']} holds {len(facts)} games, not {entry['count']}"
        )
    out = {k: v for k, v in entry.items() if k not in ("stats", "records")}
    out["facts"] = facts
    out["records"] = entry.get("records", [])
    return out


def open_results(plan: Plan, path: str) -> ResultsFile:
    """Opens and locks the results file ``path`` for a run of ``plan``: repaired, checked line
    by line against the plan (see :mod:`stonefield.lab.results`), with the header written when
    the file holds none. A file written by other arguments is refused."""
    totals = {"games": plan.games, "skill": plan.skill}
    return ResultsFile(
        path,
        plan.header(),
        variants=len(plan.variants),
        totals=totals,
        columns=columns_of(plan.variants[0].game),
        games=[v.game for v in plan.variants],
    )


def missing_chunks(plan: Plan, done: list[dict[str, Any]], chunk_size: int) -> list[Chunk]:
    """The chunks still to play: per variant and kind, the game ranges no finished chunk holds,
    cut into pieces of at most ``chunk_size``."""
    have: dict[tuple[int, str], list[tuple[int, int]]] = {}
    for e in done:
        if e.get("kind") in ("games", "skill"):
            have.setdefault((e["variant"], e["kind"]), []).append(
                (e["first"], e["first"] + e["count"])
            )
    todo = []
    for v in plan.variants:
        kinds = [("games", plan.games)]
        if plan.skill:
            kinds.append(("skill", plan.skill))
        for kind, total in kinds:
            # The uncovered ranges: merge the finished ones, then take the gaps between them.
            i = 0
            for a, b in sorted(have.get((v.index, kind), [])) + [(total, total)]:
                a, b = min(a, total), min(b, total)
                while i < a:
                    j = min(a, i + chunk_size)
                    todo.append(Chunk(v.index, kind, i, j - i))
                    i = j
                i = max(i, b)
    return todo


# ---------------------------------------------------------------------------------------------
# Backends


def check_address(address: str, timeout: float = 3.0) -> None:
    """Fails within ``timeout`` seconds when a ``host:port`` Ray address does not answer."""
    if address == "auto":
        return
    target = address.split("://", 1)[-1]
    host, _, port = target.rpartition(":")
    if not host or not port.isdigit():
        raise InvalidOptionError(
            f"a Ray address is host:port, ray://host:port or 'auto', got {address!r}"
        )
    try:
        with socket.create_connection((host, int(port)), timeout=timeout):
            pass
    except OSError as e:
        raise ConnectionError(
            f"no Ray cluster answers at {address} ({e}); start one with `ray start --head`"
        ) from None


def ray_init(address: str | None) -> Any:
    """Connects to (or starts) Ray; an unreachable address fails within seconds."""
    try:
        import ray
    except ImportError:
        raise ImportError('the Ray backend needs ray: pip install "stonefield[ray]"') from None
    if ray.is_initialized():
        return ray
    if address is not None:
        check_address(address)
    # Quiet, dashboard-less start; a local cluster of recent Ray versions sets up its own
    # authentication token, which the driver started here receives.
    try:
        ray.init(
            address=address,
            include_dashboard=False,
            log_to_driver=False,
            logging_level=logging.ERROR,
        )
    except ConnectionError as e:
        raise ConnectionError(
            f"could not join the Ray cluster at {address}: {e}. A cluster with token"
            " authentication (the default for local clusters since Ray 2.59) needs its token"
            " here too: set RAY_AUTH_TOKEN or copy its token file (see `ray get-auth-token`)"
        ) from None
    return ray


def _ray_task(
    game_name: str,
    options: dict[str, Any],
    agents: list[Any],
    seats: npt.NDArray[np.int64],
    seed: int,
    first: int,
    label: str,
    keep: int,
) -> Facts:
    import ray

    resources: dict[str, float] = ray.get_runtime_context().get_assigned_resources()  # type: ignore[no-untyped-call]
    cpus = resources.get("CPU", 1.0)
    threads = max(1, int(cpus))
    game = _core.make(game_name, **options)
    return run_chunk(game, agents, seats, seed, first, threads, label, keep)


ProgressFn = Callable[[int, int, float], None]

#: How many times Ray reruns a chunk whose node or worker died.
RAY_RETRIES = 3


def execute(
    plan: Plan,
    out: ResultsFile | None,
    backend: str,
    address: str | None,
    chunk_size: int | None,
    threads: int | None,
    progress: ProgressFn | None,
    cpus_per_task: int = 1,
) -> list[dict[str, Any]]:
    """Plays every missing chunk, appending each finished one to ``out`` (opened by
    :func:`open_results`); returns all chunk entries (old and new). Ctrl-C stops after writing
    the chunks that have finished."""
    done: list[dict[str, Any]] = []
    if out is not None:
        done = [
            read_chunk(plan, e, out.path) if e.get("kind") in ("games", "skill") else e
            for e in out.entries
        ]
    if chunk_size is None:
        searching = any(not isinstance(a, _core.RandomAgent) for a in plan.agents)
        chunk_size = 32 if searching or plan.skill else 100_000
    if chunk_size < 1:
        raise InvalidOptionError(f"chunk must be at least 1, got {chunk_size}")
    if cpus_per_task < 1:
        raise InvalidOptionError(f"cpus_per_task must be at least 1, got {cpus_per_task}")
    todo = missing_chunks(plan, done, chunk_size)
    total = sum(c.count for c in todo)

    finished = 0
    started = time.monotonic()

    def keep_below(chunk: Chunk) -> int:
        # Game 0 of every variant is kept for the report's board picture; 3–4 player variants
        # also keep the king-making sample.
        if chunk.kind != "games":
            return 0
        many = plan.variants[chunk.variant].game.num_players >= 3
        return max(1, plan.kingmaking if many else 0)

    def record(chunk: Chunk, facts: Facts) -> None:
        nonlocal finished
        entry = encode_chunk(chunk, plan.seed, facts)
        done.append(entry)
        if out is not None:
            out.append(file_line(entry))
        finished += chunk.count
        if progress is not None:
            progress(finished, total, time.monotonic() - started)

    def agents_for(chunk: Chunk) -> list[Any]:
        return skill_agents(plan) if chunk.kind == "skill" else plan.agents

    if backend == "local":
        for chunk in todo:
            v = plan.variants[chunk.variant]
            seats = seating(plan, v, chunk.kind, chunk.first, chunk.count)
            facts = run_chunk(
                v.game,
                agents_for(chunk),
                seats,
                plan.seed,
                chunk.first,
                threads,
                v.label,
                keep_below(chunk),
            )
            record(chunk, facts)
    elif backend == "ray":
        ray = ray_init(address)
        # A chunk whose node or worker dies is run again elsewhere: Ray retries system
        # failures (never an error the task raises itself), and a chunk is recorded once,
        # when its one result arrives, so a rerun neither loses nor doubles games.
        task = ray.remote(num_cpus=cpus_per_task, max_retries=RAY_RETRIES)(_ray_task)
        pending = {}
        for chunk in todo:
            v = plan.variants[chunk.variant]
            seats = seating(plan, v, chunk.kind, chunk.first, chunk.count)
            ref = task.remote(
                plan.game,
                v.options,
                agents_for(chunk),
                seats,
                plan.seed,
                chunk.first,
                v.label,
                keep_below(chunk),
            )
            pending[ref] = chunk
        try:
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    chunk = pending.pop(ref)
                    record(chunk, ray.get(ref))
        except BaseException:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise
    else:
        raise InvalidOptionError(f"backend must be 'local' or 'ray', got {backend!r}")
    return done


def gather(plan: Plan, entries: list[dict[str, Any]], kind: str = "games") -> list[Facts]:
    """Per variant, its games' facts in game order (each game once), joined in Rust
    (:meth:`Facts.concat`; a variant of one chunk keeps that chunk's facts as they are)."""
    by_variant: list[list[dict[str, Any]]] = [[] for _ in plan.variants]
    for e in entries:
        if e.get("kind") == kind:
            by_variant[e["variant"]].append(e)
    out = []
    for v, chunks in zip(plan.variants, by_variant):
        chunks.sort(key=lambda e: e["first"])
        out.append(Facts.concat(v.game, [e["facts"] for e in chunks]))
    return out


def records(entries: list[dict[str, Any]], variant: int) -> dict[int, dict[str, Any]]:
    """The action lists kept for a variant's games, by game index."""
    out = {}
    for e in entries:
        if e.get("kind") == "games" and e["variant"] == variant:
            for r in e.get("records", []):
                out[int(r["index"])] = r
    return out


def print_progress(done: int, total: int, seconds: float) -> None:
    """The command line's progress bar, with an estimate of the time left; drawn only when
    stderr is a terminal (a redirected stderr gets no ``\\r`` frames)."""
    if total == 0 or not sys.stderr.isatty():
        return
    frac = done / total
    left = seconds / frac - seconds if frac > 0 else float("nan")
    bar = "#" * int(30 * frac)
    eta = f"{left:6.0f} s left" if math.isfinite(left) else ""
    sys.stderr.write(f"\r[{bar:<30}] {done}/{total} games {eta}")
    if done >= total:
        sys.stderr.write("\n")
    sys.stderr.flush()
