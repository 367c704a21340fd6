"""The lock that makes a run the one owner of its checkpoint file, for as long as it runs.

The lock is on the checkpoint file itself, taken through the descriptor the run writes
with: `flock` on POSIX, a byte-range lock on Windows (on a byte far past any line, since
Windows' locks are mandatory and readers must never meet it). The OS lets go of it when
the descriptor is closed or the process ends, however it ends: a killed run never leaves
its checkpoint locked. Readers take no lock and are never refused.

The runs of this process that hold a checkpoint are also kept here: a second run in the
same process is refused whatever the file system does with two descriptors of one
process (some network file systems lock per process, not per descriptor).
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import threading

from .._errors import LeadEnrichError

__all__ = ["CheckpointInUse", "hold", "let_go"]

_GO_ON = "run enrich_many again with the same checkpoint to go on from what it recorded"


class CheckpointInUse(LeadEnrichError, BlockingIOError):
    """Another run holds the checkpoint: taking it would block (so a BlockingIOError too)."""


_held: set[tuple[int, int]] = set()
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
            raise CheckpointInUse(
                f"checkpoint {name} is held by another run of this process, which has not ended "
                "(an async iteration left with break ends when its iterator or its client is "
                f"closed): no lead was sent; once it has ended, {_GO_ON}"
            )
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
        _held.add(file)
    return file


def let_go(fd: int, file: tuple[int, int]) -> None:
    """Unlock the checkpoint (before its descriptor is closed, which would do it too)."""
    with _guard:
        _held.discard(file)
        # Closing the descriptor next lets go of it all the same.
        with contextlib.suppress(OSError):
            _unlock(fd)
