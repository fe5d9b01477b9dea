"""The one check of an action id given from Python: a Python or numpy integer, or a 0-d integer
array (what SB3's ``model.predict`` returns and Gymnasium's ``Discrete.contains`` accepts), never a
bool, a float, a string or an array of one or more dimensions. ``State.apply`` checks the same in
Rust; the adapters, ``sf.match`` and the lab check here before they use a value as an action."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np
import numpy.typing as npt


def is_action_id(value: Any) -> bool:
    """Whether ``value`` is an integer that may name an action (in range or not).

    >>> [is_action_id(v) for v in (3, np.int32(3), np.array(3), np.array([3]), 3.0, True)]
    [True, True, True, False, False, False]
    """
    if isinstance(value, np.ndarray):
        return value.shape == () and value.dtype.kind in "iu"
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def action_id(value: Any, what: str = "an action") -> int:
    """``value`` as an int; a TypeError naming it for anything but an integer.

    Python's ``bool`` is refused although ``Discrete.contains`` takes it (``bool`` subclasses
    ``int``), as ``State.apply`` refuses it: no RL library hands one back as an action.

    >>> action_id(np.array(9)), action_id(np.int64(9))
    (9, 9)
    >>> action_id(np.array([9]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: an action must be an integer (...), got ndarray array([9])
    """
    if not is_action_id(value):
        raise TypeError(
            f"{what} must be an integer (a Python or numpy integer, or a 0-d integer array),"
            f" got {type(value).__name__} {value!r}"
        )
    return int(value)


def action_ids(values: Any, count: int, what: str = "actions") -> npt.NDArray[np.int64]:
    """``values`` as ``count`` action ids (int64): a sequence or array of integers, never of
    floats or bools; a TypeError or ValueError naming what was given otherwise."""
    arr = np.asarray(values)
    if arr.dtype.kind not in "iu":
        if arr.dtype == object and all(is_action_id(v) for v in arr.ravel()):
            arr = arr.astype(np.int64)
        else:
            raise TypeError(f"{what} must be integers, got an array of {arr.dtype}")
    if arr.shape != (count,):
        raise ValueError(f"{what} must hold {count} action(s), one per env, got shape {arr.shape}")
    return arr.astype(np.int64, copy=False)
