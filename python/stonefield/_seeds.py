"""The one seed derivation of "game i, seat j", shared by native runs and Python-driven games.

Native runs (``sf.match`` with native agents, the lab) derive each seat's seed in Rust
(``_core.seat_seed``); games driven from Python seat their agents with the same seeds, so an MCTS
agent plays the same moves for the same (seed, game, seat) whether its opponent is native or a
Python object.
"""

from __future__ import annotations

from typing import Any

from . import _core
from .agents import MCTS_SETTINGS

__all__ = ["MCTS_SETTINGS", "reseeded", "seat_seed", "seated"]


def seat_seed(seed: int, game_index: int, seat: int, agent_seed: int = 0) -> int:
    """The seed an agent with ``agent_seed`` plays with in ``seat`` of game ``game_index``.

    >>> seat_seed(7, 3, 1) == seat_seed(7, 3, 1) != seat_seed(7, 3, 0)
    True
    """
    return int(_core.seat_seed(seed, game_index, seat, agent_seed))


def seated(agent: Any, seed: int, game_index: int, seat: int) -> Any:
    """The agent that plays ``seat`` of game ``game_index`` of a run with ``seed``: a native
    agent rebuilt with its seat's seed (:func:`seat_seed` of its own seed); a Python agent with
    ``reset`` is told its seat's seed; any other agent as it is."""
    if isinstance(agent, _core.MCTS):
        settings = {k: getattr(agent, k) for k in MCTS_SETTINGS}
        settings["seed"] = seat_seed(seed, game_index, seat, agent.seed)
        return _core.MCTS(**settings)
    if isinstance(agent, _core.RandomAgent):
        return _core.RandomAgent(seed=seat_seed(seed, game_index, seat, agent.seed))
    reset = getattr(agent, "reset", None)
    if callable(reset):
        reset(seed=seat_seed(seed, game_index, seat))
    return agent


def reseeded(agent: Any, seed: int) -> Any:
    """``agent`` told a seed it was handed (by a wrapper agent's ``reset``, say): a native agent
    rebuilt with its own seed mixed with ``seed``; a Python agent with ``reset`` is told
    ``seed``. A seed already derived for a seat is passed on this way, not derived again."""
    mask = 2**64 - 1
    if isinstance(agent, _core.MCTS):
        settings = {k: getattr(agent, k) for k in MCTS_SETTINGS}
        settings["seed"] = (agent.seed ^ seed) & mask
        return _core.MCTS(**settings)
    if isinstance(agent, _core.RandomAgent):
        return _core.RandomAgent(seed=(agent.seed ^ seed) & mask)
    reset = getattr(agent, "reset", None)
    if callable(reset):
        reset(seed=seed)
    return agent
