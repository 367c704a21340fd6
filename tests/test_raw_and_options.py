"""with_raw_response, and the per-call timeout=, extra_headers= and extra_query= of every method."""

from __future__ import annotations

import datetime
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
import respx

from leadenrich import (
    APIResponse,
    APIResponseValidationError,
    AsyncLeadEnrich,
    InvalidRequestError,
    LeadDict,
    LeadEnrich,
    NotFoundError,
)
from tests.conftest import KEY
from tests.helpers import USAGE, call, collect, job_out, lead_out

pytestmark = pytest.mark.anyio

LEAD: LeadDict = {"company": "Acme", "domain": "acme.com"}
PERSON = {"linkedin_url": "https://linkedin.com/in/ada"}
PER_KEY = {"detail": "rate limit exceeded"}


@dataclass(frozen=True)
class Endpoint:
    """One method that sends one request, and what the service answers it."""

    name: str
    method: str
    path: str
    status: int
    body: Any
    invoke: Callable[[Any], Callable[..., Any]]
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] | None = None


ENDPOINTS = [
    Endpoint("health", "GET", "/health", 200, {"status": "ok"}, lambda c: c.health),
    Endpoint("usage", "GET", "/usage", 200, USAGE, lambda c: c.usage),
    Endpoint(
        "leads.enrich",
        "POST",
        "/leads/enrich",
        202,
        {"job_id": "job_9", "status": "queued"},
        lambda c: c.leads.enrich,
        (LEAD,),
    ),
    Endpoint(
        "leads.enrich_sync", "POST", "/leads/enrich", 200, lead_out(), lambda c: c.leads.enrich_sync, (LEAD,)
    ),
    Endpoint(
        "leads.list", "GET", "/leads", 200, {"items": [lead_out("a")], "total": 1}, lambda c: c.leads.list
    ),
    Endpoint("leads.get", "GET", "/leads/ld_7", 200, lead_out("ld_7"), lambda c: c.leads.get, ("ld_7",)),
    Endpoint("leads.delete", "DELETE", "/leads/ld_7", 200, {"ok": True}, lambda c: c.leads.delete, ("ld_7",)),
    Endpoint(
        "leads.re_enrich",
        "POST",
        "/leads/ld_7/re-enrich",
        200,
        lead_out("ld_7"),
        lambda c: c.leads.re_enrich,
        ("ld_7",),
    ),
    Endpoint(
        "jobs.get", "GET", "/jobs/job_3", 200, job_out("job_3", "running"), lambda c: c.jobs.get, ("job_3",)
    ),
    Endpoint(
        "email.find",
        "POST",
        "/email/find",
        200,
        {"state": "found", "email": "ada@acme.com", "email_score": 97.5, "source": "service_verified"},
        lambda c: c.email.find,
        kwargs=PERSON,
    ),
    Endpoint(
        "mobile.find",
        "POST",
        "/mobile/find",
        202,
        {"lookup_id": "mob_1", "state": "pending"},
        lambda c: c.mobile.find,
        kwargs=PERSON,
    ),
    Endpoint(
        "mobile.get",
        "GET",
        "/mobile/find/mob_1",
        200,
        {"lookup_id": "mob_1", "state": "settled", "mobile": "+14155550123"},
        lambda c: c.mobile.get,
        ("mob_1",),
    ),
]


def raw_view(client: Any, name: str) -> Callable[..., Any]:
    owner, _, method = name.rpartition(".")
    target = getattr(client, owner) if owner else client
    return getattr(target.with_raw_response, method)


def plain(client: Any, name: str) -> Callable[..., Any]:
    owner, _, method = name.rpartition(".")
    return getattr(getattr(client, owner) if owner else client, method)


def mock(api: respx.MockRouter, endpoint: Endpoint, *responses: httpx.Response) -> respx.Route:
    route = api.route(method=endpoint.method, path=endpoint.path)
    if responses:
        route.side_effect = list(responses)
    else:
        route.respond(endpoint.status, json=endpoint.body, headers={"X-Request-Id": "req_42"})
    return route


def test_every_single_request_method_has_a_raw_twin_and_nothing_else_does() -> None:
    client = LeadEnrich(KEY, base_url="https://api.test")
    names = set()
    for owner in ("", "leads", "jobs", "email", "mobile"):
        view = getattr(client, owner).with_raw_response if owner else client.with_raw_response
        names |= {
            f"{owner}.{name}".lstrip(".")
            for name, member in inspect.getmembers(view, inspect.ismethod)
            if not name.startswith("_")
        }
    assert names == {e.name for e in ENDPOINTS}
    assert client.with_raw_response.leads is client.leads.with_raw_response


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=lambda e: e.name)
async def test_raw_response_shows_the_exchange_and_parses_to_the_usual_model(
    client: Any, api: respx.MockRouter, endpoint: Endpoint
) -> None:
    route = mock(api, endpoint)
    raw = await call(raw_view(client, endpoint.name)(*endpoint.args, **(endpoint.kwargs or {})))
    assert isinstance(raw, APIResponse)
    assert raw.status_code == endpoint.status
    assert raw.headers["x-request-id"] == "req_42"
    assert raw.retries_taken == 0
    assert isinstance(raw.elapsed, datetime.timedelta)
    sent = route.calls.last.request
    assert (raw.http_request.url, raw.http_request.content) == (sent.url, sent.content)
    assert raw.http_request.headers.get("authorization") == (
        None if endpoint.name == "health" else f"Bearer {KEY}"
    )
    assert (raw.method, raw.url.path) == (endpoint.method, "/api/v1" + endpoint.path)
    assert raw.json() == endpoint.body
    usual = await call(plain(client, endpoint.name)(*endpoint.args, **(endpoint.kwargs or {})))
    parsed = raw.parse()
    assert parsed == usual
    assert raw.parse() is parsed
    assert KEY not in repr(raw)
    assert (
        repr(raw)
        == f"<APIResponse [{endpoint.status} {raw.http_response.reason_phrase}] {raw.method} {raw.url.path}>"
    )


async def test_raw_response_counts_retries_and_shows_the_last_answer(
    client: Any, api: respx.MockRouter
) -> None:
    endpoint = ENDPOINTS[1]
    mock(
        api,
        endpoint,
        httpx.Response(429, json=PER_KEY, headers={"Retry-After": "1"}),
        httpx.Response(503, json={"detail": "busy"}),
        httpx.Response(200, json=USAGE, headers={"X-RateLimit-Remaining": "57"}),
    )
    raw = await call(client.with_raw_response.usage())
    assert raw.retries_taken == 2
    assert raw.headers["x-ratelimit-remaining"] == "57"
    assert raw.parse().monthly_leads.used == 3


async def test_raw_response_raises_the_usual_error_status(client: Any, api: respx.MockRouter) -> None:
    api.get("/leads/ld_0").respond(404, json={"detail": "lead 'ld_0' not found"})
    with pytest.raises(NotFoundError, match="ld_0"):
        await call(client.leads.with_raw_response.get("ld_0"))


async def test_raw_response_parse_reports_a_body_that_does_not_fit(
    client: Any, api: respx.MockRouter
) -> None:
    api.get("/usage").respond(200, json={"tier": 5})
    raw = await call(client.with_raw_response.usage())
    assert raw.status_code == 200
    with pytest.raises(APIResponseValidationError, match="UsageOut"):
        raw.parse()


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=lambda e: e.name)
@pytest.mark.parametrize("view", ["plain", "raw"])
async def test_per_call_options_reach_the_request(
    client: Any, api: respx.MockRouter, endpoint: Endpoint, view: str
) -> None:
    route = mock(api, endpoint)
    method = (plain if view == "plain" else raw_view)(client, endpoint.name)
    await call(
        method(
            *endpoint.args,
            **(endpoint.kwargs or {}),
            timeout=httpx.Timeout(7.0, connect=1.5),
            extra_headers={"X-Trace": "t-1", "accept": "application/x-custom"},
            extra_query={"debug": "1", "page": 3, "flag": True},
        )
    )
    sent = route.calls.last.request
    assert sent.headers["x-trace"] == "t-1"
    # A header given per call replaces the client's of the same name; the key stays.
    assert sent.headers.get_list("accept") == ["application/x-custom"]
    if endpoint.name != "health":
        assert sent.headers["authorization"] == f"Bearer {KEY}"
    assert sent.url.params["debug"] == "1"
    assert sent.url.params["page"] == "3"
    assert sent.url.params["flag"] == "true"
    assert sent.extensions["timeout"] == {"connect": 1.5, "read": 7.0, "write": 7.0, "pool": 7.0}


async def test_per_call_query_is_added_to_the_methods_own(client: Any, api: respx.MockRouter) -> None:
    route = api.get("/leads").respond(200, json={"items": [], "total": 0})
    await call(client.leads.list(limit=5, extra_query={"sort": "newest"}))
    assert dict(route.calls.last.request.url.params) == {"limit": "5", "skip": "0", "sort": "newest"}


async def test_a_per_call_timeout_in_seconds_and_the_default(client: Any, api: respx.MockRouter) -> None:
    route = api.post("/leads/enrich", params={"mode": "sync"}).respond(200, json=lead_out())
    await call(client.leads.enrich_sync(LEAD, timeout=12))
    assert route.calls.last.request.extensions["timeout"]["read"] == 12.0
    await call(client.leads.enrich_sync(LEAD))
    # Without it, a sync enrichment keeps its long read timeout.
    assert route.calls.last.request.extensions["timeout"]["read"] == 100.0


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"timeout": -1}, InvalidRequestError, "timeout must be a number of seconds > 0"),
        ({"timeout": "5"}, TypeError, "timeout must be a number of seconds"),
        ({"extra_headers": {"X-Bad": "caf\u00e9"}}, InvalidRequestError, r"extra_headers\['X-Bad'\]"),
        ({"extra_headers": {"X-Num": 5}}, TypeError, "extra_headers must map str names to str values"),
        ({"extra_headers": ["X-A"]}, TypeError, "extra_headers must be a mapping"),
        ({"extra_headers": {"authorization": "Bearer x"}}, InvalidRequestError, "cannot set Authorization"),
        ({"extra_query": {"a": None}}, TypeError, r"extra_query\['a'\] must be a str, int, float or bool"),
        ({"extra_query": {"": "x"}}, InvalidRequestError, "empty parameter name"),
        ({"extra_query": "a=1"}, TypeError, "extra_query must be a mapping"),
    ],
)
async def test_bad_per_call_options_are_refused_before_sending(
    client: Any, api: respx.MockRouter, options: dict[str, Any], error: type[Exception], message: str
) -> None:
    route = api.get("/usage").respond(200, json=USAGE)
    with pytest.raises(error, match=message):
        await call(client.usage(**options))
    with pytest.raises(error, match=message):
        await collect(client.leads.iter(**options))
    assert route.call_count == 0


async def test_waiting_methods_send_the_extras_with_every_request(
    client: Any, api: respx.MockRouter, sleeps: list[float]
) -> None:
    create = api.post("/leads/enrich").respond(202, json={"job_id": "job_5", "status": "queued"})
    poll = api.get("/jobs/job_5").mock(
        side_effect=[
            httpx.Response(200, json=job_out("job_5", "running")),
            httpx.Response(200, json=job_out("job_5", "done", result=lead_out("ld_5"))),
        ]
    )
    extras = {"extra_headers": {"X-Trace": "w-1"}, "extra_query": {"team": "growth"}}
    lead = await call(client.leads.enrich_and_wait(LEAD, poll_interval=0.01, **extras))
    assert lead.id == "ld_5"
    requests = [c.request for c in (*create.calls, *poll.calls)]
    assert len(requests) == 3
    assert all(r.headers["x-trace"] == "w-1" and r.url.params["team"] == "growth" for r in requests)


async def test_iter_sends_the_options_with_every_page(client: Any, api: respx.MockRouter) -> None:
    route = api.get("/leads").mock(
        side_effect=[
            httpx.Response(200, json={"items": [lead_out("a"), lead_out("b")], "total": 3}),
            httpx.Response(200, json={"items": [lead_out("c")], "total": 3}),
        ]
    )
    leads = await collect(client.leads.iter(page_size=2, extra_headers={"X-Trace": "p"}, timeout=9))
    assert [lead.id for lead in leads] == ["a", "b", "c"]
    assert [c.request.headers["x-trace"] for c in route.calls] == ["p", "p"]
    assert [c.request.extensions["timeout"]["read"] for c in route.calls] == [9.0, 9.0]


async def test_mobile_find_and_wait_sends_the_extras_with_every_request(
    client: Any, api: respx.MockRouter, sleeps: list[float]
) -> None:
    find = api.post("/mobile/find").respond(202, json={"lookup_id": "mob_2", "state": "pending"})
    get = api.get("/mobile/find/mob_2").respond(200, json={"lookup_id": "mob_2", "state": "refunded"})
    lookup = await call(
        client.mobile.find_and_wait(**PERSON, extra_headers={"X-Trace": "m"}, poll_interval=0.01)
    )
    assert lookup.state == "refunded"
    assert [c.request.headers["x-trace"] for c in (*find.calls, *get.calls)] == ["m", "m"]


def test_both_clients_take_the_options_on_the_same_methods() -> None:
    for cls in (LeadEnrich, AsyncLeadEnrich):
        client = cls(KEY, base_url="https://api.test")
        for endpoint in ENDPOINTS:
            parameters = inspect.signature(plain(client, endpoint.name)).parameters
            assert {"timeout", "extra_headers", "extra_query"} <= set(parameters), endpoint.name


def test_both_clients_raw_views_have_the_same_methods_and_parameters() -> None:
    sync_client = LeadEnrich(KEY, base_url="https://api.test")
    async_client = AsyncLeadEnrich(KEY, base_url="https://api.test")
    for owner in ("", "leads", "jobs", "email", "mobile"):
        views = [(getattr(c, owner) if owner else c).with_raw_response for c in (sync_client, async_client)]
        sync_view, async_view = (
            {
                name: [(p.name, p.kind, p.default) for p in inspect.signature(member).parameters.values()]
                for name, member in inspect.getmembers(view, inspect.ismethod)
                if not name.startswith("_")
            }
            for view in views
        )
        assert sync_view == async_view, owner
        assert all(inspect.iscoroutinefunction(getattr(views[1], name)) for name in async_view), owner


def test_elapsed_of_a_response_a_transport_built_with_its_body(clock: Any) -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=USAGE, headers={"Retry-After": "0"})

    with httpx.Client(transport=httpx.MockTransport(answer)) as http:
        client = LeadEnrich(KEY, base_url="https://api.test", http_client=http, clock=clock)
        raw = client.with_raw_response.usage()
    assert raw.elapsed == datetime.timedelta(0)  # httpx does not time what a transport built
    assert raw.headers["retry-after"] == "0"
    assert raw.parse().tier == "growth"


@pytest.mark.parametrize("method", ["email.find", "mobile.find", "mobile.find_and_wait"])
async def test_an_unknown_person_keyword_is_a_type_error_naming_the_close_one(
    client: Any, api: respx.MockRouter, method: str
) -> None:
    route = api.route().respond(500)
    owner, _, name = method.partition(".")
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'domian'; did you mean domain\?"):
        await call(getattr(getattr(client, owner), name)(first_name="Ada", last_name="L", domian="a.com"))
    with pytest.raises(TypeError, match="'phone'; it takes linkedin_url, first_name"):
        await call(
            getattr(getattr(client, owner), name)(linkedin_url="https://linkedin.com/in/a", phone="+1")
        )
    assert route.call_count == 0
