"""The checkpoint's disk: the real checkpoint file (`CheckpointFile`: its queue, its writer
thread, its futures) on a real file, whose syncs the world decides.

The file's writer thread writes a batch of lines and asks to sync it; the sync parks
until the world says the disk has synced it, a moment later. Only one of the writer and
the process's loop runs at a time: a line appended waits for the writer to park with
its batch, and a batch synced waits for the writer to report it and park with the next
(or go idle), so the batches, and the order in which their lines are reported to the
loop, are the seed's alone. A kill truncates the file to what was synced (the lines
written since are lost, the first may be torn), and the writer's sync then fails.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import random
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from leadenrich._bulk.checkpoint_file import CheckpointFile
from leadenrich._errors import LeadEnrichError

from .clock import World
from .network import Process

__all__ = ["Disk", "FileJournal", "directory"]

_STALL = 120.0
"""Real seconds a handoff to the writer may take before the simulation calls it stuck
(generous: a machine under load may keep a thread waiting for seconds)."""


_SHM = "/dev/shm"
_PREFIX = "leadenrich-sim-"
_swept: set[int] = set()
"""The processes that swept the directories of dead ones."""


@contextlib.contextmanager
def directory() -> Iterator[str]:
    """A directory for one schedule's checkpoint, in memory where the OS offers it."""
    root = _SHM if os.path.isdir(_SHM) and os.access(_SHM, os.W_OK) else tempfile.gettempdir()
    if os.getpid() not in _swept:
        _swept.add(os.getpid())
        _sweep(root)
    where = tempfile.mkdtemp(prefix=f"{_PREFIX}{os.getpid()}-", dir=root)
    try:
        yield where
    finally:
        # What a schedule leaves there is its one file (a TemporaryDirectory's cleanup
        # costs a tenth of a millisecond more).
        with contextlib.suppress(FileNotFoundError):
            os.unlink(os.path.join(where, "run.jsonl"))
        os.rmdir(where)


def _sweep(root: str) -> None:
    """Remove the directories of processes ended mid-schedule (`--until-first` and the
    mutation gate terminate their workers at the first failure)."""
    for entry in os.scandir(root):
        pid = entry.name.removeprefix(_PREFIX).split("-")[0]
        if entry.name.startswith(_PREFIX) and pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(entry.path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class Disk:
    """The checkpoint file of a schedule, and how much of it is surely on disk."""

    def __init__(self, world: World, rng: random.Random, where: str) -> None:
        self.world = world
        self.rng = rng
        self.path = Path(where) / "run.jsonl"
        self.synced = 0
        """The bytes of the file a kill keeps."""

    def journal(self, process: Process, full_at: int | None = None) -> FileJournal:
        return FileJournal(self, process, full_at)

    def data(self) -> bytes:
        try:
            return self.path.read_bytes()
        except FileNotFoundError:
            return b""

    def settled(self) -> None:
        """The process is over: what its file holds stays (the OS writes it out)."""
        self.synced = len(self.data())

    def as_written_by_1_1(self) -> None:
        """Rewrite the complete lines as 1.1 wrote them: no line said whose the checkpoint is."""
        self._rewrite(lambda entry: None if entry.get("event") == "owner" else entry)

    def as_written_by_1_0(self) -> None:
        """Rewrite the complete lines as 1.0 wrote them: a `started` line did not say
        whether the lead was sent as a job, and no line said whose the checkpoint is, nor
        a job's id, nor a lost answer."""

        def as_1_0(entry: dict[str, Any]) -> dict[str, Any] | None:
            if entry.get("event") in ("owner", "job", "lost"):
                return None
            entry.pop("as_job", None)
            return entry

        self._rewrite(as_1_0)

    def _rewrite(self, line: Callable[[dict[str, Any]], dict[str, Any] | None]) -> None:
        """Each complete line as `line` makes it (None: left out); a torn end stays."""
        data = self.data()
        complete = data[: data.rfind(b"\n") + 1]
        lines: list[bytes] = []
        for raw in complete.splitlines():
            entry = line(json.loads(raw))
            if entry is not None:
                lines.append(json.dumps(entry, separators=(",", ":")).encode())
        self.path.write_bytes(b"".join(line + b"\n" for line in lines) + data[len(complete) :])
        self.settled()


class FileJournal(CheckpointFile):
    """A run's checkpoint journal: the real `CheckpointFile`, its syncs parked for the world.

    The disk fills up at the run's `full_at`-th line: the sync of the batch holding it
    fails (ENOSPC), and with it every later line, as the file's writer reports them.
    """

    def __init__(self, disk: Disk, process: Process, full_at: int | None = None) -> None:
        super().__init__(disk.path, sync=self._park)
        self.disk = disk
        self.process = process
        self._full_at = full_at
        self._turn = threading.Condition()
        self._parked = False
        """The writer waits in a sync for the world."""
        self._released = False
        self._verdict: OSError | None = None
        """Why the parked sync fails, once the world released it."""
        self._closing = False
        self._killed = False
        self._taken = False
        self._appended = 0
        self._batch: list[tuple[int, bytes, Future[None]]] = []
        """The lines of the batch parked in its sync: (number, bytes, future)."""
        self._queued: list[tuple[int, bytes, Future[None]]] = []
        """Lines appended while the writer is parked: its next batch."""
        self._landed = 0
        self._told = 0

    @property
    def held(self) -> bool:
        return self._taken

    def take(self) -> bytes:
        complete = super().take()
        self._taken = self.failure is None
        self.disk.synced = len(complete)  # a torn tail was cut
        return complete

    def append(self, line: str) -> Future[None]:
        if self._killed or not self._taken or self.failure is not None:
            # Refused by the file at once (not held, or failed), or a dead process's.
            if self._killed:
                refused: Future[None] = Future()
                refused.set_exception(LeadEnrichError(f"checkpoint {self.name} is not held by this run"))
                return refused
            return super().append(line)
        self._appended += 1
        with self._turn:
            # Appended while the writer cannot park: whether it was parked before the line
            # came is what says which batch the line is in.
            written = super().append(line)
            entry = (self._appended, line.encode(), written)
            if self._parked:
                self._queued.append(entry)
                return written
            # The writer wakes, takes the queue (this line alone) and parks in its sync.
            self._wait(lambda: self._parked or self.failure is not None)
            if self._parked:
                self._batch = [entry]
                self.disk.world.after(self.disk.rng.uniform(0.0005, 0.02), self._release)
        return written

    def _wait(self, ready: Any) -> None:
        waited = 0.0
        while not ready():
            if waited > _STALL:
                raise AssertionError("the checkpoint's writer thread did not answer")
            self._turn.wait(0.05)
            waited += 0.05

    def _park(self, fd: int) -> None:
        """The writer thread's fsync: parked until the world syncs the batch (or at once
        as the file is closed: its owner waits for the writer there)."""
        with self._turn:
            if not self._closing:
                self._parked = True
                self._turn.notify_all()
                while not self._released:
                    self._turn.wait()
                self._released = False
                self._parked = False
            verdict, self._verdict = self._verdict, None
            if verdict is None and self._closing and self._full():
                verdict = _full()
        if verdict is not None:
            if not self._killed:
                os.ftruncate(fd, self.disk.synced)  # the batch never reached the disk
            raise verdict
        self.disk.synced = os.fstat(fd).st_size

    def _full(self) -> bool:
        return self._full_at is not None and self._appended > self._full_at

    def _landing(self, _: Future[None]) -> None:
        with self._turn:
            self._landed += 1
            if self._landed == self._told:
                self._turn.notify_all()

    def _release(self, verdict: OSError | None = None) -> None:
        """The world's event: the disk synced the parked batch (or failed it)."""
        with self._turn:
            if not self._parked or self._released:
                return  # synced as the file was closed
            batch = self._batch
            if verdict is None and self._full_at is not None and batch[-1][0] > self._full_at:
                verdict = _full()
            # Counted after the runners' own callbacks (added before this one), so the loop
            # has been told of every line of the batch when the world goes on; a failed
            # sync fails the lines queued behind it too.
            told = batch + self._queued if verdict is not None else batch
            self._landed, self._told = 0, len(told)
            for _, _, written in told:
                written.add_done_callback(self._landing)
            self._verdict, self._released = verdict, True
            self._turn.notify_all()
            self._wait(lambda: self._landed == len(told))
            queued, self._batch, self._queued = self._queued, [], []
            if queued and self.failure is None:
                # It takes the lines appended meanwhile, writes them and parks again.
                self._wait(lambda: (self._parked and not self._released) or self.failure is not None)
                if self._parked:
                    self._batch = queued
                    self.disk.world.after(self.disk.rng.uniform(0.0005, 0.02), self._release)

    def close(self) -> None:
        with self._turn:
            self._closing = True
            if self._parked and not self._released:
                if self._full_at is not None and self._batch and self._batch[-1][0] > self._full_at:
                    self._verdict = _full()
                self._released = True
                self._turn.notify_all()
        super().close()
        self._taken = False

    def kill(self) -> None:
        """The process died: the lines not synced are lost, the first may be torn, and the
        writer's sync fails (what it reports goes nowhere now)."""
        self._killed = True
        with self._turn:
            if not self._parked or self._released:
                return
            batch = self._batch
        os.truncate(self.disk.path, self.disk.synced)
        if self.disk.rng.random() < 0.5:
            line = batch[0][1]
            with self.disk.path.open("ab") as handle:
                handle.write(line[: self.disk.rng.randint(1, len(line) - 1)])
        self._release(OSError(errno.EIO, "the process was killed"))


def _full() -> OSError:
    return OSError(errno.ENOSPC, "No space left on device")
