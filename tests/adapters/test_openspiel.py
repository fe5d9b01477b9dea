"""The OpenSpiel adapter: OpenSpiel's random simulation test on every game, parameters,
observations, serialisation, and OpenSpiel's MCTS and bot evaluation."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, mcts
from open_spiel.python.bots import uniform_random
from rl_configs import RL_CONFIGS, rl_id

import stonefield as sf
from stonefield import openspiel

openspiel.register()


def _game_string(name: str, options: dict[str, Any]) -> str:
    return f"stonefield_{name}({','.join(f'{k}={v}' for k, v in options.items())})"


@pytest.mark.parametrize("config", RL_CONFIGS, ids=rl_id)
def test_random_sim_test(config: tuple[str, dict[str, Any]]) -> None:
    name, options = config
    game = pyspiel.load_game(_game_string(name, options))
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


def test_every_game_is_registered_with_its_options_as_parameters() -> None:
    openspiel.register()  # a second call changes nothing
    names = set(pyspiel.registered_names())
    for name in sf.games():
        assert f"stonefield_{name}" in names
        game = pyspiel.load_game(f"stonefield_{name}")
        assert set(game.get_parameters()) == set(sf.make(name).options)
        assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM


def test_parameters_reach_the_game() -> None:
    game = pyspiel.load_game(
        "stonefield_windflowers(players=3,size=5,last_placer_breaks_ties=True)"
    )
    sf_game = game.new_initial_state().sf_state.game
    assert sf_game == sf.make("windflowers", players=3, size=5, last_placer_breaks_ties=True)
    assert game.num_players() == 3 and game.max_game_length() == sf_game.options["max_moves"]
    # Derived options follow the options they derive from unless given.
    stymie = pyspiel.load_game("stonefield_smallholder(ruleset=stymie)")
    assert stymie.new_initial_state().sf_state.game.options["capture"] == "groupwise_reentry"
    given = pyspiel.load_game(
        "stonefield_smallholder(ruleset=stymie,capture=piecewise,max_moves=9)"
    )
    opts = given.new_initial_state().sf_state.game.options
    assert (opts["capture"], opts["max_moves"]) == ("piecewise", 9)


def test_bad_game_strings_raise() -> None:
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colour'"):
        pyspiel.load_game("stonefield_windflowers(colour=red)")
    with pytest.raises(sf.InvalidOptionError, match="players"):
        pyspiel.load_game("stonefield_windflowers(players=7)")
    with pytest.raises(pyspiel.SpielError, match="Unknown game"):
        pyspiel.load_game("stonefield_chess")


def test_observations_strings_and_serialisation() -> None:
    game = pyspiel.load_game("stonefield_faraday(order=3)")
    state = game.new_initial_state()
    for a in (0, 20, 2, 39):  # offer (19 sites): stone 0, player 1's stone on 1, stone 2; accept
        state.apply_action(a)
    sf_state = state.sf_state
    assert game.observation_tensor_shape() == list(sf_state.game.observation_shape)
    for player in (0, 1):
        tensor = np.asarray(state.observation_tensor(player), dtype=np.float32)
        assert np.array_equal(tensor, sf_state.observation(player).ravel())
        assert state.observation_string(player) == sf.board_text(sf_state)
    restored = game.deserialize_state(state.serialize())
    assert restored.history() == state.history() == [0, 20, 2, 39]
    assert restored.sf_state.history == sf_state.history
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state)
    _, copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert copy.history() == state.history()
    with pytest.raises(sf.IllegalMoveError):
        state.apply_action(0)
    assert state.history() == [0, 20, 2, 39]


def test_python_mcts_plays_through_evaluate_bots() -> None:
    game = pyspiel.load_game("stonefield_windflowers(size=3,grid=hex)")
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(
        game, 2.0, 30, mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng), random_state=rng
    )
    returns = evaluate_bots.evaluate_bots(
        game.new_initial_state(), [bot, uniform_random.UniformRandomBot(1, rng)], rng
    )
    assert sorted(returns) == [-1.0, 1.0] or returns == [0.0, 0.0]


def test_cpp_mcts_search_works_on_these_games() -> None:
    # pyspiel.MCTSBot.step() crashes on Python-implemented games (it releases the GIL);
    # mcts_search(state).best_child().action is its move without that.
    game = pyspiel.load_game("stonefield_subsume(size=3)")
    bot = pyspiel.MCTSBot(
        game, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, 40, 1000, False, 0, False
    )
    state = game.new_initial_state()
    while not state.is_terminal():
        action = bot.mcts_search(state).best_child().action
        assert action in state.legal_actions()
        state.apply_action(action)
    assert sum(state.returns()) == 0.0


def test_cpp_evaluate_bots_runs_the_cpp_mcts_bot() -> None:
    # OpenSpiel's C++ evaluate_bots (pyspiel.evaluate_bots) steps its C++ bots itself, holding
    # Python's lock, so the C++ MCTSBot plays whole games of these Python games there; only
    # bot.step() called from Python (the Python evaluate_bots) crashes.
    game = pyspiel.load_game("stonefield_subsume(size=3)")
    for seed in range(3):
        bots = [
            pyspiel.MCTSBot(
                game, pyspiel.RandomRolloutEvaluator(1, seed), 2.0, 40, 1000, False, seed, False
            ),
            pyspiel.make_uniform_random_bot(1, seed),
        ]
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
        assert sorted(returns) == [-1.0, 1.0] or returns == [0.0, 0.0]


def test_information_state_tensors_raise_a_clear_error() -> None:
    game = pyspiel.load_game("stonefield_subsume(size=3)")
    state = game.new_initial_state()
    for call in (
        lambda: state.information_state_tensor(0),
        lambda: state.information_state_tensor(),
        game.information_state_tensor_shape,
        game.information_state_tensor_size,
    ):
        with pytest.raises(openspiel.InformationStateError, match="observation_tensor"):
            call()
    # What the games do provide is unchanged.
    assert len(state.observation_tensor(0)) == int(np.prod(game.observation_tensor_shape()))
    state.apply_action(state.legal_actions()[0])
    assert state.information_state_string(0) == state.history_str() != ""
