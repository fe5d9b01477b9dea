"""Studies: a question put to the lab at two strengths, and the report that answers it.

A :class:`Study` is a grid (the arguments of :func:`~stonefield.lab.evaluate`), a question, the
metrics that decide it and the strengths to play it at: an agent (by default the strong preset,
``mcts:preset=strong``) given each strength's budget. Where a study asks a counterfactual
question it has more than one :class:`Arm` (who sits where). :func:`run_study` plays every
(strength, arm), each one lab run with its own resumable results file, and returns a
:class:`StudyRun`, whose report states a conclusion only when it holds at every strength and says
which way each deciding metric moves as play gets stronger.

The ready-made studies (:data:`STUDIES`) are in :mod:`stonefield.lab.studies`, one file each; a
designer's own question is a :class:`Study` of their own, run the same way::

    mine = sf.lab.Study("hex4-scoring", "windflowers",
                        vary={"scoring": ["stones", "largest_group"]},
                        fixed={"grid": "hex", "size": 4}, games=200,
                        question="Does largest-group scoring keep hex 4 fair?")
    sf.lab.run_study(mine, strengths=(100, 1000), report="hex4/")
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .._core import InvalidOptionError, RandomAgent, make, option_spec, solve
from ..agents import parse_agent
from . import metrics as M
from . import plots
from .columns import declared_columns, declared_series
from .lab import Lab, evaluate
from .metrics import Metric, excludes, short
from .plan import with_budget
from .report import (
    DEFAULT_DECIDE,
    FLAGS,
    HALF_REFERENCE,
    INTERVALS,
    Answer,
    Brief,
    LabView,
    answer_lines,
    caveat_lines,
    default_answer,
    definitions,
    heatmap,
    md_table,
    names_list,
    options_table,
    reference,
    write_page,
)
from .skill import SkillTrace, plot_skill_traces, skill_trace

#: The strengths of a study that names none: the agent's budget at each, weaker first.
STRENGTHS = (200, 2000)

#: The agent a study plays with unless it names its own (its budget set by each strength).
STRONG = "mcts:preset=strong"

#: The weaker strength a skill trace starts from when a study has none (random agents).
STRENGTHS_DEFAULT = 200

#: What a first-seat score's interval says, by :func:`~stonefield.lab.metrics.excludes`.
SIDE_WORDS = {1: "first seat ahead", -1: "second seat ahead", 0: "fair"}

#: Arrows of the skill gradient: the change from the weaker to the stronger strength.
UP, DOWN, SAME = "↑", "↓", "≈"


@dataclass(frozen=True)
class Arm:
    """Who sits where in a study: a label and a function from the strength's agent to the
    lab's ``agents`` argument. The default arm seats that agent in every seat."""

    label: str
    seats: Callable[[Any], Any]


def _self_play(agent: Any) -> Any:
    return agent


#: The one arm of most studies: the same agent in every seat.
SELF_PLAY = Arm("self-play", _self_play)


@dataclass(frozen=True)
class Study:
    """A question put to the lab: the arguments of :func:`stonefield.lab.evaluate` it runs, at
    each of its strengths and for each of its arms.

    Attributes:
        name: Its name (the report's title; the key of :data:`STUDIES` for a ready-made one).
        game: A game id.
        vary: Option → values; the variants are the cartesian product.
        fixed: Options every variant shares.
        games: Games a variant at each strength.
        strengths: The agent's budget at each strength (an MCTS's iterations, a PUCT's
            simulations), weaker first; empty for random agents.
        kingmaking: Games a variant judged for king-making (3–4 players).
        description: A line for listings.
        question: The question, quoted at the top of the report.
        decide: The metrics that decide it (default: the seats, draws, length, …).
        answer: Writes the answer of one strength from its lab (default:
            :func:`~stonefield.lab.report.default_answer`).
        arms: Who sits where (default: the strength's agent in every seat).
        solved: Two-player option sets small enough for the exact solver; the report sets their
            perfect-play values beside the agents' numbers.
        combined: Writes the answer from every strength and arm (default: the first-seat
            findings that hold at every strength, and the gradient).
        group_by: A varied option whose values are answered apart (a recommendation each).
        solve_seconds: The solver's budget per small board, on one thread.
        prefer_low: A metric the recommendation minimises among the variants fair at every
            strength (default: the recommendation maximises balance).
        agent: The agent string whose budget each strength sets (default: the strong preset).
    """

    name: str
    game: str
    vary: dict[str, list[Any]]
    fixed: dict[str, Any] = field(default_factory=dict)
    games: int = 100
    strengths: tuple[int, ...] = STRENGTHS
    kingmaking: int = 0
    description: str = ""
    question: str = ""
    decide: tuple[str, ...] = ()
    answer: Callable[[LabView], Answer] | None = None
    arms: tuple[Arm, ...] = (SELF_PLAY,)
    solved: tuple[dict[str, Any], ...] = ()
    combined: Callable[[StudyRun], Answer] | None = None
    group_by: str | None = None
    solve_seconds: float = 20.0
    prefer_low: str | None = None
    agent: str = STRONG

    @property
    def iterations(self) -> int:
        """The stronger strength's budget (0: random agents)."""
        return self.strengths[-1] if self.strengths else 0

    def brief(self) -> Brief:
        """The opening of a report of one of its labs."""
        return Brief(self.name, self.question, self.decide, self.answer or default_answer)

    def agent_at(self, budget: int, seed: int) -> Any:
        """The agent of one strength: :attr:`agent` with ``budget`` (random agents at 0)."""
        if budget == 0:
            return RandomAgent(seed=seed)
        return with_budget(parse_agent(self.agent), budget, seed=seed)

    def strength_label(self, budget: int) -> str:
        """ "strong 2000" (the strong preset at 2000 iterations), "mcts 500", "random"."""
        if budget == 0:
            return "random"
        if self.agent == STRONG:
            return f"strong {budget}"
        return f"{self.agent.partition(':')[0]} {budget}"


#: The ready-made studies by name (filled by :mod:`stonefield.lab.studies`, one file each).
STUDIES: dict[str, Study] = {}


def get_study(name: str | Study) -> Study:
    """A ready-made study by name (a :class:`Study` is returned as it is)."""
    if isinstance(name, Study):
        return name
    if name not in STUDIES:
        raise InvalidOptionError(f"unknown study {name!r}; studies: {', '.join(STUDIES)}")
    return STUDIES[name]


@dataclass
class StudyRun:
    """A study's labs, one per (strength, arm), weaker strength first.

    Attributes:
        study: The :class:`Study`.
        labs: (budget, arm label) → :class:`~stonefield.lab.Lab`.
        seed: The run's seed.
        perfect: The exact solver's results on the study's small boards (see
            :func:`perfect_play`), empty until asked for.
        traces: Skill traces of the study's variants (see :func:`~stonefield.lab.skill_trace`),
            empty until asked for.
    """

    study: Study
    labs: dict[tuple[int, str], Lab]
    seed: int
    perfect: list[dict[str, Any]] = field(default_factory=list)
    traces: list[SkillTrace] = field(default_factory=list)

    @property
    def strengths(self) -> list[int]:
        """The budget of each strength, weaker first."""
        return sorted({k for k, _ in self.labs})

    @property
    def arms(self) -> list[str]:
        """The arm labels, in the study's order."""
        return [a.label for a in self.study.arms if any(arm == a.label for _, arm in self.labs)]

    def lab(self, iterations: int, arm: str | None = None) -> Lab:
        """The lab of one strength and arm (default: the study's first arm)."""
        key = (iterations, arm if arm is not None else self.study.arms[0].label)
        if key not in self.labs:
            raise InvalidOptionError(
                f"no lab at {key}; labs: {', '.join(str(k) for k in sorted(self.labs))}"
            )
        return self.labs[key]

    def label(self, iterations: int) -> str:
        """A strength's name in the report ("strong 2000")."""
        return self.study.strength_label(iterations)

    def report(self, directory: str) -> str:
        """Writes the study's report (report.md, report.html, plots) and each lab's own full
        report in a subdirectory; returns the path of report.md."""
        return write_study_report(self, directory)


def study(
    name: str | Study,
    games: int | None = None,
    *,
    iterations: int | None = None,
    arm: str | None = None,
    seed: int = 0,
    out: str | None = None,
    report: str | None = None,
    backend: str = "local",
    address: str | None = None,
    threads: int | None = None,
    progress: Any = False,
) -> Lab:
    """Runs a study at one strength and for one arm; returns its :class:`~stonefield.lab.Lab`
    (:func:`run_study` runs every strength and arm).

    Args:
        name: One of :data:`STUDIES`, or a :class:`Study`.
        games: Games per variant (default: the study's).
        iterations: The agent's budget (default: the study's stronger strength; 0 = random
            agents).
        arm: Who sits where (default: the study's first arm, for most studies the agent in
            every seat).
        seed: The run's seed.
        out: The results file (resumable).
        report: A directory to write the report into.
        backend: As for :func:`~stonefield.lab.evaluate`.
        address: As for :func:`~stonefield.lab.evaluate`.
        threads: As for :func:`~stonefield.lab.evaluate`.
        progress: As for :func:`~stonefield.lab.evaluate`.

    >>> lab = study("subsume-sizes", games=4, iterations=0)
    >>> len(lab.rows())
    4
    """
    s = get_study(name)
    arms = {a.label: a for a in s.arms}
    if arm is not None and arm not in arms:
        raise InvalidOptionError(f"study {s.name!r} has no arm {arm!r}; arms: {', '.join(arms)}")
    chosen = arms[arm] if arm is not None else s.arms[0]
    iters = s.iterations if iterations is None else iterations
    if isinstance(iters, bool) or not isinstance(iters, int) or iters < 0:
        raise InvalidOptionError(f"iterations must be an integer ≥ 0, got {iters!r}")
    lab = evaluate(
        s.game,
        vary=s.vary,
        fixed=s.fixed,
        agents=chosen.seats(s.agent_at(iters, seed)),
        games=s.games if games is None else games,
        seed=seed,
        backend=backend,
        address=address,
        out=out,
        threads=threads,
        kingmaking=s.kingmaking,
        progress=progress,
    )
    lab.brief = s.brief()
    if report is not None:
        lab.report(report)
    return lab


def results_path(directory: str, name: str, iterations: int, arm: str) -> str:
    """The results file of one (strength, arm) of a study inside ``directory``."""
    return os.path.join(directory, f"{name}-{iterations}-{arm}.jsonl")


def run_study(
    name: str | Study,
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
    """Runs a study at every strength and arm.

    Args:
        name: One of :data:`STUDIES`, or a :class:`Study` of one's own.
        games: Games per variant (default: the study's).
        strengths: The agent's budget at each strength (default: the study's).
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
    s = get_study(name)
    levels = tuple(s.strengths if strengths is None else strengths) or (0,)
    seconds = s.solve_seconds if solve_time is None else solve_time
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not seconds >= 0:
        raise InvalidOptionError(f"solve_time must be a number of seconds ≥ 0, got {seconds!r}")
    if out is not None:
        os.makedirs(out, exist_ok=True)
    labs: dict[tuple[int, str], Lab] = {}
    for iterations in levels:
        for arm in s.arms:
            labs[(iterations, arm.label)] = study(
                s,
                games,
                iterations=iterations,
                arm=arm.label,
                seed=seed,
                out=None if out is None else results_path(out, s.name, iterations, arm.label),
                backend=backend,
                address=address,
                threads=threads,
                progress=progress,
            )
    run = StudyRun(s, labs, seed)
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


# ---------------------------------------------------------------------------------------------
# The study's report


def change(weak: M.Metric, strong: M.Metric) -> int:
    """+1 when a metric rises from the weaker to the stronger strength by more than its two
    95 % intervals allow (the half-widths added in quadrature), −1 when it falls, 0 otherwise.

    >>> change(M.Metric(0.5, 0.45, 0.55, 400, "wilson"), M.Metric(0.6, 0.55, 0.65, 400, "wilson"))
    1
    >>> change(M.Metric(0.5, 0.45, 0.55, 400, "wilson"), M.Metric(0.55, 0.5, 0.6, 400, "wilson"))
    0
    """
    if math.isnan(weak.value) or math.isnan(strong.value):
        return 0
    half = math.hypot((weak.high - weak.low) / 2, (strong.high - strong.low) / 2)
    d = strong.value - weak.value
    if d > half:
        return 1
    if d < -half:
        return -1
    return 0


def arrow(weak: M.Metric, strong: M.Metric) -> str:
    """The gradient's arrow (see :func:`change`)."""
    return {1: UP, -1: DOWN, 0: SAME}[change(weak, strong)]


def reference_variant(lab: Lab, index: int, key: str | None) -> int | None:
    """The variant a metric of variant ``index`` is compared with: the one whose varied options
    take the game's defaults, except ``key`` (the study's group), which stays ``index``'s own.
    None when the grid has no such variant."""
    if key is None or key not in lab.plan.vary:
        return lab.default_variant()
    spec = {o["name"]: o["default"] for o in option_spec(lab.plan.game)}
    own = lab.plan.variants[index].varied[key]
    for v in lab.plan.variants:
        if v.varied[key] == own and all(spec.get(k) == x for k, x in v.varied.items() if k != key):
            return v.index
    return None


def _flag(lab: Lab, name: str, m: M.Metric, variant: int, key: str | None = None) -> str:
    if m.interval == "none" or math.isnan(m.value):
        return ""
    if name in HALF_REFERENCE or name.startswith("seat_score_"):
        ref: float | None = 0.5
    else:
        base = reference_variant(lab, variant, key)
        if base is None or base == variant:
            return ""
        other = lab.metrics()[base].get(name)
        ref = None if other is None or math.isnan(other.value) else other.value
    if ref is None:
        return ""
    side = excludes(m, ref)
    return "▲" if side > 0 else "▼" if side < 0 else ""


def _groups(lab: Lab, key: str | None) -> list[tuple[str, list[int]]]:
    """Variants grouped by the values of option ``key`` (each group answered apart), or one
    group."""
    if key is None or key not in lab.plan.vary:
        return [("", [v.index for v in lab.plan.variants])]
    out: dict[str, list[int]] = {}
    for v in lab.plan.variants:
        out.setdefault(f"{key}={v.options[key]}", []).append(v.index)
    return list(out.items())


def _label(lab: Lab, index: int, key: str | None) -> str:
    v = lab.plan.variants[index]
    rest = {k: x for k, x in v.varied.items() if k != key}
    return ", ".join(f"{k}={x}" for k, x in rest.items()) or v.label


def seat_findings(run: StudyRun, arm: str | None = None) -> tuple[list[str], str | None]:
    """What the first-seat score says at every strength: the statements that hold at all of
    them, those that change, the gradient, and a recommendation (the variant fair at every
    strength with the highest lowest balance, only when some variant is unfair somewhere)."""
    levels = run.strengths
    labs = [run.lab(i, arm) for i in levels]
    first = labs[0]
    sentences: list[str] = []
    picks: list[str] = []
    key = run.study.group_by
    for group, indices in _groups(first, key):
        sides = {
            i: [excludes(lab.metrics()[i].get("seat_score_0", M.NAN_METRIC), 0.5) for lab in labs]
            for i in indices
        }
        above = [i for i in indices if all(s > 0 for s in sides[i])]
        below = [i for i in indices if all(s < 0 for s in sides[i])]
        fair = [i for i in indices if all(s == 0 for s in sides[i])]
        moving = [i for i in indices if i not in above + below + fair]
        prefix = f"{group}: " if group else ""

        def vals(i: int) -> str:
            return " → ".join(short(lab.metrics()[i]["seat_score_0"]) for lab in labs)

        names = {i: _label(first, i, key) for i in indices}
        parts = [
            f"{len(fair)} of {len(indices)} variants are fair to the first seat at every strength"
        ]
        if above:
            parts.append(
                f"the first seat wins more often with {names_list([names[i] for i in above])}"
            )
        if below:
            parts.append(
                f"the second seat wins more often with {names_list([names[i] for i in below])}"
            )
        sentences.append(prefix + "; ".join(parts) + ".")
        if moving:
            sentences.append(
                f"{prefix}the verdict changes with strength for "
                f"{names_list([names[i] for i in moving])}."
            )
        unfair = len(fair) < len(indices)

        def low_balance(i: int) -> float:
            return min(lab.metrics()[i].get("balance", M.NAN_METRIC).value for lab in labs)

        prefer = run.study.prefer_low
        if fair and prefer is not None:

            def worst(i: int, name: str = prefer) -> float:
                return max(lab.metrics()[i].get(name, M.NAN_METRIC).value for lab in labs)

            best = min(fair, key=lambda i: (worst(i), -low_balance(i)))
            shares = " → ".join(short(lab.metrics()[best][prefer]) for lab in labs)
            picks.append(
                prefix
                + f"{_label(first, best, key)} (first seat {vals(best)}, {prefer} {shares}): fair "
                f"at every strength, and of those the lowest {prefer}"
            )
        elif fair and unfair:
            best = max(fair, key=low_balance)
            picks.append(
                prefix
                + f"{_label(first, best, key)} (first seat {vals(best)}): fair at every strength, "
                "and of those the highest balance"
            )
    recommendation = ("; ".join(picks) + ".") if picks else None
    return sentences, recommendation


def gradient_findings(run: StudyRun, names: Sequence[str], arm: str | None = None) -> list[str]:
    """Which way each deciding metric moves from the weaker to the stronger strength: how many
    variants rise, fall, or stay within their intervals."""
    levels = run.strengths
    if len(levels) < 2:
        return []
    weak, strong = run.lab(levels[0], arm), run.lab(levels[-1], arm)
    out = []
    for name in names:
        pairs = [
            (v, weak.metrics()[v.index][name], strong.metrics()[v.index][name])
            for v in weak.plan.variants
            if name in weak.metrics()[v.index] and name in strong.metrics()[v.index]
        ]
        if not pairs:
            continue
        ups = [v.label for v, a, b in pairs if change(a, b) > 0]
        downs = [v.label for v, a, b in pairs if change(a, b) < 0]
        words = [f"rises with {names_list(ups, 3)}"] if ups else []
        words += [f"falls with {names_list(downs, 3)}"] if downs else []
        if words:
            out.append(f"{name.replace('_', ' ')} {' and '.join(words)}")
    span = f"{run.label(levels[0])} → {run.label(levels[-1])}"
    if not out:
        return [f"No deciding metric moves beyond its intervals from {span}."]
    return [f"As play gets stronger ({span}): " + "; ".join(out) + "."]


def compact_table(run: StudyRun, names: Sequence[str]) -> list[str]:
    """Markdown rows: per arm and variant, each metric weaker → stronger with flags and the
    gradient's arrow."""
    levels = run.strengths
    labs0 = run.lab(levels[0], run.arms[0])
    names = [n for n in names if any(n in m for m in labs0.metrics())]
    multi = len(run.arms) > 1
    key = run.study.group_by
    head = "| " + ("arm | " if multi else "") + "variant | games | " + " | ".join(names) + " |"
    lines = [head, "|" + "---|" * (len(names) + 2 + multi)]
    for arm in run.arms:
        labs = [run.lab(i, arm) for i in levels]
        for v in labs[0].plan.variants:
            games = "/".join(
                str(lab.metrics()[v.index].get("completion", M.NAN_METRIC).n) for lab in labs
            )
            cells = []
            for n in names:
                ms = [lab.metrics()[v.index].get(n, M.NAN_METRIC) for lab in labs]
                text = " → ".join(
                    short(m) + _flag(lab, n, m, v.index, key) for m, lab in zip(ms, labs)
                )
                if len(ms) > 1:
                    text += " " + arrow(ms[0], ms[-1])
                cells.append(text)
            is_ref = v.index == reference_variant(labs[0], v.index, key)
            label = v.label + (" (reference)" if is_ref else "")
            lines.append(
                "| "
                + (f"{arm} | " if multi else "")
                + f"{label} | {games} | "
                + " | ".join(cells)
                + " |"
            )
    return lines


def perfect_findings(run: StudyRun) -> list[str]:
    """The solver's verdicts on the study's small boards, counted by value (the boards are in
    the report's table)."""
    if not run.perfect:
        return []
    words = {1: "the first player wins", 0: "a draw", -1: "the second player wins"}
    counts: dict[str, int] = {}
    for r in run.perfect:
        value = "not proven in the budget" if r["value"] is None else words[r["value"]]
        counts[value] = counts.get(value, 0) + 1
    parts = [f"{value} on {n} of {len(run.perfect)} boards" for value, n in counts.items()]
    return ["Perfect play on the small boards (the exact solver): " + "; ".join(parts) + "."]


def perfect_table(run: StudyRun) -> list[str]:
    """The solver's results on the small boards, with the agents' first-seat score at each
    strength where the study played the same board."""
    if not run.perfect:
        return []
    words = {1: "win", 0: "draw", -1: "loss"}
    md = [
        "## Perfect play on the small boards",
        "",
        "| board | value for the first player | first actions keeping it | the agents' first "
        "seat | proven | nodes | seconds |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in run.perfect:
        opts = ", ".join(f"{k}={v}" for k, v in r["options"].items())
        agents = []
        for it in run.strengths:
            lab = run.lab(it)
            for v, m in zip(lab.plan.variants, lab.metrics()):
                same = all(v.options.get(k) == x for k, x in r["options"].items())
                if same and "seat_score_0" in m:
                    agents.append(f"{short(m['seat_score_0'])} at {run.label(it)}")
        value = "not proven" if r["value"] is None else words[r["value"]]
        best = ", ".join(r["best"]) if r["best"] else "–"
        md.append(
            f"| {opts} | {value} | {best} | {', '.join(agents) or '–'} | {r['proven']} of "
            f"{r['actions']} | {r['nodes']} | {r['seconds']} |"
        )
    return md + [""]


def _lines(run: StudyRun, name: str) -> list[tuple[str, list[Metric]]]:
    """Per arm and variant (short labels): metric ``name`` at each strength."""
    first = run.lab(run.strengths[0])
    labels, _ = plots.short_labels([v.varied for v in first.plan.variants], first.plan.game)
    out = []
    for arm in run.arms:
        labs = [run.lab(i, arm) for i in run.strengths]
        for label, v in zip(labels, labs[0].plan.variants):
            ms = [lab.metrics()[v.index].get(name, M.NAN_METRIC) for lab in labs]
            out.append((label if len(run.arms) == 1 else f"{arm}: {label}", ms))
    return out


def study_plots(run: StudyRun, directory: str, decide: Sequence[str]) -> list[tuple[str, str]]:
    """Draws a study's plots into ``directory``: (file, caption) of each."""
    levels = run.strengths
    strongest = run.lab(levels[-1])
    _, options = plots.short_labels([v.varied for v in strongest.plan.variants])
    out: list[tuple[str, str]] = []

    def path(name: str) -> str:
        return os.path.join(directory, name)

    if decide and len(levels) > 1:
        name = decide[0]
        ref = reference(strongest, name)
        plots.plot_gradient(
            [run.label(i) for i in levels],
            _lines(run, name),
            path("gradient.png"),
            axis=f"{name.replace('_', ' ')} (95 %)",
            ref=0.5 if ref == 0.5 else None,
            legend_title=options,
        )
        out.append(("gradient.png", f"Skill gradient: {name.replace('_', ' ')} at each strength"))
    if run.traces:
        plot_skill_traces(run.traces, path("skill_traces.png"))
        out.append(("skill_traces.png", "Skill traces: does twice the budget keep winning?"))
    if decide and heatmap(strongest, decide[0], path("heatmap.png")):
        out.append(
            (
                "heatmap.png",
                f"{decide[0].replace('_', ' ')} over the two options at {run.label(levels[-1])}",
            )
        )
    if any("pie_swap" in m for m in strongest.metrics()):
        labels, _ = plots.short_labels([v.varied for v in strongest.plan.variants])
        plots.plot_bars(
            labels,
            [
                (run.label(i), [m.get("pie_swap", M.NAN_METRIC) for m in run.lab(i).metrics()])
                for i in levels
            ],
            path("pie_swap.png"),
            axis="share of games where player 1 swaps (95 %)",
            options=options,
            ref=0.5,
        )
        out.append(("pie_swap.png", "Pie: how often player 1 swaps, at each strength"))
    if _series_strengths(run, path("series.png")):
        out.append(("series.png", "Over the game: the game's own measures at each tenth"))
    return out


def _series_strengths(run: StudyRun, path: str) -> bool:
    """The series the game declares, one panel each: one colour per variant (and arm), one
    line style per strength (solid the strongest). False when the game declares none."""
    levels = run.strengths
    first = run.lab(levels[0])
    series = tuple(
        c
        for c in declared_series(first.plan.variants[0].game)
        if any(M.series_names(c.name)[0] in m for m in run.lab(levels[-1]).metrics())
    )
    if not series:
        return False
    styles = [("--", ":", "-.")[k % 3] for k in range(len(levels) - 1)] + ["-"]
    lines: dict[str, list[plots.SeriesLine]] = {c.name: [] for c in series}
    colour = 0
    for name, _ in _lines(run, "seat_score_0"):
        arm = name.partition(": ")[0] if len(run.arms) > 1 else None
        index = colour % len(first.plan.variants)
        for it, style in zip(levels, styles):
            m = run.lab(it, arm).metrics()[index]
            for c in series:
                lines[c.name].append(
                    (
                        f"{name}, {run.label(it)}",
                        M.series_metrics(m, c.name),
                        style,
                        f"C{colour % 10}",
                    )
                )
        colour += 1
    plots.plot_series_panels(series, lines, path)
    return True


def _slug(run: StudyRun, iterations: int, arm: str) -> str:
    return f"{run.label(iterations).replace(' ', '-')}-{re.sub(r'[^a-z0-9]+', '-', arm.lower())}"


def study_answer(run: StudyRun, decide: Sequence[str]) -> Answer:
    """The study's answer from every strength and arm: its own (``combined``), or the
    first-seat findings that hold at every strength; then the gradient and the solver."""
    s = run.study
    levels = run.strengths
    if s.combined is not None:
        answer = s.combined(run)
    elif "seat_score_0" in decide and len(levels) > 1:
        found, recommendation = seat_findings(run)
        answer = Answer(tuple(found), recommendation)
    else:
        answer = (s.answer or default_answer)(run.lab(levels[-1]))
    sentences = [*answer.sentences, *gradient_findings(run, decide), *perfect_findings(run)]
    caveats = list(answer.caveats)
    if len(levels) > 1:
        caveats.insert(
            0,
            "A verdict is stated only when it holds at every strength ("
            + ", ".join(run.label(i) for i in levels)
            + "); a stronger agent may still change it.",
        )
    games = min(len(lab.facts(v.index)) for lab in run.labs.values() for v in lab.plan.variants)
    caveats.append(
        f"{games} games a variant at each strength: a difference inside the intervals is not"
        " a finding."
    )
    caveats.append(
        "The agents' random streams depend on the position, so variants that change no legal "
        "move still play other games; they differ by chance alone."
    )
    return Answer(tuple(sentences), answer.recommendation, tuple(caveats))


def write_study_report(run: StudyRun, directory: str) -> str:
    """Writes the study's report.md and report.html, its plots, and each lab's full report in
    a subdirectory; returns the path of report.md."""
    os.makedirs(directory, exist_ok=True)
    s = run.study
    levels = run.strengths
    strongest = run.lab(levels[-1])
    decide = [n for n in (s.decide or DEFAULT_DECIDE) if any(n in m for m in strongest.metrics())]
    subs = []
    for it in levels:
        for arm in run.arms:
            sub = _slug(run, it, arm)
            run.lab(it, arm).report(os.path.join(directory, sub))
            subs.append((it, arm, sub))
    answer = study_answer(run, decide)
    plan = strongest.plan
    md = [f"# Study: {s.name}", ""]
    md += answer_lines(s.question, answer, none_supported=len(levels) > 1 and s.combined is None)
    md += ["## The deciding metrics", ""]
    md += [
        f"{plan.games} games a variant, seed {plan.seed}, fixed options {plan.fixed or 'none'}, "
        "played by:",
        "",
        *[f"- {run.label(it)}, {arm}: {run.lab(it, arm).agents_label()}" for it, arm, _ in subs],
        "",
    ]
    if len(levels) > 1:
        md += [
            "Each cell is the weaker → the stronger strength; ↑ / ↓: the change is larger than "
            "the two intervals allow, ≈ otherwise. "
            + FLAGS.replace("default variant", "reference variant"),
            "",
        ]
    else:
        md += [FLAGS, ""]
    md += compact_table(run, decide) + [""]
    md += ["## At each strength", ""]
    for it, arm, sub in subs:
        lab = run.lab(it, arm)
        one = (s.answer or default_answer)(lab)
        md += [f"### {run.label(it)}, {arm}", ""]
        md += [f"- {x}" for x in one.sentences] + [""]
        md += md_table(lab, decide) + [
            "",
            f"Every metric, the plots and the boards: [{sub}/report.md]({sub}/report.md).",
            "",
        ]
    md += caveat_lines(answer.caveats)
    md += options_table(s.game, list(s.vary))
    md += perfect_table(run)
    declared = declared_columns(strongest.plan.variants[0].game)
    md += ["## What the metrics are", "", INTERVALS, ""]
    md += definitions(decide, declared) + [""]
    for name, caption in study_plots(run, directory, decide):
        md += [f"## {caption}", "", f"![{caption}]({name})", ""]
    return write_page(md, directory, f"Study: {s.name}")


__all__ = [
    "SELF_PLAY",
    "STRENGTHS",
    "STUDIES",
    "Arm",
    "Study",
    "StudyRun",
    "arrow",
    "change",
    "compact_table",
    "get_study",
    "perfect_play",
    "results_path",
    "run_study",
    "seat_findings",
    "study",
    "study_traces",
    "write_study_report",
]
