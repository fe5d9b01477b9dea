"""The shape of a :class:`~stonefield.lab.Lab` that the report and the briefs read, named by a
Protocol so that neither imports the module that imports them."""

from __future__ import annotations

from typing import Any, Protocol

from .._core import Facts
from . import metrics as M
from .run import Plan


class LabView(Protocol):
    """What the report reads of a :class:`~stonefield.lab.Lab` (named by its shape, so that the
    report does not import the module that imports it)."""

    plan: Plan
    entries: list[dict[str, Any]]
    brief: Any  # a Brief or None (typed loosely: brief.py types its answers by this view)

    def agents_label(self) -> str: ...

    def skill_label(self) -> str: ...

    def default_variant(self) -> int | None: ...

    def columns(self, variant: int) -> dict[str, Any]: ...

    def facts(self, variant: int) -> Facts: ...

    def metrics(self) -> list[dict[str, M.Metric]]: ...
