"""The rules of each game as the play page shows them: short sections in the project's own words,
for the options chosen, with small diagrams drawn by the package.

The diagrams are real positions of the game with those options, found by seeded random play
(so the same options always give the same pictures): a legal and an illegal placement, what a
placement takes or turns (a capture, a replacement, a flip), and a finished game with its result.
They are drawn by :func:`stonefield.render.to_svg`, with a few marks added: a cross on an
illegal site and a ring on the site a diagram is about.

>>> import stonefield as sf
>>> r = rules(sf.make("subsume", size=4))
>>> r["game"], [s["heading"] for s in r["sections"]][:2]
('subsume', ['Goal', 'A turn'])
>>> all(d["svg"].startswith("<svg") for s in r["sections"] for d in s["diagrams"])
True
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Any

from .. import _core
from ..render import to_svg

#: The size of a diagram in pixels (the longer side of the board).
DIAGRAM_SIZE = 230
#: How many seeded random games are searched for a diagram's position.
_TRIES = 40

_NAMES = ("Black", "White", "Red", "Blue")
Section = dict[str, Any]


def rules(game: _core.Game) -> dict[str, Any]:
    """The rules of ``game`` for its options: ``{"game", "title", "summary", "sections"}``,
    where each section is ``{"heading", "text": [paragraph, ...], "diagrams": [{"svg",
    "caption"}, ...]}``. Cached per game and options."""
    key = tuple(sorted((k, str(v)) for k, v in game.options.items()))
    return _rules(game.name, key)


@lru_cache(maxsize=64)
def _rules(name: str, key: tuple[tuple[str, str], ...]) -> dict[str, Any]:
    game = _core.make(name, **dict(_core.make(name).options, **_typed(name, key)))
    writer = {
        "smallholder": _smallholder,
        "windflowers": _windflowers,
        "faraday": _faraday,
        "subsume": _subsume,
    }.get(name)
    if writer is None:
        return {"game": name, "title": name, "summary": "", "sections": []}
    title, summary, sections = writer(game)
    return {"game": name, "title": title, "summary": summary, "sections": sections}


def _typed(name: str, key: tuple[tuple[str, str], ...]) -> dict[str, Any]:
    """The options of ``key`` (all strings) back in their types, from the game's defaults."""
    defaults = dict(_core.make(name).options)
    out: dict[str, Any] = {}
    for k, v in key:
        d = defaults.get(k)
        if isinstance(d, bool):
            out[k] = v == "True"
        elif isinstance(d, int):
            out[k] = int(v)
        else:
            out[k] = v
    return out


# ---- finding positions ----------------------------------------------------------------------


def _playouts(game: _core.Game, tries: int = _TRIES) -> Iterator[tuple[_core.State, int]]:
    """Seeded random games: yields ``(state, action)`` before each action of each game."""
    for seed in range(tries):
        rng = random.Random(seed)
        state = game.new_state()
        while not state.is_terminal():
            legal = [int(a) for a in state.legal_actions()]
            action = rng.choice(legal)
            yield state, action
            state.apply(action)


def _changes(state: _core.State, action: int) -> tuple[list[int], list[int]]:
    """The sites whose stone ``action`` removes and those whose stone it changes, other than the
    site it plays on."""
    before = state.board.tolist()
    after_state = state.copy()
    after_state.apply(action)
    after = after_state.board.tolist()
    site = action if action < len(before) else -1
    removed = [s for s, (b, a) in enumerate(zip(before, after)) if b and not a and s != site]
    turned = [s for s, (b, a) in enumerate(zip(before, after)) if b and a and b != a and s != site]
    return removed, turned


def _find_change(game: _core.Game, want: str) -> tuple[_core.State, int] | None:
    """A position and an action that removes stones (``want="removed"``), changes their colour
    (``"turned"``) or replaces the stone it plays on (``"replaced"``); the first one found."""
    for state, action in _playouts(game):
        n = game.num_sites
        if want == "replaced":
            if action < n and state.board[action] != 0:
                return state.copy(), action
            continue
        removed, turned = _changes(state, action)
        if (want == "removed" and removed) or (want == "turned" and turned):
            return state.copy(), action
    return None


def _find_illegal(
    game: _core.Game, after: int = 4, on_stones: bool = False
) -> tuple[_core.State, int] | None:
    """A position at least ``after`` actions in with an empty site the mover may not play on
    (with ``on_stones``, for games that play onto stones: an opponent's stone that may not be
    replaced)."""
    n = game.num_sites
    for state, _ in _playouts(game):
        if state.move_count < after:
            continue
        legal = {int(a) for a in state.legal_actions()}
        if not any(a < n for a in legal):
            continue
        board = state.board.tolist()
        if on_stones:
            me = state.current_player
            bad = [s for s in range(n) if board[s] not in (0, (me or 0) + 1) and s not in legal]
        else:
            bad = [s for s in range(n) if board[s] == 0 and s not in legal]
        if bad:
            return state.copy(), bad[len(bad) // 2]
    return None


def _finished(game: _core.Game) -> _core.State | None:
    """The end of the first seeded random game that is not cut off by the move cap."""
    for state, action in _playouts(game):
        after = state.copy()
        after.apply(action)
        if after.is_terminal() and not after.truncated:
            return after
    return None


# ---- drawing --------------------------------------------------------------------------------

_SITE = re.compile(r'<(circle|polygon) class="site"([^>]*?) data-site="(\d+)"([^>]*)/>')


def _centres(svg: str) -> dict[int, tuple[float, float, float]]:
    """Each site's centre and a radius in the picture's pixels, read back from the SVG."""
    out: dict[int, tuple[float, float, float]] = {}
    for tag, a, site, b in _SITE.findall(svg):
        attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', a + b))
        if tag == "circle":
            out[int(site)] = (float(attrs["cx"]), float(attrs["cy"]), float(attrs.get("r", 8)))
        else:
            pts = [tuple(map(float, p.split(","))) for p in attrs["points"].split()]
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            r = (max(xs) - min(xs)) / 2
            out[int(site)] = (sum(xs) / len(xs), sum(ys) / len(ys), r)
    return out


def _marked(svg: str, cross: Sequence[int] = (), ring: Sequence[int] = ()) -> str:
    """``svg`` with a red cross on the ``cross`` sites and an orange ring on the ``ring`` ones."""
    centres = _centres(svg)
    marks = []
    for s in cross:
        x, y, r = centres[s]
        d = 0.45 * max(r, 6)
        marks.append(
            f'<path class="rule-cross" d="M{x - d:.1f},{y - d:.1f}L{x + d:.1f},{y + d:.1f}'
            f'M{x - d:.1f},{y + d:.1f}L{x + d:.1f},{y - d:.1f}" stroke="#c62828" '
            'stroke-width="3" stroke-linecap="round" fill="none"/>'
        )
    for s in ring:
        x, y, r = centres[s]
        marks.append(
            f'<circle class="rule-ring" cx="{x:.1f}" cy="{y:.1f}" r="{0.85 * max(r, 6):.1f}" '
            'fill="none" stroke="#ff7a00" stroke-width="3"/>'
        )
    return svg.replace("</svg>", "".join(marks) + "</svg>")


def _svg(state: _core.State, **kwargs: Any) -> str:
    return to_svg(state, size=DIAGRAM_SIZE, caption=False, **kwargs)


def _names(sites: list[int], game: _core.Game) -> str:
    return ", ".join(_name(game, s) for s in sites)


def _name(game: _core.Game, action: int) -> str:
    """The action's name in the core's notation."""
    return str(game.action_name(action))


def _placement_diagrams(
    game: _core.Game, what: str, on_stones: bool = False
) -> list[dict[str, str]]:
    """The mover's legal placements (green dots) and one illegal site (a cross): an empty one,
    or with ``on_stones`` (games that play onto stones) an opponent's stone."""
    found = _find_illegal(game, on_stones=on_stones)
    if found is None:
        return []
    state, bad = found
    n = game.num_sites
    p = state.current_player or 0
    legal = sorted({int(a) for a in state.legal_actions() if a < n})
    return [
        {
            "svg": _marked(_svg(state, highlight=legal, last_move=False), cross=[bad]),
            "caption": f"{_NAMES[p]} to move: the green dots are the legal placements; "
            f"{_name(game, bad)} (crossed) is not legal: {what}.",
        }
    ]


def _change_diagrams(game: _core.Game, want: str, before: str, after: str) -> list[dict[str, str]]:
    """A placement and what it does, as two pictures: before (the site ringed) and after."""
    found = _find_change(game, want)
    if found is None:
        return []
    state, action = found
    p = state.current_player or 0
    site = game.action_site(action)
    played = state.copy()
    played.apply(action)
    removed, turned = _changes(state, action)
    touched = sorted(set(removed) | set(turned))
    fill = {"mover": _NAMES[p], "site": _name(game, action), "sites": _names(touched, game)}
    return [
        {
            "svg": _marked(_svg(state, last_move=False), ring=[] if site is None else [site]),
            "caption": before.format(**fill),
        },
        {"svg": _marked(_svg(played), ring=touched), "caption": after.format(**fill)},
    ]


def _result_text(state: _core.State) -> str:
    ranks = state.ranks()
    scores = state.scores()
    n = state.game.num_players
    shown = ""
    if scores is not None:
        shown = ", ".join(f"{_NAMES[p]} {_fmt(float(scores[p]))}" for p in range(n)) + ": "
    if ranks is None:
        return shown + "the game is over."
    best = min(ranks)
    winners = [_NAMES[p] for p in range(n) if ranks[p] == best]
    if len(winners) == n:
        return shown + "a draw."
    if len(winners) == 1:
        tied = scores is not None and sorted(scores)[-1] == sorted(scores)[-2]
        return shown + f"{winners[0]} wins" + (" on the tie-break." if tied else ".")
    return shown + f"{' and '.join(winners)} share the win."


def _fmt(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:.2f}"


def _end_diagram(game: _core.Game, how: str) -> list[dict[str, str]]:
    state = _finished(game)
    if state is None:
        return []
    return [{"svg": _svg(state), "caption": f"{how} {_result_text(state)}"}]


def _section(
    heading: str, text: list[str], diagrams: list[dict[str, str]] | None = None
) -> Section:
    return {"heading": heading, "text": text, "diagrams": diagrams or []}


# ---- the games ------------------------------------------------------------------------------


def _smallholder(game: _core.Game) -> tuple[str, str, list[Section]]:
    o: dict[str, Any] = dict(game.options)
    gap = o["territory"] == "gap"
    reentry = o["capture"] == "groupwise_reentry"
    playable = "playable " if o["groups"].endswith("playable") else ""
    territory = (
        "A group holds every site that lies strictly between two of its stones on one straight "
        "line of the board, however far apart they are and whatever stands between them."
        if gap
        else "A group holds every site inside the smallest hexagon, aligned with the board, that "
        "contains all its stones; a single stone or a straight line of stones holds nothing."
    )
    groups = {
        "must_create_if_only_1": "While you have fewer than two groups you must start a new "
        "group; after that you may start one or extend one.",
        "must_create_if_1_playable": "While you have fewer than two playable groups you must "
        "start a new group; after that you may start one or extend one.",
        "priority_if_only_1": "While you have fewer than two groups you must start a new group "
        "if you can; otherwise you may start one or extend one.",
        "priority_if_1_playable": "While you have fewer than two playable groups you must start "
        "a new group if you can; otherwise you may start one or extend one.",
        "priority_always": "You must start a new group whenever you can; only when you cannot "
        "may you extend one.",
    }[o["groups"]]
    adjacent = {
        "smallest_playable": "An extension must touch your smallest playable group (it may "
        "touch other groups too).",
        "smallest_playable_only": "An extension may touch only stones of your smallest playable "
        "group (or groups, if several share the smallest size).",
        "smallest_else_lose": "An extension must touch your smallest group; if that group is "
        "blocked, you cannot extend at all.",
        "smallest_only_else_lose": "An extension may touch only stones of your smallest group; "
        "if that group is blocked, you cannot extend at all.",
    }[o["adjacent"]]
    capture = (
        "every enemy stone inside your territory is captured"
        if o["capture"] == "piecewise"
        else "every enemy group lying wholly inside your territory is captured"
    )
    where = "Empty sites in your opponent's territory are closed to you" + (
        ", except those next to one of your own stones." if reentry else "."
    )
    sections = [
        _section(
            "Goal",
            [
                "Two players, Black first, place one stone a turn; there is no passing. The last "
                "player able to place wins: whoever has no legal placement on their turn loses.",
                f"Ruleset {o['ruleset']} on {game.board_shape} ({game.num_sites} cells).",
            ],
        ),
        _section(
            "Territory",
            [
                "A group is a set of your stones connected through neighbouring cells. "
                + territory,
                "Your territory is everything your groups hold (two of your groups never combine "
                "their holdings). The board shades each player's territory. " + where,
            ],
        ),
        _section(
            "Starting and extending",
            [
                "A stone with none of your stones next to it starts a new group; a stone next "
                f"to one of yours extends (or joins) groups. {groups} {adjacent}",
                "A group is blocked (marked grey) when no cell next to it is open to you"
                + (f"; only {playable}groups count above." if playable else "."),
            ],
            _placement_diagrams(game, "it is closed by the rules above"),
        ),
        _section(
            "Captures",
            [
                f"When you extend (never when you start a group), {capture}: your whole "
                "territory is counted after your stone is placed. Your stones inside enemy "
                "territory survive until the enemy next extends.",
            ],
            _change_diagrams(
                game,
                "removed",
                "{mover} extends at {site} (ringed)…",
                "…and captures the enemy stones at {sites}.",
            ),
        ),
        _section(
            "End",
            [
                "The game ends when the player to move has no legal placement: that player "
                f"loses. A game cut off by the move cap ({o['max_moves']} moves) is a draw.",
            ],
            _end_diagram(game, "The player to move cannot place:"),
        ),
    ]
    summary = (
        "Place stones, hold territory between them, capture inside it; the last to place wins."
    )
    return "The Smallholder (Dale Walton)", summary, sections


def _windflowers(game: _core.Game) -> tuple[str, str, list[Section]]:
    o: dict[str, Any] = dict(game.options)
    players = o["players"]
    order = ", ".join(_NAMES[:players])
    near = (
        "its six neighbouring cells"
        if o["grid"] == "hex"
        else "its neighbours along the lines and across the squares' diagonals"
    )
    scoring = (
        "Your score is the number of your stones on the board."
        if o["scoring"] == "stones"
        else "Your score is the size of your largest group (stones connected along the lines; "
        "diagonals never join groups)."
    )
    tie = (
        "the player whose largest unmatched group is smaller gains the difference (underdog)"
        if o["tiebreak"] == "underdog"
        else "the player whose largest unmatched group is larger gains the difference (cascade)"
    )
    last = (
        " Players still tied after that are ranked by who placed last: the latest placer first."
        if o["last_placer_breaks_ties"]
        else " Players still tied after that share their rank (in two players, a draw)."
    )
    sections = [
        _section(
            "Goal",
            [
                f"{players} players ({order}) take turns in that order on {game.board_shape} "
                f"({game.num_sites} sites). The highest score when the game ends wins.",
                scoring,
            ],
        ),
        _section(
            "A turn",
            [
                "On your turn you pass, place a stone on any empty site, or replace an "
                "opponent's stone with your own.",
                f"You may replace a stone when, among {near}, that opponent's stones outnumber "
                "yours (other players' stones do not count).",
            ],
            _placement_diagrams(
                game, "its owner's stones around it do not outnumber the mover's", on_stones=True
            ),
        ),
        _section(
            "Replacing",
            ["A replacement takes the stone off and puts yours in its place."],
            _change_diagrams(
                game,
                "replaced",
                "{mover} may replace the stone at {site} (ringed)…",
                "…and it is {mover}'s now.",
            ),
        ),
        _section(
            "End and tie-break",
            [
                "The game ends when every player has passed in a row. A game cut off by the move "
                f"cap ({o['max_moves']} moves) is a draw among all.",
                "When several players share the top score, each pair of them compares their "
                "group sizes with the sizes they have in common struck out: " + tie + "." + last,
            ],
            _end_diagram(game, "After everyone passed:"),
        ),
    ]
    summary = "Place, replace outnumbered stones or pass; the best score when all pass wins."
    return "Windflowers (Dale Walton)", summary, sections


def _faraday(game: _core.Game) -> tuple[str, str, list[Section]]:
    o: dict[str, Any] = dict(game.options)
    grid = o["grid"]
    force = {"trisquare_omni": 4, "trisquare": 3, "hex_limping": 3, "hex": 3, "hex_omni": 7}.get(
        grid, 4
    )
    relation = (
        "its neighbours along the lines and across diagonals"
        if grid.endswith("omni")
        else "its neighbours along the lines"
    )
    scoring = {
        "simple_orthogonal": "Your score is the size of your largest group (stones connected "
        "along the lines).",
        "simple": f"Your score is the size of your largest group, counting {relation} as "
        "connected.",
        "special_orthogonal": "Your score is the size of your largest group (along the lines) "
        "times the number of your opponent's stones.",
        "special": f"Your score is the size of your largest group (counting {relation}) times "
        "the number of your opponent's stones.",
    }[o["scoring"]]
    least = o.get("min_offer_stones", 0)
    offer = (
        "Black makes the first three actions: each puts a black stone or a white stone on any "
        "empty site, or passes"
        + (
            f" (a pass only once {least} stone{'s' if least != 1 else ''} are on the board)"
            if least
            else ""
        )
        + ". White then accepts the position, and moves first, or swaps every stone's colour, "
        "and Black moves first."
    )
    surplus = (
        [
            f"Surplus charge (on): right after a placement with {force + 1} or more opposite "
            "charges around it, your next placement in the same turn must, if possible, go on "
            "a site that is otherwise not legal and has equal numbers (at least one) of both "
            "colours around it."
        ]
        if o["surplus_charge"]
        else []
    )
    sections = [
        _section(
            "Goal",
            [
                f"Two players on {game.board_shape} ({game.num_sites} sites). Stones are like "
                "electric charges: you may place only where the neighbourhood has an excess of "
                "the opposite charge. " + scoring,
            ],
        ),
        _section(
            "The pie offer",
            [offer],
            _end_offer(game),
        ),
        _section(
            "Placing",
            [
                f"Count the stones among {relation} of an empty site. You may place there when "
                f"the opponent's outnumber yours, or when there are {force} or more of the "
                "opponent's, whatever yours.",
                "A turn is a run of placements: you keep placing, one stone at a time, while you "
                "have a legal placement, and cannot stop early. Then the turn passes.",
                *surplus,
            ],
            _placement_diagrams(
                game, "the opponent's stones around it do not outnumber the mover's"
            ),
        ),
        _section(
            "End",
            [
                "When neither player can place, the game ends and the higher score wins. On "
                "equal scores the last player to place loses (the offer's stones count as "
                "Black's); on an empty board it is a draw.",
            ],
            _end_diagram(game, "Neither player can place:"),
        ),
    ]
    summary = "Place where the opposite charge is in excess; the largest group wins."
    return "Faraday (Dale Walton)", summary, sections


def _end_offer(game: _core.Game) -> list[dict[str, str]]:
    """The position after a seeded offer of three stones, both colours."""
    state = game.new_state()
    rng = random.Random(1)
    n = game.num_sites
    sites = rng.sample(range(n), 3)
    for s, colour in zip(sites, (0, 1, 0)):
        state.apply(s + colour * n)
    return [
        {
            "svg": _svg(state),
            "caption": "An offer of two black stones and one white: White now accepts or swaps.",
        }
    ]


def _subsume(game: _core.Game) -> tuple[str, str, list[Section]]:
    o: dict[str, Any] = dict(game.options)
    size = o["size"]
    rule1 = (
        "is next to at least as many enemy stones as friendly ones, and " if o["anti_blob"] else ""
    )
    removal = (
        "every stone inside the loop, of either colour, is removed, and its inside stays empty "
        "for the rest of the game"
        if o["remove_surrounded"]
        else "the stones inside the loop stay (drawn faded) but take no further part, and no "
        "stone may be placed inside"
    )
    perimeter = 6 * (size - 1)
    sections = [
        _section(
            "Goal",
            [
                f"Two players, Black first, on a hexagon of side {size} ({game.num_sites} "
                f"cells). You win when a loop of stones all of your colour holds more than half "
                f"the board's edge cells: more than {perimeter // 2} of its {perimeter}.",
                "No other program plays Subsume (Luis Bolaños Mures); these rules are "
                "stonefield's reading of the designer's text.",
            ],
        ),
        _section(
            "A turn",
            [
                f"You place one stone on an empty cell that {rule1}is not inside a loop. "
                "There is no passing; a player who cannot place is skipped.",
            ],
            _placement_diagrams(
                game,
                "it has more friendly than enemy neighbours, or lies inside a loop"
                if o["anti_blob"]
                else "it lies inside a loop",
            ),
        ),
        _section(
            "Loops",
            [
                "A loop is a ring of at least six stones of any colours, one stone wide, each "
                "touching exactly two others of the ring. A group's largest loop, the one every "
                "other loop of the group lies within, is its encompassing loop.",
                "When your stone completes a new encompassing loop: if at least half its "
                "stones are yours, every enemy stone in it turns to your colour; otherwise "
                "every one of your stones in it turns to the enemy's. Then " + removal + ".",
            ],
            _change_diagrams(
                game,
                "turned",
                "{mover} closes a loop at {site} (ringed)…",
                "…and the stones at {sites} change colour or leave the board.",
            ),
        ),
        _section(
            "End",
            [
                "The game ends as soon as one colour has a winning loop, whoever made the move "
                "(a flip can hand the win to the opponent).",
            ],
            _end_diagram(game, "A winning loop:"),
        ),
    ]
    summary = "Place against the majority, close loops to turn their stones, ring the edge to win."
    return "Subsume (Luis Bolaños Mures)", summary, sections
