"""The SDK against every value of every open-point setting of the fake server, both clients.

The spec leaves these points open (docs/testing.md lists them), so the SDK must not depend
on the fake's own reading: each test runs once per value, with the sync and the async client.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from leadenrich import (
    Health,
    InternalServerError,
    InvalidRequestError,
    JobOut,
    LeadDeleted,
    LeadOut,
    NotFoundError,
    UnprocessableEntityError,
)
from leadenrich.testing import FakeSettings
from leadenrich.webhooks import parse_event
from tests.helpers import MakeServer, call, collect

from .conftest import PATIENT, MakeClient

pytestmark = pytest.mark.anyio

POINTS = [(name, value) for name, values in FakeSettings.open_points().items() for value in values]


def _values(name: str) -> Any:
    return pytest.mark.parametrize("value", FakeSettings.open_points()[name])


async def _together(kind: str, *work: Callable[[], Any]) -> list[Any]:
    """Run client calls at the same time: tasks for the async client, threads for the sync one."""
    if kind == "async":
        return list(await asyncio.gather(*(thunk() for thunk in work)))
    with ThreadPoolExecutor(len(work)) as pool:
        return list(pool.map(lambda thunk: thunk(), work))


@pytest.mark.parametrize(("name", "value"), POINTS, ids=[f"{n}={v}" for n, v in POINTS])
async def test_every_method_works_under_every_value(
    make_client: MakeClient, make_server: MakeServer, name: str, value: str
) -> None:
    # At 2.5 times QUICK's speed: only the fake's clock is waited on here (most of it for the
    # SDK's first poll of a job, the spec's 20 s), and no two requests race.
    server = make_server(**{name: value}, time_scale=0.002)
    client = make_client(server)
    assert isinstance(await call(client.health()), Health)
    first = await call(
        client.leads.enrich_sync({"company": "Acme", "domain": "acme.com", "email": "a@acme.com"})
    )
    second = await call(
        client.leads.enrich_and_wait({"company": "Globex", "domain": "globex.com"}, **PATIENT)
    )
    created = await call(client.leads.enrich({"company": "Gone", "domain": "gone.fail"}))
    failed = await call(client.jobs.wait(created.job_id, **PATIENT))
    assert (failed.status, failed.result) == ("failed", None)
    listed = await collect(client.leads.iter(page_size=1))
    assert sorted(lead.id for lead in listed) == sorted([first.id, second.id])
    assert await call(client.leads.get(first.id)) == first
    again = await call(client.leads.re_enrich(first.id))
    assert (again.id, again.input) == (first.id, first.input)
    deleted = await call(client.leads.delete(second.id))
    assert isinstance(deleted, LeadDeleted)
    assert deleted.id == second.id
    with pytest.raises(NotFoundError):
        await call(client.leads.get(second.id))
    email = await call(client.email.find(first_name="Ada", last_name="Lovelace", domain="acme.com"))
    assert email.state == "found"
    lookup = await call(client.mobile.find_and_wait(linkedin_url="https://linkedin.com/in/ada", **PATIENT))
    assert lookup.state == "settled"
    usage = await call(client.usage())
    assert usage.monthly_leads.used == server.state.charged("enrichment") + server.state.charged("email")
    assert usage.mobile_credits.used == 1
    # Nothing the SDK sent was refused: the one 4xx is the deleted lead's 404.
    refused = {s: n for s, n in server.state.status_counts(server.api_key).items() if 400 <= s < 500}
    assert refused == {404: 1}


@pytest.mark.parametrize("order", FakeSettings.open_points()["list_order"])
@pytest.mark.parametrize("shape", FakeSettings.open_points()["list_shape"])
@pytest.mark.parametrize("bounds", FakeSettings.open_points()["list_limit_bounds"])
async def test_iter_reads_every_lead_once_in_the_services_order(
    make_client: MakeClient, make_server: MakeServer, order: str, shape: str, bounds: str
) -> None:
    # A page of at most 2: a client asking for 3 gets a 422 (reject) or silently 2 (clamp).
    # The leads are only something to list: enrichments of 1 API second.
    server = make_server(
        list_order=order,
        list_shape=shape,
        list_limit_bounds=bounds,
        list_max_limit=2,
        enrichment_seconds=(1.0, 1.0),
    )
    client = make_client(server)
    made = [
        (await call(client.leads.enrich_sync({"company": f"C{n}", "domain": f"c{n}.com"}))).id
        for n in range(5)
    ]
    expected = made[::-1] if order == "newest_first" else made
    if bounds == "reject":
        with pytest.raises(UnprocessableEntityError) as raised:
            await collect(client.with_options(max_retries=0).leads.iter(page_size=3))
        assert [error.loc for error in raised.value.errors] == [["query", "limit"]]
        page_size = 2
    else:
        page_size = 3
    assert [lead.id for lead in await collect(client.leads.iter(page_size=page_size))] == expected
    page = await call(client.leads.list(limit=2, skip=1))
    assert [lead.id for lead in page] == expected[1:3]


@pytest.mark.parametrize("shape", FakeSettings.open_points()["list_shape"])
async def test_a_page_goes_on_to_every_lead_in_every_listing_shape(
    make_client: MakeClient, make_server: MakeServer, shape: str
) -> None:
    # A service that serves at most 2 leads a page, whatever the client asks.
    server = make_server(
        list_shape=shape, list_limit_bounds="clamp", list_max_limit=2, enrichment_seconds=(1.0, 1.0)
    )
    client = make_client(server)
    made = [
        (await call(client.leads.enrich_sync({"company": f"C{n}", "domain": f"c{n}.com"}))).id
        for n in range(5)
    ]
    first = await call(client.leads.list(limit=3))
    pages = await collect(first.iter_pages())
    assert pages[0] is first
    assert sorted(lead.id for page in pages for lead in page) == sorted(made)
    assert [page.has_next_page() for page in pages] == [True] * (len(pages) - 1) + [False]
    second = await call(first.next_page())
    assert [lead.id for lead in second] == [lead.id for lead in pages[1]]
    requests = len(server.state.requests())
    with pytest.raises(InvalidRequestError, match="last page"):
        await call(pages[-1].next_page())
    assert len(server.state.requests()) == requests, "a request was sent past the last page"


@_values("sync_failure")
async def test_a_failed_sync_enrichment_is_a_server_error_sent_once(
    make_client: MakeClient, make_server: MakeServer, value: str
) -> None:
    server = make_server(sync_failure=value)
    client = make_client(server)
    with pytest.raises(InternalServerError) as raised:
        await call(client.leads.enrich_sync({"company": "Gone", "domain": "gone.invalid"}))
    assert raised.value.status_code == int(value[:3])
    assert "not sent again" in str(raised.value)
    assert [r.status_code for r in server.state.requests() if r.path == "/api/v1/leads/enrich"] == [
        int(value[:3])
    ]
    assert server.state.charged("enrichment") == 0


@_values("health_body")
async def test_health_reads_every_body(make_client: MakeClient, make_server: MakeServer, value: str) -> None:
    server = make_server(health_body=value)
    health = await call(make_client(server).health())
    expected = {"status_version": "ok", "status": "ok", "text": "OK", "empty": None}[value]
    assert health.status == expected
    assert (health.model_extra or {}).get("version") == ("1.0.0" if value == "status_version" else None)


@_values("delete_body")
async def test_delete_reads_every_body(make_client: MakeClient, make_server: MakeServer, value: str) -> None:
    server = make_server(delete_body=value)
    client = make_client(server)
    made = await call(client.leads.enrich_sync({"company": "Acme", "domain": "acme.com"}))
    deleted = await call(client.leads.delete(made.id))
    assert isinstance(deleted, LeadDeleted)
    assert deleted.id == made.id
    assert deleted.deleted is (True if value == "id_deleted" else None)
    assert server.state.leads() == []


@_values("unknown_fields")
async def test_unknown_fields_are_refused_before_sending(
    make_client: MakeClient, make_server: MakeServer, value: str
) -> None:
    server = make_server(unknown_fields=value)
    client = make_client(server)
    with pytest.raises(InvalidRequestError, match="phone"):
        await call(client.leads.enrich_sync({"company": "Acme", "domain": "acme.com", "phone": "+1"}))
    with pytest.raises(TypeError, match="phone"):
        await call(client.email.find(linkedin_url="https://linkedin.com/in/ada", phone="+1"))
    assert server.state.requests() == []


@_values("same_email_in_flight")
async def test_two_leads_with_one_email_at_once(
    kind: str, make_client: MakeClient, make_server: MakeServer, value: str
) -> None:
    # Enrichments of 100 API seconds (0.5 s): the two are in flight together however late
    # the second starts. At QUICK's 20-40 ms, a busy machine started it once the first was
    # stored, and it was deduped against that.
    server = make_server(same_email_in_flight=value, enrichment_seconds=(100.0, 100.0))
    client = make_client(server)
    leads = [
        {"company": "Acme", "domain": domain, "email": "ada@acme.com"} for domain in ("acme.com", "acme.io")
    ]
    first, second = await _together(
        kind,
        lambda: client.leads.enrich_sync(leads[0]),
        lambda: client.leads.enrich_and_wait(leads[1], **PATIENT),
    )
    assert isinstance(first, LeadOut)
    assert isinstance(second, LeadOut)
    if value == "charge_both":
        assert first.id != second.id
        assert (first.deduped, second.deduped) == (False, False)
    else:
        assert first.id == second.id
        assert sorted([bool(first.deduped), bool(second.deduped)]) == [False, True]
    charged = 2 if value == "charge_both" else 1
    assert server.state.charged("enrichment") == charged
    assert (await call(client.usage())).monthly_leads.used == charged


@_values("re_enrich_charge")
async def test_re_enrich_charge(make_client: MakeClient, make_server: MakeServer, value: str) -> None:
    server = make_server(re_enrich_charge=value)
    client = make_client(server)
    made = await call(client.leads.enrich_sync({"company": "Acme", "domain": "acme.com"}))
    fresh = await call(client.leads.re_enrich(made.id))
    assert fresh.id == made.id
    assert (await call(client.usage())).monthly_leads.used == (2 if value == "charged" else 1)


@_values("failed_job_callback")
async def test_a_failed_jobs_callback_if_any_parses(
    make_client: MakeClient, make_server: MakeServer, value: str
) -> None:
    server = make_server(failed_job_callback=value)
    client = make_client(server)
    created = await call(
        client.leads.enrich({"company": "Gone", "domain": "gone.fail"}, callback_url=server.callback_url("f"))
    )
    job = await call(client.jobs.wait(created.job_id, **PATIENT))
    assert isinstance(job, JobOut)
    assert job.status == "failed"
    if value == "posted":
        assert server.state.wait_until(lambda: len(server.state.received_callbacks("f")) == 1)
        event = parse_event(server.state.received_callbacks("f")[0])
        assert (event.job_id, event.status, event.error) == (job.job_id, "failed", job.error)
    else:
        # A later job's callback arrives; the failed one's never does.
        done = await call(
            client.leads.enrich(
                {"company": "Acme", "domain": "acme.com"}, callback_url=server.callback_url("d")
            )
        )
        assert server.state.wait_until(lambda: len(server.state.received_callbacks("d")) == 1)
        assert parse_event(server.state.received_callbacks("d")[0]).job_id == done.job_id
        assert server.state.received_callbacks("f") == []


@_values("unknown_mode")
async def test_the_sdk_sends_only_the_modes_the_spec_names(
    make_client: MakeClient, make_server: MakeServer, value: str
) -> None:
    server = make_server(unknown_mode=value, async_per_minute=1)
    client = make_client(server, max_retries=0)
    await call(client.leads.enrich({"company": "Acme", "domain": "acme.com"}))
    await call(client.leads.enrich_sync({"company": "Globex", "domain": "globex.com"}))
    # The job went to the async bucket (of 1), the sync enrichment to the sync one.
    assert server.state.status_counts(server.api_key) == {202: 1, 200: 1}
