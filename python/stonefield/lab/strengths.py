"""A study at every strength and arm: :func:`run_study` and the :class:`StudyRun` it returns.

A study (:data:`~stonefield.lab.STUDIES`) is played at two strengths of the strong preset
(``MCTS(preset="strong")`` at a weaker and a ten times stronger budget) and, where it asks a
counterfactual question, by more than one arm (who sits where: for example a mirroring second
player against the strong agent in both seats). Each (strength, arm) is one lab run with its own
resumable results file. The study's report states a conclusion only when it holds at both
strengths, and says which way each deciding metric moves as play gets stronger (the skill
gradient).
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any

from .study_report import StudyRun

if TYPE_CHECKING:
    from .skill import SkillTrace
    from .studies import Study


#: The weaker strength a skill trace starts from when a study has none (random agents).
STRENGTHS_DEFAULT = 200


def results_path(directory: str, name: str, iterations: int, arm: str) -> str:
    """The results file of one (strength, arm) of a study inside ``directory``."""
    return os.path.join(directory, f"{name}-{iterations}-{arm}.jsonl")


def run_study(
    name: str,
    games: int | None = None,
    *,
    strengths: tuple[int, ...] | None = None,
    seed: int = 0,
    out: str | None = None,
    report: str | None = None,
    backend: str = "local",
    address: str | None = None,
    threads: int | None = None,
    solve_time: float | None = 0.0,
    skill_games: int = 0,
    progress: Any = False,
) -> StudyRun:
    """Runs a named study at every strength and arm.

    Args:
        name: One of :data:`~stonefield.lab.STUDIES`.
        games: Games per variant (default: the study's).
        strengths: Iterations of the strong preset at each strength (default: the study's).
        seed: The run's seed.
        out: A directory for the results files, one per strength and arm (resumable).
        report: A directory to write the report into.
        backend: As for :func:`~stonefield.lab.evaluate`.
        address: As for :func:`~stonefield.lab.evaluate`.
        threads: As for :func:`~stonefield.lab.evaluate`.
        solve_time: Seconds of the exact solver per small board of the study (0: none; None:
            the study's own budget, ``solve_seconds``).
        skill_games: Games a rung of a skill trace per variant (0: none).
        progress: As for :func:`~stonefield.lab.evaluate`.

    >>> run = run_study("subsume-sizes", games=2, strengths=(2, 4))
    >>> run.strengths, len(run.lab(4).rows())
    ([2, 4], 4)
    """
    from .studies import get_study, study

    s = get_study(name)
    levels = tuple(s.strengths if strengths is None else strengths) or (0,)
    if out is not None:
        os.makedirs(out, exist_ok=True)
    labs: dict[tuple[int, str], Any] = {}
    for iterations in levels:
        for arm in s.arms:
            labs[(iterations, arm.label)] = study(
                name,
                games,
                iterations=iterations,
                arm=arm.label,
                seed=seed,
                out=None if out is None else results_path(out, name, iterations, arm.label),
                backend=backend,
                address=address,
                threads=threads,
                progress=progress,
            )
    run = StudyRun(s, labs, seed)
    seconds = s.solve_seconds if solve_time is None else solve_time
    if seconds > 0 and s.solved:
        run.perfect = perfect_play(s, seconds, out)
    if skill_games > 0:
        run.traces = study_traces(s, skill_games, seed, threads, out, max(levels[0], 4))
    if report is not None:
        run.report(report)
    return run


def perfect_play(study: Study, seconds: float, out: str | None = None) -> list[dict[str, Any]]:
    """The exact solver on each of the study's small boards (``study.solved``), at most
    ``seconds`` each on one thread: the value for the first player (+1 win, 0 draw, −1 loss,
    None when not proven in time), the first actions that keep it, how many first actions were
    proven, nodes and seconds. With ``out``, the results are kept in
    ``out/<study>-perfect.json`` and read back on the next call with the same boards and
    budget."""
    from .._core import make, solve

    cache = None if out is None else os.path.join(out, f"{study.name}-perfect.json")
    key = {"boards": [dict(o) for o in study.solved], "seconds": seconds}
    if cache is not None and os.path.exists(cache):
        with open(cache, encoding="utf-8") as f:
            kept = json.load(f)
        if kept.get("key") == key:
            return list(kept["results"])
    results = []
    for options in study.solved:
        game = make(study.game, **options)
        r = solve(game.new_state(), time=seconds)
        outcomes = [int(x) for x in r.outcomes]
        proven = sum(1 for x in outcomes if x != r.NOT_PROVEN)
        results.append(
            {
                "options": dict(options),
                "value": None if r.stopped_by != "solved" or r.value is None else int(r.value),
                "best": [game.action_name(int(a)) for a in r.best]
                if r.stopped_by == "solved"
                else [],
                "proven": proven,
                "actions": len(outcomes),
                "nodes": int(r.nodes),
                "seconds": round(float(r.seconds), 1),
            }
        )
    if cache is not None:
        with open(cache, "w", encoding="utf-8") as f:
            json.dump({"key": key, "results": results}, f, indent=1)
    return results


def study_traces(
    study: Study,
    games: int,
    seed: int,
    threads: int | None = None,
    out: str | None = None,
    weaker: int | None = None,
) -> list[SkillTrace]:
    """Skill traces of the study's variants with the strong preset: four rungs from a quarter of
    the weaker strength (so that the last rung's stronger side plays at twice the weaker
    strength), ``games`` games a rung; ``weaker`` is that strength (default: the study's). With
    ``out``, kept in ``out/<study>-skill.json``."""
    from .metrics import Metric
    from .skill import SkillTrace, skill_trace

    if weaker is None:
        weaker = study.strengths[0] if study.strengths else STRENGTHS_DEFAULT
    base = max(1, weaker // 4)
    cache = None if out is None else os.path.join(out, f"{study.name}-skill.json")
    key = {"base": base, "games": games, "seed": seed, "vary": study.vary, "fixed": study.fixed}
    if cache is not None and os.path.exists(cache):
        with open(cache, encoding="utf-8") as f:
            kept = json.load(f)
        if kept.get("key") == key:
            return [
                SkillTrace(
                    t["label"],
                    t["options"],
                    tuple(t["budgets"]),
                    tuple(Metric(*m) for m in t["scores"]),
                    t["games"],
                    t["preset"],
                )
                for t in kept["traces"]
            ]
    traces = skill_trace(
        study.game,
        study.vary,
        study.fixed,
        base_iterations=base,
        rungs=4,
        games=games,
        seed=seed,
        threads=threads,
        preset="strong",
    )
    if cache is not None:
        with open(cache, "w", encoding="utf-8") as f:
            json.dump(
                {
                    "key": key,
                    "traces": [
                        {
                            "label": t.label,
                            "options": t.options,
                            "budgets": list(t.budgets),
                            "scores": [[m.value, m.low, m.high, m.n, m.interval] for m in t.scores],
                            "games": t.games,
                            "preset": t.preset,
                        }
                        for t in traces
                    ],
                },
                f,
                indent=1,
            )
    return traces


__all__ = ["StudyRun", "perfect_play", "results_path", "run_study", "study_traces"]
