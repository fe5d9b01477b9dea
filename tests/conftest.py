"""Hypothesis profiles for the property tests, chosen by the STONEFIELD_HYPOTHESIS environment
variable: "ci" (the default: a modest number of examples, a few seconds per test) or "long" (for
a search before a release, minutes per test):

    STONEFIELD_HYPOTHESIS=long pytest tests/core/test_properties.py tests/core/test_stateful.py
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

import stonefield as sf

_COMMON = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("ci", max_examples=100, stateful_step_count=30, **_COMMON)
settings.register_profile("long", max_examples=5000, stateful_step_count=120, **_COMMON)
settings.load_profile(os.environ.get("STONEFIELD_HYPOTHESIS", "ci"))


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
