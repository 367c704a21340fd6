"""The async strategy keeps jobs queued at the service behind its running ones, both clients.

The enrichments here take 100 API seconds (0.5 s at the default scale), so the jobs a run
creates at its start are all created long before the first of them can finish.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from leadenrich import JobOut, RateLimits
from leadenrich._bulk.queue_ahead import AHEAD, PLATFORM_SLOTS
from leadenrich.testing import FakeServer
from tests.helpers import MakeServer, call
from tests.test_bulk_recorded import stop_after_first

from .conftest import MakeClient

pytestmark = pytest.mark.anyio

LONG = {"enrichment_seconds": (100.0, 100.0)}


def rows(count: int) -> list[dict[str, str]]:
    return [{"company": f"Co {i}", "domain": f"co{i}.com"} for i in range(count)]


def most_outstanding(jobs: list[JobOut]) -> int:
    """The most jobs that were created and not finished yet, counted as each was created."""
    return max(
        sum(
            1
            for other in jobs
            if other.created_at is not None
            and other.created_at <= job.created_at
            and (other.finished_at is None or other.finished_at > job.created_at)
        )
        for job in jobs
        if job.created_at is not None
    )


def jobs_of(server: FakeServer) -> list[JobOut]:
    return server.state.jobs(user=server.user_of(server.api_key))


def assert_each_lead_enriched_once(server: FakeServer, result: Any, count: int) -> None:
    assert [outcome.status for outcome in result] == ["enriched"] * count
    assert len({outcome.lead.id for outcome in result}) == count
    assert server.state.charged("enrichment", key=server.api_key) == count
    assert server.state.peak_in_flight <= PLATFORM_SLOTS


async def test_two_jobs_wait_queued_behind_the_five_running(
    make_client: MakeClient, make_server: MakeServer
) -> None:
    server = make_server(**LONG)
    client = make_client(server)
    result = await call(client.leads.enrich_many(rows(7), strategy="async", progress=False))
    assert_each_lead_enriched_once(server, result, 7)
    assert most_outstanding(jobs_of(server)) == PLATFORM_SLOTS + AHEAD > PLATFORM_SLOTS
    assert 429 not in server.state.status_counts(server.api_key)


@pytest.mark.parametrize(
    "options", [{"concurrency": 4}, {"rate_limits": RateLimits(concurrent_enrichments=4)}], ids=str
)
async def test_a_run_on_fewer_slots_creates_a_job_only_with_one_free(
    make_client: MakeClient, make_server: MakeServer, options: dict[str, Any]
) -> None:
    server = make_server(**LONG)
    client = make_client(server, **{k: v for k, v in options.items() if k == "rate_limits"})
    concurrency = options.get("concurrency", 5)
    result = await call(
        client.leads.enrich_many(rows(5), strategy="async", concurrency=concurrency, progress=False)
    )
    assert_each_lead_enriched_once(server, result, 5)
    assert most_outstanding(jobs_of(server)) == 4


async def test_a_service_that_refuses_queued_jobs_enriches_every_lead_once(
    make_client: MakeClient, make_server: MakeServer
) -> None:
    server = make_server(job_admission="upstream_full")
    client = make_client(server)
    result = await call(client.leads.enrich_many(rows(12), strategy="async", progress=False))
    assert_each_lead_enriched_once(server, result, 12)


async def test_jobs_queued_when_the_run_stops_are_polled_to_their_end_not_sent_again(
    make_client: MakeClient, make_server: MakeServer, tmp_path: Path
) -> None:
    server = make_server(**LONG)
    path = tmp_path / "run.jsonl"
    client = make_client(server)
    await stop_after_first(client, rows(10), strategy="async", checkpoint=path)
    created = jobs_of(server)
    assert len(created) > PLATFORM_SLOTS, "no job was queued when the run stopped"
    assert all(job.status == "done" for job in created)
    finished = [json.loads(line) for line in path.read_text().splitlines()]
    written = {
        entry["lead"]["id"] for entry in finished if entry.get("event") == "finished" and "lead" in entry
    }
    assert written == {job.result.id for job in created if job.result is not None}

    again = await call(client.leads.enrich_many(rows(10), strategy="async", checkpoint=path, progress=False))
    assert sum(outcome.resumed for outcome in again) == len(created)
    assert_each_lead_enriched_once(server, again, 10)
    assert len(jobs_of(server)) == 10
