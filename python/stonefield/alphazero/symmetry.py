"""The symmetries of a board that a game's rules respect, for augmenting training data.

A symmetry is a permutation ``perm`` of the sites (site ``i`` goes to ``perm[i]``): an isometry
of the board's coordinates that keeps the orthogonal neighbours. It moves the actions too
(:func:`action_permutation`): an action that names a site goes to the action of the same kind on
the image site (Faraday's phase-1 stones of either colour keep their colour), and the actions
that name no site (Windflowers' pass, Faraday's pass, accept and swap) stay.
:func:`board_symmetries` finds those of the board alone; :func:`game_symmetries` keeps the ones
the game itself respects, which it checks by replaying random games through each symmetry (the
mapped moves must be legal and give the mapped observations, legal masks and results at every
step).

>>> import stonefield as sf
>>> len(board_symmetries(sf.make("subsume", size=3)))   # the hexagon's 6 rotations × 2
12
>>> len(game_symmetries(sf.make("subsume", size=3)))
12
>>> len(game_symmetries(sf.make("faraday", order=3)))   # pie actions mapped as well
12
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .._core import Game, State
from .._graphnet import ActionLayout

__all__ = ["action_permutation", "augment", "board_symmetries", "game_symmetries"]


def board_symmetries(game: Game) -> npt.NDArray[np.int64]:
    """The site permutations (S, num_sites) of the board's isometries that keep its neighbour
    relations and perimeter (``Game.board_symmetries``, found by the engine): rotations by
    multiples of 30° about the centroid, with and without a reflection. The identity comes
    first."""
    return np.asarray(game.board_symmetries, dtype=np.int64)


def action_permutation(game: Game, perm: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The permutation of ``game``'s actions that the site permutation ``perm`` makes: action
    ``a`` goes to ``out[a]``.

    >>> import stonefield as sf
    >>> g = sf.make("windflowers")
    >>> perm = board_symmetries(g)[1]
    >>> out = action_permutation(g, perm)
    >>> int(out[g.num_sites]) == g.num_sites   # the pass stays
    True
    """
    layout = ActionLayout.of(game)
    n = game.num_sites
    # The column of every action in the network's layout, and back.
    by_column = {int(c): a for a, c in enumerate(layout.index)}
    out = np.arange(game.num_actions, dtype=np.int64)
    for a, column in enumerate(layout.index):
        column = int(column)
        if column < n * layout.blocks:
            site, block = divmod(column, layout.blocks)
            out[a] = by_column[int(perm[site]) * layout.blocks + block]
    return out


def game_symmetries(game: Game, *, games: int = 6, seed: int = 0) -> npt.NDArray[np.int64]:
    """The board's symmetries that ``game`` respects, as far as ``games`` random games replayed
    through each of them show: the identity alone when nothing else survives."""
    identity = np.arange(game.num_sites, dtype=np.int64)[None]
    candidates = board_symmetries(game)
    rng = np.random.default_rng(seed)
    keep = []
    for perm in candidates:
        actions = action_permutation(game, perm)
        if all(_respects(game, perm, actions, rng) for _ in range(games)):
            keep.append(perm)
    return np.stack(keep) if keep else identity


def _respects(
    game: Game,
    perm: npt.NDArray[np.int64],
    actions: npt.NDArray[np.int64],
    rng: np.random.Generator,
) -> bool:
    """One random game and its image under ``perm`` agree move by move."""
    inv = np.argsort(perm)
    inv_actions = np.argsort(actions)
    state: State = game.new_state()
    image: State = game.new_state()
    while True:
        if state.is_terminal() != image.is_terminal():
            return False
        if state.is_terminal():
            a, b = state.returns(), image.returns()
            return a is not None and b is not None and bool(np.array_equal(a, b))
        if state.current_player != image.current_player:
            return False
        if not np.array_equal(image.legal_mask(), state.legal_mask()[inv_actions]):
            return False
        if not np.array_equal(image.observation(), state.observation()[:, inv]):
            return False
        action = int(rng.choice(state.legal_actions()))
        state.apply(action)
        image.apply(int(actions[action]))


def augment(
    batch: dict[str, npt.NDArray[np.generic]],
    symmetries: npt.NDArray[np.int64],
    rng: np.random.Generator,
    action_symmetries: npt.NDArray[np.int64] | None = None,
) -> dict[str, npt.NDArray[np.generic]]:
    """A minibatch of :func:`~stonefield.alphazero.batches` with each row moved by a symmetry
    drawn at random: observations follow the sites, legal masks and policies the actions
    (``action_symmetries[i]`` is :func:`action_permutation` of ``symmetries[i]``; without
    them, the actions must be the sites); values and policy weights stay.
    """
    if len(symmetries) <= 1:
        return batch
    rows = len(batch["observations"])
    pick = rng.integers(len(symmetries), size=rows)
    # obs'[.., j] = obs[.., inv(j)], inv the inverse of the row's permutation.
    inv = np.argsort(symmetries, axis=1)[pick]
    if action_symmetries is None:
        inv_actions = inv
    else:
        inv_actions = np.argsort(action_symmetries, axis=1)[pick]
    r = np.arange(rows)[:, None]
    out = dict(batch)
    out["observations"] = np.take_along_axis(batch["observations"], inv[:, None, :], axis=2)
    out["legal_masks"] = batch["legal_masks"][r, inv_actions]
    out["policies"] = batch["policies"][r, inv_actions]
    return out
