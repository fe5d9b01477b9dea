"""sf.selfplay and SelfPlayData: shapes, dtypes, consistency with the games, temperature, and
save/load with validation."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import stonefield as sf
from stonefield.selfplay import SelfPlayData


def _data(**kw: Any) -> SelfPlayData:
    args: dict[str, Any] = {"games": 3, "seed": 4, "temperature_moves": 2, "threads": 1}
    args.update(kw)
    return sf.selfplay("subsume", sf.MCTS(iterations=40, seed=1), size=3, **args)


@pytest.fixture(scope="module")
def data() -> SelfPlayData:
    return _data()


def test_shapes_and_dtypes(data: SelfPlayData) -> None:
    game = data.game
    n = len(data)
    planes, sites = game.observation_shape
    assert data.observations.shape == (n, planes, sites)
    assert data.observations.dtype == np.float32
    assert data.policies.shape == (n, game.num_actions) and data.policies.dtype == np.float32
    assert data.players.shape == (n,) and data.players.dtype == np.int8
    assert data.returns.shape == (n, 2) and data.returns.dtype == np.float32
    assert data.game_index.shape == (n,) and data.game_index.dtype == np.uint32
    assert data.actions.dtype == np.uint32 and data.offsets.dtype == np.int64
    assert data.num_games == 3 and data.offsets.shape == (4,)


def test_rows_agree_with_a_replay_of_the_games(data: SelfPlayData) -> None:
    row = 0
    for i in range(data.num_games):
        state = data.game.new_state()
        for action in data.game_actions(i):
            assert data.game_index[row] == i
            assert data.players[row] == state.current_player
            assert np.array_equal(data.observations[row], state.observation())
            policy = data.policies[row]
            assert policy.sum() == pytest.approx(1.0, abs=1e-5)
            assert (policy[~state.legal_mask()] == 0).all()
            state.apply(action)
            row += 1
        assert state.is_terminal()
        rows = data.game_index == i
        assert (data.returns[rows] == state.returns().astype(np.float32)).all()
    assert row == len(data)


def test_records_replay(data: SelfPlayData) -> None:
    records = data.records()
    assert len(records) == data.num_games
    for i, record in enumerate(records):
        assert sf.from_record(record).history == data.game_actions(i)


def test_same_seed_same_data_whatever_the_threads(data: SelfPlayData) -> None:
    other = _data(threads=2)
    assert np.array_equal(data.actions, other.actions)
    assert np.array_equal(data.policies, other.policies)


def test_temperature_samples_the_first_moves_only() -> None:
    # Without the solver (which plays a proven win at once) the agent's own choice is the most
    # visited action; the first `temperature_moves` moves are drawn in proportion to visits.
    d = sf.selfplay(
        "subsume",
        sf.MCTS(iterations=40, solver=False),
        games=6,
        seed=4,
        temperature_moves=4,
        size=3,
        threads=1,
    )
    sampled_off_best = 0
    for row in range(len(d)):
        i = int(d.game_index[row])
        k = row - int(d.offsets[i])
        policy = d.policies[row]
        chosen = d.game_actions(i)[k]
        assert policy[chosen] > 0
        if k < 4:
            sampled_off_best += int(policy[chosen] < policy.max())
        else:
            assert policy[chosen] == policy.max()
    assert sampled_off_best > 0
    openings = {tuple(d.game_actions(i)[:4]) for i in range(6)}
    assert len(openings) > 1


def test_save_load_round_trip(data: SelfPlayData, tmp_path: Path) -> None:
    path = tmp_path / "d.npz"
    data.save(path)
    back = SelfPlayData.load(path)
    assert back.game == data.game
    keys = ("observations", "policies", "legal_masks", "players", "returns", "game_index")
    for key in (*keys, "actions", "full_search", "search_values"):
        a, b = getattr(data, key), getattr(back, key)
        assert a.dtype == b.dtype and np.array_equal(a, b)
    assert np.array_equal(back.offsets, data.offsets)
    with zipfile.ZipFile(path) as z:  # one file, numpy's own format, no pickles
        assert sorted(z.namelist()) == sorted(
            f"{k}.npy"
            for k in (
                "header",
                "observations",
                "policies",
                "players",
                "returns",
                "game_index",
                "actions",
                "offsets",
                "legal_masks",
                "full_search",
                "search_values",
            )
        )


def _save_changed(data: SelfPlayData, path: Path, **changes: Any) -> None:
    arrays = {
        k: getattr(data, k)
        for k in ("observations", "policies", "players", "returns", "game_index", "actions")
    }
    arrays["offsets"] = data.offsets
    with np.load(_saved(data, path.parent)) as f:
        arrays["header"] = f["header"]
    arrays.update(changes)
    arrays = {k: v for k, v in arrays.items() if v is not None}
    np.savez(path, **arrays)


def _saved(data: SelfPlayData, folder: Path) -> Path:
    path = folder / "good.npz"
    if not path.exists():
        data.save(path)
    return path


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"policies": None}, "missing entries ['policies']"),
        ({"header": np.array("{}")}, 'entry "header"'),
        ({"header": np.array("not json")}, 'entry "header": not JSON'),
        (
            {"header": np.array('{"format": "stonefield-selfplay", "format_version": 3}')},
            "format_version",
        ),
        (
            {
                "header": np.array(
                    '{"format": "stonefield-selfplay", "format_version": 1, "game": "go",'
                    ' "options": {}}'
                )
            },
            'entry "header": unknown game',
        ),
        ({"players": np.zeros(3, dtype=np.int64)}, 'entry "players": expected int8'),
        ({"observations": np.zeros((2, 2), dtype=np.float32)}, 'entry "observations"'),
        ({"policies": np.zeros((1, 5), dtype=np.float32)}, 'entry "policies": expected shape'),
        ({"offsets": np.array([0, 1], dtype=np.int64)}, 'entry "offsets"'),
        ({"actions": None}, "missing entries ['actions']"),
    ],
)
def test_malformed_files_raise_record_errors(
    data: SelfPlayData, tmp_path: Path, changes: dict[str, Any], words: str
) -> None:
    path = tmp_path / "bad.npz"
    _save_changed(data, path, **changes)
    with pytest.raises(sf.RecordError) as info:
        SelfPlayData.load(path)
    assert str(info.value).startswith(str(path))
    assert words in str(info.value)


def test_out_of_range_values_are_refused(data: SelfPlayData, tmp_path: Path) -> None:
    path = tmp_path / "bad.npz"
    players = data.players.copy()
    players[0] = 5
    _save_changed(data, path, players=players)
    with pytest.raises(sf.RecordError, match='entry "players"'):
        SelfPlayData.load(path)
    actions = data.actions.copy()
    actions[0] = 10_000
    _save_changed(data, path, actions=actions)
    with pytest.raises(sf.RecordError, match='entry "actions"'):
        SelfPlayData.load(path)


def test_files_that_are_not_npz(tmp_path: Path) -> None:
    text = tmp_path / "x.npz"
    text.write_text("hello")
    with pytest.raises(sf.RecordError, match="not a self-play .npz file"):
        SelfPlayData.load(text)
    single = tmp_path / "y.npy"
    np.save(single, np.zeros(3))
    with pytest.raises(sf.RecordError, match="not a self-play .npz file"):
        SelfPlayData.load(single)
    pickled = tmp_path / "p.npz"
    np.savez(pickled, header=np.array([{"a": 1}], dtype=object))
    with pytest.raises(sf.RecordError):
        SelfPlayData.load(pickled)
    with pytest.raises(OSError):
        SelfPlayData.load(tmp_path / "missing.npz")


def test_bad_arguments() -> None:
    with pytest.raises(TypeError, match="MCTS"):
        sf.selfplay("subsume", sf.RandomAgent(), games=1, size=3)
    with pytest.raises(sf.InvalidOptionError, match="games must be at least 1"):
        sf.selfplay("subsume", "mcts:iterations=10", games=0, size=3)
    with pytest.raises(TypeError, match="temperature_moves"):
        sf.selfplay("subsume", "mcts:iterations=10", games=1, temperature_moves=True, size=3)
    with pytest.raises(sf.InvalidOptionError, match="temperature_moves"):
        sf.selfplay("subsume", "mcts:iterations=10", games=1, temperature_moves=-1, size=3)
    with pytest.raises(sf.InvalidOptionError, match="unknown agent"):
        sf.selfplay("subsume", "mcts2", games=1, size=3)


def test_agent_strings_are_accepted() -> None:
    d = sf.selfplay("subsume", "mcts:iterations=20", games=1, seed=0, size=3)
    assert len(d) == int(d.offsets[-1]) > 0


def test_legal_masks_match_the_positions_and_older_files_get_them_by_replay(
    data: SelfPlayData, tmp_path: Path
) -> None:
    game = data.game
    for i in range(data.num_games):
        state = game.new_state()
        rows = np.flatnonzero(data.game_index == i)
        for row, a in zip(rows, data.game_actions(i)):
            assert np.array_equal(data.legal_masks[row], state.legal_mask())
            assert data.policies[row][~data.legal_masks[row]].sum() == 0
            state.apply(a)
    # A file written before legal_masks existed: the same data once loaded.
    path = tmp_path / "old.npz"
    data.save(path)
    with zipfile.ZipFile(path) as z:
        members = {n: z.read(n) for n in z.namelist() if n != "legal_masks.npy"}
    with zipfile.ZipFile(path, "w") as z:
        for n, b in members.items():
            z.writestr(n, b)
    back = SelfPlayData.load(path)
    assert np.array_equal(back.legal_masks, data.legal_masks)
    targets = data.value_targets()
    assert targets.dtype == np.float32 and targets.shape == (len(data),)
    assert np.array_equal(targets, data.returns[np.arange(len(data)), data.players])


def test_playout_cap_marks_full_searches_and_version_1_files_load_as_all_full(
    tmp_path: Path,
) -> None:
    agent = sf.PUCT(simulations=24, seed=2)
    capped = sf.selfplay(
        "subsume",
        agent,
        games=4,
        seed=3,
        size=3,
        threads=1,
        full_search_share=0.25,
        fast_simulations=6,
    )
    again = sf.selfplay(
        "subsume", agent, games=4, seed=3, size=3, full_search_share=0.25, fast_simulations=6
    )
    assert np.array_equal(capped.actions, again.actions)
    assert np.array_equal(capped.full_search, again.full_search)
    assert capped.full_search.dtype == np.bool_ and capped.search_values.dtype == np.float32
    assert 0 < capped.full_search.sum() < len(capped)
    assert np.abs(capped.search_values).max() <= 1
    path = tmp_path / "capped.npz"
    capped.save(path)
    back = SelfPlayData.load(path)
    assert np.array_equal(back.full_search, capped.full_search)
    assert np.array_equal(back.search_values, capped.search_values)
    # Without the cap every position is a full search.
    plain = sf.selfplay("subsume", agent, games=2, seed=3, size=3)
    assert plain.full_search.all()
    # A version-1 file (no full_search, no search_values): all full, values from outcomes.
    with zipfile.ZipFile(path) as z:
        members = {
            n: z.read(n)
            for n in z.namelist()
            if n not in ("full_search.npy", "search_values.npy", "header.npy")
        }
    header = np.lib.format
    old = tmp_path / "v1.npz"
    with zipfile.ZipFile(old, "w") as z:
        for n, b in members.items():
            z.writestr(n, b)
        text = (
            '{"format": "stonefield-selfplay", "format_version": 1, "game": "subsume",'
            ' "options": {"size": 3}}'
        )
        with z.open("header.npy", "w") as f:
            header.write_array(f, np.array(text))
    v1 = SelfPlayData.load(old)
    assert v1.full_search.all()
    assert np.array_equal(v1.search_values, capped.value_targets())
    for bad in (
        {"full_search_share": 1.5, "fast_simulations": 6},
        {"full_search_share": 0.5, "fast_simulations": 24},
        {"full_search_share": 0.5},
    ):
        with pytest.raises(sf.InvalidOptionError, match="full_search_share|fast_simulations"):
            sf.selfplay("subsume", agent, games=1, size=3, **bad)
    with pytest.raises(sf.InvalidOptionError, match="need a PUCT"):
        sf.selfplay("subsume", sf.MCTS(iterations=10), games=1, size=3, full_search_share=0.5)
