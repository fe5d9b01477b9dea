"""The one seed derivation of "game i, seat j", shared by native runs and Python-driven games.

Native runs (``sf.match`` with native agents, the lab) derive each seat's seed in Rust
(``_core.seat_seed``); games driven from Python seat their agents with the same seeds, so an MCTS
agent plays the same moves for the same (seed, game, seat) whether its opponent is native or a
Python object.
"""

from __future__ import annotations

from typing import Any

from . import _core
from .agents import agent_kind

__all__ = ["reseeded", "seat_seed", "seated"]


def seat_seed(seed: int, game_index: int, seat: int, agent_seed: int = 0) -> int:
    """The seed an agent with ``agent_seed`` plays with in ``seat`` of game ``game_index``.

    >>> seat_seed(7, 3, 1) == seat_seed(7, 3, 1) != seat_seed(7, 3, 0)
    True
    """
    return int(_core.seat_seed(seed, game_index, seat, agent_seed))


def seated(agent: Any, seed: int, game_index: int, seat: int) -> Any:
    """The agent that plays ``seat`` of game ``game_index`` of a run with ``seed``: a native
    agent of any kind (MCTS, PUCT, random) rebuilt with its seat's seed (:func:`seat_seed` of
    its own seed), as native runs seat it; a Python agent with ``reset`` is told its seat's
    seed; any other agent as it is.

    >>> import stonefield as sf
    >>> seated(sf.PUCT(simulations=5, seed=2), 1, 0, 1).seed == seat_seed(1, 0, 1, 2)
    True
    """
    if agent_kind(agent) is not None:
        return agent.with_seed(seat_seed(seed, game_index, seat, agent.seed))
    reset = getattr(agent, "reset", None)
    if callable(reset):
        reset(seed=seat_seed(seed, game_index, seat))
    return agent


def reseeded(agent: Any, seed: int) -> Any:
    """``agent`` told a seed it was handed (by a wrapper agent's ``reset``, say): a native
    agent of any kind rebuilt with its own seed mixed with ``seed``; a Python agent with
    ``reset`` is told ``seed``. A seed already derived for a seat is passed on this way, not
    derived again."""
    if agent_kind(agent) is not None:
        return agent.with_seed((agent.seed ^ seed) & (2**64 - 1))
    reset = getattr(agent, "reset", None)
    if callable(reset):
        reset(seed=seed)
    return agent
