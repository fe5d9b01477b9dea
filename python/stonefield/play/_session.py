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
        #: The player who resigned at the end of the line (None: nobody), and why.
        self.resigned: int | None = None
        self.resign_reason = "resigned"
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
        if self.over_by_resignation():
            raise SessionError(f"{PLAYER_NAMES[self.resigned or 0]} resigned: the game is over")
        self.state.apply(action)
        self.resigned = None
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
        if self.over_by_resignation():
            self.resigned = None  # taking back the resignation first
            if self._human_to_move() or not until_human:
                self.touch()
                return
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
        if self.state.move_count < len(self.line):
            self.resigned = None
        del self.line[self.state.move_count :]
        self.touch()

    def resign(self, player: int, reason: str = "resigned") -> None:
        """``player`` gives up (or runs out of time, ``reason="time"``) at the end of the line:
        the game is over, the others win. Playing on from an earlier step or undoing takes the
        resignation back."""
        if self.state.move_count != len(self.line):
            raise SessionError("resign at the end of the game, not while stepping through it")
        if self.state.is_terminal() or self.resigned is not None:
            raise SessionError("the game is already over")
        if not 0 <= player < self.game.num_players:
            raise SessionError(f"player must be 0..{self.game.num_players - 1}, got {player}")
        self.resigned = player
        self.resign_reason = reason
        self.touch()

    def over_by_resignation(self) -> bool:
        """Whether a resignation ends the game at the current step (the end of the line)."""
        return self.resigned is not None and self.state.move_count == len(self.line)

    def parse_move(self, text: str) -> int:
        """The legal action that ``text`` names at the current step: the core's notation
        (``Game.parse_action``: a site, ``pass``, ``accept``, ``swap``, ...) or the move list's
        own label (Faraday's offer stones by colour, ``black 12``, ``white 30``)."""
        state, game = self.state, self.game
        wanted = " ".join(text.strip().lower().split())
        if not wanted:
            raise SessionError(f"type a move, such as a site's name ({game.site_names[0]})")
        legal = [int(a) for a in state.legal_actions()]
        for a in legal:
            if action_label(game, state, a).lower() == wanted:
                return a
        colour, _, site = wanted.partition(" ")
        if getattr(state, "phase", None) == "offer" and colour in PLAYER_NAMES[:2]:
            # An offer stone by colour and any name of its site (``white 12``, ``white c4``).
            names = [game.action_name(s) for s in range(game.num_sites)]
            if site.isdigit() or site in names:
                wanted = site if colour == PLAYER_NAMES[0] else f"second {site}"
        try:
            action = parse_action(game, wanted)
        except _core.StonefieldError as e:
            raise SessionError(str(e)) from None
        if action not in legal:
            raise SessionError(f"{text.strip()!r} is not a legal move here")
        return action

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

    def preview(self, action: int) -> dict[str, Any]:
        """What ``action`` would do at the current step, for the page's preview on hover: the
        site it plays on (``site``, and the ``colour`` of its stone), the stones it would take
        off (``removed``) or turn to another colour (``turned``: Windflowers' replacement counts
        there too), the scores after it, the sites that would join each player's territory (the
        Smallholder), the sites the mover could place on next in the same turn (Faraday's runs),
        each player's new charge count on every site whose count the placement changes
        (``charges``: player → [site, count] pairs; Faraday), and a one-line ``text``.
        Nothing changes.

        Raises:
            StonefieldError: the engine's error when the action is not legal here.
        """
        state, game = self.state, self.game
        if self.over_by_resignation():
            raise SessionError("the game is over: a player resigned")
        n = game.num_sites
        mover = state.current_player
        before = state.board.tolist()
        after_state = state.copy()
        after_state.apply(action)
        after = after_state.board.tolist()
        site = action_site(game, action)
        scores_before, scores_after = state.scores(), after_state.scores()
        removed = [s for s in range(n) if before[s] and not after[s] and s != site]
        turned = [
            s for s in range(n) if before[s] and after[s] and before[s] != after[s] and s != site
        ]
        if site is not None and before[site] and after[site] != before[site]:
            turned.append(site)  # a Windflowers replacement
        out: dict[str, Any] = {
            "action": action,
            "name": action_name(game, action),
            "label": action_label(game, state, action),
            "player": mover,
            "site": site,
            "colour": None if site is None else after[site] - 1,
            "removed": removed,
            "turned": sorted(turned),
            "scores": None if scores_after is None else [float(v) for v in scores_after],
            "terminal": after_state.is_terminal(),
        }
        parts = [f"{out['label']}:"]
        # What each game shows of itself comes from its marks (the overlays the core hands
        # over), never from its name: territory where a game has it, a turn's phase where
        # placements come in runs.
        marks_before, marks_after = state.marks(), after_state.marks()
        if "territory" in marks_after:
            gained = {}
            for p, (old, new) in enumerate(
                zip(marks_before["territory"], marks_after["territory"])
            ):
                gained[str(p)] = [s for s in range(n) if new[s] and not old[s]]
            out["territory"] = gained
            mine = gained[str(mover)] if mover is not None else []
            if mine:
                parts.append(f"territory +{len(mine)}")
        if "phase" in marks_after and not after_state.is_terminal():
            again = after_state.current_player == mover and marks_after["phase"] == "placement"
            out["next"] = [int(a) for a in after_state.legal_actions() if a < n] if again else []
            if marks_before["phase"] == "placement":
                parts.append(
                    f"{len(out['next'])} more placements open" if again else "the turn ends"
                )
        if "charges" in marks_after:
            # Each player's charge around the sites the placement touches: the counts that
            # decide where each may place next (Faraday).
            changed: dict[str, list[list[int]]] = {}
            for p, (old, new) in enumerate(zip(marks_before["charges"], marks_after["charges"])):
                changed[str(p)] = [[s, int(new[s])] for s in range(n) if new[s] != old[s]]
            out["charges"] = changed
            touched = {s for sites in changed.values() for s, _ in sites}
            if touched:
                parts.append(f"changes the charge around {len(touched)} sites")
        if removed:
            parts.append(f"removes {len(removed)}")
        if turned:
            # A stone played onto another's is a replacement; stones changing colour elsewhere
            # are turned.
            flips = "replaces" if site is not None and site in turned else "turns"
            parts.append(f"{flips} {len(turned)}")
        if scores_after is not None and scores_before is not None and mover is not None:
            delta = float(scores_after[mover]) - float(scores_before[mover])
            if delta:
                parts.append(f"score {'+' if delta > 0 else ''}{delta:g}")
        if after_state.is_terminal():
            parts.append("ends the game")
        if len(parts) == 1:
            parts.append("places a stone; nothing else changes" if site is not None else "")
        out["text"] = " ".join(p for p in parts if p)
        return out

    def describe(self, numbers: bool = False) -> dict[str, Any]:
        """Everything the page shows, as JSON."""
        state, game = self.state, self.game
        n = game.num_sites
        resigned = self.over_by_resignation()
        player = None if resigned else state.current_player
        legal = [] if resigned else [int(a) for a in state.legal_actions()]
        human = player is not None and not self.seats[player].is_agent
        phase = getattr(state, "phase", None)
        offer = phase == "offer"
        marked = {a: game.action_site(a) for a in legal}
        sites = sorted({s for s in marked.values() if s is not None})
        # The coordinates are always drawn; the page's "coordinates" box shows or hides them.
        svg = to_svg(
            state,
            highlight=sites if human else None,
            numbers=numbers,
            size=520,
            coordinates=True,
        )
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
                {"step": i + 1, "player": p, "action": a, "label": label, "name": name}
                for i, (p, a, label, name) in enumerate(self._move_list())
            ],
            "current_player": player,
            "human_to_move": human,
            "agent_to_move": player is not None and self.seats[player].is_agent,
            "terminal": state.is_terminal(),
            "over": state.is_terminal() or resigned,
            "resigned": self.resigned if resigned else None,
            "resign_reason": self.resign_reason if resigned else None,
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

    def _move_list(self) -> list[tuple[int, int, str, str]]:
        """(player, action, label, name) of every action of the line: the label as the move
        list shows it, the name in the core's notation (as share links carry it)."""
        replay = self.game.new_state()
        out = []
        for a in self.line:
            p = replay.current_player
            label = action_label(self.game, replay, a)
            out.append((-1 if p is None else p, a, label, action_name(self.game, a)))
            replay.apply(a)
        return out


def action_label(game: _core.Game, state: _core.State, action: int) -> str:
    """How the page names an action played in ``state``.

    >>> import stonefield as sf
    >>> g = sf.make("windflowers", grid="square", size=3)
    >>> action_label(g, g.new_state(), 16), action_label(g, g.new_state(), 5)
    ('pass', 'b2')
    """
    name = game.action_name(action)
    if getattr(state, "phase", None) == "offer":
        # An offer stone's colour is the page's, not the mover's.
        site = game.action_site(action)
        if site is not None:
            return f"{PLAYER_NAMES[0 if action == site else 1]} {game.action_name(site)}"
        if name == "pass":
            return "offer pass"
    return name


def action_site(game: _core.Game, action: int) -> int | None:
    """The site an action plays on or marks (``Game.action_site``), or None."""
    site = game.action_site(action)
    return None if site is None else int(site)


def action_name(game: _core.Game, action: int) -> str:
    """The action's name in the core's notation (``Game.action_name``; ``Game.parse_action``
    reads it back).

    >>> import stonefield as sf
    >>> g = sf.make("faraday", order=3)
    >>> action_name(g, 19 + 5), action_name(g, 40)
    ('second c2', 'swap')
    """
    return str(game.action_name(action))


def parse_action(game: _core.Game, text: str) -> int:
    """The action ``text`` names in the core's notation (``Game.parse_action``)."""
    return int(game.parse_action(text))


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
