"""A job created ahead of a free slot, against a mocked service: what a refusal does."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import respx

from leadenrich._bulk.queue_ahead import AHEAD, QueueAhead, places_ahead
from leadenrich._bulk.runner import prepare
from leadenrich._polling import DEFAULT_JOB_TIMEOUT
from tests.helpers import call, job_out, lead_out

pytestmark = pytest.mark.anyio

LEAD = {"company": "Acme", "domain": "acme.com"}
UPSTREAM = {"detail": "upstream_full: all enrichment workers are busy, retry in a few seconds"}
PER_KEY = {"detail": "rate limit exceeded (600 req/min), retry in 1 seconds"}


async def enrich_queued(client: Any, api: respx.MockRouter, refused: dict[str, str]) -> QueueAhead:
    """What the async strategy of a bulk run does for one lead, against a service that
    first refuses the job with a 429 of this body (Retry-After 1 s), then creates it.
    Returns the run's queue; the job was created on the second POST."""
    created = api.post("/leads/enrich").mock(
        side_effect=[
            httpx.Response(429, json=refused, headers={"Retry-After": "1"}),
            httpx.Response(202, json={"job_id": "j", "status": "queued"}),
        ]
    )
    api.get("/jobs/j").respond(200, json=job_out("j", "done", result=lead_out("ld_1")))
    ahead = QueueAhead(2)
    lead = await call(client.leads._enrich_and_wait(LEAD, DEFAULT_JOB_TIMEOUT, None, None, None, ahead=ahead))
    assert lead.id == "ld_1"
    assert created.call_count == 2
    return ahead


async def test_an_upstream_full_refusal_is_believed_at_once(
    client: Any, api: respx.MockRouter, sleeps: list[float]
) -> None:
    ahead = await enrich_queued(client, api, UPSTREAM)
    # Not retried after the ~2 s back-off: sent again at once, as a job with a slot.
    assert sleeps == [1.0], "the only wait is the one before the first look at the job"
    assert ahead.refused
    with ahead.place() as placed:
        assert not placed, "a job was to be created ahead after the service refused one"


async def test_a_per_key_429_is_waited_out_and_queueing_goes_on(
    client: Any, api: respx.MockRouter, sleeps: list[float]
) -> None:
    ahead = await enrich_queued(client, api, PER_KEY)
    assert 1.0 <= sleeps[0] <= 1.2
    assert not ahead.refused


def test_only_a_run_on_every_slot_of_the_platform_queues_jobs() -> None:
    assert places_ahead("async", 5, 5) == AHEAD
    assert places_ahead("async", 8, None) == AHEAD
    assert places_ahead("async", 4, 5) == 0  # a queued job would start beside its four
    assert places_ahead("async", 5, 4) == 0
    assert places_ahead("sync", 5, 5) == 0


def test_a_refusal_leaves_the_run_no_lead_beyond_its_concurrency() -> None:
    batch = prepare(
        [LEAD] * 3,
        concurrency=5,
        max_credits=None,
        checkpoint=None,
        progress=False,
        strategy="async",
        poll_interval=None,
        client_slots=5,
    )
    assert batch.ahead is not None
    assert batch.tasks == 5 + AHEAD
    batch.ahead.refuse()
    assert batch.tasks == 5
