"""Enrichment through both clients: async jobs, sync mode, failures, dedupe, callbacks."""

from __future__ import annotations

import time
from datetime import datetime

import pytest

from leadenrich import (
    EnrichJobCreated,
    InternalServerError,
    JobFailedError,
    JobOut,
    LeadIn,
    LeadOut,
    UnprocessableEntityError,
)
from leadenrich.testing import FakeServer
from leadenrich.webhooks import parse_event
from tests.helpers import MakeServer, call

from .conftest import PATIENT, Client, MakeClient

pytestmark = pytest.mark.anyio

ACME = {"company": "Acme", "domain": "acme.com", "email": "ada@acme.com", "name": "Ada Lovelace"}


def _aware(moment: datetime | None) -> bool:
    return moment is not None and moment.tzinfo is not None


async def test_an_async_job_is_queued_then_done(client: Client, server: FakeServer) -> None:
    created = await call(client.leads.enrich(LeadIn(**ACME)))
    assert isinstance(created, EnrichJobCreated)
    assert created.status == "queued"
    polled = await call(client.jobs.get(created.job_id))
    assert isinstance(polled, JobOut)
    assert polled.status in ("queued", "running")
    done = await call(client.jobs.wait(created.job_id, **PATIENT))
    assert (done.status, done.kind, done.error) == ("done", "lead.enrich", None)
    assert _aware(done.created_at)
    assert _aware(done.started_at)
    assert _aware(done.finished_at)
    assert done.created_at <= done.started_at <= done.finished_at
    assert isinstance(done.result, LeadOut)
    assert done.result.input.email == "ada@acme.com"
    assert server.state.charged("enrichment") == 1


async def test_enrich_and_wait_returns_the_lead(client: Client, server: FakeServer) -> None:
    lead = await call(client.leads.enrich_and_wait(ACME, **PATIENT))
    assert isinstance(lead, LeadOut)
    assert lead.deduped is False
    assert 0 <= lead.enrichment.opportunity_score <= 100
    assert [stored.id for stored in server.state.leads()] == [lead.id]


async def test_a_failed_job_raises_job_failed_and_is_refunded(client: Client, server: FakeServer) -> None:
    with pytest.raises(JobFailedError) as raised:
        await call(client.leads.enrich_and_wait({"company": "Gone", "domain": "gone.fail"}, **PATIENT))
    job = raised.value.job
    assert job.status == "failed"
    assert job.result is None
    assert job.error is not None
    assert job.error["code"] == "enrichment_failed"
    assert server.state.charged("enrichment") == 0
    assert (await call(client.usage())).monthly_leads.used == 0


async def test_a_refunded_sync_failure_reads_as_one_account_of_the_charge(
    client: Client, server: FakeServer
) -> None:
    with pytest.raises(InternalServerError) as raised:
        await call(client.leads.enrich_sync({"company": "Gone", "domain": "gone.fail"}))
    message = str(raised.value)
    # The service's detail comes first, then why the SDK did not send it again: the
    # second part must leave room for the first, not deny it.
    assert message.index("the credit was refunded") < message.index("It was not sent again")
    # One piece of advice: the service's refund stands, and there is nothing to look up.
    assert message.endswith(
        "the credit was refunded. It was not sent again: the service says the credit was refunded, "
        "so nothing was charged or stored for it (nothing to look up)."
    )
    assert "client.leads.iter()" not in message
    assert "does not prove that nothing was charged" not in message
    assert server.state.charged("enrichment") == 0


async def test_sync_enrich_blocks_and_returns_the_lead(client: Client, server: FakeServer) -> None:
    started = time.monotonic()
    lead = await call(client.leads.enrich_sync(ACME))
    assert time.monotonic() - started >= server.settings.real_seconds(server.settings.enrichment_seconds[0])
    assert isinstance(lead, LeadOut)
    assert lead.input.model_dump(exclude_none=True) == ACME
    assert lead.tier == "growth"
    assert _aware(lead.created_at)
    assert server.state.charged("enrichment") == 1


async def test_a_failed_sync_enrich_is_a_server_error_sent_once(client: Client, server: FakeServer) -> None:
    with pytest.raises(InternalServerError) as raised:
        await call(client.leads.enrich_sync({"company": "Gone", "domain": "gone.invalid"}))
    assert raised.value.status_code == 502
    assert raised.value.detail.startswith("enrichment_failed")
    # A charging POST is never re-sent after a 5xx, so it cannot be charged twice.
    enrich_posts = [r for r in server.state.requests() if r.path == "/api/v1/leads/enrich"]
    assert len(enrich_posts) == 1
    assert server.state.charged("enrichment") == 0


async def test_a_known_contact_is_deduped_without_a_charge(client: Client, server: FakeServer) -> None:
    first = await call(client.leads.enrich_sync(ACME))
    again = await call(client.leads.enrich_sync({**ACME, "email": "ADA@acme.com", "domain": "acme.io"}))
    assert again.deduped is True
    assert again.id == first.id
    job = await call(client.leads.enrich({**ACME, "email": "Ada@Acme.com"}))
    done = await call(client.jobs.get(job.job_id))
    assert done.status == "done"
    assert done.result.deduped is True
    assert done.result.id == first.id
    assert server.state.charged("enrichment") == 1


async def test_the_callback_carries_the_finished_job(client: Client, server: FakeServer) -> None:
    created = await call(client.leads.enrich(ACME, callback_url=server.callback_url("hooks")))
    done = await call(client.jobs.wait(created.job_id, **PATIENT))
    assert done.callback_url == server.callback_url("hooks")
    assert server.state.wait_until(lambda: len(server.state.received_callbacks("hooks")) == 1)
    event = parse_event(server.state.received_callbacks("hooks")[0])
    assert (event.job_id, event.status, event.kind, event.error) == (
        created.job_id,
        "done",
        "lead.enrich",
        None,
    )
    assert event.result == done.result
    assert event.finished_at == done.finished_at


async def test_a_failed_job_calls_back_with_its_error(client: Client, server: FakeServer) -> None:
    created = await call(
        client.leads.enrich({"company": "Gone", "domain": "gone.fail"}, callback_url=server.callback_url())
    )
    assert server.state.wait_until(lambda: len(server.state.received_callbacks()) == 1)
    event = parse_event(server.state.received_callbacks()[0])
    assert (event.job_id, event.status, event.result) == (created.job_id, "failed", None)
    assert event.error == (await call(client.jobs.get(created.job_id))).error


async def test_server_side_validation_reaches_the_caller(strict: Client, server: FakeServer) -> None:
    with pytest.raises(UnprocessableEntityError) as raised:
        await call(strict.leads.list(limit=501))
    [error] = raised.value.errors
    assert error.loc == ["query", "limit"]
    assert error.type == "less_than_equal"


async def test_realistic_default_timings(make_client: MakeClient, make_server: MakeServer) -> None:
    server = make_server(enrichment_seconds=(20.0, 40.0))
    client = make_client(server)
    started = time.monotonic()
    await call(client.leads.enrich_sync(ACME))
    elapsed = time.monotonic() - started
    assert server.settings.real_seconds(20) <= elapsed < 2
