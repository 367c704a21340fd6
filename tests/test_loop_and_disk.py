"""The async client never reads or writes a checkpoint on the event loop: with a 40 MB
checkpoint, `preview_many` and `enrich_many` leave the loop free for other tasks.

What is measured is the CPU time the loop's own thread spends between two beats of a
heartbeat task, not how late the beats are: on a machine whose cores are busy with other
work, a beat is late whenever the OS runs something else, and whenever the thread reading
the file holds the GIL (which Python hands over every few milliseconds), neither of which
is the loop being blocked. Reading and parsing 40 MB on the loop is hundreds of
milliseconds of the loop thread's own CPU between two beats, however loaded the machine.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import pytest

from leadenrich import AsyncLeadEnrich, LeadIn
from leadenrich._bulk.checkpoint import fingerprint
from leadenrich.testing import FakeServer
from tests.helpers import lead_out, scaled_client

pytestmark = pytest.mark.anyio

SIZE = 40 * 1024 * 1024
BLOCKED = 0.050
"""The most CPU time the loop's thread may spend between two beats."""
ROWS = [{"company": f"Row {n}", "domain": f"row{n}.com"} for n in range(20)]


def big_checkpoint(path: Path) -> int:
    """A checkpoint of at least SIZE bytes: an earlier run's leads, each finished with its
    record (a long rationale: lines of about 10 KB), and the first half of ROWS among
    them. Returns how many rows of ROWS it has finished."""
    rationale = "Hiring, funded and on AWS. " * 370
    done = ROWS[: len(ROWS) // 2]
    lines: list[str] = []
    size, n = 0, 0
    while size < SIZE:
        given = done[n] if n < len(done) else {"company": f"Earlier {n}", "domain": f"earlier{n}.com"}
        record = lead_out(f"ld_{n}", input=given)
        record["enrichment"]["score_rationale"] = rationale
        entry = {"event": "finished", "key": fingerprint(LeadIn.model_validate(given)), "index": n}
        line = json.dumps({**entry, "status": "enriched", "at": "2026-11-22T10:00:00+00:00", "lead": record})
        lines.append(line + "\n")
        size += len(line) + 1
        n += 1
    path.write_text("".join(lines), encoding="utf-8")
    return len(done)


async def longest_stretch_on_the_loop(work: Awaitable[Any]) -> tuple[Any, float, int]:
    """Await `work` beside a heartbeat; returns its result, the most CPU time the loop's
    thread spent between two beats, and how many beats there were."""
    beats: list[float] = []
    stop = asyncio.Event()

    async def heartbeat() -> None:
        while not stop.is_set():
            beats.append(time.thread_time())
            await asyncio.sleep(0.002)

    beating = asyncio.ensure_future(heartbeat())
    await asyncio.sleep(0)
    try:
        result = await work
    finally:
        stop.set()
        await beating
    beats.append(time.thread_time())
    return result, max(b - a for a, b in itertools.pairwise(beats)), len(beats)


@pytest.mark.parametrize("method", ["preview_many", "enrich_many"])
async def test_a_40_mb_checkpoint_is_read_off_the_event_loop(
    server: FakeServer, tmp_path: Path, method: str
) -> None:
    path = tmp_path / "big.jsonl"
    done = big_checkpoint(path)
    assert path.stat().st_size >= SIZE
    client: AsyncLeadEnrich = scaled_client("async", server)
    # What a first call loads (the bulk modules, the models) is not what is measured.
    await client.leads.enrich_many(ROWS[:1], max_credits=0, progress=False)
    await client.leads.preview_many(ROWS[:1], progress=False)
    if method == "preview_many":
        work = client.leads.preview_many(ROWS, checkpoint=path, progress=False)
    else:  # sends nothing: no credit to spend
        work = client.leads.enrich_many(ROWS, checkpoint=path, max_credits=0, progress=False)
    result, stretch, beats = await longest_stretch_on_the_loop(work)
    await client.aclose()
    if method == "preview_many":
        assert result.in_checkpoint == done
    else:
        assert sum(o.resumed for o in result) == done
    assert stretch <= BLOCKED, f"the event loop's thread worked {stretch * 1000:.0f} ms between two beats"
    assert beats > 10, "the heartbeat did not run while the checkpoint was read"
