"""Construction, environment fallbacks, copies, injected pools and closing."""

from __future__ import annotations

import inspect
import traceback
from typing import Any

import httpx
import pytest
import respx

from leadenrich import AsyncLeadEnrich, LeadEnrich, LeadEnrichError, RateLimits, __version__
from leadenrich.testing import ManualClock
from tests.conftest import API, BASE, KEY
from tests.helpers import USAGE, call, close

pytestmark = pytest.mark.anyio

CLIENTS = [LeadEnrich, AsyncLeadEnrich]


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LEADENRICH_API_KEY", raising=False)
    monkeypatch.delenv("LEADENRICH_BASE_URL", raising=False)


@pytest.mark.parametrize("cls", CLIENTS)
def test_environment_fallbacks(monkeypatch: pytest.MonkeyPatch, cls: type[LeadEnrich]) -> None:
    monkeypatch.setenv("LEADENRICH_API_KEY", KEY)
    monkeypatch.setenv("LEADENRICH_BASE_URL", BASE)
    assert cls().base_url == API


@pytest.mark.parametrize("cls", CLIENTS)
def test_missing_key_names_the_variable(cls: type[LeadEnrich]) -> None:
    with pytest.raises(LeadEnrichError, match="LEADENRICH_API_KEY"):
        cls(base_url=BASE)


@pytest.mark.parametrize("cls", CLIENTS)
def test_missing_base_url_names_the_variable(cls: type[LeadEnrich]) -> None:
    with pytest.raises(LeadEnrichError, match="LEADENRICH_BASE_URL"):
        cls(KEY)


@pytest.mark.parametrize("cls", CLIENTS)
def test_missing_key_and_base_url_are_named_together(cls: type[LeadEnrich]) -> None:
    with pytest.raises(LeadEnrichError) as missing:
        cls()
    assert str(missing.value) == (
        "no api_key or base_url given: pass api_key=... and base_url=... to the client or set the "
        "LEADENRICH_API_KEY and LEADENRICH_BASE_URL environment variables. To try the SDK without a "
        'key, use the bundled fake server (pip install "leadenrich[fake]"): `leadenrich.testing.connect()` '
        "gives a client of it in place of `LeadEnrich()`, or run `leadenrich fake-server` in a shell and "
        "export the variables it prints"
    )
    # Uncaught, its last line names the class where it is imported, not a private module.
    [last] = traceback.format_exception_only(missing.value)
    assert last.startswith("leadenrich.LeadEnrichError: no api_key or base_url given")


@pytest.mark.parametrize("cls", CLIENTS)
def test_a_missing_base_url_alone_needs_no_word_of_the_fake_server(cls: type[LeadEnrich]) -> None:
    # A key means the real service: the way to it is the address, not the fake server.
    with pytest.raises(LeadEnrichError) as missing:
        cls(KEY)
    assert "fake" not in str(missing.value)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"base_url": "api.test"}, "http:// or https://"),
        ({"timeout": -1}, "timeout must be a number of seconds > 0, got -1"),
        ({"max_retries": -1}, "max_retries must be >= 0, got -1"),
        ({"upstream_full_retries": 1.5}, "upstream_full_retries must be an int, got float"),
        ({"max_retry_after": "soon"}, "max_retry_after must be a number of seconds, got str"),
        ({"rate_limits": "fast"}, "rate_limits must be a RateLimits or None"),
    ],
)
def test_bad_settings_are_explained(kwargs: dict[str, object], message: str) -> None:
    settings: dict[str, object] = {"base_url": BASE, **kwargs}
    with pytest.raises((LeadEnrichError, TypeError), match=message):
        LeadEnrich(KEY, **settings)  # type: ignore[arg-type]


@pytest.mark.parametrize("cls", CLIENTS)
@pytest.mark.parametrize("keyword", ["default_query", "max_retry", "organization", "proxies"])
def test_an_unknown_keyword_names_the_public_class(cls: type[LeadEnrich], keyword: str) -> None:
    # Not "_BaseClient.__init__() got ...": the class the user wrote.
    with pytest.raises(TypeError) as caught:
        cls(KEY, base_url=BASE, **{keyword: 1})  # pyright: ignore[reportArgumentType]
    assert str(caught.value).startswith(
        f"{cls.__name__}.__init__() got an unexpected keyword argument '{keyword}'"
    )
    with pytest.raises(TypeError, match=rf"^{cls.__name__}\.__init__\(\) takes from 1 to 2 positional"):
        cls(KEY, BASE)  # type: ignore[misc]


def test_a_subclass_is_named_too() -> None:
    class MyClient(LeadEnrich):
        pass

    with pytest.raises(TypeError, match=r"^test_a_subclass_is_named_too.<locals>.MyClient.__init__\(\) got"):
        MyClient(KEY, base_url=BASE, default_query={})  # type: ignore[call-arg]
    assert inspect.signature(MyClient) == inspect.signature(LeadEnrich)
    assert MyClient(KEY, base_url=BASE, max_retries=4).max_retries == 4


def test_key_with_inner_whitespace_is_rejected_without_echoing_it() -> None:
    with pytest.raises(LeadEnrichError) as caught:
        LeadEnrich("le_live_abc def", base_url=BASE)
    assert "abc def" not in str(caught.value)


def test_key_is_stripped_of_surrounding_whitespace(api: respx.MockRouter) -> None:
    route = api.get("/usage").respond(200, json=USAGE)
    with LeadEnrich(f"  {KEY}\n", base_url=BASE) as client:
        client.usage()
    assert route.calls.last.request.headers["authorization"] == f"Bearer {KEY}"


@pytest.mark.parametrize("cls", CLIENTS)
def test_repr_never_shows_the_key(cls: type[LeadEnrich]) -> None:
    client = cls(KEY, base_url=BASE)
    assert repr(client) == f"{cls.__name__}(base_url='{API}', max_retries=2)"


def test_default_headers_are_sent(api: respx.MockRouter) -> None:
    route = api.get("/usage").respond(200, json=USAGE)
    with LeadEnrich(KEY, base_url=BASE, default_headers={"X-Team": "growth-ops"}) as client:
        client.usage()
    assert route.calls.last.request.headers["x-team"] == "growth-ops"


def test_timeout_number_sets_every_phase_but_connect() -> None:
    client = LeadEnrich(KEY, base_url=BASE, timeout=12)
    assert client.timeout == httpx.Timeout(12.0, connect=5.0)


def test_with_options_shares_pool_and_budget_and_leaves_the_original_alone() -> None:
    client = LeadEnrich(KEY, base_url=BASE, rate_limits=RateLimits(sync_per_minute=5))
    copy = client.with_options(timeout=120, max_retries=7)
    assert (copy.max_retries, copy.timeout.read) == (7, 120.0)
    assert (client.max_retries, client.timeout.read) == (2, 30.0)
    assert copy._http is client._http
    assert copy._pacer is client._pacer
    assert copy.leads is not client.leads
    copy.close()
    assert not client._http.is_closed, "closing a copy must not close the shared pool"
    client.close()
    assert client._http.is_closed


def test_copies_keep_their_own_retry_setting(
    api: respx.MockRouter, sleeps: list[float], clock: ManualClock
) -> None:
    route = api.get("/usage").respond(503, json={"detail": "down"})
    client = LeadEnrich(KEY, clock=clock, base_url=BASE, max_retries=3)
    with pytest.raises(LeadEnrichError):
        client.with_options(max_retries=0).usage()
    assert route.call_count == 1
    with pytest.raises(LeadEnrichError):
        client.usage()
    assert route.call_count == 1 + 4


def test_injected_sync_client_is_used_and_not_closed(api: respx.MockRouter) -> None:
    route = api.get("/usage").respond(200, json=USAGE)
    http = httpx.Client(headers={"X-Proxy-Token": "p"})
    with LeadEnrich(KEY, base_url=BASE, http_client=http) as client:
        client.usage()
    assert route.calls.last.request.headers["x-proxy-token"] == "p"
    assert not http.is_closed
    http.close()


async def test_injected_async_client_is_used_and_not_closed(api: respx.MockRouter) -> None:
    route = api.get("/usage").respond(200, json=USAGE)
    http = httpx.AsyncClient(headers={"X-Proxy-Token": "p"})
    async with AsyncLeadEnrich(KEY, base_url=BASE, http_client=http) as client:
        await client.usage()
    assert route.calls.last.request.headers["x-proxy-token"] == "p"
    assert not http.is_closed
    await http.aclose()


@pytest.mark.parametrize("cls", CLIENTS)
async def test_a_request_through_an_injected_client_is_what_its_build_request_makes(
    api: respx.MockRouter, cls: type[LeadEnrich]
) -> None:
    # The SDK builds its requests itself, its headers merged once: the injected client's
    # headers, query parameters and cookies must still go out as httpx would send them,
    # and a change to the client's headers between calls must be seen.
    route = api.get("/usage").respond(200, json=USAGE)
    theirs = {"X-Proxy-Token": "p", "User-Agent": "theirs"}
    kind = httpx.Client if cls is LeadEnrich else httpx.AsyncClient
    http = kind(headers=theirs, params={"tenant": "t1"}, cookies={"session": "s"})
    ours = {"User-Agent": f"leadenrich-python/{__version__}", "Accept": "application/json"}
    client = cls(KEY, base_url=BASE, http_client=http)  # pyright: ignore[reportArgumentType]

    def expected(**extra: str) -> httpx.Request:
        headers = httpx.Headers({**ours, "Authorization": f"Bearer {KEY}"})
        headers.update(extra)  # case-insensitively, as a call's extra_headers replace ours
        return http.build_request("GET", f"{API}/usage", headers=headers, timeout=client.timeout)

    await call(client.usage())
    sent = route.calls.last.request
    want = expected()
    assert sent.headers.multi_items() == want.headers.multi_items()
    assert sent.headers["cookie"] == "session=s"
    assert (sent.url, sent.extensions["timeout"]) == (want.url, want.extensions["timeout"])
    await call(client.usage(extra_headers={"accept": "text/plain"}, timeout=7))
    sent = route.calls.last.request
    assert sent.headers.multi_items() == expected(accept="text/plain").headers.multi_items()
    assert sent.extensions["timeout"] == httpx.Timeout(7, connect=5).as_dict()
    http.headers["X-Proxy-Token"] = "q"
    await call(client.usage())
    assert route.calls.last.request.headers.multi_items() == expected().headers.multi_items()
    assert route.calls.last.request.headers["x-proxy-token"] == "q"
    http.headers = {"X-Other": "o"}
    await call(client.usage())
    assert route.calls.last.request.headers.multi_items() == expected().headers.multi_items()
    assert "x-proxy-token" not in route.calls.last.request.headers
    await close(client)
    await call(http.aclose() if isinstance(http, httpx.AsyncClient) else http.close())


@pytest.mark.parametrize("cls", CLIENTS)
async def test_an_injected_client_that_builds_requests_its_own_way_builds_them(
    api: respx.MockRouter, cls: type[LeadEnrich]
) -> None:
    # A subclass that signs each request in `build_request` (a proxy's scheme, a tracing
    # header): the SDK's requests go through it, with the SDK's headers and timeout.
    route = api.get("/usage").respond(200, json=USAGE)
    kind = httpx.Client if cls is LeadEnrich else httpx.AsyncClient

    class Signing(kind):  # type: ignore[valid-type,misc]
        def build_request(self, method: str, url: httpx.URL | str, **kwargs: Any) -> httpx.Request:
            request = super().build_request(method, url, **kwargs)
            request.headers["X-Signature"] = f"signed {request.method} {request.url.path}"
            return request

    http = Signing(params={"tenant": "t1"})
    client = cls(KEY, base_url=BASE, http_client=http)  # pyright: ignore[reportArgumentType]
    await call(client.usage(timeout=7))
    sent = route.calls.last.request
    assert sent.headers["x-signature"] == "signed GET /api/v1/usage"
    assert sent.headers["authorization"] == f"Bearer {KEY}"
    assert sent.url.params["tenant"] == "t1"
    assert sent.extensions["timeout"] == httpx.Timeout(7, connect=5).as_dict()
    await close(client)
    await call(http.aclose() if isinstance(http, httpx.AsyncClient) else http.close())


async def test_async_context_manager_closes_its_own_pool() -> None:
    async with AsyncLeadEnrich(KEY, base_url=BASE) as client:
        pass
    assert client._http.is_closed


def test_rate_limits_can_be_turned_off() -> None:
    assert LeadEnrich(KEY, base_url=BASE, rate_limits=None).rate_limits is None
    assert LeadEnrich(KEY, base_url=BASE).rate_limits == RateLimits(sync_per_minute=60, async_per_minute=600)
