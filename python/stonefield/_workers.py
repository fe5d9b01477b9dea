"""Self-play rounds of ``stonefield train``, in this process or split over Ray workers.

The learner hands a round its network as the bytes of a checkpoint; each part of the round
rebuilds a numpy :class:`~stonefield._checkpoint.CheckpointNetwork` from them (no JAX), plays
its games (numbered as in the whole round, so every game is the one the whole round would
play) and returns its arrays, with how long it took and how much of that the network took. A
``graph`` network is played natively (PUCT runs its forward pass in Rust, about 1.5 times the
numpy pass's evaluations a second at self-play's batches), an ``mlp`` one in numpy.
This module needs numpy alone (and Ray for workers): a Ray worker imports it without JAX.
"""

from __future__ import annotations

import os
import tempfile
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _core
from ._checkpoint import read_checkpoint
from ._core import Game
from .selfplay import ARRAYS, SelfPlayData, selfplay

__all__ = ["RoundSettings", "RoundStats", "merge", "play_round", "split"]


@dataclass(frozen=True)
class RoundSettings:
    """What a part of a self-play round needs besides the network and the board."""

    games: int
    simulations: int
    batch_size: int
    temperature_moves: int
    #: The PUCT agent's seed and the games' seed.
    agent_seed: int
    seed: int
    full_search_share: float = 1.0
    fast_simulations: int | None = None


@dataclass
class RoundStats:
    """The cost of a round: wall seconds of the round, wall seconds summed over its parts,
    seconds inside the network summed over the parts (None where the network ran natively,
    inside the search, where Python does not time it), the parts it ran in, and the CPU seconds
    of the parts' processes (every thread's: the network's BLAS may use several cores)."""

    seconds: float
    part_seconds: float
    network_seconds: float | None
    parts: int
    cpu_seconds: float


#: Rows the network evaluates at once in self-play: every call is cut into blocks of this many
#: rows (the last one padded), so that a row's outputs do not depend on what else is in the
#: batch (BLAS rounds a product differently for other shapes) and a game plays the same moves
#: whether it shares its batches with all the round's games or with a worker's part of them.
BLOCK = 32


class _Timed:
    """An evaluator in blocks of :data:`BLOCK` rows that counts the seconds spent in it (and
    passes ``check_game`` on)."""

    def __init__(self, net: Any) -> None:
        self.net = net
        self.seconds = 0.0

    def __call__(
        self, observations: npt.NDArray[np.float32], legal_mask: npt.NDArray[np.bool_]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        t = time.perf_counter()
        try:
            n = observations.shape[0]
            pad = -n % BLOCK
            if pad:
                observations = np.concatenate(
                    [observations, np.zeros((pad, *observations.shape[1:]), np.float32)]
                )
                # A padding row keeps its first action legal, so its softmax is defined.
                extra = np.zeros((pad, legal_mask.shape[1]), np.bool_)
                extra[:, 0] = True
                legal_mask = np.concatenate([legal_mask, extra])
            priors, values = [], []
            for lo in range(0, n + pad, BLOCK):
                p, v = self.net.evaluate(observations[lo : lo + BLOCK], legal_mask[lo : lo + BLOCK])
                priors.append(p)
                values.append(v)
            return np.concatenate(priors)[:n], np.concatenate(values)[:n]
        finally:
            self.seconds += time.perf_counter() - t

    def check_game(self, game: Game) -> None:
        self.net.check_game(game)


def split(games: int, parts: int) -> list[tuple[int, int]]:
    """The (first game, count) of each part when ``games`` are split over ``parts`` as evenly
    as can be (no empty parts).

    >>> split(10, 3)
    [(0, 4), (4, 3), (7, 3)]
    """
    parts = max(1, min(parts, games))
    base, extra = divmod(games, parts)
    out, first = [], 0
    for i in range(parts):
        count = base + (1 if i < extra else 0)
        out.append((first, count))
        first += count
    return out


def play_part(
    checkpoint: bytes,
    game_name: str,
    options: dict[str, Any],
    settings: RoundSettings,
    first: int,
    count: int,
) -> tuple[dict[str, Any], float, float | None, float]:
    """Games ``first`` to ``first + count - 1`` of a round: their arrays (as
    :class:`SelfPlayData` holds them), the part's seconds, its seconds in the network (None
    for a graph network, played natively) and its process's CPU seconds."""
    started = time.perf_counter()
    cpu = time.process_time()
    game = _core.make(game_name, **options)
    fd, path = tempfile.mkstemp(suffix=".npz")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(checkpoint)
        net = read_checkpoint(path)
    finally:
        os.unlink(path)
    net.check_game(game)
    # A graph network goes to PUCT as it is, which plays it in Rust; each row's outputs are
    # then computed alone, whatever else is in the batch, as the blocks below make them.
    native = net.architecture == "graph"
    timed = _Timed(net)
    agent = _core.PUCT(
        net if native else timed,
        simulations=settings.simulations,
        batch_size=settings.batch_size,
        seed=settings.agent_seed,
    )
    data = selfplay(
        game,
        agent,
        games=count,
        seed=settings.seed,
        temperature_moves=settings.temperature_moves,
        full_search_share=settings.full_search_share,
        fast_simulations=settings.fast_simulations,
        first=first,
    )
    arrays = {k: getattr(data, k) for k in ARRAYS}
    network = None if native else timed.seconds
    return arrays, time.perf_counter() - started, network, time.process_time() - cpu


def _ray_part(
    checkpoint: bytes,
    game_name: str,
    options: dict[str, Any],
    settings: RoundSettings,
    first: int,
    count: int,
) -> tuple[dict[str, Any], float, float | None, float]:
    return play_part(checkpoint, game_name, options, settings, first, count)


def play_round(
    game: Game,
    checkpoint: bytes,
    settings: RoundSettings,
    *,
    workers: int | None = None,
    address: str | None = None,
) -> tuple[SelfPlayData, RoundStats]:
    """The round's ``settings.games`` games with the network of ``checkpoint`` (its bytes):
    in this process without ``workers``, else split over ``workers`` Ray tasks (a local Ray,
    or the cluster at ``address``), the network's bytes published once with ``ray.put``. The
    data are the same either way: game ``i`` is seeded by ``(seed, i)`` wherever it runs.

    Raises:
        InvalidOptionError: ``workers`` below 1.
        ImportError: workers without Ray installed.
        ConnectionError: no Ray cluster answers at ``address``.
    """
    started = time.perf_counter()
    name, options = game.name, dict(game.options)
    if workers is None:
        arrays, seconds, net_seconds, cpu = play_part(
            checkpoint, name, options, settings, 0, settings.games
        )
        data = SelfPlayData(game=game, **arrays)
        return data, RoundStats(time.perf_counter() - started, seconds, net_seconds, 1, cpu)
    if workers < 1:
        raise _core.InvalidOptionError(f"workers must be at least 1, got {workers}")
    from .lab.run import ray_init

    ray = ray_init(address)
    remote = ray.remote(num_cpus=1)(_ray_part)
    ref = ray.put(checkpoint)
    parts = split(settings.games, workers)
    futures = [remote.remote(ref, name, options, settings, f, c) for f, c in parts]
    results = ray.get(futures)
    data = merge([SelfPlayData(game=game, **r[0]) for r in results])
    stats = RoundStats(
        time.perf_counter() - started,
        sum(r[1] for r in results),
        None if any(r[2] is None for r in results) else sum(r[2] or 0.0 for r in results),
        len(parts),
        sum(r[3] for r in results),
    )
    return data, stats


def merge(parts: list[SelfPlayData]) -> SelfPlayData:
    """Several self-play runs of one game as one (games renumbered)."""
    if len(parts) == 1:
        return parts[0]
    game_base = np.cumsum([0] + [p.num_games for p in parts[:-1]])
    action_base = np.cumsum([0] + [len(p.actions) for p in parts[:-1]])
    arrays: dict[str, Any] = {
        k: np.concatenate([getattr(p, k) for p in parts])
        for k in ARRAYS
        if k not in ("game_index", "offsets")
    }
    arrays["game_index"] = np.concatenate(
        [p.game_index + np.uint32(b) for p, b in zip(parts, game_base)]
    ).astype(np.uint32)
    arrays["offsets"] = np.concatenate(
        [parts[0].offsets[:1]] + [p.offsets[1:] + b for p, b in zip(parts, action_base)]
    ).astype(np.int64)
    return SelfPlayData(game=parts[0].game, **arrays)
