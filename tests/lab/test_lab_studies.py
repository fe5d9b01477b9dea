"""Studies at two strengths: the runs, the king-making null, perfect play, the report, the CLI."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import stonefield as sf
from stonefield.cli import main
from stonefield.lab import metrics as M
from stonefield.lab.study import change, perfect_play, results_path, seat_findings

SMALL = {"grid": "square", "size": 3}


class Lowest:
    """A deterministic agent: always the lowest legal action (no randomness at all)."""

    name = "lowest"

    def act(self, state: Any) -> int:
        return int(state.legal_actions()[0])


def test_null_procedure_finds_nothing_without_randomness() -> None:
    # Where no choice differs and the agents have no randomness, a replay cannot change the
    # winners: the null flags no game, whatever the real procedure finds.
    lab = sf.lab.evaluate(
        "windflowers", fixed={**SMALL, "players": 3}, agents=Lowest(), games=6, kingmaking=6
    )
    verdicts = lab.kingmaking_games(0)
    assert len(verdicts) == 6
    assert not any(v["null_kingmade"] for v in verdicts)
    m = lab.metrics()[0]
    assert m["kingmaking_null"].value == 0.0
    assert m["kingmaking_excess"].value == m["kingmaking"].value


def test_null_procedure_sees_the_noise_of_random_agents() -> None:
    # Random continuations change the winners by themselves: the null procedure flags some
    # games, and the excess is the paired difference of the two shares.
    lab = sf.lab.evaluate(
        "windflowers", fixed={**SMALL, "players": 3}, agents="random", games=40, kingmaking=40
    )
    m = lab.metrics()[0]
    assert m["kingmaking_null"].value > 0.0
    flags = [g["kingmade"] for g in lab.kingmaking_games(0)]
    null = [g["null_kingmade"] for g in lab.kingmaking_games(0)]
    assert m["kingmaking_excess"].value == pytest.approx(np.mean(flags) - np.mean(null))
    ex = m["kingmaking_excess"]
    assert -1.0 <= ex.low < ex.value < ex.high <= 1.0


def test_excess_interval_never_collapses() -> None:
    m = M.kingmaking_excess([False] * 100, [False] * 100)
    assert m.value == 0.0 and m.low < 0.0 < m.high
    # At 100 games the half-width is about 0.04 here: the study's ±0.1 holds.
    assert m.high - m.low < 0.2
    assert M.kingmaking_excess([], []).n == 0


def test_change_needs_both_intervals_apart() -> None:
    a = M.Metric(0.50, 0.45, 0.55, 400, "wilson")
    assert change(a, M.Metric(0.60, 0.55, 0.65, 400, "wilson")) == 1
    assert change(a, M.Metric(0.40, 0.35, 0.45, 400, "wilson")) == -1
    assert change(a, M.Metric(0.56, 0.51, 0.61, 400, "wilson")) == 0
    assert change(a, M.NAN_METRIC) == 0


def test_run_study_plays_every_strength_and_arm_and_resumes(tmp_path: Any) -> None:
    out = str(tmp_path / "out")
    run = sf.lab.run_study("windflowers-mirror", games=4, strengths=(3, 6), seed=2, out=out)
    assert sorted(run.labs) == [(3, "mirror"), (3, "self-play"), (6, "mirror"), (6, "self-play")]
    assert run.strengths == [3, 6] and run.arms == ["self-play", "mirror"]
    for (it, arm), lab in run.labs.items():
        assert os.path.exists(results_path(out, "windflowers-mirror", it, arm))
        assert f"iterations={it}," in lab.agents_label()
        assert ("mirror(" in lab.agents_label()) == (arm == "mirror")
    again = sf.lab.run_study("windflowers-mirror", games=4, strengths=(3, 6), seed=2, out=out)
    for key, lab in run.labs.items():
        assert again.labs[key].rows() == lab.rows()
    with pytest.raises(sf.InvalidOptionError, match="arms: self-play, mirror"):
        sf.lab.study("windflowers-mirror", games=2, iterations=2, arm="nope")
    with pytest.raises(sf.InvalidOptionError, match="no lab at"):
        run.lab(5)


def test_conclusions_hold_at_every_strength() -> None:
    run = sf.lab.run_study("subsume-sizes", games=24, strengths=(0, 4), seed=3)
    # Random agents (0) as the weaker strength keep it cheap; the findings logic is the same.
    sentences, _ = seat_findings(run)
    text = " ".join(sentences)
    labs = [run.lab(i) for i in run.strengths]
    for v in labs[0].plan.variants:
        sides = [lab.metrics()[v.index]["seat_score_0"] for lab in labs]
        above = all(m.low > 0.5 for m in sides)
        below = all(m.high < 0.5 for m in sides)
        mentioned = re.search(rf"(wins more often with [^.;]*\b{re.escape(v.label)}\b)", text)
        if above or below:
            assert mentioned, (v.label, text)
        elif mentioned:
            pytest.fail(f"{v.label} stated as a conclusion but not at every strength: {text}")


def test_perfect_play_is_the_solvers_and_is_kept(tmp_path: Any) -> None:
    study = sf.lab.STUDIES["smallholder-rulesets"]
    results = perfect_play(study, 10.0, str(tmp_path))
    by_ruleset = {r["options"]["ruleset"]: r["value"] for r in results}
    # The values the solver docs state for hex232323.
    assert by_ruleset == {
        "nibbler": 1,
        "gaps_original": -1,
        "offshore_gaps": -1,
        "stymie": -1,
        "hull_setbacks": 1,
    }
    nibbler = next(r for r in results if r["options"]["ruleset"] == "nibbler")
    assert sorted(nibbler["best"]) == sorted(
        sf.make("smallholder", board="hex232323").action_name(a) for a in (1, 7, 9)
    )
    cached = json.loads((tmp_path / "smallholder-rulesets-perfect.json").read_text())
    assert cached["results"] == results
    assert perfect_play(study, 10.0, str(tmp_path)) == results


@pytest.mark.slow  # kept out of the quick tier (tens of seconds)
def test_study_report_answers_first(tmp_path: Any) -> None:
    run = sf.lab.run_study(
        "smallholder-rulesets", games=4, strengths=(2, 4), seed=1, solve_time=5.0
    )
    path = run.report(str(tmp_path / "r"))
    text = Path(path).read_text()
    lines = text.splitlines()
    assert lines[0] == "# Study: smallholder-rulesets" and lines[2].startswith("> ")
    assert text.index("## Answer") < text.index("## The deciding metrics")
    assert "Perfect play on the small boards (the exact solver)" in text
    assert "## Perfect play on the small boards" in text
    assert "| board=hex232323, ruleset=nibbler | win |" in text
    # Every compact cell shows both strengths and an arrow.
    table = text[text.index("## The deciding metrics") : text.index("## At each strength")]
    rows = [r for r in table.splitlines() if r.startswith("| ruleset=")]
    assert len(rows) == 15 and all(" → " in r and re.search("[↑↓≈]", r) for r in rows)
    # Each strength's full report is beside it and linked.
    for sub in ("strong-2-self-play", "strong-4-self-play"):
        assert (tmp_path / "r" / sub / "report.md").exists()
        assert f"({sub}/report.md)" in text
    assert {"gradient.png", "report.html"} <= set(os.listdir(tmp_path / "r"))
    html = (tmp_path / "r" / "report.html").read_text()
    assert "<blockquote>" in html and "<h2>Answer</h2>" in html and "data:image/png" in html


@pytest.mark.slow  # kept out of the quick tier (tens of seconds)
def test_skill_traces_with_the_strong_preset(tmp_path: Any) -> None:
    run = sf.lab.run_study(
        "subsume-asides", games=2, strengths=(4, 8), skill_games=4, out=str(tmp_path)
    )
    assert len(run.traces) == 4
    assert all(t.preset == "strong" and t.budgets == (1, 2, 4, 8) for t in run.traces)
    assert "preset=strong" in run.traces[0].label_of_rung(0)
    path = run.report(str(tmp_path / "r"))
    assert "skill_traces.png" in Path(path).read_text()


@pytest.mark.slow  # kept out of the quick tier (tens of seconds)
def test_cli_runs_a_whole_study(tmp_path: Any, capsys: Any) -> None:
    out, rep = str(tmp_path / "o"), str(tmp_path / "r")
    argv = ["lab", "study", "subsume-sizes", "-n", "2", "--strengths", "2,3", "-q"]
    assert main([*argv, "--solve-time", "0", "--out", out, "--report", rep]) == 0
    captured = capsys.readouterr()
    assert "== subsume-sizes: 2 iterations" in captured.out
    assert "report: " in captured.err and "report.html" in captured.err
    assert sorted(os.listdir(out)) == [
        "subsume-sizes-2-self-play.jsonl",
        "subsume-sizes-3-self-play.jsonl",
    ]
    assert main(["lab", "study", "subsume-sizes", "--arm", "mirror"]) == 2
    assert "--arm needs --iterations" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["lab", "study", "subsume-sizes", "--strengths", "0,5"])


@pytest.mark.slow  # kept out of the quick tier (tens of seconds)
def test_asides_report_plots_the_series_and_reads_them(tmp_path: Any) -> None:
    """subsume-asides: the study report plots each declared series per variant and strength,
    and its answer says where, over the game, a variant's shape lies apart from the default's
    at every strength (each interval excluding the other's value)."""
    run = sf.lab.run_study("subsume-asides", games=40, strengths=(0, 1), seed=1)
    path = run.report(str(tmp_path / "r"))
    text = Path(path).read_text()
    assert "series.png" in os.listdir(tmp_path / "r")
    assert "## Over the game: the game's own measures at each tenth" in text
    # Each strength's own report has its plot too.
    assert "series.png" in os.listdir(tmp_path / "r" / "strong-1-self-play")
    answer = text[text.index("## Answer") : text.index("## The deciding metrics")]
    sentence = answer[answer.index("Over the game") :]
    labs = [run.lab(i) for i in run.strengths]
    default = labs[0].default_variant()
    assert default is not None
    # Without anti_blob each colour's largest group holds more of its stones in mid-game.
    claim = re.search(r"with anti_blob=False, remove_surrounded=True: ([^;]*;){0,2}[^;]*", sentence)
    assert claim and "largest_group_share_0 higher at" in sentence
    for k in range(10):
        name = f"largest_group_share_0_series_{k}"
        if f"largest_group_share_0 higher at {10 * (k + 1)}" in sentence:
            for lab in labs:
                a, b = lab.metrics()[2][name], lab.metrics()[default][name]
                assert a.low > b.value and b.high < a.value
