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
from .._checkpoint import ARCHITECTURES, DAMAGED, read_checkpoint, read_npz
from .._core import Game
from .._files import atomic_write
from .._workers import RoundSettings, RoundStats, merge, play_round
from ..agents import parse_agent
from ..matches import match
from ..selfplay import SelfPlayData
from .network import Network
from .symmetry import game_symmetries

__all__ = ["TrainConfig", "finished_rounds", "parse_curriculum", "run_header", "train"]


@dataclass(frozen=True)
class TrainConfig:
    """Settings of :func:`train` (the defaults suit a small board on two CPU cores)."""

    games: int = 64
    simulations: int = 64
    batch_size: int = 8
    temperature_moves: int = 4
    epochs: int = 4
    window: int = 4
    #: The network: ``graph`` (message passing over the board's neighbours, one set of
    #: weights for every board of the game, ``layers`` blocks) or ``mlp`` (one board).
    architecture: str = "graph"
    hidden: int = 64
    layers: int = 4
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
    #: Playout-cap randomisation (KataGo): the share of self-play moves searched in full (the
    #: ``simulations``, root noise on); the others get ``fast_simulations`` and no noise, and
    #: only full searches' policies are training targets. 1: every move in full.
    full_search_share: float = 1.0
    #: Simulations of a fast search, 1 to ``simulations - 1`` (None: ``simulations // 4``).
    fast_simulations: int | None = None
    #: The value target: ``(1 - value_mix) * outcome + value_mix * search value``, in [0, 1].
    value_mix: float = 0.0
    #: Positions with at most this many legal actions get their value target from
    #: ``sf.solve`` when it proves them within ``exact_nodes`` nodes (0: none).
    exact_empty: int = 0
    #: The node budget of each of those solves.
    exact_nodes: int = 2000
    #: Board options per span of rounds (:func:`parse_curriculum`), e.g. ``"size=3:4,size=4:8"``
    #: (None: the game's own board every round).
    curriculum: str | None = None
    #: Games against ``mcts:preset=strong`` given PUCT's measured time per move, after each
    #: round (0: none).
    strong_games: int = 0
    #: Ray tasks the round's self-play is split over (None: in this process).
    workers: int | None = None
    #: The Ray cluster the workers join (None: a local Ray).
    address: str | None = None
    #: A checkpoint whose weights the run starts from instead of random ones (the optimiser
    #: starts afresh): a network of this game with the run's ``architecture``, ``hidden`` and
    #: ``layers``, such as the ``latest.npz`` of an earlier run whose resume state is gone
    #: (None: random weights from ``seed``).
    init: str | None = None
    #: Gating (AlphaGo Zero): after each round the trained network plays this many games
    #: against the network that plays self-play (PUCT at ``eval_simulations`` each, root
    #: noise on so the games differ, seats alternating) and replaces it only when it scores at
    #: least ``gate_threshold``; training goes on from the trained network either way. 0: no
    #: gate, the trained network plays the next round's self-play.
    gate_games: int = 0
    #: The score a trained network needs against the self-play network to replace it.
    gate_threshold: float = 0.55


#: The folder of a run's resume state inside ``out``.
RESUME_DIR = "resume"
#: The format of the resume state's header.
STATE_FORMAT = "stonefield-train-state"
STATE_VERSION = 1
#: Settings a resume may change: the time budget of this sitting and where self-play runs
#: (the games are the same wherever they run).
_FREE_SETTINGS = {"minutes", "workers", "address"}


def parse_curriculum(text: str) -> list[tuple[dict[str, Any], int]]:
    """The spans of a curriculum: ``OPTIONS:ROUNDS`` entries separated by commas, OPTIONS
    being ``name=value`` game options joined by ``+`` (``size=3:4,size=4:8``: four rounds on
    size 3, then eight on size 4). The last span's board stays for any rounds after it. Values
    read as in ``--option`` (integers, ``true``/``false``, else text).

    >>> parse_curriculum("size=3:4,size=4+anti_blob=false:8")
    [({'size': 3}, 4), ({'size': 4, 'anti_blob': False}, 8)]

    Raises:
        InvalidOptionError: a malformed entry, named with what is allowed.
    """
    allowed = (
        "a curriculum is OPTIONS:ROUNDS entries separated by commas, OPTIONS name=value joined"
        ' by + and ROUNDS a whole number ≥ 1, e.g. "size=3:4,size=4:8"'
    )
    spans: list[tuple[dict[str, Any], int]] = []
    for entry in text.split(","):
        head, sep, rounds = entry.strip().rpartition(":")
        if not sep or not head or not rounds.strip().isdigit() or int(rounds) < 1:
            raise _core.InvalidOptionError(f"curriculum entry {entry.strip()!r}: {allowed}")
        options: dict[str, Any] = {}
        for part in head.split("+"):
            name, eq, value = part.strip().partition("=")
            if not eq or not name.strip() or not value.strip():
                raise _core.InvalidOptionError(f"curriculum entry {entry.strip()!r}: {allowed}")
            options[name.strip()] = _option_value(value.strip())
        spans.append((options, int(rounds)))
    return spans


def _option_value(text: str) -> Any:
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    try:
        return int(text)
    except ValueError:
        return text


def _boards(game: Game, config: TrainConfig) -> list[tuple[Game, int]]:
    """The curriculum's boards with their rounds (the game's own board alone without one).

    Raises:
        InvalidOptionError: a malformed curriculum or an option the game refuses.
    """
    if config.curriculum is None:
        return [(game, 1)]
    out = []
    for options, rounds in parse_curriculum(config.curriculum):
        try:
            out.append((_core.make(game.name, **{**dict(game.options), **options}), rounds))
        except (_core.StonefieldError, TypeError) as e:
            raise _core.InvalidOptionError(f"curriculum {options}: {e}") from None
    return out


def _board_of(boards: list[tuple[Game, int]], it: int) -> Game:
    """The board of round ``it`` (from 0)."""
    end = 0
    for board, rounds in boards:
        end += rounds
        if it < end:
            return board
    return boards[-1][0]


def board_name(game: Game) -> str:
    """A board's options as a results row names them: ``size=3`` (every option the game
    has, ``name=value`` joined by spaces)."""
    return " ".join(f"{k}={v}" for k, v in dict(game.options).items())


def _fast_simulations(config: TrainConfig) -> int:
    if config.fast_simulations is not None:
        return config.fast_simulations
    return max(1, config.simulations // 4)


def check_config(config: TrainConfig) -> None:
    """Refuses settings that make no sense, saying what is allowed.

    Raises:
        InvalidOptionError: the first setting out of range.
    """

    def refuse(message: str) -> None:
        raise _core.InvalidOptionError(message)

    if config.architecture not in ARCHITECTURES:
        refuse(
            f"architecture must be one of {', '.join(ARCHITECTURES)}, got {config.architecture!r}"
        )
    if not 0 <= config.full_search_share <= 1:
        refuse(f"full_search_share must be from 0 to 1, got {config.full_search_share}")
    fast = config.fast_simulations
    if fast is not None and not 1 <= fast < config.simulations:
        refuse(
            f"fast_simulations must be 1 to {config.simulations - 1} (below simulations,"
            f" {config.simulations}), got {fast}"
        )
    if config.full_search_share < 1 and config.simulations < 2:
        refuse("playout-cap randomisation (full_search_share below 1) needs simulations ≥ 2")
    if not 0 <= config.value_mix <= 1:
        refuse(f"value_mix must be from 0 to 1, got {config.value_mix}")
    if config.workers is not None and config.workers < 1:
        refuse(f"workers must be at least 1, got {config.workers}")
    if config.address is not None and config.workers is None:
        refuse("address needs workers (the Ray tasks that join the cluster)")
    if config.exact_empty < 0:
        refuse(f"exact_empty must be at least 0, got {config.exact_empty}")
    if config.exact_nodes < 1:
        refuse(f"exact_nodes must be at least 1, got {config.exact_nodes}")
    if config.strong_games < 0:
        refuse(f"strong_games must be at least 0, got {config.strong_games}")
    if config.gate_games < 0:
        refuse(f"gate_games must be at least 0, got {config.gate_games}")
    if not 0 < config.gate_threshold <= 1:
        refuse(
            f"gate_threshold must be a number above 0 and at most 1, got {config.gate_threshold}"
        )
    if config.curriculum is not None:
        parse_curriculum(config.curriculum)


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

    With ``config.gate_games``, self-play is played by the last network that passed the gate
    (at first the initial one) rather than by the trained one, each row holds the gate's
    score, interval, whether it passed and ``best_round`` (the round whose network plays the
    next round's self-play; 0: the initial network), and ``out/best.npz`` is that network.

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
    check_config(config)
    boards = _boards(game, config)
    out = os.fspath(out)
    done = finished_rounds(out)
    if done is not None and not resume and not overwrite:
        raise _core.InvalidOptionError(
            f"{out} already holds a training run ({done} rounds finished); continue it with"
            " --resume (resume=True) or start it again with --overwrite (overwrite=True)"
        )
    if resume and done is None:
        raise _core.InvalidOptionError(f"{out} holds no training run to resume")
    # A start from a checkpoint is checked before anything is written.
    initial = None
    if not resume and config.init is not None:
        initial = _initial_network(config.init, _board_of(boards, 0), config)
    os.makedirs(os.path.join(out, RESUME_DIR), exist_ok=True)
    window: list[SelfPlayData] = []
    rows: list[dict[str, Any]] = []
    if resume:
        net, rows, window = _load_state(out, game, config, boards)
    else:
        if initial is not None:
            net = initial
        else:
            net = Network.create(
                _board_of(boards, 0),
                hidden=config.hidden,
                layers=config.layers,
                architecture=config.architecture,
                seed=config.seed,
                learning_rate=config.learning_rate,
            )
        if overwrite:
            _clear_run(out)
        if config.gate_games > 0:
            # The self-play network until a trained one passes the gate.
            net.save(os.path.join(out, RESUME_DIR, INITIAL_NETWORK))
    # The round whose network plays self-play (0: the initial one); with a gate, the last
    # network that passed it.
    best_round = int(rows[-1].get("best_round", len(rows))) if rows else 0
    began = time.perf_counter()
    first = len(rows)
    # The symmetries of each board of the run, found once.
    found: dict[str, npt.NDArray[np.int64] | None] = {}
    for it in range(first, iterations):
        started = time.perf_counter()
        budget = None if config.minutes is None else 60 * config.minutes
        if budget is not None and it > first and started - began + rows[-1]["seconds"] > budget:
            break
        board = _board_of(boards, it)
        key = json.dumps(dict(board.options), sort_keys=True)
        if key not in found:
            found[key] = game_symmetries(board) if config.augment else None
        symmetries = found[key]
        # A graph network trains and plays each board of a curriculum in turn.
        net = net.with_game(board)
        player = net
        if config.gate_games > 0:
            player = _network_of_round(out, best_round, board)
        settings = RoundSettings(
            games=config.games,
            simulations=config.simulations,
            batch_size=config.batch_size,
            temperature_moves=config.temperature_moves,
            agent_seed=config.seed + it,
            seed=config.seed * 1_000_003 + it,
            full_search_share=config.full_search_share,
            fast_simulations=(_fast_simulations(config) if config.full_search_share < 1 else None),
        )
        data, stats = play_round(
            board,
            _checkpoint_bytes(player, out, SELF_PLAY_NETWORK if player is not net else NETWORK),
            settings,
            workers=config.workers,
            address=config.address,
        )
        exact: dict[str, Any] = {}
        if config.exact_empty > 0:
            data, exact = exact_values(data, config.exact_empty, config.exact_nodes)
        # The window holds the rounds of this board only (a curriculum's change starts it anew).
        window = [p for p in window if p.game == board]
        window = (window + [data])[-config.window :]
        merged = merge(window)
        before = net.loss(data)
        after = net.fit(
            merged,
            epochs=config.epochs,
            seed=config.seed + it,
            symmetries=symmetries,
            value_mix=config.value_mix,
        )
        trained = time.perf_counter()
        row: dict[str, Any] = {
            "iteration": it + 1,
            "board": board_name(board),
            "positions": len(data),
            "full_searches": int(data.full_search.sum()),
            "policy_loss_before": before[0],
            "value_loss_before": before[1],
            "policy_loss": after[0],
            "value_loss": after[1],
            **_throughput(len(data), stats),
            **exact,
        }
        evaluator: Any = None
        if config.eval_games > 0 or config.strong_games > 0:
            evaluator = read_checkpoint(_checkpoint_file(net, out))
            evaluator.check_game(board)
        if config.eval_games > 0:
            m = match(
                board,
                [
                    _core.PUCT(
                        evaluator,
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
        if config.strong_games > 0:
            row.update(_versus_strong(board, evaluator, data, config, it))
        if config.gate_games > 0:
            row.update(_gate(board, net, out, config, it))
            if row["accepted"]:
                best_round = it + 1
        row["best_round"] = best_round if config.gate_games > 0 else it + 1
        row["seconds"] = time.perf_counter() - started
        row["train_seconds"] = trained - started
        rows.append(row)
        # The round's files first, then the resume state that makes the round count as done,
        # then the files derived from it.
        data.save(os.path.join(out, RESUME_DIR, f"selfplay-{it + 1:03d}.npz"))
        net.save(os.path.join(out, f"checkpoint-{it + 1:03d}.npz"))
        _save_state(out, game, config, net, rows, iterations)
        net.save(os.path.join(out, "latest.npz"))
        if config.gate_games > 0:
            _network_of_round(out, best_round, board).save(os.path.join(out, "best.npz"))
        _write_results(out, game, config, rows, symmetries)
        stale = os.path.join(out, RESUME_DIR, f"selfplay-{it + 1 - config.window:03d}.npz")
        if it + 1 > config.window and os.path.exists(stale):
            os.unlink(stale)
        if progress is not None:
            progress(row)
    return rows


#: The files in ``out/resume/``: the trained network as searches read it, the self-play
#: network of a gated run, and a gated run's network before its first round.
NETWORK = "network.npz"
SELF_PLAY_NETWORK = "self-play.npz"
INITIAL_NETWORK = "initial.npz"


def _checkpoint_file(net: Network, out: str, name: str = NETWORK) -> str:
    """The network written to ``out/resume/NAME`` (its path)."""
    path = os.path.join(out, RESUME_DIR, name)
    net.save(path)
    return path


def _checkpoint_bytes(net: Network, out: str, name: str = NETWORK) -> bytes:
    """The network as the bytes of a checkpoint: what self-play's workers rebuild it from."""
    with open(_checkpoint_file(net, out, name), "rb") as f:
        return f.read()


def _network_of_round(out: str, round_: int, board: Game) -> Network:
    """The network a gated run had after round ``round_`` (0: the one it started with),
    playing ``board``."""
    if round_ == 0:
        path = os.path.join(out, RESUME_DIR, INITIAL_NETWORK)
    else:
        path = os.path.join(out, f"checkpoint-{round_:03d}.npz")
    return Network.load(path, board)


def _gate(board: Game, net: Network, out: str, config: TrainConfig, it: int) -> dict[str, Any]:
    """The gate's match: the trained network against the self-play network (written by this
    round as ``out/resume/self-play.npz``), ``gate_games`` games of PUCT at
    ``eval_simulations`` with root noise, seats alternating; whether it passed."""
    _checkpoint_file(net, out, NETWORK)
    agents = [
        _core.PUCT(
            read_checkpoint(os.path.join(out, RESUME_DIR, name), board),
            simulations=config.eval_simulations,
            batch_size=config.batch_size,
            seed=config.seed + seat,
        )
        for seat, name in enumerate((NETWORK, SELF_PLAY_NETWORK))
    ]
    m = match(board, agents, games=config.gate_games, seed=config.seed + 7927 * (it + 1))
    score = float(m.score[0])
    low, high = (float(x) for x in m.score_ci[0])
    return {
        "gate_score": score,
        "gate_low": low,
        "gate_high": high,
        "accepted": score >= config.gate_threshold,
    }


def _throughput(positions: int, stats: RoundStats) -> dict[str, Any]:
    """A round's self-play cost: wall seconds, the parts it ran in (Ray tasks, or 1), positions
    per CPU second (every core the parts' processes used, the network's BLAS threads
    included) and the share of the parts' time spent inside the network (where it was timed:
    not for a graph network, which the search plays natively)."""
    row = {
        "selfplay_seconds": stats.seconds,
        "selfplay_cores": stats.parts,
        "selfplay_cpu_seconds": stats.cpu_seconds,
        "positions_per_core_second": positions / max(stats.cpu_seconds, 1e-9),
    }
    if stats.network_seconds is not None:
        row["network_share"] = stats.network_seconds / max(stats.part_seconds, 1e-9)
    return row


def exact_values(
    data: SelfPlayData, max_legal: int, max_nodes: int
) -> tuple[SelfPlayData, dict[str, Any]]:
    """``data`` with the value targets of its small positions made exact: every position of a
    two-player game with at most ``max_legal`` legal actions is solved by ``sf.solve`` within
    ``max_nodes`` nodes (one thread, a small table), and where it proves the position its
    returns and search value become the proven outcome for the player to move (+1, 0, −1),
    whatever the mix of outcome and search value. Also returns what it did: ``exact_tried``
    positions solved, ``exact_proven`` of them proven, ``exact_changed`` whose outcome target
    changed, and ``exact_seconds``."""
    started = time.perf_counter()
    stats = {"exact_tried": 0, "exact_proven": 0, "exact_changed": 0}
    game = data.game
    small = data.legal_masks.sum(axis=1) <= max_legal
    if game.num_players != 2 or not small.any():
        return data, {**stats, "exact_seconds": time.perf_counter() - started}
    returns = data.returns.copy()
    values = data.search_values.copy()
    # A table to suit the budget: the default one costs ~80 ms to set up, 70 times the solve.
    table_mb = max(1, max_nodes // 50_000)
    for g in np.unique(data.game_index[small]):
        rows = np.flatnonzero(data.game_index == g)
        state = game.new_state()
        for row, a in zip(rows, data.game_actions(int(g))):
            if small[row]:
                stats["exact_tried"] += 1
                r = _core.solve(state, max_nodes=max_nodes, threads=1, table_mb=table_mb)
                if r.value is not None:
                    stats["exact_proven"] += 1
                    mover = int(data.players[row])
                    v = float(r.value)
                    if returns[row, mover] != v:
                        stats["exact_changed"] += 1
                    returns[row, mover] = v
                    returns[row, 1 - mover] = -v
                    values[row] = v
            state.apply(a)
    arrays = {k: getattr(data, k) for k in data.__dataclass_fields__ if k != "game"}
    arrays.update(returns=returns, search_values=values)
    out = SelfPlayData(game=game, **arrays)
    return out, {**stats, "exact_seconds": time.perf_counter() - started}


def _sample_states(data: SelfPlayData, count: int) -> list[Any]:
    """Up to ``count`` positions of ``data``, evenly spread, as states."""
    picks = set(np.linspace(0, len(data) - 1, num=min(count, len(data))).astype(int).tolist())
    states = []
    for g in range(data.num_games):
        rows = np.flatnonzero(data.game_index == g)
        state = data.game.new_state()
        for row, a in zip(rows, data.game_actions(g)):
            if int(row) in picks:
                states.append(state.copy())
            state.apply(a)
    return states


def _versus_strong(
    board: Game, evaluator: Any, data: SelfPlayData, config: TrainConfig, it: int
) -> dict[str, Any]:
    """A match of the round's network (PUCT, ``eval_simulations``, no noise) against
    ``mcts:preset=strong`` given the PUCT's mean time per move, measured on positions of the
    round's games searched one at a time, as a match searches them."""
    agent = _core.PUCT(
        evaluator,
        simulations=config.eval_simulations,
        batch_size=config.batch_size,
        dirichlet_fraction=0.0,
        seed=config.seed,
    )
    states = [s for s in _sample_states(data, 12) if not s.is_terminal()]
    t = time.perf_counter()
    for s in states:
        agent.act(s)
    per_move = (time.perf_counter() - t) / max(len(states), 1)
    strong = parse_agent(f"mcts:preset=strong,time={max(per_move, 1e-3):.6f},seed={config.seed}")
    m = match(board, [agent, strong], games=config.strong_games, seed=config.seed + 104729 * it)
    low, high = (float(x) for x in m.score_ci[0])
    return {
        "score_vs_strong": float(m.score[0]),
        "strong_low": low,
        "strong_high": high,
        "seconds_per_move": per_move,
    }


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
    names += ["latest.npz", "best.npz", "results.json", "results.md"]
    resume = os.path.join(out, RESUME_DIR)
    names += [os.path.join(RESUME_DIR, n) for n in os.listdir(resume) if n.endswith(".npz")]
    for n in names:
        if os.path.exists(os.path.join(out, n)):
            os.unlink(os.path.join(out, n))


def _initial_network(path: str, board: Game, config: TrainConfig) -> Network:
    """The network of checkpoint ``path`` to start a run on ``board`` from, checked against
    the run's network settings.

    Raises:
        InvalidOptionError: a checkpoint of another game or rules, or of another shape than
            ``config`` asks for (the message names both).
        RecordError: the file is not a checkpoint.
    """
    if not os.path.isfile(path):
        raise _core.InvalidOptionError(
            f"init must be a checkpoint file, got {path!r} (no such file)"
        )
    net = Network.load(path, board)
    held = {"architecture": net.architecture, "hidden": net.hidden, "layers": net.layers}
    asked = {"architecture": config.architecture, "hidden": config.hidden, "layers": config.layers}
    if held != asked:
        differ = sorted(k for k in held if held[k] != asked[k])
        raise _core.InvalidOptionError(
            f"init {path} holds a network with "
            + ", ".join(f"{k}={held[k]!r}" for k in differ)
            + "; the run asks for "
            + ", ".join(f"{k}={asked[k]!r}" for k in differ)
        )
    net.learning_rate = config.learning_rate
    return net


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
    out: str, game: Game, config: TrainConfig, boards: list[tuple[Game, int]]
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
        # A setting the run's state lacks (made before it existed) had its default.
        saved = {**_settings(TrainConfig()), **dict(meta.get("config", {}))}
        saved = {k: v for k, v in saved.items() if k not in _FREE_SETTINGS}
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
        net = Network.create(
            _board_of(boards, 0),
            hidden=config.hidden,
            layers=config.layers,
            architecture=config.architecture,
        )
        return {f"opt_{i}": (a.dtype, a.shape) for i, a in enumerate(net.optimiser_state())}

    try:
        meta, arrays = read_npz(path, template_of, "a resume state")
    except _core.InvalidOptionError:
        raise  # another game or other settings than the run's: said as such
    except (OSError, TypeError, *DAMAGED) as e:
        raise _core.RecordError(f"{path}: not a resume state ({type(e).__name__}: {e})") from None
    done = int(meta["iteration"])
    rows = list(meta["rows"])[:done]
    net = Network.load(os.path.join(out, f"checkpoint-{done:03d}.npz"), _board_of(boards, 0))
    # The optimiser is made with the run's learning rate, then given the state it had.
    net.learning_rate = config.learning_rate
    net.set_optimiser_state([arrays[f"opt_{i}"] for i in range(len(arrays))])
    window = []
    for it in range(max(done - config.window, 0), done):
        name = f"selfplay-{it + 1:03d}.npz"
        window.append(SelfPlayData.load(os.path.join(out, RESUME_DIR, name)))
    return net, rows, window


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
    # Throughput: self-play positions per second per core, and the share of self-play's time
    # spent inside the network.
    lines = [
        "| iteration | board | positions | policy loss, new games | value loss, new games |"
        " policy loss, trained | value loss, trained | score vs UCT | 95 % interval |"
        " score vs strong | 95 % interval | gate | 95 % interval | self-play network |"
        " positions/s/core | in network | s |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---|---:|---|---:|---|---:|---:|---:|---:|",
    ]

    def cell(r: dict[str, Any], key: str, low: str, high: str) -> tuple[str, str]:
        if key not in r:
            return "–", "–"
        return f"{r[key]:.3f}", f"[{r[low]:.3f}, {r[high]:.3f}]"

    for r in rows:
        uct, uct_ci = cell(r, "score_vs_uct", "score_low", "score_high")
        strong, strong_ci = cell(r, "score_vs_strong", "strong_low", "strong_high")
        gate, gate_ci = cell(r, "gate_score", "gate_low", "gate_high")
        if "accepted" in r:
            gate += " passed" if r["accepted"] else " failed"
        # The round whose network plays the next round's self-play.
        player = str(r.get("best_round", r["iteration"]))
        speed = f"{r['positions_per_core_second']:.1f}" if "positions_per_core_second" in r else "–"
        share = f"{100 * r['network_share']:.0f} %" if "network_share" in r else "–"
        lines.append(
            f"| {r['iteration']} | {r.get('board', '–')} | {r['positions']} |"
            f" {r['policy_loss_before']:.3f} | {r['value_loss_before']:.3f} |"
            f" {r['policy_loss']:.3f} | {r['value_loss']:.3f} | {uct} | {uct_ci} | {strong} |"
            f" {strong_ci} | {gate} | {gate_ci} | {player} | {speed} | {share} |"
            f" {r['seconds']:.0f} |"
        )
    with atomic_write(os.path.join(out, "results.md")) as f:
        f.write("\n".join(lines) + "\n")
