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

from .loop import TrainConfig, train
from .network import CHECKPOINT_FORMAT, Network, batches
from .symmetry import augment, board_symmetries, game_symmetries

__all__ = [
    "CHECKPOINT_FORMAT",
    "Network",
    "TrainConfig",
    "augment",
    "batches",
    "board_symmetries",
    "game_symmetries",
    "train",
]
