"""Waiting for jobs and lookups: terminal states, deadlines, back-off, slots, cancellation."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import httpx
import pytest
import respx

from leadenrich import (
    AsyncLeadEnrich,
    JobFailedError,
    JobOut,
    LeadDict,
    LeadEnrich,
    MobileFindOut,
    NotFoundError,
    PollTimeoutError,
    RateLimitError,
    RateLimits,
    ServiceClock,
)
from leadenrich.testing import ManualClock
from tests.conftest import BASE, KEY
from tests.helpers import call, job_out, lead_out

pytestmark = pytest.mark.anyio

LEAD: LeadDict = {"company": "Acme", "domain": "acme.com"}


def sequence(*bodies: dict[str, Any]) -> Any:
    """Answer each poll with the next body; the last one repeats."""
    remaining = list(bodies)

    def respond(request: httpx.Request) -> httpx.Response:
        body = remaining.pop(0) if len(remaining) > 1 else remaining[0]
        return httpx.Response(200, json=body)

    return respond


async def test_job_wait_returns_done(client: Any, api: respx.MockRouter, clock: ManualClock) -> None:
    route = api.get("/jobs/j").mock(
        side_effect=sequence(
            job_out("j", "queued"), job_out("j", "running"), job_out("j", "done", result=lead_out())
        )
    )
    job = await call(client.jobs.wait("j"))
    assert (job.status, route.call_count) == ("done", 3)
    assert clock.sleeps == [1.0, 1.5]


async def test_job_wait_returns_failed_without_raising(
    client: Any, api: respx.MockRouter, clock: ManualClock
) -> None:
    api.get("/jobs/j").mock(side_effect=sequence(job_out("j", "failed", error={"code": "no_data"})))
    job = await call(client.jobs.wait("j"))
    assert job.status == "failed"
    assert job.error == {"code": "no_data"}


async def test_interval_backs_off_to_a_ceiling(
    client: Any, api: respx.MockRouter, clock: ManualClock
) -> None:
    api.get("/jobs/j").mock(
        side_effect=sequence(*[job_out("j", "running")] * 7, job_out("j", "done", result=lead_out()))
    )
    await call(client.jobs.wait("j"))
    assert clock.sleeps == [1.0, 1.5, 2.25, 3.375, 5.0, 5.0, 5.0]


async def test_unknown_status_keeps_polling_until_the_deadline(
    client: Any, api: respx.MockRouter, clock: ManualClock
) -> None:
    route = api.get("/jobs/j").mock(side_effect=sequence(job_out("j", "paused")))
    start = clock.now()
    with pytest.raises(PollTimeoutError) as caught:
        await call(client.jobs.wait("j", timeout=30, poll_interval=1))
    assert clock.now() - start == pytest.approx(30.0)
    assert isinstance(caught.value.last, JobOut)
    assert caught.value.last.status == "paused"
    assert "enrichment job j was still paused after 30 s" in str(caught.value)
    assert route.call_count == len(clock.sleeps) + 1


async def test_vanished_job_raises_not_found(client: Any, api: respx.MockRouter, clock: ManualClock) -> None:
    api.get("/jobs/j").mock(
        side_effect=[
            httpx.Response(200, json=job_out("j", "running")),
            httpx.Response(404, json={"detail": "Job not found"}),
        ]
    )
    with pytest.raises(NotFoundError):
        await call(client.jobs.wait("j"))


async def test_a_429_during_a_wait_is_waited_out(
    client: Any, api: respx.MockRouter, clock: ManualClock
) -> None:
    limited = httpx.Response(
        429,
        json={"detail": "rate limit exceeded (60 req/min), retry in 20 seconds"},
        headers={"Retry-After": "20"},
    )
    api.get("/jobs/j").mock(
        side_effect=[
            httpx.Response(200, json=job_out("j", "running")),
            limited,
            limited,
            limited,
            limited,
            httpx.Response(200, json=job_out("j", "done", result=lead_out())),
        ]
    )
    job = await call(client.with_options(max_retries=1).jobs.wait("j", timeout=200))
    assert job.status == "done"
    assert sum(1 for s in clock.sleeps if s >= 20) == 4


async def test_a_429_past_the_deadline_ends_the_wait(
    client: Any, api: respx.MockRouter, clock: ManualClock
) -> None:
    api.get("/jobs/j").respond(429, json={"detail": "slow down"}, headers={"Retry-After": "50"})
    with pytest.raises(
        PollTimeoutError, match="asked for 50 s more \\(429\\), past the 10 s deadline"
    ) as caught:
        await call(client.with_options(max_retries=0).jobs.wait("j", timeout=10))
    # A timeout, not the 429: a RateLimitError would say "nothing was done, send again".
    assert isinstance(caught.value.__cause__, RateLimitError)
    assert clock.sleeps == []


async def test_enrich_and_wait_times_out_with_the_created_job(
    client: Any, api: respx.MockRouter, clock: ManualClock
) -> None:
    create = api.post("/leads/enrich").respond(202, json={"job_id": "j", "status": "queued"})
    api.get("/jobs/j").respond(429, json={"detail": "slow down"}, headers={"Retry-After": "500"})
    with pytest.raises(PollTimeoutError) as caught:
        await call(client.with_options(max_retries=0).leads.enrich_and_wait(LEAD, timeout=60))
    assert create.call_count == 1
    last = caught.value.last
    assert isinstance(last, JobOut)
    assert (last.job_id, last.status) == ("j", "queued")
    assert "enrichment job j was still queued" in str(caught.value)


async def test_on_progress_sees_every_poll(client: Any, api: respx.MockRouter, clock: ManualClock) -> None:
    api.get("/jobs/j").mock(
        side_effect=sequence(
            job_out("j", "queued"), job_out("j", "running"), job_out("j", "done", result=lead_out())
        )
    )
    seen: list[str] = []
    await call(client.jobs.wait("j", on_progress=lambda job: seen.append(job.status)))
    assert seen == ["queued", "running", "done"]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"timeout": 0}, "timeout must be"), ({"poll_interval": -1}, "poll_interval must be")],
)
async def test_bad_wait_settings_send_nothing(
    client: Any, api: respx.MockRouter, kwargs: dict[str, float], message: str
) -> None:
    route = api.route().respond(202, json={"job_id": "j"})
    with pytest.raises(ValueError, match=message):
        await call(client.leads.enrich_and_wait(LEAD, **kwargs))
    with pytest.raises(ValueError, match=message):
        await call(client.mobile.find_and_wait(linkedin_url="https://linkedin.com/in/a", **kwargs))
    assert route.call_count == 0


async def test_enrich_and_wait_returns_the_lead(
    client: Any, api: respx.MockRouter, clock: ManualClock
) -> None:
    create = api.post("/leads/enrich").respond(202, json={"job_id": "j7", "status": "queued"})
    api.get("/jobs/j7").mock(
        side_effect=sequence(job_out("j7", "running"), job_out("j7", "done", result=lead_out("ld_9")))
    )
    lead = await call(client.leads.enrich_and_wait(LEAD))
    assert lead.id == "ld_9"
    assert create.call_count == 1
    assert "mode" not in create.calls.last.request.url.params


async def test_enrich_and_wait_raises_job_failed(
    client: Any, api: respx.MockRouter, clock: ManualClock
) -> None:
    api.post("/leads/enrich").respond(202, json={"job_id": "j7"})
    api.get("/jobs/j7").respond(
        200, json=job_out("j7", "failed", error={"code": "enrichment_failed", "message": "no data"})
    )
    with pytest.raises(JobFailedError) as caught:
        await call(client.leads.enrich_and_wait(LEAD))
    assert caught.value.job.job_id == "j7"
    assert caught.value.job.error == {"code": "enrichment_failed", "message": "no data"}
    assert str(caught.value) == "enrichment job j7 failed: no data (enrichment_failed)"


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        ({"message": "no company data."}, "no company data"),
        ({"code": "timeout"}, '{"code": "timeout"}'),  # no message: the whole object
        (None, "no reason given"),
    ],
)
def test_a_failed_jobs_reason_is_its_message(error: dict[str, str] | None, reason: str) -> None:
    failed = JobFailedError(JobOut(job_id="j", status="failed", error=error))
    assert str(failed) == f"enrichment job j failed: {reason}"


async def test_enrich_and_wait_timeout_keeps_the_job(
    client: Any, api: respx.MockRouter, clock: ManualClock
) -> None:
    api.post("/leads/enrich").respond(202, json={"job_id": "j7"})
    api.get("/jobs/j7").respond(200, json=job_out("j7", "running"))
    with pytest.raises(PollTimeoutError) as caught:
        await call(client.leads.enrich_and_wait(LEAD, timeout=20))
    assert isinstance(caught.value.last, JobOut)
    assert caught.value.last.job_id == "j7"


async def test_mobile_wait_paths(client: Any, api: respx.MockRouter, clock: ManualClock) -> None:
    api.get("/mobile/find/m1").mock(
        side_effect=sequence(
            {"lookup_id": "m1", "state": "pending"},
            {"lookup_id": "m1", "state": "settled", "mobile": "+14155550100"},
        )
    )
    api.get("/mobile/find/m2").respond(200, json={"lookup_id": "m2", "state": "refunded"})
    settled = await call(client.mobile.wait("m1"))
    refunded = await call(client.mobile.wait("m2"))
    assert (settled.state, settled.mobile) == ("settled", "+14155550100")
    assert (refunded.state, refunded.mobile) == ("refunded", None)


async def test_mobile_find_and_wait(client: Any, api: respx.MockRouter, clock: ManualClock) -> None:
    find = api.post("/mobile/find").respond(202, json={"lookup_id": "m1", "state": "pending"})
    poll = api.get("/mobile/find/m1").mock(
        side_effect=sequence({"lookup_id": "m1", "state": "settled", "mobile": "+14155550100"})
    )
    result = await call(client.mobile.find_and_wait(first_name="Ada", last_name="L", domain="acme.com"))
    assert result.mobile == "+14155550100"
    assert find.call_count == 1
    # The lookup was just created pending: the first poll waits one interval for it.
    assert poll.call_count == 1
    assert clock.sleeps == [1.0]


async def test_mobile_wait_deadline(client: Any, api: respx.MockRouter, clock: ManualClock) -> None:
    api.get("/mobile/find/m1").respond(200, json={"lookup_id": "m1", "state": "pending"})
    with pytest.raises(PollTimeoutError, match="mobile lookup m1 was still pending after 15 s") as caught:
        await call(client.mobile.wait("m1", timeout=15))
    assert isinstance(caught.value.last, MobileFindOut)
    assert caught.value.last.state == "pending"


async def test_cancelling_an_async_wait_stops_polling(api: respx.MockRouter) -> None:
    third_poll = asyncio.Event()

    def respond(request: httpx.Request) -> httpx.Response:
        if route.call_count >= 3:
            third_poll.set()
        return httpx.Response(200, json=job_out("j", "running"))

    route = api.get("/jobs/j").mock(side_effect=respond)
    async with AsyncLeadEnrich(KEY, base_url=BASE, rate_limits=None) as client:
        task = asyncio.create_task(client.jobs.wait("j", poll_interval=0.01))
        await third_poll.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        polls = route.call_count
        # The subject: nothing happens after the cancel. Five poll intervals of quiet.
        await asyncio.sleep(0.05)
        assert route.call_count == polls, "polling went on after cancellation"


async def test_an_anyio_cancel_scope_stops_a_wait(api: respx.MockRouter) -> None:
    import anyio

    route = api.get("/jobs/j").respond(200, json=job_out("j", "running"))
    async with AsyncLeadEnrich(KEY, base_url=BASE, rate_limits=None) as client:
        with anyio.move_on_after(0.05) as scope:
            await client.jobs.wait("j", poll_interval=0.01)
        assert scope.cancelled_caught
        polls = route.call_count
        # The subject: nothing happens after the cancel. Five poll intervals of quiet.
        await anyio.sleep(0.05)
        assert route.call_count == polls


def test_slots_cap_enrichments_of_one_sync_client(api: respx.MockRouter) -> None:
    running = 0
    peak = 0
    lock = threading.Lock()
    release = threading.Event()

    def respond(request: httpx.Request) -> httpx.Response:
        nonlocal running, peak
        with lock:
            running += 1
            peak = max(peak, running)
        release.wait(0.05)
        with lock:
            running -= 1
        return httpx.Response(200, json=lead_out())

    api.post("/leads/enrich", params={"mode": "sync"}).mock(side_effect=respond)
    client = LeadEnrich(KEY, base_url=BASE, rate_limits=RateLimits(concurrent_enrichments=3))
    threads = [threading.Thread(target=client.leads.enrich_sync, args=(LEAD,)) for _ in range(9)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert peak == 3


async def test_slots_cap_enrich_and_wait_of_one_async_client(
    api: respx.MockRouter, clock: ManualClock
) -> None:
    active: set[str] = set()
    peak = 0
    counter = iter(range(100))

    def create(request: httpx.Request) -> httpx.Response:
        nonlocal peak
        job_id = f"j{next(counter)}"
        active.add(job_id)
        peak = max(peak, len(active))
        return httpx.Response(202, json={"job_id": job_id})

    polled: set[str] = set()

    def poll(request: httpx.Request) -> httpx.Response:
        job_id = request.url.path.rsplit("/", 1)[1]
        if job_id not in polled:
            polled.add(job_id)
            return httpx.Response(200, json=job_out(job_id, "running"))
        active.discard(job_id)
        return httpx.Response(200, json=job_out(job_id, "done", result=lead_out(job_id)))

    api.post("/leads/enrich").mock(side_effect=create)
    api.get(path__regex=r"/jobs/.+").mock(side_effect=poll)
    async with AsyncLeadEnrich(
        # A thousand times as fast as the service: eight jobs' waits for a slot and their
        # polls come in milliseconds (a ManualClock would be shared by all eight).
        KEY,
        base_url=BASE,
        rate_limits=RateLimits(concurrent_enrichments=2),
        clock=ServiceClock(0.001),
    ) as client:
        # The deadline is not the subject: a day of the service, 86 real seconds.
        waits = (client.leads.enrich_and_wait(LEAD, poll_interval=0.001, timeout=86_400) for _ in range(8))
        leads = await asyncio.gather(*waits)
    assert len({lead.id for lead in leads}) == 8
    assert peak == 2


async def test_waiting_for_a_slot_counts_against_the_deadline(
    api: respx.MockRouter, clock: ManualClock
) -> None:
    client = LeadEnrich(KEY, clock=clock, base_url=BASE, rate_limits=RateLimits(concurrent_enrichments=1))
    route = api.post("/leads/enrich").respond(202, json={"job_id": "j"})
    with client._enrichment_slot(None):  # another enrichment holds the only slot
        thread_error: list[BaseException] = []

        def run() -> None:
            try:
                client.leads.enrich_and_wait(LEAD, timeout=0.05)
            except BaseException as exc:
                thread_error.append(exc)

        worker = threading.Thread(target=run)
        worker.start()
        worker.join()
    assert route.call_count == 0
    assert isinstance(thread_error[0], PollTimeoutError)
    assert "nothing was sent" in str(thread_error[0])


async def test_an_explicit_poll_interval_does_not_grow(
    client: Any, api: respx.MockRouter, clock: ManualClock
) -> None:
    api.get("/jobs/j").mock(
        side_effect=sequence(*[job_out("j", "running")] * 7, job_out("j", "done", result=lead_out()))
    )
    await call(client.jobs.wait("j", poll_interval=2.0))
    assert clock.sleeps == [2.0] * 7
    pending = {"lookup_id": "m1", "state": "pending"}
    api.post("/mobile/find").respond(202, json=pending)
    api.get("/mobile/find/m1").mock(
        side_effect=sequence(
            pending, pending, {"lookup_id": "m1", "state": "settled", "mobile": "+14155550100"}
        )
    )
    clock.sleeps.clear()
    await call(client.mobile.find_and_wait(linkedin_url="https://linkedin.com/in/a", poll_interval=0.5))
    assert clock.sleeps == [0.5, 0.5, 0.5]
