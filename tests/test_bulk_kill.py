"""kill -9 at any point of a bulk run, then a rerun with the same checkpoint: nothing is
charged twice, and every lead the checkpoint knows a server id for is recovered from
it (its job polled, its record taken) rather than sent again.

The run to kill is a process of its own (tests/bulk_worker.py) against a fake server
this test starts, on the server's clock through LEADENRICH_TIME_SCALE. The test waits
until the checkpoint shows the point to kill at, re-checking at every change of the
server's state (the worker's next request follows soon after each line), and sends
SIGKILL. The rerun is in this process, on either client.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import pytest

from leadenrich import AsyncLeadEnrich, BulkResult, LeadIn
from leadenrich._bulk.checkpoint import fingerprint
from leadenrich.testing import FakeServer
from tests.bulk_worker import rows
from tests.helpers import MakeServer, call, scaled_client

pytestmark = pytest.mark.anyio

SCALE = 0.005
"""Enrichments of 20-40 API seconds take 0.1-0.2 s: long enough to kill the run mid-way."""
LEADS = 15
WORKER = Path(__file__).with_name("bulk_worker.py")
ENRICH = "/api/v1/leads/enrich"

Point = Callable[[Counter[str]], bool]
"""When to kill, from the checkpoint's count of each event."""
POINTS: dict[str, dict[str, Point]] = {
    # Jobs: after the first job id, with half of them recorded, and once every lead has
    # its job while the last ones still run.
    "async": {
        "first": lambda seen: seen["job"] >= 1,
        "middle": lambda seen: seen["job"] >= LEADS // 2,
        "tail": lambda seen: seen["job"] == LEADS and seen["finished"] < LEADS,
    },
    # Sync enrichments: after the first lead id, with half of them recorded, and once
    # every lead has been sent while the last ones still run.
    "sync": {
        "first": lambda seen: seen["finished"] >= 1,
        "middle": lambda seen: seen["finished"] >= LEADS // 2,
        "tail": lambda seen: seen["started"] == LEADS and seen["finished"] < LEADS,
    },
}


def entries(path: Path) -> list[dict[str, Any]]:
    """The checkpoint's complete lines (a line torn by the kill is left out)."""
    if not path.exists():
        return []
    text = path.read_text(encoding="utf-8")
    return [json.loads(line) for line in text[: text.rfind("\n") + 1].splitlines()]


def start_worker(
    server: FakeServer, path: Path, strategy: str, *, concurrency: int | None = None
) -> subprocess.Popen[bytes]:
    """A bulk run of LEADS leads in a worker process, on the server's clock."""
    env = {
        **os.environ,
        "LEADENRICH_API_KEY": server.api_key,
        "LEADENRICH_BASE_URL": server.url,
        "LEADENRICH_TIME_SCALE": str(SCALE),
    }
    env.pop("LEADENRICH_LOG", None)
    arguments = [str(path), strategy, str(LEADS), *([str(concurrency)] if concurrency else [])]
    return subprocess.Popen([sys.executable, str(WORKER), *arguments], env=env)


def run_and_kill(
    server: FakeServer, path: Path, strategy: str, point: Point, *, concurrency: int | None = None
) -> None:
    """Start a bulk run in a worker process and SIGKILL it at `point`."""
    worker = start_worker(server, path, strategy, concurrency=concurrency)
    try:
        reached = server.state.wait_until(
            lambda: worker.poll() is not None or point(Counter(e["event"] for e in entries(path))),
            timeout=60,
        )
        assert reached, "the run never reached the point to kill it at"
        assert worker.poll() is None, f"the run ended (exit code {worker.returncode}) before it was killed"
        worker.send_signal(signal.SIGKILL)
    finally:
        worker.kill()
        worker.wait(timeout=60)
    assert worker.returncode == -signal.SIGKILL


def recorded(path: Path, what: Literal["job", "lead"]) -> dict[int, str]:
    """Row -> the server id the checkpoint holds for it: its job's, or its stored record's."""
    row = {fingerprint(LeadIn.model_validate(lead)): index for index, lead in enumerate(rows(LEADS))}
    ids: dict[int, str] = {}
    for entry in entries(path):
        if what == "job" and entry["event"] == "job":
            ids[row[entry["key"]]] = entry["job_id"]
        elif what == "lead" and entry["event"] == "finished" and entry.get("lead") is not None:
            ids[row[entry["key"]]] = entry["lead"]["id"]
    return ids


async def rerun(kind: str, server: FakeServer, path: Path, strategy: str) -> tuple[BulkResult, str]:
    """The rerun's result, and its key: the same account's, but a key of its own, so that
    the rerun's requests can be told from the killed run's."""
    key = server.add_key(user=server.user_of(server.api_key))
    client = scaled_client(kind, server, key=key)
    try:
        result: BulkResult = await call(
            client.leads.enrich_many(rows(LEADS), strategy=strategy, checkpoint=path, progress=False)
        )
    finally:
        await call(client.aclose() if isinstance(client, AsyncLeadEnrich) else client.close())
    return result, key


def assert_each_lead_charged_once(server: FakeServer, result: BulkResult, key: str) -> None:
    assert len(result) == LEADS, "a row has no outcome"
    assert [o.status for o in result] == ["enriched"] * LEADS
    stored = Counter(fingerprint(lead.input) for lead in server.state.leads())
    assert set(stored.values()) == {1}, "a lead was enriched (and charged) twice"
    assert len(stored) == LEADS
    assert server.state.charged("enrichment") == LEADS
    # The rerun sent only the leads it did not recover: a lead the killed run had sent
    # was either found (its job, its record) or, cut short with the run, never charged.
    # (A 429 is refused before any work: the killed run's enrichments may still hold the
    # platform's slots when the rerun starts.)
    sent = [r for r in server.state.requests() if r.key == key and r.method == "POST" and r.path == ENRICH]
    assert sum(1 for r in sent if r.status_code != 429) == sum(1 for o in result if not o.resumed)


@pytest.mark.parametrize("kind", ["sync", "async"])
@pytest.mark.parametrize("point", ["first", "middle", "tail"])
@pytest.mark.parametrize("strategy", ["async", "sync"])
async def test_a_killed_run_is_finished_from_what_its_checkpoint_recorded(
    make_server: MakeServer, tmp_path: Path, strategy: str, point: str, kind: str
) -> None:
    """`kind`: the rerun's client."""
    server = make_server(time_scale=SCALE, enrichment_seconds=(20.0, 40.0))
    path = tmp_path / "run.jsonl"
    run_and_kill(server, path, strategy, POINTS[strategy][point])
    ids = recorded(path, "job" if strategy == "async" else "lead")
    assert ids, "no server id was on disk when the run was killed"
    done = recorded(path, "lead")

    result, key = await rerun(kind, server, path, strategy)
    assert_each_lead_charged_once(server, result, key)
    for row, known in ids.items():
        outcome = result.outcomes[row]
        assert outcome.lead is not None
        assert outcome.resumed, f"row {row}: {known} was on disk, yet the lead was sent again"
        # Its record from the checkpoint when it was there, or else the recorded job's.
        assert (outcome.lead.id if row in done else outcome.job_id) == done.get(row, known)
    if strategy == "async":
        polled = {
            r.path.rsplit("/", 1)[1] for r in server.state.requests() if r.key == key and "/jobs/" in r.path
        }
        unfinished = {job_id for row, job_id in ids.items() if row not in done}
        assert unfinished <= polled, "a recorded job still running was not polled"


@pytest.mark.parametrize("kind", ["sync", "async"])
async def test_leads_that_waited_for_a_slot_after_they_started_are_not_charged_twice(
    make_server: MakeServer, tmp_path: Path, kind: str
) -> None:
    # 15 leads on 5 slots: a lead's "started" line is written when its turn comes, and its
    # request leaves when a slot frees, up to two 40 s enrichments later. Killed as the
    # third wave is running, the rerun must not take the first line's time for when they
    # reached the service: looked up 100 s after it, they were still being enriched, were
    # not found, and were sent and charged again.
    server = make_server(time_scale=SCALE, enrichment_seconds=(40.0, 40.0))
    path = tmp_path / "run.jsonl"
    third_wave = 2 * server.rate_limits.concurrent_enrichments

    def third_wave_running(seen: Counter[str]) -> bool:
        return seen["finished"] >= third_wave and server.state.in_flight > 0

    run_and_kill(server, path, "sync", third_wave_running, concurrency=LEADS)
    result, key = await rerun(kind, server, path, "sync")
    assert_each_lead_charged_once(server, result, key)
    assert sum(o.resumed for o in result) >= third_wave + 1, "the third wave was sent again"
