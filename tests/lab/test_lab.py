"""The variant lab: metrics against hand-computed values, determinism, resumable files, bad
input, reports, the command line, the studies and the Ray backend."""

from __future__ import annotations

import json
import math
import os
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import stonefield as sf
from stonefield import _core
from stonefield.cli.lab import add_parser  # noqa: F401  (the CLI module imports cleanly)
from stonefield.lab import metrics as M
from stonefield.lab.columns import columns_of
from stonefield.lab.run import check_address
from stonefield.matches import wilson_interval

# Windflowers on the 4 × 4 square grid: sites 0..15, action 16 passes.
SMALL = {"grid": "square", "size": 3}
PASS = 16


def stats_of(game: Any, games: list[list[int]]) -> dict[str, Any]:
    actions = np.array([a for g in games for a in g], dtype=np.uint32)
    offsets = np.cumsum([0] + [len(g) for g in games]).astype(np.int64)
    return dict(_core.lab_stats(game, actions, offsets).columns())


# ---------------------------------------------------------------------------------------------
# Metrics on constructed games


def test_two_player_metrics_by_hand() -> None:
    game = sf.make("windflowers", max_moves=5, **SMALL)
    cols = stats_of(
        game,
        [
            [0, PASS, PASS],  # player 0 alone wins
            [PASS, PASS],  # a draw by the rules: 0–0, tie-breaks leave it tied
            [0, 1, 2, 3, 4],  # the move cap: truncated
            [PASS, 0, PASS, PASS],  # player 1 alone wins
        ],
    )
    m = M.variant_metrics(cols, 2)
    # w per game: (1, 0), (½, ½), (½, ½), (0, 1).
    assert m["seat_score_0"].value == 0.5 and m["seat_score_1"].value == 0.5
    assert m["advantage"].value == 0.5
    assert m["balance"].value == 1.0
    assert m["completion"].value == 0.5
    assert m["drawishness"].value == 0.25
    assert m["truncation"].value == 0.25
    # Raw scores tie for first only in the 0–0 game, which stays tied.
    assert m["tiebreak_reach"].value == 0.25
    assert m["tiebreak_unresolved"].value == 0.25
    # Lengths 3, 2, 5, 4.
    assert m["length_mean"].value == 3.5
    assert m["length_median"].value == 3.5
    assert m["length_p10"].value == pytest.approx(2.3)
    assert m["length_p90"].value == pytest.approx(4.7)
    assert m["turns_mean"].value == 3.5
    # t interval: s = sqrt(5/3), t(3) = 3.182.
    half = 3.182446 * math.sqrt(5 / 3) / 2
    assert m["length_mean"].low == pytest.approx(3.5 - half, abs=2e-3)
    # Wilson interval of ½ over 4 games.
    lo, hi = M.wilson_interval(0.5, 4)
    assert (m["seat_score_0"].low, m["seat_score_0"].high) == pytest.approx((lo, hi))
    assert m["repeated_games"].value == 0.0 and m["repetition"].value == 0.0
    # Game 1 (one stone then passes): 17 + 16 + 16 legal actions, all decisions real choices.
    assert cols["branching_sum"][0] == 49.0
    assert m["decision_moves"].value == 1.0
    assert cols["coverage"].tolist() == [1 / 16, 0.0, 5 / 16, 1 / 16]
    assert m["coverage"].value == pytest.approx((1 + 0 + 5 + 1) / 64)
    assert "pie_swap" not in m


def test_three_and_four_player_outcomes_by_hand() -> None:
    cols: dict[str, Any] = {
        "returns": np.array([[1.0, 0.0, -1.0], [0.5, 0.5, -1.0], [0.0, 0.0, 0.0]]),
        "ranks": np.array([[1.0, 2.0, 3.0], [1.5, 1.5, 3.0], [2.0, 2.0, 2.0]]),
        "truncated": np.array([False, False, True]),
        "scores": None,
        "top_tied": np.zeros(3, bool),
        "length": np.array([10, 20, 30], np.uint32),
        "turns": np.array([10, 20, 30], np.uint32),
        "branching_sum": np.array([50.0, 100.0, 150.0]),
        "multi_choice": np.array([10, 10, 30], np.uint32),
        "coverage": np.array([0.5, 0.5, 1.0]),
        "repeated": np.array([0, 2, 0], np.uint32),
        "lead_change": np.array([0.1, 0.2, 0.3]),
        "drama": np.zeros(3),
        "decisiveness": np.ones(3),
        "stability": np.zeros(3),
        "pie": np.full(3, -1, np.int8),
    }
    m = M.variant_metrics(completed(cols), 3)
    # w: (1, ½, 0), (¾, ¾, 0), (½, ½, ½); seat means ¾, 7/12, 1/6.
    assert m["seat_score_0"].value == pytest.approx(0.75)
    assert m["seat_score_1"].value == pytest.approx(7 / 12)
    assert m["seat_score_2"].value == pytest.approx(1 / 6)
    assert m["balance"].value == pytest.approx(1 - (0.75 - 1 / 6))
    assert [m[k].value for k in ("completion", "drawishness", "truncation")] == pytest.approx(
        [1 / 3, 1 / 3, 1 / 3]
    )
    assert math.isnan(m["tiebreak_reach"].value)
    assert m["branching"].value == 5.0
    assert m["decision_moves"].value == pytest.approx(50 / 60)
    assert m["repetition"].value == pytest.approx(2 / 60)
    assert m["repeated_games"].value == pytest.approx(1 / 3)
    assert m["lead_change"].value == pytest.approx(0.2)

    four = {
        **cols,
        "returns": np.array([[1.0, 1 / 3, -1 / 3, -1.0]]),
        "ranks": np.array([[1.0, 2.0, 3.0, 4.0]]),
        "truncated": np.array([False]),
    }
    four = {
        k: (v[:1] if isinstance(v, np.ndarray) and k not in ("returns", "ranks") else v)
        for k, v in four.items()
    }
    m4 = M.variant_metrics(completed(four), 4)
    assert [m4[f"seat_score_{p}"].value for p in range(4)] == pytest.approx(
        [1.0, 2 / 3, 1 / 3, 0.0]
    )
    assert m4["balance"].value == pytest.approx(0.0)


def test_evaluation_metrics_follow_ludii_definitions() -> None:
    # Values (the mover's root value) for a won game: see src/sim/stats.rs for the rows.
    game = sf.make("windflowers", **SMALL)
    d = _core.lab_stats(
        game,
        np.array([0, PASS, PASS], np.uint32),
        np.array([0, 3], np.int64),
        np.array([-0.5, -0.25, 0.75], np.float32),
    ).columns()
    # e rows (−½, ½), (¼, −¼), (¾, −¾), (1, −1): the lead changes once in 3 moves; the
    # winner trails by 1 at one position of 4; the loser's best is ½, first passed at s2.
    assert d["lead_change"][0] == pytest.approx(1 / 3)
    assert d["drama"][0] == pytest.approx(0.25)
    assert d["decisiveness"][0] == pytest.approx(2 / 3)
    e0 = np.array([-0.5, 0.25, 0.75, 1.0])
    assert d["stability"][0] == pytest.approx(e0.var())  # both players have the same variance


def test_faraday_pie_metrics() -> None:
    game = sf.make("faraday", grid="square_omni", order=3)
    n = game.num_sites
    games = []
    for seed in range(12):
        st = game.new_state()
        while not st.is_terminal():
            st.apply(st.random_action(seed=seed * 1000 + st.move_count))
        games.append(st.history)
    cols = stats_of(game, games)
    swaps = [2 * n + 2 in g for g in games]
    assert cols["pie"].tolist() == [1 if s else 0 for s in swaps]
    m = M.variant_metrics(cols, 2)
    assert m["pie_swap"].value == pytest.approx(np.mean(swaps))
    w = (cols["returns"] + 1) / 2
    sw = np.array(swaps)
    if sw.any():
        assert m["seat_score_0_swap"].value == pytest.approx(w[sw, 0].mean())
    if (~sw).any():
        assert m["seat_score_1_accept"].value == pytest.approx(w[~sw, 1].mean())


def test_intervals() -> None:
    assert M.t_quantile(4) == pytest.approx(2.776, abs=1e-3)
    assert M.t_quantile(30) == pytest.approx(2.042, abs=1e-3)
    m = M.mean([2.0, 4.0])
    assert (m.low, m.high) == pytest.approx((3 - 12.7062, 3 + 12.7062), abs=1e-3)
    r = M.ratio([1, 2, 3], [1, 1, 1])
    # Residuals −1, 0, 1: sd 1, so the half-width is t(2) / √3.
    assert r.value == 2.0 and r.interval == "delta"
    assert (r.low, r.high) == pytest.approx((2 - 4.3027 / 3**0.5, 2 + 4.3027 / 3**0.5))
    b = balance_of_scores(np.array([[1.0, 0.0], [0.5, 0.5], [1.0, 0.0]]))
    # Seat 0 leads with 5/6; balance 1 − (5/6 − 1/6) = 1/3, its interval the Wilson interval of
    # seat 0 carried through d = 2 w̄_0 − 1 exactly (two seats).
    lo, hi = wilson_interval(5 / 6, 3)
    assert b.value == pytest.approx(1 / 3) and b.interval == "wilson"
    assert (b.low, b.high) == pytest.approx((max(0.0, 2 - 2 * hi), min(1.0, 2 - 2 * lo)))
    # Every game a draw: balance 1, and still a real interval (not [1, 1]).
    b = balance_of_scores(np.array([[0.5, 0.5]] * 60))
    lo, hi = wilson_interval(0.5, 60)
    assert b.value == 1.0 and b.high == 1.0
    assert b.low == pytest.approx(1 - (2 * hi - 1)) and b.low < 0.8
    # Seat 1 ahead: the same, mirrored.
    b = balance_of_scores(np.array([[0.0, 1.0]] * 7 + [[1.0, 0.0]] * 3))
    lo, hi = wilson_interval(0.3, 10)
    assert b.value == pytest.approx(0.6)
    assert (b.low, b.high) == pytest.approx((1 - (1 - 2 * lo), min(1.0, 1 - (1 - 2 * hi))))
    # Three seats: the seats of highest and lowest mean (2 and 1), Newcombe's interval for the
    # difference of their Wilson intervals.
    b = balance_of_scores(np.array([[0.5, 0.0, 1.0], [0.5, 0.5, 0.0], [0.5, 0.0, 1.0]]))
    wa, wb = 2 / 3, 1 / 6
    (la, ua), (lb, ub) = wilson_interval(wa, 3), wilson_interval(wb, 3)
    d_lo = (wa - wb) - math.hypot(wa - la, ub - wb)
    assert b.value == pytest.approx(1 - (wa - wb))
    assert b.high == 1.0 and d_lo < 0  # the interval of the difference holds 0
    assert b.low == pytest.approx(max(0.0, 1 - ((wa - wb) + math.hypot(ua - wa, wb - lb))))


def test_share_intervals_stay_within_their_range() -> None:
    # Coverage near 1 in every game: a t interval would pass 1; it is cut there.
    n = 40
    cols = constructed(
        np.tile([1.0, -1.0], (n, 1)),
        coverage=np.array([1.0] * (n - 1) + [0.9]),
        lead_change=np.array([1.0] * (n - 1) + [0.5]),
        drama=np.array([0.0] * (n - 1) + [0.3]),
    )
    m = M.variant_metrics(cols, 2)
    for name in ("coverage", "lead_change"):
        assert 0.0 <= m[name].low <= m[name].value <= m[name].high <= 1.0, name
        assert m[name].high == 1.0
    assert m["drama"].low == 0.0 < m["drama"].high
    for name, metric in m.items():
        if name.startswith("seat_score") or name in ("balance", "completion", "drawishness"):
            assert 0.0 <= metric.low <= metric.high <= 1.0, name


def completed(cols: dict[str, Any]) -> dict[str, Any]:
    """``cols`` with every other column the core lists (:func:`columns_of`) zero."""
    n, players = np.shape(cols["returns"])
    out = dict(cols)
    for c in columns_of(sf.make("windflowers", players=players, **SMALL)):
        if c.name not in out:
            out[c.name] = np.zeros((n, c.width) if c.width > 1 else n, c.dtype)
    return out


def constructed(returns: np.ndarray, **cols: Any) -> dict[str, Any]:
    """Per-game columns of games with the given returns; every other fact zero unless given."""
    n, players = returns.shape
    base: dict[str, Any] = {
        "returns": returns,
        "ranks": np.ones((n, players)),
        "truncated": np.zeros(n, bool),
        "scores": None,
        "top_tied": np.zeros(n, bool),
        "length": np.ones(n, np.uint32),
        "turns": np.ones(n, np.uint32),
        "branching_sum": np.ones(n),
        "multi_choice": np.zeros(n, np.uint32),
        "coverage": np.zeros(n),
        "repeated": np.zeros(n, np.uint32),
        "lead_change": np.zeros(n),
        "drama": np.zeros(n),
        "decisiveness": np.zeros(n),
        "stability": np.zeros(n),
        "pie": np.full(n, -1, np.int8),
    }
    return completed({**base, **cols})


def balance_of_scores(w: np.ndarray) -> M.Metric:
    """The balance metric of games whose seat scores are ``w`` (games × seats)."""
    return M.variant_metrics(constructed(2 * w - 1), w.shape[1])["balance"]


def test_summary_percentiles_and_nan_values_match_numpy() -> None:
    rng = np.random.default_rng(5)
    for n in (1, 2, 3, 7, 10, 101, 1000):
        for high in (3, 50, 5_000_000):
            length = rng.integers(0, high, n).astype(np.uint32)
            turns = rng.integers(0, 3, n).astype(np.uint32)
            drama = rng.random(n)
            drama[rng.random(n) < 0.3] = np.nan
            m = M.variant_metrics(
                constructed(np.zeros((n, 2)), length=length, turns=turns, drama=drama), 2
            )
            want = np.percentile(length, [50, 10, 90])
            got = [m[f"length_{k}"].value for k in ("median", "p10", "p90")]
            assert got == want.tolist(), (n, high)
            want = np.percentile(turns, [50, 10, 90])
            assert [m[f"turns_{k}"].value for k in ("median", "p10", "p90")] == want.tolist()
            assert m["length_mean"].value == pytest.approx(length.mean(), rel=1e-12)
            kept = drama[~np.isnan(drama)]
            if kept.size:
                assert m["drama"].value == pytest.approx(kept.mean(), rel=1e-12)
                assert m["drama"].n == kept.size
                if kept.size > 1:
                    half = M.t_quantile(kept.size - 1) * kept.std(ddof=1) / kept.size**0.5
                    assert m["drama"].high - m["drama"].value == pytest.approx(half, rel=1e-9)
            else:
                assert math.isnan(m["drama"].value)


def test_summary_of_no_games_and_of_mismatched_columns() -> None:
    m = M.variant_metrics(constructed(np.zeros((0, 2))), 2)
    assert all(math.isnan(x.value) for x in m.values()), m
    cols = constructed(np.zeros((3, 2)))
    cols["drama"] = np.zeros(2)
    with pytest.raises(sf.RecordError, match="drama has 2 rows"):
        M.variant_metrics(cols, 2)
    with pytest.raises(ValueError, match="length"):
        _core.lab_summary({}, 2)


# ---------------------------------------------------------------------------------------------
# Runs


def columns(lab: Any) -> list[dict[str, list[Any]]]:
    return [
        {k: (None if v is None else v.tolist()) for k, v in lab.columns(i).items()}
        for i in range(len(lab.variants))
    ]


def test_same_seed_same_numbers_whatever_chunking_and_threads() -> None:
    args: dict[str, Any] = dict(
        vary={"size": [3, 4]}, agents=sf.MCTS(iterations=8), games=9, seed=3
    )
    a = sf.lab.evaluate("subsume", chunk=2, threads=1, **args)
    b = sf.lab.evaluate("subsume", chunk=9, threads=2, **args)
    assert columns(a) == columns(b)
    assert a.rows() == b.rows()
    # Search values drive the evaluation metrics: MCTS games differ from the heuristic.
    assert np.isfinite(a.columns(0)["lead_change"]).all()


@pytest.mark.parametrize(
    "game, options",
    [
        ("windflowers", {}),
        ("windflowers", {"players": 4, "grid": "hex", "size": 3, "scoring": "largest_group"}),
        ("smallholder", {}),
        ("faraday", {"order": 4, "scoring": "special"}),
        ("subsume", {"size": 4}),
    ],
)
def test_random_games_measured_in_play_equal_the_replayed_match(
    game: str, options: dict[str, Any]
) -> None:
    """Random agents take the one-pass path (facts gathered while playing); it must play the
    games ``play_games`` plays and report what replaying them reports, column for column."""
    g = sf.make(game, **options)
    n = g.num_players
    agents = [sf.RandomAgent(seed=1), sf.RandomAgent(seed=2)]
    seats = np.array([[(i + j) % 2 for j in range(n)] for i in range(300)], dtype=np.int64)
    facts = _core.lab_play(g, agents, seats, 11, 40, 2, 45)
    fused = facts.columns()
    played = _core.play_games(g, agents, seats, 11, first=40)
    again = _core.lab_stats(g, played["actions"], played["offsets"], first=40, keep=45)
    replayed = again.columns()
    for name, column in replayed.items():
        if column is None:
            assert fused[name] is None
        else:
            np.testing.assert_array_equal(fused[name], column, err_msg=name)
    np.testing.assert_array_equal(fused["returns"], played["returns"])
    # Kept: the games numbered below 45 (here 40..44) and any that repeats a position, with
    # their actions; the replay keeps the same ones.
    kept = facts.records()
    assert kept == again.records()
    repeats = [40 + g for g in np.flatnonzero(fused["repeated"]) if g >= 5]
    assert [r["index"] for r in kept] == [40, 41, 42, 43, 44, *repeats]
    for r in kept:
        g = r["index"] - 40
        lo, hi = played["offsets"][g], played["offsets"][g + 1]
        assert r["actions"] == played["actions"][lo:hi].tolist()
        assert r["values"] == [None] * (hi - lo)


def test_resume_truncated_line_and_mismatch(tmp_path: Any) -> None:
    out = str(tmp_path / "r.jsonl")
    args: dict[str, Any] = dict(
        vary={"players": [2, 3]}, fixed=SMALL, games=12, seed=5, chunk=4, kingmaking=2
    )
    full = sf.lab.evaluate("windflowers", **args)
    sf.lab.evaluate("windflowers", out=out, **args)
    with open(out) as f:
        lines = f.read().splitlines()
    # header + 6 chunks + king-making for the 3-player variant
    assert json.loads(lines[0])["format"] == "stonefield-lab/2"
    assert sum(json.loads(x).get("kind") == "games" for x in lines[1:]) == 6
    # Keep the header and two chunks, and half of a third line: an interrupted run.
    with open(out, "w") as f:
        f.write("\n".join(lines[:3]) + "\n" + lines[3][: len(lines[3]) // 2])
    with pytest.warns(RuntimeWarning, match="incomplete"):
        resumed = sf.lab.evaluate("windflowers", out=out, **args)
    assert columns(resumed) == columns(full)
    assert resumed.rows() == full.rows()
    # A rerun plays nothing and reads the same numbers.
    again = sf.lab.evaluate("windflowers", out=out, **args)
    assert again.rows() == full.rows()
    with pytest.raises(sf.InvalidOptionError, match="other arguments.*games: 12"):
        sf.lab.evaluate("windflowers", out=out, **{**args, "games": 13})
    # A file of an older lab (other column types) is refused, not misread.
    older = str(tmp_path / "old.jsonl")
    header = {**json.loads(lines[0]), "format": "stonefield-lab/1"}
    Path(older).write_text(json.dumps(header) + "\n")
    with pytest.raises(sf.RecordError, match="another version of the lab.*new file"):
        sf.lab.evaluate("windflowers", out=older, **args)


def test_branching_profile_by_hand() -> None:
    game = sf.make("windflowers", **SMALL)
    # Lengths 3 and 12. Tenth k holds decisions ⌈k L / 10⌉ to before ⌈(k + 1) L / 10⌉: the
    # short game's three fall in tenths 0, 3 and 6 (17 legal actions: 16 sites and the pass,
    # then 16: 15 empty sites, none to replace, and the pass); the long one has decisions in
    # every tenth, one legal action fewer after each stone placed.
    long_game = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, PASS, PASS]
    cols = stats_of(game, [[0, PASS, PASS], long_game])
    bins = cols["branching_bins"]
    assert bins.dtype == np.uint32 and bins.shape == (2, 10)
    assert bins[0].tolist() == [17, 0, 0, 16, 0, 0, 16, 0, 0, 0]
    counts = [17 - min(i, 10) for i in range(12)]
    # Decisions 0 and 1 in tenth 0, decision 2 in tenth 1, … (edges 0 2 3 4 5 6 8 9 10 11 12).
    assert bins[1].tolist() == [17 + 16, 15, 14, 13, 12, 11 + 10, 9, 8, 7, 7]
    assert int(bins[1].sum()) == sum(counts) == cols["branching_sum"][1]
    profile = M.branching_profile(cols)
    # Tenth 1 only the long game reaches: its decision 2 (15 legal actions).
    assert profile[1] == 15.0
    # Tenth 0: the short game's first decision (17) and the long game's decisions 0 and 1.
    assert profile[0] == pytest.approx((17 + (17 + 16) / 2) / 2)


def test_python_agents_and_their_errors(tmp_path: Any) -> None:
    class First:
        def act(self, state: Any) -> int:
            return int(state.legal_actions()[0])

    lab = sf.lab.evaluate("subsume", fixed={"size": 3}, agents=First(), games=3)
    assert lab.rows()[0]["games"] == 3

    class Breaks:
        starts = 0  # games begun, counted at their first move

        def act(self, state: Any) -> int:
            if state.move_count == 0:
                Breaks.starts += 1
                if Breaks.starts == 3:
                    raise RuntimeError("boom")
            return int(state.legal_actions()[0])

    out = str(tmp_path / "p.jsonl")
    with pytest.raises(
        sf.StonefieldError, match=r"variant size=3: agent Breaks raised in game 2.*boom"
    ):
        sf.lab.evaluate("subsume", vary={"size": [3]}, agents=Breaks(), games=4, chunk=1, out=out)
    with open(out) as f:
        kept = [json.loads(x) for x in f.read().splitlines()[1:]]
    assert [e["first"] for e in kept] == [0, 1]

    class Cheats:
        def act(self, state: Any) -> int:
            return 10**6

    with pytest.raises(sf.IllegalMoveError, match="agent Cheats played 1000000 in game 0"):
        sf.lab.evaluate("subsume", fixed={"size": 3}, agents=Cheats(), games=1)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"game": "chess"}, "unknown game"),
        ({"game": "subsume", "vary": {"size": []}}, "empty"),
        ({"game": "subsume", "vary": {"colour": ["red"]}}, "colour"),
        ({"game": "subsume", "vary": {"size": [99]}}, "size"),
        ({"game": "subsume", "games": 0}, "positive"),
        ({"game": "subsume", "games": -3}, "positive"),
        ({"game": "subsume", "agents": "alphazero"}, "alphazero"),
        ({"game": "subsume", "backend": "spark"}, "backend"),
    ],
)
def test_bad_input(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(sf.InvalidOptionError, match=match):
        sf.lab.evaluate(**{"games": 1, **kwargs})


def test_unknown_metric_and_study() -> None:
    lab = sf.lab.evaluate("subsume", fixed={"size": 3}, games=2)
    with pytest.raises(sf.InvalidOptionError, match="unknown metric 'fun'"):
        lab.table(["fun"])
    with pytest.raises(sf.InvalidOptionError, match="unknown study"):
        sf.lab.study("nope")


def test_unreachable_ray_address_fails_fast() -> None:
    started = time.monotonic()
    with pytest.raises(ConnectionError, match="no Ray cluster"):
        check_address("127.0.0.1:1", timeout=2.0)
    assert time.monotonic() - started < 10
    with pytest.raises(sf.InvalidOptionError, match="host:port"):
        check_address("nowhere")


# ---------------------------------------------------------------------------------------------
# Outputs


def test_outputs_and_report(tmp_path: Any) -> None:
    lab = sf.lab.evaluate(
        "windflowers", vary={"players": [2, 3]}, fixed=SMALL, games=10, seed=2, kingmaking=3
    )
    text = lab.table()
    assert "seat_score_0" in text and "players=3" in text and "kingmaking" in text
    verdicts = lab.kingmaking_games(1)
    assert [v["index"] for v in verdicts] == [0, 1, 2]
    # The sample's games are kept as records, each replaying to its game's length.
    kept = lab.records(1)
    assert [r["lab_game_index"] for r in kept] == [0, 1, 2]
    lengths = lab.columns(1)["length"]
    assert [sf.from_record(r).move_count for r in kept] == lengths[:3].tolist()
    assert all(isinstance(v["kingmade"], bool) for v in verdicts)
    lab.to_csv(str(tmp_path / "t.csv"))
    lab.to_json(str(tmp_path / "t.json"))
    data = json.loads((tmp_path / "t.json").read_text())
    assert [r["players"] for r in data["variants"]] == [2, 3]
    df = lab.to_pandas()
    assert list(df["players"]) == [2, 3] and "balance_low" in df.columns
    path = lab.report(str(tmp_path / "rep"))
    files = set(os.listdir(tmp_path / "rep"))
    assert {
        "report.md",
        "report.html",
        "seat_scores.png",
        "lengths.png",
        "branching.png",
        "lead_drama.png",
        "board_0.svg",
        "board_1.svg",
    } <= files
    html = (tmp_path / "rep" / "report.html").read_text()
    assert html.count("data:image/png;base64,") == 4
    assert html.count("data:image/svg+xml;base64,") == 2
    assert 'src="http' not in html and "seat_scores.png" not in html.replace(
        'alt="seat_scores.png"', ""
    )
    assert "![Seat scores](seat_scores.png)" in Path(path).read_text()


def test_cli(tmp_path: Any, capsys: Any) -> None:
    from stonefield.cli import main

    out = str(tmp_path / "c.jsonl")
    argv = [
        "lab",
        "windflowers",
        "--vary",
        "players=2,3",
        "--option",
        "grid=square",
        "--option",
        "size=3",
        "--agent",
        "random",
        "--games",
        "6",
        "--out",
        out,
        "--report",
        str(tmp_path / "rep"),
        "-q",
    ]
    assert main(argv) == 0
    captured = capsys.readouterr()
    printed = captured.out
    assert "players=2" in printed and "balance" in printed
    assert (tmp_path / "rep" / "report.html").exists()
    # It says where the HTML report is.
    assert str((tmp_path / "rep" / "report.html").resolve()) in captured.err
    assert main([*argv[:-7], "--games", "7", "--out", out, "-q"]) == 2
    assert "other arguments" in capsys.readouterr().err
    assert main(["lab", "study", "subsume-sizes", "--games", "2", "--iterations", "0", "-q"]) == 0
    with pytest.raises(SystemExit):
        main(["lab", "windflowers", "--vary", "players"])


def test_skill_gradient() -> None:
    lab = sf.lab.evaluate(
        "subsume", fixed={"size": 3}, agents=sf.MCTS(iterations=4), games=2, skill=6, seed=1
    )
    m = lab.metrics()[0]["skill"]
    assert m.n == 6 and 0.0 <= m.value <= 1.0


@pytest.mark.parametrize("name", sorted(sf.lab.STUDIES))
def test_studies_run_at_tiny_scale(name: str, tmp_path: Any) -> None:
    lab = sf.lab.study(name, games=2, iterations=0, report=str(tmp_path / name))
    assert all(r["games"] == 2 for r in lab.rows())
    text = (tmp_path / name / "report.md").read_text()
    # The report answers first: the question quoted, then the answer, then the deciding table.
    study = sf.lab.STUDIES[name]
    assert study.question and study.decide and study.brief().answer is not None
    lines = text.splitlines()
    assert lines[0] == f"# Study: {name}" and lines[2].startswith("> ")
    assert text.index("## Answer") < text.index("## The deciding metrics")
    # Every metric the report shows is defined in it, from the one list of definitions.
    assert text.index("## What the metrics are") < text.index("## Every metric")
    assert text.index("## The deciding metrics") < text.index("## Every metric")
    assert all(r["agents"] == "random:seed=0 in every seat" for r in lab.rows())


def test_answers_follow_the_numbers(tmp_path: Any) -> None:
    # A study answers from its own numbers, in a few short sentences: how many variants are
    # fair to the first seat, which are not, the range of lengths; the agents in the caveats.
    lab = sf.lab.study("subsume-sizes", games=12, iterations=0, seed=3)
    assert lab.brief is not None and lab.brief.answer is not None
    answer = lab.brief.answer(lab)
    text = " ".join(answer.sentences)
    assert len(answer.sentences) <= 4 and all(len(x) < 300 for x in answer.sentences)
    assert any("random:seed=3 in every seat" in c for c in answer.caveats)
    sides = [M.excludes(m["seat_score_0"], 0.5) for m in lab.metrics()]
    assert f"{sides.count(0)} of 4 variants are fair to the first seat" in text
    for v, side in zip(lab.plan.variants, sides):
        if side > 0:
            assert "first seat is ahead" in text and v.label in text
    lo = min(m["length_mean"].value for m in lab.metrics())
    assert f"{lo:.0f}" in text


def test_report_opens_with_the_answer_and_flags_intervals(tmp_path: Any) -> None:
    lab = sf.lab.study("subsume-asides", games=16, iterations=0, seed=1)
    path = lab.report(str(tmp_path / "r"))
    text = Path(path).read_text()
    files = set(os.listdir(tmp_path / "r"))
    # Two options vary: a heat map of the first deciding metric.
    assert "heatmap.png" in files and "![seat score 0 over the two options](heatmap.png)" in text
    assert "anti_blob=True, remove_surrounded=True (default)" in text
    # Flags: ▲ / ▼ exactly where a deciding interval excludes its reference.
    from stonefield.lab.report import flag, reference

    for v, m in zip(lab.plan.variants, lab.metrics()):
        for name in lab.brief.decide if lab.brief else ():
            mark = flag(m[name], reference(lab, name))
            if v.index == lab.default_variant() and name != "seat_score_0":
                continue
            if mark:
                assert f"{m[name]}{mark}" in text
    # The boards carry no squeezed caption of their own; the caption is printed beside them.
    board = (tmp_path / "r" / "board_0.svg").read_text()
    assert 'class="caption"' not in board
    assert "*anti_blob=True, remove_surrounded=True: game 0," in text
    html = (tmp_path / "r" / "report.html").read_text()
    assert "<blockquote>" in html and "<h2>Answer</h2>" in html
    assert "<table>" in html and "data:image/png;base64," in html
    # The full table is split into blocks of at most four variants, so it fits the page.
    every = text[text.index("## Every metric") : text.index("## Boards")]
    heads = [line for line in every.splitlines() if line.startswith("| metric |")]
    assert heads and all(line.count("|") - 2 <= 4 for line in heads)


def test_faraday_report_plots_the_pie(tmp_path: Any) -> None:
    lab = sf.lab.evaluate("faraday", vary={"order": [3, 4]}, games=8, seed=1)
    lab.report(str(tmp_path / "p"))
    assert "pie_swap.png" in os.listdir(tmp_path / "p")
    assert "heatmap.png" not in os.listdir(tmp_path / "p")


# ---------------------------------------------------------------------------------------------
# Ray


@pytest.fixture(scope="session")
def ray_session() -> Any:
    import ray

    # address="local": a Ray of its own, never one already running on the machine.
    ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        logging_level="ERROR",
    )
    yield ray
    ray.shutdown()


def test_ray_matches_local_and_resumes(ray_session: Any, tmp_path: Any) -> None:
    args: dict[str, Any] = dict(
        vary={"size": [3, 4]}, agents=sf.MCTS(iterations=6), games=6, seed=9, chunk=2
    )
    local = sf.lab.evaluate("subsume", **args)
    remote = sf.lab.evaluate("subsume", backend="ray", **args)
    assert columns(remote) == columns(local)
    assert remote.rows() == local.rows()

    out = str(tmp_path / "ray.jsonl")
    sf.lab.evaluate("subsume", backend="ray", out=out, **args)
    with open(out) as f:
        lines = f.read().splitlines()
    with open(out, "w") as f:
        f.write("\n".join(lines[: 1 + len(lines[1:]) // 2]) + "\n")
    resumed = sf.lab.evaluate("subsume", backend="ray", out=out, **args)
    assert columns(resumed) == columns(local)
    with open(out) as f:
        assert len(f.read().splitlines()) == len(lines)


def test_interrupt_keeps_finished_chunks(tmp_path: Any) -> None:
    out = str(tmp_path / "i.jsonl")
    args: dict[str, Any] = dict(fixed={"size": 3}, games=6, seed=4, chunk=2)

    def stop(done: int, total: int, seconds: float) -> None:
        if done >= 4:
            raise KeyboardInterrupt  # as Ctrl-C would, after the second chunk is written

    with pytest.raises(KeyboardInterrupt):
        sf.lab.evaluate("subsume", out=out, progress=stop, **args)
    with open(out) as f:
        assert [json.loads(x)["first"] for x in f.read().splitlines()[1:]] == [0, 2]
    resumed = sf.lab.evaluate("subsume", out=out, **args)
    assert columns(resumed) == columns(sf.lab.evaluate("subsume", **args))


def test_skill_trace_per_variant(tmp_path: Any) -> None:
    traces = sf.lab.skill_trace(
        "windflowers",
        vary={"grid": ["square", "trisquare"]},
        fixed={"size": 3},
        base_iterations=4,
        rungs=3,
        games=6,
        seed=2,
    )
    assert [t.label for t in traces] == ["grid=square", "grid=trisquare"]
    for t in traces:
        assert t.budgets == (4, 8, 16) and t.games == 6
        assert all(m.n == 6 and 0 <= m.low <= m.value <= m.high <= 1 for m in t.scores)
        assert t.area == pytest.approx(sum(2 * m.value - 1 for m in t.scores) / 3)
        assert t.label_of_rung(2) == "mcts:iterations=32 vs mcts:iterations=16"
    # Reproducible from the seed.
    again = sf.lab.skill_trace(
        "windflowers",
        fixed={"grid": "square", "size": 3},
        base_iterations=4,
        rungs=3,
        games=6,
        seed=2,
    )
    assert [m.value for m in again[0].scores] == [m.value for m in traces[0].scores]
    sf.lab.plot_skill_traces(traces, str(tmp_path / "skill.png"))
    assert (tmp_path / "skill.png").stat().st_size > 1000
    with pytest.raises(sf.InvalidOptionError, match="rungs"):
        sf.lab.skill_trace("subsume", rungs=0)


# ---------------------------------------------------------------------------------------------
# The columns' one owner, and the columns a game declares


def test_the_schema_is_the_columns_every_run_holds() -> None:
    for name in sf.games():
        game = sf.make(name)
        schema = columns_of(game)
        facts = _core.lab_play(game, [sf.RandomAgent()], np.zeros((3, 2), np.int64), 0, 0)
        cols = facts.columns()
        for c in schema:
            v = cols[c.name]
            if v is None:
                assert c.name == "scores"
                continue
            assert str(v.dtype) == c.dtype, c.name
            assert v.shape == ((3, c.width) if c.width > 1 else (3,)), c.name
        assert [c.name for c in schema] == list(cols) == list(facts.to_lists())
        assert [c.name for c in schema if c.name in facts] == [
            k for k, v in cols.items() if v is not None
        ]
        # Only Subsume declares columns of its own; each has its series (games × 10) after
        # them, and a game that declares nothing has no series either.
        finals = list(FINALS)
        declared = [c.name for c in schema if c.declared]
        assert declared == (finals + [f"{n}_series" for n in finals] if name == "subsume" else [])
        assert not any(c.name.endswith("_series") for c in schema if not c.declared)
        for c in schema:
            if c.name.endswith("_series"):
                final = next(f for f in schema if f.name == c.name.removesuffix("_series"))
                assert (c.dtype, c.width, c.low, c.high) == ("float64", 10, final.low, final.high)
                # The last tenth ends the game: the final column itself.
                np.testing.assert_array_equal(cols[c.name][:, 9], cols[final.name])


def test_declared_columns_become_metrics_and_older_files_still_read(tmp_path: Any) -> None:
    out = str(tmp_path / "s.jsonl")
    lab = sf.lab.evaluate("subsume", fixed={"size": 4}, games=30, out=out)
    m = lab.metrics()[0]
    groups = lab.columns(0)["groups_final"]
    assert m["groups_final"].value == pytest.approx(groups.mean())
    assert m["groups_final"].interval == "t" and m["groups_final"].n == 30
    share = lab.columns(0)["largest_group_share"]
    assert 0 < share.min() and share.max() <= 1
    # The interval of a share stays within [0, 1], as the column's range says.
    assert 0 <= m["largest_group_share"].low <= m["largest_group_share"].high <= 1
    assert "largest_group_share" in lab.table()
    # A results file written before the game declared columns: its chunks lack them. It reads,
    # every other metric is the same, and the declared ones are left out.
    older = str(tmp_path / "old.jsonl")
    with open(out) as f, open(older, "w") as g:
        for line in f:
            entry = json.loads(line)
            for name in ("groups_final", "groups_final_0", "groups_final_1"):
                entry.get("stats", {}).pop(name, None)
                entry.get("stats", {}).pop(f"{name}_series", None)
            if "stats" in entry:
                del entry["stats"]["largest_group_share"]
                del entry["stats"]["largest_group_share_series"]
            g.write(json.dumps(entry) + "\n")
    old = sf.lab.evaluate("subsume", fixed={"size": 4}, games=30, out=older).metrics()[0]
    assert "groups_final" not in old and "groups_final_series_0" not in old
    assert "largest_group_share_0_series_0" in old
    assert {k: repr((v.value, v.low, v.high)) for k, v in old.items()} == {
        k: repr((v.value, v.low, v.high)) for k, v in m.items() if k in old
    }
    # Written before the series: every declared column, none of the series.
    before = str(tmp_path / "before-series.jsonl")
    with open(out) as f, open(before, "w") as g:
        for line in f:
            entry = json.loads(line)
            for name in list(entry.get("stats", {})):
                if name.endswith("_series"):
                    del entry["stats"][name]
            g.write(json.dumps(entry) + "\n")
    lab = sf.lab.evaluate("subsume", fixed={"size": 4}, games=30, out=before)
    assert lab.columns(0)["groups_final_series"] is None
    old = lab.metrics()[0]
    assert not any("_series_" in k for k in old)
    assert {k: repr((v.value, v.low, v.high)) for k, v in old.items()} == {
        k: repr((v.value, v.low, v.high)) for k, v in m.items() if "_series_" not in k
    }


# ---------------------------------------------------------------------------------------------
# The series: a declared column at the end of each tenth of the game


def tenth_ends(length: int) -> list[int]:
    """The positions that end the tenths of a game of ``length`` actions: ⌈(k + 1) L / 10⌉."""
    return [math.ceil((k + 1) * length / 10) for k in range(10)]


def shape_facts(state: Any) -> list[float]:
    """Subsume's declared facts of a position, worked out here by a flood fill over the
    board's neighbours (stones kept inside a settled loop take no part): groups of either
    colour, of Red's, of Blue's, then the largest group's share of all, of Red's, of Blue's."""
    near = state.game.neighbors()
    board = np.asarray(state.board)
    in_play = (board > 0) & ~np.asarray(state.enclosed_stones())

    def groups(mask: np.ndarray) -> tuple[int, float]:
        seen = np.zeros_like(mask)
        sizes = []
        for start in np.flatnonzero(mask):
            if seen[start]:
                continue
            seen[start] = True
            todo, size = [int(start)], 0
            while todo:
                c = todo.pop()
                size += 1
                for d in near[c]:
                    if mask[d] and not seen[d]:
                        seen[d] = True
                        todo.append(int(d))
            sizes.append(size)
        stones = int(mask.sum())
        return len(sizes), (max(sizes) / stones if stones else 0.0)

    (n_all, s_all), (n_red, s_red), (n_blue, s_blue) = (
        groups(in_play),
        groups(in_play & (board == 1)),
        groups(in_play & (board == 2)),
    )
    return [n_all, n_red, n_blue, s_all, s_red, s_blue]


FINALS = (
    "groups_final",
    "groups_final_0",
    "groups_final_1",
    "largest_group_share",
    "largest_group_share_0",
    "largest_group_share_1",
)


@pytest.mark.parametrize(
    "options, agents",
    [
        ({"size": 3}, [sf.RandomAgent(seed=1), sf.RandomAgent(seed=2)]),
        ({"size": 4, "anti_blob": False}, [sf.RandomAgent(seed=3)]),
        ({"size": 4, "remove_surrounded": False}, [sf.RandomAgent(seed=5)]),
        ({"size": 3}, [sf.MCTS(iterations=6, seed=1)]),
    ],
)
def test_series_are_the_facts_where_the_tenths_end(
    options: dict[str, Any], agents: list[Any]
) -> None:
    """Each game's series, from the lab's driver (played and measured at once for random agents,
    replayed for searching ones) and from replaying its actions (``lab_stats``), equal the facts
    of the positions ⌈(k + 1) L / 10⌉ reached by the public API, counted here by hand."""
    g = sf.make("subsume", **options)
    games = 40 if isinstance(agents[0], sf.RandomAgent) else 6
    seats = np.array([[(i + j) % len(agents) for j in range(2)] for i in range(games)], np.int64)
    facts = _core.lab_play(g, agents, seats, 4, 0, 2, games)
    kept = facts.records()  # every game: all are numbered below `keep`
    assert [r["index"] for r in kept] == list(range(games))
    lengths = [len(r["actions"]) for r in kept]
    all_actions = np.array([a for r in kept for a in r["actions"]], np.uint32)
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    played = facts.columns()
    replayed = _core.lab_stats(g, all_actions, offsets).columns()
    short_tenths = 0
    for i in range(games):
        actions = all_actions[offsets[i] : offsets[i + 1]]
        state = g.new_state()
        at = [shape_facts(state)]
        for a in actions:
            state.apply(int(a))
            at.append(shape_facts(state))
        ends = tenth_ends(len(actions))
        short_tenths += len(set(ends)) < 10
        for j, name in enumerate(FINALS):
            want = [at[e][j] for e in ends]
            for cols in (played, replayed):
                np.testing.assert_allclose(cols[f"{name}_series"][i], want, rtol=1e-15)
                assert cols[f"{name}_series"][i, 9] == cols[name][i]
    # Both paths give the same numbers, bit for bit.
    for name in FINALS:
        np.testing.assert_array_equal(played[f"{name}_series"], replayed[f"{name}_series"])
    assert short_tenths == 0  # no Subsume game here is shorter than ten actions


def test_tenth_ends_of_short_games() -> None:
    # Fewer than ten actions: a tenth without a decision ends where the tenth before it ended
    # (``src/lab/mod.rs``; the Rust tests replay such games).
    assert tenth_ends(3) == [1, 1, 1, 2, 2, 2, 3, 3, 3, 3]
    assert tenth_ends(0) == [0] * 10
    assert tenth_ends(25) == [3, 5, 8, 10, 13, 15, 18, 20, 23, 25]


def test_series_metrics_sums_file_and_report(tmp_path: Any) -> None:
    """Each series gives ten metrics (per-tenth means, t intervals within the column's range),
    survives the results file unchanged, and is plotted in the report."""
    out = str(tmp_path / "s.jsonl")
    args: dict[str, Any] = dict(vary={"anti_blob": [True, False]}, fixed={"size": 4}, games=60)
    lab = sf.lab.evaluate("subsume", seed=2, out=out, **args)
    for v in (0, 1):
        cols = lab.columns(v)
        m = lab.metrics()[v]
        for name in FINALS:
            series = cols[f"{name}_series"]
            assert series.shape == (60, 10) and series.dtype == np.float64
            for k in range(10):
                metric = m[f"{name}_series_{k}"]
                want = M.mean(series[:, k])
                assert metric.value == pytest.approx(want.value, rel=1e-12)
                assert metric.n == 60 and metric.interval == "t"
                if name.startswith("largest_group_share"):
                    assert 0.0 <= metric.low <= metric.value <= metric.high <= 1.0
                else:
                    assert metric.low == pytest.approx(max(0.0, want.low), rel=1e-12)
            # The last tenth is the final column's metric, exactly.
            assert m[f"{name}_series_9"] == m[name]
        assert M.series_metrics(m, "groups_final_series") == [
            m[f"groups_final_series_{k}"] for k in range(10)
        ]
    # Read back from the file: the same columns and numbers.
    again = sf.lab.evaluate("subsume", seed=2, out=out, **args)
    for v in (0, 1):
        for name in FINALS:
            np.testing.assert_array_equal(
                again.columns(v)[f"{name}_series"], lab.columns(v)[f"{name}_series"]
            )
    assert again.rows() == lab.rows()
    path = lab.report(str(tmp_path / "rep"))
    text = Path(path).read_text()
    assert "series.png" in os.listdir(tmp_path / "rep")
    assert "](series.png)" in text and "random:seed=0 in every seat" in text
    assert "| groups_final_series_4 |" in text
    # A game that declares nothing has no series plot.
    plain = sf.lab.evaluate("windflowers", fixed=SMALL, games=6)
    plain.report(str(tmp_path / "w"))
    assert "series.png" not in os.listdir(tmp_path / "w")
    assert not any("_series" in k for k in plain.metrics()[0])


# ---------------------------------------------------------------------------------------------
# Facts: a chunk's per-game facts, held in Rust from play to sums

DATA = Path(__file__).parent.parent / "data"

FACT_GAMES: list[tuple[str, dict[str, Any]]] = [
    ("windflowers", {"players": 3, "grid": "square", "size": 3}),
    ("smallholder", {}),
    ("faraday", {"order": 3}),
    ("subsume", {"size": 4}),
]


def facts_of(name: str, options: dict[str, Any], first: int, count: int, **kw: Any) -> Any:
    g = sf.make(name, **options)
    seats = np.zeros((count, g.num_players), np.int64)
    agents = kw.pop("agents", [sf.RandomAgent()])
    return _core.lab_play(g, agents, seats, 7, first, 1, kw.pop("keep", 3))


def same_columns(a: Any, b: Any) -> None:
    ca, cb = a.columns(), b.columns()
    assert list(ca) == list(cb)
    for k in ca:
        if ca[k] is None or cb[k] is None:
            assert ca[k] is None and cb[k] is None, k
        else:
            assert ca[k].dtype == cb[k].dtype and ca[k].shape == cb[k].shape, k
            np.testing.assert_array_equal(ca[k], cb[k], err_msg=k)


@pytest.mark.parametrize(("name", "options"), FACT_GAMES)
def test_facts_pickle_and_join_in_game_order(name: str, options: dict[str, Any]) -> None:
    import pickle

    whole = facts_of(name, options, 0, 40)
    parts = [facts_of(name, options, a, b - a) for a, b in [(0, 9), (9, 10), (10, 40)]]
    game = whole.game
    joined = _core.Facts.concat(game, parts)
    same_columns(joined, whole)
    assert joined.records() == whole.records() and len(joined) == 40
    assert _core.Facts.concat(game, parts[:1]) is parts[0]
    assert len(_core.Facts.concat(game, [])) == 0
    # Pickles (as the Ray backend ships chunks) read back to the same facts.
    back = pickle.loads(pickle.dumps(joined))
    same_columns(back, joined)
    assert back.records() == joined.records()
    assert repr(back.summary()) == repr(joined.summary())
    # Facts of another variant or game do not join.
    other = facts_of(*FACT_GAMES[0 if name != "windflowers" else 3], 0, 2)
    if name == "subsume":
        other = facts_of(name, {"size": 5}, 0, 2)
    with pytest.raises(sf.RecordError, match="cannot join"):
        _core.Facts.concat(game, [whole, other])


def test_facts_of_searching_agents_keep_their_values() -> None:
    import pickle

    f = facts_of("subsume", {"size": 3}, 5, 4, agents=[sf.MCTS(iterations=4)], keep=7)
    records = f.records()
    assert [r["index"] for r in records][:2] == [5, 6]
    assert all(isinstance(v, float) for v in records[0]["values"])
    assert pickle.loads(pickle.dumps(f)).records() == records


@pytest.mark.parametrize(("name", "options"), FACT_GAMES)
def test_facts_summary_is_the_numpy_paths(name: str, options: dict[str, Any]) -> None:
    f = facts_of(name, options, 0, 200)
    g = f.game
    declared = [c.name for c in columns_of(g) if c.declared]
    old = _core.lab_summary(f.columns(), g.num_players, declared)
    assert repr(f.summary(declared)) == repr(old) == repr(f.summary())
    assert repr(M.variant_metrics(f, g.num_players)) == repr(
        M.variant_metrics(f.columns(), g.num_players)
    )
    with pytest.raises(sf.InvalidOptionError, match='declares no column "x"'):
        f.summary(["x"])


@pytest.mark.parametrize(("name", "options"), FACT_GAMES)
def test_facts_lists_and_views(name: str, options: dict[str, Any]) -> None:
    f = facts_of(name, options, 0, 25)
    schema = columns_of(f.game)
    lists = f.to_lists()
    back = _core.Facts.from_lists(f.game, json.loads(json.dumps(lists)))
    same_columns(back, f)
    for c in schema:
        view = f.column(c.name)
        if view is None:
            assert lists[c.name] is None and c.name not in f
            continue
        assert c.name in f
        assert str(view.dtype) == c.dtype
        assert view.tolist() == lists[c.name]
        np.testing.assert_array_equal(view, f.columns()[c.name])
    assert "kept" not in f
    with pytest.raises(sf.InvalidOptionError, match='unknown column "kept"; columns: length'):
        f.column("kept")


def test_facts_from_bad_lists_name_the_column() -> None:
    f = facts_of("subsume", {"size": 3}, 0, 4)
    lists = f.to_lists()
    with pytest.raises(sf.RecordError, match="stats lack the column turns"):
        _core.Facts.from_lists(f.game, {k: v for k, v in lists.items() if k != "turns"})
    with pytest.raises(sf.RecordError, match="stats column drama: 3 entries"):
        _core.Facts.from_lists(f.game, {**lists, "drama": [0.0, 0.0, 0.0]})
    with pytest.raises(sf.RecordError, match="stats column coverage"):
        _core.Facts.from_lists(f.game, {**lists, "coverage": ["a", "b", "c", "d"]})
    with pytest.raises(sf.RecordError, match="returns: 4 entries, one row of 2"):
        _core.Facts.from_lists(f.game, {**lists, "returns": [1.0, -1.0, 1.0, -1.0]})
    # A declared column an older file lacks is not held, and its sums are left out.
    older = _core.Facts.from_lists(f.game, {**lists, "groups_final": None})
    assert "groups_final" not in older and older.column("groups_final") is None
    assert [n for n, _ in older.summary()["game"]] == [
        n for n, _ in f.summary()["game"] if n != "groups_final"
    ]
    joined = _core.Facts.concat(f.game, [f, older])
    assert "groups_final" not in joined and "groups_final_0" in joined


def test_damaged_facts_pickles_raise_record_errors() -> None:
    f = facts_of("subsume", {"size": 3}, 0, 6, agents=[sf.MCTS(iterations=3)])
    data = f.to_bytes()
    rebuild, (game, _) = f.__reduce__()
    back = rebuild(game, data)
    same_columns(back, f)
    rng = np.random.default_rng(1)
    bad = [data[:cut] for cut in range(0, len(data), 7)] + [data + b"\0", b"", b"garbage"]
    for _ in range(300):
        flipped = bytearray(data)
        flipped[int(rng.integers(len(data)))] ^= int(rng.integers(1, 256))
        bad.append(bytes(flipped))
    refused = 0
    for blob in bad:
        try:
            rebuild(game, blob)  # a flip within a float may read; anything else must refuse
        except sf.RecordError as e:
            assert "damaged lab facts" in str(e)
            refused += 1
    assert refused >= len(bad) - 300
    with pytest.raises(sf.RecordError, match="version 7; this stonefield reads version 1"):
        rebuild(game, data[:4] + bytes([7, 0]) + data[6:])
    with pytest.raises(sf.RecordError, match="facts of 2 players, read for a game of 3"):
        rebuild(sf.make("windflowers", players=3), data)
    with pytest.raises(sf.RecordError, match="the data are not bytes"):
        rebuild(game, "text")
    with pytest.raises(sf.RecordError, match="the game is not a Game"):
        rebuild("subsume", data)


@pytest.mark.parametrize(
    ("file", "args"),
    [
        (
            "lab-v2-subsume.jsonl",
            dict(fixed={"size": 4}, agents=sf.MCTS(iterations=4), games=12, seed=2, chunk=5),
        ),
        (
            "lab-v2-windflowers.jsonl",
            dict(
                fixed={"players": 3, "grid": "square", "size": 3},
                games=12,
                seed=3,
                chunk=5,
                kingmaking=2,
            ),
        ),
    ],
)
def test_a_results_file_of_the_previous_code_reads_and_resumes(
    tmp_path: Any, file: str, args: dict[str, Any]
) -> None:
    """Files written before the facts stayed in Rust (the chunks' JSON lists of this format,
    and before the declared columns' series): they read to the same numbers, without the
    series, and a resumed one gets the lines the old code wrote, with the series added."""
    game = json.loads((DATA / file).read_text().splitlines()[0])["game"]
    fresh = sf.lab.evaluate(game, **args)
    path = tmp_path / file
    text = (DATA / file).read_text()
    path.write_text(text)
    old = sf.lab.evaluate(game, out=str(path), **args)
    assert path.read_text() == text  # nothing to play

    def unseries(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{k: v for k, v in row.items() if "_series" not in k} for row in rows]

    assert old.rows() == unseries(fresh.rows())
    assert unseries(columns(old)) == [
        {k: v for k, v in c.items() if not k.endswith("_series")} for c in columns(fresh)
    ]
    assert [old.records(v) for v in range(len(old.variants))] == [
        fresh.records(v) for v in range(len(fresh.variants))
    ]
    # Cut the last chunk: the resumed run writes it again, the old code's line with the
    # series added (the joined variant holds no series: its older chunks lack them).
    lines = text.splitlines(keepends=True)
    last = max(i for i, x in enumerate(lines) if json.loads(x).get("kind") == "games")
    path.write_text("".join(lines[:last] + lines[last + 1 :]))
    resumed = sf.lab.evaluate(game, out=str(path), **args)
    assert resumed.rows() == unseries(fresh.rows())
    again = json.loads(path.read_text().splitlines()[-1])
    again["stats"] = {k: v for k, v in again["stats"].items() if not k.endswith("_series")}
    assert again == json.loads(lines[last])
    # The lab's views: numpy columns equal to the facts it holds, made once.
    for v in range(len(resumed.variants)):
        facts = resumed.facts(v)
        assert resumed.columns(v) is resumed.columns(v)
        for name, view in resumed.columns(v).items():
            want = facts.column(name)
            if view is None:
                assert want is None
            else:
                np.testing.assert_array_equal(view, want)
