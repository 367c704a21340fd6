"""Every wait helper ends by its deadline, whatever the service asks it to wait.

The service answers 429 with `Retry-After: 60` (the spec's longest per-key wait) and the
client's per-key budget is spent: before, a `wait(timeout=5)` slept out both and ended
about two minutes later. On a ManualClock, time moves only by what the SDK sleeps, so the
clock's reading is exactly how long the wait took.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest
import respx

from leadenrich import AsyncLeadEnrich, LeadEnrich, PollTimeoutError, RateLimitError, RateLimits
from leadenrich.testing import ManualClock
from tests.conftest import BASE, KEY
from tests.helpers import call, job_out

pytestmark = pytest.mark.anyio

TIMEOUT = 5.0
LEAD = {"company": "Acme", "domain": "acme.com"}
PERSON = {"linkedin_url": "https://www.linkedin.com/in/ada"}
RETRY_LATER = {"detail": "rate limit exceeded (60 req/min), retry in 60 seconds"}

WAITS: dict[str, Callable[[Any], Any]] = {
    "jobs.wait": lambda client: client.jobs.wait("job_1", timeout=TIMEOUT),
    "mobile.wait": lambda client: client.mobile.wait("mob_1", timeout=TIMEOUT),
    "leads.enrich_and_wait": lambda client: client.leads.enrich_and_wait(LEAD, timeout=TIMEOUT),
    "mobile.find_and_wait": lambda client: client.mobile.find_and_wait(**PERSON, timeout=TIMEOUT),
}


@pytest.fixture(params=["sync", "async"])
async def make_client(
    request: pytest.FixtureRequest, clock: ManualClock
) -> AsyncIterator[Callable[..., Any]]:
    made: list[Any] = []

    def make(**options: Any) -> Any:
        cls = LeadEnrich if request.param == "sync" else AsyncLeadEnrich
        client = cls(KEY, base_url=BASE, clock=clock, **options)
        made.append(client)
        return client

    yield make
    for client in made:
        await call(client.close() if isinstance(client, LeadEnrich) else client.aclose())


def pending_everywhere(api: respx.MockRouter) -> None:
    """Everything accepted, nothing ever finished."""
    api.post("/leads/enrich").respond(202, json={"job_id": "job_1", "status": "queued"})
    api.get("/jobs/job_1").respond(200, json=job_out("job_1", "running"))
    api.post("/mobile/find").respond(202, json={"lookup_id": "mob_1", "state": "pending"})
    api.get("/mobile/find/mob_1").respond(200, json={"lookup_id": "mob_1", "state": "pending"})


@pytest.mark.parametrize("helper", sorted(WAITS))
async def test_a_retry_after_past_the_deadline_ends_the_wait_at_its_deadline(
    api: respx.MockRouter, clock: ManualClock, make_client: Callable[..., Any], helper: str
) -> None:
    pending_everywhere(api)
    api.get("/jobs/job_1").respond(429, json=RETRY_LATER, headers={"Retry-After": "60"})
    api.get("/mobile/find/mob_1").respond(429, json=RETRY_LATER, headers={"Retry-After": "60"})
    client = make_client(rate_limits=None)
    start = clock.now()
    with pytest.raises(PollTimeoutError) as raised:
        await call(WAITS[helper](client))
    assert clock.now() - start <= TIMEOUT
    assert all(wait < 60 for wait in clock.sleeps), "no Retry-After wait was started"
    assert "deadline" in str(raised.value)
    assert isinstance(raised.value.__cause__, RateLimitError)


@pytest.mark.parametrize("helper", sorted(WAITS))
async def test_a_spent_budget_ends_the_wait_at_its_deadline(
    api: respx.MockRouter, clock: ManualClock, make_client: Callable[..., Any], helper: str
) -> None:
    pending_everywhere(api)
    # One request a minute, and it was just spent: the next one may leave in 60 s.
    client = make_client(rate_limits=RateLimits(sync_per_minute=1, async_per_minute=1))
    await call(client.leads.enrich(LEAD))  # the async-creation budget
    await call(client.mobile.find(**PERSON))  # the budget of every other call
    start = clock.now()
    with pytest.raises(PollTimeoutError) as raised:
        await call(WAITS[helper](client))
    assert clock.now() - start <= TIMEOUT
    assert "per-key budget" in str(raised.value)
    routes_sent = sum(route.call_count for route in api.routes)
    assert routes_sent == 2, "only the two requests that spent the budget were sent"


async def test_a_wait_with_time_enough_waits_a_retry_after_out(
    api: respx.MockRouter, clock: ManualClock, make_client: Callable[..., Any]
) -> None:
    api.get("/jobs/job_1").mock(
        side_effect=[
            httpx.Response(429, json=RETRY_LATER, headers={"Retry-After": "60"}),
            httpx.Response(200, json=job_out("job_1", "done")),
        ]
    )
    client = make_client(rate_limits=None)
    job = await call(client.jobs.wait("job_1", timeout=300))
    assert job.status == "done"
    assert any(60 <= wait <= 61 for wait in clock.sleeps)
