"""The docs' option tables (one on each game's page, docs/games/GAME.md), generated from the
games' own option declarations.

``python -m stonefield._optiondocs`` prints every table; ``--write docs/games/GAME.md`` rewrites
the blocks between ``<!-- options: GAME -->`` and ``<!-- /options -->`` in place, and ``--check
FILE`` exits with status 1 when they differ from what the declarations give (the test suite runs
the same check on every game page).

>>> for line in table("subsume").splitlines()[:3]:
...     print(line)
| option | values | default | meaning |
|---|---|---|---|
| `size` | 3 to 30 | `6` | the hexagon's side (91 cells at 6) |
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from ._core import games
from .options import OptionInfo, option_spec

#: Integer ranges reaching this far are shown as "at least min": they have no practical cap.
_UNBOUNDED = 2**40

_BLOCK = re.compile(r"(<!-- options: (\w+) -->\n)(.*?)(<!-- /options -->)", re.DOTALL)


def _literal(value: str | int | bool) -> str:
    """A value as Python source, in code style."""
    return f"`{value!r}`".replace("'", '"')


def _values(option: OptionInfo) -> str:
    if option["kind"] == "bool":
        return "`True`, `False`"
    if option["kind"] == "int":
        lo, hi = option["min"], option["max"]
        if hi is not None and hi >= _UNBOUNDED:
            return f"at least {lo}"
        return f"{lo} to {hi}"
    parts = []
    for v in option["values"] or []:
        text = _literal(v["name"])
        parts.append(f"{text} ({v['help']})" if v["help"] else text)
    return ", ".join(parts)


def table(game: str) -> str:
    """The Markdown option table of one game, plus a table of its rulesets if it has any.

    Args:
        game: a game id.

    Returns:
        The tables, ending without a newline.
    """
    spec = option_spec(game)
    lines = ["| option | values | default | meaning |", "|---|---|---|---|"]
    for o in spec:
        default = "by board (see meaning)" if o["default"] is None else _literal(o["default"])
        lines.append(f"| `{o['name']}` | {_values(o)} | {default} | {o['help']} |")
    for o in spec:
        rulesets = [v for v in o["values"] or [] if v["sets"]]
        if not rulesets:
            continue
        keys = list(rulesets[0]["sets"])
        lines += ["", f"| {o['name']} | " + " | ".join(keys) + " |", "|---" * (len(keys) + 1) + "|"]
        for v in rulesets:
            lines.append(f"| {v['name']} | " + " | ".join(v["sets"][k] for k in keys) + " |")
    return "\n".join(lines)


def render(text: str) -> str:
    """``text`` with every option block replaced by the table its game declares.

    Raises:
        ValueError: a block names an unknown game.
    """

    def block(m: re.Match[str]) -> str:
        game = m.group(2)
        if game not in games():
            raise ValueError(f"option block for unknown game {game!r}")
        return f"{m.group(1)}{table(game)}\n{m.group(4)}"

    return _BLOCK.sub(block, text)


def blocks(text: str) -> list[str]:
    """The games whose option blocks ``text`` holds, in order."""
    return [m.group(2) for m in _BLOCK.finditer(text)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m stonefield._optiondocs", description=__doc__)
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", metavar="FILE", help="rewrite the option blocks of a file")
    group.add_argument("--check", metavar="FILE", help="exit 1 if the option blocks differ")
    args = parser.parse_args(argv)
    if args.write is None and args.check is None:
        for game in games():
            print(f"<!-- options: {game} -->\n{table(game)}\n<!-- /options -->\n")
        return 0
    path = Path(args.write or args.check)
    text = path.read_text(encoding="utf-8")
    new = render(text)
    if args.write is not None:
        path.write_text(new, encoding="utf-8")
        return 0
    if new != text:
        print(
            f"{path}: option tables are out of date; run python -m stonefield._optiondocs "
            f"--write {path}",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
