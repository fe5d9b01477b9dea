"""Regression tests for hostile and careless use: threads, damaged buffers, memory limits,
malformed records, bad arguments. Each test names the failure it guards against; none may end
in a PanicException, an abort, a traceback from the command line, or a half-done change."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import stonefield as sf
from stonefield.cli import main


def _finished(game: sf.Game, seed: int = 3) -> sf.State:
    state = game.new_state()
    while not state.is_terminal():
        state.apply(state.random_action(seed=seed))
    return state


def _histories(env: sf.VectorEnv) -> list[list[int]]:
    return [env.state(i).history for i in range(env.num_envs)]


# ---- VectorEnv and threads -------------------------------------------------------------------


def test_vector_env_is_usable_and_droppable_from_any_thread() -> None:
    with ThreadPoolExecutor(2) as pool:
        env = pool.submit(lambda: sf.VectorEnv("windflowers", 8, seed=1)).result()
        assert env.num_envs == 8 and "8 x windflowers" in repr(env)
        pool.submit(lambda: env.step(env.random_actions())).result()
        env.step(env.random_actions())
        assert all(len(h) == 2 for h in _histories(env))
        # Built and stepped in a worker, dropped there too: nothing is raised or reported.
        reported: list[Any] = []
        old_hook = sys.unraisablehook
        sys.unraisablehook = reported.append
        try:
            for i in range(20):
                pool.submit(lambda i=i: sf.VectorEnv("subsume", 4, size=5, seed=i).step).result()
        finally:
            sys.unraisablehook = old_hook
        assert reported == []


def test_vector_env_used_by_two_threads_at_once_raises_an_ordinary_error() -> None:
    env = sf.VectorEnv("subsume", 600, size=8, threads=1)
    errors: list[BaseException] = []
    stop = threading.Event()

    def poke() -> None:
        while not stop.is_set():
            try:
                env.num_envs  # noqa: B018 (the access is the test)
            except BaseException as e:  # a PanicException is a BaseException
                errors.append(e)

    other = threading.Thread(target=poke)
    other.start()
    try:
        for _ in range(30):
            env.step(env.random_actions())
    finally:
        stop.set()
        other.join()
    assert all(type(e) is RuntimeError and "borrowed" in str(e) for e in errors), errors


# ---- VectorEnv buffers -----------------------------------------------------------------------


def test_changing_the_handed_out_buffers_does_not_break_stepping() -> None:
    env = sf.VectorEnv("windflowers", 40, threads=1)
    obs = env.observations
    obs.flags.writeable = False
    env.rewards.dtype = np.float64  # a view: its own business
    env.current_player.dtype = np.int64 if False else np.int32
    env.step(env.random_actions())
    assert env.observations is obs
    assert all(len(h) == 1 for h in _histories(env))
    assert np.array_equal(obs[0], env.state(0).observation())
    # A view does not own its memory: numpy refuses to resize it, even without the reference
    # check, so a step running without the GIL keeps its memory.
    with pytest.raises(ValueError, match="does not own its data"):
        env.legal_mask.resize((10, 35), refcheck=False)


@pytest.mark.parametrize(
    "damage",
    [
        lambda env: setattr(env.rewards.base.flags, "writeable", False),
        lambda env: setattr(env.rewards.base, "dtype", np.float64),
        lambda env: setattr(env.current_player.base, "dtype", np.int16),
        lambda env: env.legal_mask.base.resize((10, 35), refcheck=False),
        lambda env: setattr(env.observations.base, "shape", (-1,)),
    ],
    ids=["read-only", "re-typed", "re-typed-player", "resized", "reshaped"],
)
def test_a_damaged_engine_buffer_is_a_value_error_before_anything_moves(damage: Any) -> None:
    env = sf.VectorEnv("windflowers", 40, threads=1)
    env.step(env.random_actions())
    before = _histories(env)
    actions = env.random_actions()
    damage(env)
    with pytest.raises(ValueError, match="buffer"):
        env.step(actions)
    assert _histories(env) == before
    with pytest.raises(ValueError, match="buffer"):
        env.reset()


# ---- Memory ----------------------------------------------------------------------------------


def test_requests_beyond_the_memory_available_are_a_memory_error() -> None:
    with pytest.raises(MemoryError, match="available; at most"):
        sf.VectorEnv("subsume", 10**10, size=30)
    with pytest.raises(MemoryError, match="available; at most"):
        sf.simulate("windflowers", 10**13)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc (Linux only)")
def test_an_address_space_limit_gives_a_memory_error_not_an_abort() -> None:
    code = """
import resource, stonefield as sf
used = int(open("/proc/self/status").read().split("VmSize:")[1].split()[0]) * 1024
limit = used + (1 << 30)
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
for call in (lambda: sf.simulate("windflowers", 10**8, threads=1),
             lambda: sf.VectorEnv("windflowers", 10**7, threads=1)):
    try:
        call()
    except MemoryError as e:
        print("MemoryError", e)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("MemoryError") == 2, out.stdout


def test_a_finished_long_game_is_small_and_copies_whole() -> None:
    """Undo keeps checkpoints, not a snapshot per action (sys.getsizeof counts them)."""
    state = _finished(sf.make("subsume", size=30), seed=1)
    assert len(state.history) > 1000
    assert sys.getsizeof(state) < 700 * 1024
    copy = state.copy()
    assert sys.getsizeof(copy) < 700 * 1024
    assert copy.history == state.history
    for _ in range(200):
        copy.undo()
    replay = sf.State._from_history(state.game, state.history[:-200])
    assert np.array_equal(copy.board, replay.board)
    assert np.array_equal(copy.observation(), replay.observation())
    assert np.array_equal(copy.legal_actions(), replay.legal_actions())


# ---- Records ---------------------------------------------------------------------------------

_HEADER = '{"format":"stonefield-record","format_version":1,'


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000 + "]" * 100_000,
        _HEADER + '"game":"windflowers","actions":[' + "9" * 5000 + "]}",
        _HEADER + '"game":"\\ud800","actions":[]}',
        _HEADER + '"game":"windflowers","options":{"\\ud800":1},"actions":[]}',
        _HEADER + '"game":"windflowers","options":{"grid":"\\udfff"},"actions":[]}',
        _HEADER + '"game":"windflowers","options":{"size":' + "7" * 400 + '},"actions":[]}',
        _HEADER + '"game":"windflowers","actions":[' + "9" * 30 + "]}",
    ],
    ids=[
        "deep",
        "long-int",
        "surrogate-game",
        "surrogate-key",
        "surrogate-value",
        "huge-size",
        "huge-action",
    ],
)
def test_hostile_records_are_record_errors(text: str, tmp_path: Path, capsys: Any) -> None:
    with pytest.raises(sf.RecordError):
        sf.from_record(text)
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    assert main(["render", str(path)]) == 2
    err = capsys.readouterr().err
    assert "error:" in err and "Traceback" not in err


def test_scores_beyond_any_float_are_a_record_error() -> None:
    record = sf.make("windflowers").new_state().to_record()
    record["result"]["scores"] = [10**400, 1]
    with pytest.raises(sf.RecordError, match="scores"):
        sf.from_record(record)


def test_a_lone_surrogate_game_id_is_an_invalid_option() -> None:
    with pytest.raises(sf.InvalidOptionError, match="Unicode"):
        sf.make("\ud800")
    with pytest.raises(sf.InvalidOptionError, match="Unicode"):
        sf.make("windflowers", grid="\ud800")


def test_save_record_keeps_the_old_file_when_saving_fails(tmp_path: Path) -> None:
    state = sf.make("windflowers").new_state()
    state.apply(3)
    path = tmp_path / "keep.json"
    sf.save_record(state, path)
    saved = path.read_bytes()
    with pytest.raises(AttributeError):
        sf.save_record(state.game, path)  # type: ignore[arg-type]
    assert path.read_bytes() == saved
    assert sorted(os.listdir(tmp_path)) == ["keep.json"]
    state.apply(4)
    sf.save_record(state, str(path))
    fresh = tmp_path / "fresh.json"
    with open(fresh, "w") as f:
        f.write("{}")
    assert path.stat().st_mode & 0o777 == fresh.stat().st_mode & 0o777  # as open() makes them
    fresh.unlink()
    assert sf.load_record(path).history == [3, 4]
    assert sorted(os.listdir(tmp_path)) == ["keep.json"]


def test_damaged_pickles_are_record_errors() -> None:
    state = sf.make("windflowers", size=3).new_state()
    state.apply(2)
    data = pickle.dumps(state)
    assert pickle.loads(data).history == [2]
    game = state.game
    for history in ([2, 2], [-1], [10**30], [True], ["2"], None, [2.0]):
        with pytest.raises(sf.RecordError, match="serialized state"):
            sf.State._from_history(game, history)  # type: ignore[arg-type]
    finished = _finished(game)
    with pytest.raises(sf.RecordError, match="game is over"):
        sf.State._from_history(game, [*finished.history, 0])
    with pytest.raises(sf.RecordError, match="Game"):
        sf.State._from_history("windflowers", [])  # type: ignore[arg-type]
    for name, options in (("chess", {}), ("windflowers", {"size": -1}), ("windflowers", [1])):
        with pytest.raises(sf.RecordError, match="serialized game"):
            sf.Game._from_options(name, options)  # type: ignore[arg-type]
    assert pickle.loads(pickle.dumps(game)) == game


# ---- The command line ------------------------------------------------------------------------


def test_cli_options_may_follow_the_flags(capsys: Any) -> None:
    assert main(["simulate", "windflowers", "-n", "3", "size=3", "-q", "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(["simulate", "windflowers", "size=3", "-n", "3", "-q", "--json"]) == 0
    second = json.loads(capsys.readouterr().out)
    assert first["options"]["size"] == 3 and first["win_rates"] == second["win_rates"]


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "windflowers", "--seed", "-1"],
        ["simulate", "windflowers", "--seed", str(2**64)],
        ["simulate", "windflowers", "-n", "-5"],
        ["simulate", "windflowers", "-n", str(10**13), "-q"],
        ["simulate", "windflowers", "--threads", "0"],
        ["simulate", "windflowers", "--threads", "100000"],
        ["simulate", "windflowers", "nonsense"],
        ["simulate", "windflowers", "grid=round"],
        ["bench", "--seconds", "0"],
        ["bench", "--seconds", "-1"],
        ["bench", "--seconds", "nan"],
        ["bench", "size=3"],
        ["render", "missing.json", "--size", str(10**300)],
        ["render", "missing.json"],
        ["frobnicate"],
        [],
    ],
)
def test_cli_bad_arguments_are_usage_errors(argv: list[str], capsys: Any) -> None:
    try:
        status = main(argv)
    except SystemExit as e:  # argparse's own errors
        status = e.code  # type: ignore[assignment]
    assert status == 2
    err = capsys.readouterr().err
    assert "error:" in err and "Traceback" not in err


def test_cli_ctrl_c_in_bench_exits_130(monkeypatch: Any, capsys: Any) -> None:
    import stonefield.cli.bench as bench

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(bench, "simulate", interrupted)
    assert main(["bench", "windflowers", "--seconds", "0.1"]) == 130
    assert "interrupted" in capsys.readouterr().err


def test_cli_closed_pipe_is_quiet() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "stonefield.cli", "bench", "windflowers", "--seconds", "0.05"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader goes away before anything is written
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    proc.stderr.close()
    assert "Traceback" not in err and "BrokenPipe" not in err
    assert proc.returncode == 141


# ---- Arguments -------------------------------------------------------------------------------


def test_game_over_error_names_the_action_given() -> None:
    state = _finished(sf.make("windflowers", size=3))
    with pytest.raises(sf.GameOverError, match=r"\(got 17\)"):
        state.apply(17)
    with pytest.raises(sf.GameOverError, match=r"\(got 10000000000000000000000\)"):
        state.apply(10**22)
    record = state.to_record()
    record["actions"].append(6)
    with pytest.raises(sf.RecordError, match=r"\(got 6\)"):
        sf.from_record(record)


def test_errors_raised_by_index_propagate() -> None:
    class Boom:
        def __index__(self) -> int:
            raise RuntimeError("boom")

    class Huge:
        def __index__(self) -> int:
            return 10**30

    state = sf.make("windflowers").new_state()
    with pytest.raises(RuntimeError, match="boom"):
        state.apply(Boom())  # type: ignore[arg-type]
    with pytest.raises(RuntimeError, match="boom"):
        state.is_legal(Boom())  # type: ignore[arg-type]
    with pytest.raises(sf.IllegalMoveError, match="out of range"):
        state.apply(Huge())  # type: ignore[arg-type]
    assert state.is_legal(Huge()) is False  # type: ignore[arg-type]
    assert state.history == []


def test_booleans_are_refused_where_integers_are_expected() -> None:
    game = sf.make("windflowers", size=3)
    state = game.new_state()
    env = sf.VectorEnv(game, 4)
    smallholder = sf.make("smallholder").new_state()
    calls = [
        lambda: state.apply(True),
        lambda: state.apply(np.True_),
        lambda: state.is_legal(False),
        lambda: state.random_action(seed=True),
        lambda: smallholder.territory(True),
        lambda: sf.simulate(game, True),
        lambda: sf.simulate(game, 10, seed=np.False_),
        lambda: sf.simulate(game, 10, threads=True),
        lambda: sf.VectorEnv(game, True),
        lambda: env.step([False] * 4),
        lambda: env.step(np.array([True] * 4)),
        lambda: env.state(True),
    ]
    for call in calls:
        with pytest.raises(TypeError, match="integer"):
            call()
    assert state.history == [] and _histories(env) == [[]] * 4


@pytest.mark.parametrize("value", ["3", 1.0, None, object(), [1]])
def test_is_legal_refuses_non_integers_as_apply_does(value: Any) -> None:
    state = sf.make("windflowers").new_state()
    with pytest.raises(TypeError):
        state.is_legal(value)
    with pytest.raises(TypeError):
        state.apply(value)


def test_every_bad_argument_is_a_stonefield_error() -> None:
    game = sf.make("windflowers", size=3)
    state = game.new_state()
    env = sf.VectorEnv(game, 2)
    calls = [
        lambda: sf.simulate(game, 10, seed=-1),
        lambda: sf.simulate(game, 10, seed=2**64),
        lambda: sf.simulate(game, -1),
        lambda: sf.simulate(game, 10, threads=-1),
        lambda: sf.simulate(game, 10, threads=0),
        lambda: sf.VectorEnv(game, -3),
        lambda: sf.VectorEnv(game, 0),
        lambda: sf.VectorEnv(game, 2, seed=-1),
        lambda: state.random_action(seed=-1),
        lambda: sf.make("smallholder").new_state().territory(-1),
        lambda: sf.make("smallholder").new_state().territory(2**70),
        lambda: env.state(-1),
        lambda: env.state(2),
        lambda: env.state(2**70),
    ]
    for call in calls:
        with pytest.raises(sf.StonefieldError):
            call()


def test_option_values_of_numpy_types() -> None:
    game = sf.make("windflowers", last_placer_breaks_ties=np.True_, size=np.int64(4))
    assert game.options["last_placer_breaks_ties"] is True and game.options["size"] == 4
    with pytest.raises(sf.InvalidOptionError, match="values are str, int or bool, got ndarray"):
        sf.make("windflowers", size=np.array([4]))
    with pytest.raises(sf.InvalidOptionError, match="out of range"):
        sf.make("windflowers", size=10**30)
    with pytest.raises(TypeError, match="n_games must be an integer"):
        sf.simulate("windflowers", "5")  # type: ignore[arg-type]


def test_threads_are_capped() -> None:
    with pytest.raises(sf.StonefieldError, match="256"):
        sf.simulate("windflowers", 10, threads=257)
    with pytest.raises(sf.StonefieldError, match="256"):
        sf.VectorEnv("windflowers", 10, threads=5000)
    assert sf.simulate("windflowers", 10, threads=256).n_games == 10


def test_a_state_shared_between_threads_reports_overlap_as_runtime_error() -> None:
    """Documented: a State used by several threads needs a lock. Without one, a call that
    overlaps another raises RuntimeError and the state stays consistent."""
    state = sf.make("windflowers").new_state()
    seen: list[BaseException] = []

    class Slow:
        def __index__(self) -> int:
            time.sleep(0.3)
            return 5

    def read() -> None:
        time.sleep(0.05)
        try:
            state.history  # noqa: B018
        except BaseException as e:
            seen.append(e)

    reader = threading.Thread(target=read)
    reader.start()
    state.apply(Slow())  # type: ignore[arg-type]
    reader.join()
    assert [type(e) for e in seen] == [RuntimeError]
    assert state.history == [5]


# ---- Pictures --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "error"),
    [
        (float("nan"), ValueError),
        (float("inf"), ValueError),
        (0, ValueError),
        (-3, ValueError),
        (10**400, ValueError),
        (sf.render.MAX_SIZE + 1, ValueError),
        ("400", TypeError),
        (True, TypeError),
    ],
)
def test_to_svg_refuses_nonsense_sizes(size: Any, error: type) -> None:
    with pytest.raises(error, match="size"):
        sf.to_svg(sf.make("windflowers"), size=size)


def test_to_svg_highlights_are_integer_sites() -> None:
    state = sf.make("windflowers", size=3).new_state()
    for bad in ([1.5], np.array([[1, 2]]), ["1"]):
        with pytest.raises(TypeError, match="integers"):
            state.to_svg(highlight=bad)
    assert state.to_svg(highlight=np.array([1, 2], dtype=np.uint8)).count('class="highlight"') == 2
    assert state.to_svg(highlight=[]).count('class="highlight"') == 0
    assert "nan" not in state.to_svg(size=250.5, caption=False)
