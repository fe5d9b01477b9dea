"""The small AlphaZero loop (stonefield[jax], installed by the README's test command): a
CI-sized run whose losses fall and whose checkpoint reloads to the same outputs, the `train`
command, the batch adapter, and a PyTorch-style plain function as the evaluator."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import stonefield as sf
from stonefield.agents import agent_string, parse_agent
from stonefield.alphazero import (
    Network,
    TrainConfig,
    augment,
    batches,
    board_symmetries,
    game_symmetries,
    train,
)
from stonefield.cli import main

GAME = sf.make("subsume", size=3)

SMALL = TrainConfig(
    games=16,
    simulations=32,
    batch_size=8,
    epochs=6,
    hidden=64,
    eval_games=4,
    eval_simulations=32,
    uct_iterations=32,
    seed=1,
)


def test_a_short_run_learns_and_its_checkpoint_reloads(tmp_path: Path) -> None:
    rows = train(GAME, 3, tmp_path, SMALL)
    assert [r["iteration"] for r in rows] == [1, 2, 3]
    # The loss falls: on every round's fresh data the trained network beats its state before
    # training, and the value loss ends well below where it started.
    for r in rows:
        assert r["policy_loss"] + r["value_loss"] < r["policy_loss_before"] + r["value_loss_before"]
    assert rows[-1]["value_loss"] < rows[0]["value_loss_before"]
    for r in rows:
        assert 0 <= r["score_low"] <= r["score_vs_uct"] <= r["score_high"] <= 1
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == [
        "checkpoint-001.npz",
        "checkpoint-002.npz",
        "checkpoint-003.npz",
        "latest.npz",
        "results.json",
        "results.md",
        "resume",
    ]
    # What a resume needs: the optimiser's state and the replay window's data.
    # (and the network the round's self-play played, as the workers read it).
    assert sorted(p.name for p in (tmp_path / "resume").iterdir()) == [
        "network.npz",
        "selfplay-001.npz",
        "selfplay-002.npz",
        "selfplay-003.npz",
        "state.npz",
    ]
    saved = json.loads((tmp_path / "results.json").read_text())
    assert saved["game"] == "subsume" and len(saved["rows"]) == 3
    # The library versions that made the run, for telling a rerun's differences apart.
    versions = saved["versions"]
    assert versions["stonefield"] == sf.__version__ and versions["python"].count(".") == 2
    for name in ("numpy", "jax", "optax", "equinox"):
        assert isinstance(versions[name], str) and versions[name][0].isdigit(), name
    assert "score vs UCT" in (tmp_path / "results.md").read_text()
    # The checkpoint is plain numpy (no pickles) and reloads to the same outputs.
    with np.load(tmp_path / "latest.npz", allow_pickle=False) as f:
        assert "header" in f.files
    net = Network.load(tmp_path / "latest.npz")
    again = Network.load(tmp_path / "latest.npz")
    obs, mask = net.example_batch(3)
    p1, v1 = net.evaluate(obs, mask)
    p2, v2 = again.evaluate(obs, mask)
    assert np.array_equal(p1, p2) and np.array_equal(v1, v2)
    np.testing.assert_allclose(p1.sum(axis=1), 1, atol=1e-5)
    assert (p1[~mask] < 1e-6).all()
    # The same search with either copy plays the same move.
    state = GAME.new_state()
    a = sf.PUCT(net.evaluate, simulations=30, dirichlet_fraction=0).analyse(state)
    b = sf.PUCT(again.evaluate, simulations=30, dirichlet_fraction=0).analyse(state)
    assert np.array_equal(a.visits, b.visits)


def test_a_file_that_is_not_a_checkpoint_is_a_record_error(tmp_path: Path) -> None:
    path = tmp_path / "x.npz"
    np.savez(path, header=np.array('{"format": "other"}'))
    with pytest.raises(sf.RecordError, match="not a checkpoint"):
        Network.load(path)


def test_the_train_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    code = main(
        [
            "train", "subsume", "--option", "size=3", "--iterations", "1", "--out", str(out),
            "--games", "4", "--simulations", "8", "--eval-games", "2",
            "--eval-simulations", "8", "--uct-iterations", "8",
        ]
    )  # fmt: skip
    assert code == 0
    assert (out / "latest.npz").exists() and (out / "results.md").exists()
    assert "iteration 1:" in capsys.readouterr().err


def test_batches_cover_the_data_in_the_observation_frame() -> None:
    d = sf.selfplay(GAME, sf.PUCT(simulations=10), games=3, seed=2)
    seen = 0
    for b in batches(d, 16, seed=0):
        n = len(b["observations"])
        assert b["observations"].dtype == np.float32 and b["legal_masks"].dtype == np.bool_
        assert b["policies"].shape == (n, GAME.num_actions) and b["values"].shape == (n, 2)
        seen += n
    assert seen == len(d)
    rel = d.relative_returns()
    assert np.array_equal(rel[:, 0], d.value_targets())
    assert np.array_equal(rel[:, 1], -rel[:, 0])  # two players, zero-sum


def test_any_function_of_the_two_arrays_is_an_evaluator() -> None:
    # What a PyTorch user writes: a function of numpy arrays returning numpy arrays.
    planes, sites = GAME.observation_shape
    w = np.random.default_rng(0).normal(size=(planes * sites, GAME.num_actions)).astype(np.float32)

    def linear(obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        logits = obs.reshape(len(obs), -1) @ w
        p = np.exp(logits - logits.max(axis=1, keepdims=True)) * mask
        return (p / p.sum(axis=1, keepdims=True)).astype(np.float32), np.zeros(
            (len(obs), 2), np.float32
        )

    res = sf.PUCT(linear, simulations=40).analyse(GAME.new_state())
    assert int(res.visits.sum()) == 40


def test_puct_string_reads_a_trained_checkpoint(tmp_path: Any) -> None:
    game = sf.make("subsume", size=3)
    path = str(tmp_path) + "/net.npz"
    Network.create(game, hidden=8, seed=0).save(path)
    agent = parse_agent(f"puct:simulations=16,checkpoint={path}")
    assert agent_string(agent) == f"puct:simulations=16,checkpoint={path}"
    state = game.new_state()
    assert state.is_legal(agent.act(state))
    # The network is the checkpoint's: the same priors as the saved one.
    net = Network.load(path)
    obs, mask = net.example_batch(1)
    assert (agent.evaluator(obs, mask)[0] == net.evaluate(obs, mask)[0]).all()


@pytest.mark.parametrize("architecture", ["graph", "mlp"])
def test_the_numpy_evaluator_is_the_jax_model(architecture: str) -> None:
    # evaluate() runs the forward pass in numpy; it must be the trained JAX model's, and follow
    # the weights as training changes them.
    import jax

    from stonefield.alphazero.network import board_arrays

    net = Network.create(GAME, hidden=32, layers=3, seed=4, architecture=architecture)
    d = sf.selfplay(GAME, sf.PUCT(simulations=8), games=4, seed=5)
    for _ in range(2):
        obs, mask = d.observations[:50], d.legal_masks[:50]
        priors, values = net.evaluate(obs, mask)
        assert priors.dtype == np.float32 and values.dtype == np.float32
        logits, jvalues = net.model(jax.numpy.asarray(obs), board_arrays(GAME))
        jpriors = jax.nn.softmax(np.where(mask, np.asarray(logits), -1e9), axis=-1)
        np.testing.assert_allclose(priors, np.asarray(jpriors), atol=1e-5)
        np.testing.assert_allclose(values, np.asarray(jvalues), atol=1e-5)
        net.fit(d, epochs=3)


def test_a_symmetry_moves_a_position_to_its_image() -> None:
    # Subsume's rules respect all 12 symmetries of the hexagon: the game played through a
    # symmetry is the image of the game, and augment() moves a position's arrays to the image's.
    game = sf.make("subsume", size=4)
    syms = game_symmetries(game)
    assert len(syms) == 12 and np.array_equal(syms[0], np.arange(game.num_sites))
    assert sorted(map(bytes, syms)) == sorted(map(bytes, board_symmetries(game)))
    rng = np.random.default_rng(3)
    for perm in syms[1:]:
        state, image = game.new_state(), game.new_state()
        for _ in range(12):
            a = int(rng.choice(state.legal_actions()))
            state.apply(a)
            image.apply(int(perm[a]))
        mask = state.legal_mask()
        policy = rng.random(game.num_actions).astype(np.float32) * mask
        batch = {
            "observations": state.observation()[None],
            "legal_masks": mask[None],
            "policies": policy[None],
            "values": np.array([[0.5, -0.5]], np.float32),
        }
        moved = augment(batch, np.stack([perm, perm]), rng)
        assert np.array_equal(moved["observations"][0], image.observation())
        assert np.array_equal(moved["legal_masks"][0], image.legal_mask())
        assert np.array_equal(moved["policies"][0][perm], policy)
        assert np.array_equal(moved["values"], batch["values"])


@pytest.mark.parametrize(
    ("name", "options", "board", "kept"),
    [
        ("subsume", {"size": 3}, 12, 12),
        ("smallholder", {}, 12, 12),
        # Actions that name no site (a pass; Faraday's pass, accept, swap) stay where they are,
        # and Faraday's phase-1 stones keep their colour on the image site.
        ("windflowers", {"grid": "hex", "size": 3}, 6, 6),
        ("windflowers", {}, 4, 4),
        ("faraday", {}, 12, 12),
    ],
)
def test_which_symmetries_a_game_keeps(
    name: str, options: dict[str, Any], board: int, kept: int
) -> None:
    game = sf.make(name, **options)
    assert len(board_symmetries(game)) == board
    assert len(game_symmetries(game)) == kept


def test_a_time_budget_stops_the_run(tmp_path: Path) -> None:
    # The first iteration always runs; none starts that would end past the budget.
    tiny = TrainConfig(games=2, simulations=4, hidden=8, eval_games=0, minutes=1e-6)
    rows = train(GAME, 5, tmp_path, tiny)
    assert len(rows) == 1
    saved = json.loads((tmp_path / "results.json").read_text())
    assert saved["config"]["minutes"] == 1e-6 and saved["symmetries"] == 12
    with pytest.raises(sf.InvalidOptionError, match="minutes must be a positive number"):
        train(GAME, 1, tmp_path, TrainConfig(minutes=0))


def test_augment_moves_faraday_pie_actions_and_keeps_the_others() -> None:
    # A position in Faraday's pie offer: player 0 has put a second-colour stone on one site.
    # Its image under a symmetry is the position with that stone on the image site; the legal
    # mask and the policy move the same way, the pass stays where it is.
    from stonefield.alphazero.symmetry import action_permutation, augment

    game = sf.make("faraday", order=3)
    n = game.num_sites
    perm = game_symmetries(game)[1]
    moved = action_permutation(game, perm)
    state = game.new_state()
    state.apply(n + 0)  # a player-1 stone on site 0
    image = game.new_state()
    image.apply(int(moved[n + 0]))
    assert int(moved[n + 0]) == n + int(perm[0]) and int(moved[2 * n]) == 2 * n
    policy = np.zeros(game.num_actions, np.float32)
    policy[[3, n + 5, 2 * n]] = [0.5, 0.25, 0.25]
    batch = {
        "observations": state.observation()[None],
        "legal_masks": state.legal_mask()[None],
        "policies": policy[None],
        "policy_weights": np.ones(1, np.float32),
        "values": np.zeros((1, 2), np.float32),
    }
    out = augment(batch, np.stack([perm, perm]), np.random.default_rng(0), np.stack([moved] * 2))
    assert np.array_equal(out["observations"][0], image.observation())
    assert np.array_equal(out["legal_masks"][0], image.legal_mask())
    expected = np.zeros_like(policy)
    expected[[int(moved[3]), int(moved[n + 5]), 2 * n]] = [0.5, 0.25, 0.25]
    assert np.array_equal(out["policies"][0], expected)
