"""King-making (3 and 4 players): can the player who finishes last decide who wins?

The exact procedure, and its null procedure (the same replays where no choice differs), is in
the package documentation (:mod:`stonefield.lab`, ``kingmaking``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core import Game
from .._seeds import seat_seed, seated
from .plan import Plan, seating

#: King-making: decisions of the last-placed player examined per game (the latest ones), and
#: alternatives tried per decision.
KM_DECISIONS = 3
KM_ALTERNATIVES = 4
#: The seat number the null procedure's seeds are derived with (no game has this seat).
KM_NULL_SEAT = 1 << 16


def _continue(game: Game, state: Any, players: list[Any]) -> frozenset[int]:
    """Plays ``state`` to the end with ``players`` (one per seat); the winners' set."""
    while (p := state.current_player) is not None:
        state.apply(int(players[p].act(state.copy())))
    ranks = state.ranks()
    if state.truncated or ranks is None:
        return frozenset()
    best = float(np.min(ranks))
    return frozenset(int(p) for p in np.flatnonzero(ranks == best))


def kingmaking_verdicts(
    plan: Plan, variant: int, recs: dict[int, dict[str, Any]], ranks: np.ndarray
) -> list[dict[str, Any]]:
    """Judges the sampled games of a 3–4 player variant (see the package docs for the exact
    procedure)."""
    v = plan.variants[variant]
    game = v.game
    verdicts = []
    for index in sorted(recs):
        if index >= plan.kingmaking:
            continue
        actions = [int(a) for a in recs[index]["actions"]]
        final = ranks[index]
        worst = float(final.max())
        if worst == float(final.min()):
            verdicts.append(
                {"index": index, "kingmade": False, "null_kingmade": False, "why": "no last player"}
            )
            continue
        lasts = [int(p) for p in np.flatnonzero(final == worst)]
        seats = seating(plan, v, "games", index, 1)[0]

        def fresh_players(seats: np.ndarray = seats, index: int = index) -> list[Any]:
            return [seated(plan.agents[int(a)], plan.seed, index, j) for j, a in enumerate(seats)]

        state = game.new_state()
        movers = []
        for a in actions:
            movers.append(state.current_player)
            state.apply(a)
        found: dict[str, Any] = {"index": index, "kingmade": False, "null_kingmade": False}

        def null_players(j: int, seats: np.ndarray = seats, index: int = index) -> list[Any]:
            # The same agents under another run's seeds: a replay where no choice differs.
            other = seat_seed(plan.seed, index, KM_NULL_SEAT, j + 1)
            return [seated(plan.agents[int(a)], other, index, s) for s, a in enumerate(seats)]

        for last in lasts:
            mine = [k for k, m in enumerate(movers) if m == last][-KM_DECISIONS:]
            for k in reversed(mine):
                before = game.new_state()
                for a in actions[:k]:
                    before.apply(a)
                legal = [int(a) for a in before.legal_actions() if int(a) != actions[k]]
                if not legal:
                    continue
                pick = np.unique(np.linspace(0, len(legal) - 1, KM_ALTERNATIVES).round())
                actual = before.copy()
                actual.apply(actions[k])
                base = _continue(game, actual.copy(), fresh_players())
                if not found["kingmade"]:
                    for j in pick.astype(int):
                        alt = before.copy()
                        alt.apply(legal[j])
                        won = _continue(game, alt, fresh_players())
                        if won != base and last not in won and last not in base:
                            found.update(
                                kingmade=True,
                                player=last,
                                move=k,
                                alternative=legal[j],
                                winners=sorted(base),
                                winners_after=sorted(won),
                            )
                            break
                if not found["null_kingmade"]:
                    # The null procedure: the actual move again, as many times as there were
                    # alternatives, each continued under other seeds.
                    for j in range(len(pick)):
                        won = _continue(game, actual.copy(), null_players(j))
                        if won != base and last not in won and last not in base:
                            found["null_kingmade"] = True
                            break
                if found["kingmade"] and found["null_kingmade"]:
                    break
            if found["kingmade"] and found["null_kingmade"]:
                break
        verdicts.append(found)
    return verdicts


__all__ = ["KM_ALTERNATIVES", "KM_DECISIONS", "kingmaking_verdicts"]
