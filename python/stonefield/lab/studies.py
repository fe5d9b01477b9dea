"""Ready-made studies: the designers' open questions as lab runs.

Each study is a grid, a number of games per variant, two strengths of the strong preset
(``MCTS(preset="strong")`` at a budget and ten times that budget) and one or more arms (who sits
where). :func:`study` runs one strength and arm and returns its lab;
:func:`~stonefield.lab.run_study` runs them all and writes the study's report, which states a
conclusion only when it holds at both strengths.

* ``smallholder-rulesets``: the five named rulesets on hex232323 (solved), hex4 and hex5.
* ``windflowers-scoring``: scoring × tie-break × ``last_placer_breaks_ties`` for 2, 3 and 4
  players (square grid, size 3).
* ``windflowers-kingmaking``: king-making with 3 and 4 players, judged on 300 games a
  variant, against the null procedure (the same replays where no choice differs).
* ``windflowers-mirror``: mirror play by the second player on the boards symmetric through
  their centre, against the strong agent in both seats.
* ``windflowers-cycles``: a hunt for repeated positions on the smallest boards of each grid,
  2–4 players, many random games (every repeated-position game is kept as a record).
* ``faraday-pie``: pie choices and seat balance on each grid (order 4), with and without the
  surplus-charge variant, with either offer rule (``min_offer_stones`` 0 or 1).
* ``subsume-sizes``: balance and length over sizes 4 to 7.
* ``subsume-asides``: the designer's two asides, ``anti_blob`` and ``remove_surrounded``, each
  off, against the default (size 5).

Each study carries its question (the designer's words where there are some), the metrics that
decide it, and a function that writes the answer from the run's numbers (:class:`Brief`): the
report opens with them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .._core import MCTS, InvalidOptionError, RandomAgent
from . import metrics as M
from .brief import Answer, Brief, excludes, fmt, seat_balance_answer, short

if TYPE_CHECKING:
    from ._view import LabView as Lab


#: (answer paragraph, recommendation or None) from a whole :class:`~stonefield.lab.StudyRun`:
#: every strength and arm.
CombinedAnswer = Callable[[Any], "tuple[str, str | None]"]

#: The strong preset's iterations at a study's two strengths, unless the study names its own.
STRENGTHS = (200, 2000)


@dataclass(frozen=True)
class Arm:
    """Who sits where in a study: a label and a function from the strength's agent (the strong
    preset at that strength) to the lab's ``agents`` argument. The default arm seats that
    agent in every seat."""

    label: str
    seats: Callable[[Any], Any]


#: The one arm of most studies: the same agent in every seat.
SELF_PLAY = Arm("self-play", lambda agent: agent)


@dataclass(frozen=True)
class Study:
    """A named study: the arguments of :func:`stonefield.lab.evaluate` it runs, at each of its
    strengths and for each of its arms.

    Attributes:
        strengths: Iterations of the strong preset (``MCTS(preset="strong")``) at each
            strength, weaker first; empty for random agents.
        arms: Who sits where (default: the strength's agent in every seat).
        solved: Two-player option sets small enough for the exact solver; the report sets their
            perfect-play values beside the agents' numbers.
        combined: Writes the answer from every strength and arm (default: the first-seat
            findings that hold at every strength, see :mod:`stonefield.lab.study_report`).
        group_by: A varied option whose values are answered apart (a recommendation each).
        solve_seconds: The solver's budget per small board, on one thread.
        prefer_low: A metric the recommendation minimises among the variants fair at every
            strength (default: the recommendation maximises balance).
    """

    name: str
    game: str
    vary: dict[str, list[Any]]
    fixed: dict[str, Any]
    games: int
    strengths: tuple[int, ...] = STRENGTHS
    kingmaking: int = 0
    description: str = ""
    question: str = ""
    decide: tuple[str, ...] = ()
    answer: Answer | None = None
    arms: tuple[Arm, ...] = (SELF_PLAY,)
    solved: tuple[dict[str, Any], ...] = ()
    combined: CombinedAnswer | None = None
    group_by: str | None = None
    solve_seconds: float = 20.0
    prefer_low: str | None = None

    @property
    def iterations(self) -> int:
        """The stronger strength's iterations (0: random agents)."""
        return self.strengths[-1] if self.strengths else 0

    def brief(self) -> Brief:
        """The report's opening for this study."""
        return Brief(self.name, self.question, self.decide, self.answer)


def _span(lab: Lab, name: str) -> tuple[float, float]:
    """The smallest and largest value of a metric over the variants."""
    vals = [m[name].value for m in lab.metrics() if name in m]
    return (min(vals), max(vals)) if vals else (float("nan"), float("nan"))


def _rulesets_answer(lab: Lab) -> tuple[str, str | None]:
    answer, recommendation = seat_balance_answer(lab)
    lo, hi = _span(lab, "drawishness")
    t_lo, t_hi = _span(lab, "truncation")
    answer += (
        f" Draws: {lo:.0%}–{hi:.0%} of games; truncated by the move cap: {t_lo:.0%}–{t_hi:.0%}."
    )
    return answer, recommendation


def _scoring_answer(lab: Lab) -> tuple[str, str | None]:
    ms = lab.metrics()
    parts, picks = [], []
    for players in sorted({v.options["players"] for v in lab.plan.variants}):
        rows = [(v, ms[v.index]) for v in lab.plan.variants if v.options["players"] == players]
        fair = [(v, m) for v, m in rows if excludes(m.get("seat_score_0", M.NAN_METRIC), 0.5) == 0]
        pool = fair or rows
        best = min(pool, key=lambda r: r[1].get("drawishness", M.NAN_METRIC).value)
        d_lo = min(m["drawishness"].value for _, m in rows)
        d_hi = max(m["drawishness"].value for _, m in rows)
        label = ", ".join(f"{k}={v}" for k, v in best[0].varied.items() if k != "players")
        parts.append(
            f"{players} players: draws range {d_lo:.0%}–{d_hi:.0%} over the combinations; "
            f"{len(fair)} of {len(rows)} give the first seat a fair score (½ within its "
            f"interval); the fewest draws {'among them' if fair else 'overall'}: {label} "
            f"({fmt(best[1]['drawishness'])} drawn, first seat {fmt(best[1]['seat_score_0'])})"
        )
        if fair:
            picks.append(f"{players} players: {label}")
    answer = f"At {lab.agents_label()}: " + "; ".join(parts) + "."
    recommendation = (
        "The fair combination with the fewest draws, per player count: " + "; ".join(picks) + "."
        if picks
        else None
    )
    return answer, recommendation


def _cycles_answer(lab: Lab) -> tuple[str, str | None]:
    ms = lab.metrics()
    games = sum(m["repeated_games"].n for m in ms if "repeated_games" in m)
    repeated = sum(
        int(round(m["repeated_games"].value * m["repeated_games"].n))
        for m in ms
        if "repeated_games" in m
    )
    truncated = sum(
        int(round(m["truncation"].value * m["truncation"].n)) for m in ms if "truncation" in m
    )
    answer = (
        "No game can cycle: every replacement lowers the number of same-owner neighbour pairs "
        "and every placement adds a stone that is never removed, so a game has at most "
        "players × (sites + capture pairs + 1) actions (the proof is in docs/games/"
        f"windflowers.md). The exact state graph agrees where it could be finished: two-player "
        "trisquare 3 has 28,599,513 positions and no cycle, its longest game is 66 actions and "
        "its value a draw (docs/solved/graphs.md; `stonefield solve windflowers --option "
        "grid=trisquare --option size=3 --graph`). This run: "
        f"{games} random games, {repeated} with a repeated position, "
        f"{truncated} cut short by the move cap."
    )
    if repeated:
        answer += " A repeated position contradicts the proof: its records are listed below."
    return answer, None


def _pie_answer(lab: Lab) -> tuple[str, str | None]:
    answer, recommendation = seat_balance_answer(lab)
    lo, hi = _span(lab, "pie_swap")
    ms = lab.metrics()
    even = [
        v.label
        for v, m in zip(lab.plan.variants, ms)
        if excludes(m.get("pie_swap", M.NAN_METRIC), 0.5) == 0
    ]
    answer += (
        f" Player 1 swaps in {lo:.0%}–{hi:.0%} of games; the swap share holds ½ for "
        f"{len(even)} of {len(ms)} variants (an offer that leaves the choice even is what the "
        "pie aims at)."
    )
    return answer, recommendation


def _mirror_answer(lab: Lab) -> tuple[str, str | None]:
    ms = lab.metrics()
    parts = []
    for v, m in zip(lab.plan.variants, ms):
        s1 = m.get("seat_score_1", M.NAN_METRIC)
        side = excludes(s1, 0.5)
        verdict = "above ½" if side > 0 else "below ½" if side < 0 else "holds ½"
        parts.append(f"{v.label}: the second seat scores {fmt(s1)} ({verdict})")
    return f"At {lab.agents_label()}: " + "; ".join(parts) + ".", None


def _kingmaking_answer(lab: Lab) -> tuple[str, str | None]:
    ms = lab.metrics()
    parts = []
    for v, m in zip(lab.plan.variants, ms):
        km, null = m.get("kingmaking", M.NAN_METRIC), m.get("kingmaking_null", M.NAN_METRIC)
        ex = m.get("kingmaking_excess", M.NAN_METRIC)
        real = excludes(ex, 0.0) > 0
        parts.append(
            f"{v.label}: king-made {fmt(km)} of {km.n} games, the null {fmt(null)}, the excess "
            f"{fmt(ex)} ({'real king-making' if real else 'not told apart from noise'})"
        )
    return f"At {lab.agents_label()}: " + "; ".join(parts) + ".", None


def _at(levels: list[int]) -> str:
    return " and ".join(f"{i:,}" for i in levels) + " iterations of the strong preset"


def _mirror_combined(run: Any) -> tuple[str, str | None]:
    levels = run.strengths
    mirror = [run.lab(i, "mirror") for i in levels]
    base = [run.lab(i, "self-play") for i in levels]
    wins: list[str] = []
    holds: list[str] = []
    loses: list[str] = []
    moving: list[str] = []
    gains: list[str] = []
    win_rules: set[Any] = set()
    hold_rules: set[Any] = set()
    for v in mirror[0].plan.variants:
        ms = [lab.metrics()[v.index].get("seat_score_1", M.NAN_METRIC) for lab in mirror]
        bs = [lab.metrics()[v.index].get("seat_score_1", M.NAN_METRIC) for lab in base]
        draws = [lab.metrics()[v.index].get("drawishness", M.NAN_METRIC) for lab in mirror]
        sides = [excludes(m, 0.5) for m in ms]
        text = (
            f"{v.label} (the mirror scores {' → '.join(fmt(m) for m in ms)}, "
            f"{' → '.join(f'{d.value:.0%}' for d in draws)} drawn; the strong second player "
            f"{' → '.join(fmt(b) for b in bs)})"
        )
        if all(x > 0 for x in sides):
            wins.append(text)
            win_rules.add(v.varied.get("last_placer_breaks_ties"))
        elif all(x == 0 for x in sides):
            holds.append(text)
            hold_rules.add(v.varied.get("last_placer_breaks_ties"))
        elif all(x < 0 for x in sides):
            loses.append(text)
        else:
            moving.append(text)
        if all(m.low > b.high for m, b in zip(ms, bs)):
            gains.append(v.label)
    parts = [f"At {_at(levels)} for the first player and the mirror's fallback"]
    if wins:
        parts.append("the mirroring second player wins at every strength on " + "; ".join(wins))
    if holds:
        parts.append("it holds ½ at every strength on " + "; ".join(holds))
    if loses:
        parts.append("it scores below ½ at every strength on " + "; ".join(loses))
    if moving:
        parts.append("it depends on the strength on " + "; ".join(moving))
    if gains:
        parts.append(
            "mirroring scores more than the strong second player at every strength on "
            + ", ".join(gains)
        )
    answer = "; ".join(parts) + "."
    recommendation = None
    if wins or holds:
        recommendation = (
            "The designer's remark stands on these boards: strong first-player play did not "
            "break the symmetry at either strength, so the mirror "
            + (
                "wins wherever the last placer breaks ties and holds ½ wherever it does not"
                if win_rules == {True} and hold_rules == {False}
                else "holds its own"
            )
            + ". A first player needs a way to break or avoid the symmetry, which the strong "
            "search, not modelling a copying opponent, does not find."
        )
    return answer, recommendation


#: Game-specific per-game metrics of the final position, when the game declares them (Subsume:
#: groups of either colour and of each, the largest group's share of the stones).
SHAPE = (
    "groups_final",
    "largest_group_share",
    "groups_final_0",
    "groups_final_1",
    "largest_group_share_0",
    "largest_group_share_1",
)


#: The declared columns whose series (the value at the end of each tenth of the game) the
#: asides' answer reads: the designer's "two big blobs growing" is a shape over the game.
SHAPE_SERIES = ("groups_final", "largest_group_share_0", "largest_group_share_1")


def _series_findings(labs: list[Lab], variant: int, default: int) -> str:
    """Where a variant's series lie apart from the default's in the same direction at every
    strength (both intervals excluding the other's value), per series: from which point of the
    game, and the values there ("" when no series differs, or the game declares none)."""
    found = []
    for base in SHAPE_SERIES:
        names = M.series_names(f"{base}_series")
        if not all(names[0] in lab.metrics()[variant] for lab in labs):
            continue
        sides = []
        for name in names:
            per = []
            for lab in labs:
                a = lab.metrics()[variant].get(name, M.NAN_METRIC)
                b = lab.metrics()[default].get(name, M.NAN_METRIC)
                apart = excludes(a, b.value) != 0 and excludes(b, a.value) != 0
                per.append(0 if not apart else (1 if a.value > b.value else -1))
            sides.append(per[0] if all(x == per[0] for x in per) else 0)
        for sign, word in ((1, "higher"), (-1, "lower")):
            tenths = [k for k, x in enumerate(sides) if x == sign]
            if not tenths:
                continue
            k = tenths[0]
            vals = "; ".join(
                f"{short(lab.metrics()[variant][names[k]])} against "
                f"{short(lab.metrics()[default][names[k]])}"
                for lab in labs
            )
            found.append(f"{base} {word} at {_progress(tenths)} of the game ({vals} at {k + 1}0 %)")
    return "; ".join(found)


def _progress(tenths: list[int]) -> str:
    """Tenths as the points of the game where they end, runs joined: [1, 2, 3, 7] gives
    "20–40 % and 80 %".

    >>> _progress([1, 2, 3, 7]), _progress([9])
    ('20–40 % and 80 %', '100 %')
    """
    runs: list[list[int]] = []
    for k in tenths:
        if runs and runs[-1][-1] == k - 1:
            runs[-1].append(k)
        else:
            runs.append([k])
    words = [
        f"{10 * (r[0] + 1)}–{10 * (r[-1] + 1)} %" if len(r) > 1 else f"{10 * (r[0] + 1)} %"
        for r in runs
    ]
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else words[0]


def _series_sentence(labs: list[Lab], default: int) -> str:
    """The asides' line on the shape over the game (empty when no series differs)."""
    parts = []
    for v in labs[0].plan.variants:
        if v.index == default:
            continue
        found = _series_findings(labs, v.index, default)
        if found:
            parts.append(f"with {v.label}: {found}")
    if not parts:
        return ""
    return (
        " Over the game (the means at the end of each tenth of the game, which show whether "
        "each colour grows into one large group), against the default"
        + (" at every strength" if len(labs) > 1 else "")
        + ": "
        + "; ".join(parts)
        + "."
    )


def _asides_combined(run: Any) -> tuple[str, str | None]:
    levels = run.strengths
    labs = [run.lab(i) for i in levels]
    default = labs[0].default_variant()
    if default is None:
        return _asides_answer(labs[-1])
    names = [
        n
        for n in ("seat_score_0", "length_mean", "decisiveness", "drawishness", *SHAPE)
        if any(n in m for m in labs[0].metrics())
    ]
    parts = []
    for v in labs[0].plan.variants:
        if v.index == default:
            continue
        held = []
        some = []
        for name in names:
            sides = []
            for lab in labs:
                a = lab.metrics()[v.index].get(name, M.NAN_METRIC)
                b = lab.metrics()[default].get(name, M.NAN_METRIC)
                apart = excludes(a, b.value) != 0 and excludes(b, a.value) != 0
                sides.append(0 if not apart else (1 if a.value > b.value else -1))
            vals = "; ".join(
                f"{short(lab.metrics()[v.index][name])} against "
                f"{short(lab.metrics()[default][name])}"
                for lab in labs
            )
            if sides and all(x == sides[0] != 0 for x in sides):
                held.append(f"{name} {'higher' if sides[0] > 0 else 'lower'} ({vals})")
            elif any(sides):
                at = ", ".join(
                    f"{'higher' if x > 0 else 'lower'} at {levels[k]:,}"
                    for k, x in enumerate(sides)
                    if x
                )
                some.append(f"{name} {at} only ({vals})")
        text = f"with {v.label}: " + (
            "; ".join(held) if held else "no deciding metric differs at every strength"
        )
        if some:
            text += " (at one strength only: " + "; ".join(some) + ")"
        parts.append(text)
    answer = (
        f"At {_at(levels)}, against the default, what differs at every strength: "
        + "; ".join(parts)
        + ". By stonefield's reading, remove_surrounded=false changes no legal move and no "
        "result (the kept stones take no part; a test plays both side by side), so its rows "
        "can differ from those with removal only by chance: the kept stones change the board "
        "that the search mixes into its random seeds, so the same agents play other games."
    )
    return answer + _series_sentence(labs, default), None


def _kingmaking_combined(run: Any) -> tuple[str, str | None]:
    levels = run.strengths
    labs = [run.lab(i) for i in levels]
    real: list[str] = []
    noise: list[str] = []
    for v in labs[0].plan.variants:
        exs = [lab.metrics()[v.index].get("kingmaking_excess", M.NAN_METRIC) for lab in labs]
        kms = [lab.metrics()[v.index].get("kingmaking", M.NAN_METRIC) for lab in labs]
        nulls = [lab.metrics()[v.index].get("kingmaking_null", M.NAN_METRIC) for lab in labs]
        text = (
            f"{v.label}: king-made {' → '.join(fmt(m) for m in kms)}, the null "
            f"{' → '.join(fmt(m) for m in nulls)}, the excess {' → '.join(fmt(m) for m in exs)}"
        )
        (real if all(excludes(m, 0.0) > 0 for m in exs) else noise).append(text)
    judged = min(labs[0].plan.kingmaking, labs[0].plan.games)
    parts = [f"At {_at(levels)}, over {judged} judged games a variant"]
    if real:
        parts.append("real king-making (the excess above 0 at every strength): " + "; ".join(real))
    if noise:
        parts.append("not told apart from noise at every strength: " + "; ".join(noise))
    return "; ".join(parts) + ".", None


def _sizes_answer(lab: Lab) -> tuple[str, str | None]:
    answer, recommendation = seat_balance_answer(lab)
    lo, hi = _span(lab, "length_mean")
    answer += f" Games last {lo:.0f}–{hi:.0f} actions on average."
    return answer, recommendation


def _asides_answer(lab: Lab) -> tuple[str, str | None]:
    ms = lab.metrics()
    default = lab.default_variant()
    if default is None:
        return seat_balance_answer(lab)
    ref = ms[default]
    parts = []
    for v in lab.plan.variants:
        if v.index == default:
            continue
        m = ms[v.index]
        changes = []
        for name in ("seat_score_0", "length_mean", "decisiveness", "drawishness"):
            a, b = m.get(name, M.NAN_METRIC), ref.get(name, M.NAN_METRIC)
            if excludes(a, b.value) != 0 and excludes(b, a.value) != 0:
                changes.append(f"{name} {fmt(a)} against {fmt(b)}")
        parts.append(
            f"with {v.label}: "
            + ("; ".join(changes) if changes else "no deciding metric differs from the default")
        )
    answer = (
        f"At {lab.agents_label()}, against the default: "
        + "; ".join(parts)
        + ". By stonefield's reading, remove_surrounded=false changes no legal move and no result"
        " (the kept stones take no part; a test plays both side by side), so its rows can differ"
        " from those with removal only by chance: the kept stones change the board that MCTS "
        "mixes into its random seeds, so the same agents play other games."
    )
    return answer + _series_sentence([lab], default), None


def _mirror_seats(agent: Any) -> Any:
    from ..strategies import MirrorAgent

    return [agent, MirrorAgent(agent)]


STUDIES: dict[str, Study] = {
    s.name: s
    for s in (
        Study(
            "smallholder-rulesets",
            "smallholder",
            {
                "ruleset": [
                    "nibbler",
                    "gaps_original",
                    "offshore_gaps",
                    "stymie",
                    "hull_setbacks",
                ],
                "board": ["hex232323", "hex4", "hex5"],
            },
            {},
            400,
            description="The five named rulesets on hex232323 (solved), hex4 and hex5.",
            question=(
                'The designer keeps the rule options "so that players can assess on their own '
                'the value of these changes". Which named ruleset gives the fairest game on '
                "hex4 and hex5?"
            ),
            decide=("seat_score_0", "balance", "drawishness", "truncation", "length_mean"),
            answer=_rulesets_answer,
            group_by="board",
            solved=tuple(
                {"board": "hex232323", "ruleset": r}
                for r in ("nibbler", "gaps_original", "offshore_gaps", "stymie", "hull_setbacks")
            ),
        ),
        Study(
            "windflowers-scoring",
            "windflowers",
            {
                "players": [2, 3, 4],
                "scoring": ["stones", "largest_group"],
                "tiebreak": ["underdog", "cascade"],
                "last_placer_breaks_ties": [False, True],
            },
            {"grid": "square", "size": 3},
            400,
            description="Scoring × tie-break × last placer breaks ties, 2–4 players.",
            question=(
                '"The best scoring and tiebreaker combination needs to be resolved." Which '
                "combination of scoring, tie-break and last_placer_breaks_ties gives fair, "
                "decisive games with 2, 3 and 4 players?"
            ),
            decide=("seat_score_0", "drawishness", "tiebreak_unresolved", "balance"),
            answer=_scoring_answer,
            group_by="players",
            prefer_low="drawishness",
            solved=tuple(
                {
                    "grid": "trisquare",
                    "size": 3,
                    "scoring": sc,
                    "tiebreak": tb,
                    "last_placer_breaks_ties": lp,
                }
                for sc in ("stones", "largest_group")
                for tb in ("underdog", "cascade")
                for lp in (False, True)
            ),
            solve_seconds=60.0,
        ),
        Study(
            "windflowers-cycles",
            "windflowers",
            {"grid": ["hex", "trisquare", "square"], "players": [2, 3, 4]},
            {"size": 3},
            50000,
            strengths=(),
            description="Random games on the smallest boards, hunting repeated positions.",
            question=(
                "The designer notes that no proof excludes cycles: stones can be replaced back "
                "and forth. Can a game of Windflowers go on for ever?"
            ),
            decide=("repeated_games", "repetition", "truncation", "length_mean", "length_p90"),
            answer=_cycles_answer,
        ),
        Study(
            "windflowers-kingmaking",
            "windflowers",
            {"players": [3, 4], "last_placer_breaks_ties": [False, True]},
            {"grid": "square", "size": 3},
            300,
            kingmaking=300,
            description="King-making with 3 and 4 players, against the same procedure where "
            "no choice differs (the null).",
            question=(
                "With three or four players, how often can the player who finishes last "
                "decide which of the others wins, beyond what the agents' own randomness "
                "already changes?"
            ),
            decide=("kingmaking", "kingmaking_null", "kingmaking_excess", "seat_score_0"),
            answer=_kingmaking_answer,
            combined=_kingmaking_combined,
        ),
        Study(
            "windflowers-mirror",
            "windflowers",
            {
                "grid": ["square", "trisquare"],
                "size": [3, 4],
                "last_placer_breaks_ties": [False, True],
            },
            {},
            400,
            description="Mirror play by the second player on the boards symmetric through "
            "their centre, against the strong agent in both seats.",
            question=(
                'The designer: "the first player is obligated to break mirror play". Does a '
                "second player who answers every move with its image through the centre hold "
                "its own against strong first-player play?"
            ),
            decide=("seat_score_1", "drawishness", "tiebreak_unresolved", "length_mean"),
            answer=_mirror_answer,
            combined=_mirror_combined,
            arms=(SELF_PLAY, Arm("mirror", _mirror_seats)),
            solved=tuple(
                {"grid": "trisquare", "size": 3, "last_placer_breaks_ties": lp}
                for lp in (False, True)
            ),
            solve_seconds=60.0,
        ),
        Study(
            "faraday-pie",
            "faraday",
            {
                "grid": [
                    "trisquare_omni",
                    "trisquare",
                    "hex_limping",
                    "hex",
                    "hex_omni",
                    "square_omni",
                ],
                "surplus_charge": [False, True],
                "min_offer_stones": [0, 1],
            },
            {"order": 4},
            400,
            description="Pie choices and seat balance per grid, with and without surplus "
            "charge, with Ludii's offer rule (0) and the designer's (at least 1 stone).",
            question=(
                "Does Faraday's pie offer keep the game fair on every grid, with and without "
                "the designer's surplus-charge variant and whichever offer rule, and how often "
                "does player 1 swap?"
            ),
            decide=("seat_score_0", "pie_swap", "balance", "length_mean"),
            answer=_pie_answer,
            group_by="grid",
            solved=tuple(
                {"order": 3, "grid": g, "surplus_charge": sc, "min_offer_stones": mo}
                for g in ("trisquare_omni", "trisquare", "hex_limping", "hex", "square_omni")
                for sc in (False, True)
                for mo in (0, 1, 2, 3)
            ),
        ),
        Study(
            "subsume-sizes",
            "subsume",
            {"size": [4, 5, 6, 7]},
            {},
            400,
            strengths=(100, 1000),
            description="Balance and length over sizes 4 to 7.",
            question="Does the size of the Subsume board change who wins, and how long games last?",
            decide=("seat_score_0", "balance", "length_mean", "drawishness"),
            answer=_sizes_answer,
        ),
        Study(
            "subsume-asides",
            "subsume",
            {"anti_blob": [True, False], "remove_surrounded": [True, False]},
            {"size": 5},
            400,
            description="The designer's two asides, each off, against the default (size 5).",
            question=(
                "The designer: \"the removal of surrounded stones doesn't really affect the "
                'game", and the game "is playable without [the anti-blob] rule, strictly '
                'speaking, but ends up being two big blobs growing and eventually facing off". '
                "What changes when either rule is dropped?"
            ),
            decide=(
                "seat_score_0",
                "length_mean",
                "decisiveness",
                "groups_final",
                "largest_group_share_0",
                "largest_group_share_1",
            ),
            answer=_asides_answer,
            combined=_asides_combined,
        ),
    )
}


def _agent(iterations: int, seed: int) -> Any:
    """The agent of one strength: the strong preset, or random agents at 0 iterations."""
    if iterations > 0:
        return MCTS(preset="strong", iterations=iterations, seed=seed)
    return RandomAgent(seed=seed)


def get_study(name: str) -> Study:
    if name not in STUDIES:
        raise InvalidOptionError(f"unknown study {name!r}; studies: {', '.join(STUDIES)}")
    return STUDIES[name]


def study(
    name: str,
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
) -> Any:
    """Runs a named study at one strength and for one arm; returns its
    :class:`~stonefield.lab.Lab` (:func:`run_study` runs every strength and arm).

    Args:
        name: One of :data:`STUDIES`.
        games: Games per variant (default: the study's).
        iterations: Iterations of the strong preset (default: the study's stronger strength;
            0 = random agents).
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
    from ._lab import evaluate

    s = get_study(name)
    arms = {a.label: a for a in s.arms}
    if arm is not None and arm not in arms:
        raise InvalidOptionError(f"study {name!r} has no arm {arm!r}; arms: {', '.join(arms)}")
    chosen = arms[arm] if arm is not None else s.arms[0]
    iters = s.iterations if iterations is None else iterations
    if isinstance(iters, bool) or not isinstance(iters, int) or iters < 0:
        raise InvalidOptionError(f"iterations must be an integer ≥ 0, got {iters!r}")
    lab = evaluate(
        s.game,
        vary=s.vary,
        fixed=s.fixed,
        agents=chosen.seats(_agent(iters, seed)),
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
