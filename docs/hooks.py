"""MkDocs hooks: parts of pages made from the package itself at build time.

- ``<!-- cli-reference -->`` becomes every command's ``--help``, from the argparse parsers of
  :mod:`stonefield.cli`, so the reference cannot drift from the command line;
- ``<!-- picture: GAME -->`` becomes a position of that game drawn by ``State.to_svg`` (the
  positions of docs/pictures.py);
- ``<!-- table: NAME -->`` becomes a results table rendered from the experiments' data by
  ``experiments/tables.py`` (``TABLES[NAME]``), and ``<!-- include: PATH -->`` the text of a
  table an experiment generated (PATH from the repository's root), so every figure of a results
  page is read from its run's file at build time;
- ``<!-- rules: GAME -->`` becomes the rules of GAME for its default options, section by section
  with their diagrams: the same text and pictures the play page shows (``stonefield.play._rules``),
  so the game pages and the page players read cannot disagree.
"""

from __future__ import annotations

import importlib.util
import os
import re
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
_PICTURE = re.compile(r"<!-- picture: (\w+) -->")
# A marker quoted in inline code (`<!-- table: NAME -->`) is left as it is.
_TABLE = re.compile(r"(?<!`)<!-- table: ([\w./+-]+) -->")
_INCLUDE = re.compile(r"(?<!`)<!-- include: ([\w./+-]+) -->")
_RULES = re.compile(r"(?<!`)<!-- rules: (\w+) -->")


def _pictures() -> Any:
    spec = importlib.util.spec_from_file_location("docs_pictures", _HERE / "pictures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _tables() -> Any:
    path = _HERE.parent / "experiments" / "tables.py"
    spec = importlib.util.spec_from_file_location("experiments_tables", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def include(path: str) -> str:
    """The text of a file the experiments generated (a Markdown table or a run's report),
    without its last newline and with its headings one level down (a report sits under a
    heading of the page); PATH is relative to the repository's root, inside experiments/."""
    root = _HERE.parent
    target = (root / path).resolve()
    if not target.is_relative_to(root / "experiments"):
        raise ValueError(f"<!-- include: {path} -->: only files under experiments/ are included")
    lines = target.read_text().rstrip("\n").splitlines()
    return "\n".join("#" + line if line.startswith("#") else line for line in lines)


def cli_reference() -> str:
    """Every command's help as markdown: one section per command."""
    from stonefield.cli import build_parser

    # argparse wraps help text to the terminal's width; fix it so the page is the same anywhere.
    os.environ["COLUMNS"] = "100"
    parser, commands = build_parser()
    out = ["### stonefield", "", "```text", parser.format_help().rstrip(), "```", ""]
    for name, command in commands.items():
        out += [f"### stonefield {name}", "", "```text", command.format_help().rstrip(), "```", ""]
    return "\n".join(out)


def rules(game: str) -> str:
    """The rules of ``game`` (default options) as the play page writes them: a ``###`` heading
    per section, its paragraphs, and its diagrams as inline SVG figures with their captions."""
    import stonefield as sf
    from stonefield.play._rules import rules as play_rules

    r = play_rules(sf.make(game))
    out = [f"*{r['summary']}*", ""] if r["summary"] else []
    for section in r["sections"]:
        out += [f"### {section['heading']}", ""]
        for paragraph in section["text"]:
            out += [paragraph, ""]
        for d in section["diagrams"]:
            out += [
                f'<figure markdown="span">\n{d["svg"]}\n<figcaption>{d["caption"]}</figcaption>'
                "\n</figure>",
                "",
            ]
    return "\n".join(out)


def picture(game: str) -> str:
    """The docs' position of ``game`` as inline SVG, with its caption."""
    pictures = _pictures()
    for _file, name, options, moves, seed in pictures.PICTURES:
        if name == game:
            state = pictures.position(name, options, moves, seed)
            opts = ", ".join(f"{k}={v}" for k, v in options.items()) or "default options"
            svg = state.to_svg(size=360)
            return (
                f'<figure markdown="span">\n{svg}\n<figcaption>{game} ({opts}) after'
                f" {len(state.history)} random actions, drawn by <code>State.to_svg</code>"
                "</figcaption>\n</figure>"
            )
    raise ValueError(f"docs/pictures.py has no position of {game!r}")


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if "<!-- cli-reference -->" in markdown:
        markdown = markdown.replace("<!-- cli-reference -->", cli_reference())
    markdown = _PICTURE.sub(lambda m: picture(m.group(1)), markdown)
    markdown = _RULES.sub(lambda m: rules(m.group(1)), markdown)
    if _TABLE.search(markdown):
        tables = _tables()
        markdown = _TABLE.sub(lambda m: tables.render(m.group(1)), markdown)
    return _INCLUDE.sub(lambda m: include(m.group(1)), markdown)
