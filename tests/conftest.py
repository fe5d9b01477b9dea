"""Hypothesis profiles for the property tests, chosen by the STONEFIELD_HYPOTHESIS environment
variable: "ci" (the default: a modest number of examples, a few seconds per test) or "long" (for
a search before a release, minutes per test):

    STONEFIELD_HYPOTHESIS=long pytest tests/test_properties.py tests/test_stateful.py
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_COMMON = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("ci", max_examples=100, stateful_step_count=30, **_COMMON)
settings.register_profile("long", max_examples=5000, stateful_step_count=120, **_COMMON)
settings.load_profile(os.environ.get("STONEFIELD_HYPOTHESIS", "ci"))
