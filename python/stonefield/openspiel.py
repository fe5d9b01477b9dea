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
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from ._core import Game, InvalidOptionError, State, games, make
from .text import board_text

__all__ = ["GAME_PREFIX", "register"]

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
