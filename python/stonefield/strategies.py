"""Fixed-strategy and restricted agents, for counterfactual questions.

* :class:`MirrorAgent` answers each move with its image under the board's point reflection
  (through the centre), where that is legal, and otherwise lets a fallback agent move. It is
  refused on boards that no point reflection maps onto themselves, sites and every relation.
  It asks whether a second player who copies the first through the centre holds its own, as
  Windflowers' designer implies with "the first player is obligated to break mirror play".
* :class:`RestrictedAgent` plays as its inner agent but never takes the forbidden move classes
  (for example never pass, never swap) while anything else is legal: "what if this option of
  the rules were never used?".

Both are Python agents (``act(state)``): matches and the lab play them on the calling thread.

>>> import stonefield as sf
>>> game = sf.make("windflowers", grid="square", size=3)
>>> mirror = MirrorAgent(sf.RandomAgent(seed=1))
>>> state = game.new_state()
>>> state.apply(0)
>>> mirror.act(state)  # the corner opposite site 0
15
>>> sorted(move_classes(sf.make("faraday")))
['accept', 'pass', 'swap']
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

from ._core import Game, InvalidOptionError, State
from ._seeds import reseeded
from .agents import agent_kind, agent_string

__all__ = ["MirrorAgent", "RestrictedAgent", "mirror_map", "move_classes"]

#: The relations a reflection must keep.
_RELATIONS = ("orthogonal", "diagonal")


def mirror_map(game: Game) -> npt.NDArray[np.int64] | None:
    """The point reflection of the board through its centre, as an array of sites (σ[s] is
    the image of s), or None when it does not map the sites and both relations onto
    themselves.

    >>> import stonefield as sf
    >>> sigma = mirror_map(sf.make("subsume", size=3))
    >>> sigma[[0, 9, 18]].tolist()
    [18, 9, 0]
    >>> mirror_map(sf.make("windflowers", grid="hex", size=4)) is None  # alternating hexagon
    True
    """
    coords = np.asarray(game.coords, dtype=np.float64)
    centre = coords.mean(axis=0)
    image = 2 * centre - coords
    n = len(coords)
    scale = max(1.0, float(np.abs(coords).max()))
    sigma = np.full(n, -1, dtype=np.int64)
    for s in range(n):
        d = np.abs(coords - image[s]).max(axis=1)
        t = int(np.argmin(d))
        if d[t] > 1e-6 * scale:
            return None
        sigma[s] = t
    if not np.array_equal(sigma[sigma], np.arange(n)):
        return None
    for relation in _RELATIONS:
        nb = game.neighbors(relation)
        for s in range(n):
            if sorted(sigma[np.asarray(nb[s], dtype=np.int64)].tolist()) != sorted(
                np.asarray(nb[sigma[s]], dtype=np.int64).tolist()
            ):
                return None
    return sigma


def _mirrored_action(game: Game, sigma: npt.NDArray[np.int64], action: int) -> int:
    """The image of an action: a site action's site reflected (Faraday's offer stones of either
    colour too), any other action (pass, accept, swap) itself."""
    site = game.action_site(action)
    if site is None:
        return action
    # The action of the same kind at the mirrored site (site actions are numbered by site).
    return action - site + int(sigma[site])


def _seeded(agent: Any, seed: int) -> Any:
    """``agent`` for one game with ``seed`` (native agents get a fresh seed; a Python agent
    with ``reset`` is told it)."""
    return reseeded(agent, seed)


class MirrorAgent:
    """Answers every move with its mirror image through the board's centre when that is legal,
    else lets ``fallback`` move.

    Args:
        fallback: The agent for the moves the mirror cannot copy (the first move, a move whose
            image is taken or illegal, the centre site): any agent with ``act``.

    Raises (at the first ``act`` on a game): :class:`stonefield.InvalidOptionError` on a board
    that no point reflection maps onto itself, naming the boards it accepts.
    """

    def __init__(self, fallback: Any) -> None:
        if not callable(getattr(fallback, "act", None)):
            raise InvalidOptionError(
                f"MirrorAgent needs a fallback agent with act(state), got {type(fallback).__name__}"
            )
        self.fallback = fallback
        #: The agent's name in tables and results files, with its fallback's.
        self.name = f"mirror({agent_string(fallback)})"
        self._current = fallback
        self._maps: dict[tuple[str, tuple[tuple[str, Any], ...]], npt.NDArray[np.int64]] = {}
        self.mirrored = 0
        self.fell_back = 0

    def reset(self, seed: int = 0) -> None:
        """Starts a game: the fallback gets ``seed``."""
        self._current = _seeded(self.fallback, seed)

    def _sigma(self, game: Game) -> npt.NDArray[np.int64]:
        key = (game.name, tuple(sorted(game.options.items())))
        sigma = self._maps.get(key)
        if sigma is None:
            sigma = mirror_map(game)
            if sigma is None:
                raise InvalidOptionError(
                    f"MirrorAgent: no point reflection maps the board of {game.name} "
                    f"{game.options} onto itself (sites and relations); it plays on boards "
                    "symmetric through their centre: the regular hexagons (Subsume, Faraday hex "
                    "and hex_omni, Smallholder hexN), the square boards and the triangle-square "
                    "boards, not the alternating hexagons (Windflowers hex, Faraday hex_limping, "
                    "Smallholder hexABABAB); see mirror_map"
                )
            self._maps[key] = sigma
        return sigma

    def act(self, state: State) -> int:
        """The image of the last action if it is legal now, else the fallback's move."""
        game = state.game
        sigma = self._sigma(game)
        history = state.history
        if history:
            image = _mirrored_action(game, sigma, int(history[-1]))
            if state.legal_mask()[image]:
                self.mirrored += 1
                return image
        self.fell_back += 1
        return int(self._current.act(state))


def move_classes(game: Game) -> dict[str, list[int]]:
    """The named classes of moves a game's options give, as their action ids: Windflowers'
    ``pass``; Faraday's offer ``pass``, ``accept`` and ``swap``. Other games have none.

    >>> import stonefield as sf
    >>> move_classes(sf.make("windflowers", size=3))
    {'pass': [14]}
    """
    classes: dict[str, list[int]] = {}
    for a in range(game.num_actions):
        if game.action_site(a) is None:
            classes.setdefault(game.action_name(a), []).append(a)
    return classes


class RestrictedAgent:
    """Plays as ``agent`` but never takes the forbidden moves while another move is legal.

    Args:
        agent: The inner agent. An :class:`stonefield.MCTS` or :class:`stonefield.PUCT`
            searches as usual and plays its most visited allowed move (its tree still
            considers forbidden moves for both sides); a :class:`stonefield.RandomAgent` draws
            uniformly among the allowed moves;
            any other agent is asked and, when it picks a forbidden move, one allowed move is
            drawn uniformly instead.
        forbid: Move class names of :func:`move_classes` (``"pass"``, ``"swap"``, …) or
            action ids.

    Raises:
        InvalidOptionError: an unknown class name (at the first ``act``, when the game is
            known: the message names the game's classes).

    >>> import stonefield as sf
    >>> never_pass = RestrictedAgent(sf.RandomAgent(seed=2), forbid=["pass"])
    >>> state = sf.make("windflowers", size=3).new_state()
    >>> never_pass.act(state) != state.game.num_sites
    True
    """

    def __init__(self, agent: Any, forbid: Iterable[str | int]) -> None:
        if not callable(getattr(agent, "act", None)):
            raise InvalidOptionError(
                f"RestrictedAgent needs an agent with act(state), got {type(agent).__name__}"
            )
        self.agent = agent
        self.forbid = tuple(forbid)
        if not self.forbid:
            raise InvalidOptionError("RestrictedAgent: forbid at least one move class or action")
        self._current = agent
        self._rng = random.Random(0)
        self.name = (
            "restricted(" + ",".join(str(f) for f in self.forbid) + f";{agent_string(agent)})"
        )

    def reset(self, seed: int = 0) -> None:
        """Starts a game with ``seed``."""
        self._current = _seeded(self.agent, seed)
        self._rng = random.Random(seed)

    def forbidden(self, game: Game) -> set[int]:
        """The action ids forbidden in ``game``."""
        classes = move_classes(game)
        out: set[int] = set()
        for f in self.forbid:
            if isinstance(f, str):
                if f not in classes:
                    known = ", ".join(classes) or "none"
                    raise InvalidOptionError(
                        f"RestrictedAgent: {game.name} has no move class {f!r}; classes: {known}"
                    )
                out.update(classes[f])
            else:
                out.add(int(f))
        return out

    def act(self, state: State) -> int:
        """An allowed move (a forbidden one only when nothing else is legal)."""
        legal = [int(a) for a in state.legal_actions()]
        banned = self.forbidden(state.game)
        allowed = [a for a in legal if a not in banned]
        if not allowed:
            return int(self._current.act(state))
        inner = self._current
        kind = agent_kind(inner)
        if kind in ("mcts", "puct"):
            result = inner.analyse(state)
            visits = {int(a): int(v) for a, v in zip(result.actions, result.visits)}
            return max(allowed, key=lambda a: (visits.get(a, -1), -a))
        if kind == "random":
            return allowed[self._rng.randrange(len(allowed))]
        choice = int(inner.act(state))
        if choice in banned:
            return allowed[self._rng.randrange(len(allowed))]
        return choice
