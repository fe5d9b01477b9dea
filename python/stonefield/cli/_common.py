"""What every command of the ``stonefield`` command line shares: argument types, the one error
format (``stonefield CMD: error: ...`` after the command's usage line, exit status 2), "did you
mean" suggestions, game options and the progress bar."""

from __future__ import annotations

import argparse
import difflib
import math
import os
import platform
import re
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NoReturn

from .. import _core
from ..options import parse_options as parse_game_options


class UsageError(Exception):
    """A bad argument found after parsing; reported as argparse reports its own errors: the
    command's usage line, ``stonefield CMD: error: MESSAGE``, exit status 2."""


#: Largest seed: seeds are unsigned 64-bit integers.
MAX_SEED = 2**64 - 1
#: Largest thread count (as the extension allows).
MAX_THREADS = 256
#: Largest picture size of ``render`` (as :data:`stonefield.render.MAX_SIZE`).
MAX_SIZE = 100_000


def fail(message: str) -> NoReturn:
    """Stops the command with a usage error (see :class:`UsageError`)."""
    raise UsageError(message)


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """``" (did you mean 'x'?)"`` for the closest candidate to a misspelt ``word``, else ``""``.

    >>> did_you_mean("windflower", ["smallholder", "windflowers"])
    " (did you mean 'windflowers'?)"
    >>> did_you_mean("chess", ["smallholder", "windflowers"])
    ''
    """
    close = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def game_id(text: str) -> str:
    """argparse type: a game id of :func:`stonefield.games`."""
    if text in _core.games():
        return text
    raise argparse.ArgumentTypeError(
        f"unknown game {text!r}{did_you_mean(text, _core.games())};"
        f" games: {', '.join(_core.games())}"
    )


def int_in(low: int, high: int | None, what: str) -> Callable[[str], int]:
    """argparse type: an integer from ``low`` to ``high`` (no upper bound when None)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be an integer, got {text!r}") from None
        if high is None and value < low:
            raise argparse.ArgumentTypeError(f"{what} must be at least {low}, got {text}")
        if high is not None and not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what} must be from {low} to {high}, got {text}")
        return value

    parse.__name__ = what
    return parse


def positive_number(what: str) -> Callable[[str], float]:
    """argparse type: a positive, finite number."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be a number, got {text!r}") from None
        if not (math.isfinite(value) and value > 0):
            raise argparse.ArgumentTypeError(f"{what} must be a positive number, got {text}")
        return value

    parse.__name__ = what
    return parse


seconds = positive_number("seconds")


def parse_options(items: Sequence[str]) -> dict[str, Any]:
    """``key=value`` pairs, read by :func:`stonefield.parse_options` (the Rust core's rule); a
    malformed one is a usage error."""
    try:
        return dict(parse_game_options(items))
    except _core.StonefieldError as e:
        raise UsageError(str(e)) from None


def option_arg(text: str) -> tuple[str, Any]:
    """argparse type: one ``KEY=VALUE`` game option, read as :func:`parse_options` reads it."""
    key, eq, _ = text.partition("=")
    if not eq or not key:
        raise argparse.ArgumentTypeError(f"expected a game option as KEY=VALUE, got {text!r}")
    try:
        return _core.parse_option(text)
    except _core.StonefieldError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def suggest_option(game: str, options: dict[str, Any]) -> str:
    """A "did you mean" for the first option name or choice value of ``options`` that
    ``game`` does not have (``""`` when every name is known or nothing is close)."""
    from ..options import option_spec

    if game not in _core.games():
        return did_you_mean(game, _core.games())
    spec = {o["name"]: o for o in option_spec(game)}
    for key, value in options.items():
        if key not in spec:
            return did_you_mean(key, spec)
        values = spec[key]["values"]
        if values is not None and isinstance(value, str):
            names = [v["name"] for v in values]
            if value not in names:
                return did_you_mean(value, names)
    return ""


def make_game(name: str, options: dict[str, Any]) -> _core.Game:
    """``sf.make(name, **options)``, a mistake reported as a usage error with a suggestion."""
    try:
        return _core.make(name, **options)
    except _core.StonefieldError as e:
        raise UsageError(f"{e}{suggest_option(name, options)}") from e


def options_help() -> str:
    """Every game's options with their allowed values and defaults, from the declarations."""
    from ..options import option_spec

    lines = ["game options (--option KEY=VALUE, repeatable; default in brackets):"]
    for game in _core.games():
        lines.append(f"  {game}:")
        for o in option_spec(game):
            if o["kind"] == "choice":
                allowed = "|".join(v["name"] for v in o["values"] or [])
            elif o["kind"] == "int":
                allowed = f"{o['min']}..{o['max']}"
            else:
                allowed = "true|false"
            default = "by board" if o["default"] is None else str(o["default"]).lower()
            lines.append(f"    {o['name']}={allowed} [{default}]")
    return "\n".join(lines)


class Progress:
    """A progress bar on stderr for runs longer than a second, drawn only when stderr is a
    terminal (a redirected stderr gets no ``\\r`` frames)."""

    def __init__(self, enabled: bool, stream: Any = None) -> None:
        self.stream = sys.stderr if stream is None else stream
        isatty = getattr(self.stream, "isatty", None)
        self.enabled = enabled and callable(isatty) and bool(isatty())
        self.start = time.perf_counter()
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        elapsed = time.perf_counter() - self.start
        if not self.enabled or (elapsed < 1.0 and not self.shown):
            return
        self.shown = True
        width = 30
        filled = int(width * done / max(total, 1))
        rate = done / elapsed if elapsed > 0 else 0.0
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games  {rate:,.0f}/s "
        )
        self.stream.flush()

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.shown = False


#: A game option written as a positional argument: ``size=4`` (an agent string has a colon).
_POSITIONAL_OPTION = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*=[^:]*$")


def move_positional_options(
    parser: argparse.ArgumentParser, argv: Sequence[str]
) -> tuple[list[str], list[str]]:
    """``argv`` with every positional ``key=value`` rewritten as ``--option key=value``, the one
    syntax of game options on the command line, and the options so moved (for a hint).

    Only commands with an ``--option`` flag are rewritten; a flag's own values (``--vary
    scoring=stones``, ``--agent mcts:iterations=5``) are left where they are.

    >>> p = argparse.ArgumentParser()
    >>> _ = p.add_argument("game"); _ = p.add_argument("--option", action="append")
    >>> _ = p.add_argument("--games", type=int); _ = p.add_argument("-q", action="store_true")
    >>> move_positional_options(p, ["subsume", "size=4", "--games", "3", "-q"])
    (['subsume', '--option', 'size=4', '--games', '3', '-q'], ['size=4'])
    """
    flags = parser._option_string_actions  # argparse has no public table of its flags
    if "--option" not in flags:
        return list(argv), []
    out: list[str] = []
    moved: list[str] = []
    values = 0  # how many of the next tokens are the last flag's values (-1: until a flag)
    for token in argv:
        if token.startswith("-") and len(token) > 1 and not _is_number(token):
            values = 0
            name, eq, _ = token.partition("=")
            matches = [a for f, a in flags.items() if f == name] or [
                a for f, a in flags.items() if f.startswith("--") and f.startswith(name)
            ]
            if len(matches) == 1 and not eq:
                nargs = matches[0].nargs
                values = 1 if nargs is None else nargs if isinstance(nargs, int) else -1
            out.append(token)
        elif values != 0:
            values -= values > 0
            out.append(token)
        elif _POSITIONAL_OPTION.match(token):
            out += ["--option", token]
            moved.append(token)
        else:
            out.append(token)
    return out, moved


def _is_number(token: str) -> bool:
    try:
        float(token)
    except ValueError:
        return False
    return True


def load_average() -> float | None:
    """The one-minute load average (None where the system has none, as on Windows)."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return None


def cpu_model() -> str:
    """The processor's name, as the system reports it (``""`` when it does not)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.partition(":")[2].strip()
    except OSError:
        pass
    return platform.processor()


def machine_lines(threads: int, before: float | None) -> list[str]:
    """What a speed was measured on: the cores, the processor, the threads used and the load
    average before and after, with a warning when other programs kept the cores busy (then
    rates are lower than on an idle machine, and more threads may even be slower than one).

    >>> machine_lines(1, None)[0].startswith("machine")
    True
    """
    cores = os.cpu_count() or 1
    after = load_average()
    model = cpu_model()
    lines = [
        f"machine         {cores} core{'s' if cores != 1 else ''}"
        + (f", {model}" if model else "")
        + f"; stonefield {_core.__version__}; {threads} thread{'s' if threads != 1 else ''} used"
    ]
    if before is None or after is None:
        lines.append("load average    not available on this system")
        return lines
    lines.append(f"load average    {before:.2f} before, {after:.2f} after (1 minute)")
    # Our own threads add to the load while they run: the load before is the others'.
    if before > 0.5 * cores:
        lines.append(
            f"warning: the machine was loaded (load average {before:.2f} on {cores} cores):"
            " other programs shared the cores, so these rates are below an idle machine's and"
            " more threads can come out slower than one; rerun on a quiet machine to compare"
        )
    return lines


def spread(rates: Sequence[float]) -> str:
    """``median (min to max, n repeats)`` of measured rates.

    >>> spread([90.0, 110.0, 100.0])
    '100 (90 to 110 over 3 repeats)'
    """
    if not rates:
        return "-"
    return (
        f"{median(rates):,.0f} ({min(rates):,.0f} to {max(rates):,.0f} over {len(rates)} repeats)"
    )


def median(values: Sequence[float]) -> float:
    """The median of ``values`` (nan when empty)."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def add_option_flag(parser: argparse.ArgumentParser, help: str) -> None:
    """``--option KEY=VALUE`` (repeatable), collected as ``(key, value)`` pairs in ``options``."""
    parser.add_argument(
        "--option",
        dest="options",
        type=option_arg,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=help,
    )


#: The help text of a game id argument.
GAME_HELP = "game id: " + ", ".join(_core.games())
