"""Matches between agents: seat rotation, scores with Wilson intervals, Elo, records.

>>> import stonefield as sf
>>> m = sf.match("subsume", [sf.MCTS(iterations=100), sf.RandomAgent()], games=4, seed=1,
...             size=3)
>>> m.seats.tolist()
[[0, 1], [1, 0], [0, 1], [1, 0]]
>>> m.score.shape, m.score_ci.shape, m.lengths.dtype.name
((2,), (2, 2), 'uint32')
>>> int(m.wins.sum() + m.draws.sum() + m.losses.sum())
8
>>> m  # doctest: +ELLIPSIS
<Match subsume: 4 games, seed 1; agents [mcts:iterations=100, random], scores [...]>
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import numpy.typing as npt

from . import _core
from ._actions import is_action_id
from ._args import count_arg, game_arg, seed_arg, threads_arg
from ._core import Game, IllegalMoveError, InvalidOptionError, State
from ._seeds import seated
from .agents import agent_kind, agent_string, parse_agent
from .records import to_record

__all__ = [
    "Match",
    "Z95",
    "elo_difference",
    "match",
    "rotation",
    "wilson_interval",
]

#: The two-sided 95 % normal quantile.
Z95 = 1.959963984540054

#: The most games per call of the native runner when progress is reported.
_CHUNK = 256
#: The most games one match plays: a match keeps every game's moves in memory (ten million
#: short games hold a few GiB); for more, run several with other seeds, or the lab, which
#: writes its games to a results file in chunks.
MAX_GAMES = 10_000_000

#: Parts of a native run with progress grow while they take less than this (seconds).
_PART_SECONDS = 0.5


def wilson_interval(score: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``score`` observed over ``n`` trials.

    A draw counts as half a win, so ``score`` may lie between the multiples of ``1 / n``; the
    formula is applied to it as it stands (the usual practice for chess-like results).

    Args:
        score: The observed proportion, in [0, 1].
        n: The number of games (≥ 1).
        z: The normal quantile (1.96 for 95 %).

    Returns:
        ``(low, high)``, inside [0, 1].

    >>> [round(x, 4) for x in wilson_interval(0.7, 10)]
    [0.3968, 0.8922]
    >>> [round(x, 4) for x in wilson_interval(1.0, 10)]
    [0.7225, 1.0]
    """
    if n < 1:
        raise InvalidOptionError(f"a Wilson interval needs n ≥ 1 games, got {n}")
    if not 0.0 <= score <= 1.0:
        raise InvalidOptionError(f"a score lies in [0, 1], got {score}")
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (score + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(score * (1.0 - score) / n + z2 / (4.0 * n * n))
    # The interval always holds the score; clamping keeps rounding from moving an end past it
    # (at a score of 0 or 1 the end is then exactly 0 or 1).
    return min(max(0.0, centre - half), score), max(min(1.0, centre + half), score)


def elo_difference(score: float) -> float:
    """The Elo difference that predicts ``score``: ``400 · log10(score / (1 − score))``.

    A score of 1 gives ``+inf`` and a score of 0 ``-inf`` (no finite difference predicts them).

    >>> round(elo_difference(0.75), 2), elo_difference(0.5), elo_difference(1.0)
    (190.85, 0.0, inf)
    """
    if not 0.0 <= score <= 1.0:
        raise InvalidOptionError(f"a score lies in [0, 1], got {score}")
    if score == 0.0:
        return -math.inf
    if score == 1.0:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score))


def rotation(n_agents: int, games: int) -> npt.NDArray[np.int64]:
    """The seating of a match: game ``i`` puts agent ``a`` in seat ``(a + i) mod n``.

    Over ``n`` consecutive games every agent sits once in every seat (the cyclic shifts of the
    agent list). When ``games`` is not a multiple of ``n``, the first ``games mod n`` shifts are
    played once more, so seat counts differ by at most one game; every agent still plays every
    game.

    Returns:
        int64 (games, n): the agent index in each seat.

    >>> rotation(3, 4).tolist()
    [[0, 1, 2], [2, 0, 1], [1, 2, 0], [0, 1, 2]]
    """
    seats = (np.arange(n_agents)[None, :] - np.arange(games)[:, None]) % n_agents
    return seats.astype(np.int64)


@dataclass(frozen=True, eq=False)
class Match:
    """The games of :func:`match` and their statistics.

    Attributes:
        game: The game played.
        agents: The agents, in the order given.
        seed: The match seed.
        seats: int64 (games, num_players): the agent index in each seat of each game.
        returns: float64 (games, num_players): final returns by seat, in [-1, 1].
        ranks: float64 (games, num_players): final ranks by seat (1 = best, ties share).
        lengths: uint32 (games,): actions per game.
        truncated: bool (games,): whether the move cap ended the game.
        actions: uint32: every game's actions, concatenated.
        offsets: int64 (games + 1,): game ``i`` is ``actions[offsets[i]:offsets[i + 1]]``.
        values: float32, beside ``actions``: the mover's root value estimate at each
            decision, NaN where the agent does not search (or is a Python agent).
        seconds: Wall-clock time of the match.
    """

    game: Game
    agents: tuple[Any, ...]
    seed: int
    seats: npt.NDArray[np.int64]
    returns: npt.NDArray[np.float64]
    ranks: npt.NDArray[np.float64]
    lengths: npt.NDArray[np.uint32]
    truncated: npt.NDArray[np.bool_]
    actions: npt.NDArray[np.uint32]
    offsets: npt.NDArray[np.int64]
    values: npt.NDArray[np.float32]
    seconds: float

    @property
    def n_games(self) -> int:
        """The number of games."""
        return int(self.lengths.shape[0])

    def __repr__(self) -> str:
        agents = ", ".join(agent_string(a) for a in self.agents)
        scores = ", ".join(f"{s:.3f}" for s in self.score)
        return (
            f"<Match {self.game.name}: {self.n_games} games, seed {self.seed};"
            f" agents [{agents}], scores [{scores}]>"
        )

    def _by_agent(self, per_seat: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """(games, seats) → (games, agents): each agent's entry in each game."""
        seat_of = np.argsort(self.seats, axis=1)
        return np.take_along_axis(per_seat, seat_of, axis=1)

    @property
    def agent_returns(self) -> npt.NDArray[np.float64]:
        """float64 (games, n_agents): each agent's return in each game."""
        return self._by_agent(self.returns)

    @property
    def score(self) -> npt.NDArray[np.float64]:
        """float64 (n_agents,): each agent's mean of ``(return + 1) / 2`` (a win 1, a two-player
        draw 0.5, a loss 0)."""
        return np.asarray((self.agent_returns + 1.0).mean(axis=0) / 2.0, dtype=np.float64)

    def _outcomes(self) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
        ranks = self._by_agent(self.ranks)
        best = ranks.min(axis=1, keepdims=True)
        won = ranks == 1.0  # ranks average over ties, so 1 means alone in first place
        drew = (ranks == best) & ~won
        return won, drew

    @property
    def wins(self) -> npt.NDArray[np.int64]:
        """int64 (n_agents,): games each agent finished alone in first place."""
        return np.asarray(self._outcomes()[0].sum(axis=0), dtype=np.int64)

    @property
    def draws(self) -> npt.NDArray[np.int64]:
        """int64 (n_agents,): games each agent finished tied for first place (all truncated
        games among them)."""
        return np.asarray(self._outcomes()[1].sum(axis=0), dtype=np.int64)

    @property
    def losses(self) -> npt.NDArray[np.int64]:
        """int64 (n_agents,): games each agent finished below first place."""
        won, drew = self._outcomes()
        return np.asarray((~won & ~drew).sum(axis=0), dtype=np.int64)

    @property
    def score_ci(self) -> npt.NDArray[np.float64]:
        """float64 (n_agents, 2): the 95 % Wilson interval of each agent's score."""
        return np.array([wilson_interval(float(s), self.n_games) for s in self.score])

    @property
    def elo(self) -> float | None:
        """Two agents: the Elo difference of agent 0 over agent 1 from agent 0's score
        (``±inf`` for a score of 1 or 0); None for other numbers of agents."""
        if len(self.agents) != 2:
            return None
        return elo_difference(float(self.score[0]))

    @property
    def elo_ci(self) -> tuple[float, float] | None:
        """Two agents: the 95 % interval of :attr:`elo`, the Wilson interval of agent 0's score
        mapped through the Elo formula (an end is infinite when the interval reaches 0 or 1);
        None for other numbers of agents."""
        if len(self.agents) != 2:
            return None
        low, high = self.score_ci[0]
        return elo_difference(float(low)), elo_difference(float(high))

    @property
    def seat_games(self) -> npt.NDArray[np.int64]:
        """int64 (n_agents, num_players): how many games each agent played in each seat."""
        n = len(self.agents)
        counts = np.zeros((n, self.seats.shape[1]), dtype=np.int64)
        for seat in range(self.seats.shape[1]):
            counts[:, seat] = np.bincount(self.seats[:, seat], minlength=n)
        return counts

    @property
    def seat_scores(self) -> npt.NDArray[np.float64]:
        """float64 (n_agents, num_players): each agent's score in each seat (NaN where it never
        sat)."""
        n = len(self.agents)
        sums = np.zeros((n, self.seats.shape[1]))
        for seat in range(self.seats.shape[1]):
            sums[:, seat] = np.bincount(
                self.seats[:, seat], weights=(self.returns[:, seat] + 1.0) / 2.0, minlength=n
            )
        counts = self.seat_games
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)

    def game_actions(self, index: int) -> list[int]:
        """The actions of game ``index``."""
        lo, hi = int(self.offsets[index]), int(self.offsets[index + 1])
        return [int(a) for a in self.actions[lo:hi]]

    def records(self) -> list[dict[str, Any]]:
        """Every game as a record in the JSON record format of :mod:`stonefield.records`,
        replayed and checked. Each record also carries ``"metadata"``: the match seed, the
        game's index and the agents by seat (their agent strings)."""
        names = [agent_string(a) for a in self.agents]
        out = []
        for i in range(self.n_games):
            state = self.game.new_state()
            for a in self.game_actions(i):
                state.apply(a)
            record = to_record(state)
            record["metadata"] = {
                "match_seed": self.seed,
                "game_index": i,
                "agents": [names[a] for a in self.seats[i]],
            }
            out.append(record)
        return out

    def summary(self) -> str:
        """A printable table: each agent's score with its interval, wins, draws, losses and
        score by seat, then the Elo difference (two agents) and the game lengths."""
        g = self.game
        opts = ", ".join(f"{k}={v}" for k, v in g.options.items())
        names = [agent_string(a) for a in self.agents]
        width = max(12, *(len(s) for s in names)) + 4
        n_seats = self.seats.shape[1]
        lines = [
            f"{g.name} ({opts})",
            f"{self.n_games} games, seed {self.seed}, {self.seconds:.2f} s",
            "",
            f"{'agent':<{width}} {'score':>6} {'95% interval':>15} {'wins':>6} {'draws':>6}"
            f" {'losses':>6}" + "".join(f" {'seat ' + str(j):>7}" for j in range(n_seats)),
        ]
        score, ci, seat_scores = self.score, self.score_ci, self.seat_scores
        wins, draws, losses = self.wins, self.draws, self.losses
        for a, name in enumerate(names):
            lines.append(
                f"{f'{a} {name}':<{width}} {score[a]:>6.3f} "
                f"{f'[{ci[a, 0]:.3f}, {ci[a, 1]:.3f}]':>15} {wins[a]:>6} {draws[a]:>6}"
                f" {losses[a]:>6}" + "".join(f" {s:>7.3f}" for s in seat_scores[a])
            )
        lines.append("")
        if self.elo is not None and self.elo_ci is not None:
            low, high = self.elo_ci
            lines.append(
                f"Elo difference (agent 0 over agent 1): {_signed(self.elo)}"
                f"  95% interval [{_signed(low)}, {_signed(high)}]"
            )
        lengths = self.lengths.astype(np.float64)
        lines.append(
            f"length: mean {lengths.mean():.1f} actions (min {int(lengths.min())},"
            f" max {int(lengths.max())}); truncated {int(self.truncated.sum())}"
        )
        return "\n".join(lines)


def _signed(x: float) -> str:
    return f"{x:+.0f}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")


def _agents_arg(agents: Any, game: Game) -> tuple[Any, ...]:
    if isinstance(agents, (str, bytes)) or not isinstance(agents, Sequence):
        raise TypeError(f"agents must be a list of agents, got {type(agents).__name__}")
    out = []
    for i, a in enumerate(agents):
        if isinstance(a, str):
            a = parse_agent(a)
        elif not callable(getattr(a, "act", None)):
            raise TypeError(
                f"agent {i}: an agent has an act(state) method or is an agent string"
                f" such as 'mcts' or 'random', got {type(a).__name__}"
            )
        out.append(a)
    n = game.num_players
    if len(out) != n:
        raise InvalidOptionError(
            f"{game.name} has {n} players, so a match takes {n} agents (one per seat),"
            f" got {len(out)}"
        )
    return tuple(out)


def match(
    game: Game | str,
    agents: Sequence[Any],
    *,
    games: int = 100,
    seed: int = 0,
    threads: int | None = None,
    progress: Callable[[int, int], Any] | None = None,
    **options: Any,
) -> Match:
    """Plays ``games`` games between ``agents`` with rotating seats and scores them.

    Game ``i`` seats the agents by :func:`rotation`: agent ``a`` plays seat ``(a + i) mod n``,
    so with a multiple of ``n`` games every agent plays every seat equally often (otherwise the
    seat counts differ by at most one).

    When every agent is native (:class:`stonefield.MCTS`, :class:`stonefield.RandomAgent`), whole
    games run in Rust on ``threads`` threads with the GIL released, Ctrl-C stops them at once,
    and game ``i`` draws from random streams derived from ``(seed, i)``, so the match is the
    same whatever the thread count. When the agents are :class:`stonefield.PUCT` searches and
    native agents, all the games run at once in Rust on one thread, and each PUCT agent's
    waiting leaves of every game go to its evaluator in one call. Otherwise the games run one
    after another on the calling
    thread: each agent acts on a copy of the position, native agents get a seed derived from
    ``(seed, i, seat)`` for game ``i``, and a Python agent with a ``reset`` method is called as
    ``agent.reset(seed=...)`` with that seed before each game.

    Args:
        game: A :class:`Game`, or a game id with ``options`` as keyword arguments.
        agents: One agent per player: objects with ``act(state) -> int`` or agent strings
            (see :func:`stonefield.agents.parse_agent`).
        games: Number of games (1 to :data:`MAX_GAMES`).
        seed: The match seed (0 to 2**64 − 1).
        threads: Worker threads for native games; None uses every core.
        progress: Called as ``progress(done, games)`` as games finish (native games are then
            run in parts, which does not change the results).
        **options: Game options when ``game`` is an id.

    Returns:
        A :class:`Match`.

    Raises:
        InvalidOptionError: ``games`` < 1 or above :data:`MAX_GAMES`, a bad seed or thread
            count, an unknown agent string, or not one agent per player.
        TypeError: an argument of the wrong type (bools are not counts).
        IllegalMoveError: a Python agent chose an action that is not legal (the message names
            the agent, the game index and the action); no Match is returned.
        MatchInterrupted: Ctrl-C (a KeyboardInterrupt) stopped the match; its ``match`` holds
            the games finished before (native searches stop within an iteration).

    >>> import stonefield as sf
    >>> m = sf.match("windflowers", ["mcts:iterations=200", "random"], games=2, seed=3)
    >>> print(m.summary())  # doctest: +ELLIPSIS
    windflowers (players=2, ...)
    2 games, seed 3, ... s
    <BLANKLINE>
    agent ...
    """
    game = game_arg(game, options)
    agent_list = _agents_arg(agents, game)
    games = count_arg("games", games, 1)
    if games > MAX_GAMES:
        raise InvalidOptionError(
            f"games must be at most {MAX_GAMES:,} (a match keeps every game's moves), got"
            f" {games:,}; play several matches with other seeds, or use the lab"
        )
    seed = seed_arg(seed)
    threads = threads_arg(threads)
    seats = rotation(len(agent_list), games)
    started = time.perf_counter()
    kinds = {agent_kind(a) for a in agent_list}
    if kinds <= {"mcts", "random"}:
        raw = _play_native(game, agent_list, seats, seed, threads, progress)
    elif None not in kinds:
        # PUCT agents: every game at once in Rust, each evaluator call serving all of them.
        raw = dict(_core.puct_play_games(game, list(agent_list), seats, seed, keep_partial=True))
        if progress is not None and raw["interrupted"] is None:
            progress(len(seats), len(seats))
    else:
        raw = _play_python(game, agent_list, seats, seed, progress)
    played = _match_of(game, agent_list, seed, seats, raw, started)
    if raw.get("interrupted") is not None:
        raise MatchInterrupted(played if played.n_games else None) from raw["interrupted"]
    return played


class MatchInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a match; ``match`` is the :class:`Match` of the games that finished
    before it (None when none had), so that nothing finished is lost."""

    def __init__(self, match: Match | None) -> None:
        done = match.n_games if match is not None else 0
        super().__init__(f"the match was interrupted after {done} finished game(s)")
        self.match = match


def _match_of(
    game: Game,
    agent_list: tuple[Any, ...],
    seed: int,
    seats: npt.NDArray[np.int64],
    raw: dict[str, Any],
    started: float,
) -> Match:
    """The Match of ``raw``'s games (the first rows of ``seats``: all, or those finished)."""
    offsets = np.asarray(raw["offsets"], dtype=np.int64)
    seats = seats[: len(offsets) - 1]
    return Match(
        game=game,
        agents=agent_list,
        seed=seed,
        seats=seats,
        returns=np.asarray(raw["returns"], dtype=np.float64),
        ranks=np.asarray(raw["ranks"], dtype=np.float64),
        lengths=np.diff(offsets).astype(np.uint32),
        truncated=np.asarray(raw["truncated"], dtype=np.bool_),
        actions=np.asarray(raw["actions"], dtype=np.uint32),
        offsets=offsets,
        values=np.asarray(raw["values"], dtype=np.float32),
        seconds=time.perf_counter() - started,
    )


def _play_native(
    game: Game,
    agents: tuple[Any, ...],
    seats: npt.NDArray[np.int64],
    seed: int,
    threads: int | None,
    progress: Callable[[int, int], Any] | None,
) -> dict[str, Any]:
    if progress is None:
        return dict(
            _core.play_games(game, list(agents), seats, seed, threads=threads, keep_partial=True)
        )
    parts = []
    total = seats.shape[0]
    # Parts start at one game per thread and double while quick, so progress comes often on
    # slow searches and rarely costs anything on fast ones; `first` keeps the games the same.
    size = min(threads or os.cpu_count() or 1, _CHUNK)
    first = 0
    while first < total:
        started = time.perf_counter()
        part = _core.play_games(
            game,
            list(agents),
            seats[first : first + size],
            seed,
            threads=threads,
            first=first,
            keep_partial=True,
        )
        parts.append(part)
        if part["interrupted"] is not None:
            break
        first = min(first + size, total)
        progress(first, total)
        if time.perf_counter() - started < _PART_SECONDS:
            size = min(2 * size, _CHUNK)
    return _concat(parts)


def _concat(parts: list[dict[str, Any]]) -> dict[str, Any]:
    ends = np.cumsum([0] + [len(p["actions"]) for p in parts[:-1]])
    return {
        "actions": np.concatenate([p["actions"] for p in parts]),
        "offsets": np.concatenate(
            [parts[0]["offsets"][:1]] + [p["offsets"][1:] + e for p, e in zip(parts, ends)]
        ),
        "values": np.concatenate([p["values"] for p in parts]),
        "returns": np.concatenate([p["returns"] for p in parts]),
        "ranks": np.concatenate([p["ranks"] for p in parts]),
        "truncated": np.concatenate([p["truncated"] for p in parts]),
        "interrupted": parts[-1].get("interrupted"),
    }


def _play_python(
    game: Game,
    agents: tuple[Any, ...],
    seats: npt.NDArray[np.int64],
    seed: int,
    progress: Callable[[int, int], Any] | None,
) -> dict[str, Any]:
    n_games, n = seats.shape
    actions: list[int] = []
    offsets = [0]
    returns = np.zeros((n_games, n))
    ranks = np.zeros((n_games, n))
    truncated = np.zeros(n_games, dtype=np.bool_)
    interrupted: KeyboardInterrupt | None = None
    done = 0
    for i in range(n_games):
        players = [seated(agents[a], seed, i, j) for j, a in enumerate(seats[i])]
        state = game.new_state()
        try:
            while (p := state.current_player) is not None:
                action = players[p].act(state.copy())
                _check_action(state, action, int(seats[i, p]), agents, i)
                state.apply(int(action))
        except KeyboardInterrupt as e:
            interrupted = e  # the games before this one are kept
            break
        done = i + 1
        actions.extend(state.history)
        offsets.append(len(actions))
        returns[i] = _required(state.returns())
        ranks[i] = _required(state.ranks())
        truncated[i] = state.truncated
        if progress is not None:
            progress(i + 1, n_games)
    return {
        "actions": np.array(actions, dtype=np.uint32),
        "offsets": np.array(offsets, dtype=np.int64),
        "values": np.full(len(actions), np.nan, dtype=np.float32),
        "returns": returns[:done],
        "ranks": ranks[:done],
        "truncated": truncated[:done],
        "interrupted": interrupted,
    }


def _required(values: npt.NDArray[np.float64] | None) -> npt.NDArray[np.float64]:
    if values is None:  # a finished game always has them
        raise RuntimeError("a finished game has no returns")
    return values


def _check_action(
    state: State, action: Any, agent: int, agents: tuple[Any, ...], game_index: int
) -> None:
    """Raises IllegalMoveError unless ``action`` is a legal action id in ``state``."""
    ok = (
        is_action_id(action)
        and 0 <= int(action) < state.game.num_actions
        and state.is_legal(int(action))
    )
    if not ok:
        legal = state.legal_actions().tolist()
        shown = ", ".join(str(a) for a in legal[:12]) + (", ..." if len(legal) > 12 else "")
        raise IllegalMoveError(
            f"agent {agent} ({agent_string(agents[agent])}) chose {action!r} in game"
            f" {game_index} (move {state.move_count}, player {state.current_player}), which is"
            f" not a legal action there; {len(legal)} legal: {shown}"
        )
