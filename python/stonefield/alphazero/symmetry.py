"""The symmetries of a board that a game's rules respect, for augmenting training data.

A symmetry is a permutation ``perm`` of the sites (site ``i`` goes to ``perm[i]``): an isometry
of the board's coordinates that keeps the orthogonal neighbours. :func:`board_symmetries` finds
those of the board alone; :func:`game_symmetries` keeps the ones the game itself respects, which
it checks by replaying random games through each symmetry (the mapped moves must be legal and
give the mapped observations and legal masks at every step). Only games whose actions are the
sites (action ``a`` places on site ``a``) are considered; for the others the identity alone is
returned.

>>> import stonefield as sf
>>> len(board_symmetries(sf.make("subsume", size=3)))   # the hexagon's 6 rotations × 2
12
>>> len(game_symmetries(sf.make("subsume", size=3)))
12
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .._core import Game, State

__all__ = ["augment", "board_symmetries", "game_symmetries"]


def board_symmetries(game: Game) -> npt.NDArray[np.int64]:
    """The site permutations (S, num_sites) of the board's isometries that keep its neighbour
    relations and perimeter (``Game.board_symmetries``, found by the engine): rotations by
    multiples of 30° about the centroid, with and without a reflection. The identity comes
    first."""
    return np.asarray(game.board_symmetries, dtype=np.int64)


def game_symmetries(game: Game, *, games: int = 6, seed: int = 0) -> npt.NDArray[np.int64]:
    """The board's symmetries that ``game`` respects, as far as ``games`` random games replayed
    through each of them show: the identity alone when the game's actions are not its sites
    or nothing else survives."""
    identity = np.arange(game.num_sites, dtype=np.int64)[None]
    if game.num_actions != game.num_sites or any(
        game.action_site(a) != a for a in range(game.num_actions)
    ):
        return identity
    candidates = board_symmetries(game)
    rng = np.random.default_rng(seed)
    keep = []
    for perm in candidates:
        inv = np.argsort(perm)
        if all(_respects(game, perm, inv, rng) for _ in range(games)):
            keep.append(perm)
    return np.stack(keep) if keep else identity


def _respects(
    game: Game, perm: npt.NDArray[np.int64], inv: npt.NDArray[np.int64], rng: np.random.Generator
) -> bool:
    """One random game and its image under ``perm`` agree move by move."""
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
        if not np.array_equal(image.legal_mask(), state.legal_mask()[inv]):
            return False
        if not np.array_equal(image.observation(), state.observation()[:, inv]):
            return False
        action = int(rng.choice(state.legal_actions()))
        state.apply(action)
        image.apply(int(perm[action]))


def augment(
    batch: dict[str, npt.NDArray[np.generic]],
    symmetries: npt.NDArray[np.int64],
    rng: np.random.Generator,
) -> dict[str, npt.NDArray[np.generic]]:
    """A minibatch of :func:`~stonefield.alphazero.batches` with each row moved by a symmetry
    drawn at random: observations, legal masks and policies follow the sites; the values stay.
    """
    if len(symmetries) <= 1:
        return batch
    rows = len(batch["observations"])
    # obs'[.., j] = obs[.., inv(j)], inv the inverse of the row's permutation.
    inv = np.argsort(symmetries, axis=1)[rng.integers(len(symmetries), size=rows)]
    r = np.arange(rows)[:, None]
    return {
        "observations": np.take_along_axis(batch["observations"], inv[:, None, :], axis=2),
        "legal_masks": batch["legal_masks"][r, inv],
        "policies": batch["policies"][r, inv],
        "values": batch["values"],
    }
