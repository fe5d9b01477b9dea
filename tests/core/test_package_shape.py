"""The package's shape: no import cycles between its modules, and no module importing another
module's private names (shared helpers live in modules of their own: ``_args``, ``_seeds``)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "python" / "stonefield"


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    out["stonefield._core"] = PACKAGE / "_core.pyi"  # the extension module, by its stub
    return out


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base.pop()
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(modules: dict[str, Path]) -> dict[str, list[tuple[str, str | None]]]:
    """Per module: (imported module, name) pairs; name None for a whole-module import."""
    out: dict[str, list[tuple[str, str | None]]] = {}
    for name, path in modules.items():
        found: list[tuple[str, str | None]] = []
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found += [(a.name, None) for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                source = _resolve(name, path.name == "__init__.py", node)
                for a in node.names:
                    sub = f"{source}.{a.name}"
                    found.append((sub, None) if sub in modules else (source, a.name))
        out[name] = [(m, n) for m, n in found if m in modules and m != name]
    return out


def test_no_import_cycles() -> None:
    modules = _modules()
    graph = {m: {target for target, _ in deps} for m, deps in _imports(modules).items()}
    # A package imports its submodules' names; an edge from a submodule up to its own package
    # is a cycle like any other.
    cycles = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for t in sorted(graph.get(m, ())):
            if state.get(t) == 1:
                cycles.append(" -> ".join(stack[stack.index(t) :] + [t]))
            elif t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_no_private_names_across_modules() -> None:
    modules = _modules()
    bad = [
        f"{m} imports {name} from {source}"
        for m, deps in _imports(modules).items()
        for source, name in deps
        if name is not None and name.startswith("_") and not name.startswith("__")
    ]
    assert not bad, "private names imported across modules:\n" + "\n".join(bad)


def test_the_checks_see_the_package() -> None:
    modules = _modules()
    assert {
        "stonefield",
        "stonefield.lab",
        "stonefield.cli",
        "stonefield.cli._common",
        "stonefield._args",
        "stonefield._seeds",
    } <= set(modules)
    deps = _imports(modules)
    assert ("stonefield._seeds", "seated") in deps["stonefield.matches"]
