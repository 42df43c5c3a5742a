"""Files: writing one in a single step (a temporary file in the same folder, renamed over
the target when complete, so a failed or interrupted write never leaves half a file), and
hashing one's bytes."""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Iterator
from typing import BinaryIO


@contextlib.contextmanager
def atomic_write(
    path: str | os.PathLike, prefix: str = ".skewlearn-", *, follow_links: bool = True
) -> Iterator[BinaryIO]:
    """Open a temporary file next to ``path`` for binary writing; on leaving the block
    without an error it replaces ``path`` (``os.replace``, atomic on one file system),
    otherwise it is removed.

    The file gets the mode ``open(path, "wb")`` would leave: that of the file it replaces,
    else ``0o666`` less the process umask (``tempfile.mkstemp`` makes ``0o600``: a model
    saved for a team or a shared data cache was unreadable to everyone else; and a private
    (``0o600``) model saved again became readable by everyone).

    Where ``open`` would write elsewhere than a new file at ``path``, so does this: a
    symbolic link's file is replaced (the link stays), and a path that is not a regular
    file (a named pipe, bash's ``>(command)``, a device such as ``/dev/null``) is opened
    and written as it is, since renaming over it would replace the pipe or device itself.
    With ``follow_links=False`` a link at ``path`` is itself replaced by the file (the
    dataset cache: a link there to a file of the user's is not written through).
    """
    try:
        kept = os.stat(path) if follow_links else os.lstat(path)
    except FileNotFoundError:  # no file yet (or a dangling link's): the default mode
        kept = None  # (a link loop is refused, as open() refuses it: not replaced by a file)
    if not follow_links and kept is not None and stat.S_ISLNK(kept.st_mode):
        kept = None  # the link is replaced: the default mode
    if kept is not None and not stat.S_ISREG(kept.st_mode):
        with open(path, "wb") as fh:
            yield fh
        return
    mode = None if kept is None else stat.S_IMODE(kept.st_mode)
    # a link's file, not the link (unless follow_links=False)
    path = os.path.realpath(path) if follow_links else os.path.abspath(path)
    folder = os.path.dirname(path)
    while True:
        tmp = os.path.join(folder, f"{prefix}{secrets.token_hex(8)}")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
                         0o666)  # fmt: skip
            break
        except FileExistsError:  # pragma: no cover - 64 random bits
            continue
    try:
        with os.fdopen(fd, "wb") as fh:
            if mode is not None:
                os.chmod(tmp, mode)
            yield fh
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def hash_file(path: str | os.PathLike, hasher) -> str:
    """Feed the bytes of ``path`` to ``hasher`` (a :mod:`hashlib` object) in 1 MiB blocks
    and return its hex digest."""
    with open(path, "rb") as fh:
        while block := fh.read(1 << 20):
            hasher.update(block)
    return hasher.hexdigest()


def user_path(path: str | os.PathLike) -> str:
    """``path`` as a string with a leading ``~`` or ``~user`` expanded to that home folder,
    as the shell, pandas and numpy read it (``os.path.expanduser``); anything else is
    returned as it is. Without this ``~/data.csv`` was "no such file", and an output such as
    ``~/results.sqlite`` was written to a folder named ``~`` in the working folder."""
    return os.path.expanduser(os.fspath(path))
