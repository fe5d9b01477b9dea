"""A small AlphaZero loop: PUCT self-play, a network trained on the visit policies and the
outcomes, evaluation against UCT, ``.npz`` checkpoints. Needs the optional extra
``stonefield[jax]`` (JAX on CPU, optax, equinox); the rest of stonefield never imports it.

The network is a multi-layer perceptron over the flattened observation with two heads: policy
logits over the action space (illegal actions masked before the softmax) and one value per
player in the observation's frame (column k is player ``(p + k) mod n``'s, ``p`` the player to
move), squashed by tanh. That is the frame :class:`stonefield.PUCT` reads an evaluator's values
in, and :meth:`stonefield.SelfPlayData.relative_returns` gives the matching targets. The loss is
the cross-entropy of the policy head with the root visit fractions plus the mean squared error
of the value head with the final returns.

>>> import stonefield as sf
>>> from stonefield.alphazero import Network
>>> net = Network.create(sf.make("subsume", size=3), hidden=16, seed=0)
>>> priors, values = net.evaluate(*net.example_batch(2))
>>> priors.shape, values.shape, priors.dtype.name
((2, 19), (2, 2), 'float32')

A PyTorch (or any) network plugs into the same search as a function of the same two arrays;
see the training guide in the documentation.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _core
from ._core import Game
from .matches import match
from .selfplay import SelfPlayData, selfplay

__all__ = ["Network", "TrainConfig", "batches", "train"]

try:
    import equinox as eqx
    import jax
    import jax.numpy as jnp
    import optax
except ImportError as e:  # pragma: no cover - the extra is installed in CI
    raise ImportError(
        "stonefield.alphazero needs the optional extra: pip install 'stonefield[jax]'"
    ) from e

#: The format of a checkpoint's metadata.
CHECKPOINT_FORMAT = "stonefield-alphazero"


def batches(data: SelfPlayData, batch_size: int, *, seed: int = 0, epochs: int = 1) -> Any:
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


def _bucket(n: int) -> int:
    """The padded batch size for ``n`` rows: powers of two, so that the jitted network is
    compiled for a few shapes only."""
    return 1 << max(0, math.ceil(math.log2(max(n, 1))))


class _Model(eqx.Module):
    trunk: eqx.nn.MLP
    num_actions: int = eqx.field(static=True)
    players: int = eqx.field(static=True)

    def __call__(self, x: jax.Array) -> tuple[jax.Array, jax.Array]:
        out = self.trunk(x)
        return out[: self.num_actions], jnp.tanh(out[self.num_actions :])


@eqx.filter_jit
def _forward(model: _Model, obs: jax.Array, mask: jax.Array) -> tuple[jax.Array, jax.Array]:
    logits, values = jax.vmap(model)(obs.reshape(obs.shape[0], -1))
    logits = jnp.where(mask, logits, -1e9)
    return jax.nn.softmax(logits, axis=-1), values


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
        """The PUCT evaluator: priors float32 (B, num_actions), values float32 (B, players)."""
        b = observations.shape[0]
        pad = _bucket(b) - b
        if pad:
            observations = np.concatenate(
                [observations, np.zeros((pad, *observations.shape[1:]), np.float32)]
            )
            legal_mask = np.concatenate([legal_mask, np.ones((pad, legal_mask.shape[1]), np.bool_)])
        priors, values = _forward(self.model, jnp.asarray(observations), jnp.asarray(legal_mask))
        return (
            np.asarray(priors, dtype=np.float32)[:b],
            np.clip(np.asarray(values, dtype=np.float32)[:b], -1.0, 1.0),
        )

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

    def loss(self, data: SelfPlayData) -> tuple[float, float]:
        """The (policy, value) loss of the network on all of ``data``."""
        batch = next(batches(data, max(len(data), 1)))
        _, parts = _loss(self.model, {k: jnp.asarray(v) for k, v in batch.items()})
        return float(parts[0]), float(parts[1])

    def fit(
        self, data: SelfPlayData, *, epochs: int = 4, batch_size: int = 128, seed: int = 0
    ) -> tuple[float, float]:
        """Trains on ``data`` for ``epochs`` passes; returns the mean (policy, value) loss of
        the last pass."""
        self._ensure_optimiser()
        total = np.zeros(2)
        count = 0
        per_epoch = math.ceil(len(data) / batch_size)
        for i, b in enumerate(batches(data, batch_size, seed=seed, epochs=epochs)):
            jb = {k: jnp.asarray(v) for k, v in b.items()}
            self.model, self._opt_state, parts = self._step(self.model, self._opt_state, jb)
            if i >= (epochs - 1) * per_epoch:
                total += np.asarray(parts)
                count += 1
        mean = total / max(count, 1)
        return float(mean[0]), float(mean[1])

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes the weights to one ``.npz`` file (numpy arrays and a JSON header, no
        pickles); :meth:`load` reads it back to the same outputs."""
        leaves = jax.tree_util.tree_leaves(eqx.filter(self.model, eqx.is_array))
        header = json.dumps(
            {
                "format": CHECKPOINT_FORMAT,
                "game": self.game.name,
                "options": dict(self.game.options),
                "hidden": self.hidden,
                "layers": self.layers,
                "leaves": len(leaves),
            }
        )
        arrays: dict[str, Any] = {f"leaf_{i}": np.asarray(x) for i, x in enumerate(leaves)}
        arrays["header"] = np.array(header)
        np.savez(path, **arrays)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Network:
        """Reads a checkpoint written by :meth:`save`.

        Raises:
            RecordError: the file is not such a checkpoint.
        """
        with np.load(path, allow_pickle=False) as f:
            try:
                meta = json.loads(str(f["header"][()]))
                if meta.get("format") != CHECKPOINT_FORMAT:
                    raise ValueError(f"format {meta.get('format')!r}")
                game = _core.make(meta["game"], **meta["options"])
                net = cls.create(game, hidden=int(meta["hidden"]), layers=int(meta["layers"]))
                params, static = eqx.partition(net.model, eqx.is_array)
                treedef = jax.tree_util.tree_structure(params)
                leaves = [jnp.asarray(f[f"leaf_{i}"]) for i in range(int(meta["leaves"]))]
                template = jax.tree_util.tree_leaves(params)
                if len(leaves) != len(template) or any(
                    a.shape != b.shape for a, b in zip(leaves, template)
                ):
                    raise ValueError("the weights do not fit the network the header describes")
            except (KeyError, ValueError, TypeError, _core.StonefieldError) as e:
                raise _core.RecordError(f"{os.fspath(path)}: not a checkpoint ({e})") from None
        net.model = eqx.combine(jax.tree_util.tree_unflatten(treedef, leaves), static)
        # Where it came from, so that an agent string can name it (``puct:checkpoint=PATH``).
        net.path = os.fspath(path)
        return net


@dataclass(frozen=True)
class TrainConfig:
    """Settings of :func:`train` (the defaults suit a small board on two CPU cores)."""

    games: int = 64
    simulations: int = 64
    batch_size: int = 8
    temperature_moves: int = 4
    epochs: int = 4
    window: int = 4
    hidden: int = 128
    layers: int = 2
    learning_rate: float = 1e-3
    eval_games: int = 40
    eval_simulations: int = 200
    uct_iterations: int = 200
    seed: int = 0


def train(
    game: Game,
    iterations: int,
    out: str | os.PathLike[str],
    config: TrainConfig = TrainConfig(),
    *,
    progress: Callable[[dict[str, Any]], Any] | None = None,
) -> list[dict[str, Any]]:
    """Runs ``iterations`` rounds of self-play, training and evaluation; writes
    ``out/checkpoint-NNN.npz`` after each, ``out/latest.npz``, and the results table as
    ``out/results.json`` and ``out/results.md``. Returns the table's rows.

    Each round: ``config.games`` PUCT self-play games with the current network (root noise on,
    the first ``temperature_moves`` moves drawn by visits), training for ``epochs`` passes over
    the last ``window`` rounds' data, then a match of ``eval_games`` games of PUCT with the new
    network (``eval_simulations``, no noise) against UCT at ``uct_iterations`` (seats
    alternate). Rows hold the losses before and after training, the score against UCT with its
    95 % interval, and the seconds spent.
    """
    if iterations < 1:
        raise _core.InvalidOptionError(f"iterations must be at least 1, got {iterations}")
    os.makedirs(out, exist_ok=True)
    net = Network.create(
        game,
        hidden=config.hidden,
        layers=config.layers,
        seed=config.seed,
        learning_rate=config.learning_rate,
    )
    window: list[SelfPlayData] = []
    rows: list[dict[str, Any]] = []
    for it in range(iterations):
        started = time.perf_counter()
        agent = _core.PUCT(
            net.evaluate,
            simulations=config.simulations,
            batch_size=config.batch_size,
            seed=config.seed + it,
        )
        data = selfplay(
            game,
            agent,
            games=config.games,
            seed=config.seed * 1_000_003 + it,
            temperature_moves=config.temperature_moves,
        )
        window = (window + [data])[-config.window :]
        merged = _merge(window)
        before = net.loss(data)
        after = net.fit(merged, epochs=config.epochs, seed=config.seed + it)
        trained = time.perf_counter()
        row: dict[str, Any] = {
            "iteration": it + 1,
            "positions": len(data),
            "policy_loss_before": before[0],
            "value_loss_before": before[1],
            "policy_loss": after[0],
            "value_loss": after[1],
        }
        if config.eval_games > 0:
            m = match(
                game,
                [
                    _core.PUCT(
                        net.evaluate,
                        simulations=config.eval_simulations,
                        batch_size=config.batch_size,
                        dirichlet_fraction=0.0,
                        seed=config.seed,
                    ),
                    _core.MCTS(iterations=config.uct_iterations, seed=config.seed),
                ],
                games=config.eval_games,
                seed=config.seed + 7919 * (it + 1),
            )
            row["score_vs_uct"] = float(m.score[0])
            row["score_low"], row["score_high"] = (float(x) for x in m.score_ci[0])
        row["seconds"] = time.perf_counter() - started
        row["train_seconds"] = trained - started
        net.save(os.path.join(out, f"checkpoint-{it + 1:03d}.npz"))
        net.save(os.path.join(out, "latest.npz"))
        rows.append(row)
        _write_results(out, game, config, rows)
        if progress is not None:
            progress(row)
    return rows


def _merge(parts: list[SelfPlayData]) -> SelfPlayData:
    """Several self-play runs of one game as one (games renumbered)."""
    if len(parts) == 1:
        return parts[0]
    game_base = np.cumsum([0] + [p.num_games for p in parts[:-1]])
    action_base = np.cumsum([0] + [len(p.actions) for p in parts[:-1]])
    return SelfPlayData(
        game=parts[0].game,
        observations=np.concatenate([p.observations for p in parts]),
        policies=np.concatenate([p.policies for p in parts]),
        players=np.concatenate([p.players for p in parts]),
        returns=np.concatenate([p.returns for p in parts]),
        game_index=np.concatenate(
            [p.game_index + np.uint32(b) for p, b in zip(parts, game_base)]
        ).astype(np.uint32),
        actions=np.concatenate([p.actions for p in parts]),
        offsets=np.concatenate(
            [parts[0].offsets[:1]] + [p.offsets[1:] + b for p, b in zip(parts, action_base)]
        ).astype(np.int64),
        legal_masks=np.concatenate([p.legal_masks for p in parts]),
    )


def _write_results(
    out: str | os.PathLike[str], game: Game, config: TrainConfig, rows: list[dict[str, Any]]
) -> None:
    with open(os.path.join(out, "results.json"), "w", encoding="utf-8") as f:
        json.dump(
            {
                "game": game.name,
                "options": dict(game.options),
                "config": config.__dict__,
                "rows": rows,
            },
            f,
            indent=1,
        )
    lines = [
        "| iteration | positions | policy loss | value loss | score vs UCT | 95 % interval | s |",
        "|---:|---:|---:|---:|---:|---|---:|",
    ]
    for r in rows:
        score = f"{r['score_vs_uct']:.3f}" if "score_vs_uct" in r else "–"
        ci = f"[{r['score_low']:.3f}, {r['score_high']:.3f}]" if "score_low" in r else "–"
        lines.append(
            f"| {r['iteration']} | {r['positions']} | {r['policy_loss']:.3f} |"
            f" {r['value_loss']:.3f} | {score} | {ci} | {r['seconds']:.0f} |"
        )
    with open(os.path.join(out, "results.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
