"""Waits, pacing and back-off against the fake server, through both clients."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from leadenrich import JobOut, MobileFindOut, PollTimeoutError
from leadenrich.testing import FakeServer, async_client_for
from tests.helpers import MakeServer, call

from .conftest import PATIENT, Client, MakeClient

pytestmark = pytest.mark.anyio


async def test_100_rapid_calls_on_one_key_all_succeed(
    make_client: MakeClient, make_server: MakeServer
) -> None:
    # The spec's 60/min over a 0.3 s window. The client's pacing itself is checked
    # exactly on a ManualClock (test_pacing.py); here, where a busy machine may deliver a
    # request late enough to crowd the next window, what must hold is that no call is lost
    # or charged twice: every one ends in a 200, seen once by the server.
    server = make_server(time_scale=0.005)
    client = make_client(server)
    for _ in range(100):
        await call(client.usage())
    statuses = server.state.status_counts(server.api_key)
    assert statuses[200] == 100
    assert set(statuses) <= {200, 429}


async def test_a_wait_returns_a_failed_job_with_its_error(client: Client) -> None:
    created = await call(client.leads.enrich({"company": "Gone", "domain": "gone.fail"}))
    job = await call(client.jobs.wait(created.job_id, **PATIENT))
    assert job.status == "failed"
    assert job.error is not None
    assert job.error["code"]


async def test_a_wait_stops_at_its_deadline_with_the_last_state(
    make_client: MakeClient, make_server: MakeServer
) -> None:
    server = make_server(enrichment_seconds=(1000.0, 1000.0))  # outlasts the test
    client = make_client(server)
    created = await call(client.leads.enrich({"company": "Slow", "domain": "slow.com"}))
    with pytest.raises(PollTimeoutError) as raised:
        await call(client.jobs.wait(created.job_id, timeout=10))
    last = raised.value.last
    assert isinstance(last, JobOut)
    assert last.job_id == created.job_id
    assert last.status in ("queued", "running")


@pytest.mark.parametrize(("last_name", "state"), [("Lovelace", "settled"), ("Landline", "refunded")])
async def test_a_lookup_wait_ends_settled_or_refunded(
    client: Client, server: FakeServer, last_name: str, state: str
) -> None:
    lookup = await call(
        client.mobile.find_and_wait(first_name="Ada", last_name=last_name, domain="acme.com", **PATIENT)
    )
    assert isinstance(lookup, MobileFindOut)
    assert lookup.state == state
    assert (lookup.mobile is not None) == (state == "settled")
    assert server.state.charged("mobile") == (1 if state == "settled" else 0)


async def test_on_progress_sees_the_job_move(client: Client) -> None:
    seen: list[str] = []
    created = await call(client.leads.enrich({"company": "Acme", "domain": "acme.com"}))
    await call(client.jobs.wait(created.job_id, on_progress=lambda job: seen.append(job.status), **PATIENT))
    assert seen[-1] == "done"
    assert set(seen) <= {"queued", "running", "done"}


async def test_cancelling_an_async_wait_stops_its_polls(make_server: MakeServer) -> None:
    server = make_server(enrichment_seconds=(1000.0, 1000.0))
    async with async_client_for(server) as client:
        created = await client.leads.enrich({"company": "Slow", "domain": "slow.com"})
        polled: list[JobOut] = []
        second_poll = asyncio.Event()

        def seen(job: JobOut) -> None:
            polled.append(job)
            if len(polled) >= 2:
                second_poll.set()

        task = asyncio.create_task(client.jobs.wait(created.job_id, on_progress=seen))
        await second_poll.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        polls = sum(1 for r in server.state.requests() if r.path.startswith("/api/v1/jobs/"))
        # The subject: nothing happens after the cancel. Quiet for more than 5 s of the
        # service (0.05 s here), where the wait polled every 1-5 s of it.
        await asyncio.sleep(0.05)
        assert sum(1 for r in server.state.requests() if r.path.startswith("/api/v1/jobs/")) == polls
        assert polls >= 2


def test_upstream_full_is_waited_out_not_raised(make_server: MakeServer) -> None:
    # Another account holds every platform slot for a moment; the client, on the server's
    # clock, backs off and gets through once a slot frees, charged once.
    from leadenrich import LeadEnrich

    # The other enrichment holds the slot 1 s (real): the client's first try surely meets
    # it, and its 20 back-offs of ~2 s (0.1 s each here) outlast it.
    server = make_server(max_concurrent_enrichments=1, enrichment_seconds=(20.0, 20.0), time_scale=0.05)
    other = httpx.post(
        server.api_url + "/leads/enrich",
        json={"lead": {"company": "Other", "domain": "other.com"}},
        headers={"Authorization": f"Bearer {server.add_key()}"},
    )
    assert other.status_code == 202
    assert server.state.wait_until(lambda: server.state.in_flight == 1)  # it left `queued`
    with LeadEnrich(
        api_key=server.api_key, base_url=server.url, rate_limits=None, clock=server.clock
    ) as client:
        lead = client.leads.enrich_sync({"company": "Acme", "domain": "acme.com"})
    statuses = server.state.status_counts(server.api_key)
    assert lead.input.company == "Acme"
    assert statuses[429] >= 1
    assert statuses[200] == 1
    assert server.state.charged("enrichment", key=server.api_key) == 1
