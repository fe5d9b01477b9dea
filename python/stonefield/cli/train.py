"""``stonefield train``: the small AlphaZero loop (PUCT self-play, training, evaluation against
UCT, ``.npz`` checkpoints). Needs the optional extra ``stonefield[jax]``."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .. import _core
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


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "train",
        help="train a policy-value network by AlphaZero self-play (needs stonefield[jax])",
        description="Runs ITERATIONS rounds of PUCT self-play with the current network, training"
        " on the visit policies and outcomes, and a match against UCT; writes"
        " checkpoint-NNN.npz, latest.npz, results.json and results.md to --out. Needs the"
        " optional extra: pip install 'stonefield[jax]'.",
    )
    p.add_argument("game", type=game_id, metavar="GAME", help=GAME_HELP)
    add_option_flag(p, "a game option (repeatable), e.g. --option size=4")
    p.add_argument(
        "--iterations",
        type=int_in(1, None, "iterations"),
        required=True,
        help="rounds of self-play, training and evaluation (required)",
    )
    p.add_argument("--out", required=True, metavar="DIR", help="folder for checkpoints (required)")
    d = " (default: %(default)s)"
    p.add_argument(
        "--games", type=int_in(1, None, "games"), default=64, help="self-play games a round" + d
    )
    p.add_argument(
        "--simulations",
        type=int_in(1, None, "simulations"),
        default=64,
        help="PUCT simulations a self-play move" + d,
    )
    p.add_argument(
        "--batch-size",
        type=int_in(1, 65536, "batch-size"),
        default=8,
        help="positions the network evaluates at once during search" + d,
    )
    p.add_argument(
        "--temperature-moves",
        type=int_in(0, None, "temperature-moves"),
        default=4,
        help="opening moves drawn in proportion to the visits, not the most visited" + d,
    )
    p.add_argument(
        "--epochs", type=int_in(1, None, "epochs"), default=4, help="passes over the window" + d
    )
    p.add_argument(
        "--window",
        type=int_in(1, None, "window"),
        default=4,
        help="rounds of self-play positions trained on" + d,
    )
    p.add_argument("--hidden", type=int_in(1, None, "hidden"), default=128, help="layer width" + d)
    p.add_argument("--layers", type=int_in(1, None, "layers"), default=2, help="hidden layers" + d)
    p.add_argument(
        "--learning-rate",
        type=positive_number("learning-rate"),
        default=1e-3,
        help="AdamW's learning rate" + d,
    )
    p.add_argument(
        "--eval-games",
        type=int_in(0, None, "eval-games"),
        default=40,
        help="games against UCT after each round (0: none)" + d,
    )
    p.add_argument(
        "--eval-simulations",
        type=int_in(1, None, "eval-simulations"),
        default=200,
        help="PUCT simulations a move in those games" + d,
    )
    p.add_argument(
        "--uct-iterations",
        type=int_in(1, None, "uct-iterations"),
        default=200,
        help="UCT's iterations a move in those games" + d,
    )
    p.add_argument("--seed", type=int_in(0, MAX_SEED, "seed"), default=0, help="the run's seed" + d)
    p.add_argument(
        "--no-augment",
        dest="augment",
        action="store_false",
        help="train on the positions as played, not moved by the board's symmetries",
    )
    p.add_argument(
        "--minutes",
        type=positive_number("minutes"),
        default=None,
        help="time budget: no iteration starts that would end past it (default: none)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    game = make_game(args.game, dict(args.options))
    try:
        from ..alphazero import TrainConfig, train
    except ImportError as e:
        fail(str(e))
    config = TrainConfig(
        games=args.games,
        simulations=args.simulations,
        batch_size=args.batch_size,
        temperature_moves=args.temperature_moves,
        epochs=args.epochs,
        window=args.window,
        hidden=args.hidden,
        layers=args.layers,
        learning_rate=args.learning_rate,
        eval_games=args.eval_games,
        eval_simulations=args.eval_simulations,
        uct_iterations=args.uct_iterations,
        seed=args.seed,
        minutes=args.minutes,
        augment=args.augment,
    )

    def show(row: dict[str, Any]) -> None:
        score = row.get("score_vs_uct")
        vs = "" if score is None else f", score vs UCT {score:.3f}"
        print(
            f"iteration {row['iteration']}: {row['positions']} positions, loss on them"
            f" {row['policy_loss_before']:.3f} + {row['value_loss_before']:.3f}, after training"
            f" {row['policy_loss']:.3f} + {row['value_loss']:.3f}{vs}"
            f" ({row['seconds']:.0f} s)",
            file=sys.stderr,
            flush=True,
        )

    try:
        train(game, args.iterations, args.out, config, progress=show)
    except _core.StonefieldError as e:
        fail(str(e))
    print(f"{args.out}/results.md")
    return 0
