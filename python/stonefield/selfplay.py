"""Self-play training data: positions, search policies and final returns as numpy arrays.

>>> import stonefield as sf
>>> d = sf.selfplay("subsume", sf.MCTS(iterations=50), games=2, seed=3, temperature_moves=2,
...                 size=3)
>>> d.observations.dtype.name, d.policies.dtype.name, d.players.dtype.name
('float32', 'float32', 'int8')
>>> len(d) == d.observations.shape[0] == d.policies.shape[0] == int(d.offsets[-1])
True
>>> d.num_games
2
>>> d  # doctest: +ELLIPSIS
<SelfPlayData subsume: 2 games, ... positions>
"""

from __future__ import annotations

import json
import os
import struct
import tokenize
import zipfile
import zlib
from dataclasses import dataclass
from typing import Any, BinaryIO

import numpy as np
import numpy.typing as npt

from . import _core
from ._args import count_arg, game_arg, seed_arg, threads_arg
from ._core import Game, RecordError, StonefieldError
from ._files import atomic_write
from .agents import agent_kind, parse_agent
from .records import to_record

__all__ = ["ARRAYS", "FORMAT", "FORMAT_VERSION", "SelfPlayData", "selfplay"]

#: The ``format`` entry of a saved file.
FORMAT = "stonefield-selfplay"
#: The version of the saved layout this module writes (it reads this one and every earlier).
#: Version 2 added ``full_search`` and ``search_values``.
FORMAT_VERSION = 2

#: The arrays of a self-play run (what `save` writes besides the header): each one's dtype and
#: number of dimensions.
ARRAYS: dict[str, tuple[type[np.generic], int]] = {
    "observations": (np.float32, 3),
    "policies": (np.float32, 2),
    "players": (np.int8, 1),
    "returns": (np.float32, 2),
    "game_index": (np.uint32, 1),
    "actions": (np.uint32, 1),
    "offsets": (np.int64, 1),
    "legal_masks": (np.bool_, 2),
    "full_search": (np.bool_, 1),
    "search_values": (np.float32, 1),
}

#: Entries a file may lack (written by an older stonefield): the legal masks are rebuilt by
#: replaying, a file without ``full_search`` searched every move in full, and one without
#: ``search_values`` takes the outcomes for them.
_OPTIONAL = ("legal_masks", "full_search", "search_values")


@dataclass(frozen=True, eq=False)
class SelfPlayData:
    """Positions from self-play games, one row per decision.

    Attributes:
        game: The game played.
        observations: float32 (positions, planes, sites): ``State.observation()`` before each
            decision, from the view of the player to move.
        policies: float32 (positions, num_actions): root visit fractions of the search.
        legal_masks: bool (positions, num_actions): the legal actions at each position.
        players: int8 (positions,): the player to move.
        returns: float32 (positions, num_players): the final returns of the position's game,
            by seat. The value target of a position from the point of view of its player to
            move is ``returns[i, players[i]]`` (:meth:`value_targets`), in [-1, 1].
        game_index: uint32 (positions,): the game each position comes from.
        actions: uint32: every game's actions, concatenated.
        offsets: int64 (games + 1,): game ``i`` is ``actions[offsets[i]:offsets[i + 1]]``.
        full_search: bool (positions,): whether the position's search was a full one, so
            that its policy is a training target (false for the fast searches of playout-cap
            randomisation; all true otherwise).
        search_values: float32 (positions,): the root value of the position's search for its
            player to move, in [-1, 1] (the final return for data without them).
    """

    game: Game
    observations: npt.NDArray[np.float32]
    policies: npt.NDArray[np.float32]
    players: npt.NDArray[np.int8]
    returns: npt.NDArray[np.float32]
    game_index: npt.NDArray[np.uint32]
    actions: npt.NDArray[np.uint32]
    offsets: npt.NDArray[np.int64]
    legal_masks: npt.NDArray[np.bool_]
    full_search: npt.NDArray[np.bool_]
    search_values: npt.NDArray[np.float32]

    def value_targets(self) -> npt.NDArray[np.float32]:
        """float32 (positions,): each position's final return for its player to move,
        ``returns[i, players[i]]`` (the AlphaZero value target)."""
        rows = np.arange(len(self.players))
        return self.returns[rows, self.players.astype(np.int64)].astype(np.float32)

    def relative_returns(self) -> npt.NDArray[np.float32]:
        """float32 (positions, num_players): the final returns in the observation's frame,
        column k the return of player ``(players[i] + k) mod num_players`` (column 0 is
        :meth:`value_targets`). The value targets of a :class:`stonefield.PUCT` evaluator,
        which gives its values in that frame."""
        n = self.returns.shape[1]
        cols = (self.players.astype(np.int64)[:, None] + np.arange(n)[None, :]) % n
        return np.take_along_axis(self.returns, cols, axis=1).astype(np.float32)

    def __len__(self) -> int:
        return int(self.players.shape[0])

    def __repr__(self) -> str:
        return f"<SelfPlayData {self.game.name}: {self.num_games} games, {len(self)} positions>"

    @property
    def num_games(self) -> int:
        """The number of games."""
        return int(self.offsets.shape[0]) - 1

    def game_actions(self, index: int) -> list[int]:
        """The actions of game ``index``."""
        lo, hi = int(self.offsets[index]), int(self.offsets[index + 1])
        return [int(a) for a in self.actions[lo:hi]]

    def records(self) -> list[dict[str, Any]]:
        """Every game as a record in the JSON record format of :mod:`stonefield.records`."""
        out = []
        for i in range(self.num_games):
            state = self.game.new_state()
            for a in self.game_actions(i):
                state.apply(a)
            out.append(to_record(state))
        return out

    def save(self, path: str | os.PathLike[str] | BinaryIO) -> None:
        """Writes the data to one ``.npz`` file (uncompressed; ``.npz`` is added to a path
        without it). The game and its options are stored with it as JSON text. A path is
        written to a temporary file that then replaces it, so a full disk or a kill leaves
        any earlier file whole; a binary file object open for writing is written directly."""
        header = json.dumps(
            {
                "format": FORMAT,
                "format_version": FORMAT_VERSION,
                "game": self.game.name,
                "options": dict(self.game.options),
            }
        )
        arrays = {k: getattr(self, k) for k in ARRAYS}
        if not isinstance(path, (str, os.PathLike)):
            np.savez(path, header=np.array(header), **arrays)
            return
        target = os.fspath(path)
        if not target.endswith(".npz"):
            target += ".npz"
        with atomic_write(target, binary=True) as f:
            np.savez(f, header=np.array(header), **arrays)

    @classmethod
    def load(cls, path: str | os.PathLike[str] | BinaryIO) -> SelfPlayData:
        """Reads a file written by :meth:`save`, checking every array's dtype and shape.

        Args:
            path: The file, or a binary file object open for reading.

        Raises:
            RecordError: the file is not such a file, or its arrays disagree with each other
                or with the game (the message starts with the path and names the entry).
            OSError: the file cannot be read.

        >>> import io
        >>> SelfPlayData.load(io.BytesIO(b"not a zip"))
        Traceback (most recent call last):
        ...
        stonefield.RecordError: <BytesIO>: not a self-play .npz file (...)
        """
        if isinstance(path, (str, os.PathLike)):
            where = os.fspath(path)
        else:
            where = str(getattr(path, "name", f"<{type(path).__name__}>"))
        try:
            data = _read_members(path)
        except RecordError as e:
            raise RecordError(f"{where}: {e}") from None
        except (
            ValueError,
            zipfile.BadZipFile,
            EOFError,
            KeyError,
            NotImplementedError,
            SyntaxError,
            RecursionError,
            tokenize.TokenError,
            struct.error,
            zlib.error,
        ) as e:
            raise RecordError(f"{where}: not a self-play .npz file ({e})") from None
        try:
            return cls._from_arrays(data)
        except RecordError as e:
            raise RecordError(f"{where}: {e}") from None

    @classmethod
    def _from_arrays(cls, data: dict[str, np.ndarray]) -> SelfPlayData:
        missing = [k for k in ("header", *ARRAYS) if k not in data and k not in _OPTIONAL]
        if missing:
            raise RecordError(
                f"missing entries {missing}; a self-play file has header, {', '.join(ARRAYS)}"
            )
        game = _header_game(data["header"])
        if "legal_masks" not in data and "offsets" in data and "actions" in data:
            data = {**data, "legal_masks": _replayed_masks(game, data)}
        positions = data["players"].shape[0]
        if "full_search" not in data:
            data = {**data, "full_search": np.ones(positions, dtype=np.bool_)}
        if "search_values" not in data:
            data = {**data, "search_values": _outcome_values(data)}
        for key, (dtype, ndim) in ARRAYS.items():
            a = data[key]
            if a.dtype != dtype or a.ndim != ndim:
                raise RecordError(
                    f'entry "{key}": expected {np.dtype(dtype).name} with {ndim} dimension(s),'
                    f" got {a.dtype.name} with shape {a.shape}"
                )
        positions = data["players"].shape[0]
        planes, sites = game.observation_shape
        expected = {
            "observations": (positions, planes, sites),
            "policies": (positions, game.num_actions),
            "legal_masks": (positions, game.num_actions),
            "returns": (positions, game.num_players),
            "game_index": (positions,),
            "full_search": (positions,),
            "search_values": (positions,),
        }
        for key, shape in expected.items():
            if data[key].shape != shape:
                raise RecordError(
                    f'entry "{key}": expected shape {shape} for {positions} positions of'
                    f" {game.name}, got {data[key].shape}"
                )
        offsets, actions = data["offsets"], data["actions"]
        if (
            offsets.shape[0] < 1
            or offsets[0] != 0
            or (np.diff(offsets) < 0).any()
            or offsets[-1] != actions.shape[0]
        ):
            raise RecordError(
                f'entry "offsets": expected 0, then non-decreasing, ending at the'
                f" {actions.shape[0]} actions"
            )
        n_games = offsets.shape[0] - 1
        if positions and int(data["game_index"].max()) >= n_games:
            raise RecordError(f'entry "game_index": values must be below the {n_games} games')
        if (actions >= game.num_actions).any():
            raise RecordError(f'entry "actions": values must be below {game.num_actions}')
        players = data["players"]
        if ((players < 0) | (players >= game.num_players)).any():
            raise RecordError(f'entry "players": values must be 0 to {game.num_players - 1}')
        _check_values(data, n_games)
        _check_replay(game, data)
        return cls(game=game, **{k: data[k] for k in ARRAYS})


#: Most characters of the header entry (JSON of the game and its options).
_HEADER_CHARS = 1 << 16


def _read_members(path: str | os.PathLike[str] | BinaryIO) -> dict[str, np.ndarray]:
    """The arrays of a self-play archive, read only once they are known to be sane: no member
    but the expected ones, and every member's ``.npy`` header (dtype, shape) read and checked
    against the others and against the memory available before any data is decompressed."""
    expected: dict[str, Any] = {"header": None, **ARRAYS}
    with zipfile.ZipFile(path) as zf:
        infos = {}
        for info in zf.infolist():
            name = info.filename.removesuffix(".npy")
            if name not in expected or name in infos:
                raise RecordError(
                    f"unexpected entry {info.filename!r}; a self-play file has header,"
                    f" {', '.join(ARRAYS)}"
                )
            infos[name] = info
        missing = [k for k in expected if k not in infos and k not in _OPTIONAL]
        if missing:
            raise RecordError(
                f"missing entries {missing}; a self-play file has header, {', '.join(ARRAYS)}"
            )
        headers = {}
        for name, info in infos.items():
            with zf.open(info) as f:
                version = np.lib.format.read_magic(f)
                if version == (1, 0):
                    shape, fortran, dtype = np.lib.format.read_array_header_1_0(f)
                elif version == (2, 0):
                    shape, fortran, dtype = np.lib.format.read_array_header_2_0(f)
                else:
                    raise RecordError(f'entry "{name}": unsupported .npy version {version}')
                offset = f.tell()
            if dtype.hasobject or fortran:
                raise RecordError(f'entry "{name}": holds objects or is Fortran-ordered')
            if name == "header":
                if dtype.kind != "U" or shape != () or dtype.itemsize > 4 * _HEADER_CHARS:
                    raise RecordError('entry "header": expected one JSON string')
            else:
                want, ndim = ARRAYS[name]
                if dtype != want or len(shape) != ndim:
                    raise RecordError(
                        f'entry "{name}": expected {np.dtype(want).name} with {ndim}'
                        f" dimension(s), got {dtype.name} with shape {shape}"
                    )
            size = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize if shape else dtype.itemsize
            if info.file_size != offset + size:
                raise RecordError(
                    f'entry "{name}": its header promises {size} bytes of data, the archive'
                    f" holds {info.file_size - offset}"
                )
            headers[name] = (shape, size)
        _check_shapes_early(headers)
        total = sum(size for _, size in headers.values())
        avail = _core.available_memory()
        if avail is not None and total > avail:
            raise RecordError(
                f"the arrays need {total / 2**30:.1f} GiB once read and"
                f" {avail / 2**30:.1f} GiB are available"
            )
        out = {}
        for name, info in infos.items():
            with zf.open(info) as f:
                out[name] = np.lib.format.read_array(f, allow_pickle=False)
        return out


def _check_shapes_early(headers: dict[str, tuple[tuple[int, ...], int]]) -> None:
    """The shape agreements that need no game: one row per position in every per-position
    array, and one more offset than games."""
    positions = headers["players"][0][0]
    keys = ("observations", "policies", "returns", "game_index", "actions")
    for key in keys + tuple(k for k in ("full_search", "search_values") if k in headers):
        if headers[key][0][0] != positions:
            raise RecordError(
                f'entry "{key}": expected shape ({positions}, ...), one row per position, got'
                f" {headers[key][0]}"
            )


def _replayed_masks(game: Game, data: dict[str, np.ndarray]) -> npt.NDArray[np.bool_]:
    """The legal masks of a file that lacks them, by replaying its games (bad actions are
    left for the replay check to report)."""
    offsets, actions = data["offsets"], data["actions"]
    rows = []
    for i in range(max(len(offsets) - 1, 0)):
        state = game.new_state()
        for a in actions[int(offsets[i]) : int(offsets[i + 1])]:
            rows.append(state.legal_mask())
            if not state.is_legal(int(a)):
                break
            state.apply(int(a))
    positions = data["players"].shape[0] if "players" in data else len(rows)
    if len(rows) != positions:
        # Offsets or actions that disagree with the positions: the checks after say which.
        return np.zeros((positions, game.num_actions), dtype=np.bool_)
    if not rows:
        return np.zeros((0, game.num_actions), dtype=np.bool_)
    return np.stack(rows).astype(np.bool_)


def _outcome_values(data: dict[str, np.ndarray]) -> npt.NDArray[np.float32]:
    """The final return of each position's player to move (the search values of a file that
    lacks them; shapes that disagree are left for the checks after to report)."""
    players, returns = data["players"], data["returns"]
    if returns.ndim != 2 or players.ndim != 1 or returns.shape[0] != players.shape[0]:
        return np.zeros(players.shape[:1], dtype=np.float32)
    cols = np.clip(players.astype(np.int64), 0, max(returns.shape[1] - 1, 0))
    if returns.shape[1] == 0:
        return np.zeros(players.shape[:1], dtype=np.float32)
    return returns[np.arange(len(players)), cols].astype(np.float32)


def _check_values(data: dict[str, np.ndarray], n_games: int) -> None:
    """Observations in [0, 1], policies that are distributions, finite returns in [−1, 1],
    and each game's positions where its offsets say."""
    obs, pol, ret = data["observations"], data["policies"], data["returns"]
    if obs.size and not (np.isfinite(obs).all() and obs.min() >= 0 and obs.max() <= 1):
        raise RecordError('entry "observations": values must lie in [0, 1]')
    if pol.size:
        sums = pol.sum(axis=1, dtype=np.float64)
        if not (np.isfinite(pol).all() and pol.min() >= 0 and np.allclose(sums, 1, atol=1e-3)):
            raise RecordError('entry "policies": each row must be a distribution (sum 1)')
    if ret.size and not (np.isfinite(ret).all() and np.abs(ret).max() <= 1):
        raise RecordError('entry "returns": values must lie in [-1, 1]')
    sv = data["search_values"]
    if sv.size and not (np.isfinite(sv).all() and np.abs(sv).max() <= 1):
        raise RecordError('entry "search_values": values must lie in [-1, 1]')
    if pol.size and (pol[~data["legal_masks"]] > 0).any():
        raise RecordError('entry "legal_masks": a policy puts weight on an action it marks illegal')
    lengths = np.diff(data["offsets"])
    expected = np.repeat(np.arange(n_games, dtype=np.uint32), lengths)
    if not np.array_equal(data["game_index"], expected):
        raise RecordError(
            'entry "game_index": each game\'s positions must be its actions, in order'
            ' (as "offsets" says)'
        )


def _check_replay(game: Game, data: dict[str, np.ndarray]) -> None:
    """Every game replays: each action legal where it was played (in Rust)."""
    try:
        _core.lab_stats(game, data["actions"], data["offsets"], None, 1)
    except StonefieldError as e:
        raise RecordError(f'entry "actions": the games do not replay ({e})') from None


def _header_game(header: np.ndarray) -> Game:
    try:
        meta = json.loads(str(header[()]))
    except (ValueError, TypeError, IndexError) as e:
        raise RecordError(f'entry "header": not JSON text ({e})') from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise RecordError(f'entry "header": expected format "{FORMAT}"')
    version = meta.get("format_version")
    if (
        not isinstance(version, int)
        or isinstance(version, bool)
        or not 1 <= version <= FORMAT_VERSION
    ):
        raise RecordError(
            f'entry "header": this stonefield reads format_version 1 to {FORMAT_VERSION},'
            f" got {version!r}"
        )
    name, options = meta.get("game"), meta.get("options")
    if not isinstance(name, str) or not isinstance(options, dict):
        raise RecordError('entry "header": needs "game" (a string) and "options" (an object)')
    try:
        return _core.make(name, **options)
    except (StonefieldError, TypeError) as e:
        raise RecordError(f'entry "header": {e}') from None


def selfplay(
    game: Game | str,
    agent: Any,
    *,
    games: int = 100,
    seed: int = 0,
    temperature_moves: int = 0,
    threads: int | None = None,
    full_search_share: float = 1.0,
    fast_simulations: int | None = None,
    first: int = 0,
    **options: Any,
) -> SelfPlayData:
    """Plays ``games`` games of ``agent`` against itself in Rust and records every decision.

    The first ``temperature_moves`` actions of each game are drawn in proportion to the root
    visits, the rest are the agent's own choice; game ``i`` draws from random streams derived
    from ``(seed, i)``, so the data are the same whatever the thread count. Games run in
    parallel with the GIL released; Ctrl-C stops between games.

    Args:
        game: A :class:`Game`, or a game id with ``options`` as keyword arguments.
        agent: A :class:`stonefield.MCTS`, an ``mcts`` agent string, or a
            :class:`stonefield.PUCT`. With a PUCT and a Python evaluator, all the games are
            played at once in Rust and each evaluator call serves the waiting leaves of all of
            them (up to ``games × batch_size`` rows); with ``evaluator="rollout"`` the games run
            in parallel.
        games: Number of games (≥ 1).
        seed: The seed (0 to 2**64 − 1).
        temperature_moves: Actions per game drawn in proportion to visits (≥ 0).
        threads: Worker threads; None uses every core.
        full_search_share: Playout-cap randomisation (KataGo; PUCT only): the probability,
            from 0 to 1, that a move is searched in full (the agent's simulations and root
            noise); the others are searched with ``fast_simulations`` (1 to simulations − 1)
            and no noise, and ``full_search`` marks which policies are training targets.
        fast_simulations: The simulations of a fast search (needed when the share is below 1).
        first: The index of the first game (PUCT only): games ``first`` to ``first + games - 1``
            of the run are played, so a run split into parts (over workers) gives the games of
            the whole.
        **options: Game options when ``game`` is an id.

    Raises:
        InvalidOptionError: a bad count, seed or agent string.
        TypeError: the agent is not an MCTS or a PUCT, or an argument has the wrong type.
        EvaluatorError: a PUCT's evaluator returned something the search cannot use (no data
            are returned); an exception the evaluator raises comes through unchanged.
    """
    game = game_arg(game, options)
    if isinstance(agent, str):
        agent = parse_agent(agent)
    kind = agent_kind(agent)
    if kind not in ("mcts", "puct"):
        raise TypeError(
            f"self-play takes a stonefield.MCTS or PUCT (its visit counts are the policies), got"
            f" {type(agent).__name__}"
        )
    games = count_arg("games", games, 1)
    seed = seed_arg(seed)
    temperature_moves = count_arg("temperature_moves", temperature_moves, 0)
    threads = threads_arg(threads)
    if kind == "puct":
        if full_search_share < 1 and fast_simulations is None:
            raise _core.InvalidOptionError(
                "fast_simulations (1 to simulations - 1) is needed when full_search_share is"
                " below 1"
            )
        # An evaluator made for one game (a checkpoint's network, the expert's) checks it
        # first, as a search does, and learns the board it plays.
        check = getattr(agent.evaluator, "check_game", None)
        if callable(check):
            check(game)
        raw = _core.puct_selfplay_games(
            game,
            agent,
            games,
            seed,
            temperature_moves,
            threads=threads,
            full_search_share=full_search_share,
            fast_simulations=fast_simulations,
            first=first,
        )
    elif full_search_share != 1 or fast_simulations is not None or first != 0:
        raise _core.InvalidOptionError(
            "playout-cap randomisation (full_search_share, fast_simulations) and first need a"
            " PUCT agent"
        )
    else:
        raw = _core.selfplay_games(game, agent, games, seed, temperature_moves, threads=threads)
    return SelfPlayData(game=game, **{k: raw[k] for k in ARRAYS})
