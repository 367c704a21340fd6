"""Every endpoint, through both clients: the exact request sent and the model parsed."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

import httpx
import pytest
import respx

from leadenrich import (
    EmailFindOut,
    EnrichJobCreated,
    Health,
    JobOut,
    LeadDeleted,
    LeadEnrich,
    LeadIn,
    LeadOut,
    LeadPage,
    MobileFindOut,
    UsageOut,
    __version__,
)
from tests.conftest import API, KEY
from tests.helpers import USAGE, call, job_out, lead_out

pytestmark = pytest.mark.anyio


def sent(route: respx.Route) -> httpx.Request:
    assert route.call_count == 1, f"expected one request, saw {route.call_count}"
    return route.calls.last.request


def body_of(request: httpx.Request) -> Any:
    assert request.headers["content-type"] == "application/json"
    return json.loads(request.content)


def assert_authed(request: httpx.Request) -> None:
    assert request.headers["authorization"] == f"Bearer {KEY}"
    assert request.headers["user-agent"] == f"leadenrich-python/{__version__}"
    assert request.headers["accept"] == "application/json"


async def test_health_sends_no_key(client: Any, api: respx.MockRouter) -> None:
    route = api.get("/health").respond(200, json={"status": "ok"})
    health = await call(client.health())
    request = sent(route)
    assert "authorization" not in request.headers
    assert request.headers["user-agent"] == f"leadenrich-python/{__version__}"
    assert isinstance(health, Health)
    assert health.status == "ok"


async def test_usage(client: Any, api: respx.MockRouter) -> None:
    route = api.get("/usage").respond(200, json=USAGE)
    usage = await call(client.usage())
    assert_authed(sent(route))
    assert isinstance(usage, UsageOut)
    assert usage.monthly_leads.effective_limit == 1050
    assert usage.mobile_credits.balance == 9
    assert usage.api_calls_this_month.this_key == 12


async def test_enrich_async_posts_lead_and_callback(client: Any, api: respx.MockRouter) -> None:
    route = api.post("/leads/enrich").respond(202, json={"job_id": "job_9", "status": "queued"})
    job = await call(
        client.leads.enrich(
            LeadIn(company="Acme", domain="acme.com", name="Ada"), callback_url="https://hooks.test/done"
        )
    )
    request = sent(route)
    assert_authed(request)
    assert request.url.params == httpx.QueryParams()
    assert body_of(request) == {
        "lead": {"company": "Acme", "domain": "acme.com", "name": "Ada"},
        "callback_url": "https://hooks.test/done",
    }
    assert isinstance(job, EnrichJobCreated)
    assert (job.job_id, job.status) == ("job_9", "queued")


async def test_enrich_sync_sets_mode_and_long_read_timeout(client: Any, api: respx.MockRouter) -> None:
    route = api.post("/leads/enrich", params={"mode": "sync"}).respond(200, json=lead_out())
    lead = await call(client.leads.enrich_sync({"company": "Acme", "domain": "acme.com"}))
    request = sent(route)
    assert_authed(request)
    assert request.url.params["mode"] == "sync"
    assert body_of(request) == {"lead": {"company": "Acme", "domain": "acme.com"}}
    assert request.extensions["timeout"]["read"] >= 100
    assert isinstance(lead, LeadOut)
    assert lead.enrichment.opportunity_score == 72
    assert lead.created_at == datetime(2026, 11, 22, 10, tzinfo=timezone.utc)
    assert isinstance(lead.input, LeadIn)


async def test_ordinary_calls_use_the_default_timeout(client: Any, api: respx.MockRouter) -> None:
    route = api.get("/usage").respond(200, json=USAGE)
    await call(client.usage())
    assert sent(route).extensions["timeout"] == {"connect": 5.0, "read": 30.0, "write": 30.0, "pool": 30.0}


async def test_list_sends_limit_and_skip(client: Any, api: respx.MockRouter) -> None:
    route = api.get("/leads").respond(200, json={"items": [lead_out("a"), lead_out("b")], "total": 7})
    page = await call(client.leads.list(limit=2, skip=4))
    request = sent(route)
    assert_authed(request)
    assert dict(request.url.params) == {"limit": "2", "skip": "4"}
    assert isinstance(page, LeadPage)
    assert [lead.id for lead in page] == ["a", "b"]
    assert page.model_extra == {"total": 7}


async def test_list_defaults(client: Any, api: respx.MockRouter) -> None:
    route = api.get("/leads").respond(200, json=[])
    await call(client.leads.list())
    assert dict(sent(route).url.params) == {"limit": "50", "skip": "0"}


async def test_get_lead(client: Any, api: respx.MockRouter) -> None:
    route = api.get("/leads/ld_7").respond(200, json=lead_out("ld_7"))
    lead = await call(client.leads.get("ld_7"))
    assert_authed(sent(route))
    assert lead.id == "ld_7"


async def test_delete_lead_fills_id_when_body_is_silent(client: Any, api: respx.MockRouter) -> None:
    route = api.delete("/leads/ld_7").respond(200, json={"ok": True})
    deleted = await call(client.leads.delete("ld_7"))
    assert_authed(sent(route))
    assert isinstance(deleted, LeadDeleted)
    assert deleted.id == "ld_7"
    assert deleted.model_extra == {"ok": True}


@pytest.mark.parametrize("response", [httpx.Response(204), httpx.Response(200, json=True)])
async def test_delete_lead_accepts_bodies_the_spec_does_not_show(
    client: Any, api: respx.MockRouter, response: httpx.Response
) -> None:
    api.delete("/leads/ld_7").mock(return_value=response)
    deleted = await call(client.leads.delete("ld_7"))
    assert deleted.id == "ld_7"


async def test_re_enrich(client: Any, api: respx.MockRouter) -> None:
    route = api.post("/leads/ld_7/re-enrich").respond(200, json=lead_out("ld_7"))
    lead = await call(client.leads.re_enrich("ld_7"))
    request = sent(route)
    assert_authed(request)
    assert request.content == b""
    assert request.extensions["timeout"]["read"] >= 100
    assert lead.id == "ld_7"


async def test_get_job(client: Any, api: respx.MockRouter) -> None:
    body = job_out("job_3", "done", result=lead_out(), finished_at="2026-11-22T10:00:30+00:00")
    route = api.get("/jobs/job_3").respond(200, json=body)
    job = await call(client.jobs.get("job_3"))
    assert_authed(sent(route))
    assert isinstance(job, JobOut)
    assert job.is_terminal
    assert job.result is not None
    assert job.result.id == "ld_1"
    assert job.finished_at == datetime(2026, 11, 22, 10, 0, 30, tzinfo=timezone.utc)


async def test_email_find(client: Any, api: respx.MockRouter) -> None:
    route = api.post("/email/find").respond(
        200,
        json={"state": "found", "email": "ada@acme.com", "email_score": 97.5, "source": "service_verified"},
    )
    result = await call(client.email.find(first_name="Ada", last_name="Lovelace", company_name="Acme"))
    request = sent(route)
    assert_authed(request)
    assert body_of(request) == {"first_name": "Ada", "last_name": "Lovelace", "company_name": "Acme"}
    assert isinstance(result, EmailFindOut)
    assert result.found
    assert result.email_score == 97.5


async def test_mobile_find_and_get(client: Any, api: respx.MockRouter) -> None:
    find = api.post("/mobile/find").respond(202, json={"lookup_id": "mob_1", "state": "pending"})
    get = api.get("/mobile/find/mob_1").respond(
        200, json={"lookup_id": "mob_1", "state": "settled", "mobile": "+14155550123"}
    )
    pending = await call(client.mobile.find(linkedin_url="https://linkedin.com/in/ada"))
    assert body_of(sent(find)) == {"linkedin_url": "https://linkedin.com/in/ada"}
    assert isinstance(pending, MobileFindOut)
    assert (pending.state, pending.is_terminal) == ("pending", False)
    settled = await call(client.mobile.get("mob_1"))
    assert_authed(sent(get))
    assert (settled.state, settled.mobile, settled.is_terminal) == ("settled", "+14155550123", True)


@pytest.mark.parametrize(
    ("method", "raw_path"),
    [
        ("leads.get", b"/api/v1/leads/a%2F..%2Fusage"),
        ("jobs.get", b"/api/v1/jobs/a%2F..%2Fusage"),
        ("mobile.get", b"/api/v1/mobile/find/a%2F..%2Fusage"),
    ],
)
async def test_path_ids_are_escaped(client: Any, api: respx.MockRouter, method: str, raw_path: bytes) -> None:
    route = api.route().respond(404, json={"detail": "Not found"})
    namespace, name = method.split(".")
    with pytest.raises(Exception, match="404"):
        await call(getattr(getattr(client, namespace), name)("a/../usage"))
    assert sent(route).url.raw_path == raw_path


async def test_dot_segments_cannot_climb(client: Any, api: respx.MockRouter) -> None:
    route = api.route().respond(404, json={"detail": "Not found"})
    with pytest.raises(Exception, match="404"):
        await call(client.leads.delete(".."))
    assert sent(route).url.raw_path == b"/api/v1/leads/%2E%2E"


async def test_unknown_fields_and_statuses_are_kept(client: Any, api: respx.MockRouter) -> None:
    api.get("/jobs/j").respond(200, json=job_out("j", "paused", priority="high"))
    job = await call(client.jobs.get("j"))
    assert job.status == "paused"
    assert not job.is_terminal
    assert job.model_extra == {"priority": "high"}


@pytest.mark.parametrize(
    "given", ["https://api.test", "https://api.test/", "https://api.test/api/v1", "https://api.test/api/v1/"]
)
def test_base_url_is_joined_with_the_prefix_once(given: str) -> None:
    assert LeadEnrich(KEY, base_url=given).base_url == API
