"""Batches of random games, played in Rust over threads: :func:`simulate` and its
:class:`SimulationResult`.

The module is ``stonefield.batch`` rather than ``stonefield.simulate`` because the package
exports the function under that name: ``import stonefield.simulate as m`` would bind the
function, not a module.

>>> import stonefield.batch
>>> stonefield.batch.simulate is stonefield.simulate
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from . import _core
from ._core import Game


@dataclass(frozen=True)
class SimulationResult:
    """Outcomes of a batch of random games.

    Attributes:
        game: The game that was played.
        seed: The batch seed; game ``i`` drew from the stream (seed, i).
        returns: float64 (n_games, num_players), utilities in [-1, 1].
        ranks: float64 (n_games, num_players), 1 = best, tied players share the average.
        scores: float64 (n_games, num_players) for games with scores, else None.
        lengths: uint32 (n_games,), actions per game.
        truncated: bool (n_games,), whether the move cap ended the game.
        seconds: wall-clock time of the run.
    """

    game: Game
    seed: int
    returns: np.ndarray
    ranks: np.ndarray
    scores: np.ndarray | None
    lengths: np.ndarray
    truncated: np.ndarray
    seconds: float

    @property
    def n_games(self) -> int:
        return int(self.lengths.shape[0])

    @property
    def win_rates(self) -> np.ndarray:
        """Per player, the share of games it finished alone in first place."""
        if self.n_games == 0:
            return np.zeros(self.ranks.shape[1])
        sole = (self.ranks == 1.0) & ~self.truncated[:, None]
        return np.asarray(sole.mean(axis=0), dtype=np.float64)

    @property
    def draw_rates(self) -> np.ndarray:
        """Per player, the share of games it ended tied for first (truncated games included)."""
        if self.n_games == 0:
            return np.zeros(self.ranks.shape[1])
        best = self.ranks.min(axis=1, keepdims=True)
        shared = (self.ranks == best) & (self.ranks > 1.0)
        return np.asarray((shared | self.truncated[:, None]).mean(axis=0), dtype=np.float64)

    @property
    def playouts_per_second(self) -> float:
        return self.n_games / self.seconds if self.seconds > 0 else float("inf")

    @property
    def moves_per_second(self) -> float:
        total = float(self.lengths.sum())
        return total / self.seconds if self.seconds > 0 else float("inf")

    def summary(self) -> str:
        """A printable table of the results."""
        g = self.game
        opts = ", ".join(f"{k}={v}" for k, v in g.options.items())
        n = self.n_games
        from .matches import wilson_interval

        lines = [
            f"{g.name} ({opts})",
            f"{n} random games, seed {self.seed}, {self.seconds:.3f} s",
            "",
            f"{'player':>8} {'wins':>8} {'95 % interval':>16} {'draws':>8} {'mean return':>12}"
            + (f" {'mean score':>11}" if self.scores is not None else ""),
        ]
        mean_ret = self.returns.mean(axis=0) if n else np.zeros(g.num_players)
        for p in range(g.num_players):
            # Wilson's interval of the win rate: where the rate of many more games would lie.
            low, high = wilson_interval(float(self.win_rates[p]), n) if n else (0.0, 1.0)
            interval = f"[{low:.1%}, {high:.1%}]"
            row = (
                f"{p:>8} {self.win_rates[p]:>8.1%} {interval:>16} {self.draw_rates[p]:>8.1%}"
                f" {mean_ret[p]:>12.3f}"
            )
            if self.scores is not None:
                row += f" {self.scores[:, p].mean() if n else 0.0:>11.2f}"
            lines.append(row)
        lengths = self.lengths if n else np.zeros(1, dtype=self.lengths.dtype)
        lines += [
            "",
            f"average length  {lengths.mean():.2f} actions"
            f" (min {lengths.min()}, max {lengths.max()})",
            f"truncated       {self.truncated.mean() if n else 0.0:.2%}",
            f"playouts/s      {self.playouts_per_second:,.0f}",
            f"moves/s         {self.moves_per_second:,.0f}",
        ]
        return "\n".join(lines)


def simulate(
    game: Game | str,
    n_games: int,
    *,
    seed: int = 0,
    threads: int | None = None,
    progress: Callable[[int, int], Any] | None = None,
    **options: Any,
) -> SimulationResult:
    """Plays ``n_games`` uniformly random games in Rust and returns their outcomes.

    Game ``i`` draws from its own random stream derived from ``(seed, i)``, so the results are
    identical whatever the number of threads. The GIL is released while games run, and Ctrl-C
    interrupts the run.

    Args:
        game: A :class:`Game`, or a game id with ``options`` as keyword arguments.
        n_games: Number of games.
        seed: Seed of the batch.
        threads: Worker threads, 1 to 256; None uses every core.
        progress: Called as ``progress(done, total)`` between blocks of games.
        **options: Game options when ``game`` is an id.

    Raises:
        StonefieldError: a negative count, a seed outside 0 to 2**64 - 1, or threads outside
            1 to 256 (InvalidOptionError for the game and its options).
        TypeError: a count, seed or thread count that is not an integer (booleans included).
        MemoryError: the result buffers do not fit in the memory available.

    >>> import stonefield as sf
    >>> r = sf.simulate("windflowers", 100, seed=1, threads=1)
    >>> r.returns.shape, r.returns.dtype.name, r.lengths.dtype.name
    ((100, 2), 'float64', 'uint32')
    >>> bool((sf.simulate("windflowers", 100, seed=1, threads=2).lengths == r.lengths).all())
    True
    """
    if isinstance(game, str):
        game = _core.make(game, **options)
    elif options:
        raise TypeError("options are given with a game id, not with a Game")
    raw = _core.simulate_raw(game, n_games, seed=seed, threads=threads, progress=progress)
    return SimulationResult(game=game, seed=seed, **raw)
