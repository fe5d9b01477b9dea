"""Hypothesis profiles for the property tests, chosen by the STONEFIELD_HYPOTHESIS environment
variable: "ci" (the default: a modest number of examples, a few seconds per test) or "long" (for
a search before a release, minutes per test):

    STONEFIELD_HYPOTHESIS=long pytest tests/core/test_properties.py tests/core/test_stateful.py

The tests' tiers are set here too (`pytest_collection_modifyitems`): each test that uses a heavy
part (a browser, Ray, JAX) gets that part's marker, and every test that is neither marked
``slow`` nor uses a heavy part is marked ``quick``:

    pytest -m quick          # the quick tier, the loop to run while working
    pytest                   # everything
"""

from __future__ import annotations

import inspect
import os
import signal
import types
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

import stonefield as sf

_COMMON = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("ci", max_examples=100, stateful_step_count=30, **_COMMON)
settings.register_profile("long", max_examples=5000, stateful_step_count=120, **_COMMON)
settings.load_profile(os.environ.get("STONEFIELD_HYPOTHESIS", "ci"))

#: The heavy parts of the suite: each part's marker, what a test marked with it does, and the
#: modules whose use gives it away. A test uses a part when its file (for a doctest, the module)
#: imports one of those modules at the top, when a fixture it requests (or one of theirs)
#: imports one, or when it lives in a folder named after the part (``tests/ray/``). New tests
#: are marked by the same rules, with nothing to remember.
HEAVY: dict[str, tuple[str, tuple[str, ...]]] = {
    "browser": ("drives a real headless Chromium through Selenium", ("selenium",)),
    "ray": ("starts a Ray instance or cluster", ("ray",)),
    "jax": (
        "imports JAX: the AlphaZero loop (stonefield.alphazero), its networks and training runs",
        ("jax", "optax", "equinox", "stonefield.alphazero"),
    ),
}
#: The markers that keep a test out of the quick tier: ``slow`` is set by hand (in the test's
#: file), the heavy parts here.
NOT_QUICK = ("slow", *HEAVY)
TESTS = Path(__file__).resolve().parent


def pytest_configure(config: pytest.Config) -> None:
    for name, (what, _) in HEAVY.items():
        config.addinivalue_line("markers", f"{name}: {what} (set by tests/conftest.py)")
    config.addinivalue_line(
        "markers",
        "quick: the quick tier, every test not marked "
        + ", ".join(NOT_QUICK)
        + " (set by tests/conftest.py; run it with pytest -m quick)",
    )


def _within(name: object, prefixes: tuple[str, ...]) -> bool:
    return isinstance(name, str) and any(name == p or name.startswith(p + ".") for p in prefixes)


def _imported(namespace: dict[str, Any]) -> Iterator[str]:
    """The modules a file's top-level names come from."""
    for value in namespace.values():
        if isinstance(value, types.ModuleType):
            yield value.__name__
        else:
            yield getattr(value, "__module__", None) or ""


def _fixture_names(item: pytest.Item) -> Iterator[str]:
    """The names that the fixtures a test requests import or look up (``import ray`` and
    ``pytest.importorskip("ray")`` alike)."""
    info = getattr(item, "_fixtureinfo", None)
    for defs in getattr(info, "name2fixturedefs", {}).values():
        for d in defs:
            code = getattr(d.func, "__code__", None)
            if code is not None:
                yield from code.co_names
                yield from (c for c in code.co_consts if isinstance(c, str))


def _uses(item: pytest.Item) -> list[str]:
    """The modules a test's file imports at the top; for a doctest, the name of its own module
    (a package's namespace also holds every submodule imported so far, wherever from)."""
    dtest = getattr(item, "dtest", None)
    if dtest is not None:
        return [str(dtest.globs.get("__name__", ""))]
    module = item.getparent(pytest.Module)
    return list(_imported(vars(module.obj))) if module is not None else []


def heavy_parts(item: pytest.Item) -> Iterable[str]:
    # Folders inside tests/ only: the checkout's own path may hold any name.
    folders = (
        set(item.path.parent.relative_to(TESTS).parts) if TESTS in item.path.parents else set()
    )
    namespace = _uses(item)
    fixtures = list(_fixture_names(item))
    for name, (_, modules) in HEAVY.items():
        if name in folders or any(_within(m, modules) for m in (*namespace, *fixtures)):
            yield name


def _sends_ctrl_c(item: pytest.Item) -> bool:
    """Whether a test's own code sends Ctrl-C (`interrupt_main`, or a SIGINT to this process or
    a child): a Ctrl-C test, which needs Python's SIGINT handler (see `_sigint_raises`), so it
    is a ``timing`` test whether or not it says so."""
    func = getattr(item, "function", None)
    try:
        source = inspect.getsource(func) if func is not None else ""
    except (OSError, TypeError):
        return False
    return "interrupt_main" in source or "signal.SIGINT)" in source


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        for name in heavy_parts(item):
            item.add_marker(name)
        if item.get_closest_marker("timing") is None and _sends_ctrl_c(item):
            item.add_marker("timing")
        if not any(item.get_closest_marker(name) for name in NOT_QUICK):
            item.add_marker("quick")


@pytest.fixture(autouse=True)
def _sigint_raises(request: pytest.FixtureRequest) -> Iterator[None]:
    """Tests marked ``timing`` (Ctrl-C among them) run with Python's own SIGINT handler.

    A process started with SIGINT ignored has none: Python keeps SIG_IGN, so SIGINT and
    `_thread.interrupt_main()` do nothing and a Ctrl-C test waits out its whole budget ("DID
    NOT RAISE KeyboardInterrupt"). Shells start background jobs that way (`pytest &` in a
    script, `nohup`), and so do some CI runners.
    """
    if request.node.get_closest_marker("timing") is None:
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.fixture
def forced_state() -> sf.State:
    """The first position of a seeded random Faraday game (order 4) where the mover has one
    legal action: a forced move."""
    game = sf.make("faraday", order=4)
    for seed in range(1000):
        rng = np.random.default_rng(seed)
        state = game.new_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            if len(legal) == 1:
                return state
            state.apply(int(rng.choice(legal)))
    raise AssertionError("no random game had a forced move")
