"""The variant lab against sf.simulate on the same random games (a benchmark, never a timed
test). Run with ``pytest benches/test_lab_bench.py --benchmark-enable``; the lab's docs page
(docs/lab.md) gives the measured ratios."""

from __future__ import annotations

import pytest

import stonefield as sf

GAMES = 2000


@pytest.mark.parametrize("game", sf.games())
def test_lab_random_games(benchmark, game: str) -> None:
    def run() -> int:
        lab = sf.lab.evaluate(game, games=GAMES, seed=1, kingmaking=0)
        return len(lab.metrics()[0])

    assert benchmark(run) > 10


@pytest.mark.parametrize("game", sf.games())
def test_simulate_same_games(benchmark, game: str) -> None:
    assert benchmark(lambda: sf.simulate(game, GAMES, seed=1).n_games) == GAMES
