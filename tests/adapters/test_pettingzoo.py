"""The PettingZoo adapter: PettingZoo's own checkers on every game, and its rules of play."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test
from rl_configs import RL_CONFIGS, rl_id

import stonefield as sf
from stonefield.pettingzoo import env, raw_env

# PettingZoo's api_test advises Box observations for every environment not on its own list of
# classic games; a dict with an action mask is what its classic board games use.
ADVISORY = [
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:Observation space for each agent probably should be:UserWarning",
]


@pytest.mark.parametrize("config", RL_CONFIGS, ids=rl_id)
@pytest.mark.filterwarnings(*ADVISORY)
def test_pettingzoo_checkers(config: tuple[str, dict[str, Any]], capsys: Any) -> None:
    name, options = config
    api_test(env(name, **options), num_cycles=1000)
    seed_test(lambda: env(name, **options), num_cycles=200)

    def make(render_mode: str | None = None) -> Any:
        return env(name, render_mode=render_mode, **options)

    render_test(
        make,
        custom_tests={
            "svg": lambda r: isinstance(r, str) and r.startswith("<svg"),
            # The text board: a row of sites per line, each led by its first site's name (a1),
            # then the status line.
            "ansi": lambda r: (
                r.count("\n") >= 3 and re.match(r"\s*[a-z]+[0-9]+ ", r.split("\n")[-2]) is not None
            ),
            # A picture with a board on it: more than one colour.
            "rgb_array": lambda r: len(np.unique(r.reshape(-1, 3), axis=0)) > 2,
        },
    )
    assert "to move" in capsys.readouterr().out  # "human" prints the text board


def _play(e: Any, choose: Any) -> dict[str, float]:
    """Plays to the end; returns each agent's reward as `last()` reported it when done."""
    final = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            final[agent] = reward
            e.step(None)
        else:
            e.step(choose(obs))
    return final


def test_rewards_are_the_games_returns() -> None:
    e = raw_env("windflowers", players=3, size=3)
    e.reset()
    final = _play(e, lambda obs: int(np.flatnonzero(obs["action_mask"])[0]))
    state = sf.make("windflowers", players=3, size=3).new_state()
    actions = e.state.history
    for a in actions:
        state.apply(a)
    returns = state.returns()
    assert returns is not None and state.is_terminal()
    assert final == {f"player_{p}": float(returns[p]) for p in range(3)}
    assert sum(final.values()) == 0.0


def test_only_the_mover_has_a_mask_and_views_are_relative() -> None:
    e = raw_env("smallholder", board="hex3")
    e.reset()
    e.step(0)
    assert e.agent_selection == "player_1"
    mover, other = e.observe("player_1"), e.observe("player_0")
    assert mover["action_mask"].sum() > 0 and other["action_mask"].sum() == 0
    assert mover["action_mask"].dtype == np.int8
    # Each agent sees its own stones in plane 0.
    assert other["observation"][0, 0] == 1.0 and mover["observation"][1, 0] == 1.0


def test_faraday_pie_swap_hands_the_move_to_player_0() -> None:
    e = raw_env("faraday", order=3)
    e.reset()
    n = e.game.num_sites
    for a in (0, n + 1, 2):  # offer: a player-0 stone, a player-1 stone, a player-0 stone
        assert e.agent_selection == "player_0"
        e.step(a)
    assert e.agent_selection == "player_1"
    e.step(2 * n + 2)  # swap every stone's colour
    assert e.agent_selection == "player_0"
    assert e.state.board[0] == 2 and e.state.board[1] == 1


def test_move_cap_truncates_everyone_with_reward_0() -> None:
    e = env("windflowers", size=3, max_moves=4)
    e.reset()
    for _ in range(4):
        e.step(int(np.flatnonzero(e.unwrapped.state.legal_mask())[0]))
    assert e.unwrapped.state.truncated
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert _play(e, lambda obs: 0) == {"player_0": 0.0, "player_1": 0.0}


def test_illegal_move_ends_the_game_with_a_penalty(caplog: Any) -> None:
    e = env("subsume", size=3)
    e.reset()
    e.step(5)
    e.step(5)  # occupied
    assert "Illegal move made" in caplog.text
    assert all(e.terminations.values())
    assert {a: e._cumulative_rewards[a] for a in e.agents} == {"player_0": 0.0, "player_1": -1.0}


def test_bad_calls_get_pettingzoo_errors() -> None:
    e = env("subsume", size=3)
    with pytest.raises(Exception, match="reset"):
        e.step(0)  # before reset
    e.reset()
    with pytest.raises(AssertionError):
        e.step(10_000)  # outside the action space
    raw = raw_env("subsume", size=3)
    raw.reset()
    raw.step(3)
    with pytest.raises(sf.IllegalMoveError):
        raw.step(3)
    assert raw.state.history == [3]
    with pytest.raises(ValueError, match="None"):
        raw.step(None)
    while raw.agents:  # to the end, then one step too many
        obs = raw.observe(raw.agent_selection)
        done = raw.terminations[raw.agent_selection] or raw.truncations[raw.agent_selection]
        raw.step(None if done else int(np.flatnonzero(obs["action_mask"])[0]))
    with pytest.raises(sf.GameOverError, match="reset"):
        raw.step(0)
    with pytest.raises(ValueError, match="render_mode"):
        raw_env("subsume", render_mode="video")
    with pytest.raises(sf.InvalidOptionError):
        env("windflowers", players=5)
