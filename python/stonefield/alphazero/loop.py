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
from .._checkpoint import DAMAGED, read_npz
from .._core import Game
from .._files import atomic_write
from ..matches import match
from ..selfplay import SelfPlayData, selfplay
from .network import Network
from .symmetry import game_symmetries

__all__ = ["TrainConfig", "finished_rounds", "run_header", "train"]


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


#: The folder of a run's resume state inside ``out``.
RESUME_DIR = "resume"
#: The format of the resume state's header.
STATE_FORMAT = "stonefield-train-state"
STATE_VERSION = 1
#: Settings a resume may change: the time budget of this sitting.
_FREE_SETTINGS = {"minutes"}


def train(
    game: Game,
    iterations: int,
    out: str | os.PathLike[str],
    config: TrainConfig = TrainConfig(),
    *,
    progress: Callable[[dict[str, Any]], Any] | None = None,
    resume: bool = False,
    overwrite: bool = False,
) -> list[dict[str, Any]]:
    """Runs rounds of self-play, training and evaluation until ``iterations`` rounds are done
    (fewer when ``config.minutes`` runs out); writes
    ``out/checkpoint-NNN.npz`` after each, ``out/latest.npz``, the results table as
    ``out/results.json`` and ``out/results.md``, and what a resume needs in ``out/resume/``.
    Returns the table's rows.

    Each round: ``config.games`` PUCT self-play games with the current network (root noise on,
    the first ``temperature_moves`` moves drawn by visits), training for ``epochs`` passes over
    the last ``window`` rounds' data, then a match of ``eval_games`` games of PUCT with the new
    network (``eval_simulations``, no noise) against UCT at ``uct_iterations`` (seats
    alternate). Rows hold the losses before and after training, the score against UCT with its
    95 % interval, and the seconds spent.

    Every file is written to a temporary file that then replaces it, and a round counts as
    done once its resume state is written: a crash, a kill or Ctrl-C loses at most the round
    in progress. ``resume=True`` continues the run in ``out`` after its last finished round
    with the network, the optimiser's state and the replay window it had (the rounds' random
    seeds follow from their numbers), so a run stopped and resumed gives the same network as
    one that ran through; ``iterations`` counts the rounds of the whole run.

    Raises:
        InvalidOptionError: a setting out of range; ``out`` holds a run and neither
            ``resume`` nor ``overwrite`` is given; a resume whose game or settings differ
            from the run's (the message names them) or of a folder without a run.
        RecordError: the run's resume state is damaged.
    """
    if iterations < 1:
        raise _core.InvalidOptionError(f"iterations must be at least 1, got {iterations}")
    if config.minutes is not None and not config.minutes > 0:
        raise _core.InvalidOptionError(f"minutes must be a positive number, got {config.minutes}")
    if resume and overwrite:
        raise _core.InvalidOptionError("give resume or overwrite, not both")
    out = os.fspath(out)
    done = finished_rounds(out)
    if done is not None and not resume and not overwrite:
        raise _core.InvalidOptionError(
            f"{out} already holds a training run ({done} rounds finished); continue it with"
            " --resume (resume=True) or start it again with --overwrite (overwrite=True)"
        )
    if resume and done is None:
        raise _core.InvalidOptionError(f"{out} holds no training run to resume")
    os.makedirs(os.path.join(out, RESUME_DIR), exist_ok=True)
    symmetries = game_symmetries(game) if config.augment else None
    window: list[SelfPlayData] = []
    rows: list[dict[str, Any]] = []
    if resume:
        net, rows, window = _load_state(out, game, config)
    else:
        if overwrite:
            _clear_run(out)
        net = Network.create(
            game,
            hidden=config.hidden,
            layers=config.layers,
            seed=config.seed,
            learning_rate=config.learning_rate,
        )
    began = time.perf_counter()
    first = len(rows)
    for it in range(first, iterations):
        started = time.perf_counter()
        budget = None if config.minutes is None else 60 * config.minutes
        if budget is not None and it > first and started - began + rows[-1]["seconds"] > budget:
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
        rows.append(row)
        # The round's files first, then the resume state that makes the round count as done,
        # then the files derived from it.
        data.save(os.path.join(out, RESUME_DIR, f"selfplay-{it + 1:03d}.npz"))
        net.save(os.path.join(out, f"checkpoint-{it + 1:03d}.npz"))
        _save_state(out, game, config, net, rows, iterations)
        net.save(os.path.join(out, "latest.npz"))
        _write_results(out, game, config, rows, symmetries)
        stale = os.path.join(out, RESUME_DIR, f"selfplay-{it + 1 - config.window:03d}.npz")
        if it + 1 > config.window and os.path.exists(stale):
            os.unlink(stale)
        if progress is not None:
            progress(row)
    return rows


def run_header(out: str | os.PathLike[str]) -> dict[str, Any]:
    """What the resume state of the run in ``out`` says of it: ``game``, ``options``,
    ``config`` (the settings), ``iteration`` (rounds finished) and ``iterations`` (rounds
    asked for).

    Raises:
        InvalidOptionError: ``out`` holds no run with a resume state.
        RecordError: the state is damaged.
    """
    path = os.path.join(os.fspath(out), RESUME_DIR, "state.npz")
    if not os.path.exists(path):
        raise _core.InvalidOptionError(f"{os.fspath(out)} holds no training run to resume")
    try:
        meta, _ = read_npz(path, lambda meta: None, "a resume state")
    except (OSError, TypeError, *DAMAGED) as e:
        raise _core.RecordError(f"{path}: not a resume state ({type(e).__name__}: {e})") from None
    if not isinstance(meta, dict) or meta.get("format") != STATE_FORMAT:
        raise _core.RecordError(f"{path}: not a resume state")
    return meta


def finished_rounds(out: str | os.PathLike[str]) -> int | None:
    """How many rounds the training run in ``out`` has finished, or None if the folder holds
    no run (no resume state, no results, no checkpoint)."""
    out = os.fspath(out)
    state = os.path.join(out, RESUME_DIR, "state.npz")
    if os.path.exists(state):
        try:
            meta, _ = read_npz(state, lambda meta: None, "a resume state")
            return int(meta["iteration"])
        except (_core.StonefieldError, OSError, TypeError, *DAMAGED):
            # A damaged state still marks a run.
            return 0
    markers = ("results.json", "latest.npz", "checkpoint-001.npz")
    if any(os.path.exists(os.path.join(out, m)) for m in markers):
        return 0
    return None


def _clear_run(out: str) -> None:
    """Removes the files of an earlier run from ``out`` (``overwrite``)."""
    names = [n for n in os.listdir(out) if n.startswith("checkpoint-") and n.endswith(".npz")]
    names += ["latest.npz", "results.json", "results.md"]
    resume = os.path.join(out, RESUME_DIR)
    names += [os.path.join(RESUME_DIR, n) for n in os.listdir(resume) if n.endswith(".npz")]
    for n in names:
        if os.path.exists(os.path.join(out, n)):
            os.unlink(os.path.join(out, n))


def _settings(config: TrainConfig) -> dict[str, Any]:
    return {k: v for k, v in config.__dict__.items() if k not in _FREE_SETTINGS}


def _save_state(
    out: str,
    game: Game,
    config: TrainConfig,
    net: Network,
    rows: list[dict[str, Any]],
    iterations: int,
) -> None:
    header = json.dumps(
        {
            "format": STATE_FORMAT,
            "format_version": STATE_VERSION,
            "game": game.name,
            "options": dict(game.options),
            "config": config.__dict__,
            "iteration": len(rows),
            "iterations": iterations,
            "rows": rows,
        }
    )
    arrays: dict[str, Any] = {f"opt_{i}": a for i, a in enumerate(net.optimiser_state())}
    arrays["header"] = np.array(header)
    with atomic_write(os.path.join(out, RESUME_DIR, "state.npz"), binary=True) as f:
        np.savez(f, **arrays)


def _load_state(
    out: str, game: Game, config: TrainConfig
) -> tuple[Network, list[dict[str, Any]], list[SelfPlayData]]:
    """The network, rows and replay window of the run in ``out`` after its last finished
    round, checked against ``game`` and ``config``."""
    path = os.path.join(out, RESUME_DIR, "state.npz")
    if not os.path.exists(path):
        raise _core.InvalidOptionError(
            f"{out} holds a training run without a resume state (made before resumes"
            " existed); start it again with overwrite"
        )

    def template_of(meta: Any) -> dict[str, tuple[np.dtype[Any], tuple[int, ...]]]:
        if not isinstance(meta, dict) or meta.get("format") != STATE_FORMAT:
            raise _core.RecordError(f"not a resume state (format {STATE_FORMAT!r})")
        if meta.get("format_version") != STATE_VERSION:
            raise _core.RecordError(
                f"resume state version {meta.get('format_version')!r}; this stonefield"
                f" reads {STATE_VERSION}"
            )
        held = (meta.get("game"), meta.get("options"))
        if held != (game.name, dict(game.options)):
            raise _core.InvalidOptionError(
                f"the run in {out} trains {held[0]} with {held[1]}, not {game.name} with"
                f" {dict(game.options)}"
            )
        saved = {k: v for k, v in dict(meta.get("config", {})).items() if k not in _FREE_SETTINGS}
        asked = _settings(config)
        differ = sorted(k for k in set(saved) | set(asked) if saved.get(k) != asked.get(k))
        if differ:
            was = ", ".join(f"{k}={saved.get(k)!r}" for k in differ)
            now = ", ".join(f"{k}={asked.get(k)!r}" for k in differ)
            raise _core.InvalidOptionError(
                f"the run in {out} was made with {was}; this resume asks for {now}"
                " (a resume keeps the run's settings)"
            )
        # The shapes of the optimiser's state, from a network of the run's settings.
        net = Network.create(game, hidden=config.hidden, layers=config.layers)
        return {f"opt_{i}": (a.dtype, a.shape) for i, a in enumerate(net.optimiser_state())}

    try:
        meta, arrays = read_npz(path, template_of, "a resume state")
    except _core.InvalidOptionError:
        raise  # another game or other settings than the run's: said as such
    except (OSError, TypeError, *DAMAGED) as e:
        raise _core.RecordError(f"{path}: not a resume state ({type(e).__name__}: {e})") from None
    done = int(meta["iteration"])
    rows = list(meta["rows"])[:done]
    net = Network.load(os.path.join(out, f"checkpoint-{done:03d}.npz"), game)
    # The optimiser is made with the run's learning rate, then given the state it had.
    net.learning_rate = config.learning_rate
    net.set_optimiser_state([arrays[f"opt_{i}"] for i in range(len(arrays))])
    window = []
    for it in range(max(done - config.window, 0), done):
        name = f"selfplay-{it + 1:03d}.npz"
        window.append(SelfPlayData.load(os.path.join(out, RESUME_DIR, name)))
    return net, rows, window


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
    with atomic_write(os.path.join(out, "results.json")) as f:
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
    with atomic_write(os.path.join(out, "results.md")) as f:
        f.write("\n".join(lines) + "\n")
