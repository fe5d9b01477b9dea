"""The policy-value network of :mod:`stonefield.alphazero`: its model (the graph network of
:mod:`stonefield._graphnet`, or a perceptron for one board), its evaluator for
:class:`stonefield.PUCT`, training steps, checkpoints, and the minibatches of self-play data.

It imports JAX; reading and playing a checkpoint needs numpy alone and lives in
:mod:`stonefield._checkpoint`, which this module writes and reads through."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from .. import _core
from .._checkpoint import (
    ARCHITECTURES,
    CHECKPOINT_FORMAT,
    CheckpointNetwork,
    forward,
    network_shapes,
    read_checkpoint,
    write_checkpoint,
)
from .._core import Game
from .._graphnet import BLOCK_WEIGHTS, Board
from .symmetry import action_permutation, augment

__all__ = [
    "CHECKPOINT_FORMAT",
    "Network",
    "SelfPlayArrays",
    "batches",
    "board_arrays",
    "policy_weights",
    "value_targets",
]

try:
    import equinox as eqx
    import jax
    import jax.numpy as jnp
    import optax
except ImportError as e:  # pragma: no cover - the extra is installed in CI
    raise ImportError(
        "stonefield.alphazero needs the optional extra: pip install 'stonefield[jax]'"
    ) from e


class SelfPlayArrays(Protocol):
    """What :func:`batches` reads of self-play data (a :class:`stonefield.SelfPlayData`)."""

    @property
    def observations(self) -> npt.NDArray[np.float32]: ...

    @property
    def legal_masks(self) -> npt.NDArray[np.bool_]: ...

    @property
    def policies(self) -> npt.NDArray[np.float32]: ...

    def __len__(self) -> int: ...

    def relative_returns(self) -> npt.NDArray[np.float32]: ...


def value_targets(data: SelfPlayArrays, value_mix: float = 0.0) -> npt.NDArray[np.float32]:
    """The value targets (positions, players) in the observation's frame: the final returns
    (:meth:`SelfPlayData.relative_returns`), with the mover's own column mixed with the
    search's root value by ``value_mix`` where the data records it (``search_values``):
    ``(1 - value_mix) * outcome + value_mix * search_value``."""
    if not 0.0 <= value_mix <= 1.0:
        raise _core.InvalidOptionError(f"value_mix must be a number from 0 to 1, got {value_mix}")
    targets = np.array(data.relative_returns(), np.float32)
    searched = getattr(data, "search_values", None)
    if value_mix > 0 and searched is not None:
        targets[:, 0] = (1 - value_mix) * targets[:, 0] + value_mix * np.asarray(searched)
    return targets


def policy_weights(data: SelfPlayArrays) -> npt.NDArray[np.float32]:
    """1 for each position whose search policy is a training target, 0 for the others (moves
    of a fast search under playout-cap randomisation, recorded as ``full_search``)."""
    full = getattr(data, "full_search", None)
    if full is None:
        return np.ones(len(data), np.float32)
    return np.asarray(full, np.float32)


def batches(
    data: SelfPlayArrays,
    batch_size: int,
    *,
    seed: int = 0,
    epochs: int = 1,
    value_mix: float = 0.0,
    pad: bool = False,
) -> Any:
    """Shuffled minibatches of self-play data as numpy arrays, for any framework.

    Yields dicts with ``observations`` float32 (B, planes, sites), ``legal_masks`` bool
    (B, num_actions), ``policies`` float32 (B, num_actions), ``policy_weights`` float32 (B,)
    (:func:`policy_weights`) and ``values`` float32 (B, players) (:func:`value_targets`).
    The last batch of an epoch may be smaller; with ``pad``, it is topped up with rows of the
    epoch drawn at random, so that every batch has one shape (a compiled step is reused).

    >>> import stonefield as sf
    >>> d = sf.selfplay("subsume", sf.PUCT(simulations=10), games=2, size=3)
    >>> b = next(batches(d, 8))
    >>> sorted(b), b["values"].shape
    (['legal_masks', 'observations', 'policies', 'policy_weights', 'values'], (8, 2))
    """
    if batch_size < 1:
        raise _core.InvalidOptionError(f"batch_size must be at least 1, got {batch_size}")
    rng = np.random.default_rng(seed)
    targets = value_targets(data, value_mix)
    weights = policy_weights(data)
    for _ in range(epochs):
        order = rng.permutation(len(data))
        for start in range(0, len(order), batch_size):
            rows = order[start : start + batch_size]
            if pad and len(rows) < batch_size:
                rows = np.concatenate([rows, rng.choice(order, batch_size - len(rows))])
            yield {
                "observations": data.observations[rows],
                "legal_masks": data.legal_masks[rows],
                "policies": data.policies[rows],
                "policy_weights": weights[rows],
                "values": targets[rows],
            }


class _Model(eqx.Module):
    """The perceptron of architecture ``mlp``: one board only."""

    trunk: eqx.nn.MLP
    num_actions: int = eqx.field(static=True)
    players: int = eqx.field(static=True)

    def __call__(self, obs: jax.Array, board: Any) -> tuple[jax.Array, jax.Array]:
        out = jax.vmap(self.trunk)(obs.reshape(obs.shape[0], -1))
        return out[:, : self.num_actions], jnp.tanh(out[:, self.num_actions :])


def _neighbour_mean(h: jax.Array, table: jax.Array, count: jax.Array) -> jax.Array:
    padded = jnp.concatenate([h, jnp.zeros_like(h[:, :1])], axis=1)
    return padded[:, table].sum(axis=2) / jnp.maximum(count, 1.0)[None, :, None]


class _GraphModel(eqx.Module):
    """The graph network of :mod:`stonefield._graphnet`, its weights in their stored order;
    the board's tables come with each call, so one model plays every board of its game."""

    weights: list[jax.Array]
    blocks: int = eqx.field(static=True)

    def __call__(self, obs: jax.Array, board: dict[str, jax.Array]) -> tuple[jax.Array, jax.Array]:
        w = self.weights
        b = obs.shape[0]
        static = jnp.broadcast_to(board["static"], (b, *board["static"].shape))
        x = jnp.concatenate([jnp.transpose(obs, (0, 2, 1)), static], axis=2)
        h = jax.nn.relu(x @ w[0] + w[1])
        k = 2
        for _ in range(self.blocks):
            a, bo, bd, c, b1, d, b2 = w[k : k + BLOCK_WEIGHTS]
            k += BLOCK_WEIGHTS
            u = (
                h @ a
                + _neighbour_mean(h, board["orth"], board["orth_count"]) @ bo
                + _neighbour_mean(h, board["diag"], board["diag_count"]) @ bd
                + h.mean(axis=1, keepdims=True) @ c
                + b1
            )
            h = jax.nn.relu(h + jax.nn.relu(u) @ d + b2)
        w_p, b_p, w_e, b_e, w_v1, b_v1, w_v2, b_v2 = w[k : k + 8]
        site_logits = (h @ w_p + b_p).reshape(b, -1)
        z = jnp.concatenate([h.mean(axis=1), h.max(axis=1)], axis=1)
        logits = jnp.concatenate([site_logits, z @ w_e + b_e], axis=1)[:, board["index"]]
        values = jnp.tanh(jax.nn.relu(z @ w_v1 + b_v1) @ w_v2 + b_v2)
        return logits, values


def _graph_init(shapes: list[tuple[int, ...]], blocks: int, seed: int) -> list[jax.Array]:
    """He-initialised weights (zero biases); each block's output layer ``D`` and the heads'
    last layers start small, so a fresh network is close to uniform priors and zero values."""
    key = jax.random.PRNGKey(seed)
    out = []
    small = {2 + i * BLOCK_WEIGHTS + 5 for i in range(blocks)}  # D of each block
    heads = 2 + blocks * BLOCK_WEIGHTS
    small |= {heads, heads + 2, heads + 6}  # W_p, W_e, W_v2
    for i, shape in enumerate(shapes):
        key, sub = jax.random.split(key)
        if len(shape) == 1:
            out.append(jnp.zeros(shape, jnp.float32))
            continue
        scale = np.sqrt(2.0 / max(shape[0], 1)) * (0.1 if i in small else 1.0)
        out.append(scale * jax.random.normal(sub, shape, jnp.float32))
    return out


def board_arrays(game: Game) -> dict[str, jax.Array]:
    """The tables of ``game``'s board the graph model reads
    (:class:`stonefield._graphnet.Board`)."""
    board = Board.of(game)
    return {
        "orth": jnp.asarray(board.orth),
        "orth_count": jnp.asarray(board.orth_count),
        "diag": jnp.asarray(board.diag),
        "diag_count": jnp.asarray(board.diag_count),
        "static": jnp.asarray(board.static),
        "index": jnp.asarray(board.layout.index),
    }


def _loss(model: Any, board: Any, batch: dict[str, jax.Array]) -> tuple[jax.Array, jax.Array]:
    logits, values = model(batch["observations"], board)
    logits = jnp.where(batch["legal_masks"], logits, -1e9)
    logp = jax.nn.log_softmax(logits, axis=-1)
    per_row = -jnp.sum(batch["policies"] * jnp.where(batch["legal_masks"], logp, 0), -1)
    weights = batch["policy_weights"]
    policy = jnp.sum(weights * per_row) / jnp.maximum(jnp.sum(weights), 1.0)
    value = jnp.mean((values - batch["values"]) ** 2)
    return policy + value, jnp.stack([policy, value])


@dataclass
class Network:
    """A policy-value network for one game, its optimiser state, and its evaluator.

    Make one with :meth:`create` or :meth:`load`; ``net.evaluate`` is an evaluator for
    :class:`stonefield.PUCT`. A ``graph`` network (the default) trains and plays on any board
    of its game: :meth:`with_game` gives the same network, optimiser included, on another.
    """

    game: Game
    hidden: int
    layers: int
    model: Any
    learning_rate: float = 1e-3
    architecture: str = "graph"
    _opt: Any = field(default=None, repr=False)
    _opt_state: Any = field(default=None, repr=False)
    _step: Any = field(default=None, repr=False)
    _numpy: Any = field(default=None, repr=False)
    _board: Any = field(default=None, repr=False)
    #: The checkpoint it was read from (None for a network made in this process).
    path: str | None = field(default=None, repr=False)

    @classmethod
    def create(
        cls,
        game: Game,
        *,
        hidden: int = 64,
        layers: int = 4,
        seed: int = 0,
        learning_rate: float = 1e-3,
        architecture: str = "graph",
    ) -> Network:
        """A freshly initialised network for ``game``: ``graph`` with ``layers`` message-passing
        blocks ``hidden`` wide, or ``mlp`` with ``layers`` hidden layers."""
        if architecture not in ARCHITECTURES:
            raise _core.InvalidOptionError(
                f"architecture must be one of {', '.join(ARCHITECTURES)}, got {architecture!r}"
            )
        if architecture == "mlp":
            planes, sites = game.observation_shape
            model: Any = _Model(
                trunk=eqx.nn.MLP(
                    planes * sites,
                    game.num_actions + game.num_players,
                    hidden,
                    layers,
                    key=jax.random.PRNGKey(seed),
                ),
                num_actions=game.num_actions,
                players=game.num_players,
            )
        else:
            shapes = network_shapes(game, "graph", hidden, layers)
            model = _GraphModel(_graph_init(shapes, layers, seed), layers)
        return cls(game, hidden, layers, model, learning_rate, architecture)

    def with_game(self, game: Game) -> Network:
        """This network (the same model and optimiser state) training and playing ``game``:
        another board of a graph network's game.

        Raises:
            InvalidOptionError: the network cannot play ``game``.
        """
        if game == self.game:
            return self
        why = self._checkpoint().plays(game)
        if why is not None:
            raise _core.InvalidOptionError(
                f"this {self.architecture} network of {self.game.name} cannot play"
                f" {game.name} with {dict(game.options)}: {why}"
            )
        net = Network(game, self.hidden, self.layers, self.model, self.learning_rate)
        net.architecture = self.architecture
        net.path = self.path
        if self._opt is not None:
            net._ensure_optimiser()
            net._opt_state = self._opt_state
        return net

    def example_batch(self, n: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """``n`` copies of the starting position's observation and legal mask."""
        state = self.game.new_state()
        obs = np.repeat(state.observation()[None], n, axis=0).astype(np.float32)
        return obs, np.repeat(state.legal_mask()[None], n, axis=0)

    def weights(self) -> list[npt.NDArray[np.float32]]:
        """The weights as float32 numpy arrays, in a checkpoint's order."""
        leaves = jax.tree_util.tree_leaves(eqx.filter(self.model, eqx.is_array))
        return [np.asarray(x, np.float32) for x in leaves]

    def _checkpoint(self) -> CheckpointNetwork:
        """The numpy network of the model the network holds now (made again whenever
        training changes it)."""
        if self._numpy is None or self._numpy[0] is not self.model:
            net = CheckpointNetwork(
                self.game,
                self.hidden,
                self.layers,
                self.weights(),
                path=self.path,
                architecture=self.architecture,
            )
            self._numpy = (self.model, net)
        cached: CheckpointNetwork = self._numpy[1]
        return cached

    def check_game(self, game: Game) -> None:
        """Raises :class:`~stonefield.InvalidOptionError` unless the network plays ``game``
        (a search calls it first)."""
        self._checkpoint().check_game(game)

    def evaluate(
        self, observations: npt.NDArray[np.float32], legal_mask: npt.NDArray[np.bool_]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """The PUCT evaluator: priors float32 (B, num_actions), values float32 (B, players).

        The forward pass runs in numpy on a copy of the weights (made again whenever training
        changes them): a search calls it with a handful of rows at a time, where a call into
        JAX costs ten times the arithmetic."""
        if self.architecture == "mlp":
            return forward(self._numpy_layers(), self.game, observations, legal_mask)
        net = self._checkpoint()
        net.check_game(self.game)
        return net.evaluate(observations, legal_mask)

    def _numpy_layers(self) -> list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]:
        """The perceptron's (weight transposed, bias) pairs as float32 numpy arrays."""
        w = self.weights()
        # eqx's Linear stores weight (out, in) then bias.
        return [(np.ascontiguousarray(w[i].T), w[i + 1]) for i in range(0, len(w), 2)]

    def _board_arrays(self) -> Any:
        if self._board is None or self._board[0] != self.game:
            arrays = board_arrays(self.game) if self.architecture == "graph" else {}
            self._board = (self.game, arrays)
        return self._board[1]

    def _ensure_optimiser(self) -> None:
        if self._opt is not None:
            return
        self._opt = optax.adamw(self.learning_rate, weight_decay=1e-4)
        self._opt_state = self._opt.init(eqx.filter(self.model, eqx.is_array))
        opt = self._opt

        @eqx.filter_jit
        def step(model: Any, state: Any, board: Any, batch: dict[str, jax.Array]) -> Any:
            (_, parts), grads = eqx.filter_value_and_grad(_loss, has_aux=True)(model, board, batch)
            updates, state = opt.update(grads, state, eqx.filter(model, eqx.is_array))
            return eqx.apply_updates(model, updates), state, parts

        self._step = step

    def optimiser_state(self) -> list[npt.NDArray[Any]]:
        """The optimiser's state (AdamW's moments and step count) as numpy arrays, for a
        resume (:meth:`set_optimiser_state`)."""
        self._ensure_optimiser()
        return [np.asarray(x) for x in jax.tree_util.tree_leaves(self._opt_state)]

    def set_optimiser_state(self, arrays: list[npt.NDArray[Any]]) -> None:
        """Restores what :meth:`optimiser_state` gave.

        Raises:
            RecordError: the arrays do not fit this network's optimiser.
        """
        self._ensure_optimiser()
        leaves, treedef = jax.tree_util.tree_flatten(self._opt_state)
        if len(arrays) != len(leaves) or any(
            a.shape != np.shape(b) or a.dtype != np.asarray(b).dtype for a, b in zip(arrays, leaves)
        ):
            raise _core.RecordError("the optimiser state does not fit the network")
        self._opt_state = jax.tree_util.tree_unflatten(treedef, [jnp.asarray(a) for a in arrays])

    def loss(self, data: SelfPlayArrays, *, value_mix: float = 0.0) -> tuple[float, float]:
        """The (policy, value) loss of the network on all of ``data``."""
        batch = next(batches(data, max(len(data), 1), value_mix=value_mix))
        _, parts = _loss(
            self.model, self._board_arrays(), {k: jnp.asarray(v) for k, v in batch.items()}
        )
        return float(parts[0]), float(parts[1])

    def fit(
        self,
        data: SelfPlayArrays,
        *,
        epochs: int = 4,
        batch_size: int = 128,
        seed: int = 0,
        symmetries: npt.NDArray[np.int64] | None = None,
        value_mix: float = 0.0,
    ) -> tuple[float, float]:
        """Trains on ``data`` for ``epochs`` passes; returns the mean (policy, value) loss of
        the last pass.

        With ``symmetries`` (site permutations the game respects, from
        :func:`~stonefield.alphazero.symmetry.game_symmetries`), every row of every minibatch
        is first moved by one of them drawn at random. ``value_mix`` mixes the search's root
        values into the value targets (:func:`value_targets`)."""
        self._ensure_optimiser()
        total = np.zeros(2)
        count = 0
        per_epoch = math.ceil(len(data) / batch_size)
        rng = np.random.default_rng(seed)
        board = self._board_arrays()
        moved = None
        if symmetries is not None and len(symmetries) > 1:
            moved = np.stack([action_permutation(self.game, p) for p in symmetries])
        for i, b in enumerate(
            batches(data, batch_size, seed=seed, epochs=epochs, value_mix=value_mix, pad=True)
        ):
            if symmetries is not None:
                b = augment(b, symmetries, rng, moved)
            jb = {k: jnp.asarray(v) for k, v in b.items()}
            self.model, self._opt_state, parts = self._step(self.model, self._opt_state, board, jb)
            if i >= (epochs - 1) * per_epoch:
                total += np.asarray(parts)
                count += 1
        mean = total / max(count, 1)
        return float(mean[0]), float(mean[1])

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes the weights to one ``.npz`` file (numpy arrays and a JSON header, no
        pickles; see :mod:`stonefield._checkpoint`), through a temporary file that then
        replaces ``path``; :meth:`load` reads it back to the same outputs."""
        write_checkpoint(
            path, self.game, self.hidden, self.layers, self.weights(), self.architecture
        )

    @classmethod
    def load(cls, path: str | os.PathLike[str], game: Game | None = None) -> Network:
        """Reads a checkpoint written by :meth:`save` (every member checked before it is
        read, as :func:`stonefield._checkpoint.read_checkpoint` does); with ``game``, the
        network then trains and plays that game (another board of a graph network's game).

        Raises:
            RecordError: the file is not such a checkpoint.
            InvalidOptionError: ``game`` is given and the network cannot play it.
        """
        checkpoint = read_checkpoint(path, game)
        net = cls.create(
            checkpoint.game,
            hidden=checkpoint.hidden,
            layers=checkpoint.layers,
            architecture=checkpoint.architecture,
        )
        params, static = eqx.partition(net.model, eqx.is_array)
        treedef = jax.tree_util.tree_structure(params)
        leaves = [jnp.asarray(w) for w in checkpoint.weights]
        net.model = eqx.combine(jax.tree_util.tree_unflatten(treedef, leaves), static)
        # Where it came from, so that an agent string can name it (``puct:checkpoint=PATH``).
        net.path = os.fspath(path)
        return net if game is None else net.with_game(game)
