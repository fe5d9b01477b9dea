"""The expert agents: PUCT guided by the network shipped in the package for each game.

``stonefield/networks/<game>.npz`` holds one trained graph network per game (see
``networks/README.md`` for the run that made each one). A graph network plays every board of
its game with the players, rules and kinds of actions it was trained with
(:meth:`~stonefield._checkpoint.CheckpointNetwork.plays` says which), so the expert of a game
plays its default board and the other sizes alike.
:func:`expert` (``sf.expert``) and the agent string ``expert`` (``expert:simulations=200,seed=1``)
give a :class:`stonefield.PUCT` search whose evaluator is an :class:`ExpertEvaluator`: that is
how an agent is known to be the expert (:func:`is_expert`), so that it is written back as
``expert:...`` and not as a checkpoint path inside the installed package.

>>> import stonefield as sf
>>> game = sf.make("subsume", size=3)
>>> agent = sf.expert(game, simulations=20)
>>> bool(game.new_state().is_legal(agent.act(game.new_state())))
True
>>> from stonefield.agents import agent_string, parse_agent
>>> agent_string(agent), agent_string(parse_agent("expert:seed=2"))
('expert:simulations=20', 'expert:seed=2')
"""

from __future__ import annotations

import functools
import os
import threading
from typing import Any

import numpy as np
import numpy.typing as npt

from ._checkpoint import CheckpointNetwork, describe_game, read_checkpoint
from ._core import PUCT, Game, InvalidOptionError, games

__all__ = [
    "DEFAULT_SIMULATIONS",
    "EXPERT_SETTINGS",
    "ExpertEvaluator",
    "expert",
    "expert_games",
    "expert_string",
    "is_expert",
    "network_path",
    "plays",
    "trained_on",
]

#: The folder of the shipped networks, one ``<game>.npz`` per game.
NETWORKS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "networks")
#: Simulations a move when neither ``time`` nor ``simulations`` is given.
DEFAULT_SIMULATIONS = 400
#: The settings of ``sf.expert`` and of the agent string ``expert``: PUCT's own. ``time``,
#: ``simulations``, ``threads`` and ``seed`` are the ones a player sets; the others are there
#: so that every PUCT agent built on the expert's network is written back as ``expert:...``.
EXPERT_SETTINGS = (
    "time",
    "simulations",
    "threads",
    "seed",
    "c",
    "dirichlet_alpha",
    "dirichlet_fraction",
    "batch_size",
    "max_nodes",
)
#: The expert searches without root noise unless asked (it plays; it does not explore).
_NOISE = 0.0


def expert_games() -> list[str]:
    """The games that ship an expert network, in the order of :func:`stonefield.games`.

    >>> expert_games()
    ['smallholder', 'windflowers', 'faraday', 'subsume']
    """
    return [g for g in games() if os.path.isfile(os.path.join(NETWORKS, f"{g}.npz"))]


def network_path(name: str) -> str:
    """The path of the network shipped for the game ``name``.

    Raises:
        InvalidOptionError: ``name`` is not a game, or no network ships for it (the message
            names the games that have one).
    """
    if name not in games():
        raise InvalidOptionError(
            f"unknown game {name!r}; games: {', '.join(games())} (experts ship for"
            f" {', '.join(expert_games()) or 'none'})"
        )
    path = os.path.join(NETWORKS, f"{name}.npz")
    if not os.path.isfile(path):
        raise InvalidOptionError(
            f"no expert network ships for {name}; the games that have one:"
            f" {', '.join(expert_games()) or 'none'}"
        )
    return path


@functools.cache
def _shipped(name: str) -> CheckpointNetwork:
    """The shipped network of ``name``, read once per process (its weights are shared)."""
    return read_checkpoint(network_path(name))


def _network(name: str) -> CheckpointNetwork:
    """A network of its own (its own boards) with the shared weights of ``name``'s network."""
    base = _shipped(name)
    return CheckpointNetwork(
        base.game, base.hidden, base.layers, base.weights, base.path, base.architecture
    )


def plays(game: Game) -> str | None:
    """None when the expert plays ``game``, else why not (no network ships for the game, or
    the network cannot play this board).

    >>> import stonefield as sf
    >>> plays(sf.make("subsume", size=5)) is None
    True
    """
    try:
        network_path(game.name)
    except InvalidOptionError as e:
        return str(e)
    net = _shipped(game.name)
    why = net.plays(game)
    if why is None:
        return None
    return (
        f"the expert network of {game.name} (trained on {describe_game(net.game)}) cannot play"
        f" {describe_game(game)}: {why}"
    )


def trained_on(game: Game) -> bool:
    """Whether ``game`` is the board and options the shipped network of its game was trained
    on (where its strength is measured).

    >>> import stonefield as sf
    >>> trained_on(sf.make("faraday")), trained_on(sf.make("faraday", order=4))
    (True, False)
    """
    try:
        network_path(game.name)
    except InvalidOptionError:
        return False
    return bool(_shipped(game.name).game == game)


class ExpertEvaluator:
    """The evaluator of an expert agent: for each board it is asked to search (the search calls
    :meth:`check_game` first), the shipped network of that board's game.

    ``game`` restricts it to one game (what ``sf.expert(game)`` asked for); None (the agent
    string ``expert``) plays every game that ships a network. Boards are told apart by their
    observation's shape and number of actions; of two boards of one game alike in those but
    laid out differently, the one searched last is played, so one expert agent should not
    search both from two threads at the same moment (make one agent each).
    """

    def __init__(self, game: str | None = None) -> None:
        if game is not None:
            network_path(game)
        #: The game it is restricted to (None: any game that ships a network).
        self.game = game
        self._held: dict[tuple[int, int, int], CheckpointNetwork] = {}
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return "ExpertEvaluator()" if self.game is None else f"ExpertEvaluator({self.game!r})"

    def check_game(self, game: Game) -> None:
        """Raises :class:`~stonefield.InvalidOptionError` unless the expert plays ``game``
        (naming the games that ship a network, or the board the network was trained on)."""
        if self.game is not None and game.name != self.game:
            raise InvalidOptionError(
                f"this expert plays {self.game}, not {game.name} (sf.expert({game.name!r}) plays"
                " that)"
            )
        why = plays(game)
        if why is not None:
            raise InvalidOptionError(why)
        planes, sites = game.observation_shape
        key = (planes, sites, game.num_actions)
        with self._lock:
            held = self._held.get(key)
            if held is None or held.game != game:
                # A network of its own for each board: a graph network binds to the first
                # board of each size it is asked to play.
                net = _network(game.name)
                net.check_game(game)
                self._held[key] = net

    def native_network(self) -> CheckpointNetwork | None:
        """The network PUCT plays natively (in Rust, without Python; ``threads`` then work):
        the shipped network of the game this expert is restricted to; None for the expert of
        every game (the agent string ``expert``), which picks its network by the board it is
        given and plays it in numpy."""
        return None if self.game is None else _shipped(self.game)

    def evaluate(
        self, observations: npt.NDArray[np.float32], legal_mask: npt.NDArray[np.bool_]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """Priors float32 (B, num_actions) and values float32 (B, players) of the network of
        the board these observations are of."""
        shape: tuple[int, ...] = tuple(getattr(observations, "shape", ()))
        mask: tuple[int, ...] = tuple(getattr(legal_mask, "shape", ()))
        key = (
            (int(shape[1]), int(shape[2]), int(mask[1]))
            if len(shape) == 3 and len(mask) == 2
            else None
        )
        net = self._held.get(key) if key is not None else None
        if net is None:
            raise InvalidOptionError(
                f"the expert has not been given a board of observations {shape} and masks"
                f" {mask}: call check_game(game) first (a search does)"
            )
        return net.evaluate(observations, legal_mask)

    __call__ = evaluate


def is_expert(agent: object) -> bool:
    """Whether ``agent`` is an expert agent (a PUCT search guided by an
    :class:`ExpertEvaluator`).

    >>> import stonefield as sf
    >>> is_expert(sf.expert("subsume")), is_expert(sf.PUCT(simulations=10))
    (True, False)
    """
    return isinstance(agent, PUCT) and isinstance(agent.evaluator, ExpertEvaluator)


def build(game: str | None, settings: dict[str, Any]) -> Any:
    """The expert PUCT of ``game`` (None: any game) with ``settings`` (see :func:`expert`)."""
    unknown = sorted(set(settings) - set(EXPERT_SETTINGS))
    if unknown:
        raise InvalidOptionError(
            f"unknown expert setting {unknown[0]!r}; the expert takes {', '.join(EXPERT_SETTINGS)}"
        )
    given = {k: v for k, v in settings.items() if v is not None}
    if "time" not in given and "simulations" not in given:
        given["simulations"] = DEFAULT_SIMULATIONS
    given.setdefault("dirichlet_fraction", _NOISE)
    if game is None and int(given.get("threads", 1)) > 1:
        raise InvalidOptionError(
            "the expert of every game (the agent string expert) searches on one thread; for"
            " threads, name the game: sf.expert(game, threads=N)"
        )
    try:
        return PUCT(ExpertEvaluator(game), **given)
    except TypeError as e:
        if "keyword" not in str(e):
            raise
        # A PUCT of a stonefield without that setting (time and threads came later).
        raise InvalidOptionError(f"this stonefield's PUCT does not take it: {e}") from None


def expert(game: Game | str, **settings: Any) -> Any:
    """The expert agent of ``game``: a :class:`stonefield.PUCT` search guided by the network
    shipped for the game, without root noise.

    Args:
        game: a :class:`~stonefield.Game` (its board is checked now) or a game's name; the
            network plays every board of its game with the planes, players and kinds of
            actions it was trained with.
        **settings: PUCT's: ``time`` (seconds a move), ``simulations`` (default 400 when
            neither is given), ``threads``, ``seed``; also ``c``, ``dirichlet_alpha``,
            ``dirichlet_fraction`` (default 0), ``batch_size``, ``max_nodes``.

    Returns:
        A :class:`stonefield.PUCT`; its agent string is ``expert:...``.

    Raises:
        InvalidOptionError: no network ships for the game, the network cannot play this
            board, or a setting is unknown or out of range (the message names what exists).

    >>> import stonefield as sf
    >>> sf.expert("subsume", simulations=50, seed=1).simulations
    50
    >>> sf.expert("go")
    Traceback (most recent call last):
    ...
    stonefield.InvalidOptionError: unknown game 'go'; games: smallholder, windflowers, faraday, subsume (experts ship for smallholder, windflowers, faraday, subsume)
    """  # noqa: E501
    if isinstance(game, Game):
        name = game.name
    elif isinstance(game, str):
        name = game.strip().lower()
    else:
        raise TypeError(f"game is a Game or a game's name, got {type(game).__name__}")
    agent = build(name, settings)
    if isinstance(game, Game):
        agent.evaluator.check_game(game)
    return agent


def expert_string(agent: object) -> str | None:
    """The agent string of an expert agent (``expert`` and the settings that differ from an
    expert's defaults), None for any other agent.

    >>> import stonefield as sf
    >>> expert_string(sf.expert("faraday", simulations=100, seed=3))
    'expert:simulations=100,seed=3'
    >>> expert_string(sf.PUCT(simulations=10)) is None
    True
    """
    if not is_expert(agent):
        return None
    time = getattr(agent, "time", None)
    default = build(None, {} if time is None else {"time": time})
    parts = []
    for key in EXPERT_SETTINGS:
        fallback = {"time": None, "threads": 1}.get(key)
        value = getattr(agent, key, fallback)
        if key == "time" and value is not None:
            parts.append(f"time={value}")
        elif value != getattr(default, key, fallback):
            parts.append(f"{key}={'none' if value is None else value}")
    return "expert" + (":" + ",".join(parts) if parts else "")
