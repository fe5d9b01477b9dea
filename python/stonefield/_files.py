"""Writing a file whole or not at all: every results, records, data and checkpoint file the
package writes goes through :func:`atomic_write`, so that a full disk, an error or a kill in the
middle of a write leaves the earlier file at that path as it was."""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterator
from typing import IO, Any, Literal, overload

__all__ = ["atomic_write"]


@overload
def atomic_write(
    path: str | os.PathLike[str], *, binary: Literal[False] = False
) -> contextlib.AbstractContextManager[IO[str]]: ...


@overload
def atomic_write(
    path: str | os.PathLike[str], *, binary: Literal[True]
) -> contextlib.AbstractContextManager[IO[bytes]]: ...


def atomic_write(path: str | os.PathLike[str], *, binary: bool = False) -> Any:
    """A context manager giving a file to write in place of ``path``.

    The text goes to a temporary file beside ``path`` (so on the same file system), which is
    flushed to the disk and then renamed over ``path`` when the block ends without an
    exception; on an exception the temporary file is removed and ``path`` is untouched. The
    file gets the mode ``open(path, "w")`` would give (0o666 less the umask).

    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> with atomic_write(folder / "a.txt") as f:
    ...     _ = f.write("whole")
    >>> (folder / "a.txt").read_text(), [p.name for p in folder.iterdir()]
    ('whole', ['a.txt'])
    """
    return _atomic_write(os.fspath(path), binary)


@contextlib.contextmanager
def _atomic_write(target: str, binary: bool) -> Iterator[IO[Any]]:
    directory, name = os.path.split(os.path.abspath(target))
    temp = os.path.join(directory, f".{name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    # Mode 0o666 less the umask, as open(path, "w") would give (mkstemp's files are 0o600).
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        f = os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8")
    except BaseException:
        os.close(fd)
        _remove(temp)
        raise
    try:
        with f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, target)
    except BaseException:
        _remove(temp)
        raise
    # The rename itself reaches the disk once the folder's entry is written.
    with contextlib.suppress(OSError):
        dfd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)
