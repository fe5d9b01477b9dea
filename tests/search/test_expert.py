"""The expert agents: ``sf.expert`` and the agent string ``expert``, the networks shipped in the
package for every game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import stonefield as sf
from stonefield import experts
from stonefield._checkpoint import read_checkpoint
from stonefield._seeds import reseeded, seated
from stonefield.agents import agent_kind, agent_string, parse_agent, rebuilt

#: Per game: another board than the default one, of another size.
OTHER = {
    "smallholder": {"board": "hex3"},
    "windflowers": {"size": 3},
    "faraday": {"order": 4},
    "subsume": {"size": 4},
}


def test_every_game_ships_a_network_for_its_default_board() -> None:
    assert experts.expert_games() == sf.games()
    for name in sf.games():
        path = Path(experts.network_path(name))
        assert path.parent.name == "networks" and path.parent.parent.name == "stonefield"
        net = read_checkpoint(path)
        assert net.architecture == "graph" and net.game == sf.make(name)
        assert experts.trained_on(sf.make(name))
    readme = (Path(experts.NETWORKS) / "README.md").read_text()
    for name in sf.games():
        assert f"`{name}.npz`" in readme


@pytest.mark.parametrize("name", sorted(OTHER))
@pytest.mark.parametrize("other", [False, True])
def test_the_expert_plays_a_legal_move_on_the_default_board_and_another(
    name: str, other: bool
) -> None:
    game = sf.make(name, **(OTHER[name] if other else {}))
    state = game.new_state()
    for agent in (sf.expert(game, simulations=12, seed=1), sf.expert(name, simulations=12)):
        assert state.is_legal(agent.act(state))
    # The agent string plays it too, and one agent plays two boards in turn.
    agent = parse_agent("expert:simulations=12")
    for g in (game, sf.make(name)):
        assert g.new_state().is_legal(agent.act(g.new_state()))
    assert experts.plays(game) is None


def test_the_expert_is_a_puct_search_with_its_defaults() -> None:
    agent = sf.expert("subsume")
    assert isinstance(agent, sf.PUCT) and agent_kind(agent) == "puct"
    assert agent.simulations == experts.DEFAULT_SIMULATIONS == 400
    assert agent.dirichlet_fraction == 0 and agent.seed == 0
    assert sf.expert(sf.make("subsume"), simulations=30, seed=4).seed == 4
    # Deterministic: the same seed, the same move.
    state = sf.make("subsume", size=4).new_state()
    a, b = (sf.expert("subsume", simulations=30, seed=9).analyse(state) for _ in range(2))
    assert a.best == b.best and a.value == b.value


@pytest.mark.parametrize(
    "text",
    ["expert", "expert:simulations=200,seed=1", "expert:seed=5", "expert:simulations=64,c=2.0"],
)
def test_the_agent_string_round_trips(text: str) -> None:
    agent = parse_agent(text)
    assert experts.is_expert(agent)
    assert agent_string(agent) == text
    assert agent_string(parse_agent(agent_string(agent))) == text
    # Copies keep being the expert: rebuilt, reseeded, seated for a game.
    assert agent_string(rebuilt(agent, simulations=77)).startswith("expert:simulations=77")
    assert agent_string(agent.with_seed(3)).startswith("expert")
    assert experts.is_expert(seated(agent, 1, 0, 1)) and experts.is_expert(reseeded(agent, 5))
    assert agent_string(sf.expert("faraday", simulations=200, seed=1)) == (
        "expert:simulations=200,seed=1"
    )


def test_a_checkpoint_path_of_the_shipped_file_is_a_plain_puct() -> None:
    path = experts.network_path("subsume")
    agent = parse_agent(f"puct:simulations=10,checkpoint={path}")
    assert not experts.is_expert(agent)
    assert agent_string(agent) == f"puct:simulations=10,checkpoint={path}"


def test_a_match_and_self_play_take_the_expert() -> None:
    m = sf.match("subsume", ["expert:simulations=8", "random"], games=2, size=3)
    assert m.n_games == 2 and "expert:simulations=8" in repr(m)
    d = sf.selfplay("subsume", "expert:simulations=8", games=2, seed=1, threads=1, size=3)
    assert d.policies.shape[0] == d.observations.shape[0] > 0
    with pytest.raises(sf.InvalidOptionError, match="cannot play windflowers"):
        sf.selfplay("windflowers", "expert:simulations=8", games=1, players=3, size=3)


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: sf.expert("go"), "unknown game 'go'; games: smallholder"),
        (lambda: sf.expert(sf.make("windflowers", players=3)), "cannot play windflowers"),
        (lambda: sf.expert("subsume", iterations=10), "unknown expert setting 'iterations'"),
        (lambda: sf.expert("subsume", simulations=0), "simulations"),
        (lambda: parse_agent("expert:simulations=x"), "simulations must be"),
        (lambda: parse_agent("expert:checkpoint=a.npz"), 'unknown setting "checkpoint"'),
        (
            lambda: sf.expert("subsume").act(sf.make("faraday").new_state()),
            "this expert plays subsume, not faraday",
        ),
        (
            lambda: parse_agent("expert").act(sf.make("windflowers", players=4).new_state()),
            "the expert network of windflowers",
        ),
    ],
)
def test_bad_requests_name_what_exists(call: object, words: str) -> None:
    with pytest.raises(sf.InvalidOptionError, match=words.replace("(", r"\(")):
        call()  # type: ignore[operator]


def test_a_game_without_a_network_names_the_ones_that_have_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "subsume.npz").write_bytes(Path(experts.network_path("subsume")).read_bytes())
    monkeypatch.setattr(experts, "NETWORKS", str(tmp_path))
    assert experts.expert_games() == ["subsume"]
    with pytest.raises(sf.InvalidOptionError, match="no expert network ships for faraday; the"):
        sf.expert("faraday")
    assert "games that have one: subsume" in str(experts.plays(sf.make("faraday")))
    assert not experts.trained_on(sf.make("faraday"))


def test_the_type_of_game_is_checked() -> None:
    with pytest.raises(TypeError, match="a Game or a game's name"):
        sf.expert(3)  # type: ignore[arg-type]


def test_the_expert_of_one_game_is_played_natively_and_takes_threads() -> None:
    # sf.expert(game) plays its network in Rust (threads need it), and the search sees what
    # the same network played in numpy gives it: the root values agree.
    # (Visits may differ where two priors agree to float32 rounding: Rust and numpy sum in
    # different orders, and a tie broken the other way moves a visit.)
    game = sf.make("subsume", size=4)
    state = game.new_state()
    native = sf.expert(game, simulations=64, seed=2).analyse(state)
    numpy_net = experts._network("subsume")
    slow = sf.PUCT(_Wrapped(numpy_net), simulations=64, seed=2, dirichlet_fraction=0)
    reference = slow.analyse(state)
    assert native.value == pytest.approx(reference.value, abs=1e-3)
    assert native.iterations == reference.iterations == 64
    assert np.array_equal(native.actions, reference.actions)
    two = sf.expert(game, simulations=64, seed=2, threads=2)
    assert state.is_legal(two.act(state))
    with pytest.raises(sf.InvalidOptionError, match="name the game"):
        parse_agent("expert:threads=2")


class _Wrapped:
    """A network behind a Python call: the numpy forward pass, never the native one."""

    def __init__(self, net: Any) -> None:
        self.net = net

    def check_game(self, game: sf.Game) -> None:
        self.net.check_game(game)

    def __call__(self, obs: Any, mask: Any) -> Any:
        return self.net(obs, mask)


@pytest.mark.parametrize("text", ["expert:time=0.1", "expert:simulations=50,seed=3"])
def test_time_and_threads_pass_through_to_puct(text: str) -> None:
    """``time`` and ``threads`` are PUCT's: where this PUCT has them the expert string keeps
    them, else it names the setting PUCT does not take."""
    key = text.partition(":")[2].split("=")[0]
    if not hasattr(sf.PUCT(simulations=1), key):
        with pytest.raises(sf.InvalidOptionError, match=f"does not take it: .*'{key}'"):
            parse_agent(text)
        return
    agent = parse_agent(text)
    assert experts.is_expert(agent) and key in agent_string(agent)
    assert agent_string(parse_agent(agent_string(agent))) == agent_string(agent)
