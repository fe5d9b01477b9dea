"""The policy-value network of :mod:`stonefield.alphazero`: its model, its evaluator for
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
from .._checkpoint import CHECKPOINT_FORMAT, forward, read_checkpoint, write_checkpoint
from .._core import Game
from .symmetry import augment

__all__ = ["CHECKPOINT_FORMAT", "Network", "SelfPlayArrays", "batches"]

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


def batches(data: SelfPlayArrays, batch_size: int, *, seed: int = 0, epochs: int = 1) -> Any:
    """Shuffled minibatches of self-play data as numpy arrays, for any framework.

    Yields dicts with ``observations`` float32 (B, planes, sites), ``legal_masks`` bool
    (B, num_actions), ``policies`` float32 (B, num_actions) and ``values`` float32 (B, players):
    the final returns in the observation's frame (:meth:`SelfPlayData.relative_returns`).
    The last batch of an epoch may be smaller.

    >>> import stonefield as sf
    >>> d = sf.selfplay("subsume", sf.PUCT(simulations=10), games=2, size=3)
    >>> b = next(batches(d, 8))
    >>> sorted(b), b["values"].shape
    (['legal_masks', 'observations', 'policies', 'values'], (8, 2))
    """
    if batch_size < 1:
        raise _core.InvalidOptionError(f"batch_size must be at least 1, got {batch_size}")
    rng = np.random.default_rng(seed)
    targets = data.relative_returns()
    for _ in range(epochs):
        order = rng.permutation(len(data))
        for start in range(0, len(order), batch_size):
            rows = order[start : start + batch_size]
            yield {
                "observations": data.observations[rows],
                "legal_masks": data.legal_masks[rows],
                "policies": data.policies[rows],
                "values": targets[rows],
            }


class _Model(eqx.Module):
    trunk: eqx.nn.MLP
    num_actions: int = eqx.field(static=True)
    players: int = eqx.field(static=True)

    def __call__(self, x: jax.Array) -> tuple[jax.Array, jax.Array]:
        out = self.trunk(x)
        return out[: self.num_actions], jnp.tanh(out[self.num_actions :])


def _loss(model: _Model, batch: dict[str, jax.Array]) -> tuple[jax.Array, jax.Array]:
    obs = batch["observations"]
    logits, values = jax.vmap(model)(obs.reshape(obs.shape[0], -1))
    logits = jnp.where(batch["legal_masks"], logits, -1e9)
    logp = jax.nn.log_softmax(logits, axis=-1)
    policy = -jnp.mean(jnp.sum(batch["policies"] * jnp.where(batch["legal_masks"], logp, 0), -1))
    value = jnp.mean((values - batch["values"]) ** 2)
    return policy + value, jnp.stack([policy, value])


@dataclass
class Network:
    """A policy-value network for one game, its optimiser state, and its evaluator.

    Make one with :meth:`create` or :meth:`load`; ``net.evaluate`` is an evaluator for
    :class:`stonefield.PUCT`.
    """

    game: Game
    hidden: int
    layers: int
    model: Any
    learning_rate: float = 1e-3
    _opt: Any = field(default=None, repr=False)
    _opt_state: Any = field(default=None, repr=False)
    _step: Any = field(default=None, repr=False)
    _numpy: Any = field(default=None, repr=False)
    #: The checkpoint it was read from (None for a network made in this process).
    path: str | None = field(default=None, repr=False)

    @classmethod
    def create(
        cls,
        game: Game,
        *,
        hidden: int = 128,
        layers: int = 2,
        seed: int = 0,
        learning_rate: float = 1e-3,
    ) -> Network:
        """A freshly initialised network for ``game``."""
        planes, sites = game.observation_shape
        model = _Model(
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
        return cls(game, hidden, layers, model, learning_rate)

    def example_batch(self, n: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """``n`` copies of the starting position's observation and legal mask."""
        state = self.game.new_state()
        obs = np.repeat(state.observation()[None], n, axis=0).astype(np.float32)
        return obs, np.repeat(state.legal_mask()[None], n, axis=0)

    def evaluate(
        self, observations: npt.NDArray[np.float32], legal_mask: npt.NDArray[np.bool_]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """The PUCT evaluator: priors float32 (B, num_actions), values float32 (B, players).

        The forward pass runs in numpy on a copy of the weights (made again whenever training
        changes them): a search calls it with a handful of rows at a time, where a call into
        JAX costs ten times the arithmetic."""
        return forward(self._numpy_layers(), self.game, observations, legal_mask)

    def _numpy_layers(self) -> list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]:
        """The trunk's (weight transposed, bias) pairs as float32 numpy arrays, for the model
        the network holds now."""
        if self._numpy is None or self._numpy[0] is not self.model:
            layers = [
                (
                    np.ascontiguousarray(np.asarray(lin.weight, np.float32).T),
                    np.asarray(lin.bias, np.float32),
                )
                for lin in self.model.trunk.layers
            ]
            self._numpy = (self.model, layers)
            return layers
        cached: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]] = self._numpy[1]
        return cached

    def _ensure_optimiser(self) -> None:
        if self._opt is not None:
            return
        self._opt = optax.adamw(self.learning_rate, weight_decay=1e-4)
        self._opt_state = self._opt.init(eqx.filter(self.model, eqx.is_array))
        opt = self._opt

        @eqx.filter_jit
        def step(model: Any, state: Any, batch: dict[str, jax.Array]) -> Any:
            (_, parts), grads = eqx.filter_value_and_grad(_loss, has_aux=True)(model, batch)
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

    def loss(self, data: SelfPlayArrays) -> tuple[float, float]:
        """The (policy, value) loss of the network on all of ``data``."""
        batch = next(batches(data, max(len(data), 1)))
        _, parts = _loss(self.model, {k: jnp.asarray(v) for k, v in batch.items()})
        return float(parts[0]), float(parts[1])

    def fit(
        self,
        data: SelfPlayArrays,
        *,
        epochs: int = 4,
        batch_size: int = 128,
        seed: int = 0,
        symmetries: npt.NDArray[np.int64] | None = None,
    ) -> tuple[float, float]:
        """Trains on ``data`` for ``epochs`` passes; returns the mean (policy, value) loss of
        the last pass.

        With ``symmetries`` (site permutations the game respects, from
        :func:`~stonefield.alphazero.symmetry.game_symmetries`), every row of every minibatch
        is first moved by one of them drawn at random."""
        self._ensure_optimiser()
        total = np.zeros(2)
        count = 0
        per_epoch = math.ceil(len(data) / batch_size)
        rng = np.random.default_rng(seed)
        for i, b in enumerate(batches(data, batch_size, seed=seed, epochs=epochs)):
            if symmetries is not None:
                b = augment(b, symmetries, rng)
            jb = {k: jnp.asarray(v) for k, v in b.items()}
            self.model, self._opt_state, parts = self._step(self.model, self._opt_state, jb)
            if i >= (epochs - 1) * per_epoch:
                total += np.asarray(parts)
                count += 1
        mean = total / max(count, 1)
        return float(mean[0]), float(mean[1])

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes the weights to one ``.npz`` file (numpy arrays and a JSON header, no
        pickles; see :mod:`stonefield._checkpoint`), through a temporary file that then
        replaces ``path``; :meth:`load` reads it back to the same outputs."""
        leaves = jax.tree_util.tree_leaves(eqx.filter(self.model, eqx.is_array))
        write_checkpoint(path, self.game, self.hidden, self.layers, [np.asarray(x) for x in leaves])

    @classmethod
    def load(cls, path: str | os.PathLike[str], game: Game | None = None) -> Network:
        """Reads a checkpoint written by :meth:`save` (every member checked before it is
        read, as :func:`stonefield._checkpoint.read_checkpoint` does).

        Raises:
            RecordError: the file is not such a checkpoint.
            InvalidOptionError: ``game`` is given and the checkpoint is another game's.
        """
        checkpoint = read_checkpoint(path, game)
        net = cls.create(checkpoint.game, hidden=checkpoint.hidden, layers=checkpoint.layers)
        params, static = eqx.partition(net.model, eqx.is_array)
        treedef = jax.tree_util.tree_structure(params)
        leaves = [jnp.asarray(w) for w in checkpoint.weights]
        net.model = eqx.combine(jax.tree_util.tree_unflatten(treedef, leaves), static)
        # Where it came from, so that an agent string can name it (``puct:checkpoint=PATH``).
        net.path = os.fspath(path)
        return net
