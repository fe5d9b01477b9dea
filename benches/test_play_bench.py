"""pytest-benchmark benchmarks of the play page's server side: the hint at its default budget on
every game's default board (the coach's, the expert there: see ``_coach.coach``; the page
promises an answer within 2 s), and one human move as the page makes it (apply, draw,
describe). Run with ``pytest benches/test_play_bench.py
--benchmark-enable``; CI runs each once with benchmarking disabled."""

from __future__ import annotations

import random

import pytest

import stonefield as sf
from stonefield.play import _coach
from stonefield.play._agents import Seat
from stonefield.play._session import Session


def _opening(game: str, moves: int = 6) -> sf.State:
    """A few seeded random moves into the game's default board."""
    state = sf.make(game).new_state()
    rng = random.Random(game)
    for _ in range(moves):
        state.apply(rng.choice([int(a) for a in state.legal_actions()]))
    return state


@pytest.mark.parametrize("game", sf.games())
def test_hint_at_the_default_budget(benchmark, game: str) -> None:
    state = _opening(game)
    budget = _coach.budgets(state.game)[0]  # the coach's: the expert's simulations here
    hint = benchmark(_coach.hint, state, budget, 1)
    assert hint["iterations"] == budget and hint["action"] in state.legal_actions()


@pytest.mark.parametrize("game", sf.games())
def test_a_human_move_on_the_server(benchmark, game: str) -> None:
    session = Session(sf.make(game), [Seat("human")] * sf.make(game).num_players)
    state = _opening(game)
    action = int(state.legal_actions()[0])
    for a in state.history:
        session.play(a)

    def move() -> int:
        session.play(action)
        view = session.describe()
        session.undo()
        return len(view["svg"])

    assert benchmark(move) > 0
