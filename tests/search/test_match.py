"""sf.match: statistics against hand-computed values, seat rotation, determinism, records,
Python agents and bad arguments. Small boards and budgets: behaviour, not strength."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import stonefield as sf
from stonefield.matches import Match, elo_difference, rotation, wilson_interval


class PyRandom:
    """A Python agent: uniform over the legal actions, reseeded by the match for each game."""

    def __init__(self) -> None:
        self.rng = np.random.default_rng(0)
        self.resets: list[int] = []

    def reset(self, seed: int) -> None:
        self.resets.append(seed)
        self.rng = np.random.default_rng(seed)

    def act(self, state: sf.State) -> int:
        return int(self.rng.choice(state.legal_actions()))


class FirstLegal:
    """A Python agent without reset: always the lowest legal action."""

    def act(self, state: sf.State) -> int:
        return int(state.legal_actions()[0])


class Cheat:
    """Plays legally until game `bad_game`, then returns `action` at its first turn there."""

    name = "cheat"

    def __init__(self, bad_game: int, action: Any) -> None:
        self.bad_game, self.action, self.game = bad_game, action, -1

    def reset(self, seed: int) -> None:
        self.game += 1

    def act(self, state: sf.State) -> int:
        if self.game == self.bad_game:
            return self.action  # type: ignore[no-any-return]
        return int(state.legal_actions()[-1])


# -- statistics ---------------------------------------------------------------------------------


def test_wilson_interval_hand_computed() -> None:
    # 7 of 10: centre (0.7 + 1.96²/20) / (1 + 1.96²/10), half-width 1.96/(1 + 1.96²/10)
    # · sqrt(0.21/10 + 1.96²/400): the textbook [0.3968, 0.8922].
    low, high = wilson_interval(0.7, 10)
    assert low == pytest.approx(0.39676, abs=1e-4)
    assert high == pytest.approx(0.89224, abs=1e-4)
    assert wilson_interval(0.5, 100) == pytest.approx((0.40383, 0.59617), abs=1e-4)
    assert wilson_interval(0.0, 10) == pytest.approx((0.0, 0.27753), abs=1e-4)
    assert wilson_interval(1.0, 10) == pytest.approx((0.72247, 1.0), abs=1e-4)
    # A narrower interval with more games.
    assert np.diff(wilson_interval(0.7, 1000)) < np.diff(wilson_interval(0.7, 10))


@given(st.integers(1, 10_000), st.data())
def test_wilson_interval_properties(n: int, data: st.DataObject) -> None:
    wins = data.draw(st.integers(0, n))
    score = wins / n
    low, high = wilson_interval(score, n)
    assert 0.0 <= low <= score <= high <= 1.0
    # Symmetric under swapping the sides, and monotone in the score.
    assert wilson_interval(1.0 - score, n) == pytest.approx((1.0 - high, 1.0 - low), abs=1e-12)
    if wins < n:
        assert wilson_interval((wins + 1) / n, n)[0] >= low
    # The Elo interval, its image, is ordered the same way.
    assert elo_difference(low) <= elo_difference(score) <= elo_difference(high)


def test_wilson_rejects_impossible_input() -> None:
    with pytest.raises(sf.InvalidOptionError):
        wilson_interval(0.5, 0)
    with pytest.raises(sf.InvalidOptionError):
        wilson_interval(1.5, 10)


def test_elo_difference_hand_computed() -> None:
    assert elo_difference(0.5) == 0.0
    assert elo_difference(0.75) == pytest.approx(400 * math.log10(3))  # 190.85
    assert elo_difference(10 / 11) == pytest.approx(400.0)
    assert elo_difference(0.25) == pytest.approx(-elo_difference(0.75))
    assert elo_difference(1.0) == math.inf and elo_difference(0.0) == -math.inf


def _fake_match(agent0_results: list[float], n_agents: int = 2) -> Match:
    """A two-player Match whose agent 0 gets these returns (seats alternate)."""
    g = len(agent0_results)
    seats = rotation(2, g)
    returns = np.zeros((g, 2))
    for i, r in enumerate(agent0_results):
        seat0 = int(np.flatnonzero(seats[i] == 0)[0])
        returns[i, seat0], returns[i, 1 - seat0] = r, -r
    ranks = np.where(returns > 0, 1.0, np.where(returns < 0, 2.0, 1.5))
    return Match(
        game=sf.make("windflowers"),
        agents=(FirstLegal(), FirstLegal()),
        seed=0,
        seats=seats,
        returns=returns,
        ranks=ranks,
        lengths=np.full(g, 3, dtype=np.uint32),
        truncated=np.zeros(g, dtype=bool),
        actions=np.zeros(3 * g, dtype=np.uint32),
        offsets=np.arange(0, 3 * g + 1, 3, dtype=np.int64),
        values=np.full(3 * g, np.nan, dtype=np.float32),
        seconds=0.0,
    )


def test_match_statistics_hand_computed() -> None:
    # Agent 0: 6 wins, 2 draws, 2 losses of 10, so a score of 0.7.
    m = _fake_match([1, 1, 1, 1, 1, 1, 0, 0, -1, -1])
    assert m.score.tolist() == pytest.approx([0.7, 0.3])
    assert m.wins.tolist() == [6, 2] and m.draws.tolist() == [2, 2]
    assert m.losses.tolist() == [2, 6]
    assert m.score_ci[0] == pytest.approx([0.39676, 0.89224], abs=1e-4)
    assert m.score_ci[1] == pytest.approx([0.10776, 0.60324], abs=1e-4)
    assert m.elo == pytest.approx(400 * math.log10(0.7 / 0.3))  # +147.2
    assert m.elo_ci is not None
    assert m.elo_ci[0] == pytest.approx(400 * math.log10(0.39676 / 0.60324), abs=0.5)
    assert m.elo_ci[1] == pytest.approx(400 * math.log10(0.89224 / 0.10776), abs=0.5)
    # Seats alternate: agent 0 played games 0, 2, ... in seat 0 and 1, 3, ... in seat 1.
    assert m.seat_games.tolist() == [[5, 5], [5, 5]]
    assert m.seat_scores[0] == pytest.approx([(1 + 1 + 1 + 0.5 + 0) / 5, (1 + 1 + 1 + 0.5 + 0) / 5])


def test_perfect_scores_give_infinite_elo() -> None:
    m = _fake_match([1.0] * 8)
    assert m.score[0] == 1.0 and m.elo == math.inf
    assert m.elo_ci is not None
    assert m.elo_ci[1] == math.inf and math.isfinite(m.elo_ci[0]) and m.elo_ci[0] > 0
    assert "+inf" in m.summary()
    m = _fake_match([-1.0] * 8)
    assert m.elo == -math.inf and m.elo_ci is not None and m.elo_ci[0] == -math.inf


# -- seat rotation ------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_rotation_puts_every_agent_in_every_seat_equally(n: int) -> None:
    games = 5 * n
    seats = rotation(n, games)
    assert seats.dtype == np.int64 and seats.shape == (games, n)
    for row in seats:  # each game seats every agent once
        assert sorted(row.tolist()) == list(range(n))
    for a in range(n):
        assert ((seats == a).sum(axis=0) == 5).all()
    # Cyclic shifts of the agent list.
    assert seats[1].tolist() == [(j - 1) % n for j in range(n)]


@pytest.mark.parametrize(("n", "games"), [(2, 7), (3, 5), (4, 6)])
def test_rotation_with_a_remainder_differs_by_at_most_one(n: int, games: int) -> None:
    seats = rotation(n, games)
    for a in range(n):
        counts = (seats == a).sum(axis=0)
        assert counts.sum() == games
        assert counts.max() - counts.min() <= 1


@pytest.mark.parametrize("players", [3, 4])
def test_native_match_seats_n_agents(players: int) -> None:
    agents = [sf.RandomAgent(seed=s) for s in range(players)]
    m = sf.match("windflowers", agents, games=2 * players, seed=2, players=players, size=3)
    assert m.seats.tolist() == rotation(players, 2 * players).tolist()
    assert m.seat_games.tolist() == [[2] * players] * players
    assert m.returns.shape == (2 * players, players)
    assert m.elo is None and m.elo_ci is None
    assert (m.wins + m.draws + m.losses == 2 * players).all()
    assert m.score.sum() == pytest.approx(m.agent_returns.sum() / (4 * players) + players / 2)


# -- native matches -----------------------------------------------------------------------------


def _small_match(**kw: Any) -> Match:
    agents = [sf.MCTS(iterations=60, seed=1), sf.RandomAgent(seed=2)]
    return sf.match("subsume", agents, games=6, seed=11, size=3, **kw)


def test_native_match_fields() -> None:
    m = _small_match(threads=1)
    assert m.n_games == 6
    assert m.score.dtype == np.float64 and m.score.shape == (2,)
    assert m.score_ci.shape == (2, 2) and m.score_ci.dtype == np.float64
    assert (m.score_ci[:, 0] <= m.score).all() and (m.score <= m.score_ci[:, 1]).all()
    assert m.lengths.dtype == np.uint32 and m.lengths.shape == (6,)
    assert m.seats.shape == (6, 2) and m.returns.shape == (6, 2)
    assert m.returns.dtype == np.float64
    assert int(m.offsets[-1]) == len(m.actions) == int(m.lengths.sum())
    # MCTS reports its root value at its own moves; random agents report NaN.
    assert np.isnan(m.values).any() and (~np.isnan(m.values)).any()
    assert (m.wins + m.draws + m.losses == 6).all()
    text = m.summary()
    assert "mcts:iterations=60,seed=1" in text and "random:seed=2" in text
    assert "Elo difference" in text and "seat 1" in text


def test_same_seed_same_match_whatever_the_threads() -> None:
    a = _small_match(threads=1)
    b = _small_match(threads=2)
    c = _small_match(threads=2)
    for x in (b, c):
        assert np.array_equal(a.actions, x.actions)
        assert np.array_equal(a.returns, x.returns)
        assert np.array_equal(a.lengths, x.lengths)


def test_progress_does_not_change_the_games(monkeypatch: pytest.MonkeyPatch) -> None:
    import stonefield.matches

    monkeypatch.setattr(stonefield.matches, "_CHUNK", 4)  # parts of 2 then 4 (at most)
    calls: list[tuple[int, int]] = []
    a = _small_match(threads=2)
    b = _small_match(threads=2, progress=lambda done, total: calls.append((done, total)))
    assert np.array_equal(a.actions, b.actions) and np.array_equal(a.offsets, b.offsets)
    assert np.array_equal(a.returns, b.returns) and np.array_equal(a.values, b.values, True)
    assert calls[-1] == (6, 6) and len(calls) >= 2
    assert [d for d, _ in calls] == sorted({d for d, _ in calls})


def test_play_games_first_names_the_games_of_a_part() -> None:
    game = sf.make("subsume", size=3)
    agents = [sf.MCTS(iterations=40), sf.RandomAgent()]
    seats = rotation(2, 5)
    whole = sf._core.play_games(game, agents, seats, 9, threads=1)
    part = sf._core.play_games(game, agents, seats[3:], 9, threads=1, first=3)
    lo = int(whole["offsets"][3])
    assert np.array_equal(part["actions"], whole["actions"][lo:])
    assert np.array_equal(part["returns"], whole["returns"][3:])
    with pytest.raises(sf.InvalidOptionError, match="first"):
        sf._core.play_games(game, agents, seats, 9, first=-1)


def test_records_replay_to_the_same_results() -> None:
    m = _small_match()
    records = m.records()
    assert len(records) == m.n_games
    for i, record in enumerate(records):
        state = sf.from_record(record)  # replays and checks every action and the result
        assert state.is_terminal()
        assert state.history == m.game_actions(i)
        assert state.returns().tolist() == m.returns[i].tolist()
        assert record["metadata"]["game_index"] == i
        seat0 = record["metadata"]["agents"][0]
        assert seat0 == ("mcts:iterations=60,seed=1" if m.seats[i, 0] == 0 else "random:seed=2")


def test_a_game_object_and_agent_strings_are_accepted() -> None:
    game = sf.make("subsume", size=3)
    a = sf.match(game, ["mcts:iterations=60,seed=1", "random:seed=2"], games=6, seed=11)
    b = _small_match()
    assert np.array_equal(a.actions, b.actions)


# -- Python agents ------------------------------------------------------------------------------


def test_python_agents_play_on_the_calling_thread_deterministically() -> None:
    def run(seed: int) -> Match:
        return sf.match("windflowers", [PyRandom(), FirstLegal()], games=4, seed=seed, size=3)

    a, b, c = run(5), run(5), run(6)
    assert np.array_equal(a.actions, b.actions)
    assert not np.array_equal(a.actions, c.actions)
    assert np.isnan(a.values).all()
    for i, record in enumerate(a.records()):
        assert sf.from_record(record).returns().tolist() == a.returns[i].tolist()


def test_python_agents_are_reset_with_a_seed_per_game() -> None:
    agent = PyRandom()
    sf.match("windflowers", [agent, FirstLegal()], games=4, seed=5, size=3)
    assert len(agent.resets) == 4 and len(set(agent.resets)) == 4


def test_native_agents_mixed_with_python_agents_get_seeds_per_game() -> None:
    m = sf.match(
        "subsume", [sf.MCTS(iterations=30), FirstLegal()], games=4, seed=1, size=3, threads=1
    )
    # FirstLegal is deterministic, so only the MCTS seed can make the games of the same seating
    # differ.
    assert m.game_actions(0) != m.game_actions(2) or m.game_actions(1) != m.game_actions(3)


@pytest.mark.parametrize("bad", [10_000, -1, None, 2.0, True, "3"])
def test_an_illegal_action_names_the_agent_game_and_action(bad: Any) -> None:
    cheat = Cheat(bad_game=2, action=bad)
    with pytest.raises(sf.IllegalMoveError) as info:
        sf.match("windflowers", [PyRandom(), cheat], games=4, seed=1, size=3)
    message = str(info.value)
    assert "agent 1 (cheat)" in message
    assert "game 2" in message
    assert repr(bad) in message


def test_an_occupied_site_is_illegal() -> None:
    class Repeat:
        def act(self, state: sf.State) -> int:
            return state.history[-1] if state.history else 0

    with pytest.raises(sf.IllegalMoveError, match=r"agent 1 \(Repeat\) chose 0 in game 0"):
        sf.match("windflowers", [FirstLegal(), Repeat()], games=2, seed=1, size=3)


def test_agents_act_on_a_copy() -> None:
    class Vandal:
        def act(self, state: sf.State) -> int:
            action = int(state.legal_actions()[0])
            state.apply(action)  # changes only the copy it was given
            return action

    m = sf.match("windflowers", [Vandal(), FirstLegal()], games=2, seed=0, size=3)
    for i, record in enumerate(m.records()):
        assert sf.from_record(record).history == m.game_actions(i)


# -- bad arguments ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"games": 0}, sf.InvalidOptionError, "games must be at least 1"),
        ({"games": -3}, sf.InvalidOptionError, "games must be at least 1"),
        ({"games": True}, TypeError, "games must be an integer"),
        ({"games": 2.0}, TypeError, "games must be an integer"),
        ({"seed": -1}, sf.InvalidOptionError, "seed"),
        ({"seed": 2**64}, sf.InvalidOptionError, "seed"),
        ({"seed": False}, TypeError, "seed"),
        ({"threads": 0}, sf.InvalidOptionError, "threads"),
        ({"threads": True}, TypeError, "threads"),
    ],
)
def test_bad_counts(kwargs: dict[str, Any], error: type, words: str) -> None:
    args: dict[str, Any] = {"games": 2, "seed": 0}
    args.update(kwargs)
    with pytest.raises(error, match=words):
        sf.match("subsume", ["random", "random"], size=3, **args)


def test_bad_agents() -> None:
    with pytest.raises(sf.InvalidOptionError, match="has 2 players, so a match takes 2 agents"):
        sf.match("subsume", ["random"], games=2, size=3)
    with pytest.raises(sf.InvalidOptionError, match="3 agents"):
        sf.match("windflowers", ["random", "random"], games=2, players=3, size=3)
    with pytest.raises(sf.InvalidOptionError, match='unknown agent "ludii"'):
        sf.match("subsume", ["random", "ludii"], games=2, size=3)
    with pytest.raises(TypeError, match="agent 1"):
        sf.match("subsume", ["random", object()], games=2, size=3)
    with pytest.raises(TypeError, match="list of agents"):
        sf.match("subsume", "random", games=2, size=3)


def test_bad_games() -> None:
    with pytest.raises(sf.InvalidOptionError):
        sf.match("go", ["random", "random"], games=2)
    with pytest.raises(sf.InvalidOptionError):
        sf.match("subsume", ["random", "random"], games=2, size=99)
    with pytest.raises(TypeError, match="options"):
        sf.match(sf.make("subsume"), ["random", "random"], games=2, size=3)


def test_readme_example_runs(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from pathlib import Path

    docs = Path(__file__).resolve().parents[2] / "docs"
    section = (docs / "agents.md").read_text(encoding="utf-8")
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {}
    exec(code, namespace)
    assert isinstance(namespace["m"], Match) and namespace["m"].n_games == 20
    loaded = sf.SelfPlayData.load(tmp_path / "selfplay.npz")
    assert len(loaded) == len(namespace["d"])
