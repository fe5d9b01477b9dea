"""Checkpoints of ``stonefield train`` read and played with numpy alone.

A checkpoint is an ``.npz`` archive without pickles: a JSON ``header`` (the format and its
version, the network's architecture, the game and its options it was trained on, the network's
width and depth) and the network's weights as float32 arrays ``leaf_0`` … ``leaf_N``. Two
architectures: ``graph`` (:mod:`stonefield._graphnet`, the default since format version 2: one
set of weights plays every board of its game) and ``mlp`` (a perceptron over the flattened
observation, for one board; every version-1 checkpoint is one). Playing one needs no JAX:
:class:`CheckpointNetwork` runs the forward pass in numpy and is an evaluator for
:class:`stonefield.PUCT` (``sf.PUCT(checkpoint=PATH)``, the agent string
``puct:checkpoint=PATH``). Training (:mod:`stonefield.alphazero`, the ``jax`` extra) writes and
reads the same files.

Every member's ``.npy`` header (dtype, shape) is checked against the network the header
describes before any data is read, and the arrays may not take more than
:data:`MAX_EXPANSION` times the file's size, so a small crafted file cannot make the loader
allocate gigabytes; anything that is not such a checkpoint raises
:class:`~stonefield.RecordError`.
"""

from __future__ import annotations

import json
import os
import struct
import zipfile
import zlib
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _core
from ._core import Game, InvalidOptionError, RecordError, StonefieldError
from ._files import atomic_write
from ._graphnet import Board, graph_forward, graph_shapes

__all__ = [
    "CHECKPOINT_FORMAT",
    "CHECKPOINT_VERSION",
    "ARCHITECTURES",
    "CheckpointNetwork",
    "forward",
    "network_shapes",
    "load_evaluator",
    "mlp_shapes",
    "read_checkpoint",
    "read_npz",
    "write_checkpoint",
]

#: The ``format`` of a checkpoint's header.
CHECKPOINT_FORMAT = "stonefield-alphazero"
#: The version of that format this stonefield writes (a header without ``format_version``, as
#: the first checkpoints have, is version 1; version 2 adds ``architecture``).
CHECKPOINT_VERSION = 2
#: The versions it reads.
READABLE_VERSIONS = (1, 2)
#: The networks a checkpoint may hold.
ARCHITECTURES = ("graph", "mlp")
#: The options that choose a game's board (and the move limit that follows from it): a graph
#: network plays its game with any of them; every other option (the rules) must be the one it
#: was trained with.
BOARD_OPTIONS = {
    "smallholder": {"board", "max_moves"},
    "windflowers": {"grid", "size", "max_moves"},
    "faraday": {"grid", "order"},
    "subsume": {"size"},
}
#: Widest hidden layer a checkpoint may declare.
MAX_HIDDEN = 8192
#: Most hidden layers a checkpoint may declare.
MAX_LAYERS = 64
#: The arrays of a checkpoint may take at most this many times the file's size (plus 1 MiB)
#: once read: :meth:`CheckpointNetwork.save` stores them uncompressed, so a file that declares
#: more is a compressed bomb, not a checkpoint.
MAX_EXPANSION = 16
#: Most characters of the header entry.
_HEADER_CHARS = 1 << 16

#: What reading a damaged or crafted archive raises besides RecordError.
DAMAGED = (
    ValueError,
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    EOFError,
    KeyError,
    NotImplementedError,
    SyntaxError,
    RecursionError,
    struct.error,
    zlib.error,
    UnicodeError,
)

Layers = list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]


def mlp_shapes(game: Game, hidden: int, layers: int) -> list[tuple[int, ...]]:
    """The shapes of the weights of the network of ``stonefield train`` for ``game``: for each
    of the ``layers + 1`` linear layers its weight (out, in) and its bias (out,). The input is
    the flattened observation, the output the policy logits and one value per player.

    >>> import stonefield as sf
    >>> mlp_shapes(sf.make("subsume", size=3), 16, 1)
    [(16, 95), (16,), (21, 16), (21,)]
    """
    planes, sites = game.observation_shape
    dims = [planes * sites] + [hidden] * layers + [game.num_actions + game.num_players]
    out: list[tuple[int, ...]] = []
    for a, b in zip(dims, dims[1:]):
        out += [(b, a), (b,)]
    return out


def network_shapes(
    game: Game, architecture: str, hidden: int, layers: int
) -> list[tuple[int, ...]]:
    """The shapes of the weights of a network of ``architecture`` (``graph``: ``layers`` is its
    number of blocks) for ``game``, in their stored order."""
    if architecture == "mlp":
        return mlp_shapes(game, hidden, layers)
    board = Board.of(game)
    layout = board.layout
    return graph_shapes(board.planes, board.players, layout.blocks, layout.extras, hidden, layers)


def describe_game(game: Game) -> str:
    """A game as ``sf.make`` would make it: ``subsume (size=4, anti_blob=True, ...)``."""
    options = ", ".join(f"{k}={v!r}" for k, v in dict(game.options).items())
    return f"{game.name} ({options})"


def forward(
    layers: Layers,
    game: Game,
    observations: npt.NDArray[np.float32],
    legal_mask: npt.NDArray[np.bool_],
    where: str = "the network",
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """The forward pass of the network of ``stonefield train`` in numpy: ReLU hidden layers,
    priors as the softmax of the legal actions' logits, values squashed by tanh.

    ``layers`` are (weight transposed, bias) pairs. Inputs of another game's shape raise
    :class:`~stonefield.InvalidOptionError` naming the network's game (``where`` says which
    network)."""
    planes, sites = game.observation_shape
    na = game.num_actions
    if (
        getattr(observations, "shape", None) is None
        or observations.ndim != 3
        or observations.shape[1:] != (planes, sites)
        or getattr(legal_mask, "shape", None) != (observations.shape[0], na)
    ):
        raise InvalidOptionError(
            f"{where} is for {describe_game(game)}: it reads observations of shape"
            f" (B, {planes}, {sites}) and masks of {na} actions, got observations of shape"
            f" {getattr(observations, 'shape', '?')} and a mask of shape"
            f" {getattr(legal_mask, 'shape', '?')}"
        )
    x = observations.reshape(observations.shape[0], -1)
    for w, b in layers[:-1]:
        x = x @ w
        x += b
        np.maximum(x, 0, out=x)
    w, b = layers[-1]
    x = x @ w
    x += b
    logits = np.where(legal_mask, x[:, :na], np.float32(-1e9))
    logits -= logits.max(axis=1, keepdims=True)
    priors = np.exp(logits)
    priors /= priors.sum(axis=1, keepdims=True)
    return priors, np.tanh(x[:, na:])


class CheckpointNetwork:
    """The network of a checkpoint, played in numpy: an evaluator for :class:`stonefield.PUCT`.

    Calling it (or :meth:`evaluate`) with observations float32 (B, planes, sites) and a legal
    mask bool (B, num_actions) gives priors float32 (B, num_actions) and values float32 (B,
    players). A search checks the game first (:meth:`check_game`): an ``mlp`` network plays
    only the board and options it was trained on, a ``graph`` network any board of its game
    whose observation planes, players and kinds of actions are those it was trained with.

    >>> import os, tempfile, stonefield as sf
    >>> game = sf.make("subsume", size=3)
    >>> path = os.path.join(tempfile.mkdtemp(), "net.npz")
    >>> CheckpointNetwork.random(game, hidden=8, layers=1).save(path)
    >>> net = CheckpointNetwork.load(path)
    >>> bool(game.new_state().is_legal(sf.PUCT(net, simulations=20).act(game.new_state())))
    True
    >>> big = sf.make("subsume", size=4)   # a graph network plays other sizes too
    >>> bool(big.new_state().is_legal(sf.PUCT(net, simulations=20).act(big.new_state())))
    True
    """

    def __init__(
        self,
        game: Game,
        hidden: int,
        layers: int,
        weights: Sequence[npt.NDArray[np.float32]],
        path: str | None = None,
        architecture: str = "graph",
    ) -> None:
        if architecture not in ARCHITECTURES:
            raise InvalidOptionError(
                f"architecture must be one of {', '.join(ARCHITECTURES)}, got {architecture!r}"
            )
        shapes = network_shapes(game, architecture, hidden, layers)
        if [tuple(w.shape) for w in weights] != shapes:
            raise InvalidOptionError(
                f"weights of shapes {[tuple(w.shape) for w in weights]} do not fit the"
                f" {architecture} network of hidden={hidden}, layers={layers} for"
                f" {describe_game(game)} ({shapes})"
            )
        self.game = game
        self.architecture = architecture
        self.hidden = hidden
        self.layers = layers
        #: The arrays as stored (see :func:`network_shapes`).
        self.weights = [np.asarray(w, np.float32) for w in weights]
        #: The checkpoint it was read from (None for one made in this process).
        self.path = path
        self._layers: Layers = []
        if architecture == "mlp":
            self._layers = [
                (np.ascontiguousarray(self.weights[i].T), self.weights[i + 1])
                for i in range(0, len(self.weights), 2)
            ]
        # The boards this graph network has been asked to play, by number of sites.
        self._boards: dict[int, tuple[Game, Board]] = {}

    def __repr__(self) -> str:
        where = "" if self.path is None else f", path={self.path!r}"
        return (
            f"CheckpointNetwork({self.architecture}, {describe_game(self.game)},"
            f" hidden={self.hidden}, layers={self.layers}{where})"
        )

    @classmethod
    def random(
        cls,
        game: Game,
        *,
        hidden: int = 128,
        layers: int = 2,
        seed: int = 0,
        architecture: str = "graph",
    ) -> Any:
        """A network of random weights (for tests and examples)."""
        rng = np.random.default_rng(seed)
        weights = [
            (
                rng.standard_normal(s) / np.sqrt(max(s[0] if architecture == "graph" else s[-1], 1))
            ).astype(np.float32)
            for s in network_shapes(game, architecture, hidden, layers)
        ]
        return cls(game, hidden, layers, weights, architecture=architecture)

    @classmethod
    def load(cls, path: str | os.PathLike[str], game: Game | None = None) -> CheckpointNetwork:
        """Reads a checkpoint (see :func:`read_checkpoint`)."""
        return read_checkpoint(path, game)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes the checkpoint (see :func:`write_checkpoint`)."""
        write_checkpoint(path, self.game, self.hidden, self.layers, self.weights, self.architecture)

    def plays(self, game: Game) -> str | None:
        """None when the network can play ``game``, else why not."""
        if self.architecture == "mlp" or game.name != self.game.name:
            if game == self.game:
                return None
            kind = "this board and these options" if game.name == self.game.name else "it"
            return f"an {self.architecture} network plays {kind} only"
        mine, theirs = dict(self.game.options), dict(game.options)
        board = BOARD_OPTIONS.get(game.name, set())
        rules = sorted(
            k for k in set(mine) | set(theirs) if k not in board and mine.get(k) != theirs.get(k)
        )
        if rules:
            return (
                "it was trained with other rules ("
                + ", ".join(f"{k}={mine.get(k)!r}, not {theirs.get(k)!r}" for k in rules)
                + "); a graph network plays other boards of its game, not other rules"
            )
        try:
            shapes = network_shapes(game, "graph", self.hidden, self.layers)
        except InvalidOptionError as e:
            return str(e)
        if shapes != [tuple(w.shape) for w in self.weights]:
            return "its observation planes, players or kinds of actions differ"
        return None

    def check_game(self, game: Game) -> None:
        """Raises :class:`~stonefield.InvalidOptionError` unless the network can play ``game``
        (:class:`stonefield.PUCT` calls it before a search), naming what the network holds
        and what was asked for."""
        why = self.plays(game)
        if why is not None:
            where = "this network" if self.path is None else f"checkpoint {self.path}"
            raise InvalidOptionError(
                f"{where} holds a {self.architecture} network for {describe_game(self.game)};"
                f" it cannot play {describe_game(game)}: {why}"
            )
        if self.architecture == "graph":
            held = self._boards.get(game.num_sites)
            if held is not None and held[0] != game:
                same = Board.of(game)
                old = held[1]
                if not (
                    np.array_equal(same.orth, old.orth)
                    and np.array_equal(same.diag, old.diag)
                    and np.array_equal(same.static, old.static)
                ):
                    raise InvalidOptionError(
                        f"this network already plays {describe_game(held[0])}, a board of"
                        f" {game.num_sites} sites as {describe_game(game)} has; load the"
                        " checkpoint again to play both"
                    )
            if held is None:
                self._boards[game.num_sites] = (game, Board.of(game))

    def evaluate(
        self, observations: npt.NDArray[np.float32], legal_mask: npt.NDArray[np.bool_]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """Priors float32 (B, num_actions) and values float32 (B, players)."""
        where = "this network" if self.path is None else f"checkpoint {self.path}"
        if self.architecture == "mlp":
            return forward(self._layers, self.game, observations, legal_mask, where)
        shape = getattr(observations, "shape", None)
        if shape is None or len(shape) != 3:
            raise InvalidOptionError(
                f"{where} reads observations of shape (B, planes, sites), got {shape}"
            )
        held = self._boards.get(shape[2])
        if held is None and shape[2] == self.game.num_sites:
            self.check_game(self.game)
            held = self._boards.get(shape[2])
        if held is None:
            raise InvalidOptionError(
                f"{where} has not been given a board of {shape[2]} sites: call check_game(game)"
                " first (a search does)"
            )
        board = held[1]
        na = len(board.layout.index)
        if shape[1] != board.planes or getattr(legal_mask, "shape", None) != (shape[0], na):
            raise InvalidOptionError(
                f"{where} plays {describe_game(held[0])}: it reads observations of shape"
                f" (B, {board.planes}, {board.sites}) and masks of {na} actions, got"
                f" observations of shape {shape} and a mask of shape"
                f" {getattr(legal_mask, 'shape', '?')}"
            )
        return graph_forward(self.weights, board, self.layers, observations, legal_mask)

    __call__ = evaluate


def load_evaluator(path: str | os.PathLike[str]) -> CheckpointNetwork:
    """The evaluator of ``sf.PUCT(checkpoint=PATH)`` and ``puct:checkpoint=PATH``."""
    return read_checkpoint(path)


def write_checkpoint(
    path: str | os.PathLike[str],
    game: Game,
    hidden: int,
    layers: int,
    weights: Sequence[npt.NDArray[np.float32]],
    architecture: str = "graph",
) -> None:
    """Writes a checkpoint: the header and the weights, uncompressed, to a temporary file that
    then replaces ``path`` (a full disk or a kill leaves the earlier file whole)."""
    header = json.dumps(
        {
            "format": CHECKPOINT_FORMAT,
            "format_version": CHECKPOINT_VERSION,
            "architecture": architecture,
            "game": game.name,
            "options": dict(game.options),
            "hidden": hidden,
            "layers": layers,
            "leaves": len(weights),
        }
    )
    arrays: dict[str, Any] = {f"leaf_{i}": np.asarray(w, np.float32) for i, w in enumerate(weights)}
    arrays["header"] = np.array(header)
    with atomic_write(path, binary=True) as f:
        np.savez(f, **arrays)


def read_checkpoint(path: str | os.PathLike[str], game: Game | None = None) -> CheckpointNetwork:
    """Reads a checkpoint of ``stonefield train`` without JAX and without pickles.

    Args:
        path: the ``.npz`` file.
        game: when given, the game the network must be for.

    Raises:
        RecordError: the file cannot be read or is not such a checkpoint (the message names
            the file and what is wrong with it).
        InvalidOptionError: it is the checkpoint of another game or other options than
            ``game`` (the message names both).
    """
    where = os.fspath(path)
    try:
        net = _read(where)
    except RecordError as e:
        raise RecordError(f"{where}: not a checkpoint of stonefield train ({e})") from None
    except OSError as e:
        raise RecordError(f"{where}: cannot be read ({e})") from None
    except DAMAGED as e:
        raise RecordError(
            f"{where}: not a checkpoint of stonefield train ({type(e).__name__}: {e})"
        ) from None
    if game is not None:
        net.check_game(game)
    return net


def _npy_header(f: Any, name: str) -> tuple[tuple[int, ...], np.dtype[Any], int]:
    """The shape, dtype and data offset of an ``.npy`` member, read from its header alone."""
    version = np.lib.format.read_magic(f)
    if version == (1, 0):
        shape, fortran, dtype = np.lib.format.read_array_header_1_0(f)
    elif version == (2, 0):
        shape, fortran, dtype = np.lib.format.read_array_header_2_0(f)
    else:
        raise RecordError(f'entry "{name}": unsupported .npy version {version}')
    if dtype.hasobject or fortran:
        raise RecordError(f'entry "{name}": holds objects or is Fortran-ordered')
    return shape, dtype, f.tell()


def _check_size(info: zipfile.ZipInfo, name: str, offset: int, size: int) -> None:
    if info.file_size != offset + size:
        raise RecordError(
            f'entry "{name}": its header promises {size} bytes of data, the archive holds'
            f" {info.file_size - offset}"
        )


def _header(meta: Any) -> tuple[Game, str, int, int, int]:
    """The game, architecture, width, depth and leaf count a header names, each checked."""
    if not isinstance(meta, dict):
        raise RecordError("the header is not a JSON object")
    if meta.get("format") != CHECKPOINT_FORMAT:
        raise RecordError(f"format {meta.get('format')!r}, expected {CHECKPOINT_FORMAT!r}")
    version = meta.get("format_version", 1)
    if version not in READABLE_VERSIONS or isinstance(version, bool):
        raise RecordError(
            f"format version {version!r}; this stonefield reads versions"
            f" {', '.join(map(str, READABLE_VERSIONS))}"
        )
    architecture = meta.get("architecture", "mlp") if version >= 2 else "mlp"
    if architecture not in ARCHITECTURES:
        raise RecordError(
            f"architecture {architecture!r}; this stonefield reads {', '.join(ARCHITECTURES)}"
        )
    name, options = meta.get("game"), meta.get("options")
    if not isinstance(name, str) or not isinstance(options, dict):
        raise RecordError("the header must name the game and its options")
    try:
        game = _core.make(name, **options)
    except (StonefieldError, TypeError, ValueError) as e:
        raise RecordError(f"the header's game {name!r} {options} cannot be made: {e}") from None
    numbers = {}
    for key, high in (("hidden", MAX_HIDDEN), ("layers", MAX_LAYERS), ("leaves", None)):
        v = meta.get(key)
        if not isinstance(v, int) or isinstance(v, bool) or v < 1 or (high and v > high):
            allowed = f"from 1 to {high}" if high else "a positive integer"
            raise RecordError(f"the header's {key} must be {allowed}, got {v!r}")
        numbers[key] = v
    return game, architecture, numbers["hidden"], numbers["layers"], numbers["leaves"]


def read_npz(
    path: str | os.PathLike[str],
    template_of: Callable[[Any], dict[str, tuple[np.dtype[Any], tuple[int, ...]]] | None],
    what: str = "a checkpoint",
) -> tuple[Any, dict[str, npt.NDArray[Any]]]:
    """The JSON header and the arrays of an ``.npz`` archive of stonefield's own, read safely.

    The ``header`` member is read first (one JSON string of at most 64 K characters);
    ``template_of(header)`` gives the dtype and shape of every other member (None: read the
    header alone), or raises :class:`~stonefield.RecordError`. Every member's ``.npy``
    header is compared with it, and the sizes with the file's, before any array is read.
    Raises ``RecordError``, or the errors of a damaged archive (:data:`DAMAGED`), which
    :func:`read_checkpoint` turns into ``RecordError``.
    """
    disk = os.path.getsize(path)
    with zipfile.ZipFile(path) as zf:
        infos: dict[str, zipfile.ZipInfo] = {}
        for info in zf.infolist():
            name = info.filename.removesuffix(".npy")
            if name in infos:
                raise RecordError(f"entry {info.filename!r} appears twice")
            infos[name] = info
        if "header" not in infos:
            raise RecordError(f"no header entry; {what} has one")
        with zf.open(infos["header"]) as f:
            shape, dtype, offset = _npy_header(f, "header")
            if dtype.kind != "U" or shape != () or dtype.itemsize > 4 * _HEADER_CHARS:
                raise RecordError('entry "header": expected one JSON string')
            _check_size(infos["header"], "header", offset, dtype.itemsize)
        with zf.open(infos["header"]) as f:
            text = str(np.lib.format.read_array(f, allow_pickle=False)[()])
        meta = json.loads(text)
        template = template_of(meta)
        if template is None:
            return meta, {}
        unexpected = sorted(set(infos) - {"header", *template})
        missing = sorted(set(template) - set(infos))
        if unexpected or missing:
            raise RecordError(
                f"the archive's entries do not fit its header: unexpected {unexpected},"
                f" missing {missing}"
            )
        total = 0
        for name, (want_dtype, want_shape) in template.items():
            with zf.open(infos[name]) as f:
                shape, dtype, offset = _npy_header(f, name)
            if dtype != want_dtype or shape != want_shape:
                raise RecordError(
                    f'entry "{name}": expected {np.dtype(want_dtype).str} of shape {want_shape},'
                    f" got {dtype.str} of shape {shape}"
                )
            size = int(np.prod(want_shape, dtype=np.int64)) * dtype.itemsize
            _check_size(infos[name], name, offset, size)
            total += size
        if total > MAX_EXPANSION * disk + (1 << 20):
            raise RecordError(
                f"its arrays would take {total / 2**20:.0f} MiB once read, more than"
                f" {MAX_EXPANSION} times the file's {disk} bytes"
            )
        arrays = {}
        for name in template:
            with zf.open(infos[name]) as f:
                arrays[name] = np.lib.format.read_array(f, allow_pickle=False)
    return meta, arrays


def _read(path: str) -> CheckpointNetwork:
    found: dict[str, Any] = {}

    def template_of(meta: Any) -> dict[str, tuple[np.dtype[Any], tuple[int, ...]]]:
        game, architecture, hidden, layers, leaves = _header(meta)
        shapes = network_shapes(game, architecture, hidden, layers)
        if leaves != len(shapes):
            raise RecordError(
                f"the header says {leaves} arrays, the {architecture} network it describes"
                f" (hidden={hidden}, layers={layers}) has {len(shapes)}"
            )
        found.update(game=game, hidden=hidden, layers=layers, architecture=architecture)
        f32 = np.dtype(np.float32)
        return {f"leaf_{i}": (f32, shape) for i, shape in enumerate(shapes)}

    _, arrays = read_npz(path, template_of)
    weights = []
    for i in range(len(arrays)):
        a = arrays[f"leaf_{i}"]
        if not np.isfinite(a).all():
            raise RecordError(f'entry "leaf_{i}": holds NaN or infinite weights')
        weights.append(a)
    return CheckpointNetwork(
        found["game"],
        found["hidden"],
        found["layers"],
        weights,
        path=path,
        architecture=found["architecture"],
    )
