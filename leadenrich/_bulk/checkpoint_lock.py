"""The lock that makes a run the one owner of its checkpoint file, for as long as it runs.

The lock is on the checkpoint file itself, taken through the descriptor the run writes
with: `flock` on POSIX, a byte-range lock on Windows (on a byte far past any line, since
Windows' locks are mandatory and readers must never meet it). The OS lets go of it when
the descriptor is closed or the process ends, however it ends: a killed run never leaves
its checkpoint locked. Readers take no lock and are never refused.

The runs of this process that hold a checkpoint are also kept here, with the descriptor
each holds it by: a second run in the same process is refused before it opens the file,
and a reader in the same process reads through the holder's descriptor. Where `flock` is
emulated with POSIX locks (Linux NFS), a process loses its lock when it closes any
descriptor of the file; opening and closing one of its own would let another process in.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import threading

from .._errors import LeadEnrichError

__all__ = ["CheckpointInUse", "hold", "holder", "let_go", "refuse_if_held"]

_GO_ON = "run enrich_many again with the same checkpoint to go on from what it recorded"


class CheckpointInUse(LeadEnrichError, BlockingIOError):
    """Another run holds the checkpoint: taking it would block (so a BlockingIOError too)."""


_held: dict[tuple[int, int], int] = {}
"""The checkpoints this process holds, by (device, inode), with the descriptor of each."""
_guard = threading.Lock()

if sys.platform == "win32":  # not run by CI, which runs on Linux
    import msvcrt

    _FAR = 2**62

    def _lock(fd: int) -> None:
        os.lseek(fd, _FAR, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)

    def _unlock(fd: int) -> None:
        os.lseek(fd, _FAR, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

    def _busy(exc: OSError) -> bool:
        # EACCES, or EDEADLOCK once the C runtime gave up waiting: another handle holds it.
        return isinstance(exc, PermissionError) or exc.errno == errno.EDEADLOCK

else:
    import fcntl

    def _lock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)

    def _busy(exc: OSError) -> bool:
        return isinstance(exc, BlockingIOError)


def _same_process(name: str) -> CheckpointInUse:
    return CheckpointInUse(
        f"checkpoint {name} is held by another run of this process, which has not ended "
        "(an async iteration left with break ends when its iterator or its client is "
        f"closed): no lead was sent; once it has ended, {_GO_ON}"
    )


def holder(path: os.PathLike[str] | str) -> int | None:
    """The descriptor this process holds the checkpoint at `path` by, or None."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    with _guard:
        return _held.get((status.st_dev, status.st_ino))


def refuse_if_held(path: os.PathLike[str] | str, name: str) -> None:
    """Raise CheckpointInUse when a run of this process holds the checkpoint at `path`,
    before a descriptor of it is opened (and closed) here."""
    if holder(path) is not None:
        raise _same_process(name)


def hold(fd: int, name: str) -> tuple[int, int]:
    """Lock the checkpoint open as `fd` for this run alone; returns what `let_go` takes.

    Raises:
        CheckpointInUse: Another run, of this process or another, holds it.
        LeadEnrichError: Its file system cannot lock it.
    """
    status = os.fstat(fd)
    file = (status.st_dev, status.st_ino)
    with _guard:
        if file in _held:
            raise _same_process(name)
        try:
            _lock(fd)
        except OSError as exc:
            if _busy(exc):
                raise CheckpointInUse(
                    f"checkpoint {name} is held by a run in another process, which has not ended: "
                    f"no lead was sent; once it has ended, {_GO_ON}"
                ) from None
            raise LeadEnrichError(
                f"checkpoint {name} cannot be locked for this run alone ({exc.strerror or exc}): "
                "keep it on a local disk"
            ) from None
        _held[file] = fd
    return file


def let_go(fd: int, file: tuple[int, int]) -> None:
    """Unlock the checkpoint (before its descriptor is closed, which would do it too)."""
    with _guard:
        _held.pop(file, None)
        # Closing the descriptor next lets go of it all the same.
        with contextlib.suppress(OSError):
            _unlock(fd)
