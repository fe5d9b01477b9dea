"""OpenSpiel games for every stonefield game (needs the `stonefield[openspiel]` extra).

`register()` makes each game loadable by name, `stonefield_<game>`, with the game's options as
OpenSpiel parameters:

>>> import pyspiel
>>> from stonefield import openspiel
>>> openspiel.register()
>>> game = pyspiel.load_game("stonefield_windflowers(players=3,size=3,grid=hex)")
>>> game.num_players(), game.num_distinct_actions(), game.observation_tensor_shape()
(3, 19, [5, 18])
>>> state = game.new_initial_state()
>>> state.apply_action(4)
>>> state.current_player(), len(state.observation_tensor(0))
(1, 90)
>>> restored = game.deserialize_state(state.serialize())
>>> restored.history()
[4]

The games are deterministic, sequential, perfect-information and zero-sum, with rewards at the
end only (`returns()`, in [−1, 1]); a game truncated at its `max_moves` returns 0 to everyone.
Observation tensors are `State.observation(player)` flattened ((planes, sites) in the `dict`
view); observation strings are the text board. Options whose default depends on other options
take a neutral default here meaning "as the game decides": 0 for `max_moves`, "" for the
Smallholder rule options that its `ruleset` sets.

OpenSpiel's Python MCTS (`open_spiel.python.algorithms.mcts.MCTSBot`) and `evaluate_bots` work
as with any game. The C++ `pyspiel.MCTSBot` works through `bot.mcts_search(state)`
(`.best_child().action` is its move), but its `step()` releases Python's lock while it calls back
into these Python-implemented games and crashes the interpreter (seen with open_spiel 2.0.2):
never call `pyspiel.MCTSBot.step` on them, nor hand that bot to `evaluate_bots`, which calls it.

`state.serialize()` is the actions played, one a line, and `game.deserialize_state` replays
such a string, checking every action; it also reads OpenSpiel's own form for Python games
(`history=`, `move_number=`, `__dict__=<pickle>`) from its history alone, never unpickling.
OpenSpiel's C++ `pyspiel.deserialize_game_and_state` (and `serialize_game_and_state`) keep
OpenSpiel's form and do unpickle the `__dict__` part, which can run any code: never give them
text that others made.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from ._core import Game, InvalidOptionError, RecordError, State, games, make
from .text import board_text

__all__ = ["GAME_PREFIX", "InformationStateError", "register"]

#: Prefix of the OpenSpiel short names: `stonefield_windflowers`, ….
GAME_PREFIX = "stonefield_"

# Options whose default follows from other options: the OpenSpiel parameter's default is the
# neutral value, which is left out when the game is made.
_DERIVED = {
    "smallholder": {"groups", "adjacent", "territory", "capture", "max_moves"},
    "windflowers": {"max_moves"},
}


def _neutral(value: Any) -> Any:
    if isinstance(value, bool):
        return value
    return 0 if isinstance(value, int) else ""


def _spec(name: str) -> dict[str, Any]:
    derived = _DERIVED.get(name, set())
    return {k: _neutral(v) if k in derived else v for k, v in make(name).options.items()}


def _game_type(name: str) -> pyspiel.GameType:
    players = make(name).options.get("players")
    max_players = 4 if players is not None else 2
    return pyspiel.GameType(
        short_name=GAME_PREFIX + name,
        long_name=f"stonefield {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_spec(name),
    )


class InformationStateError(NotImplementedError):
    """Raised by the information-state tensor methods, which these perfect-information games do
    not provide (OpenSpiel's default would be an empty list)."""


def _no_information_state(method: str) -> InformationStateError:
    return InformationStateError(
        f"{method}: stonefield games are perfect-information and provide no information-state"
        " tensor; use observation_tensor (the whole position, as State.observation) or"
        " information_state_string"
    )


class StonefieldGame(pyspiel.Game):  # type: ignore[misc]
    """A stonefield game for OpenSpiel; made by `pyspiel.load_game` once `register()` ran."""

    name: str

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        spec = _spec(self.name)
        unknown = sorted(set(given) - set(spec))
        if unknown:
            raise InvalidOptionError(
                f"{GAME_PREFIX}{self.name}: unknown parameter(s) {', '.join(unknown)}; "
                f"parameters: {', '.join(spec)}"
            )
        derived = _DERIVED.get(self.name, set())
        options = {k: v for k, v in given.items() if not (k in derived and v == spec[k])}
        self.sf_game = make(self.name, **options)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.sf_game.num_actions,
            max_chance_outcomes=0,
            num_players=self.sf_game.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.sf_game.max_game_length,
        )
        super().__init__(_game_type(self.name), info, given)

    def new_initial_state(self) -> StonefieldState:
        return StonefieldState(self)

    def information_state_tensor_shape(self) -> list[int]:
        """Raises :class:`InformationStateError` (no information-state tensor)."""
        raise _no_information_state("information_state_tensor_shape")

    def information_state_tensor_size(self) -> int:
        """Raises :class:`InformationStateError` (no information-state tensor)."""
        raise _no_information_state("information_state_tensor_size")

    def deserialize_state(self, text: str) -> StonefieldState:
        """The state of a :meth:`StonefieldState.serialize` string (its actions, one a line),
        replayed move by move: each action must be legal where it stands.

        OpenSpiel's own form for Python games (``history=...``, ``move_number=...``,
        ``__dict__=...``) is read too, from its history alone: the ``__dict__`` part is a
        pickle and is never loaded, so a string from anywhere cannot run code here. (OpenSpiel's
        C++ ``pyspiel.deserialize_game_and_state`` does unpickle it: never give that function
        text you did not make yourself.)

        Raises:
            RecordError: the text is neither form, or names a player out of turn.
            IllegalMoveError: an action that is not legal where it stands.
        """
        if not isinstance(text, str):
            raise RecordError(f"a serialized state is a str, got {type(text).__name__}")
        if len(text) > _MAX_SERIALIZED:
            raise RecordError("serialized state: longer than any game")
        if text.startswith("history="):
            actions = _openspiel_history(text)
        else:
            actions = [(None, _action_of(line)) for line in text.split("\n") if line != ""]
        state = self.new_initial_state()
        for k, (player, action) in enumerate(actions):
            if player is not None and player != state.current_player():
                raise RecordError(
                    f"serialized state: move {k} is by player {player}, but player"
                    f" {state.current_player()} is to move there"
                )
            if state.is_terminal():
                raise RecordError(f"serialized state: move {k} comes after the end of the game")
            state.apply_action(action)
        return state

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> Any:
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return BoardObserver(self.sf_game, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class StonefieldState(pyspiel.State):  # type: ignore[misc]
    """A position of a stonefield game for OpenSpiel; `sf_state` is the `sf.State` it wraps."""

    def __init__(self, game: StonefieldGame) -> None:
        super().__init__(game)
        self.sf_state: State = game.sf_game.new_state()

    def current_player(self) -> int:
        player = self.sf_state.current_player
        return int(pyspiel.PlayerId.TERMINAL) if player is None else player

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.sf_state.current_player:
            return []
        return [int(a) for a in self.sf_state.legal_actions()]

    def _apply_action(self, action: int) -> None:
        self.sf_state.apply(action)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """Raises :class:`InformationStateError` (no information-state tensor)."""
        raise _no_information_state("information_state_tensor")

    def serialize(self) -> str:
        """The actions played, one a line (as OpenSpiel's C++ games serialize): nothing but
        numbers, read back by :meth:`StonefieldGame.deserialize_state`, which replays them.

        (``pyspiel.serialize_game_and_state`` still writes OpenSpiel's own form, a pickle.)
        """
        return "".join(f"{a}\n" for a in self.sf_state.history)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.sf_state.game.action_name(action)

    def is_terminal(self) -> bool:
        return self.sf_state.is_terminal()

    def returns(self) -> list[float]:
        r = self.sf_state.returns()
        if r is None:
            return [0.0] * self.sf_state.game.num_players
        return [float(v) for v in r]

    def __str__(self) -> str:
        return board_text(self.sf_state)


#: The most characters of a serialized state read (a game is far shorter).
_MAX_SERIALIZED = 1 << 22


def _action_of(text: str) -> int:
    """One action id of a serialized state (decimal digits only)."""
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        raise RecordError(f"serialized state: {text[:40]!r} is not an action id")
    return int(text)


def _openspiel_history(text: str) -> list[tuple[int | None, int]]:
    """The (player, action) pairs of OpenSpiel's form for Python games, its move number
    checked; the ``__dict__`` line (a pickle) is never decoded."""
    lines = text.split("\n", 2)
    if len(lines) < 2 or not lines[1].startswith("move_number="):
        raise RecordError("serialized state: expected history=..., then move_number=...")
    history = lines[0].removeprefix("history=")
    pairs: list[tuple[int | None, int]] = []
    for item in history.split(",") if history else []:
        player, sep, action = item.partition(":")
        if not sep:
            raise RecordError(f"serialized state: {item[:40]!r} is not player:action")
        pairs.append((_action_of(player), _action_of(action)))
    if _action_of(lines[1].removeprefix("move_number=")) != len(pairs):
        raise RecordError("serialized state: move_number disagrees with the history")
    return pairs


class BoardObserver:
    """OpenSpiel's observer protocol over `State.observation(player)`."""

    def __init__(self, game: Game, params: Any) -> None:
        if params:
            raise ValueError(f"stonefield observers take no parameters; got {params}")
        shape = game.observation_shape
        self.tensor: npt.NDArray[np.float32] = np.zeros(shape[0] * shape[1], np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: StonefieldState, player: int) -> None:
        self.tensor[:] = state.sf_state.observation(player).ravel()

    def string_from(self, state: StonefieldState, player: int) -> str:
        return board_text(state.sf_state)


def _game_class(name: str) -> type[StonefieldGame]:
    cls_name = f"Stonefield{name.capitalize()}Game"
    cls = type(cls_name, (StonefieldGame,), {"name": name, "__module__": __name__})
    # Module attributes, so that games pickle by reference to their class.
    globals()[cls_name] = cls
    return cls


_GAME_CLASSES = {name: _game_class(name) for name in games()}


def register() -> None:
    """Registers every stonefield game with OpenSpiel (calling it again does nothing)."""
    registered = set(pyspiel.registered_names())
    for name in games():
        if GAME_PREFIX + name not in registered:
            pyspiel.register_game(_game_type(name), _GAME_CLASSES[name])
