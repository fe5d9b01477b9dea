"""Gymnasium environments for every stonefield game (needs the `stonefield[gymnasium]` extra).

Importing this module registers `stonefield/Smallholder-v0`, `stonefield/Windflowers-v0`,
`stonefield/Faraday-v0` and `stonefield/Subsume-v0` (also reachable without the import as
`gymnasium.make("stonefield.gymnasium:stonefield/Windflowers-v0")`). In each, the learner plays
one seat and an opponent agent plays every other seat:

- observations are float32 (planes, sites) seen from the learner's seat (`State.observation`),
  or one flat vector of planes × sites with `flatten=True` (what Stable-Baselines3's MLP
  policies and its `check_env` expect); actions are `Discrete(num_actions)`;
  `info["action_mask"]` is the int8 mask of the learner's legal actions (all zeros once the
  episode is over), and `env.action_masks()` the same as booleans: the protocol of
  sb3-contrib's `MaskablePPO`;
- the reward is 0 until the game ends, then the learner's `returns()` value (+1 win, −1 loss,
  0 draw in two-player games); reaching the game's `max_moves` truncates with reward 0;
- an illegal or out-of-range action ends the episode at once (`terminated`) with reward
  `illegal_reward` (−1 by default, a loss) and `info["illegal_action"] = True`, the position left
  as it was;
- the opponent is uniformly random by default (drawn from the environment's generator, so
  `reset(seed=...)` fixes the whole episode); any object with `act(state) -> int`, such as
  `sf.MCTS`, can play instead.

`SelfPlayVectorEnv` steps many games at once in Rust (`sf.VectorEnv`), every player's moves
chosen by the caller.

>>> import gymnasium
>>> import stonefield.gymnasium
>>> env = gymnasium.make("stonefield/Windflowers-v0", size=3, grid="hex")
>>> observation, info = env.reset(seed=0)
>>> observation.shape, info["action_mask"].dtype
((4, 18), dtype('int8'))
>>> done = False
>>> while not done:
...     action = env.action_space.sample(info["action_mask"])
...     observation, reward, terminated, truncated, info = env.step(action)
...     done = terminated or truncated
>>> reward in (-1.0, 0.0, 1.0)
True
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ._actions import action_id, action_ids
from ._core import Game, GameOverError, State, games
from ._core import VectorEnv as _NativeVectorEnv
from ._rl import RENDER_MODES, Agent, Rendered, check_render_mode, make_game, random_legal, render

__all__ = ["ENV_IDS", "SelfPlayVectorEnv", "StonefieldEnv", "register_envs"]

Obs = npt.NDArray[np.float32]

#: Registered environment id of each game.
ENV_IDS = {name: f"stonefield/{name.capitalize()}-v0" for name in games()}


class StonefieldEnv(gymnasium.Env[Obs, np.int64]):
    """One seat of a stonefield game against an opponent agent (see the module docstring).

    Args:
        game: a game id (`sf.games()`) or a `sf.Game`.
        seat: the learner's player number, or None for a seat drawn at each reset.
        opponent: the agent for the other seats (`act(state) -> int`); None for uniformly random
            moves from the environment's generator.
        illegal_reward: the reward of an illegal action, which ends the episode.
        render_mode: None, "human", "ansi", "rgb_array" or "svg" (as in `stonefield.pettingzoo`).
        flatten: observations as one float32 vector of planes × sites (the same numbers, in
            plane-major order) instead of a (planes, sites) array.
        **options: the game's options, as for `sf.make`.

    >>> env = StonefieldEnv("subsume", size=3, flatten=True)
    >>> observation, info = env.reset(seed=1)
    >>> observation.shape, env.observation_space.shape
    ((95,), (95,))
    >>> bool((env.action_masks() == info["action_mask"].astype(bool)).all())
    True
    """

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "render_fps": 1}

    def __init__(
        self,
        game: str | Game = "windflowers",
        *,
        seat: int | None = 0,
        opponent: Agent | None = None,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        flatten: bool = False,
        **options: Any,
    ) -> None:
        check_render_mode(render_mode)
        if not isinstance(flatten, bool):
            raise TypeError(f"flatten must be True or False, got {flatten!r}")
        self.game = make_game(game, options)
        n = self.game.num_players
        if seat is not None and not 0 <= seat < n:
            raise ValueError(
                f"seat {seat} out of range; seats are 0 to {n - 1} (or None for random)"
            )
        self.render_mode = render_mode
        self.flatten = flatten
        planes, sites = self.game.observation_shape
        shape = (planes * sites,) if flatten else (planes, sites)
        self.observation_space = gymnasium.spaces.Box(0.0, 1.0, shape=shape, dtype=np.float32)
        self.action_space = gymnasium.spaces.Discrete(self.game.num_actions)
        self.opponent = opponent
        self.illegal_reward = float(illegal_reward)
        self._seat_option = seat
        self.seat = seat if seat is not None else 0
        self.state: State = self.game.new_state()
        self._over = True

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        if self._seat_option is None:
            self.seat = int(self.np_random.integers(self.game.num_players))
        self.state = self.game.new_state()
        self._over = False
        self._play_opponents()
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        if self._over:
            raise GameOverError("the episode is over; call reset() to start another")
        a = action_id(action)
        if not 0 <= a < self.game.num_actions or not self.state.legal_mask()[a]:
            self._over = True
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), self.illegal_reward, True, False, info
        self.state.apply(a)
        self._play_opponents()
        reward, terminated, truncated = 0.0, False, False
        if self.state.is_terminal():
            self._over = True
            returns = self.state.returns()
            assert returns is not None
            reward = float(returns[self.seat])
            truncated = self.state.truncated
            terminated = not truncated
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions as a bool vector of `num_actions` (all False once the
        episode is over): what sb3-contrib's `MaskablePPO` asks the environment for."""
        return self._mask().astype(bool)

    def render(self) -> Rendered:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        return render(self.state, self.render_mode)

    def _play_opponents(self) -> None:
        while not self.state.is_terminal() and self.state.current_player != self.seat:
            if self.opponent is None:
                action = random_legal(self.state, self.np_random)
            else:
                action = self.opponent.act(self.state)
            self.state.apply(action)

    def _observation(self) -> Obs:
        observation = self.state.observation(self.seat)
        return observation.reshape(-1) if self.flatten else observation

    def _mask(self) -> npt.NDArray[np.int8]:
        if self._over or self.state.current_player != self.seat:
            return np.zeros(self.game.num_actions, dtype=np.int8)
        return self.state.legal_mask().astype(np.int8)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask(), "seat": self.seat}


def register_envs() -> None:
    """Registers every game's environment (done on import; calling it again does nothing)."""
    for name, env_id in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="stonefield.gymnasium:StonefieldEnv",
                kwargs={"game": name},
                disable_env_checker=False,
            )


register_envs()


class SelfPlayVectorEnv(VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """Many games of one configuration stepped together in Rust (over `sf.VectorEnv`), every
    seat's action chosen by the caller: self-play at full speed.

    Each step takes one action per game, for the player to move in that game, and returns:

    - observations: float32 (num_envs, planes, sites), each seen by the player to move next;
    - rewards: float64 (num_envs,), for the player who just moved: that player's return when
      the game ended in this step, else 0 (every player's returns are in `info["returns"]`);
    - terminations and truncations: bool (num_envs,), truncation meaning the move cap;
    - info: `"action_mask"` int8 (num_envs, num_actions) and `"current_player"` int32
      (num_envs,) for the next observations, `"returns"` float32 (num_envs, players).

    A game that ends is reset in the same step (Gymnasium's `AutoresetMode.SAME_STEP`, declared
    in `metadata["autoreset_mode"]`): its observation is the new game's, and
    `info["final_obs"]` (an object array, None except where `info["_final_obs"]` is True) holds
    the final position seen by the player who made the last move. An illegal action raises
    `sf.IllegalMoveError` naming its environment, and nothing changes.

    Args:
        game: a game id or a `sf.Game`.
        num_envs: number of games.
        seed: seed of `sf.VectorEnv.random_actions`.
        threads: worker threads (None: every core).
        copy: return copies of the observation and mask buffers (True), or the buffers
            themselves, overwritten by the next step (False, faster).
        **options: the game's options.

    >>> from stonefield.gymnasium import SelfPlayVectorEnv
    >>> envs = SelfPlayVectorEnv("subsume", 8, size=4)
    >>> observations, info = envs.reset(seed=0)
    >>> observations.shape, observations.dtype
    ((8, 5, 37), dtype('float32'))
    >>> actions = envs.action_space.sample(mask=tuple(info["action_mask"]))
    >>> observations, rewards, terminations, truncations, info = envs.step(actions)
    >>> rewards.dtype, terminations.shape
    (dtype('float64'), (8,))
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        game: str | Game,
        num_envs: int,
        *,
        seed: int = 0,
        threads: int | None = None,
        copy: bool = True,
        **options: Any,
    ) -> None:
        self.game = make_game(game, options)
        self._seed = seed
        self._threads = threads
        self._env = _NativeVectorEnv(self.game, num_envs, seed=seed, threads=threads)
        self.num_envs = num_envs
        self.copy = copy
        self.single_observation_space = gymnasium.spaces.Box(
            0.0, 1.0, shape=self.game.observation_shape, dtype=np.float32
        )
        self.single_action_space = gymnasium.spaces.Discrete(self.game.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._rows = np.arange(num_envs)

    @property
    def native(self) -> _NativeVectorEnv:
        """The underlying `sf.VectorEnv` (its `state(i)` gives game i as a State)."""
        return self._env

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        if seed is not None:
            if not isinstance(seed, int):
                raise TypeError("seed must be one int for the whole batch")
            self._seed = seed
            self._env = _NativeVectorEnv(self.game, self.num_envs, seed=seed, threads=self._threads)
            self.action_space.seed(seed)
        obs, native_info = self._env.reset()
        return self._out(obs), self._info(native_info)

    def step(
        self, actions: Any
    ) -> tuple[
        Obs, npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]
    ]:
        movers = self._env.current_player.astype(np.int64)
        obs, returns, terminated, truncated, native_info = self._env.step(
            action_ids(actions, self.num_envs)
        )
        rewards = returns[self._rows, movers].astype(np.float64)
        info = self._info(native_info)
        info["returns"] = returns.copy() if self.copy else returns
        ended = np.flatnonzero(terminated | truncated)
        if ended.size:
            final = np.full(self.num_envs, None, dtype=object)
            for i, o in zip(ended, self._env.final_observations(ended.tolist())):
                final[i] = o
            info["final_obs"] = final
            info["_final_obs"] = terminated | truncated
        return self._out(obs), rewards, terminated.copy(), truncated.copy(), info

    def _out(self, obs: Obs) -> Obs:
        return obs.copy() if self.copy else obs

    def _info(self, native_info: dict[str, Any]) -> dict[str, Any]:
        mask = native_info["legal_mask"].view(np.int8)
        player = native_info["current_player"]
        if self.copy:
            mask, player = mask.copy(), player.copy()
        return {"action_mask": mask, "current_player": player}
