"""Playing strength with fixed seeds, on every game's default configuration.

MCTS with 1000 iterations must score at least 90 % against uniformly random play, and MCTS with
4000 iterations must beat MCTS with 250 with the whole 95 % Wilson interval of its score above
one half. The seeds are fixed and native matches do not depend on the thread count, so these
results are reproducible; they take about a minute of CPU in all (marked ``slow``, and run by
default).
"""

from __future__ import annotations

import pytest

import stonefield as sf

GAMES = sf.games()


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_mcts_1000_scores_90_percent_against_random(name: str) -> None:
    m = sf.match(name, [sf.MCTS(iterations=1000), sf.RandomAgent()], games=20, seed=1)
    assert m.score[0] >= 0.9, m.summary()


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_mcts_4000_beats_mcts_250(name: str) -> None:
    m = sf.match(name, [sf.MCTS(iterations=4000), sf.MCTS(iterations=250)], games=30, seed=2)
    assert m.score[0] > 0.5, m.summary()
    assert m.score_ci[0, 0] > 0.5, m.summary()
    assert m.elo is not None and m.elo > 0
