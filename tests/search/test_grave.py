"""The stronger search settings: GRAVE selection, MAST playouts and the strong preset.

Their statistics and exact behaviour are tested in Rust (``src/search/tests.rs`` and the
tests of ``src/search/mcts/tests.rs``); here: the Python settings, their checks, agent
strings, pickling, and a fixed-seed strength check.
"""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest

import stonefield as sf
from stonefield.agents import agent_string, parse_agent

GAMES = sf.games()


def test_grave_settings_are_kept_and_shown() -> None:
    a = sf.MCTS(iterations=300, selection="grave", grave_ref=30, grave_bias=1e-4, seed=2)
    assert (a.selection, a.grave_ref, a.grave_bias, a.playouts, a.preset) == (
        "grave",
        30,
        1e-4,
        "random",
        None,
    )
    # GRAVE explores by its AMAF statistics: c is 0 unless given.
    assert a.c == 0.0
    assert sf.MCTS(iterations=1, selection="grave", c=0.5).c == 0.5
    assert sf.MCTS(iterations=1).c == pytest.approx(math.sqrt(2))
    assert eval(repr(a), {"MCTS": sf.MCTS}) == a
    assert pickle.loads(pickle.dumps(a)) == a
    assert sf.MCTS(iterations=1, selection="grave", grave_ref=math.inf).grave_ref == 2**32 - 1


def test_a_preset_decides_its_settings_per_game() -> None:
    p = sf.MCTS(time=0.2, preset="strong", seed=4)
    assert p.preset == "strong"
    assert (p.c, p.selection, p.grave_ref, p.grave_bias, p.playouts) == (None,) * 5
    assert pickle.loads(pickle.dumps(p)) == p
    assert eval(repr(p), {"MCTS": sf.MCTS}) == p
    for name in GAMES:
        r = p.resolved(sf.make(name))
        assert r.selection == "grave", name
        assert r.preset is None and r.time == 0.2 and r.seed == 4
    with pytest.raises(TypeError, match="Game"):
        p.resolved("windflowers")  # type: ignore[arg-type]


def test_a_preset_search_is_the_resolved_search() -> None:
    game = sf.make("smallholder", board="hex3")
    state = game.new_state()
    p = sf.MCTS(iterations=400, preset="strong", seed=1)
    a, b = p.analyse(state), p.resolved(game).analyse(state)
    assert np.array_equal(a.visits, b.visits) and a.best == b.best


@pytest.mark.parametrize(
    "settings, needle",
    [
        ({"selection": "rave"}, "uct, grave"),
        ({"selection": 3}, "selection must be a string"),
        ({"playouts": "nst"}, "random, mast, knowledge"),
        ({"preset": "weak"}, "strong"),
        ({"grave_ref": 0}, "grave_ref"),
        ({"grave_ref": -math.inf}, "grave_ref"),
        ({"grave_ref": True}, "grave_ref"),
        ({"grave_bias": -1.0}, "grave_bias"),
        ({"grave_bias": math.nan}, "grave_bias"),
        ({"grave_bias": math.inf}, "grave_bias"),
        ({"preset": "strong", "c": 1.0}, "either the preset or c"),
        ({"preset": "strong", "selection": "uct"}, "either the preset or selection"),
        ({"preset": "strong", "playouts": "mast"}, "playouts"),
    ],
)
def test_bad_settings_are_refused(settings: dict[str, object], needle: str) -> None:
    with pytest.raises(sf.InvalidOptionError, match=needle):
        sf.MCTS(iterations=10, **settings)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    [
        "mcts:selection=grave,time=0.5",
        "mcts:preset=strong",
        "mcts:preset=strong,time=0.25,seed=3",
        "mcts:selection=grave,grave_ref=inf,grave_bias=0.001",
        "mcts:playouts=mast,iterations=300",
        "mcts:selection=grave,c=0.3,playouts=mast",
        "mcts:selection=grave,c=0,playouts=knowledge,iterations=300",
    ],
)
def test_every_setting_round_trips_through_agent_strings(text: str) -> None:
    agent = parse_agent(text)
    assert parse_agent(agent_string(agent)) == agent
    assert pickle.loads(pickle.dumps(agent)) == agent


def test_agent_strings_refuse_bad_search_settings() -> None:
    with pytest.raises(sf.InvalidOptionError, match="uct, grave"):
        parse_agent("mcts:selection=rave")
    with pytest.raises(sf.InvalidOptionError, match="either the preset"):
        parse_agent("mcts:preset=strong,c=1")
    with pytest.raises(sf.InvalidOptionError, match="grave_ref must be"):
        parse_agent("mcts:grave_ref=lots")


@pytest.mark.parametrize("name", GAMES)
def test_grave_without_a_reference_plays_as_uct(name: str) -> None:
    state = sf.make(name).new_state()
    uct = sf.MCTS(iterations=1200, seed=5).analyse(state)
    grave = sf.MCTS(
        iterations=1200, seed=5, selection="grave", c=math.sqrt(2), grave_ref=math.inf
    ).analyse(state)
    assert np.array_equal(uct.visits, grave.visits) and uct.best == grave.best


@pytest.mark.parametrize("threads", [1, 2])
def test_grave_is_reproducible_for_a_seed_and_thread_count(threads: int) -> None:
    state = sf.make("subsume", size=4).new_state()
    agent = sf.MCTS(iterations=800, seed=9, threads=threads, preset="strong")
    a, b = agent.analyse(state), agent.analyse(state)
    assert np.array_equal(a.visits, b.visits) and a.iterations == 800


def test_native_matches_take_the_new_settings() -> None:
    m = sf.match(
        "windflowers",
        ["mcts:preset=strong,iterations=100", "mcts:selection=grave,iterations=100"],
        games=4,
        seed=1,
    )
    assert m.lengths.shape == (4,)
    assert m.records()[0]["actions"]


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_grave_1000_beats_uct_1000(name: str) -> None:
    # Fixed seeds, native match (independent of the thread count): reproducible.
    games = {"windflowers": 40, "smallholder": 100, "faraday": 200, "subsume": 160}[name]
    grave = sf.MCTS(iterations=1000, preset="strong")
    m = sf.match(name, [grave, sf.MCTS(iterations=1000)], games=games, seed=3)
    assert m.score[0] > 0.5, m.summary()
    assert m.score_ci[0, 0] > 0.5, m.summary()
