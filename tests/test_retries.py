"""The retry policy: what is retried, how long it waits, and what is never re-sent."""

from __future__ import annotations

import logging
from typing import Any

import httpx
import pytest
import respx

from leadenrich import (
    APIConnectionError,
    APITimeoutError,
    AsyncLeadEnrich,
    InternalServerError,
    LeadDict,
    LeadEnrich,
    NotFoundError,
    RateLimitError,
)
from leadenrich.testing import ManualClock
from tests.conftest import BASE, KEY
from tests.helpers import USAGE, call, job_out, lead_out

pytestmark = pytest.mark.anyio

LEAD: LeadDict = {"company": "Acme", "domain": "acme.com"}
PER_KEY = {"detail": "rate limit exceeded (60 req/min), retry in 7 seconds"}
UPSTREAM = {"detail": "upstream_full: all enrichment workers are busy, retry in a few seconds"}


def responses(*items: httpx.Response | Exception) -> list[httpx.Response | Exception]:
    return list(items)


async def test_retry_after_is_honoured_within_the_jitter(
    client: Any, api: respx.MockRouter, sleeps: list[float], clock: ManualClock
) -> None:
    route = api.get("/usage").mock(
        side_effect=responses(
            httpx.Response(429, json=PER_KEY, headers={"Retry-After": "7"}), httpx.Response(200, json=USAGE)
        )
    )
    await call(client.usage())
    assert route.call_count == 2
    assert len(sleeps) == 1
    assert 7.0 <= sleeps[0] <= 7.0 + 0.8


async def test_a_charging_post_is_retried_after_a_429(
    client: Any, api: respx.MockRouter, sleeps: list[float], clock: ManualClock
) -> None:
    # A 429 means the request was refused before any work: nothing was charged.
    route = api.post("/leads/enrich").mock(
        side_effect=responses(
            httpx.Response(429, json=PER_KEY, headers={"Retry-After": "1"}),
            httpx.Response(202, json={"job_id": "j", "status": "queued"}),
        )
    )
    job = await call(client.leads.enrich(LEAD))
    assert job.job_id == "j"
    assert route.call_count == 2


async def test_upstream_full_backs_off_about_two_seconds(
    client: Any, api: respx.MockRouter, sleeps: list[float], clock: ManualClock
) -> None:
    route = api.post("/leads/enrich", params={"mode": "sync"}).mock(
        side_effect=responses(
            *[httpx.Response(429, json=UPSTREAM, headers={"Retry-After": "2"}) for _ in range(5)],
            httpx.Response(200, json=lead_out()),
        )
    )
    lead = await call(client.leads.enrich_sync(LEAD))
    assert lead.id == "ld_1"
    assert route.call_count == 6
    assert len(sleeps) == 5
    assert all(2.0 <= s <= 2.5 for s in sleeps), sleeps
    assert len(set(sleeps)) > 1, "back-off should be jittered"


async def test_upstream_full_waits_a_larger_retry_after(
    client: Any, api: respx.MockRouter, sleeps: list[float], clock: ManualClock
) -> None:
    api.post("/leads/enrich").mock(
        side_effect=responses(
            httpx.Response(429, json=UPSTREAM, headers={"Retry-After": "5"}),
            httpx.Response(202, json={"job_id": "j"}),
        )
    )
    await call(client.leads.enrich(LEAD))
    assert 5.0 <= sleeps[0] <= 5.5


async def test_upstream_full_has_its_own_budget(
    api: respx.MockRouter, sleeps: list[float], clock: ManualClock
) -> None:
    route = api.post("/leads/enrich").respond(429, json=UPSTREAM, headers={"Retry-After": "2"})
    client = LeadEnrich(
        KEY, clock=clock, base_url=BASE, max_retries=1, upstream_full_retries=4, rate_limits=None
    )
    with pytest.raises(RateLimitError) as caught:
        client.leads.enrich(LEAD)
    assert route.call_count == 5
    assert caught.value.attempts == 5
    assert "after 5 attempts" in str(caught.value)


async def test_retry_after_above_the_cap_surfaces_at_once(
    client: Any, api: respx.MockRouter, sleeps: list[float], clock: ManualClock
) -> None:
    route = api.get("/usage").respond(429, json=PER_KEY, headers={"Retry-After": "3600"})
    with pytest.raises(RateLimitError) as caught:
        await call(client.usage())
    assert route.call_count == 1
    assert sleeps == []
    assert caught.value.retry_after == 3600


async def test_the_cap_is_configurable(
    api: respx.MockRouter, sleeps: list[float], clock: ManualClock
) -> None:
    api.get("/usage").mock(
        side_effect=responses(
            httpx.Response(429, json=PER_KEY, headers={"Retry-After": "90"}), httpx.Response(200, json=USAGE)
        )
    )
    client = LeadEnrich(KEY, clock=clock, base_url=BASE, max_retry_after=120, rate_limits=None)
    client.usage()
    assert 90 <= sleeps[0] <= 91


@pytest.mark.parametrize(
    "failure",
    [
        httpx.Response(500, json={"detail": "boom"}),
        httpx.Response(502, text="<html>Bad Gateway</html>"),
        httpx.ReadTimeout("read timed out"),
        httpx.RemoteProtocolError("Server disconnected without sending a response."),
    ],
)
@pytest.mark.parametrize(
    ("method", "path", "invoke", "check"),
    [
        (
            "POST",
            "/leads/enrich",
            lambda c: c.leads.enrich(LEAD),
            "look for the lead among client.leads.iter()",
        ),
        (
            "POST",
            "/leads/enrich",
            lambda c: c.leads.enrich_sync(LEAD),
            "look for the lead among client.leads.iter()",
        ),
        (
            "POST",
            "/leads/ld_1/re-enrich",
            lambda c: c.leads.re_enrich("ld_1"),
            "client.leads.get('ld_1') shows whether it was re-enriched",
        ),
        (
            "POST",
            "/email/find",
            lambda c: c.email.find(linkedin_url="https://linkedin.com/in/a"),
            "client.usage() shows whether a credit was spent",
        ),
        (
            "POST",
            "/mobile/find",
            lambda c: c.mobile.find(linkedin_url="https://linkedin.com/in/a"),
            "client.usage() shows whether a credit was spent",
        ),
    ],
)
async def test_a_charging_post_is_never_resent_once_it_may_have_been_accepted(
    client: Any,
    api: respx.MockRouter,
    sleeps: list[float],
    clock: ManualClock,
    failure: httpx.Response | Exception,
    method: str,
    path: str,
    invoke: Any,
    check: str,
) -> None:
    route = api.route(method=method, path=path).mock(side_effect=[failure])
    with pytest.raises((InternalServerError, APIConnectionError)) as caught:
        await call(invoke(client))
    assert route.call_count == 1, "a charging POST was re-sent"
    assert sleeps == []
    message = str(caught.value)
    if isinstance(failure, httpx.Response):  # the service answered, with a 5xx
        assert (
            ". It was not sent again: a 5xx can come after a charge, and only the service's own words "
            "(such as a refund) tell whether this one was charged; " in message
        )
    else:
        assert (
            ". It was not sent again: the service may have accepted and charged it before the answer was lost; "
            in (message)
        )
    assert check in message
    assert message.endswith(".")
    assert ".." not in message


async def test_a_charging_post_is_retried_when_nothing_was_sent(
    client: Any, api: respx.MockRouter, sleeps: list[float], clock: ManualClock
) -> None:
    route = api.post("/leads/enrich").mock(
        side_effect=responses(
            httpx.ConnectError("refused"),
            httpx.ConnectTimeout("slow"),
            httpx.Response(202, json={"job_id": "j"}),
        )
    )
    job = await call(client.leads.enrich(LEAD))
    assert job.job_id == "j"
    assert route.call_count == 3
    assert len(sleeps) == 2


@pytest.mark.parametrize(
    "failure",
    [
        httpx.Response(503, json={"detail": "maintenance"}),
        httpx.ReadTimeout("read timed out"),
        httpx.RemoteProtocolError("Server disconnected"),
    ],
)
async def test_a_get_is_retried_after_an_ambiguous_failure(
    client: Any,
    api: respx.MockRouter,
    sleeps: list[float],
    clock: ManualClock,
    failure: httpx.Response | Exception,
) -> None:
    route = api.get("/jobs/j").mock(side_effect=responses(failure, httpx.Response(200, json=job_out("j"))))
    job = await call(client.jobs.get("j"))
    assert job.job_id == "j"
    assert route.call_count == 2
    assert len(sleeps) == 1
    assert 0.25 <= sleeps[0] <= 0.5


async def test_a_delete_is_retried_after_a_503(
    client: Any, api: respx.MockRouter, sleeps: list[float], clock: ManualClock
) -> None:
    route = api.delete("/leads/x").mock(
        side_effect=responses(httpx.Response(503), httpx.Response(200, json={"id": "x", "deleted": True}))
    )
    await call(client.leads.delete("x"))
    assert route.call_count == 2


async def test_a_delete_whose_lost_answer_deleted_the_lead_says_so(
    client: Any, api: respx.MockRouter, sleeps: list[float], clock: ManualClock
) -> None:
    gone = httpx.Response(404, json={"detail": "Lead not found"})
    route = api.delete("/leads/x").mock(side_effect=[httpx.RemoteProtocolError("dropped"), gone])
    with pytest.raises(
        NotFoundError, match="An earlier attempt, whose answer was lost, has probably deleted it"
    ):
        await call(client.leads.delete("x"))
    assert route.call_count == 2


async def test_a_plain_404_on_delete_claims_nothing(client: Any, api: respx.MockRouter) -> None:
    api.delete("/leads/x").respond(404, json={"detail": "Lead not found"})
    with pytest.raises(NotFoundError) as caught:
        await call(client.leads.delete("x"))
    assert "earlier attempt" not in str(caught.value)


async def test_backoff_grows_exponentially(
    api: respx.MockRouter, sleeps: list[float], clock: ManualClock
) -> None:
    route = api.get("/usage").respond(503)
    client = LeadEnrich(KEY, clock=clock, base_url=BASE, max_retries=5, rate_limits=None)
    with pytest.raises(InternalServerError) as caught:
        client.usage()
    assert route.call_count == 6
    assert caught.value.attempts == 6
    ceilings = [0.5, 1.0, 2.0, 4.0, 8.0]
    assert len(sleeps) == len(ceilings)
    assert all(c / 2 <= s <= c for s, c in zip(sleeps, ceilings, strict=True)), sleeps


@pytest.mark.parametrize("cls", [LeadEnrich, AsyncLeadEnrich])
async def test_backoff_stops_growing_at_8_seconds(
    api: respx.MockRouter, sleeps: list[float], clock: ManualClock, cls: Any
) -> None:
    # docs/retries.md: at most 8 s. Uncapped, the 6th to 9th waits would be 8-16 s, 16-32 s,
    # 32-64 s and 64-128 s.
    api.get("/usage").respond(503)
    client = cls(KEY, clock=clock, base_url=BASE, max_retries=9, rate_limits=None)
    with pytest.raises(InternalServerError):
        await call(client.usage())
    assert len(sleeps) == 9
    assert all(4.0 <= wait <= 8.0 for wait in sleeps[4:]), sleeps


@pytest.mark.parametrize("cls", [LeadEnrich, AsyncLeadEnrich])
async def test_max_retries_zero_surfaces_at_once(
    api: respx.MockRouter, sleeps: list[float], clock: ManualClock, cls: Any
) -> None:
    route = api.get("/usage").respond(429, json=UPSTREAM, headers={"Retry-After": "2"})
    # On the clock: a wait of any length is recorded in `sleeps`, so "at once" is exact.
    client = cls(KEY, base_url=BASE, max_retries=0, rate_limits=None, clock=clock)
    with pytest.raises(RateLimitError) as caught:
        await call(client.usage())
    assert route.call_count == 1
    assert sleeps == []
    assert caught.value.attempts == 1


async def test_exhausted_retries_raise_the_last_error_with_the_count(
    client: Any, api: respx.MockRouter, sleeps: list[float], clock: ManualClock
) -> None:
    route = api.get("/usage").mock(
        side_effect=responses(httpx.ConnectError("refused"), httpx.Response(503), httpx.ReadTimeout("slow"))
    )
    with pytest.raises(APITimeoutError) as caught:
        await call(client.usage())
    assert route.call_count == 3
    assert caught.value.attempts == 3
    assert str(caught.value).endswith("(after 3 attempts)")


async def test_4xx_other_than_429_is_never_retried(
    client: Any, api: respx.MockRouter, sleeps: list[float], clock: ManualClock
) -> None:
    route = api.get("/usage").respond(402, json={"detail": "Monthly limit reached; buy a credit pack"})
    with pytest.raises(Exception, match="402"):
        await call(client.usage())
    assert route.call_count == 1


async def test_retries_are_logged_at_info_without_the_key(
    client: Any,
    api: respx.MockRouter,
    sleeps: list[float],
    clock: ManualClock,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="leadenrich")
    api.get("/usage").mock(
        side_effect=responses(
            httpx.Response(429, json=PER_KEY, headers={"Retry-After": "3"}), httpx.Response(200, json=USAGE)
        )
    )
    await call(client.usage())
    infos = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO]
    # One line per answer, and the decision to retry between them.
    assert [m.split(" -> ")[-1].split(" (")[0] for m in (infos[0], infos[2])] == [
        "429 Too Many Requests",
        "200 OK",
    ]
    message = infos[1]
    assert "GET /usage" in message
    assert "429 rate limit" in message
    assert "attempt 2" in message
    assert KEY not in caplog.text
