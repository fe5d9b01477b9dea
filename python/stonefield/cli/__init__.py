"""The ``stonefield`` command line, one module per command.

Every command reports a mistake the way argparse reports its own: the command's usage line,
then ``stonefield CMD: error: MESSAGE`` on stderr, and exit status 2. Near-miss names of
commands, games, options, values, agents and studies get a "did you mean" suggestion.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from .. import _core
from . import (
    analyse,
    bench,
    lab,
    match,
    play,
    render,
    selfplay,
    simulate,
    solve,
    train,
    verify_proof,
)
from ._common import UsageError, did_you_mean, move_positional_options

__all__ = ["COMMANDS", "build_parser", "main"]

#: The commands, in the order ``stonefield --help`` lists them.
COMMANDS = {
    "simulate": simulate,
    "bench": bench,
    "render": render,
    "play": play,
    "match": match,
    "analyse": analyse,
    "selfplay": selfplay,
    "solve": solve,
    "verify-proof": verify_proof,
    "lab": lab,
    "train": train,
}


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The top-level parser and each command's own parser (the documentation reads both)."""
    parser = argparse.ArgumentParser(
        prog="stonefield",
        description="Fast engines for The Smallholder, Windflowers, Faraday and Subsume.",
    )
    parser.add_argument("--version", action="version", version=f"stonefield {_core.__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in COMMANDS.values():
        module.add_parser(sub)
    return parser, dict(sub.choices)


def main(argv: Sequence[str] | None = None) -> int:
    """Runs one command; returns its exit status (argparse's own errors exit with 2)."""
    parser, commands = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    # Each command parses its own arguments "intermixed", so options may come before or after
    # the flags (`simulate windflowers -n 3 size=5`); argparse cannot do that through
    # subparsers, so the top-level parser only handles what comes before a command.
    if not argv or argv[0] not in commands:
        if argv and not argv[0].startswith("-"):
            parser.error(
                f"unknown command {argv[0]!r}{did_you_mean(argv[0], commands)};"
                f" commands: {', '.join(commands)}"
            )
        parser.parse_args(argv)  # --help, --version, or an argparse error (exit 2)
        return 2
    command = commands[argv[0]]
    rest, moved = move_positional_options(command, argv[1:])
    if moved:
        shown = " ".join(f"--option {m}" for m in moved)
        print(
            f"{command.prog}: hint: game options are written --option KEY=VALUE;"
            f" read {' '.join(moved)} as {shown}",
            file=sys.stderr,
        )
    args = command.parse_intermixed_args(rest)
    try:
        return int(args.func(args))
    except UsageError as e:
        # As argparse reports its own errors, but returned rather than raised (SystemExit).
        command.print_usage(sys.stderr)
        print(f"{command.prog}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{command.prog}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`stonefield simulate ... | head -1`): not an error of ours.
        # Point stdout at /dev/null so that the interpreter's final flush stays quiet too.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141  # as a program stopped by SIGPIPE reports
