"""A griffe extension for the API reference.

The extension module's docstrings are written in Rust (pyo3 keeps them on the compiled objects),
while its signatures and types are in the stub ``_core.pyi``. Griffe reads the stub; this fills
each stub object's missing docstring from the object the compiled module really has. It also
fences the doctest examples written straight into docstrings (``>>>`` lines and their output) as
code, so that their output is shown as written rather than read as markdown."""

from __future__ import annotations

import importlib
import re
from typing import Any

import griffe


def _runtime(path: str) -> Any:
    module, _, rest = path.partition("._core")
    obj: Any = importlib.import_module(module + "._core")
    for part in filter(None, rest.split(".")):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


# Sphinx roles (:func:`x`, :class:`~a.b.C`) as inline code.
_ROLE = re.compile(r":(?:class|func|meth|data|attr|mod|exc|obj):`~?([^`]+)`")


def fence_doctests(text: str) -> str:
    """Wraps each run of doctest lines (from a ``>>>`` line to the next blank line) in a
    ``pycon`` code fence, unless it is inside a fence already."""
    out: list[str] = []
    in_fence = in_doctest = False
    indent = ""
    for line in text.splitlines():
        stripped = line.lstrip()
        if in_doctest and not stripped:
            out.append(indent + "```")
            in_doctest = False
        elif not in_doctest and stripped.startswith("```"):
            in_fence = not in_fence
        elif not in_doctest and not in_fence and stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            out.append(indent + "```pycon")
            in_doctest = True
        out.append(line)
    if in_doctest:
        out.append(indent + "```")
    return "\n".join(out)


class RuntimeDocstrings(griffe.Extension):
    """Docstrings of ``stonefield._core`` objects from the compiled module; doctests fenced."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if "._core" in obj.path and obj.docstring is None:
            doc = getattr(_runtime(obj.path), "__doc__", None)
            if isinstance(doc, str) and doc.strip() and not doc.startswith(("int(", "str(")):
                obj.docstring = griffe.Docstring(doc, parent=obj)
        if obj.docstring is not None:
            obj.docstring.value = _ROLE.sub(r"`\1`", fence_doctests(obj.docstring.value))
