"""Self-play of ``stonefield train`` split over Ray workers (issue 54, item 4): the workers
rebuild the network from the checkpoint bytes the learner publishes and play the games of
the whole round, so the data equal those of the round played in this process."""

from __future__ import annotations

import os
import tempfile
from typing import Any

import numpy as np
import pytest

import stonefield as sf
from stonefield._checkpoint import CheckpointNetwork
from stonefield._workers import RoundSettings, play_round
from stonefield.selfplay import ARRAYS


@pytest.fixture(scope="module")
def ray_local() -> Any:
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        ray.shutdown()
    # address="local": a Ray of its own, never one already running on the machine.
    ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        logging_level="ERROR",
    )
    yield ray
    ray.shutdown()


def _bytes(net: CheckpointNetwork) -> bytes:
    path = os.path.join(tempfile.mkdtemp(), "net.npz")
    net.save(path)
    with open(path, "rb") as f:
        return f.read()


@pytest.mark.parametrize("architecture", ["mlp", "graph"])
def test_workers_play_the_games_of_the_round_played_here(ray_local: Any, architecture: str) -> None:
    game = sf.make("subsume", size=3)
    net = CheckpointNetwork.random(game, hidden=8, layers=1, seed=4, architecture=architecture)
    settings = RoundSettings(
        games=5,
        simulations=12,
        batch_size=4,
        temperature_moves=2,
        agent_seed=3,
        seed=11,
        full_search_share=0.5,
        fast_simulations=3,
    )
    here, stats = play_round(game, _bytes(net), settings)
    assert stats.parts == 1
    if architecture == "mlp":
        assert stats.network_seconds is not None
        assert 0 < stats.network_seconds < stats.part_seconds
    else:  # played natively, inside the search: not timed from Python
        assert stats.network_seconds is None
    spread, spread_stats = play_round(game, _bytes(net), settings, workers=2)
    assert spread_stats.parts == 2
    assert spread.num_games == here.num_games == 5
    for key in ARRAYS:
        assert np.array_equal(getattr(spread, key), getattr(here, key)), key
    with pytest.raises(sf.InvalidOptionError, match="workers must be at least 1"):
        play_round(game, _bytes(net), settings, workers=0)
