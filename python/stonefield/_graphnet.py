"""The graph network of ``stonefield train``: one set of weights for every board of a game.

The network reads a position as features on the board's sites and passes messages along the
board's own neighbour tables, so nothing in its weights depends on the number of sites: a network
trained on a small board plays a larger one of the same game. Architecture ``graph`` (see
docs/training/index.md for why):

- **Input** per site: the observation's planes, then three fixed features of the site: its
  number of orthogonal neighbours / 6, of diagonal neighbours / 6, and whether it is on the
  perimeter. ``h = relu(x @ W_in + b_in)``, ``hidden`` wide.
- **Blocks** (``blocks`` of them), each a residual message-passing layer:
  ``u = relu(h @ A + mean_orth(h) @ B + mean_diag(h) @ Bd + mean_sites(h) @ C + b1)``,
  ``h = relu(h + u @ D + b2)``, where ``mean_orth`` averages over a site's orthogonal
  neighbours (0 for a site without any), ``mean_diag`` over its diagonal ones and ``mean_sites``
  over the board.
- **Policy**: each site has ``K`` logits ``h @ W_p + b_p``, one per block of actions that name a
  site (Faraday's phase-1 stones of either colour are two blocks; the other games have one); the
  actions that name no site (pass, accept, swap) get ``z @ W_e + b_e`` with
  ``z = [mean_sites(h), max_sites(h)]``.
- **Value**: ``tanh(relu(z @ W_v1 + b_v1) @ W_v2 + b_v2)``, one value per player in the order of
  the observation's planes.

The weights, in this order: ``W_in (F, H), b_in (H)``; per block ``A, B, Bd, C (H, H), b1 (H),
D (H, H), b2 (H)``; ``W_p (H, K), b_p (K), W_e (2H, E), b_e (E), W_v1 (2H, H), b_v1 (H),
W_v2 (H, players), b_v2 (players)``; F = planes + 3. The numpy forward pass here is the reference
the training model (:mod:`stonefield.alphazero.network`) and the native one follow.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ._core import Game, InvalidOptionError

__all__ = ["Board", "STATIC_FEATURES", "ActionLayout", "graph_forward", "graph_shapes"]

#: Fixed per-site features appended to the observation's planes.
STATIC_FEATURES = 3
#: Weights per block.
BLOCK_WEIGHTS = 7

Weights = list[npt.NDArray[np.float32]]


@dataclass(frozen=True)
class ActionLayout:
    """How a game's actions map onto the network's outputs.

    ``blocks`` (K) site actions per site, ``extras`` (E) actions that name no site, and
    ``index[a]``: the column of action ``a`` in the outputs laid out as the ``S * K`` site
    logits (site-major) followed by the ``E`` others."""

    blocks: int
    extras: int
    index: npt.NDArray[np.int64]

    @staticmethod
    def of(game: Game) -> ActionLayout:
        """The layout of ``game``'s actions: an action naming site ``s`` at id ``a`` is in block
        ``(a - s) / S``."""
        s_count = game.num_sites
        sites: list[tuple[int, int] | None] = []
        blocks = 0
        for a in range(game.num_actions):
            s = game.action_site(a)
            if s is None:
                sites.append(None)
                continue
            if (a - s) % s_count:
                raise InvalidOptionError(
                    f"{game.name}: action {a} names site {s} out of the block layout the graph"
                    " network reads"
                )
            block = (a - s) // s_count
            blocks = max(blocks, block + 1)
            sites.append((s, block))
        index = np.zeros(game.num_actions, np.int64)
        extra = 0
        for a, where in enumerate(sites):
            if where is None:
                index[a] = s_count * blocks + extra
                extra += 1
            else:
                index[a] = where[0] * blocks + where[1]
        return ActionLayout(blocks, extra, index)


@dataclass(frozen=True)
class Board:
    """What the graph network needs of a board: neighbour tables padded with the index ``S``
    (a row of zeros), their sizes, and the fixed site features."""

    sites: int
    orth: npt.NDArray[np.int64]
    orth_count: npt.NDArray[np.float32]
    diag: npt.NDArray[np.int64]
    diag_count: npt.NDArray[np.float32]
    static: npt.NDArray[np.float32]
    layout: ActionLayout
    planes: int
    players: int

    @staticmethod
    def of(game: Game) -> Board:
        s_count = game.num_sites
        tables = []
        for relation in ("orthogonal", "diagonal"):
            lists = [np.asarray(x, np.int64) for x in game.neighbors(relation)]
            width = max([len(x) for x in lists] + [1])
            table = np.full((s_count, width), s_count, np.int64)
            for i, x in enumerate(lists):
                table[i, : len(x)] = x
            count = np.array([len(x) for x in lists], np.float32)
            tables.append((table, count))
        perimeter = np.zeros(s_count, np.float32)
        perimeter[np.asarray(game.perimeter, np.int64)] = 1.0
        static = np.stack([tables[0][1] / 6.0, tables[1][1] / 6.0, perimeter], axis=1)
        planes, _ = game.observation_shape
        return Board(
            sites=s_count,
            orth=tables[0][0],
            orth_count=tables[0][1],
            diag=tables[1][0],
            diag_count=tables[1][1],
            static=static.astype(np.float32),
            layout=ActionLayout.of(game),
            planes=planes,
            players=game.num_players,
        )


def graph_shapes(
    planes: int, players: int, blocks_k: int, extras: int, hidden: int, blocks: int
) -> list[tuple[int, ...]]:
    """The shapes of the graph network's weights, in their order (see the module's text).

    >>> graph_shapes(4, 2, 1, 1, 8, 1)[-6:]
    [(16, 1), (1,), (16, 8), (8,), (8, 2), (2,)]
    """
    h = hidden
    shapes: list[tuple[int, ...]] = [(planes + STATIC_FEATURES, h), (h,)]
    for _ in range(blocks):
        shapes += [(h, h), (h, h), (h, h), (h, h), (h,), (h, h), (h,)]
    shapes += [(h, blocks_k), (blocks_k,), (2 * h, extras), (extras,)]
    shapes += [(2 * h, h), (h,), (h, players), (players,)]
    return shapes


def _neighbour_mean(
    h: npt.NDArray[np.float32], table: npt.NDArray[np.int64], count: npt.NDArray[np.float32]
) -> npt.NDArray[np.float32]:
    """The mean of ``h`` (B, S, H) over each site's neighbours in ``table`` (0 without any)."""
    padded = np.concatenate([h, np.zeros_like(h[:, :1])], axis=1)
    total = padded[:, table].sum(axis=2)
    out: npt.NDArray[np.float32] = total / np.maximum(count, 1.0)[None, :, None]
    return out


def graph_forward(
    weights: Weights,
    board: Board,
    blocks: int,
    observations: npt.NDArray[np.float32],
    legal_mask: npt.NDArray[np.bool_],
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Priors (B, num_actions), the softmax of the legal actions' logits, and values
    (B, players) of the graph network with ``weights`` on ``board``."""
    b = observations.shape[0]
    x = np.concatenate(
        [
            np.transpose(observations, (0, 2, 1)),
            np.broadcast_to(board.static, (b, board.sites, STATIC_FEATURES)),
        ],
        axis=2,
    ).astype(np.float32)
    h = np.maximum(x @ weights[0] + weights[1], 0)
    k = 2
    for _ in range(blocks):
        a, bo, bd, c, b1, d, b2 = weights[k : k + BLOCK_WEIGHTS]
        k += BLOCK_WEIGHTS
        u = h @ a
        u += _neighbour_mean(h, board.orth, board.orth_count) @ bo
        u += _neighbour_mean(h, board.diag, board.diag_count) @ bd
        u += (h.mean(axis=1, keepdims=True) @ c) + b1
        np.maximum(u, 0, out=u)
        h = np.maximum(h + u @ d + b2, 0)
    w_p, b_p, w_e, b_e, w_v1, b_v1, w_v2, b_v2 = weights[k : k + 8]
    site_logits = (h @ w_p + b_p).reshape(b, -1)
    z = np.concatenate([h.mean(axis=1), h.max(axis=1)], axis=1)
    logits = np.concatenate([site_logits, z @ w_e + b_e], axis=1)[:, board.layout.index]
    logits = np.where(legal_mask, logits, np.float32(-1e9))
    logits -= logits.max(axis=1, keepdims=True)
    priors = np.exp(logits)
    priors /= priors.sum(axis=1, keepdims=True)
    values = np.tanh(np.maximum(z @ w_v1 + b_v1, 0) @ w_v2 + b_v2)
    return priors.astype(np.float32), values.astype(np.float32)
