"""The one check of an action id given from Python: a Python or numpy integer, never a bool, a
float or a string. ``State.apply`` checks the same in Rust; the adapters, ``sf.match`` and the
lab check here before they use a value as an action."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np
import numpy.typing as npt


def is_action_id(value: Any) -> bool:
    """Whether ``value`` is an integer that may name an action (in range or not)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def action_id(value: Any, what: str = "an action") -> int:
    """``value`` as an int; a TypeError naming it for anything but an integer."""
    if not is_action_id(value):
        raise TypeError(f"{what} must be an integer, got {type(value).__name__} {value!r}")
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
