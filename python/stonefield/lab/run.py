"""Playing a lab: a chunk of games (native agents in Rust, others in Python), on the local
cores or as Ray tasks, each finished chunk appended to the results file."""

from __future__ import annotations

import logging
import math
import socket
import sys
import time
from typing import Any, Callable

import numpy as np
import numpy.typing as npt

from .. import _core
from .._actions import is_action_id
from .._core import Facts, Game, IllegalMoveError, InvalidOptionError, StonefieldError
from .._seeds import seated
from ..agents import agent_kind, agent_string, is_native
from .plan import Chunk, Plan, make_plan, seating, skill_agents
from .results import (
    ResultsFile,
    encode_chunk,
    file_line,
    missing_chunks,
    open_results,
    read_chunk,
)


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
        searching = any(agent_kind(a) != "random" for a in plan.agents)
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


__all__ = [
    "ProgressFn",
    "check_address",
    "execute",
    "make_plan",
    "open_results",
    "print_progress",
    "ray_init",
    "run_chunk",
]
