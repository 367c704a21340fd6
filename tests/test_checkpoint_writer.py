"""The checkpoint's writer thread outlives every cancellation of an async run, and writes
every line queued before the stop.

A second cancellation abandons the leads in flight: their tasks are cancelled where they
wait, some of them for a checkpoint line to reach the disk. That line is on its way all
the same, and must land, as must the lines queued behind it. Cancelling the wait used to
cancel the line's future too: the writer then died setting its result
(`InvalidStateError`), and every line queued after it was lost.

The disk is slowed at one sync of the run, so that both cancellations land while lines
wait for it, and this is done at each sync of the run in turn.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
from pathlib import Path
from typing import Any

import pytest

from leadenrich import AsyncLeadEnrich
from leadenrich._bulk.checkpoint import Checkpoint
from leadenrich._bulk.options import Strategy
from leadenrich.testing import FakeServer
from tests.helpers import scaled_client

pytestmark = pytest.mark.anyio

SCALE = 0.002
"""Enrichments of 20-40 API seconds take 40-80 ms."""
LEADS = 6
MOST_SYNCS = 40
"""More than a run of LEADS leads makes (a line a sync at worst: 6 starts, 6 job ids, 6 ends)."""
WRITER = "leadenrich-checkpoint"
_fsync = os.fsync


class SlowDisk:
    """`os.fsync` that holds the checkpoint writer's `at`-th sync until `release()`;
    made on the test's event loop."""

    def __init__(self, at: int) -> None:
        self.at = at
        self.syncs = 0
        self._loop = asyncio.get_running_loop()
        self._reached = asyncio.Event()
        self._gate = threading.Event()

    def __call__(self, fd: int) -> None:
        if threading.current_thread().name == WRITER:
            self.syncs += 1
            if self.syncs == self.at:
                self._loop.call_soon_threadsafe(self._reached.set)
                self._gate.wait(timeout=60)
        _fsync(fd)

    async def reached(self, run: asyncio.Future[Any]) -> bool:
        """Whether the held sync came (True) or `run` ended first."""
        reached = asyncio.ensure_future(self._reached.wait())
        await asyncio.wait({run, reached}, return_when=asyncio.FIRST_COMPLETED)
        reached.cancel()
        return self._reached.is_set()

    def release(self) -> None:
        self._gate.set()


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


async def cancelled_twice_at(
    client: AsyncLeadEnrich, path: Path, at: int, strategy: Strategy, monkeypatch: pytest.MonkeyPatch
) -> bool:
    """Run, cancel twice while the writer's `at`-th sync is held, then let it go; check
    the writer. False when the run ended before that sync."""
    queued: list[dict[str, Any]] = []
    write = Checkpoint._write  # pyright: ignore[reportPrivateUsage]

    def recorded(self: Checkpoint, entry: dict[str, Any]) -> Any:
        queued.append(entry)
        return write(self, entry)

    died: list[threading.ExceptHookArgs] = []
    disk = SlowDisk(at)
    monkeypatch.setattr(Checkpoint, "_write", recorded)
    monkeypatch.setattr(os, "fsync", disk)
    monkeypatch.setattr(threading, "excepthook", died.append)
    run = asyncio.ensure_future(
        client.leads.enrich_many(
            [{"company": f"Co {n}", "domain": f"co{n}.com"} for n in range(LEADS)],
            concurrency=3,
            strategy=strategy,
            checkpoint=path,
            progress=False,
        )
    )
    try:
        if not await disk.reached(run):
            run.result()
            return False
        run.cancel()
        # The first cancellation is taken in at the run's next step: it then waits for
        # its leads in flight to finish. The second abandons them.
        for _ in range(5):
            await asyncio.sleep(0)
        assert not run.done()
        run.cancel()
        for _ in range(5):
            await asyncio.sleep(0)
    finally:
        disk.release()
    with pytest.raises(asyncio.CancelledError):
        await run
    assert not died, f"the checkpoint writer died at sync {at}: {died[0].exc_value!r}"
    assert lines(path) == queued, f"lines queued before the stop at sync {at} were not written"
    return True


@pytest.mark.parametrize("strategy", ["sync", "async"])
async def test_two_cancellations_at_any_sync_leave_the_writer_alive_and_every_line_written(
    strategy: Strategy, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeServer(time_scale=SCALE) as server:
        client = scaled_client("async", server)
        try:
            at = 1
            while await cancelled_twice_at(client, tmp_path / f"run{at}.jsonl", at, strategy, monkeypatch):
                at += 1
                assert at < MOST_SYNCS
        finally:
            await client.aclose()
    assert at > 3, "the run made too few syncs to be cancelled at several"
