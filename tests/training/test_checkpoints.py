"""Checkpoints of ``stonefield train`` (reliability review be7f9ce, findings 4 and 13; issue 54
item 2): they load and play with numpy alone, every kind of bad file is a RecordError (or an
InvalidOptionError naming both games), and a small crafted file cannot make the loader take
gigabytes of memory."""

from __future__ import annotations

import io
import json
import os
import pickle
import struct
import subprocess
import sys
import textwrap
import zlib
from pathlib import Path

import numpy as np
import pytest

import stonefield as sf
from stonefield._checkpoint import CheckpointNetwork, mlp_shapes, read_checkpoint
from stonefield.agents import agent_string, parse_agent

GAME = sf.make("subsume", size=3)
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def good(tmp_path: Path) -> Path:
    path = tmp_path / "good.npz"
    CheckpointNetwork.random(GAME, hidden=16, layers=1, seed=3).save(path)
    return path


def _members(path: Path) -> dict[str, np.ndarray]:
    with np.load(path, allow_pickle=False) as f:
        return {k: f[k] for k in f.files}


def _header(path: Path) -> dict[str, object]:
    return dict(json.loads(str(_members(path)["header"][()])))


def _rewrite(src: Path, dst: Path, **changes: object) -> Path:
    """``src`` with its members replaced (a dict for the header's JSON, an array for others)."""
    arrays = _members(src)
    for key, value in changes.items():
        if key == "header":
            arrays["header"] = np.array(json.dumps(value))
        else:
            arrays[key] = np.asarray(value)
    np.savez(dst, **arrays)
    return dst


def test_a_checkpoint_plays_through_puct_and_the_agent_string(good: Path) -> None:
    state = GAME.new_state()
    agent = sf.PUCT(checkpoint=str(good), simulations=20, dirichlet_fraction=0)
    assert isinstance(agent.evaluator, CheckpointNetwork)
    assert state.is_legal(agent.act(state))
    net = read_checkpoint(good)
    same = sf.PUCT(net, simulations=20, dirichlet_fraction=0)
    assert np.array_equal(agent.analyse(state).visits, same.analyse(state).visits)
    parsed = parse_agent(f"puct:simulations=20,checkpoint={good}")
    assert agent_string(parsed) == f"puct:simulations=20,checkpoint={good}"
    assert state.is_legal(parsed.act(state))
    with pytest.raises(sf.InvalidOptionError, match="not both"):
        sf.PUCT(net, checkpoint=str(good))


def test_the_checkpoint_header_names_the_game_and_a_format_version(good: Path) -> None:
    header = _header(good)
    assert header["format"] == "stonefield-alphazero" and header["format_version"] == 2
    assert header["architecture"] == "graph"
    assert header["game"] == "subsume" and header["options"] == dict(GAME.options)


@pytest.mark.parametrize(
    ("other", "note"),
    [
        (sf.make("windflowers"), "another game"),
        (sf.make("subsume", size=3, anti_blob=False), "same shapes, other rules"),
        (sf.make("subsume", size=4, remove_surrounded=False), "another board and other rules"),
    ],
)
def test_a_checkpoint_of_another_game_is_refused_by_name(
    good: Path, other: sf.Game, note: str
) -> None:
    agent = sf.PUCT(checkpoint=str(good), simulations=10)
    with pytest.raises(sf.InvalidOptionError, match="holds a graph network for subsume") as e:
        agent.act(other.new_state())
    assert other.name in str(e.value) and "size=3" in str(e.value), note
    with pytest.raises(sf.InvalidOptionError, match="cannot play"):
        read_checkpoint(good, other)
    # A match and self-play ask the same question before their first search.
    with pytest.raises(sf.InvalidOptionError, match="cannot play"):
        sf.match(other, [agent, "random"], games=2)
    with pytest.raises(sf.InvalidOptionError, match="cannot play"):
        sf.selfplay(other, agent, games=1)


def test_the_forward_pass_refuses_inputs_of_another_shape(good: Path) -> None:
    net = read_checkpoint(good)
    state = sf.make("subsume", size=4).new_state()
    # A graph network plays another board once it has been shown it (a search does that).
    with pytest.raises(sf.InvalidOptionError, match="has not been given a board of 37 sites"):
        net(state.observation()[None], state.legal_mask()[None])
    with pytest.raises(sf.InvalidOptionError, match="reads observations of shape"):
        net(np.zeros((1, 3, 19), np.float32), GAME.new_state().legal_mask()[None])
    old = tmp_mlp = good.with_name("mlp.npz")
    CheckpointNetwork.random(GAME, hidden=16, layers=1, architecture="mlp").save(tmp_mlp)
    with pytest.raises(sf.InvalidOptionError, match="reads observations of shape"):
        read_checkpoint(old)(state.observation()[None], state.legal_mask()[None])


@pytest.mark.parametrize("size", [3, 4, 5])
def test_a_graph_network_plays_every_board_of_its_game(good: Path, size: int) -> None:
    # One set of weights: a search on any size of the game, the same network on the board it
    # was trained on, and an mlp network only on its own board.
    game = sf.make("subsume", size=size)
    agent = sf.PUCT(checkpoint=str(good), simulations=16, dirichlet_fraction=0)
    state = game.new_state()
    assert state.is_legal(agent.act(state))
    assert read_checkpoint(good, game).plays(game) is None
    mlp = CheckpointNetwork.random(GAME, hidden=16, layers=1, architecture="mlp")
    assert (mlp.plays(game) is None) == (size == 3)


def _bad_files(good: Path, tmp: Path) -> dict[str, Path]:
    raw = good.read_bytes()
    header = _header(good)
    files: dict[str, Path] = {}

    def put(name: str, data: bytes) -> None:
        files[name] = tmp / f"{name}.npz"
        files[name].write_bytes(data)

    put("empty", b"")
    put("truncated", raw[: len(raw) // 2])
    flipped = bytearray(raw)
    flipped[len(raw) // 3] ^= 0xFF  # inside leaf_0's data: the zip's CRC catches it
    put("flipped byte", bytes(flipped))
    put("text", b"not a zip at all\n")
    put("a raw pickle", pickle.dumps({"header": "x"}))
    nested: object = 1
    for _ in range(100_000):
        nested = [nested]
    deep = '{"format": "stonefield-alphazero", "x": ' + "[" * 100_000 + "]" * 100_000 + "}"
    files["recursive header"] = tmp / "deep.npz"
    np.savez(files["recursive header"], **{**_members(good), "header": np.array(deep)})
    for key, value in [
        ("format", "other"),
        ("format_version", 3),
        ("format_version", 1),  # version 1 held perceptrons only: these shapes do not fit
        ("architecture", "transformer"),
        ("hidden", -3),
        ("hidden", 10**9),
        ("layers", True),
        ("game", "chess"),
        ("options", {"size": 99}),
        ("leaves", 7),
    ]:
        files[f"header {key}={value}"] = _rewrite(
            good, tmp / f"h-{key}-{value}.npz", header={**header, key: value}
        )
    files["header not JSON"] = tmp / "notjson.npz"
    np.savez(files["header not JSON"], **{**_members(good), "header": np.array("{")})
    leaf = _members(good)["leaf_0"]
    for name, value in [
        ("float64 weights", leaf.astype(np.float64)),
        ("complex weights", leaf.astype(np.complex64)),
        ("int weights", leaf.astype(np.int32)),
        ("big-endian weights", leaf.astype(">f4")),
        ("wrong shape", leaf[:, :-1]),
        ("NaN weights", np.full_like(leaf, np.nan)),
    ]:
        files[name] = _rewrite(good, tmp / f"{name}.npz", leaf_0=value)
    files["an extra member"] = tmp / "extra.npz"
    np.savez(files["an extra member"], extra=np.zeros(3), **_members(good))
    files["a missing member"] = tmp / "missing.npz"
    np.savez(
        files["a missing member"], **{k: v for k, v in _members(good).items() if k != "leaf_1"}
    )
    # Object arrays: numpy writes them pickled; the loader must never unpickle.
    for name, member in [("object leaf", "leaf_0"), ("object header", "header")]:
        arrays: dict[str, object] = dict(_members(good))
        arrays[member] = np.array([{"a": 1}, None], dtype=object)
        files[name] = tmp / f"{member}-object.npz"
        np.savez(files[name], **arrays)  # type: ignore[arg-type]
    return files


def test_every_kind_of_bad_checkpoint_is_a_record_error(good: Path, tmp_path: Path) -> None:
    for name, path in _bad_files(good, tmp_path).items():
        with pytest.raises(sf.RecordError) as e:
            read_checkpoint(path)
        assert str(path) in str(e.value), name
        # The agent string and PUCT give the same reason, typed as the caller expects.
        with pytest.raises(sf.InvalidOptionError) as e2:
            parse_agent(f"puct:checkpoint={path}")
        assert "not a checkpoint" in str(e2.value) or "cannot be read" in str(e2.value), name
        with pytest.raises(sf.RecordError):
            sf.PUCT(checkpoint=str(path))


def test_the_messages_say_what_the_file_holds(good: Path, tmp_path: Path) -> None:
    bad = _bad_files(good, tmp_path)
    cases = {
        "format_version=3": "format version 3; this stonefield reads versions 1, 2",
        "architecture=transformer": "architecture 'transformer'",
        "hidden=-3": "hidden must be from 1 to",
        "float64 weights": "got <f8",
        "wrong shape": "expected <f4 of shape (8, 16)",
        "game=chess": "'chess'",
    }
    for key, words in cases.items():
        (path,) = [p for n, p in bad.items() if key in n]
        with pytest.raises(sf.RecordError) as e:
            read_checkpoint(path)
        assert words in str(e.value), (key, str(e.value))


def test_a_missing_checkpoint_is_an_invalid_option(tmp_path: Path) -> None:
    with pytest.raises(sf.InvalidOptionError, match="cannot be read"):
        parse_agent(f"puct:checkpoint={tmp_path / 'nope.npz'}")


def _deflated(prefix: bytes, zeros: int) -> tuple[bytes, int, int]:
    """A raw deflate stream of ``prefix`` and ``zeros`` zero bytes, its CRC and its length,
    made in a moment: after a full flush the compressor starts afresh, so every 4 MiB block of
    zeros compresses to the same bytes."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    parts = [c.compress(prefix), c.flush(zlib.Z_FULL_FLUSH)]
    crc = zlib.crc32(prefix)
    chunk = bytes(1 << 22)
    blocks, rest = divmod(zeros, len(chunk))
    if blocks:
        parts.append((c.compress(chunk) + c.flush(zlib.Z_FULL_FLUSH)) * blocks)
        for _ in range(blocks):
            crc = zlib.crc32(chunk, crc)
    parts += [c.compress(bytes(rest)), c.flush()]
    return b"".join(parts), zlib.crc32(bytes(rest), crc), len(prefix) + zeros


def _write_bomb(path: Path, header: dict[str, object], members: dict[str, tuple[int, ...]]) -> None:
    """A zip of deflated members: the header, then members that declare (and hold) float32
    zeros of each shape, about a thousandth of their size on disk."""
    buf = io.BytesIO()
    np.lib.format.write_array(buf, np.array(json.dumps(header)))
    entries = [("header.npy", *_deflated(buf.getvalue(), 0))]
    for name, shape in members.items():
        buf = io.BytesIO()
        np.lib.format.write_array_header_1_0(
            buf, {"descr": "<f4", "fortran_order": False, "shape": shape}
        )
        entries.append((f"{name}.npy", *_deflated(buf.getvalue(), int(np.prod(shape)) * 4)))
    with open(path, "wb") as f:
        central = b""
        for name, data, crc, size in entries:
            offset, raw = f.tell(), name.encode()
            fields = (8, 0, 0x21, crc, len(data), size, len(raw))
            f.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, *fields, 0) + raw + data)
            central += (
                struct.pack(
                    "<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, *fields, 0, 0, 0, 0, 0, offset
                )
                + raw
            )
        start = f.tell()
        f.write(central)
        n = len(entries)
        f.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, n, n, len(central), start, 0))


def test_a_small_crafted_checkpoint_cannot_take_gigabytes(good: Path, tmp_path: Path) -> None:
    header = {**_header(good), "architecture": "mlp", "leaves": 4}
    shapes = mlp_shapes(GAME, 16, 1)
    # A member that declares 1 GiB where the header's network wants 16 floats.
    lying = tmp_path / "bomb-leaf.npz"
    members = {f"leaf_{i}": s for i, s in enumerate(shapes)}
    members["leaf_1"] = (1 << 28,)
    _write_bomb(lying, header, members)
    # A header whose network is itself 2 GiB, every member fitting it.
    big = {**header, "hidden": 8192, "layers": 8, "leaves": 18}
    consistent = tmp_path / "bomb-net.npz"
    _write_bomb(consistent, big, {f"leaf_{i}": s for i, s in enumerate(mlp_shapes(GAME, 8192, 8))})
    for path in (lying, consistent):
        assert path.stat().st_size < 3 << 20
    script = textwrap.dedent(
        f"""
        import resource, sys
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        import stonefield as sf
        from stonefield._checkpoint import read_checkpoint
        for path in {[str(lying), str(consistent)]!r}:
            try:
                read_checkpoint(path)
            except sf.RecordError as e:
                print("RecordError", e)
            try:
                sf.parse_agent("puct:checkpoint=" + path)
            except sf.InvalidOptionError as e:
                print("InvalidOptionError", e)
        """
    )
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["RecordError", "InvalidOptionError"] * 2
    assert "expected <f4 of shape (16,)" in lines[0]
    assert "more than 16 times the file's" in lines[2]


_NO_JAX = textwrap.dedent(
    """
    import sys
    sys.modules["jax"] = None  # any import of JAX fails
    import numpy as np
    import stonefield as sf
    from stonefield._checkpoint import CheckpointNetwork
    game = sf.make("subsume", size=3)
    path = sys.argv[1]
    CheckpointNetwork.random(game, hidden=16, layers=2).save(path)
    state = game.new_state()
    for agent in (sf.PUCT(checkpoint=path, simulations=16),
                  sf.parse_agent(f"puct:simulations=16,checkpoint={path}")):
        assert state.is_legal(agent.act(state))
    print(sf.match(game, [sf.parse_agent(f"puct:simulations=8,checkpoint={path}"), "random"],
                   games=2).n_games)
    assert not any(m == "jax" or m.startswith("jax.") for m in sys.modules if sys.modules[m])
    """
)


def test_a_checkpoint_plays_without_jax(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-c", _NO_JAX, str(tmp_path / "net.npz")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "2"


def test_jax_and_numpy_read_the_same_network(tmp_path: Path) -> None:
    az = pytest.importorskip("stonefield.alphazero")
    net = az.Network.create(GAME, hidden=16, layers=2, seed=5)
    net.save(tmp_path / "az.npz")
    plain = read_checkpoint(tmp_path / "az.npz")
    back = az.Network.load(tmp_path / "az.npz")
    obs, mask = net.example_batch(3)
    for other in (plain, back):
        p, v = other.evaluate(obs, mask)
        p0, v0 = net.evaluate(obs, mask)
        assert np.array_equal(p, p0) and np.array_equal(v, v0)
    # The numpy network's own file reads back into JAX too.
    CheckpointNetwork.random(GAME, hidden=16, layers=2).save(tmp_path / "np.npz")
    again = az.Network.load(tmp_path / "np.npz")
    p1, _ = again.evaluate(obs, mask)
    p2, _ = read_checkpoint(tmp_path / "np.npz").evaluate(obs, mask)
    assert np.array_equal(p1, p2)


def test_the_committed_checkpoint_still_loads() -> None:
    # Written before checkpoints had a format version: read as version 1.
    found = sorted(ROOT.glob("**/subsume4-30min/latest.npz"))
    if not found:
        pytest.skip("the committed checkpoint is not in this tree")
    net = read_checkpoint(found[0])
    assert net.game == sf.make("subsume", size=4) and net.hidden == 256
    state = net.game.new_state()
    assert state.is_legal(sf.PUCT(net, simulations=16).act(state))
