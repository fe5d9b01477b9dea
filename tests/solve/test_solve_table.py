"""sf.SolveTable: one alpha-beta table kept between solves of a game's positions. Answers are
those of fresh tables; what earlier solves proved spares the later ones; what it cannot hold is
refused with what is allowed, and a table in use by one solve is refused to another."""

from __future__ import annotations

import _thread
import threading
import time

import pytest

import stonefield as sf


def _after(state: sf.State, action: int) -> sf.State:
    kid = state.copy()
    kid.apply(int(action))
    return kid


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("smallholder", {"board": "hex232323"}),
        ("subsume", {"size": 3}),
        ("windflowers", {"grid": "trisquare", "size": 3}),
        ("faraday", {"grid": "hex_limping", "order": 3}),
    ],
)
def test_solves_in_one_table_answer_as_fresh_ones_with_less_work(
    game: str, options: dict[str, str | int]
) -> None:
    g = sf.make(game, **options)
    s = g.new_state()
    t = sf.SolveTable(g, table_mb=64)
    assert t.entries == 0 and t.table_bytes <= t.capacity_bytes == 64 << 20
    assert game in t.game and "rules version" in t.game and game in repr(t)
    fresh_nodes = kept_nodes = 0
    for a in s.legal_actions():
        kid = _after(s, a)
        if kid.is_terminal():
            continue
        fresh = sf.solve(kid, value_only=True, table_mb=64)
        kept = sf.solve(kid, value_only=True, table=t)
        assert kept.value == fresh.value and kept.stopped_by == fresh.stopped_by
        fresh_nodes += fresh.nodes
        kept_nodes += kept.nodes
    assert kept_nodes < fresh_nodes
    assert t.entries > 0
    # The whole root in the table its children filled: the same answer for less.
    whole = sf.solve(s, table_mb=64)
    again = sf.solve(s, table=t)
    assert (again.value, list(again.outcomes), again.pv) == (
        whole.value,
        list(whole.outcomes),
        whole.pv,
    )
    assert again.nodes < whole.nodes


def test_a_margin_and_a_budget_work_with_a_table() -> None:
    g = sf.make("windflowers", grid="trisquare", size=3)
    t = sf.SolveTable(g, table_mb=32)
    cut = sf.solve(g.new_state(), table=t, max_nodes=1000)
    assert cut.stopped_by == "nodes" and t.entries > 0
    res = sf.solve(g.new_state(), table=t, margin=True)
    plain = sf.solve(g.new_state(), margin=True)
    assert (res.value, res.margin) == (plain.value, plain.margin)


def test_what_a_table_cannot_hold_is_refused_and_changes_nothing() -> None:
    g = sf.make("smallholder", board="hex232323")
    t = sf.SolveTable(g, table_mb=16)
    s = g.new_state()
    other = sf.make("smallholder", board="hex232323", ruleset="stymie").new_state()
    with pytest.raises(sf.InvalidOptionError, match="holds positions of .*stymie"):
        sf.solve(other, table=t)
    with pytest.raises(sf.InvalidOptionError, match="table_mb is not used with table"):
        sf.solve(s, table=t, table_mb=8)
    with pytest.raises(sf.InvalidOptionError, match='not with method="pns"'):
        sf.solve(s, table=t, method="pns")
    with pytest.raises(sf.InvalidOptionError, match="must be a SolveTable"):
        sf.solve(s, table="table")  # type: ignore[arg-type]
    with pytest.raises(sf.InvalidOptionError, match="game must be a Game"):
        sf.SolveTable(s)  # type: ignore[arg-type]
    with pytest.raises(sf.InvalidOptionError, match="table_mb"):
        sf.SolveTable(g, table_mb=0)
    assert t.entries == 0
    assert sf.solve(s, table=t).value == 1


def test_a_table_in_use_is_refused_to_a_second_solve() -> None:
    g = sf.make("smallholder", board="hex343434")
    t = sf.SolveTable(g, table_mb=16)
    done: list[sf.SolveResult] = []
    first = threading.Thread(target=lambda: done.append(sf.solve(g.new_state(), table=t, time=3.0)))
    first.start()
    refused: list[str] = []
    # Polled without taking the table (a count waits for the lock, it never takes the table
    # away), until the first solve holds it.
    while first.is_alive() and not refused:
        try:
            _ = t.entries
        except sf.InvalidOptionError as e:
            assert "in use" in str(e)
            with pytest.raises(sf.InvalidOptionError, match="in use by another solve") as info:
                sf.solve(g.new_state(), table=t, max_nodes=10)
            refused.append(str(info.value))
        time.sleep(0.01)
    first.join()
    assert refused
    assert done[0].stopped_by == "time"
    # Back in place once the first returned.
    assert t.entries > 0
    assert sf.solve(g.new_state(), table=t, max_nodes=10).stopped_by == "nodes"


@pytest.mark.timing
def test_ctrl_c_stops_a_solve_and_leaves_the_table_whole_for_the_next() -> None:
    g = sf.make("smallholder", board="hex343434")
    t = sf.SolveTable(g, table_mb=16)
    timer = threading.Timer(0.5, _thread.interrupt_main)  # Ctrl-C, as the terminal sends it
    timer.start()
    try:
        with pytest.raises(sf.SolveInterrupted) as info:
            sf.solve(g.new_state(), time=60, table=t)
    finally:
        timer.cancel()
    assert info.value.result.stopped_by == "interrupted"
    # The table is back, with what the stopped solve proved, and serves the next solve.
    kept = t.entries
    assert kept > 0
    assert sf.solve(g.new_state(), table=t, max_nodes=1000).stopped_by == "nodes"
    assert t.entries >= kept
