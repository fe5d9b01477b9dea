"""The page's coach: a hint for the player to move, a review of a whole game, and the
perfect-play value of every move on small boards.

Both use the coach of the board (:func:`coach`): the expert (``sf.expert``, the network shipped
for the game) on the board its network was trained on, for the games listed in
:data:`EXPERT_COACHES`, and the strong search (``MCTS(preset="strong")``, see docs/search.md)
everywhere else. Either searches a fixed budget with a seed the answer reports, so a script can
ask the API the same question and get the same answer. The review also asks the solver, on
positions small enough for it, which moves changed the perfect-play value (a win thrown away, a
draw lost); :func:`perfect` asks it for every legal move of the position.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from .. import _core, experts
from ._agents import (
    MAX_ITERATIONS,
    PERFECT_MAX_SITES,
    PERFECT_NODES,
    PERFECT_SECONDS,
    expert_evaluator,
    solve_position,
)
from ._session import action_label, action_name, action_site

#: The hint's iteration budget when none is asked for: it answers within about a second on
#: every game's default board (see docs/play.md for the measured times).
HINT_ITERATIONS = 20_000
#: The review's budget for each position of the game.
REVIEW_ITERATIONS = 2_000
#: The largest budget a review request may ask for each position.
REVIEW_MAX_ITERATIONS = 20_000
#: A review searches at most this many positions (longer games are reviewed up to there).
REVIEW_MAX_POSITIONS = 400
#: A review stops after this many seconds in all (the positions searched by then are reviewed),
#: so that one request cannot hold the server's searches for long.
REVIEW_SECONDS = 60.0
#: The solver's node budget for each position of a review; only positions it proves count.
SOLVER_NODES = 100_000
#: The review asks the solver only on boards of at most this many sites (the boards it solves,
#: see docs/solver.md; on larger ones it would spend its budget proving nothing).
SOLVER_MAX_SITES = PERFECT_MAX_SITES
#: However large the budget, a hint stops after this many seconds.
HINT_SECONDS = 20.0
#: The games whose shipped network beats the strong search at equal time on the board it was
#: trained on (docs/training/index.md, "Shipped networks"): there the expert coaches.
EXPERT_COACHES: tuple[str, ...] = ()
#: The expert's simulations for a hint when none are asked for, and the most a request may ask.
HINT_SIMULATIONS = 800
HINT_MAX_SIMULATIONS = 10_000
#: The expert's simulations for each position of a review, and the most a request may ask.
REVIEW_SIMULATIONS = 100
REVIEW_MAX_SIMULATIONS = 2_000


def coach(game: _core.Game) -> str:
    """Who coaches on ``game``: ``"expert"`` on the board the game's shipped network was
    trained on, when the game is one of :data:`EXPERT_COACHES`; else ``"strong"``.

    >>> import stonefield as sf
    >>> coach(sf.make("subsume", size=3))  # no network learned size 3
    'strong'
    """
    return "expert" if game.name in EXPERT_COACHES and experts.trained_on(game) else "strong"


def budgets(game: _core.Game, review: bool = False) -> tuple[int, int]:
    """The default and largest budget of a hint (or of each position of a review) on
    ``game``: the coach's iterations (strong search) or simulations (expert)."""
    if coach(game) == "expert":
        if review:
            return REVIEW_SIMULATIONS, REVIEW_MAX_SIMULATIONS
        return HINT_SIMULATIONS, HINT_MAX_SIMULATIONS
    if review:
        return REVIEW_ITERATIONS, REVIEW_MAX_ITERATIONS
    return HINT_ITERATIONS, MAX_ITERATIONS


def searcher(game: _core.Game, budget: int, seed: int) -> Any:
    """The coach's search of ``game`` at ``budget``: ``sf.expert(game, simulations=budget,
    seed=seed)`` (its network read once per board), or the strong search capped at
    :data:`HINT_SECONDS`."""
    if coach(game) == "expert":
        return _core.PUCT(
            expert_evaluator(game),
            simulations=budget,
            seed=seed,
            dirichlet_fraction=0.0,
        )
    return strong(budget, seed, HINT_SECONDS)


def strong(iterations: int, seed: int, seconds: float | None = None) -> _core.MCTS:
    """The strong search at ``iterations`` (capped at ``seconds`` of wall time, if given)."""
    return _core.MCTS(iterations=iterations, seed=seed, preset="strong", time=seconds)


def hint(state: _core.State, iterations: int, seed: int) -> dict[str, Any]:
    """The coach's choice and value for the player to move in ``state`` (``iterations``: the
    coach's budget, see :func:`budgets`).

    >>> import stonefield as sf
    >>> h = hint(sf.make("subsume", size=3).new_state(), 200, seed=1)
    >>> sorted(h)  # doctest: +NORMALIZE_WHITESPACE
    ['action', 'coach', 'iterations', 'label', 'name', 'player', 'proven', 'seed', 'site',
     'value']
    """
    if state.is_terminal():
        raise _core.GameOverError("the game is over: there is nothing to hint")
    game = state.game
    result = searcher(game, iterations, seed).analyse(state)
    best = int(result.best)
    return {
        "coach": coach(game),
        "player": state.current_player,
        "action": best,
        "name": action_name(game, best),
        "label": action_label(game, state, best),
        "site": action_site(game, best),
        "value": float(result.value),
        "proven": None if result.proven is None else int(result.proven),
        "iterations": int(result.iterations),
        "seed": seed,
    }


#: The words of a perfect-play value for the player to move.
WORDS = {1: "win", 0: "draw", -1: "loss"}


def perfect(state: _core.State) -> dict[str, Any]:
    """The perfect-play value of every legal move in ``state`` for the player to move, as far
    as the solver settles them within its budget (:data:`PERFECT_NODES` nodes,
    :data:`PERFECT_SECONDS` seconds).

    Returns ``{"player", "value", "settled", "stopped_by", "nodes", "seconds", "moves",
    "message"}``: ``value`` is the position's value for the mover (+1 / 0 / −1, None where not
    proven; a proven winning move decides it); ``moves`` has one entry per legal action with
    ``action``, ``name``, ``label``, ``site`` (None for a pass or an accept), ``value`` (for the
    mover after that move under perfect play, None where not proven) and ``word`` (``win``,
    ``draw``, ``loss`` or ``unknown``); ``settled`` is whether every move was proven, and
    ``message`` says what was found, in words.

    >>> import stonefield as sf
    >>> p = perfect(sf.make("smallholder", board="hex232323").new_state())
    >>> p["value"], p["settled"], [m["action"] for m in p["moves"] if m["word"] == "win"]
    (1, True, [1, 7, 9])
    """
    if state.is_terminal():
        raise _core.GameOverError("the game is over: every move's value is settled")
    res = solve_position(state)
    game = state.game
    moves = []
    for a, o in zip(res.actions.tolist(), res.outcomes.tolist()):
        value = None if o == _core.SolveResult.NOT_PROVEN else int(o)
        moves.append(
            {
                "action": int(a),
                "name": action_name(game, int(a)),
                "label": action_label(game, state, int(a)),
                "site": action_site(game, int(a)),
                "value": value,
                "word": "unknown" if value is None else WORDS[value],
            }
        )
    settled = res.stopped_by == "solved"
    proven = sum(m["value"] is not None for m in moves)
    if settled and res.value is not None:
        message = f"Perfect play: a {WORDS[int(res.value)]} for the player to move"
    else:
        message = (
            f"The solver settled {proven} of {len(moves)} moves within its budget "
            f"({PERFECT_NODES:,} nodes, {PERFECT_SECONDS:g} s); the others are unknown"
        )
        if res.value is not None:
            message += f" (a proven {WORDS[int(res.value)]} for the player to move)"
    return {
        "player": state.current_player,
        "value": None if res.value is None else int(res.value),
        "settled": settled,
        "stopped_by": res.stopped_by,
        "nodes": int(res.nodes),
        "seconds": round(float(res.seconds), 3),
        "moves": moves,
        "message": message,
    }


def review(
    game: _core.Game,
    line: list[int],
    iterations: int,
    seed: int,
    solver: bool = True,
    stopping: threading.Event | None = None,
) -> dict[str, Any]:
    """The coach's value of every position of a game, and what each move cost.

    Returns ``{"coach", "iterations", "seed", "start", "moves", "worst", "thrown", "changed",
    "complete"}`` (``coach``: ``expert`` or ``strong``, see :func:`coach`; ``iterations``: its
    budget for each position): ``start`` is the value of the first position for its mover;
    ``moves`` has one entry per move, with ``step``, ``player``, ``name``, ``label``, ``before``
    (the value for the mover before the move),
    ``after`` (for the same player after it: the result itself at the end, the opponent's value
    negated in two players), ``loss`` (before − after, at least 0), ``black`` (the value after
    the move for player 0, in two-player games) and ``solved`` (the solver's value for the mover
    before and after the move, when it proved both). ``worst`` lists the steps of the moves that
    lost the most value (up to three, each losing more than 0.2); ``thrown`` lists the steps
    where the solver proved the mover was winning before the move and not after it;
    ``changed`` lists every step whose move changed the perfect-play value (a win thrown into a
    draw or a loss, a draw into a loss), where the solver proved it before and after the move,
    and such a move's entry has ``perfect``, the change in words (``"win → draw"``).

    Positions are searched with seed ``seed + step``; a game longer than
    :data:`REVIEW_MAX_POSITIONS`, or one not searched within :data:`REVIEW_SECONDS`, is reviewed
    up to there (``complete`` is false). Once ``stopping`` (the server's shutdown) is set, the
    review raises ``KeyboardInterrupt`` before its next position.
    """
    state = game.new_state()
    players = game.num_players
    values: list[tuple[int | None, float]] = []  # (mover, value for the mover) per position
    proofs: list[int | None] = []
    positions = min(len(line), REVIEW_MAX_POSITIONS)
    small = game.num_sites <= SOLVER_MAX_SITES
    deadline = time.monotonic() + REVIEW_SECONDS
    for step in range(positions + 1):
        if stopping is not None and stopping.is_set():
            raise KeyboardInterrupt("the server is shutting down")
        if step > 0 and time.monotonic() > deadline:
            positions = step - 1  # the moves reviewed: those whose both sides were searched
            break
        if state.is_terminal():
            values.append((None, 0.0))
            proofs.append(None)
        else:
            result = searcher(game, iterations, seed + step).analyse(state)
            values.append((state.current_player, float(result.value)))
            proofs.append(_solve(state) if solver and players == 2 and small else None)
        if step < positions:
            state.apply(line[step])
    replay = game.new_state()
    moves: list[dict[str, Any]] = []
    for step in range(positions):
        action = line[step]
        mover = replay.current_player
        label = action_label(game, replay, action)
        replay.apply(action)
        assert mover is not None
        before = values[step][1]
        after = _value_for(mover, replay, values[step + 1], players)
        entry: dict[str, Any] = {
            "step": step + 1,
            "player": mover,
            "action": action,
            "name": action_name(game, action),
            "label": label,
            "before": round(before, 4),
            "after": round(after, 4),
            "loss": round(max(0.0, before - after), 4),
        }
        if players == 2:
            entry["black"] = round(after if mover == 0 else -after, 4)
        solved_before = proofs[step]
        solved_after = _proof_for(mover, replay, values[step + 1][0], proofs[step + 1])
        if solved_before is not None and solved_after is not None:
            entry["solved"] = [solved_before, solved_after]
            if solved_after != solved_before:
                entry["perfect"] = f"{WORDS[solved_before]} → {WORDS[solved_after]}"

        moves.append(entry)
    ranked = sorted(moves, key=lambda m: -m["loss"])
    worst = sorted(m["step"] for m in ranked[:3] if m["loss"] > 0.2)
    thrown = [m["step"] for m in moves if "solved" in m and m["solved"][0] == 1 > m["solved"][1]]
    changed = [m["step"] for m in moves if "perfect" in m]
    return {
        "coach": coach(game),
        "iterations": iterations,
        "seed": seed,
        "start": values[0][1] if values else 0.0,
        "moves": moves,
        "worst": worst,
        "thrown": thrown,
        "changed": changed,
        "complete": positions == len(line),
    }


def _value_for(
    player: int, state: _core.State, searched: tuple[int | None, float], players: int
) -> float:
    """The value for ``player`` of ``state`` (searched: its mover and the mover's value)."""
    if state.is_terminal():
        returns = state.returns()
        return 0.0 if returns is None else float(returns[player])
    mover, value = searched
    if mover == player:
        return value
    if players == 2:
        return -value
    # Three or four players: the search values the position for its mover only; a move that
    # hands over the turn keeps the mover's estimate of the position it left.
    return value if mover is None else -value / (players - 1)


def _proof_for(player: int, state: _core.State, mover: int | None, proof: int | None) -> int | None:
    """The solver's value for ``player`` (two players) of a position proved ``proof`` for its
    ``mover``."""
    if state.is_terminal():
        returns = state.returns()
        return None if returns is None else int(round(float(returns[player])))
    if proof is None:
        return None
    return proof if mover == player else -proof


def _solve(state: _core.State) -> int | None:
    """The exact value for the mover when the solver proves it within :data:`SOLVER_NODES`."""
    try:
        result = _core.solve(state, max_nodes=SOLVER_NODES, threads=1, table_mb=8)
    except _core.StonefieldError:
        return None
    value = result.value
    return None if value is None else int(value)
