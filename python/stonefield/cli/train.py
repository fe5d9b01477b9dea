"""``stonefield train``: the small AlphaZero loop (PUCT self-play, training, evaluation against
UCT, ``.npz`` checkpoints). Needs the optional extra ``stonefield[jax]``."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from .. import _core
from .._checkpoint import ARCHITECTURES, MAX_HIDDEN, MAX_LAYERS
from ._common import (
    GAME_HELP,
    MAX_SEED,
    add_option_flag,
    fail,
    game_id,
    int_in,
    make_game,
    positive_number,
)

#: The settings of TrainConfig the command sets, by flag destination.
_SETTINGS = (
    "games",
    "simulations",
    "batch_size",
    "temperature_moves",
    "epochs",
    "window",
    "architecture",
    "hidden",
    "layers",
    "learning_rate",
    "eval_games",
    "eval_simulations",
    "uct_iterations",
    "seed",
    "augment",
    "minutes",
    "full_search_share",
    "fast_simulations",
    "value_mix",
    "exact_empty",
    "exact_nodes",
    "curriculum",
    "strong_games",
    "workers",
    "address",
    "init",
    "gate_games",
    "gate_threshold",
)


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "train",
        help="train a policy-value network by AlphaZero self-play (needs stonefield[jax])",
        description="Runs ITERATIONS rounds of PUCT self-play with the current network, training"
        " on the visit policies and outcomes, and a match against UCT; writes"
        " checkpoint-NNN.npz, latest.npz, results.json and results.md to --out, and what a"
        " resume needs to --out/resume. A folder that holds a run is refused unless --resume"
        " (continue it, with its settings) or --overwrite (start again) is given. Needs the"
        " optional extra: pip install 'stonefield[jax]'.",
    )
    p.add_argument(
        "game", type=game_id, metavar="GAME", nargs="?", help=GAME_HELP + " (not with --resume)"
    )
    add_option_flag(p, "a game option (repeatable), e.g. --option size=4")
    p.add_argument(
        "--iterations",
        type=int_in(1, None, "iterations"),
        help="rounds of the whole run (required, but with --resume: default the run's own)",
    )
    p.add_argument(
        "--out", metavar="DIR", help="folder for checkpoints (required, but with --resume)"
    )
    p.add_argument(
        "--resume",
        metavar="DIR",
        help="continue the run in DIR after its last finished round, with its settings"
        " (the network, the optimiser's state, the replay window and the round number)",
    )
    p.add_argument(
        "--overwrite", action="store_true", help="start again in an --out that holds a run"
    )
    # No argparse defaults: a resumed run keeps its own settings; TrainConfig's are the rest.
    p.add_argument(
        "--games", type=int_in(1, None, "games"), help="self-play games a round (default: 64)"
    )
    p.add_argument(
        "--simulations",
        type=int_in(1, None, "simulations"),
        help="PUCT simulations a self-play move (default: 64)",
    )
    p.add_argument(
        "--batch-size",
        type=int_in(1, 65536, "batch-size"),
        help="positions the network evaluates at once during search (default: 8)",
    )
    p.add_argument(
        "--temperature-moves",
        type=int_in(0, None, "temperature-moves"),
        help="opening moves drawn in proportion to the visits, not the most visited (default: 4)",
    )
    p.add_argument(
        "--epochs", type=int_in(1, None, "epochs"), help="passes over the window (default: 4)"
    )
    p.add_argument(
        "--window",
        type=int_in(1, None, "window"),
        help="rounds of self-play positions trained on (default: 4)",
    )
    p.add_argument(
        "--architecture",
        choices=ARCHITECTURES,
        help="graph: message passing over the board's neighbours, one network for every board"
        " of the game; mlp: a perceptron for one board (default: graph)",
    )
    p.add_argument(
        "--hidden", type=int_in(1, MAX_HIDDEN, "hidden"), help="layer width (default: 64)"
    )
    p.add_argument(
        "--layers",
        type=int_in(1, MAX_LAYERS, "layers"),
        help="message-passing blocks of a graph network, hidden layers of an mlp (default: 4)",
    )
    p.add_argument(
        "--learning-rate",
        type=positive_number("learning-rate"),
        help="AdamW's learning rate (default: 0.001)",
    )
    p.add_argument(
        "--eval-games",
        type=int_in(0, None, "eval-games"),
        help="games against UCT after each round, 0 for none (default: 40)",
    )
    p.add_argument(
        "--eval-simulations",
        type=int_in(1, None, "eval-simulations"),
        help="PUCT simulations a move in those games (default: 200)",
    )
    p.add_argument(
        "--uct-iterations",
        type=int_in(1, None, "uct-iterations"),
        help="UCT's iterations a move in those games (default: 200)",
    )
    p.add_argument("--seed", type=int_in(0, MAX_SEED, "seed"), help="the run's seed (default: 0)")
    p.add_argument(
        "--no-augment",
        dest="augment",
        action="store_const",
        const=False,
        help="train on the positions as played, not moved by the board's symmetries",
    )
    p.add_argument(
        "--minutes",
        type=positive_number("minutes"),
        default=None,
        help="time budget of this sitting: no iteration starts that would end past it"
        " (default: none)",
    )
    p.add_argument(
        "--full-search-share",
        type=share("full-search-share"),
        help="playout-cap randomisation: the share of self-play moves searched in full, 0 to 1;"
        " the others get --fast-simulations and no root noise, and only full searches' policies"
        " are training targets (default: 1, every move in full; KataGo uses 0.25)",
    )
    p.add_argument(
        "--fast-simulations",
        type=int_in(1, None, "fast-simulations"),
        help="simulations of a fast search, 1 to --simulations minus 1"
        " (default: a quarter of --simulations)",
    )
    p.add_argument(
        "--value-mix",
        type=share("value-mix"),
        help="value target (1 - MIX) x outcome + MIX x the search's root value, 0 to 1"
        " (default: 0)",
    )
    p.add_argument(
        "--exact-empty",
        type=int_in(0, None, "exact-empty"),
        help="positions with at most K legal actions get their value target from sf.solve"
        " when it proves them (default: 0, none)",
    )
    p.add_argument(
        "--exact-nodes",
        type=int_in(1, None, "exact-nodes"),
        help="node budget of each of those solves (default: 2000)",
    )
    p.add_argument(
        "--curriculum",
        metavar="SPANS",
        help='board options per span of rounds, e.g. "size=3:4,size=4:8" (4 rounds on size'
        " 3, then 8 on size 4; options joined by +; the last board stays for later rounds)",
    )
    p.add_argument(
        "--strong-games",
        type=int_in(0, None, "strong-games"),
        help="games after each round against mcts:preset=strong given the network's"
        " measured time per move (default: 0, none)",
    )
    p.add_argument(
        "--workers",
        type=int_in(1, None, "workers"),
        help="split each round's self-play over N Ray tasks (needs stonefield[ray]; default:"
        " in this process)",
    )
    p.add_argument(
        "--address",
        metavar="ADDR",
        help="the Ray cluster the workers join (default: a local Ray)",
    )
    p.add_argument(
        "--init",
        metavar="CHECKPOINT",
        help="start from this checkpoint's weights instead of random ones (the optimiser starts"
        " afresh): a network of the game with the run's --architecture, --hidden and --layers,"
        " such as an earlier run's latest.npz",
    )
    p.add_argument(
        "--gate-games",
        type=int_in(0, None, "gate-games"),
        help="after each round, games of the trained network against the self-play network;"
        " it replaces the self-play network only when it scores --gate-threshold (default: 0,"
        " no gate: the trained network plays the next round)",
    )
    p.add_argument(
        "--gate-threshold",
        type=positive_share("gate-threshold"),
        help="the score that passes the gate, above 0 and at most 1 (default: 0.55)",
    )
    p.set_defaults(func=run)


def positive_share(name: str) -> Any:
    """An argparse type: a number above 0 and at most 1."""

    def parse(text: str) -> float:
        try:
            v = float(text)
        except ValueError:
            v = float("nan")
        if not 0 < v <= 1:
            raise argparse.ArgumentTypeError(
                f"{name} must be a number above 0 and at most 1, got {text!r}"
            )
        return v

    return parse


def share(name: str) -> Any:
    """An argparse type: a number from 0 to 1."""

    def parse(text: str) -> float:
        try:
            v = float(text)
        except ValueError:
            v = float("nan")
        if not 0 <= v <= 1:
            raise argparse.ArgumentTypeError(f"{name} must be a number from 0 to 1, got {text!r}")
        return v

    return parse


def _plan(args: argparse.Namespace, loop: Any) -> tuple[_core.Game, str, int, dict[str, Any]]:
    """The game, folder, rounds and settings of the run to start or resume."""
    given = {k: getattr(args, k) for k in _SETTINGS if getattr(args, k) is not None}
    if args.resume is None:
        if args.game is None or args.iterations is None or args.out is None:
            fail("give GAME, --iterations and --out (or --resume DIR to continue a run)")
        game = make_game(args.game, dict(args.options))
        return game, args.out, args.iterations, {**loop.TrainConfig().__dict__, **given}
    if args.overwrite:
        fail("give --resume or --overwrite, not both")
    if args.out is not None and os.path.abspath(args.out) != os.path.abspath(args.resume):
        fail(f"--resume {args.resume} and --out {args.out} name different folders")
    try:
        header = loop.run_header(args.resume)
        saved = make_game(header["game"], dict(header["options"]))
        settings = {**dict(header["config"]), **given}
        iterations = args.iterations or int(header.get("iterations") or header["iteration"])
    except (_core.StonefieldError, KeyError, TypeError, ValueError) as e:
        fail(f"--resume: {e}")
    game = saved if args.game is None else make_game(args.game, dict(args.options))
    return game, args.resume, iterations, settings


def run(args: argparse.Namespace) -> int:
    try:
        from ..alphazero import loop
    except ImportError as e:
        fail(str(e))
    game, out, iterations, settings = _plan(args, loop)
    try:
        config = loop.TrainConfig(**settings)
    except TypeError as e:
        fail(f"--resume: the run's settings cannot be read ({e})")
    if args.resume is None:
        if os.path.exists(out) and not os.path.isdir(out):
            fail(f"--out: {out} is a file, not a folder")
        try:
            os.makedirs(out, exist_ok=True)
        except OSError as e:
            fail(f"--out: cannot make the folder {out} ({e.strerror or e})")
        if not os.access(out, os.W_OK):
            fail(f"--out: cannot write in {out}")

    def show(row: dict[str, Any]) -> None:
        score = row.get("score_vs_uct")
        vs = "" if score is None else f", score vs UCT {score:.3f}"
        if row.get("score_vs_strong") is not None:
            vs += f", score vs strong {row['score_vs_strong']:.3f}"
        if row.get("gate_score") is not None:
            passed = "passed" if row["accepted"] else "failed"
            vs += f", gate {row['gate_score']:.3f} {passed} (self-play: round {row['best_round']})"
        if row.get("positions_per_core_second") is not None:
            vs += f", {row['positions_per_core_second']:.1f} positions/s/core"
            if row.get("network_share") is not None:
                vs += f" ({100 * row['network_share']:.0f} % in the network)"
        print(
            f"iteration {row['iteration']}: {row['positions']} positions on"
            f" {row.get('board', '')}, loss on them"
            f" {row['policy_loss_before']:.3f} + {row['value_loss_before']:.3f}, after training"
            f" {row['policy_loss']:.3f} + {row['value_loss']:.3f}{vs}"
            f" ({row['seconds']:.0f} s)",
            file=sys.stderr,
            flush=True,
        )

    try:
        loop.train(
            game,
            iterations,
            out,
            config,
            progress=show,
            resume=args.resume is not None,
            overwrite=args.overwrite,
        )
    except _core.StonefieldError as e:
        fail(str(e))
    except (ImportError, ConnectionError) as e:
        fail(str(e))
    except OSError as e:
        fail(f"cannot write the run in {out} ({e})")
    print(f"{out}/results.md")
    return 0
