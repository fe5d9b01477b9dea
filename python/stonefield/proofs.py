"""Proofs anyone can check: ``sf.solve(..., certificate=PATH)`` writes one, ``sf.verify_proof``
checks it with the rules alone.

A proof file (format ``stonefield-proof``, version 2) is UTF-8 text. Its first line is a JSON
header::

    {"format": "stonefield-proof", "format_version": 2,
     "record": {...the game record of the root position (stonefield.to_record)...},
     "value": -1,
     "claims": [{"player": 1, "at_least": 1, "moves": 812}],
     "sha256": "…the SHA-256 of every line after the header…"}

``value`` is the root's perfect-play value for the player to move (+1, 0, −1). Each claim says
that ``player`` can make sure of a result of at least ``at_least`` (+1: a win; 0: a draw or
better) from the root, whatever the other player does: a win of the mover is one claim (the
mover, +1), a loss one claim (the other player, +1), a draw two claims (each player, 0): one
bounds the value from below, the other from above.

After the header come the claims' moves, one action id a line, claim after claim. The moves of
a claim are read in the order of a depth-first walk of its proof tree from the root: where the
claiming player is to move, the next line is the one move it plays; where the other player is
to move, every legal action is followed, in ascending order; a finished position ends a branch
and must give the claiming player a result of at least ``at_least`` by the game's
``returns()``. A line ``?`` in place of a move ends a branch too: the checker settles the claim
at that position by its own plain minimax (the writer uses it where minimax needs at most
``LEAF_POSITIONS`` positions; the checker refuses one that needs more than
``CHECKER_LEAF_LIMIT``). A line ``=N`` in place of a move ends a branch as well: the position
here is the one at line ``N`` of the file (an earlier line of the same claim, counting the
header as line 1), whose proof is complete above this line; and a line ``a>N`` is the move
``a`` to a running position of the other player that the move of line ``N`` (an earlier line
of the claim) reached too, its proof complete above. So a position reached by several orders
of moves is proven once: a proof is a graph. The checker takes two positions as the
same when their boards, move counts and position keys are equal (the engine's key describes
everything but the board and the move count exactly: see ``stonefield._core.State.key``).
``moves`` counts a claim's lines. Version 1 files (trees, no ``=N`` or ``a>N`` lines) are
read too.

The checker (:func:`verify_proof`) trusts only the rules engine (``legal_actions``,
``apply``, ``undo``, ``current_player``, ``is_terminal``, ``returns``, and for ``=N`` and
``a>N`` lines ``board``, ``move_count`` and ``key``) and the game record reader: no table, no
move ordering, no solver. Any failure raises :class:`stonefield.RecordError` naming the line of
the file and the position (the actions from the root) where it fails.
"""

from __future__ import annotations

import hashlib
import json
import os
import time as _time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Literal

from . import _core
from .records import from_record, to_record

#: The marker and version of the format (the writer's; the checker reads every version of
#: ``READ_VERSIONS``).
FORMAT = "stonefield-proof"
FORMAT_VERSION = 2
READ_VERSIONS = (1, 2)


@dataclass(frozen=True)
class ProofCheck:
    """What :func:`verify_proof` found: a proof that holds.

    Attributes:
        game: the game's id.
        options: the game's options.
        actions: the root position's actions from the start.
        value: the root's value for the player to move (+1 / 0 / −1), now checked.
        positions: how many positions the checker visited (each once per line's position
            and per branch followed, finished ones included; a position referred to again by
            an ``=N`` or ``a>N`` line counts once more, its proof not walked again).
        moves: how many move lines the file holds.
        seconds: the time the check took.
    """

    game: str
    options: dict[str, Any]
    actions: list[int]
    value: int
    positions: int
    moves: int
    seconds: float


def _claims(value: int, mover: int) -> list[tuple[int, int]]:
    """The (player, at least) claims that together prove ``value`` for ``mover``."""
    other = 1 - mover
    if value > 0:
        return [(mover, 1)]
    if value < 0:
        return [(other, 1)]
    return [(mover, 0), (other, 0)]


def _result_for(state: _core.State, player: int) -> int:
    """+1 / 0 / −1: the finished game's result for ``player`` by ``returns()``."""
    r = state.returns()
    assert r is not None
    mine, theirs = float(r[player]), float(r[1 - player])
    return (mine > theirs) - (mine < theirs)


#: The writer leaves a claiming player's position to the checker's own minimax ("?") when
#: minimax settles it within this many positions (``stonefield._core.proof_lines``, whose
#: minimax is the checker's, counts them the same way).
LEAF_POSITIONS = 200
#: The most positions the checker's minimax visits for one "?" before it rejects the proof.
CHECKER_LEAF_LIMIT = 100_000


class _TooBig(Exception):
    pass


def _minimax(state: _core.State, player: int, at_least: int, budget: list[int]) -> bool:
    """Plain minimax: can ``player`` make sure of at least ``at_least`` from ``state``?
    Counts the positions it visits down from ``budget[0]``; raises _TooBig below zero."""
    budget[0] -= 1
    if budget[0] < 0:
        raise _TooBig
    if state.is_terminal():
        return _result_for(state, player) >= at_least
    mine = state.current_player == player
    for a in state.legal_actions().tolist():
        state.apply(a)
        try:
            holds = _minimax(state, player, at_least, budget)
        finally:
            state.undo()
        if holds == mine:
            return mine
    return not mine


def write_proof(
    state: _core.State,
    value: int,
    path: str | Path,
    table_mb: int | None = None,
    time: float | None = None,
) -> int:
    """Writes a proof that ``state`` (a two-player position, not finished) has ``value`` for
    its mover; returns the number of move lines.

    The claiming player's moves are chosen natively by one alpha-beta search (one thread, a
    table of ``table_mb`` MiB at most, by default the solver's) whose table lasts the whole
    walk: at each of its positions on the proof every move is solved, and of those that keep
    the claim the one whose position cost the search the least work is written (then the one
    leaving the other player the fewest replies, then the lowest); a move to a position whose
    proof is written already comes before all of those. A position met again (by another
    order of moves) after its proof is complete is written as a reference to the line where it
    was first met (``=N``, or ``a>N`` for a move to the other player's position), so the
    proof's size is that of the distinct positions it needs.

    ``time`` (seconds, > 0) bounds the writing: when it runs out, nothing is written.

    Raises:
        InvalidOptionError: the position is finished or not two-player, value not ±1 / 0, a
            bad ``table_mb`` or ``time``, or the value does not hold (then nothing is written).
        TimeoutError: ``time`` ran out before the proof was complete (nothing is written).
    """
    mover = state.current_player
    if state.is_terminal() or mover is None:
        raise _core.InvalidOptionError("certificate: the position is finished, nothing to prove")
    if state.game.num_players != 2:
        raise _core.InvalidOptionError("certificate: proofs are for two-player games")
    if value not in (-1, 0, 1):
        raise _core.InvalidOptionError(f"certificate: value must be +1, 0 or -1, got {value!r}")
    if time is not None and (
        isinstance(time, bool) or not isinstance(time, (int, float)) or not time > 0
    ):
        raise _core.InvalidOptionError(
            f"certificate: time must be a number of seconds above 0 or None, got {time!r}"
        )
    start = _time.perf_counter()

    def left() -> float | None:
        # What is left of ``time`` for the next claim (a draw has two).
        return None if time is None else max(time - (_time.perf_counter() - start), 1e-9)

    claims = []
    found_all = []
    for player, at_least in _claims(value, mover):
        found = _core.proof_lines(state, player, at_least, table_mb=table_mb, time=left())
        if found is None:
            raise TimeoutError(f"certificate: no proof within {time} s; nothing written")
        claims.append({"player": player, "at_least": at_least, "moves": len(found)})
        found_all.append(found)
    # The header takes the body's checksum, known once the body is written: it is written
    # first with a stand-in of the same length, patched at the end. The lines go out in
    # chunks (a proof may have a hundred million), into a file beside the path that takes
    # its place when complete.
    header = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "record": to_record(state),
        "value": value,
        "claims": claims,
        "sha256": "0" * 64,
    }
    head = json.dumps(header, separators=(",", ":"))
    at = head.rindex('"sha256":"') + len('"sha256":"')  # the last key
    path = Path(path)
    part = path.with_name(path.name + ".part")
    digest = hashlib.sha256()
    lines = 0
    try:
        with open(part, "wb") as f:
            f.write(head.encode() + b"\n")
            for found in found_all:
                first = lines + 2  # the file's line of the claim's first line
                for i in range(0, len(found), _CHUNK):
                    text = "".join(_line_text(a, first) for a in found[i : i + _CHUNK].tolist())
                    data = text.encode()
                    digest.update(data)
                    f.write(data)
                lines += len(found)
            f.seek(at)
            f.write(digest.hexdigest().encode())
        os.replace(part, path)
    finally:
        part.unlink(missing_ok=True)
    return lines


#: Proof lines formatted at a time by the writer.
_CHUNK = 1 << 20


def _line_text(code: int, first: int) -> str:
    """A line of the file from ``_core.proof_lines``'s code for it, in a claim whose first
    line is the file's line ``first`` (the header is line 1): a move, "?", "=N" (the same
    position as the claim's line k: code −2 − k) or "a>N" (the move a to the position the move
    of the claim's line k reached: code a + (k + 1)·2³²)."""
    if code == -1:
        return "?\n"
    if code < 0:
        return f"={first + (-2 - code)}\n"
    if code >= 1 << 32:
        return f"{code & 0xFFFFFFFF}>{first + (code >> 32) - 1}\n"
    return f"{code}\n"


def solve(
    state: _core.State,
    max_nodes: int | None = None,
    time: float | None = None,
    threads: int | None = None,
    margin: bool | None = None,
    table_mb: int | None = None,
    method: Literal["alphabeta", "pns"] | None = None,
    certificate: str | Path | None = None,
    checkpoint: str | Path | None = None,
    save_every: float | None = None,
    guide: Any = None,
    guide_depth: int | None = None,
    value_only: bool | None = None,
    try_first: Sequence[int] | None = None,
    table: _core.SolveTable | None = None,
) -> _core.SolveResult:
    """Solves a two-player position exactly: negamax alpha-beta (or df-pn) with a
    transposition table keyed by the position key, sharing entries between a position's images
    under the board's symmetries; the GIL released.

    Args:
        state: the position (not over) of a two-player game; for three or four players use
            state_graph.
        max_nodes: stop after about this many nodes (≥ 1), or None.
        time: stop after this many seconds (> 0), or None.
        threads: search threads (the result is the same for any count), default 1.
        margin: also find the best final score difference (games with scores).
        table_mb: the table's size in MiB, from 1 to the memory this process may still take;
            default an eighth of that (16 MiB to 1 GiB).
        method: "alphabeta" (default) or "pns" (a depth-first proof-number search).
        certificate: a path: once the root value is proven, a proof of it is written there
            (format in :mod:`stonefield.proofs`; check it with :func:`stonefield.verify_proof`
            or ``stonefield verify-proof``). When the search stops before the value is proven
            nothing is written.
        checkpoint: a directory: the run is saved there as it goes (the table's entries and
            the root outcomes proven, every ``save_every`` seconds and when it ends: solved, a
            budget, Ctrl-C) and a later solve of the same position resumes from it
            (docs/solved/checkpoints.md). Alpha-beta only.
        save_every: seconds between saves (> 0), default 300; only with ``checkpoint``.
        guide: a trained graph network that orders the search: ``"expert"`` (the network
            shipped for the game, :mod:`stonefield.experts`), the path of a checkpoint, or a
            network object (:class:`~stonefield._checkpoint.CheckpointNetwork`). The root's
            actions are solved in the order of its policy, the most promising first, and
            alpha-beta orders the positions ``guide_depth`` moves below the root by it. Only
            the work depends on it: values, outcomes and best actions are the same with any
            guide or none. A network of another ruleset of the same game may guide (it only
            has to read the board: same observation planes, players and kinds of actions).
        guide_depth: moves below the root ordered by the guide (0 to 64), default 4; only
            with ``guide``.
        value_only: stop as soon as one root action is proven to win (``stopped_by`` is then
            ``"value"``): the root's value is known, the other actions stay unproven and
            ``best`` holds the winning actions proven so far. Outcomes only (not with
            ``margin``). With ``guide`` the most promising action is tried first.
        try_first: root actions to solve before the others, in this order (then the guide's
            order, or the actions'): knowledge of the root from elsewhere, for example a
            search's ranking, ``[int(a) for a in res.actions[np.argsort(-res.visits)]]`` of an
            MCTS ``analyse``. Each must be legal at the root, once.
        table: a :class:`~stonefield.SolveTable` of the position's game: the solve starts with
            what earlier solves in it proved and leaves what it proves for later ones (many
            positions of one game solved in turn, such as the positions after each first move,
            cost about one solve of them together). Alpha-beta only, no ``checkpoint``, no
            ``table_mb`` (the table has its own size).

    Returns:
        SolveResult. When a budget stops the search, every root outcome proven so far is kept.

    Raises:
        SolveInterrupted: Ctrl-C stopped the search; its ``result`` is the SolveResult so far.
        InvalidOptionError: a bad setting, or a table larger than the memory available; a
            checkpoint directory that cannot be written or holds another run (what differs is
            named).
        RecordError: the checkpoint file is truncated or altered (nothing of it is loaded),
            or the guide's file cannot be read or is not a network checkpoint.
        OSError: the certificate cannot be written.

    >>> import stonefield as sf
    >>> res = sf.solve(sf.make("smallholder", board="hex232323").new_state())
    >>> res.value, res.best, res.stopped_by
    (1, [1, 7, 9], 'solved')
    """
    res = _core.solve(
        state,
        max_nodes=max_nodes,
        time=time,
        threads=threads,
        margin=margin,
        table_mb=table_mb,
        method=method,
        checkpoint=checkpoint,
        save_every=save_every,
        guide=guide_network(state, guide),
        guide_depth=guide_depth,
        value_only=value_only,
        try_first=try_first,
        table=table,
    )
    if certificate is not None and res.value is not None:
        write_proof(state, int(res.value), certificate, table_mb=table_mb)
    return res


def guide_network(state: _core.State, guide: Any) -> Any:
    """The network ``solve``'s ``guide`` names: the game's shipped network for ``"expert"``,
    a checkpoint read from a path, or the object itself (the core checks that it is a graph
    network that reads this board)."""
    if guide is None:
        return None
    from ._checkpoint import read_checkpoint

    if isinstance(guide, str) and guide == "expert":
        from .experts import network_path

        return read_checkpoint(network_path(state.game.name))
    if isinstance(guide, (str, os.PathLike)):
        return read_checkpoint(guide)
    return guide


def _number(text: str) -> int:
    """The number a line's text writes in decimal digits alone, else -1."""
    return int(text) if text.isascii() and text.isdigit() else -1


def _identity(state: _core.State) -> bytes:
    """What makes two positions the same for a reference: the board, the position key (equal
    boards have equal keys exactly when the rest of the position is equal) and the move count,
    in one string of bytes (a game's boards have one length)."""
    return (
        state.board.tobytes()
        + state.key().to_bytes(8, "little")
        + state.move_count.to_bytes(8, "little")
    )


class _Lines:
    """The move lines of a proof file, read one by one (streamed from the file) with their
    line numbers, and the positions of the lines that references name, once their proofs are
    complete."""

    def __init__(
        self, lines: Iterator[str], version: int, wanted: set[int], wanted_after: set[int]
    ) -> None:
        self.lines = lines
        self.i = 0
        self.version = version
        #: The file line where the claim being checked starts.
        self.claim_first = 2
        #: The lines some ``=N`` line names, and those some ``a>N`` line names (only their
        #: positions are kept).
        self.wanted = wanted
        self.wanted_after = wanted_after
        #: Line → the position there, once its proof is complete (wanted lines only).
        self.done: dict[int, bytes] = {}
        #: Line → the other player's position its move reached, once its proof is complete.
        self.done_after: dict[int, bytes] = {}

    def take(self, legal: list[int], where: list[int]) -> tuple[str, int, int]:
        """The next line: ("move", a legal action, -1), ("move", a, N) for "a>N", ("leaf",
        0, -1) for "?" (settled by minimax) or ("same", 0, N) for "=N"."""
        line = next(self.lines, None)
        if line is None:
            raise _core.RecordError(
                f"line {self.i + 2}: the proof ends early, a move is missing after actions {where}"
            )
        text = line.strip()
        self.i += 1
        if text == "?":
            return ("leaf", 0, -1)
        ref = -1
        if self.version >= 2:
            if text.startswith("="):
                ref = _number(text[1:])
                if ref < 0:
                    raise _core.RecordError(
                        f"line {self.i + 1}: {text[:40]!r} is not a line number (after actions "
                        f"{where})"
                    )
                return ("same", 0, ref)
            if ">" in text:
                text, _, after = text.partition(">")
                ref = _number(after)
                if ref < 0:
                    raise _core.RecordError(
                        f"line {self.i + 1}: {after[:40]!r} after '>' is not a line number "
                        f"(after actions {where})"
                    )
        a = _number(text)
        if a < 0:
            raise _core.RecordError(
                f"line {self.i + 1}: {text[:40]!r} is not an action id (after actions {where})"
            )
        if a not in legal:
            raise _core.RecordError(
                f"line {self.i + 1}: action {a} is not legal after actions {where}"
            )
        return ("move", a, ref)


def _check(
    state: _core.State,
    player: int,
    at_least: int,
    lines: _Lines,
    path: list[int],
) -> int:
    """Checks one claim's proof below ``state``; returns the positions visited."""
    if state.is_terminal():
        got = _result_for(state, player)
        if got < at_least:
            raise _core.RecordError(
                f"line {lines.i + 1}: the game ends after actions {path} with result {got:+d} "
                f"for player {player}, the proof claims at least {at_least:+d}"
            )
        return 1
    legal = state.legal_actions().tolist()
    if not legal:
        raise _core.RecordError(f"no legal action after actions {path} in a running game")
    n = 1
    if state.current_player == player:
        here = lines.i + 2
        kind, a, ref = lines.take(legal, path)
        if kind == "same":
            a = ref
            _earlier(lines, here, f"={a}", a, path)
            seen = lines.done.get(a)
            if seen is None:
                raise _core.RecordError(
                    f"line {here}: ={a} after actions {path}: the proof at line {a} is not "
                    "complete above this line"
                )
            if seen != _identity(state):
                raise _core.RecordError(
                    f"line {here}: ={a}: the position after actions {path} is not the one at "
                    f"line {a}"
                )
            return n
        if kind == "leaf":
            budget = [CHECKER_LEAF_LIMIT]
            try:
                holds = _minimax(state, player, at_least, budget)
            except _TooBig:
                raise _core.RecordError(
                    f'line {here}: "?" after actions {path} needs more than '
                    f"{CHECKER_LEAF_LIMIT} positions of minimax"
                ) from None
            if not holds:
                raise _core.RecordError(
                    f"line {here}: minimax finds that player {player} cannot make sure "
                    f"of at least {at_least:+d} after actions {path}"
                )
            n += CHECKER_LEAF_LIMIT - budget[0] - 1  # this position counted once
        else:
            state.apply(a)
            path.append(a)
            if ref >= 0:
                n += _check_after(state, player, lines, path, here, ref)
            else:
                n += _check(state, player, at_least, lines, path)
            if here in lines.wanted_after and not state.is_terminal():
                lines.done_after[here] = _identity(state)
            path.pop()
            state.undo()
        if here in lines.wanted:
            lines.done[here] = _identity(state)
        return n
    for a in legal:
        state.apply(a)
        path.append(a)
        n += _check(state, player, at_least, lines, path)
        path.pop()
        state.undo()
    return n


def _earlier(lines: _Lines, here: int, text: str, ref: int, path: list[int]) -> None:
    """Raises unless the line ``ref`` that the reference ``text`` at line ``here`` names is an
    earlier line of the claim being checked."""
    if not lines.claim_first <= ref < here:
        raise _core.RecordError(
            f"line {here}: {text} after actions {path} is not an earlier line of this claim "
            f"(lines {lines.claim_first} to {here - 1})"
        )


def _check_after(
    state: _core.State, player: int, lines: _Lines, path: list[int], here: int, ref: int
) -> int:
    """Checks the "a>N" line ``here``: the position its move reached (``state``, after
    ``path``) is the other player's, running, and the one the move of line N reached, whose
    proof is complete above; returns the positions visited (this one)."""
    _earlier(lines, here, f">{ref}", ref, path)
    if state.is_terminal() or state.current_player == player:
        raise _core.RecordError(
            f"line {here}: >{ref}: the position after actions {path} is not the other "
            "player's to move"
        )
    seen = lines.done_after.get(ref)
    if seen is None:
        raise _core.RecordError(
            f"line {here}: >{ref} after actions {path}: line {ref} has no move whose proof is "
            "complete above this line"
        )
    if seen != _identity(state):
        raise _core.RecordError(
            f"line {here}: >{ref}: the position after actions {path} is not the one the move "
            f"of line {ref} reached"
        )
    return 1


def _scan(f: IO[bytes], version: int) -> tuple[int, str, set[int], set[int]]:
    """The first pass over the body (``f`` just after the header): the number of lines, the
    SHA-256 of the body and the lines that ``=N`` and ``a>N`` lines name. Raises for a body
    that is not UTF-8 text or whose last line is cut."""
    digest = hashlib.sha256()
    count = 0
    wanted: set[int] = set()
    wanted_after: set[int] = set()
    for raw in f:
        count += 1
        if not raw.endswith(b"\n"):
            raise _core.RecordError(f"line {count + 1}: the last line is cut: truncated")
        if not raw.isascii():
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError:
                raise _core.RecordError(f"line {count + 1}: not UTF-8 text, not a proof") from None
        digest.update(raw)
        if version >= 2:
            if raw.startswith(b"="):
                wanted.add(_number(raw[1:-1].decode()))
            elif b">" in raw:
                wanted_after.add(_number(raw[:-1].decode().partition(">")[2]))
    return count, digest.hexdigest(), wanted, wanted_after


def _body_lines(f: IO[bytes]) -> Iterator[str]:
    """The body's lines as text, without their newlines (``f`` just after the header)."""
    for raw in f:
        yield raw[:-1].decode("utf-8")


def verify_proof(path: str | Path) -> ProofCheck:
    """Checks a proof file written by ``sf.solve(..., certificate=path)`` with the rules alone.

    The file is read twice, a line at a time (its checksum and the lines references name
    first, then the proof), so its size is not held in memory: a check keeps only the
    positions that references name.

    Returns:
        ProofCheck: the game, the root, its value and how many positions were checked.

    Raises:
        RecordError: the file is not a proof, is truncated or altered, or its moves do not
            prove its value; the message names the line and the position (actions from the
            root) where it first fails.
    """
    start = _time.perf_counter()
    try:
        f = open(path, "rb")  # noqa: SIM115 (closed by the with below)
    except OSError as e:
        raise _core.RecordError(f"{path}: cannot be read ({e})") from None
    with f:
        return _verify(f, start)


def _verify(f: IO[bytes], start: float) -> ProofCheck:
    """:func:`verify_proof` of the open file ``f``."""
    raw_head = f.readline()
    if not raw_head.endswith(b"\n"):
        raise _core.RecordError("line 1: no header line ended by a newline: truncated")
    try:
        head = raw_head[:-1].decode("utf-8")
    except UnicodeDecodeError:
        raise _core.RecordError("line 1: not UTF-8 text, not a proof") from None
    try:
        header = json.loads(head)
    except ValueError as e:
        raise _core.RecordError(f"line 1: the header is not JSON ({e})") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise _core.RecordError(f"line 1: not a {FORMAT} file")
    version = header.get("format_version")
    if isinstance(version, bool) or version not in READ_VERSIONS:
        raise _core.RecordError(
            f"line 1: format_version {header.get('format_version')!r}; this checker reads "
            f"{' and '.join(map(str, READ_VERSIONS))}"
        )
    record = header.get("record")
    if not isinstance(record, dict):
        raise _core.RecordError("line 1: record: missing or not an object")
    try:
        root = from_record(record)
    except _core.RecordError as e:
        raise _core.RecordError(f"line 1: record: {e}") from None
    game = root.game
    mover = root.current_player
    if root.is_terminal() or mover is None or game.num_players != 2:
        raise _core.RecordError("line 1: record: not a running two-player position")
    value = header.get("value")
    if isinstance(value, bool) or value not in (-1, 0, 1):
        raise _core.RecordError(f"line 1: value must be +1, 0 or -1, got {value!r}")
    want = _claims(value, mover)
    claims = header.get("claims")
    if not isinstance(claims, list) or len(claims) != len(want):
        raise _core.RecordError(f"line 1: claims: a value of {value:+d} needs {len(want)} claims")
    body_at = f.tell()
    count, digest, wanted, wanted_after = _scan(f, int(version))
    f.seek(body_at)
    lines = _Lines(_body_lines(f), int(version), wanted, wanted_after)
    positions = 0
    for claim, (player, at_least) in zip(claims, want):
        if not isinstance(claim, dict) or (claim.get("player"), claim.get("at_least")) != (
            player,
            at_least,
        ):
            raise _core.RecordError(
                f"line 1: claims: a value of {value:+d} needs the claims "
                f"{[{'player': p, 'at_least': t} for p, t in want]}"
            )
        first = lines.i
        lines.claim_first = first + 2
        positions += _check(root, player, at_least, lines, [])
        if claim.get("moves") != lines.i - first:
            raise _core.RecordError(
                f"line 1: claims: player {player}'s proof has {lines.i - first} moves, the "
                f"header says {claim.get('moves')!r}"
            )
    if lines.i != count:
        raise _core.RecordError(f"line {lines.i + 2}: more lines than the proof uses")
    if digest != header.get("sha256"):
        raise _core.RecordError("line 1: sha256 does not match the moves: the file was altered")
    return ProofCheck(
        game=game.name,
        options=dict(game.options),
        actions=list(root.history),
        value=value,
        positions=positions,
        moves=lines.i,
        seconds=_time.perf_counter() - start,
    )
