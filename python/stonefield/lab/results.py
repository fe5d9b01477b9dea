"""The lab's results file, kept as a small database would keep it.

A results file is JSON lines: a header (the run's arguments), then one line per finished chunk
of games and one per variant's king-making verdicts. :class:`ResultsFile` holds one for the
length of a run:

* **One writer.** It takes an exclusive lock (``flock``) on the file for the whole run, so a
  second run on the same file fails at once with :class:`ResultsFileBusyError` naming the
  process that holds it. The lock goes with the process, so a killed run leaves none behind.
* **Repair before append.** A last line that lacks its newline is completed when it is a whole
  entry and cut away (with a warning) when it is not: an interrupted write. A file that the cut
  leaves empty gets its header again before any chunk.
* **Every line checked.** Each line must be valid UTF-8 JSON of a known shape (kind, variant in
  range, whole numbers where they belong, every column present); anything else is a
  :class:`~stonefield.RecordError` naming the line.
* **Each game once.** A chunk's identity is its (kind, variant, first game, games). Reading
  refuses a chunk whose games overlap another's, unless it is an exact copy of a line already
  read (``cat a.jsonl a.jsonl``), which is dropped with a warning; a second king-making line of
  a variant is treated the same way. So no game is counted twice, however the file was made.

Lines are appended with one ``write`` each, flushed and ``fsync``-ed before the run goes on.
"""

from __future__ import annotations

import json
import os
import socket
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._core import Facts, Game, InvalidOptionError, RecordError, StonefieldError
from .columns import Column, columns_of
from .plan import FORMAT, Chunk, Plan

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX: runs are not locked
    fcntl = None  # type: ignore[assignment]

#: The kinds of line after the header.
CHUNK_KINDS = ("games", "skill")


class ResultsFileBusyError(StonefieldError):
    """Another run holds the results file (its message names the process)."""


def _holder(path: str) -> str:
    """Who holds the flock on ``path``: "process P (command) on HOST", as far as Linux's
    /proc/locks tells; a plain "another process" elsewhere."""
    try:
        inode = os.stat(path).st_ino
        with open("/proc/locks", encoding="ascii") as f:
            for line in f:
                parts = line.split()
                # "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"
                if len(parts) >= 6 and parts[1] == "FLOCK" and parts[5].endswith(f":{inode}"):
                    pid = int(parts[4])
                    if pid == os.getpid():
                        return f"this process ({pid}), in another open of the file"
                    try:
                        with open(f"/proc/{pid}/cmdline", "rb") as c:
                            cmd = c.read().replace(b"\0", b" ").decode(errors="replace").strip()
                    except OSError:
                        cmd = "?"
                    return f"process {pid} ({cmd[:200]}) on {socket.gethostname()}"
    except (OSError, ValueError):
        pass
    return "another process"


def _is_int(v: Any, low: int = 0) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= low


class ResultsFile:
    """An open, locked results file (a context manager; :meth:`close` releases the lock).

    ``header`` is the run's header line; ``totals`` maps each chunk kind to the games per
    variant the run plays of it; ``variants`` is the number of variants; ``columns`` the columns
    of the game (:func:`~stonefield.lab.columns.columns_of`): every chunk's ``stats`` holds the
    lab's own, and the game's declared ones when it was written by a version that had them;
    ``games`` the game of each variant, against which the games a chunk keeps (its
    ``records``) are replayed when the file is read.
    """

    def __init__(
        self,
        path: str,
        header: dict[str, Any],
        *,
        variants: int,
        totals: dict[str, int],
        columns: Sequence[Column],
        games: Sequence[Game] = (),
    ) -> None:
        self.path = path
        self.games = tuple(games)
        self.header = header
        self.variants = variants
        self.totals = totals
        self.columns = tuple(columns)
        parent = os.path.dirname(os.path.abspath(path))
        os.makedirs(parent, exist_ok=True)
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            if fcntl is not None:
                try:
                    fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    raise ResultsFileBusyError(
                        f"{path} is being written by {_holder(path)}; wait for that run to"
                        " finish (or stop it), or give another file"
                    ) from None
            self.entries = self._load()
        except BaseException:
            os.close(self._fd)
            raise

    def __enter__(self) -> ResultsFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Releases the lock (closing the file releases it)."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    # -- reading -------------------------------------------------------------------------

    def _read_all(self) -> bytes:
        os.lseek(self._fd, 0, os.SEEK_SET)
        parts = []
        while chunk := os.read(self._fd, 1 << 20):
            parts.append(chunk)
        return b"".join(parts)

    def _load(self) -> list[dict[str, Any]]:
        """Reads, repairs and checks the file; writes the header when it holds none."""
        data = self._read_all()
        lines = data.split(b"\n")
        complete = lines[:-1]  # each ended by "\n"
        tail = lines[-1]  # after the last "\n": empty, or a line missing its newline
        keep = len(data)
        if tail:
            if self._whole_line(tail, len(complete)):
                # A whole entry that only lacks its newline (an editor, a full disk): finish it.
                self._append_bytes(b"\n")
                complete.append(tail)
                keep += 1
            else:
                warnings.warn(
                    f"{self.path}: the last line is incomplete (an interrupted run); it is"
                    " cut away and its games are played again",
                    RuntimeWarning,
                    stacklevel=4,
                )
                keep = len(data) - len(tail)
                os.ftruncate(self._fd, keep)
        if keep == 0:
            self._append_bytes(_line(self.header))
            return []
        entries: list[dict[str, Any]] = []
        self._seen: dict[tuple[str, int], list[tuple[int, int, int]]] = {}
        self._raw: dict[tuple[str, int, int, int], bytes] = {}
        for i, raw in enumerate(complete):
            entry = self._parse(raw, i + 1)
            if i == 0:
                self._check_header(entry)
                continue
            if self._check_entry(entry, raw, i + 1):
                entries.append(entry)
        return entries

    def _whole_line(self, raw: bytes, number: int) -> bool:
        """Whether an unterminated last line is a whole, well-formed entry (or header)."""
        try:
            entry = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            return False
        return isinstance(entry, dict) and (number == 0 or entry.get("kind") is not None)

    def _parse(self, raw: bytes, number: int) -> Any:
        try:
            return json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError:
            raise RecordError(f"{self.path}: line {number} is not UTF-8 text") from None
        except (ValueError, RecursionError):
            raise RecordError(f"{self.path}: line {number} is not valid JSON") from None

    def _check_header(self, found: Any) -> None:
        if not isinstance(found, dict) or found.get("format") != FORMAT:
            fmt = found.get("format", "") if isinstance(found, dict) else ""
            if isinstance(fmt, str) and fmt.startswith("stonefield-lab/"):
                raise RecordError(
                    f"{self.path} was written by another version of the lab (format"
                    f" {fmt!r}, this one reads {FORMAT!r}); run into a new file"
                )
            raise RecordError(f"{self.path} is not a stonefield lab results file")
        if found != self.header:
            diffs = [
                f"{k}: {found.get(k)!r} in the file, {self.header.get(k)!r} now"
                for k in self.header
                if found.get(k) != self.header.get(k)
            ]
            raise InvalidOptionError(
                f"{self.path} holds results of other arguments ({'; '.join(diffs)}); give the"
                " same arguments to resume it, or another file"
            )

    def _check_entry(self, e: Any, raw: bytes, number: int) -> bool:
        """Checks one line's shape; False for an exact copy of an earlier line (dropped)."""

        def bad(why: str) -> RecordError:
            return RecordError(f"{self.path}: line {number}: {why}")

        if not isinstance(e, dict):
            raise bad(f"an entry is a JSON object, got {type(e).__name__}")
        kind: Any = e.get("kind")
        if kind not in (*CHUNK_KINDS, "kingmaking"):
            raise bad(f"kind must be one of games, skill, kingmaking, got {kind!r}")
        variant: Any = e.get("variant")
        if not _is_int(variant) or variant >= self.variants:
            raise bad(f"variant must be an integer from 0 to {self.variants - 1}, got {variant!r}")
        if kind == "kingmaking":
            games = e.get("games")
            if not isinstance(games, list) or not all(isinstance(g, dict) for g in games):
                raise bad("a kingmaking entry holds a list of games")
            span = (0, 0)
        else:
            first: Any = e.get("first")
            count: Any = e.get("count")
            total = self.totals.get(kind, 0)
            if not _is_int(first) or not _is_int(count, 1) or first + count > total:
                raise bad(
                    f"first and count must be integers with 0 ≤ first, 1 ≤ count and"
                    f" first + count ≤ {total} ({kind} per variant), got {first!r}, {count!r}"
                )
            self._check_stats(e.get("stats"), count, bad)
            self._check_records(e.get("records", []), variant, first, count, e["stats"], bad)
            span = (first, first + count)
        key = (kind, variant)
        for a, b, line in self._seen.get(key, []):
            if a == span[0] and b == span[1] and self._raw.get((kind, variant, a, b)) == raw:
                warnings.warn(
                    f"{self.path}: line {number} repeats line {line}; the copy is ignored",
                    RuntimeWarning,
                    stacklevel=5,
                )
                return False
            if kind == "kingmaking" or (a < span[1] and span[0] < b):
                what = "king-making verdicts" if kind == "kingmaking" else "games"
                raise bad(
                    f"its {what} overlap line {line}'s ({kind}, variant {variant}); a results"
                    " file holds each game once (was it made by joining files?)"
                )
        self._seen.setdefault(key, []).append((*span, number))
        self._raw[(kind, variant, *span)] = raw
        return True

    def _check_records(
        self, recs: Any, variant: int, first: int, count: int, stats: Any, bad: Any
    ) -> None:
        """The games a chunk keeps: each of the chunk's range, its actions whole numbers that
        replay on the variant's game to the length its stats give."""
        if not isinstance(recs, list) or not all(
            isinstance(r, dict) and isinstance(r.get("actions"), list) for r in recs
        ):
            raise bad("records must be a list of {index, actions, values} objects")
        for r in recs:
            index = r.get("index")
            if not _is_int(index) or not first <= index < first + count:
                raise bad(
                    f"a kept record's index must be a game of the chunk ({first} to"
                    f" {first + count - 1}), got {index!r}"
                )
            actions = r["actions"]
            if not all(_is_int(a) for a in actions):
                wrong = next(a for a in actions if not _is_int(a))
                raise bad(f"the kept record of game {index} holds {wrong!r}, not an action")
            length = stats["length"][index - first]
            if len(actions) != length:
                raise bad(
                    f"the kept record of game {index} holds {len(actions)} actions, its stats"
                    f" {length}"
                )
            if variant < len(self.games):
                state = self.games[variant].new_state()
                for k, a in enumerate(actions):
                    try:
                        state.apply(a)
                    except StonefieldError as err:
                        raise bad(
                            f"the kept record of game {index} does not replay: action {a} at"
                            f" move {k}: {err}"
                        ) from None
                if state.current_player is not None:
                    raise bad(f"the kept record of game {index} stops before its game ends")

    def _check_stats(self, stats: Any, count: int, bad: Any) -> None:
        if not isinstance(stats, dict):
            raise bad("a chunk holds its games' stats (an object of columns)")
        missing = [c.name for c in self.columns if not c.declared and c.name not in stats]
        if missing:
            raise bad(f"stats lack the column(s) {', '.join(missing)}")
        for name in (c.name for c in self.columns):
            v = stats.get(name)
            if v is None:
                continue
            if not isinstance(v, list) or len(v) != count:
                raise bad(f"stats column {name} must be a list of one row per game ({count})")
            try:
                np.asarray(v, dtype=np.float64)
            except (TypeError, ValueError, OverflowError):
                raise bad(f"stats column {name} holds something other than numbers") from None
        if stats.get("length") is None:
            raise bad("stats lack the games' lengths")

    # -- writing -------------------------------------------------------------------------

    def _append_bytes(self, data: bytes) -> None:
        os.lseek(self._fd, 0, os.SEEK_END)
        view = memoryview(data)
        while view:
            view = view[os.write(self._fd, view) :]
        os.fsync(self._fd)

    def append(self, entry: dict[str, Any]) -> None:
        """Appends one entry (JSON-ready) as a line, flushed to disk before it returns."""
        self._append_bytes(_line(entry))


def _line(entry: dict[str, Any]) -> bytes:
    return (json.dumps(entry, separators=(",", ":")) + "\n").encode("utf-8")


# ---------------------------------------------------------------------------------------------
# Chunks: as a run holds them and as the file does


def encode_chunk(chunk: Chunk, seed: int, facts: Facts) -> dict[str, Any]:
    """A chunk's entry as a run holds it: its place, its per-game ``facts`` (kept in Rust) and
    the action lists of the games :func:`run_chunk` kept."""
    return {
        "kind": chunk.kind,
        "variant": chunk.variant,
        "first": chunk.first,
        "count": chunk.count,
        "seed": seed,
        "facts": facts,
        "records": list(facts.records()),
    }


def file_line(entry: dict[str, Any]) -> dict[str, Any]:
    """A chunk's entry as the results file holds it: the facts as ``stats``, one JSON list
    per column (:meth:`Facts.to_lists`, in the order of
    :func:`~stonefield.lab.columns.columns_of`)."""
    out = {k: v for k, v in entry.items() if k not in ("facts", "records")}
    out["stats"] = entry["facts"].to_lists()
    out["records"] = entry["records"]
    return out


def read_chunk(plan: Plan, entry: dict[str, Any], path: str) -> dict[str, Any]:
    """A chunk's entry of the results file ``path`` as a run holds it: its ``stats`` read into
    Rust once (:meth:`Facts.from_lists`); a column that does not read is a
    :class:`~stonefield.RecordError` naming the chunk."""
    game = plan.variants[entry["variant"]].game
    try:
        facts = Facts.from_lists(game, entry["stats"])
    except RecordError as e:
        raise RecordError(
            f"{path}: the {entry['kind']} chunk of variant {entry['variant']} from game"
            f" {entry['first']}: {e}"
        ) from None
    if len(facts) != entry["count"]:
        raise RecordError(
            f"{path}: the {entry['kind']} chunk of variant {entry['variant']} from game"
            f" {entry['first']} holds {len(facts)} games, not {entry['count']}"
        )
    out = {k: v for k, v in entry.items() if k not in ("stats", "records")}
    out["facts"] = facts
    out["records"] = entry.get("records", [])
    return out


def open_results(plan: Plan, path: str) -> ResultsFile:
    """Opens and locks the results file ``path`` for a run of ``plan``: repaired, checked line
    by line against the plan (see :mod:`stonefield.lab.results`), with the header written when
    the file holds none. A file written by other arguments is refused."""
    totals = {"games": plan.games, "skill": plan.skill}
    return ResultsFile(
        path,
        plan.header(),
        variants=len(plan.variants),
        totals=totals,
        columns=columns_of(plan.variants[0].game),
        games=[v.game for v in plan.variants],
    )


def missing_chunks(plan: Plan, done: list[dict[str, Any]], chunk_size: int) -> list[Chunk]:
    """The chunks still to play: per variant and kind, the game ranges no finished chunk holds,
    cut into pieces of at most ``chunk_size``."""
    have: dict[tuple[int, str], list[tuple[int, int]]] = {}
    for e in done:
        if e.get("kind") in ("games", "skill"):
            have.setdefault((e["variant"], e["kind"]), []).append(
                (e["first"], e["first"] + e["count"])
            )
    todo = []
    for v in plan.variants:
        kinds = [("games", plan.games)]
        if plan.skill:
            kinds.append(("skill", plan.skill))
        for kind, total in kinds:
            # The uncovered ranges: merge the finished ones, then take the gaps between them.
            i = 0
            for a, b in sorted(have.get((v.index, kind), [])) + [(total, total)]:
                a, b = min(a, total), min(b, total)
                while i < a:
                    j = min(a, i + chunk_size)
                    todo.append(Chunk(v.index, kind, i, j - i))
                    i = j
                i = max(i, b)
    return todo


def gather(plan: Plan, entries: list[dict[str, Any]], kind: str = "games") -> list[Facts]:
    """Per variant, its games' facts in game order (each game once), joined in Rust
    (:meth:`Facts.concat`; a variant of one chunk keeps that chunk's facts as they are)."""
    by_variant: list[list[dict[str, Any]]] = [[] for _ in plan.variants]
    for e in entries:
        if e.get("kind") == kind:
            by_variant[e["variant"]].append(e)
    out = []
    for v, chunks in zip(plan.variants, by_variant):
        chunks.sort(key=lambda e: e["first"])
        out.append(Facts.concat(v.game, [e["facts"] for e in chunks]))
    return out


def records(entries: list[dict[str, Any]], variant: int) -> dict[int, dict[str, Any]]:
    """The action lists kept for a variant's games, by game index."""
    out = {}
    for e in entries:
        if e.get("kind") == "games" and e["variant"] == variant:
            for r in e.get("records", []):
                out[int(r["index"])] = r
    return out


__all__ = [
    "FORMAT",
    "ResultsFile",
    "ResultsFileBusyError",
    "encode_chunk",
    "file_line",
    "gather",
    "missing_chunks",
    "open_results",
    "read_chunk",
    "records",
]
