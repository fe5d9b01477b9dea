"""The exact-analysis API: sf.solve, sf.SolveResult, sf.Solver, sf.state_graph, sf.StateGraph,
State.key() and the ``stonefield solve`` command."""

from __future__ import annotations

import doctest
import json
import pickle
from typing import Any

import numpy as np
import pytest

import stonefield as sf
from stonefield import _core
from stonefield.cli import main


def tiny() -> sf.State:
    return sf.make("smallholder", board="hex232323").new_state()


@pytest.mark.parametrize(
    "obj", [_core.solve, _core.SolveResult, _core.state_graph, _core.StateGraph, _core.State.key]
)
def test_docstring_examples_run(obj: Any) -> None:
    finder = doctest.DocTestFinder(recurse=False)
    tests = finder.find(obj, obj.__name__, globs={})
    assert tests and tests[0].examples
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for t in tests:
        runner.run(t)
    assert runner.summarize(verbose=False).failed == 0


def test_solve_fields_and_types() -> None:
    res = sf.solve(tiny())
    assert res.value == 1 and res.stopped_by == "solved"
    assert res.actions.dtype == np.int64 and res.outcomes.dtype == np.int8
    assert np.array_equal(res.actions, tiny().legal_actions())
    assert res.best == [int(a) for a, o in zip(res.actions, res.outcomes) if o == res.value]
    assert res.margin is None and res.nodes > 0 and res.seconds >= 0
    # The line is a whole game the mover wins.
    s = tiny()
    for a in res.pv:
        s.apply(a)
    assert s.is_terminal() and s.returns() is not None
    assert s.returns()[0] == 1.0  # type: ignore[index]
    again = pickle.loads(pickle.dumps(res))
    assert again.value == res.value and np.array_equal(again.outcomes, res.outcomes)


def test_solve_is_the_same_for_any_thread_count() -> None:
    a = sf.solve(tiny(), threads=1)
    b = sf.solve(tiny(), threads=2)
    assert (a.value, a.best, a.pv) == (b.value, b.best, b.pv)
    assert np.array_equal(a.outcomes, b.outcomes)


@pytest.mark.parametrize(
    ("name", "options", "board", "rules"),
    [
        ("smallholder", {"board": "hex232323"}, 6, 6),
        ("subsume", {"size": 3}, 12, 12),
        ("windflowers", {"grid": "trisquare", "size": 3}, 4, 4),
        ("windflowers", {"grid": "square", "size": 3}, 8, 8),
        ("faraday", {"order": 3}, 12, 1),
    ],
)
def test_the_symmetries_the_solver_uses(
    name: str, options: dict[str, Any], board: int, rules: int
) -> None:
    game = sf.make(name, **options)
    n = game.num_sites
    for perms, count in ((game.board_symmetries, board), (game.symmetries, rules)):
        assert perms.shape == (count, n) and perms.dtype == np.int64
        assert np.array_equal(perms[0], np.arange(n))
        assert all(np.array_equal(np.sort(p), np.arange(n)) for p in perms)
    if n > 14:
        return  # the rest solves the empty board: the smallest boards only
    # Every image of a first move has the same outcome (the solver shares one table entry
    # between them, and the outcomes are still those of each move).
    res = sf.solve(game.new_state())
    outcome = dict(zip(res.actions.tolist(), res.outcomes.tolist()))
    for perm in game.symmetries:
        for a in range(n):
            if a in outcome:
                assert outcome[int(perm[a])] == outcome[a]


def test_margin_mode() -> None:
    s = sf.make("windflowers", size=3, max_moves=3).new_state()
    res = sf.solve(s, margin=True)
    assert res.value is not None and res.margin is not None
    with pytest.raises(sf.InvalidOptionError, match="scores"):
        sf.solve(tiny(), margin=True)


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("smallholder", {"board": "hex232323", "ruleset": "nibbler"}),
        ("smallholder", {"board": "hex232323", "ruleset": "stymie"}),
        ("faraday", {"order": 3, "grid": "trisquare"}),
        ("windflowers", {"size": 3, "max_moves": 6}),
    ],
)
def test_proof_number_search_gives_alpha_betas_results(name: str, options: dict[str, Any]) -> None:
    s = sf.make(name, **options).new_state()
    ab = sf.solve(s)
    pn = sf.solve(s, method="pns", table_mb=64)
    assert pn.stopped_by == "solved"
    assert (pn.value, pn.best) == (ab.value, ab.best)
    assert np.array_equal(pn.outcomes, ab.outcomes)
    # Its perfect line is legal and gives the mover the value.
    t = s.copy()
    for a in pn.pv:
        t.apply(a)
    r = t.returns()
    assert r is not None and round(r[0]) == pn.value


def test_proof_number_search_options() -> None:
    s = sf.make("windflowers", size=3, max_moves=4).new_state()
    # The margin is alpha-beta's whatever the method.
    res = sf.solve(s, margin=True, method="pns")
    assert res.margin == sf.solve(s, margin=True).margin
    res = sf.solve(sf.make("windflowers", size=3).new_state(), method="pns", max_nodes=2000)
    assert res.stopped_by == "nodes" and res.pv == []
    with pytest.raises(sf.InvalidOptionError, match="alphabeta, pns"):
        sf.solve(s, method="minimax")  # type: ignore[arg-type]
    with pytest.raises(sf.InvalidOptionError, match="alphabeta, pns"):
        sf.solve(s, method=1)  # type: ignore[arg-type]
    assert (
        main(["solve", "smallholder", "--option", "board=hex232323", "--method", "pns", "--json"])
        == 0
    )


def test_budgets_stop_and_keep_the_proven() -> None:
    s = sf.make("windflowers", size=3).new_state()
    res = sf.solve(s, max_nodes=2000)
    assert res.stopped_by == "nodes"
    unproven = res.outcomes == sf.SolveResult.NOT_PROVEN
    assert unproven.any() and res.pv == []
    res = sf.solve(s, time=0.01)
    assert res.stopped_by in ("time", "solved")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"max_nodes": 0},
        {"max_nodes": -5},
        {"time": 0},
        {"time": -1.0},
        {"time": float("nan")},
        {"threads": 0},
        {"table_mb": 0},
        {"margin": 1},
    ],
)
def test_bad_budgets_are_refused(kwargs: dict[str, Any]) -> None:
    with pytest.raises(sf.StonefieldError):
        sf.solve(tiny(), **kwargs)


def test_a_table_beyond_memory_is_refused_not_an_abort() -> None:
    # 1 TiB: more than this machine may take, so the size is refused before any mapping, with
    # a typed error naming the sizes allowed (it used to abort the process).
    with pytest.raises(
        sf.InvalidOptionError, match="table_mb must be a whole number of MiB|smaller table"
    ):
        sf.solve(tiny(), table_mb=1 << 20)
    assert sf.solve(tiny(), table_mb=1).value == sf.solve(tiny()).value == 1


def test_bad_positions_are_refused() -> None:
    three = sf.make("windflowers", size=3, players=3).new_state()
    with pytest.raises(sf.InvalidOptionError, match="state_graph"):
        sf.solve(three)
    s = tiny()
    while not s.is_terminal():
        s.apply(int(s.legal_actions()[0]))
    with pytest.raises(sf.GameOverError):
        sf.solve(s)
    with pytest.raises(TypeError):
        sf.solve("windflowers")  # type: ignore[arg-type]


def test_solver_agent_plays_the_best_and_falls_back() -> None:
    agent = sf.Solver(max_nodes=100_000)
    assert agent.act(tiny()) == 1
    big = sf.make("smallholder", board="hex4").new_state()
    fallback = sf.RandomAgent(seed=3)
    agent = sf.Solver(max_nodes=50, fallback=fallback)
    a = agent.act(big)
    assert big.is_legal(a)
    assert agent.last is not None and agent.last.stopped_by == "nodes"
    assert sf.Solver(max_nodes=1_000_000, method="pns").act(tiny()) == 1
    for bad in [{"max_nodes": 0}, {"time": -1.0}, {}, {"max_nodes": 10, "method": "mcts"}]:
        with pytest.raises(sf.InvalidOptionError):
            sf.Solver(**bad)


def test_state_graph_and_its_value() -> None:
    game = sf.make("smallholder", board="hex232323")
    g = sf.state_graph(game)
    assert g.complete and g.cycle is None and g.longest is not None
    # The whole graph's retrograde value equals alpha-beta's.
    assert g.values == sf.solve(game.new_state()).value
    again = pickle.loads(pickle.dumps(g))
    assert (again.positions, again.edges, again.values) == (g.positions, g.edges, g.values)
    part = sf.state_graph(sf.make("windflowers", size=3, players=4), max_positions=500)
    assert not part.complete and part.stopped_by == "max_positions" and part.values is None
    with pytest.raises(sf.StonefieldError):
        sf.state_graph(game, max_positions=0)
    with pytest.raises(TypeError):
        sf.state_graph("smallholder")  # type: ignore[arg-type]


def test_keys_follow_positions() -> None:
    game = sf.make("windflowers", size=3)
    a, b = game.new_state(), game.new_state()
    for x in (0, 14, 5):
        a.apply(x)
    for x in (5, 14, 0):
        b.apply(x)
    assert a.key() == b.key() and isinstance(a.key(), int)
    c = a.copy()
    c.apply(14)
    assert c.key() != a.key()
    c.undo()
    assert c.key() == a.key()
    assert 0 <= a.key() < 2**64


def test_cli_solve(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "smallholder", "--option", "board=hex232323", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["value"] == 1 and out["best"] == [1, 7, 9] and out["stopped_by"] == "solved"
    assert main(["solve", "smallholder", "--option", "board=hex232323"]) == 0
    text = capsys.readouterr().out
    assert "win" in text and "nodes" in text
    assert main(["solve", "smallholder", "--option", "board=hex232323", "--graph", "--json"]) == 0
    g = json.loads(capsys.readouterr().out)
    assert g["complete"] and g["cycle"] is None and g["value"] == 1
    with pytest.raises(SystemExit):
        main(["solve", "windflowers", "--nodes", "0"])
    with pytest.raises(SystemExit):
        main(["solve", "windflowers", "--option", "players=3"])
