"""Training runs that survive what goes wrong (reliability review be7f9ce, finding 3): a run
in a folder that holds one is refused unless resumed or overwritten, a resumed run continues
where the first stopped and ends with the network of a run that went through, and a checkpoint
write cut by a full disk leaves the earlier checkpoint whole."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import stonefield as sf
from stonefield.alphazero import TrainConfig, loop, train
from stonefield.cli import main

GAME = sf.make("subsume", size=3)
TINY = TrainConfig(
    games=2,
    simulations=4,
    batch_size=4,
    epochs=1,
    window=2,
    hidden=8,
    layers=1,
    eval_games=0,
    seed=3,
)


def _weights(path: Path) -> list[np.ndarray]:
    with np.load(path) as data:
        return [data[k] for k in sorted(data.files) if k != "header"]


def test_a_run_is_refused_over_a_run_and_resumed_to_the_same_network(tmp_path: Path) -> None:
    through, stopped = tmp_path / "through", tmp_path / "stopped"
    train(GAME, 2, through, TINY)
    train(GAME, 1, stopped, TINY)
    # A second start in the same folder is refused and changes nothing.
    before = (stopped / "latest.npz").read_bytes()
    with pytest.raises(sf.InvalidOptionError, match="already holds a training run"):
        train(GAME, 2, stopped, TINY)
    assert (stopped / "latest.npz").read_bytes() == before
    # A resume of another game is refused, naming it.
    with pytest.raises(sf.InvalidOptionError):
        train(sf.make("subsume", size=4), 2, stopped, TINY, resume=True)
    rows = train(GAME, 2, stopped, TINY, resume=True)
    assert [r["iteration"] for r in rows] == [1, 2]
    for a, b in zip(_weights(stopped / "latest.npz"), _weights(through / "latest.npz")):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    # Overwrite starts again from round 1.
    rows = train(GAME, 1, stopped, TINY, overwrite=True)
    assert [r["iteration"] for r in rows] == [1]
    assert not (stopped / "checkpoint-002.npz").exists()


def test_the_train_command_resumes_and_refuses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    args = ["--games", "2", "--simulations", "4", "--eval-games", "0", "--hidden", "8"]
    start = ["train", "subsume", "--option", "size=3", "--out", str(out), *args]
    assert main([*start, "--iterations", "1"]) == 0
    capsys.readouterr()
    assert main([*start, "--iterations", "2"]) == 2
    assert "--resume" in capsys.readouterr().err
    # --resume takes the game and the settings from the run itself.
    assert main(["train", "--resume", str(out), "--iterations", "2"]) == 0
    assert "iteration 2:" in capsys.readouterr().err
    assert (out / "checkpoint-002.npz").exists()
    # --init starts a new run from the first run's network.
    warm = tmp_path / "warm"
    init = ["--init", str(out / "latest.npz"), "--iterations", "1"]
    assert main(["train", "subsume", "--option", "size=3", "--out", str(warm), *args, *init]) == 0
    assert (warm / "latest.npz").exists()


def test_a_full_disk_during_a_checkpoint_write_keeps_the_earlier_one(tmp_path: Path) -> None:
    out = tmp_path / "run"
    train(GAME, 1, out, TINY)
    latest = out / "latest.npz"
    before = latest.read_bytes()
    # The next write of latest.npz, with the files this process may write capped below its size.
    code = (
        "import resource, signal, sys\n"
        "import stonefield as sf\n"
        "from stonefield._checkpoint import CheckpointNetwork\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        "net = CheckpointNetwork.load(sys.argv[1])\n"
        "half = len(open(sys.argv[1], 'rb').read()) // 2\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (half, half))\n"
        "try:\n"
        "    net.save(sys.argv[1])\n"
        "except OSError:\n"
        "    sys.exit(3)\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(latest)], capture_output=True, text=True)
    assert done.returncode == 3, done.stderr
    assert latest.read_bytes() == before
    assert sorted(p.name for p in out.iterdir() if p.name.startswith(".")) == []
    sf.PUCT(checkpoint=str(latest), simulations=4).act(GAME.new_state())


def test_a_run_starts_from_an_earlier_network_and_refuses_one_that_does_not_fit(
    tmp_path: Path,
) -> None:
    from dataclasses import replace

    from stonefield.alphazero import Network

    first = tmp_path / "first"
    train(GAME, 1, first, TINY)
    start = first / "latest.npz"
    warm, cold = tmp_path / "warm", tmp_path / "cold"
    rows = train(GAME, 1, warm, replace(TINY, init=str(start), seed=4))
    cold_rows = train(GAME, 1, cold, replace(TINY, seed=4))
    # The warm run's first losses are those of the earlier network on the warm run's games.
    data = sf.SelfPlayData.load(warm / "resume" / "selfplay-001.npz")
    policy, value = Network.load(start, GAME).loss(data)
    assert rows[0]["policy_loss_before"] == pytest.approx(policy, rel=1e-5)
    assert rows[0]["value_loss_before"] == pytest.approx(value, rel=1e-5)
    assert rows[0]["policy_loss_before"] != pytest.approx(cold_rows[0]["policy_loss_before"])
    # A resume keeps the start it had.
    more = train(GAME, 2, warm, replace(TINY, init=str(start), seed=4), resume=True)
    assert [r["iteration"] for r in more] == [1, 2]
    with pytest.raises(sf.InvalidOptionError, match="init"):
        train(GAME, 3, warm, replace(TINY, seed=4), resume=True)
    # A network of another shape, another game, no file or a damaged one: refused, nothing
    # written.
    refused = tmp_path / "refused"
    with pytest.raises(sf.InvalidOptionError, match=r"hidden=8.*hidden=16"):
        train(GAME, 1, refused, replace(TINY, init=str(start), hidden=16))
    other = tmp_path / "other"
    train(sf.make("windflowers", size=3), 1, other, TINY)
    with pytest.raises(sf.InvalidOptionError, match="windflowers"):
        train(GAME, 1, refused, replace(TINY, init=str(other / "latest.npz")))
    with pytest.raises(sf.InvalidOptionError, match="no such file"):
        train(GAME, 1, refused, replace(TINY, init=str(tmp_path / "missing.npz")))
    damaged = tmp_path / "damaged.npz"
    damaged.write_bytes(start.read_bytes()[:200])
    with pytest.raises(sf.RecordError):
        train(GAME, 1, refused, replace(TINY, init=str(damaged)))
    assert not refused.exists()


def test_a_gated_run_plays_self_play_with_the_network_that_passed_and_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dataclasses import replace

    gated = replace(TINY, gate_games=4, eval_simulations=8, gate_threshold=0.5)
    through, stopped = tmp_path / "through", tmp_path / "stopped"
    # The network each round's self-play is given, as the bytes of a checkpoint.
    players: list[bytes] = []
    play_round = loop.play_round

    def recording(board: sf.Game, network: bytes, *args: Any, **kwargs: Any) -> Any:
        players.append(network)
        return play_round(board, network, *args, **kwargs)

    monkeypatch.setattr(loop, "play_round", recording)
    rows = train(GAME, 3, through, gated)
    assert [r["iteration"] for r in rows] == [1, 2, 3]
    best = 0
    for r in rows:
        assert 0 <= r["gate_low"] <= r["gate_score"] <= r["gate_high"] <= 1
        assert r["accepted"] == (r["gate_score"] >= 0.5)
        best = r["iteration"] if r["accepted"] else best
        assert r["best_round"] == best
    # With these seeds the first round fails the gate and a later one passes.
    assert not rows[0]["accepted"] and any(r["accepted"] for r in rows)

    def network_of(round_: int) -> Path:
        return through / (f"checkpoint-{round_:03d}.npz" if round_ else "resume/initial.npz")

    # best.npz is the network of the last round that passed (the initial one if none did),
    # and each round's self-play was played by the network that was best before it.
    for a, b in zip(_weights(through / "best.npz"), _weights(network_of(best))):
        np.testing.assert_array_equal(a, b)
    assert len(players) == 3
    for played, before in zip(players, [0] + [r["best_round"] for r in rows[:-1]]):
        with np.load(io.BytesIO(played)) as data:
            got = [data[k] for k in sorted(data.files) if k != "header"]
        for a, b in zip(got, _weights(network_of(before))):
            np.testing.assert_array_equal(a, b)
    assert "gate" in (through / "results.md").read_text()
    # Stopped after one round and resumed: the same networks as the run that went through.
    train(GAME, 1, stopped, gated)
    again = train(GAME, 3, stopped, gated, resume=True)
    assert [r["best_round"] for r in again] == [r["best_round"] for r in rows]
    assert [r["gate_score"] for r in again] == [r["gate_score"] for r in rows]
    for name in ("latest.npz", "best.npz"):
        for a, b in zip(_weights(stopped / name), _weights(through / name)):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    # A resume may not change the gate; settings out of range are refused.
    with pytest.raises(sf.InvalidOptionError, match="gate_games"):
        train(GAME, 4, stopped, replace(gated, gate_games=2), resume=True)
    with pytest.raises(sf.InvalidOptionError, match="gate_threshold"):
        train(GAME, 1, tmp_path / "x", replace(TINY, gate_threshold=0.0))
    with pytest.raises(sf.InvalidOptionError, match="gate_games"):
        train(GAME, 1, tmp_path / "x", replace(TINY, gate_games=-1))
