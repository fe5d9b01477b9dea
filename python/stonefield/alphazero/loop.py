"""The small AlphaZero loop of :mod:`stonefield.alphazero`: self-play with PUCT, training, and
evaluation against UCT, with a checkpoint after every iteration."""

from __future__ import annotations

import json
import os
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import _core
from .._core import Game
from ..matches import match
from ..selfplay import SelfPlayData, selfplay
from .network import Network
from .symmetry import game_symmetries

__all__ = ["TrainConfig", "train"]


@dataclass(frozen=True)
class TrainConfig:
    """Settings of :func:`train` (the defaults suit a small board on two CPU cores)."""

    games: int = 64
    simulations: int = 64
    batch_size: int = 8
    temperature_moves: int = 4
    epochs: int = 4
    window: int = 4
    hidden: int = 128
    layers: int = 2
    learning_rate: float = 1e-3
    eval_games: int = 40
    eval_simulations: int = 200
    uct_iterations: int = 200
    seed: int = 0
    #: Train on each position moved by a random symmetry of the board that the game respects
    #: (:func:`~stonefield.alphazero.symmetry.game_symmetries`; none but the identity for
    #: games whose actions are not sites).
    augment: bool = True
    #: A time budget in minutes: no iteration starts that would, at the pace of the last one,
    #: end past it (None: run all ``iterations``).
    minutes: float | None = None


def train(
    game: Game,
    iterations: int,
    out: str | os.PathLike[str],
    config: TrainConfig = TrainConfig(),
    *,
    progress: Callable[[dict[str, Any]], Any] | None = None,
) -> list[dict[str, Any]]:
    """Runs ``iterations`` rounds (fewer when ``config.minutes`` runs out) of self-play,
    training and evaluation; writes
    ``out/checkpoint-NNN.npz`` after each, ``out/latest.npz``, and the results table as
    ``out/results.json`` and ``out/results.md``. Returns the table's rows.

    Each round: ``config.games`` PUCT self-play games with the current network (root noise on,
    the first ``temperature_moves`` moves drawn by visits), training for ``epochs`` passes over
    the last ``window`` rounds' data, then a match of ``eval_games`` games of PUCT with the new
    network (``eval_simulations``, no noise) against UCT at ``uct_iterations`` (seats
    alternate). Rows hold the losses before and after training, the score against UCT with its
    95 % interval, and the seconds spent.
    """
    if iterations < 1:
        raise _core.InvalidOptionError(f"iterations must be at least 1, got {iterations}")
    if config.minutes is not None and not config.minutes > 0:
        raise _core.InvalidOptionError(f"minutes must be a positive number, got {config.minutes}")
    os.makedirs(out, exist_ok=True)
    net = Network.create(
        game,
        hidden=config.hidden,
        layers=config.layers,
        seed=config.seed,
        learning_rate=config.learning_rate,
    )
    symmetries = game_symmetries(game) if config.augment else None
    window: list[SelfPlayData] = []
    rows: list[dict[str, Any]] = []
    began = time.perf_counter()
    for it in range(iterations):
        started = time.perf_counter()
        budget = None if config.minutes is None else 60 * config.minutes
        if budget is not None and rows and started - began + rows[-1]["seconds"] > budget:
            break
        agent = _core.PUCT(
            net.evaluate,
            simulations=config.simulations,
            batch_size=config.batch_size,
            seed=config.seed + it,
        )
        data = selfplay(
            game,
            agent,
            games=config.games,
            seed=config.seed * 1_000_003 + it,
            temperature_moves=config.temperature_moves,
        )
        window = (window + [data])[-config.window :]
        merged = _merge(window)
        before = net.loss(data)
        after = net.fit(merged, epochs=config.epochs, seed=config.seed + it, symmetries=symmetries)
        trained = time.perf_counter()
        row: dict[str, Any] = {
            "iteration": it + 1,
            "positions": len(data),
            "policy_loss_before": before[0],
            "value_loss_before": before[1],
            "policy_loss": after[0],
            "value_loss": after[1],
        }
        if config.eval_games > 0:
            m = match(
                game,
                [
                    _core.PUCT(
                        net.evaluate,
                        simulations=config.eval_simulations,
                        batch_size=config.batch_size,
                        dirichlet_fraction=0.0,
                        seed=config.seed,
                    ),
                    _core.MCTS(iterations=config.uct_iterations, seed=config.seed),
                ],
                games=config.eval_games,
                seed=config.seed + 7919 * (it + 1),
            )
            row["score_vs_uct"] = float(m.score[0])
            row["score_low"], row["score_high"] = (float(x) for x in m.score_ci[0])
        row["seconds"] = time.perf_counter() - started
        row["train_seconds"] = trained - started
        net.save(os.path.join(out, f"checkpoint-{it + 1:03d}.npz"))
        net.save(os.path.join(out, "latest.npz"))
        rows.append(row)
        _write_results(out, game, config, rows, symmetries)
        if progress is not None:
            progress(row)
    return rows


def _merge(parts: list[SelfPlayData]) -> SelfPlayData:
    """Several self-play runs of one game as one (games renumbered)."""
    if len(parts) == 1:
        return parts[0]
    game_base = np.cumsum([0] + [p.num_games for p in parts[:-1]])
    action_base = np.cumsum([0] + [len(p.actions) for p in parts[:-1]])
    return SelfPlayData(
        game=parts[0].game,
        observations=np.concatenate([p.observations for p in parts]),
        policies=np.concatenate([p.policies for p in parts]),
        players=np.concatenate([p.players for p in parts]),
        returns=np.concatenate([p.returns for p in parts]),
        game_index=np.concatenate(
            [p.game_index + np.uint32(b) for p, b in zip(parts, game_base)]
        ).astype(np.uint32),
        actions=np.concatenate([p.actions for p in parts]),
        offsets=np.concatenate(
            [parts[0].offsets[:1]] + [p.offsets[1:] + b for p, b in zip(parts, action_base)]
        ).astype(np.int64),
        legal_masks=np.concatenate([p.legal_masks for p in parts]),
    )


#: The libraries whose versions a run's ``results.json`` records: a rerun that differs can be
#: told apart from a change of JAX, optax or equinox.
VERSIONED = ("numpy", "jax", "jaxlib", "optax", "equinox")


def library_versions() -> dict[str, str | None]:
    """The versions of Python, stonefield and the training libraries (None where one is not
    installed), as ``results.json`` records them.

    >>> sorted(library_versions())
    ['equinox', 'jax', 'jaxlib', 'numpy', 'optax', 'python', 'stonefield']
    """
    from importlib import metadata

    versions: dict[str, str | None] = {
        "python": platform.python_version(),
        "stonefield": _core.__version__,
    }
    for name in VERSIONED:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def _write_results(
    out: str | os.PathLike[str],
    game: Game,
    config: TrainConfig,
    rows: list[dict[str, Any]],
    symmetries: npt.NDArray[np.int64] | None,
) -> None:
    with open(os.path.join(out, "results.json"), "w", encoding="utf-8") as f:
        json.dump(
            {
                "game": game.name,
                "options": dict(game.options),
                "config": config.__dict__,
                # How many symmetries the training positions were moved by (1: none).
                "symmetries": 1 if symmetries is None else len(symmetries),
                "versions": library_versions(),
                "rows": rows,
            },
            f,
            indent=1,
        )
    # The losses on the round's new games before training on them say how well the network
    # generalises; those after training (on the window, which holds them) how well it fits.
    lines = [
        "| iteration | positions | policy loss, new games | value loss, new games |"
        " policy loss, trained | value loss, trained | score vs UCT | 95 % interval | s |",
        "|---:|---:|---:|---:|---:|---:|---:|---|---:|",
    ]
    for r in rows:
        score = f"{r['score_vs_uct']:.3f}" if "score_vs_uct" in r else "–"
        ci = f"[{r['score_low']:.3f}, {r['score_high']:.3f}]" if "score_low" in r else "–"
        lines.append(
            f"| {r['iteration']} | {r['positions']} | {r['policy_loss_before']:.3f} |"
            f" {r['value_loss_before']:.3f} | {r['policy_loss']:.3f} |"
            f" {r['value_loss']:.3f} | {score} | {ci} | {r['seconds']:.0f} |"
        )
    with open(os.path.join(out, "results.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
