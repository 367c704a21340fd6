"""A checkpoint's file: held by one run, its lines appended by one writer thread, each
batch synced to disk; read by anyone, changed by no reader.

A run takes the file (`take`): it locks it for itself (checkpoint_lock.py) and cuts a
torn last line that a killed run left, before its own lines follow. A reader (`read`)
only reads: it takes the complete lines and leaves a line being written alone, so it may
read while a run writes.

A caller that must know a line is on disk (a start, a job id) waits for its batch while
the others go on, and an event loop never waits for the disk. A line once queued is
written whatever becomes of the caller waiting for it: a cancelled wait does not cancel
the line, and nothing a caller does stops the writer.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from pathlib import Path
from typing import BinaryIO

from .._errors import LeadEnrichError
from .checkpoint_lock import hold, holder, let_go, refuse_if_held

__all__ = ["CheckpointFile"]


def _read_all(fd: int) -> bytes:
    """The file open as `fd`, from its start, leaving the descriptor's offset as it is."""
    chunks: list[bytes] = []
    offset = 0
    while chunk := os.pread(fd, 1 << 20, offset):
        chunks.append(chunk)
        offset += len(chunk)
    return b"".join(chunks)


def _complete(raw: bytes) -> bytes:
    """The complete lines of `raw`: a last line without its newline is being written, or
    was torn by a kill."""
    return raw[: raw.rfind(b"\n") + 1]


class CheckpointFile:
    """The journal of a checkpoint kept in a file (see `checkpoint.Journal`)."""

    def __init__(self, path: Path, sync: Callable[[int], None] | None = None) -> None:
        """`sync` syncs the file open as a descriptor to disk, `os.fsync` by default (the
        bulk simulation's disk decides when a batch is synced, and what a kill loses)."""
        self.path: Path = path
        self._sync = sync
        self.name: str = str(path)
        self._cond = threading.Condition()
        self._queue: list[tuple[bytes, Future[None]]] = []
        self._writer: threading.Thread | None = None
        self._owning = threading.Lock()
        """Held while the file is taken or let go, so that a close racing a take (a run
        cancelled as it starts) lets go of what the take held."""
        self._file: BinaryIO | None = None
        self._lock: tuple[int, int] | None = None
        self._closed = False
        self.failure: LeadEnrichError | None = None
        self.syncs: int = 0
        """How many times the file was synced to disk (each sync covers a batch of lines)."""

    def read(self) -> bytes:
        """Every complete line, as any reader sees them: nothing is locked or changed."""
        held = holder(self.path) if hasattr(os, "pread") else None
        try:
            if held is not None:
                # Held by a run of this process: read through its descriptor, since closing
                # one of our own would lose the lock where flock is emulated (Linux NFS).
                return _complete(_read_all(held))
            with self.path.open("rb") as handle:
                return _complete(handle.read())
        except (FileNotFoundError, NotADirectoryError):
            return b""  # nothing there yet
        except OSError as exc:
            raise LeadEnrichError(f"checkpoint {self.path} cannot be read: {exc}") from None

    def take(self) -> bytes:
        """Hold the file for this run alone until `close`, cut a torn last line, and return
        every complete line.

        A file that cannot be opened for writing is read as a reader would, and `failure`
        says why: the run then starts no lead.
        """
        with self._owning:
            if self._closed:
                raise LeadEnrichError(f"checkpoint {self.path} was let go before the run began")
            refuse_if_held(self.path, self.name)
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                handle = self.path.open("a+b")
            except OSError as exc:
                self.failure = LeadEnrichError(f"checkpoint {self.path} cannot be written: {exc}")
                return self.read()
            try:
                self._lock = hold(handle.fileno(), self.name)
                complete = self._cut_torn(handle)
            except BaseException:
                self._let_go(handle)
                raise
            self._file = handle
            return complete

    def _cut_torn(self, handle: BinaryIO) -> bytes:
        try:
            handle.seek(0)
            raw = handle.read()
            complete = _complete(raw)
            if len(complete) != len(raw):
                # Torn by a killed run: cut, so that this run's first line starts afresh.
                handle.truncate(len(complete))
        except OSError as exc:
            raise LeadEnrichError(f"checkpoint {self.path} cannot be read: {exc}") from None
        return complete

    def append(self, line: str) -> Future[None]:
        written: Future[None] = Future()
        # Running from now on: a waiter cancelled (an abandoned task) cannot cancel it.
        written.set_running_or_notify_cancel()
        with self._cond:
            if self.failure is not None:
                written.set_exception(self.failure)
            elif self._file is None or self._closed:
                # A worker abandoned by a second Ctrl-C may end after its run let go of the
                # file, which another run may hold by now: its line is dropped, and the
                # next run looks its lead up as one that started without an answer.
                written.set_exception(LeadEnrichError(f"checkpoint {self.path} is not held by this run"))
            else:
                self._queue.append((line.encode(), written))
                if self._writer is None:
                    self._writer = threading.Thread(
                        target=self._drain, name="leadenrich-checkpoint", daemon=True
                    )
                    self._writer.start()
                self._cond.notify()
        return written

    def _drain(self) -> None:
        while True:
            with self._cond:
                while not self._queue and not self._closed:
                    self._cond.wait()
                if not self._queue:
                    return
                batch, self._queue = self._queue, []
            try:
                self._flush(line for line, _ in batch)
            except (OSError, ValueError) as exc:
                self._fail(batch, exc)
                continue
            for _, written in batch:
                written.set_result(None)

    def _flush(self, lines: Iterable[bytes]) -> None:
        assert self._file is not None
        self._file.writelines(lines)
        self._file.flush()
        (self._sync or os.fsync)(self._file.fileno())
        self.syncs += 1

    def _fail(self, batch: list[tuple[bytes, Future[None]]], exc: OSError | ValueError) -> None:
        error = LeadEnrichError(f"checkpoint {self.path} cannot be written: {exc}")
        with self._cond:
            self.failure = error
            batch, self._queue = batch + self._queue, []
        for _, written in batch:
            written.set_exception(error)

    def close(self) -> None:
        with self._owning:
            with self._cond:
                writer, self._writer = self._writer, None
                self._closed = True
                self._cond.notify()
            try:
                if writer is not None:
                    writer.join()
            finally:
                # Also after a Ctrl-C during the join (a notebook's interrupt as the run
                # closes): the lines not written yet are lost, as with a kill, but the file
                # is let go rather than held for the interpreter's life.
                if self._file is not None:
                    self._let_go(self._file)
                    self._file = None

    def _let_go(self, handle: BinaryIO) -> None:
        try:
            if self._lock is not None:
                let_go(handle.fileno(), self._lock)
                self._lock = None
            handle.close()
        except OSError as exc:
            self.failure = self.failure or LeadEnrichError(f"checkpoint {self.path} cannot be written: {exc}")
