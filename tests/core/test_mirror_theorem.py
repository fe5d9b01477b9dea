"""The mirror theorem of two-player Windflowers (docs/games/windflowers.md#the-mirror-theorem).

On the square and triangle-square boards, which have no centre site, a second player who answers
every move with its image through the centre (and a pass with a pass) always has that answer
legal, so the first player never wins; with ``last_placer_breaks_ties`` the second player wins
every game in which the first player places a stone. Checked here by playing the mirror against
every choice of the first player for the first few moves, then against random continuations to
the end, on every rule variant at sizes 3 and 4; and the hexagonal boards are shown to be outside
the theorem (their point reflection is no symmetry of the board).
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

import stonefield as sf

COVERED = [("square", 3), ("square", 4), ("trisquare", 3), ("trisquare", 4)]
VARIANTS = [
    {"scoring": scoring, "tiebreak": tiebreak, "last_placer_breaks_ties": last}
    for scoring, tiebreak, last in itertools.product(
        ("stones", "largest_group"), ("underdog", "cascade"), (False, True)
    )
]


def reflection(game: sf.Game) -> list[int] | None:
    """The point reflection through the centre of the board's coordinates, as a site map, or
    None where some site's image is no site."""
    coords = np.asarray(game.coords, dtype=float)
    image = 2 * coords.mean(axis=0) - coords
    out = []
    for p in image:
        distance = np.hypot(*(coords - p).T)
        site = int(distance.argmin())
        if distance[site] > 1e-6:
            return None
        out.append(site)
    return out


def relation(game: sf.Game, name: str) -> set[tuple[int, int]]:
    return {(s, int(t)) for s, ts in enumerate(game.neighbors(name)) for t in ts}


def mirror_of(game: sf.Game, sigma: list[int], action: int) -> int:
    """The mirror's answer: the image of a move's site, or a pass for a pass."""
    site = game.action_site(action)
    return game.num_sites if site is None else sigma[site]


def assert_antisymmetric(state: sf.State, sigma: list[int]) -> None:
    """After the mirror's answer, each site holds the other player's stone of its image's."""
    board = state.board
    swap = np.array([0, 2, 1], dtype=board.dtype)
    assert np.array_equal(board[sigma], swap[board])


def answer(state: sf.State, sigma: list[int], action: int) -> bool:
    """Plays the first player's `action`, then the mirror's answer, which must be legal.
    Returns whether the first player's move replaced a stone."""
    game = state.game
    assert state.current_player == 0
    site = game.action_site(action)
    replaced = site is not None and bool(state.board[site] != 0)
    state.apply(action)
    if state.is_terminal():
        # Only a cap can end the game on the first player's move.
        assert state.truncated
        return replaced
    reply = mirror_of(game, sigma, action)
    assert state.is_legal(reply), (
        f"{game.options}: the mirror answer {game.action_name(reply)} to "
        f"{game.action_name(action)} is illegal after {state.history}"
    )
    state.apply(reply)
    assert_antisymmetric(state, sigma)
    return replaced


def assert_outcome(state: sf.State) -> None:
    """The first player never wins; with the last-placer rule the mirror wins once the first
    player has placed a stone."""
    assert state.is_terminal()
    returns = state.returns()
    assert returns is not None
    assert returns[0] <= returns[1], f"player 0 won after {state.history}"
    if state.truncated:
        return
    placed = any(state.game.action_site(a) is not None for a in state.history)
    if state.game.options["last_placer_breaks_ties"] and placed:
        assert returns[1] > returns[0], f"the mirror did not win after {state.history}"
    else:
        assert returns[0] == returns[1], f"no draw after {state.history}"


def play_out(state: sf.State, sigma: list[int], rng: random.Random) -> int:
    """The first player moves at random, the mirror answers, to the end of the game. Returns
    how many of the first player's moves replaced a stone."""
    replaced = 0
    while not state.is_terminal():
        legal = [int(a) for a in state.legal_actions()]
        # Pass rarely, so that games run long and replacements happen.
        moves = [a for a in legal if a != state.game.num_sites] or legal
        action = rng.choice(legal if rng.random() < 0.05 else moves)
        replaced += answer(state, sigma, action)
    assert_outcome(state)
    return replaced


def explore(
    state: sf.State, sigma: list[int], depth: int, rng: random.Random, counts: dict[str, int]
) -> None:
    """Every first-player choice for `depth` moves, each answered by the mirror, then one
    random continuation from every position reached."""
    if state.is_terminal():
        assert_outcome(state)
        counts["ended"] += 1
        return
    if depth == 0:
        counts["replacements"] += play_out(state, sigma, rng)
        counts["played out"] += 1
        return
    for action in state.legal_actions():
        child = state.copy()
        counts["replacements"] += answer(child, sigma, int(action))
        explore(child, sigma, depth - 1, rng, counts)


#: Every size the ``size`` option accepts.
SIZES = range(3, 16)


@pytest.mark.parametrize("grid", ["square", "trisquare"])
@pytest.mark.parametrize("size", SIZES)
def test_the_covered_boards_have_a_centre_free_point_symmetry(grid: str, size: int) -> None:
    game = sf.make("windflowers", grid=grid, size=size)
    sigma = reflection(game)
    assert sigma is not None, "the point reflection maps every site to a site"
    assert all(sigma[sigma[s]] == s != sigma[s] for s in range(game.num_sites)), "no centre site"
    for name in ("orthogonal", "diagonal", "all"):
        pairs = relation(game, name)
        assert {(sigma[s], sigma[t]) for s, t in pairs} == pairs, name
    # The reflection is one of the board's own symmetries.
    assert sigma in game.board_symmetries.tolist()


@pytest.mark.parametrize("size", SIZES)
def test_the_hex_boards_are_not_covered(size: int) -> None:
    # The alternating hexagon (N − 1, N + 1) turned half round puts its long sides where the
    # short ones were: no point reflection maps it onto itself.
    game = sf.make("windflowers", grid="hex", size=size)
    assert reflection(game) is None
    coords = np.asarray(game.coords, dtype=float)
    for perm in game.board_symmetries:
        turned = coords[perm]
        centre = coords.mean(axis=0)
        assert not np.allclose(turned - centre, centre - coords)


@pytest.mark.parametrize(
    ("grid", "size", "depth"), [(g, s, 3 if s == 3 else 2) for g, s in COVERED]
)
def test_the_mirror_answers_every_opening(grid: str, size: int, depth: int) -> None:
    """Every first-player choice for the first `depth` moves (3 on size 3, 2 on size 4), with
    the default rules and with the last-placer rule, then a random game from each position."""
    for last in (False, True):
        game = sf.make("windflowers", grid=grid, size=size, last_placer_breaks_ties=last)
        sigma = reflection(game)
        assert sigma is not None
        counts = {"ended": 0, "played out": 0, "replacements": 0}
        explore(game.new_state(), sigma, depth, random.Random(size * 10 + last), counts)
        n = game.num_sites
        # The first player's immediate pass ended the game; every other line went `depth`
        # moves deep (at least n − 2k empty sites remain for the k-th move) and was played out.
        assert counts["ended"] >= 1
        assert counts["played out"] >= n * (n - 2)
        assert counts["replacements"] > 0


@pytest.mark.parametrize(("grid", "size"), COVERED)
@pytest.mark.parametrize("options", VARIANTS)
def test_the_mirror_never_loses_random_games(
    grid: str, size: int, options: dict[str, str | bool]
) -> None:
    """Every rule variant: random first-player games to the end against the mirror."""
    game = sf.make("windflowers", grid=grid, size=size, **options)
    sigma = reflection(game)
    assert sigma is not None
    rng = random.Random(f"{grid}{size}{sorted(options.items())}")
    replaced = sum(play_out(game.new_state(), sigma, rng) for _ in range(40))
    assert replaced > 0
