"""``stonefield lab``: the variant lab from the shell."""

from __future__ import annotations

import argparse
import math
import os
import sys
from typing import Any

from .._core import StonefieldError, games
from ._common import (
    GAME_HELP,
    MAX_SEED,
    MAX_THREADS,
    did_you_mean,
    fail,
    int_in,
    option_arg,
    suggest_option,
)


def _solve_seconds(text: str) -> float:
    """argparse type of ``--solve-time``: a finite number of seconds ≥ 0 (0: no solver),
    checked before any game is played."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"solve-time must be a number, got {text!r}") from None
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(
            f"solve-time must be a finite number of seconds ≥ 0, got {text}"
        )
    return value


def _pair(text: str, many: bool) -> tuple[str, Any]:
    """argparse type: ``KEY=VALUE`` (or ``KEY=V1,V2,...`` when ``many``), each value read as
    every game option of the command line is (:func:`stonefield.cli._common.option_arg`)."""
    key, eq, value = text.partition("=")
    if not eq or not key or not value:
        form = "KEY=V1,V2,..." if many else "KEY=VALUE"
        raise argparse.ArgumentTypeError(f"expected {form}, got {text!r}")
    pairs = [option_arg(f"{key}={v}") for v in (value.split(",") if many else [value])]
    values = [v for _, v in pairs]
    return pairs[0][0], values if many else values[0]


def _strengths(text: str) -> tuple[int, ...]:
    """argparse type: comma-separated iteration counts, each ≥ 1."""
    try:
        values = tuple(int(x) for x in text.split(","))
    except ValueError:
        values = ()
    if not values or any(v < 1 for v in values):
        raise argparse.ArgumentTypeError(
            f"expected iteration counts ≥ 1 separated by commas (200,2000), got {text!r}"
        )
    return values


def add_parser(sub: Any) -> None:
    """Adds ``lab`` to the subcommands."""
    from ..lab import STUDIES

    p = sub.add_parser(
        "lab",
        help="evaluate rule variants by self-play (metrics, report, Ray)",
        description="Plays every variant of a grid with the given agents and prints one row"
        " per variant with every metric and its 95% interval. `stonefield lab GAME --vary"
        " KEY=V1,V2 ...` runs a grid; `stonefield lab study NAME` (or --study NAME) runs a"
        f" ready-made study: {', '.join(STUDIES)}.",
    )
    p.add_argument("target", nargs="?", help=f"a {GAME_HELP}; or 'study'")
    p.add_argument("name", nargs="?", help="the study name after 'study'")
    p.add_argument("--study", help="a study name")
    p.add_argument(
        "--vary",
        action="append",
        default=[],
        type=lambda t: _pair(t, True),
        metavar="KEY=V1,V2",
        help="an option to vary (repeatable; the grid is the product)",
    )
    p.add_argument(
        "--option",
        action="append",
        default=[],
        type=lambda t: _pair(t, False),
        metavar="KEY=VALUE",
        help="an option shared by every variant (repeatable)",
    )
    p.add_argument(
        "--agent",
        action="append",
        default=[],
        metavar="AGENT",
        help="an agent string: random, mcts:iterations=N,..., puct:..., expert (once for every"
        " seat, or once per seat)",
    )
    # Its own dest: the top-level parser checks a plain `games` against negatives.
    p.add_argument(
        "--games",
        "-n",
        dest="lab_games",
        metavar="N",
        type=int_in(1, None, "games"),
        default=None,
        help="games per variant",
    )
    p.add_argument("--seed", type=int_in(0, MAX_SEED, "seed"), default=0, help="the run's seed")
    p.add_argument(
        "--iterations",
        type=int_in(0, None, "iterations"),
        default=None,
        help="studies: one strength only, this many iterations of the strong preset (0: random)",
    )
    p.add_argument(
        "--strengths",
        type=_strengths,
        default=None,
        metavar="N1,N2",
        help="play at each of these strengths (the agent's iterations, default agent the strong"
        " preset) and answer what holds at every one; for a study, default: the study's own",
    )
    p.add_argument(
        "--question",
        default=None,
        metavar="TEXT",
        help="the question the report opens with (a grid of your own)",
    )
    p.add_argument(
        "--arm",
        default=None,
        help="studies with --iterations: who sits where (default: the study's first arm)",
    )
    p.add_argument(
        "--solve-time",
        type=_solve_seconds,
        default=None,
        help="studies: seconds of the exact solver per small board (0: none; default: the "
        "study's own, 20 or 60)",
    )
    p.add_argument(
        "--skill-games",
        type=int_in(0, None, "skill games"),
        default=0,
        help="studies: games a rung of a skill trace per variant (0: none)",
    )
    p.add_argument("--backend", choices=("local", "ray"), default="local")
    p.add_argument("--address", default=None, help="Ray address (host:port or auto)")
    p.add_argument(
        "--threads",
        type=int_in(1, MAX_THREADS, "threads"),
        default=None,
        help="local threads (default: all)",
    )
    p.add_argument("--cpus-per-task", type=int, default=1, help="Ray: CPUs (threads) per task")
    p.add_argument("--chunk", type=int, default=None, help="games per chunk")
    p.add_argument("--kingmaking", type=int, default=None, help="games judged (3-4 players)")
    p.add_argument("--skill", type=int, default=0, help="games of 4x iterations vs base")
    p.add_argument(
        "--out",
        default=None,
        help="results file (JSON lines; resumable); for a whole study, a directory of them",
    )
    p.add_argument("--report", default=None, help="directory for report.md/.html and plots")
    p.add_argument("--csv", default=None, help="write the table as CSV")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..lab import STUDIES, evaluate, run_study, study
    from ..lab.report import Brief

    study_name = args.study
    if args.target == "study":
        if args.name is None:
            fail("give the study's name: stonefield lab study NAME")
        study_name = args.name
    elif args.name is not None:
        fail(f"unexpected argument {args.name!r}")
    try:
        if study_name is not None and args.iterations is None:
            if args.arm is not None:
                fail("--arm needs --iterations (a whole study runs every arm)")
            whole = run_study(
                study_name,
                args.lab_games,
                strengths=args.strengths,
                seed=args.seed,
                out=args.out,
                backend=args.backend,
                address=args.address,
                threads=args.threads,
                solve_time=args.solve_time,
                skill_games=args.skill_games,
                progress=not args.quiet,
            )
            for (iterations, arm), one in whole.labs.items():
                print(f"== {study_name}: {iterations} iterations of the strong preset, {arm}")
                print(one.table(), end="\n\n")
            if args.report:
                path = whole.report(args.report)
                _print_report_path(path)
            return 0
        if study_name is not None:
            if args.strengths is not None:
                fail("give --strengths or --iterations, not both")
            lab = study(
                study_name,
                args.lab_games,
                iterations=args.iterations,
                arm=args.arm,
                seed=args.seed,
                out=args.out,
                backend=args.backend,
                address=args.address,
                threads=args.threads,
                progress=not args.quiet,
            )
        else:
            if args.target is None:
                fail("give a game id or 'study NAME'")
            if args.target not in games():
                fail(
                    f"unknown game {args.target!r}{did_you_mean(args.target, games())};"
                    f" games: {', '.join(games())}"
                )
            agents: Any = args.agent or None
            if agents is not None and len(agents) == 1:
                agents = agents[0]
            if args.strengths is not None:
                return _own_study(args, agents)
            lab = evaluate(
                args.target,
                vary=dict(args.vary),
                fixed=dict(args.option),
                agents=agents,
                games=100 if args.lab_games is None else args.lab_games,
                seed=args.seed,
                backend=args.backend,
                out=args.out,
                address=args.address,
                chunk=args.chunk,
                threads=args.threads,
                kingmaking=args.kingmaking,
                skill=args.skill,
                cpus_per_task=args.cpus_per_task,
                progress=not args.quiet,
            )
    except (StonefieldError, ConnectionError, ImportError) as e:
        message = str(e)
        if study_name is not None and study_name not in STUDIES:
            message += did_you_mean(study_name, STUDIES)
        elif study_name is None and args.target in games():
            named = {**{k: v[0] for k, v in args.vary if v}, **dict(args.option)}
            message += suggest_option(args.target, named)
        fail(message)
    except OSError as e:
        fail(_write_error(e, args.out))
    except KeyboardInterrupt:
        print("stonefield lab: interrupted; finished chunks are kept", file=sys.stderr)
        return 130
    if args.question:
        lab.brief = Brief(args.target, args.question)
    print(lab.table())
    try:
        if args.csv:
            lab.to_csv(args.csv)
        if args.report:
            _print_report_path(lab.report(args.report))
    except OSError as e:
        fail(_write_error(e, args.csv or args.report))
    return 0


def _write_error(e: OSError, path: str | None) -> str:
    """The usage error of a file the lab could not write (``--out``, ``--csv``, ``--report``).

    >>> _write_error(FileNotFoundError(2, "No such file or directory", "/proc/x"), "/proc/x/y")
    'cannot write /proc/x: No such file or directory'
    """
    return f"cannot write {e.filename or path}: {e.strerror or e}"


def _own_study(args: argparse.Namespace, agents: Any) -> int:
    """A grid of the designer's own at every strength of ``--strengths``: what a named study
    gets (an answer that holds at every strength, both strengths' tables, the report)."""
    from ..lab import Study, run_study
    from ..lab.study import STRONG

    if args.skill:
        fail("--skill plays one strength; with --strengths, run the grid without it")
    if agents is not None and not isinstance(agents, str):
        fail("with --strengths give one --agent (its budget is set by each strength)")
    vary = dict(args.vary)
    own = Study(
        f"{args.target}: {' × '.join(vary) or 'one variant'}",
        args.target,
        vary,
        dict(args.option),
        100 if args.lab_games is None else args.lab_games,
        strengths=args.strengths,
        kingmaking=10 if args.kingmaking is None else args.kingmaking,
        question=args.question or "",
        agent=STRONG if agents is None else agents,
    )
    try:
        whole = run_study(
            own,
            strengths=args.strengths,
            seed=args.seed,
            out=args.out,
            backend=args.backend,
            address=args.address,
            threads=args.threads,
            progress=not args.quiet,
        )
    except (StonefieldError, ConnectionError, ImportError) as e:
        fail(str(e))
    except OSError as e:
        fail(_write_error(e, args.out))
    except KeyboardInterrupt:
        print("stonefield lab: interrupted; finished chunks are kept", file=sys.stderr)
        return 130
    for (budget, _), one in whole.labs.items():
        print(f"== {own.strength_label(budget)}")
        print(one.table(), end="\n\n")
    if args.report:
        try:
            _print_report_path(whole.report(args.report))
        except OSError as e:
            fail(_write_error(e, args.report))
    return 0


def _print_report_path(path: str) -> None:
    page = os.path.abspath(os.path.join(os.path.dirname(path), "report.html"))
    print(f"report: {page} (open it in a browser; markdown: {path})", file=sys.stderr)
