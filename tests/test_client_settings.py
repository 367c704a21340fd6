"""with_options takes every per-copy setting; no repr shows the key; help() shows the namespaces;
which errors are not LeadEnrichError."""

from __future__ import annotations

import inspect
import pydoc
from dataclasses import fields
from typing import Any, get_type_hints

import httpx
import pydantic
import pytest
import respx

from leadenrich import (
    AsyncLeadEnrich,
    ClientSettings,
    InvalidRequestError,
    LeadEnrich,
    LeadEnrichError,
    LeadIn,
    RateLimitError,
    RateLimits,
)
from leadenrich.testing import ManualClock
from tests.conftest import API, BASE, KEY
from tests.helpers import USAGE, call, lead_out

pytestmark = pytest.mark.anyio

OTHER_KEY = "le_live_other_9876543210abcdef"
NAMESPACES = ("leads", "jobs", "email", "mobile")


def test_with_options_takes_every_constructor_setting_but_the_pool() -> None:
    for cls in (LeadEnrich, AsyncLeadEnrich):
        constructor = set(inspect.signature(cls).parameters) - {"http_client"}
        assert set(get_type_hints(ClientSettings)) == constructor


async def test_each_setting_of_a_copy_takes_effect(client: Any, api: respx.MockRouter) -> None:
    other = respx.mock(base_url="https://other.test/api/v1", assert_all_called=False)
    with other:
        elsewhere = other.get("/usage").respond(200, json=USAGE)
        copy = client.with_options(
            api_key=OTHER_KEY,
            base_url="https://other.test",
            timeout=11,
            max_retries=6,
            default_headers={"X-Team": "growth"},
        )
        await call(copy.usage())
    sent = elsewhere.calls.last.request
    assert sent.headers["authorization"] == f"Bearer {OTHER_KEY}"
    assert sent.headers["x-team"] == "growth"
    assert sent.extensions["timeout"]["read"] == 11.0
    assert (copy.base_url, copy.max_retries, copy.timeout.read) == ("https://other.test/api/v1", 6, 11.0)
    # The original is unchanged.
    assert (client.base_url, client.max_retries, client.timeout.read) == (API, 2, 30.0)


async def test_default_headers_of_a_copy_are_merged_into_the_originals(api: respx.MockRouter) -> None:
    route = api.get("/usage").respond(200, json=USAGE)
    client = LeadEnrich(KEY, base_url=BASE, default_headers={"X-Team": "sales", "X-App": "crm"})
    copy = client.with_options(default_headers={"X-Team": "growth"})
    copy.usage()
    assert (route.calls.last.request.headers["x-team"], route.calls.last.request.headers["x-app"]) == (
        "growth",
        "crm",
    )
    client.usage()
    assert route.calls.last.request.headers["x-team"] == "sales"
    client.with_options(default_headers=None).usage()
    assert "x-app" not in route.calls.last.request.headers


async def test_max_retry_after_and_upstream_full_retries_of_a_copy(
    client: Any, api: respx.MockRouter, sleeps: list[float]
) -> None:
    route = api.get("/usage").respond(
        429, json={"detail": "rate limit exceeded"}, headers={"Retry-After": "5"}
    )
    with pytest.raises(RateLimitError):
        await call(client.with_options(max_retry_after=1).usage())
    assert route.call_count == 1
    upstream = api.post("/leads/enrich").respond(429, json={"detail": "upstream_full"})
    with pytest.raises(RateLimitError):
        await call(
            client.with_options(upstream_full_retries=3).leads.enrich({"company": "A", "domain": "a.com"})
        )
    assert upstream.call_count == 4


def test_a_copy_shares_the_budget_unless_given_its_own(
    api: respx.MockRouter, clock: ManualClock, sleeps: list[float]
) -> None:
    api.get("/usage").respond(200, json=USAGE)
    tight = RateLimits(sync_per_minute=1)
    client = LeadEnrich(KEY, base_url=BASE, rate_limits=tight, clock=clock)
    client.usage()
    client.with_options(max_retries=0).usage()
    # The copy counted against the same per-key window: it waited for it.
    assert len(sleeps) == 1
    assert sleeps[0] > 50
    client.with_options(rate_limits=RateLimits(sync_per_minute=1)).usage()
    client.with_options(api_key=OTHER_KEY).usage()
    assert len(sleeps) == 1
    other_clock = ManualClock()
    client.with_options(clock=other_clock).usage()
    assert (len(sleeps), other_clock.sleeps) == (1, [])
    assert client.with_options(clock=other_clock).clock is other_clock
    assert client.with_options(rate_limits=None).rate_limits is None


@pytest.mark.parametrize(
    ("changes", "error", "message"),
    [
        ({"max_retrys": 3}, TypeError, "unknown setting.*max_retrys.*it takes api_key, base_url, timeout"),
        ({"http_client": httpx.Client()}, TypeError, "unknown setting.*http_client"),
        ({"max_retries": -1}, InvalidRequestError, "max_retries must be >= 0"),
        ({"timeout": 0}, InvalidRequestError, "timeout must be a number of seconds > 0"),
        ({"base_url": "api.test"}, LeadEnrichError, "base_url must start with http"),
        ({"api_key": "with space"}, LeadEnrichError, "api_key contains whitespace"),
        ({"rate_limits": {"sync_per_minute": 5}}, TypeError, "rate_limits must be a RateLimits or None"),
    ],
)
def test_with_options_refuses_what_the_constructor_refuses(
    changes: dict[str, Any], error: type[Exception], message: str
) -> None:
    client = LeadEnrich(KEY, base_url=BASE)
    with pytest.raises(error, match=message):
        client.with_options(**changes)


def test_the_key_is_in_no_repr(api: respx.MockRouter) -> None:
    api.get("/leads/ld_1").respond(200, json=lead_out())
    for cls in (LeadEnrich, AsyncLeadEnrich):
        client: Any = cls(KEY, base_url=BASE, default_headers={"X-Team": "a"})
        copy = client.with_options(max_retries=1, api_key=KEY)
        for each in (client, copy):
            for name in (*NAMESPACES, "with_raw_response"):
                getattr(each, name)  # the namespaces join vars() once used
            texts = [repr(each), str(vars(each)), repr(vars(each))]
            texts += [repr(vars(getattr(each, name))) for name in NAMESPACES]
            texts += [repr(vars(each.with_raw_response))]
            texts += [repr(value) for value in vars(each).values()]
            # Within the resolved settings, only the key and the headers that carry it hold it.
            holders = ("api_key", "auth_headers")
            texts += [
                repr(getattr(each._options, f.name)) for f in fields(each._options) if f.name not in holders
            ]
            assert all(KEY not in text for text in texts), cls.__name__
            assert all(KEY.removeprefix("le_live_") not in text for text in texts)
    raw = LeadEnrich(KEY, base_url=BASE).leads.with_raw_response.get("ld_1")
    assert KEY not in repr(raw)
    assert KEY not in repr(raw.http_request.headers)


def test_help_lists_the_namespaces_and_their_methods() -> None:
    for cls in (LeadEnrich, AsyncLeadEnrich):
        text = pydoc.plain(pydoc.render_doc(cls))
        client: Any = cls(KEY, base_url=BASE)
        for name in NAMESPACES:
            doc = inspect.getdoc(getattr(cls, name))
            assert doc is not None
            assert doc.splitlines()[0] in text
            methods = {
                m
                for m, _ in inspect.getmembers(getattr(client, name), inspect.ismethod)
                if not m.startswith("_")
            }
            assert methods - {"with_options"}, name
            # Every method of the namespace is named where help() shows it.
            assert all(f"`{method}`" in doc for method in methods), (name, methods)
        assert "with_raw_response" in text


def test_a_request_model_built_directly_raises_pydantics_error_which_is_a_value_error(
    api: respx.MockRouter,
) -> None:
    # Documented in errors.md: direct model construction is pydantic's, the client's is ours.
    with pytest.raises(pydantic.ValidationError, match="bare domain") as direct:
        LeadIn(company="A", domain="https://a.com")
    assert isinstance(direct.value, ValueError)
    assert not isinstance(direct.value, LeadEnrichError)
    route = api.post("/leads/enrich").respond(202, json={"job_id": "j", "status": "queued"})
    with pytest.raises(InvalidRequestError, match="bare domain") as through_client:
        LeadEnrich(KEY, base_url=BASE).leads.enrich({"company": "A", "domain": "https://a.com"})
    assert isinstance(through_client.value, ValueError)
    assert route.call_count == 0
