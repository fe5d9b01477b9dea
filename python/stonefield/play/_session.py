"""Games in progress: one :class:`Session` per game, kept in a bounded :class:`SessionStore`.

A session holds the game, the seats, the *line* (every action of the game as far as it is
known) and the state at the current *step* of that line. Playing at the end of the line extends
it; stepping back and forth (``goto``) moves along it without forgetting it, as when replaying a
record; playing anything at an earlier step cuts the line there and goes on from that position.
"""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from typing import Any

from .. import _core
from ..render import PLAYER_NAMES, to_svg
from ._agents import Seat


class SessionError(ValueError):
    """A request that does not fit the session's state (HTTP 409 or 400)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class Session:
    """One game being played or replayed."""

    def __init__(self, game: _core.Game, seats: list[Seat], line: list[int] | None = None) -> None:
        if len(seats) != game.num_players:
            raise SessionError(
                f"{game.name} with these options has {game.num_players} players; "
                f"got {len(seats)} seats"
            )
        self.id = secrets.token_urlsafe(12)
        self.game = game
        self.seats = seats
        self.line: list[int] = []
        self.state = game.new_state()
        self.seed = secrets.randbelow(1 << 31)
        self.busy = False
        self.thinking: dict[str, Any] | None = None
        self.last_used = time.monotonic()
        # Bumped on every change, so an agent's answer for an older position is dropped.
        self.version = 0
        for action in line or []:
            self.state.apply(action)
            self.line.append(int(action))

    # -- changes -------------------------------------------------------------------------------

    def play(self, action: int) -> None:
        """Plays ``action`` at the current step (cutting the line there if it differs).

        Raises:
            StonefieldError: the engine's own error when the action is illegal; nothing changes.
        """
        self.state.apply(action)
        step = self.state.move_count - 1
        if step < len(self.line) and self.line[step] == action:
            pass  # the same move as the line's next: just step along it
        else:
            del self.line[step:]
            self.line.append(action)
        self.touch()

    def undo(self, until_human: bool = False) -> None:
        """Takes back the last action (and cuts it from the line); with ``until_human``, goes on
        taking back agents' actions until a human is to move (or the game is at its start)."""
        if self.state.move_count == 0:
            raise SessionError("nothing to undo: the game is at its start")
        self._undo_one()
        while until_human and self.state.move_count > 0 and not self._human_to_move():
            self._undo_one()
        self.touch()

    def goto(self, step: int) -> None:
        """Shows the position after the first ``step`` actions of the line."""
        if not 0 <= step <= len(self.line):
            raise SessionError(f"step must be 0..{len(self.line)}, got {step}")
        while self.state.move_count > step:
            self.state.undo()
        while self.state.move_count < step:
            self.state.apply(self.line[self.state.move_count])
        self.touch()

    def truncate(self) -> None:
        """Forgets the line after the current step, so play goes on from here."""
        del self.line[self.state.move_count :]
        self.touch()

    def touch(self) -> None:
        self.version += 1
        self.last_used = time.monotonic()

    def _undo_one(self) -> None:
        self.state.undo()
        del self.line[self.state.move_count :]

    def _human_to_move(self) -> bool:
        p = self.state.current_player
        return p is not None and not self.seats[p].is_agent

    # -- views ---------------------------------------------------------------------------------

    def describe(self, numbers: bool = False) -> dict[str, Any]:
        """Everything the page shows, as JSON."""
        state, game = self.state, self.game
        n = game.num_sites
        player = state.current_player
        legal = [int(a) for a in state.legal_actions()]
        human = player is not None and not self.seats[player].is_agent
        phase = getattr(state, "phase", None)
        offer = phase == "offer"
        marked = {a: game.action_site(a) for a in legal}
        sites = sorted({s for s in marked.values() if s is not None})
        svg = to_svg(state, highlight=sites if human else None, numbers=numbers, size=520)
        ranks = state.ranks()
        scores = state.scores()
        returns = state.returns()
        out: dict[str, Any] = {
            "id": self.id,
            "game": game.name,
            "options": dict(game.options),
            "num_players": game.num_players,
            "num_sites": n,
            "players": [
                {"seat": i, "colour": PLAYER_NAMES[i % 4], **seat.to_json()}
                for i, seat in enumerate(self.seats)
            ],
            "step": state.move_count,
            "line": list(self.line),
            "moves": [
                {"step": i + 1, "player": p, "action": a, "label": label}
                for i, (p, a, label) in enumerate(self._move_list())
            ],
            "current_player": player,
            "human_to_move": human,
            "agent_to_move": player is not None and self.seats[player].is_agent,
            "terminal": state.is_terminal(),
            "truncated": state.truncated,
            "scores": None if scores is None else [float(v) for v in scores],
            "ranks": None if ranks is None else [float(v) for v in ranks],
            "returns": None if returns is None else [float(v) for v in returns],
            "legal": legal,
            "legal_sites": sites,
            "buttons": [
                {"action": a, "label": action_label(game, state, a)}
                for a in legal
                if marked[a] is None
            ],
            "offer": offer,
            "board": [int(v) for v in state.board],
            "svg": svg,
            "busy": self.busy,
            "version": self.version,
        }
        if phase is not None:
            out["phase"] = phase
        return out

    def _move_list(self) -> list[tuple[int, int, str]]:
        """(player, action, label) of every action of the line."""
        replay = self.game.new_state()
        out = []
        for a in self.line:
            p = replay.current_player
            out.append((-1 if p is None else p, a, action_label(self.game, replay, a)))
            replay.apply(a)
        return out


def action_label(game: _core.Game, state: _core.State, action: int) -> str:
    """How the page names an action played in ``state``.

    >>> import stonefield as sf
    >>> g = sf.make("windflowers", grid="square", size=3)
    >>> action_label(g, g.new_state(), 16), action_label(g, g.new_state(), 5)
    ('pass', '5')
    """
    name = game.action_name(action)
    if getattr(state, "phase", None) == "offer":
        # An offer stone's colour is the page's, not the mover's.
        site = game.action_site(action)
        if site is not None:
            return f"{PLAYER_NAMES[0 if action == site else 1]} {site}"
        if name == "pass":
            return "offer pass"
    return name


class SessionStore:
    """At most ``limit`` sessions; making one more drops the one idle longest (never a session
    whose agent is thinking)."""

    def __init__(self, limit: int = 64) -> None:
        if limit < 1:
            raise ValueError(f"the session limit is at least 1, got {limit}")
        self.limit = limit
        self._sessions: OrderedDict[str, Session] = OrderedDict()

    def add(self, session: Session) -> None:
        while len(self._sessions) >= self.limit:
            idle = [s for s in self._sessions.values() if not s.busy]
            if not idle:
                raise SessionError("too many games are busy; try again shortly", status=503)
            oldest = min(idle, key=lambda s: s.last_used)
            del self._sessions[oldest.id]
        self._sessions[session.id] = session

    def get(self, sid: str) -> Session | None:
        session = self._sessions.get(sid)
        if session is not None:
            session.last_used = time.monotonic()
        return session

    def remove(self, sid: str) -> bool:
        return self._sessions.pop(sid, None) is not None

    def __len__(self) -> int:
        return len(self._sessions)

    def __contains__(self, sid: object) -> bool:
        return sid in self._sessions
