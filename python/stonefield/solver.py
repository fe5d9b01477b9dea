"""``sf.Solver``: an agent that plays perfectly where the solver finishes within its budget."""

from __future__ import annotations

from typing import Literal, Protocol

from . import _core

#: The largest node budget the solver counts to.
_MAX_U64 = 2**64 - 1


class _Agent(Protocol):
    def act(self, state: _core.State) -> int: ...


class Solver:
    """An agent that plays a best action when ``sf.solve`` proves the position within budget,
    and its fallback's action otherwise.

    A proven winning action is played even when the rest of the position is not solved; with
    every action proven, the lowest of ``best`` is played (so the agent is deterministic).

    Args:
        max_nodes: the solver's node budget per move (None: no limit).
        time: the solver's time budget per move in seconds (None: no limit).
        fallback: the agent for positions not solved in time (default
            ``sf.MCTS(iterations=1000, seed=0)``); any object with ``act(state)``.
        threads: the solver's threads.
        table_mb: the solver's table size in MiB.
        method: the solver's method, ``"alphabeta"`` (default) or ``"pns"``.

    Raises:
        InvalidOptionError: a bad argument, here when the agent is made, not at its first
            move (a budget that is not positive, threads below 1, a ``table_mb`` beyond the
            memory this process may take, a fallback without ``act``).

    >>> import stonefield as sf
    >>> agent = sf.Solver(max_nodes=100_000)
    >>> state = sf.make("smallholder", board="hex232323").new_state()
    >>> agent.act(state)
    1
    """

    def __init__(
        self,
        max_nodes: int | None = None,
        time: float | None = None,
        fallback: _Agent | None = None,
        threads: int | None = None,
        table_mb: int | None = None,
        method: Literal["alphabeta", "pns"] | None = None,
    ) -> None:
        if max_nodes is None and time is None:
            raise _core.InvalidOptionError(
                "Solver needs a budget: max_nodes (≥ 1) and/or time (seconds > 0)"
            )
        if max_nodes is not None and (
            isinstance(max_nodes, bool)
            or not isinstance(max_nodes, int)
            or not 1 <= max_nodes <= _MAX_U64
        ):
            raise _core.InvalidOptionError(
                f"max_nodes must be a whole number from 1 to 2**64 - 1, got {max_nodes!r}"
            )
        if time is not None and (
            isinstance(time, bool)
            or not isinstance(time, (int, float))
            or not time > 0
            or time == float("inf")
        ):
            raise _core.InvalidOptionError(f"time must be a finite number > 0, got {time!r}")
        if method is not None and method not in ("alphabeta", "pns"):
            raise _core.InvalidOptionError(f"method must be one of alphabeta, pns, got {method!r}")
        if threads is not None and (
            isinstance(threads, bool) or not isinstance(threads, int) or threads < 1
        ):
            raise _core.InvalidOptionError(f"threads must be a whole number ≥ 1, got {threads!r}")
        if table_mb is not None:
            avail = _core.available_memory()
            most = max(1, avail >> 20) if avail is not None else 1 << 20
            if isinstance(table_mb, bool) or not isinstance(table_mb, int):
                raise _core.InvalidOptionError(
                    f"table_mb must be a whole number of MiB from 1 to {most}, got {table_mb!r}"
                )
            if not 1 <= table_mb <= most:
                raise _core.InvalidOptionError(
                    f"table_mb must be a whole number of MiB from 1 to {most} (the memory "
                    f"this process may still take), got {table_mb}"
                )
        if fallback is not None and not callable(getattr(fallback, "act", None)):
            raise _core.InvalidOptionError(
                f"fallback must be an agent with act(state), got {type(fallback).__name__}"
            )
        self.max_nodes = max_nodes
        self.time = time
        self.threads = threads
        self.table_mb = table_mb
        self.method = method
        self.fallback: _Agent = (
            fallback if fallback is not None else _core.MCTS(iterations=1000, seed=0)
        )
        self.last: _core.SolveResult | None = None

    def act(self, state: _core.State) -> int:
        """A best action for the player to move (state is not changed).

        Raises:
            SolveInterrupted: Ctrl-C stopped the solve (a KeyboardInterrupt, so that a match
                with this agent stops: ``sf.match`` raises ``MatchInterrupted``); ``last`` holds
                the partial result.
        """
        try:
            res = _core.solve(
                state,
                max_nodes=self.max_nodes,
                time=self.time,
                threads=self.threads,
                table_mb=self.table_mb,
                method=self.method,
            )
        except _core.SolveInterrupted as e:
            if isinstance(e.result, _core.SolveResult):
                self.last = e.result
            raise
        self.last = res
        if res.best:
            return int(min(res.best))
        return int(self.fallback.act(state))

    def __repr__(self) -> str:
        method = "" if self.method is None else f", method={self.method!r}"
        return (
            f"Solver(max_nodes={self.max_nodes}, time={self.time}{method}, "
            f"fallback={self.fallback!r})"
        )
