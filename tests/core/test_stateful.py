"""A stateful property test over every game and option value: hypothesis drives one state
through any interleaving of legal and illegal actions, undos, copies, pickles, record round
trips and games played to their end, and after every step checks what must always hold:

* the state equals a replay of its history from the start (board, player, legal actions,
  observation, results);
* the legal mask is exactly the legal list, and `is_legal` agrees with both;
* undo restores exactly the state before the action it takes back;
* an illegal action raises and changes nothing;
* a terminal state has no player to move, no legal action, and results.

The number of examples and steps comes from the hypothesis profile (see conftest.py).
"""

from __future__ import annotations

import json
import pickle
from typing import Any

import numpy as np
import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import stonefield as sf
from configs import CONFIGS

GAMES = [sf.make(name, **options) for name, options in CONFIGS]


def _bytes(values: Any) -> bytes | None:
    return None if values is None else np.asarray(values).tobytes()


def snapshot(state: sf.State) -> tuple[Any, ...]:
    """Everything observable about a position."""
    return (
        state.board.tobytes(),
        state.current_player,
        state.move_count,
        state.is_terminal(),
        state.truncated,
        state.legal_actions().tobytes(),
        state.legal_mask().tobytes(),
        state.observation().tobytes(),
        _bytes(state.ranks()),
        _bytes(state.returns()),
        _bytes(state.scores()),
    )


class GameMachine(RuleBasedStateMachine):
    """One game in progress, and the snapshots before each of its actions."""

    def __init__(self) -> None:
        super().__init__()
        self.game: sf.Game = GAMES[0]
        self.state: sf.State = self.game.new_state()
        self.before: list[tuple[Any, ...]] = []

    @initialize(index=st.integers(0, len(GAMES) - 1))
    def choose_game(self, index: int) -> None:
        self.game = GAMES[index]
        self.state = self.game.new_state()

    def _apply(self, action: int) -> None:
        snap = snapshot(self.state)
        self.state.apply(action)
        self.before.append(snap)

    @precondition(lambda self: not self.state.is_terminal())
    @rule(choice=st.integers(0, 10**6))
    def apply_legal(self, choice: int) -> None:
        legal = self.state.legal_actions()
        self._apply(int(legal[choice % len(legal)]))

    @rule(seed=st.integers(0, 2**64 - 1), limit=st.integers(1, 400))
    def play_on(self, seed: int, limit: int) -> None:
        """Random actions, most often to the end of the game."""
        for _ in range(limit):
            action = self.state.random_action(seed=seed)
            if action is None:
                break
            self._apply(action)

    @rule(action=st.one_of(st.integers(-3, 3000), st.integers(-(2**70), 2**70)))
    def attempt_any_action(self, action: int) -> None:
        if self.state.is_terminal() or not self.state.is_legal(action):
            snap = snapshot(self.state)
            error = sf.GameOverError if self.state.is_terminal() else sf.IllegalMoveError
            with pytest.raises(error):
                self.state.apply(action)
            assert snapshot(self.state) == snap
        else:
            self._apply(action)

    @precondition(lambda self: bool(self.before))
    @rule(count=st.integers(1, 200))
    def undo(self, count: int) -> None:
        for _ in range(min(count, len(self.before))):
            last = self.state.history[-1]
            assert self.state.undo() == last
            assert snapshot(self.state) == self.before.pop()

    @rule()
    def undo_at_the_start_raises(self) -> None:
        if not self.before:
            with pytest.raises(IndexError):
                self.state.undo()
            assert self.state.history == []

    @rule()
    def copy_is_independent(self) -> None:
        copy = self.state.copy()
        snap = snapshot(self.state)
        action = copy.random_action(seed=1)
        if action is not None:
            copy.apply(action)
            assert snapshot(self.state) == snap
            copy.undo()
        assert snapshot(copy) == snap
        self.state = copy

    @rule()
    def pickle_round_trip(self) -> None:
        self.state = pickle.loads(pickle.dumps(self.state))

    @rule()
    def record_round_trip(self) -> None:
        text = json.dumps(sf.to_record(self.state))
        self.state = sf.from_record(text)

    @invariant()
    def equals_a_replay_of_its_history(self) -> None:
        history = self.state.history
        assert len(history) == len(self.before)
        replay = sf.State._from_history(self.game, history)
        assert snapshot(replay) == snapshot(self.state)

    @invariant()
    def mask_is_the_legal_list(self) -> None:
        legal = self.state.legal_actions()
        mask = self.state.legal_mask()
        assert mask.shape == (self.game.num_actions,)
        assert np.array_equal(np.flatnonzero(mask), legal)
        for a in (0, self.game.num_actions - 1, int(legal[0]) if len(legal) else 0):
            assert self.state.is_legal(a) == bool(mask[a])

    @invariant()
    def terminal_states_have_no_legal_action(self) -> None:
        if self.state.is_terminal():
            assert self.state.current_player is None
            assert len(self.state.legal_actions()) == 0
            assert self.state.random_action() is None
            assert self.state.ranks() is not None and self.state.returns() is not None
        else:
            assert self.state.current_player is not None
            assert len(self.state.legal_actions()) > 0
            assert self.state.ranks() is None


TestGameMachine = GameMachine.TestCase
