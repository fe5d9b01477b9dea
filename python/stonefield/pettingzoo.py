"""PettingZoo environments for every stonefield game (needs the `stonefield[pettingzoo]` extra).

An AEC environment in the manner of PettingZoo's classic board games: agents `player_0` …
`player_{n-1}` in the game's seat order, `Discrete(num_actions)` actions, observations
`{"observation": float32 (planes, sites), "action_mask": int8 (num_actions,)}` seen from the
observing agent (see `State.observation`), the mask all zeros unless that agent is to move. The
agent to move is the game's player to move, so turns that pass by themselves (Faraday, Subsume)
and Faraday's pie need nothing special. Rewards are the game's `returns()`, given to every agent
when the game ends; reaching the game's `max_moves` truncates every agent with reward 0.

`env()` adds PettingZoo's standard wrappers: an illegal action ends the game with reward −1 for
the agent that chose it (0 for the others), an action outside the action space raises, and the
API's call order is enforced. `raw_env` has none; there an illegal action raises
`sf.IllegalMoveError` and changes nothing.

>>> from stonefield.pettingzoo import env
>>> e = env("windflowers", players=3, size=3, grid="hex")
>>> e.reset(seed=0)
>>> e.possible_agents
['player_0', 'player_1', 'player_2']
>>> for agent in e.agent_iter():
...     observation, reward, termination, truncation, info = e.last()
...     if termination or truncation:
...         action = None
...     else:
...         action = int(observation["action_mask"].nonzero()[0][-1])  # the highest legal action
...     e.step(action)
>>> e.close()
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ._actions import action_id
from ._core import Game, GameOverError
from ._rl import RENDER_MODES, Rendered, check_render_mode, make_game, render

__all__ = ["env", "raw_env"]

Observation = dict[str, npt.NDArray[Any]]


def env(
    game: str | Game, render_mode: str | None = None, **options: Any
) -> AECEnv[str, Observation, int]:
    """A stonefield game as a PettingZoo AEC environment, with PettingZoo's standard wrappers.

    Args:
        game: a game id (`sf.games()`) or a `sf.Game`.
        render_mode: None, "human" (prints the text board after each change), "ansi" (the text
            board), "rgb_array" (a uint8 (H, W, 3) picture) or "svg" (the SVG document).
        **options: the game's options, as for `sf.make`.

    Returns:
        The wrapped environment: an illegal action ends the game with reward −1 for its agent,
        an out-of-range action raises, and the API's call order is enforced.
    """
    wrapped: AECEnv[str, Observation, int] = raw_env(game, render_mode=render_mode, **options)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv[str, Observation, int]):  # type: ignore[misc]  # PettingZoo is untyped
    """A stonefield game as a PettingZoo AEC environment, without wrappers (see `env`)."""

    metadata: dict[str, Any] = {
        "render_modes": RENDER_MODES,
        "name": "stonefield_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, game: str | Game, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        check_render_mode(render_mode)
        self.game = make_game(game, options)
        self.render_mode = render_mode
        self.metadata = {**raw_env.metadata, "name": f"stonefield_{self.game.name}_v0"}
        n = self.game.num_players
        self.possible_agents = [f"player_{p}" for p in range(n)]
        self.agents = self.possible_agents[:]
        planes, sites = self.game.observation_shape
        self.observation_spaces = {
            a: gymnasium.spaces.Dict(
                {
                    "observation": gymnasium.spaces.Box(
                        0.0, 1.0, shape=(planes, sites), dtype=np.float32
                    ),
                    "action_mask": gymnasium.spaces.Box(
                        0, 1, shape=(self.game.num_actions,), dtype=np.int8
                    ),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {
            a: gymnasium.spaces.Discrete(self.game.num_actions) for a in self.possible_agents
        }
        self.state = self.game.new_state()
        self._reset_bookkeeping()

    def _reset_bookkeeping(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player or 0]

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> Observation:
        player = self.possible_agents.index(agent)
        if self.state.current_player == player:
            mask = self.state.legal_mask().astype(np.int8)
        else:
            mask = np.zeros(self.game.num_actions, dtype=np.int8)
        return {"observation": self.state.observation(player), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        # The games have no chance: `seed` has nothing to seed.
        self.state = self.game.new_state()
        self._reset_bookkeeping()
        if self.render_mode == "human":
            self.render()

    def step(self, action: int | None) -> None:
        if not self.agents:
            raise GameOverError("every agent is done; call reset() to start another game")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: None is only for agents whose game has ended")
        mover = self.possible_agents.index(agent)
        self.state.apply(action_id(action))
        self._cumulative_rewards[agent] = 0.0
        if self.state.is_terminal():
            returns = self.state.returns()
            assert returns is not None
            self.rewards = {a: float(r) for a, r in zip(self.possible_agents, returns)}
            ended = self.truncations if self.state.truncated else self.terminations
            for a in self.agents:
                ended[a] = True
            self._accumulate_rewards()
            # Dead agents are removed in turn order from the one after the last mover.
            self.agent_selection = self.possible_agents[(mover + 1) % len(self.possible_agents)]
        else:
            player = self.state.current_player
            assert player is not None
            self.agent_selection = self.possible_agents[player]
        if self.render_mode == "human":
            self.render()

    def render(self) -> Rendered:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        return render(self.state, self.render_mode)

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return str(self.metadata["name"])
