"""The Bradley–Terry fit of the lab's metrics (the strength ladder's ratings)."""

from __future__ import annotations

import math

import pytest

from stonefield.lab.metrics import BT_CAP, bradley_terry


def test_two_agents_give_the_elo_of_the_score() -> None:
    # Two agents: the fit's rating is the Elo difference of the score, 400 log10(s / (1 - s)).
    elo, half = bradley_terry(["uct", "strong"], [(0, 1, 30.0, 100)])
    assert elo[0] == 0.0 and half[0] == 0.0
    assert elo[1] == pytest.approx(400 * math.log10(0.7 / 0.3), abs=1e-6)
    # The half-width is 1.96 standard errors of the logit, 1 / sqrt(n p (1 - p)), in Elo.
    assert half[1] == pytest.approx(1.96 / math.sqrt(100 * 0.21) * 400 / math.log(10), rel=1e-6)


def test_the_anchor_is_uct_or_the_first_agent() -> None:
    results = [(0, 1, 60.0, 100), (1, 2, 50.0, 100), (0, 2, 70.0, 100)]
    elo, _ = bradley_terry(["a", "uct", "b"], results)
    assert elo[1] == 0.0 and elo[0] > 0.0
    elo, _ = bradley_terry(["a", "c", "b"], results)
    assert elo[0] == 0.0 and elo[1] < 0.0
    elo, _ = bradley_terry(["a", "c", "b"], results, anchor="b")
    assert elo[2] == 0.0


def test_an_agent_that_lost_every_game_is_unbounded() -> None:
    elo, half = bradley_terry(["random", "uct"], [(0, 1, 0.0, 20)])
    assert elo[0] == pytest.approx(-BT_CAP) and math.isinf(half[0])


def test_draws_count_half() -> None:
    # Every game drawn: equal ratings.
    elo, half = bradley_terry(["uct", "x"], [(0, 1, 10.0, 20)])
    assert elo[1] == pytest.approx(0.0, abs=1e-9) and half[1] > 0.0
