"""A checkpoint's file: lines appended by one writer thread, each batch synced to disk.

A caller that must know a line is on disk (a start, a job id) waits for its batch while
the others go on, and an event loop never waits for the disk. A line once queued is
written whatever becomes of the caller waiting for it: a cancelled wait does not cancel
the line, and nothing a caller does stops the writer.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable
from concurrent.futures import Future
from pathlib import Path
from typing import TextIO

from .._errors import LeadEnrichError

__all__ = ["CheckpointFile"]


class CheckpointFile:
    """The journal of a checkpoint kept in a file (see `checkpoint.Journal`)."""

    def __init__(self, path: Path) -> None:
        self.path: Path = path
        self.name: str = str(path)
        self._cond = threading.Condition()
        self._queue: list[tuple[str, Future[None]]] = []
        self._writer: threading.Thread | None = None
        self._closing = False
        self._file: TextIO | None = None
        self.failure: LeadEnrichError | None = None
        self.syncs: int = 0
        """How many times the file was synced to disk (each sync covers a batch of lines)."""

    def read(self) -> bytes:
        """Every complete line; a torn last line (killed mid-write) is cut off the file."""
        try:
            if not self.path.exists():
                return b""
            raw = self.path.read_bytes()
            complete = raw[: raw.rfind(b"\n") + 1]
            if len(complete) != len(raw):
                # Cut the torn tail so the next append starts on a line of its own.
                with self.path.open("r+b") as handle:
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
                return written
            self._queue.append((line, written))
            if self._writer is None:
                self._closing = False
                self._writer = threading.Thread(target=self._drain, name="leadenrich-checkpoint", daemon=True)
                self._writer.start()
            self._cond.notify()
        return written

    def _drain(self) -> None:
        while True:
            with self._cond:
                while not self._queue and not self._closing:
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

    def _flush(self, lines: Iterable[str]) -> None:
        if self._file is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = self.path.open("a", encoding="utf-8")
        self._file.writelines(lines)
        self._file.flush()
        os.fsync(self._file.fileno())
        self.syncs += 1

    def _fail(self, batch: list[tuple[str, Future[None]]], exc: OSError | ValueError) -> None:
        error = LeadEnrichError(f"checkpoint {self.path} cannot be written: {exc}")
        with self._cond:
            self.failure = error
            batch, self._queue = batch + self._queue, []
        for _, written in batch:
            written.set_exception(error)

    def close(self) -> None:
        with self._cond:
            writer, self._writer = self._writer, None
            self._closing = True
            self._cond.notify()
        if writer is not None:
            writer.join()
        if self._file is not None:
            try:
                self._file.close()
            except OSError as exc:
                self.failure = self.failure or LeadEnrichError(
                    f"checkpoint {self.path} cannot be written: {exc}"
                )
            self._file = None
