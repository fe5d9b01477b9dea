"""The lab's per-game columns, as the core lists them (``src/lab/columns.rs`` owns the list).

Nothing in Python restates the columns: the results file, the decoding of its chunks, the
gathering of a variant's games and the sums all read :func:`columns_of`.

>>> import stonefield as sf
>>> cols = columns_of(sf.make("subsume"))
>>> [(c.name, c.dtype, c.width) for c in cols][:2]
[('length', 'uint32', 1), ('turns', 'uint32', 1)]
>>> [c.name for c in cols if c.declared and c.width == 1]  # doctest: +NORMALIZE_WHITESPACE
['groups_final', 'groups_final_0', 'groups_final_1', 'largest_group_share',
 'largest_group_share_0', 'largest_group_share_1']
>>> [(c.name, c.width) for c in cols if c.declared][-1]
('largest_group_share_1_series', 10)

Each declared column comes with its **series** (``<name>_series``, float64, games × 10): the
same fact at the end of each tenth of the game, the last tenth ending the game (so its last
entry is the declared column itself). Definitions: ``src/lab/mod.rs``.
"""

from __future__ import annotations

from typing import NamedTuple

from .. import _core
from .._core import Game


class Column(NamedTuple):
    """One per-game column of a lab run.

    Attributes:
        name: Its name (the key of :meth:`Lab.columns <stonefield.lab.Lab.columns>` and of the
            results file's ``stats``).
        dtype: Its numpy element type.
        width: Entries per game: 1 for a one-dimensional column, else games × width.
        description: What it holds.
        declared: Whether the game declares it (its final-shape facts, each averaged into a
            metric of the same name, and their series, each averaged tenth by tenth into ten
            metrics) rather than the lab; older results files may lack it.
        low: The least value a declared column can hold (its metric's interval stays above
            it); ``-inf`` for the lab's own columns.
        high: The greatest (``inf`` for the lab's own columns).
    """

    name: str
    dtype: str
    width: int
    description: str
    declared: bool
    low: float
    high: float


def columns_of(game: Game) -> tuple[Column, ...]:
    """Every column of a lab run of ``game``: the lab's own, then those the game declares."""
    return tuple(Column(*c) for c in _core.lab_schema(game))


def declared_columns(game: Game) -> tuple[Column, ...]:
    """The columns ``game`` declares, then their series."""
    return tuple(c for c in columns_of(game) if c.declared)


def declared_series(game: Game) -> tuple[Column, ...]:
    """The series of the columns ``game`` declares (width 10: one entry per tenth)."""
    return tuple(c for c in columns_of(game) if c.declared and c.width > 1)
