"""Batch simulation: reproducibility, dtypes, the fast random-action sampler, the CLI."""

from __future__ import annotations

import json

import numpy as np
import pytest

import stonefield as sf
from configs import CONFIGS, config_id
from stonefield.cli import main


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_same_seed_same_results_whatever_the_threads(config) -> None:
    name, options = config
    game = sf.make(name, **options)
    one = sf.simulate(game, 150, seed=9, threads=1)
    two = sf.simulate(game, 150, seed=9, threads=2)
    for field in ("returns", "ranks", "lengths", "truncated"):
        assert np.array_equal(getattr(one, field), getattr(two, field))
    p = game.num_players
    assert one.returns.dtype == np.float64 and one.returns.shape == (150, p)
    assert one.ranks.dtype == np.float64 and one.ranks.shape == (150, p)
    assert one.lengths.dtype == np.uint32 and one.lengths.shape == (150,)
    assert one.truncated.dtype == np.bool_
    assert np.allclose(one.ranks.sum(axis=1), p * (p + 1) / 2)
    other = sf.simulate(game, 150, seed=10, threads=1)
    if not one.truncated.all():
        assert not np.array_equal(one.lengths, other.lengths)


def test_simulate_by_name_and_zero_games() -> None:
    r = sf.simulate("windflowers", 0, players=3)
    assert r.returns.shape == (0, 3)
    assert "0 random games" in r.summary()
    with pytest.raises(sf.InvalidOptionError):
        sf.simulate("windflowers", 10, grid="round")
    with pytest.raises(ValueError):
        sf.simulate("windflowers", 10, threads=0)
    with pytest.raises(MemoryError, match="at most"):
        sf.simulate("windflowers", 10**15)
    with pytest.raises(MemoryError, match="at most"):
        sf.VectorEnv("windflowers", 10**12)


def test_progress_callback() -> None:
    seen: list[tuple[int, int]] = []
    sf.simulate("windflowers", 1000, progress=lambda d, t: seen.append((d, t)))
    assert seen and seen[-1] == (1000, 1000)
    assert all(a[0] < b[0] for a, b in zip(seen, seen[1:]))


def test_random_action_is_uniform_over_the_legal_set() -> None:
    """The engine's sampler (rejection sampling over the action space) must be uniform over the
    legal actions, exactly as drawing from the full legal list."""
    game = sf.make("windflowers", grid="square", size=3)
    state = game.new_state()
    for a in (5, 0, 2, 16, 1, 9, 6, 16):
        state.apply(a)
    legal = state.legal_actions()
    assert 3 < len(legal) < game.num_actions
    draws = 20000
    counts = np.zeros(game.num_actions)
    # Vary the seed: each seed gives one draw at this position.
    for seed in range(draws):
        a = state.random_action(seed)
        counts[a] += 1
    assert set(np.flatnonzero(counts)) == set(legal)
    expected = draws / len(legal)
    chi2 = (((counts[legal] - expected) ** 2) / expected).sum()
    # 99.9% quantile of chi-square with len(legal) - 1 degrees of freedom, loosely bounded.
    assert chi2 < len(legal) + 6 * np.sqrt(2 * len(legal)) + 10


def test_cli_simulate(capsys) -> None:
    assert main(["simulate", "windflowers", "players=3", "grid=hex", "-n", "200", "-q"]) == 0
    out = capsys.readouterr().out
    assert "playouts/s" in out and "moves/s" in out and "average length" in out
    assert main(["simulate", "windflowers", "-n", "100", "--json", "--threads", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 100 and len(data["win_rates"]) == 2
    assert main(["simulate", "windflowers", "grid=round", "-n", "5"]) == 2
    assert "allowed" in capsys.readouterr().err


def test_cli_bench_json(capsys) -> None:
    assert main(["bench", "windflowers", "size=3", "--seconds", "0.05", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows[0]["playouts_per_second"] > 0 and rows[0]["threads"] == 1


def test_cli_bench_lab(capsys) -> None:
    """`bench --lab` times the lab's measured random games next to the plain ones."""
    args = ["bench", "faraday", "order=3", "--seconds", "0.05", "--threads", "2", "--lab"]
    assert main([*args, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["kind"], r["threads"]) for r in rows] == [
        ("simulate", 1),
        ("lab", 1),
        ("simulate", 2),
        ("lab", 2),
    ]
    for sim, lab in zip(rows[::2], rows[1::2]):
        assert lab["games"] > 0 and lab["moves_per_second"] > 0
        assert lab["slowdown"] == sim["playouts_per_second"] / lab["playouts_per_second"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "lab" in out and "× simulate's time" in out


@pytest.mark.timing
def test_ctrl_c_interrupts_a_long_run() -> None:
    """A KeyboardInterrupt (as Ctrl-C sends) stops `simulate` between blocks of games.

    10**7 games take seconds to play and their result buffers are 530 MB: the buffers are
    written block by block (they once were zeroed up front with the GIL held, which on a loaded
    machine kept the interrupt waiting for 10 s). No timing is asserted: only that it stops."""
    import _thread
    import threading

    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            sf.simulate("windflowers", 10**7, threads=1)
    finally:
        timer.cancel()
