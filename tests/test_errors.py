"""Error statuses become typed errors, built from the response; the key never leaks."""

from __future__ import annotations

import logging
from typing import Any

import httpx
import pytest
import respx

from leadenrich import (
    APIResponseValidationError,
    APIStatusError,
    AuthenticationError,
    InternalServerError,
    LeadEnrichError,
    NotFoundError,
    PermissionDeniedError,
    QuotaExceededError,
    RateLimitError,
    UnprocessableEntityError,
    ValidationErrorItem,
)
from tests.conftest import KEY
from tests.helpers import call, lead_out

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    ("status", "detail", "error_type"),
    [
        (401, "Invalid API key", AuthenticationError),
        (402, "Monthly lead limit reached; buy a credit pack", QuotaExceededError),
        (403, "Your plan does not include API access", PermissionDeniedError),
        (404, "Lead not found", NotFoundError),
        (409, "Conflict", APIStatusError),
        (500, "boom", InternalServerError),
        (503, "maintenance", InternalServerError),
    ],
)
async def test_status_maps_to_error(
    client: Any, api: respx.MockRouter, status: int, detail: str, error_type: type[APIStatusError]
) -> None:
    api.get("/leads/x").respond(status, json={"detail": detail})
    with pytest.raises(error_type) as caught:
        await call(client.with_options(max_retries=0).leads.get("x"))
    error = caught.value
    assert type(error) is error_type
    assert error.status_code == status
    assert error.detail == detail
    assert error.body == {"detail": detail}
    assert error.response.status_code == status
    assert detail in str(error)
    assert "GET /api/v1/leads/x" in str(error)


@pytest.mark.parametrize(
    ("status", "body", "hint"),
    [
        (
            401,
            {"detail": "Invalid API key"},
            "Invalid API key; check the key given as api_key= or in LEADENRICH_API_KEY: it must be "
            "whole, as the dashboard showed it, not revoked, and a key of the service at https://api.test",
        ),
        (402, {"detail": "Monthly lead limit reached; buy a credit pack"}, None),
        (403, {"detail": "Your plan does not include API access"}, None),
        (
            402,
            "<html>Payment Required</html>",
            "; the monthly quota or the credits are spent; client.usage() shows which",
        ),
        (403, "<html>Forbidden</html>", "; API access needs a Growth, Scale or Enterprise plan"),
    ],
)
async def test_a_hint_says_what_the_detail_does_not(
    client: Any, api: respx.MockRouter, status: int, body: Any, hint: str | None
) -> None:
    if isinstance(body, str):
        api.get("/usage").respond(status, text=body)
    else:
        api.get("/usage").respond(status, json=body)
    with pytest.raises(APIStatusError) as caught:
        await call(client.usage())
    message = str(caught.value)
    if hint is None:
        assert isinstance(body, dict)
        assert message.endswith(body["detail"]), "the service's detail already says what to do"
    else:
        assert message.endswith(hint)


@pytest.mark.parametrize(
    ("detail", "said"),
    [
        (
            "missing or invalid API key: pass your key as a Bearer token in the Authorization header "
            "(Authorization: Bearer <API_KEY>)",
            "missing or invalid API key",
        ),
        ("Invalid API key; pass it as a Bearer token.", "Invalid API key"),
        ("Pass your API key as a Bearer token", "the API key was refused"),
    ],
)
async def test_a_401_says_what_to_check_not_how_to_send_the_key(
    client: Any, api: respx.MockRouter, detail: str, said: str
) -> None:
    # The service tells its callers to send the key as a Bearer token, which the SDK does:
    # repeated to an SDK user, that advice contradicts the SDK's own.
    api.get("/usage").respond(401, json={"detail": detail})
    with pytest.raises(AuthenticationError) as caught:
        await call(client.usage())
    assert str(caught.value) == (
        f"401 Unauthorized from GET /api/v1/usage: {said}; check the key given as api_key= or in "
        "LEADENRICH_API_KEY: it must be whole, as the dashboard showed it, not revoked, and a key "
        "of the service at https://api.test"
    )
    assert caught.value.detail == detail  # the service's own words, whole


async def test_422_lists_the_errors(client: Any, api: respx.MockRouter) -> None:
    detail = [
        {"loc": ["body", "lead", "domain"], "msg": "Field required", "type": "missing"},
        {
            "loc": ["query", "limit"],
            "msg": "Input should be greater than 0",
            "type": "greater_than",
            "ctx": {},
        },
    ]
    api.get("/leads").respond(422, json={"detail": detail})
    with pytest.raises(UnprocessableEntityError) as caught:
        await call(client.leads.list())
    error = caught.value
    assert error.errors == [
        ValidationErrorItem(loc=["body", "lead", "domain"], msg="Field required", type="missing"),
        ValidationErrorItem.model_validate(detail[1]),
    ]
    assert "body.lead.domain: Field required" in str(error)
    assert "query.limit: Input should be greater than 0" in str(error)


async def test_429_per_key(client: Any, api: respx.MockRouter) -> None:
    detail = "rate limit exceeded (60 req/min), retry in 12 seconds"
    api.get("/usage").respond(429, json={"detail": detail}, headers={"Retry-After": "12"})
    with pytest.raises(RateLimitError) as caught:
        await call(client.with_options(max_retries=0).usage())
    assert caught.value.retry_after == 12.0
    assert caught.value.upstream_full is False


async def test_429_upstream_full(client: Any, api: respx.MockRouter) -> None:
    detail = "upstream_full: the platform is busy, retry in a few seconds"
    api.post("/leads/enrich").respond(429, json={"detail": detail}, headers={"Retry-After": "2"})
    with pytest.raises(RateLimitError) as caught:
        await call(client.with_options(max_retries=0).leads.enrich({"company": "A", "domain": "a.com"}))
    assert caught.value.retry_after == 2.0
    assert caught.value.upstream_full is True


@pytest.mark.parametrize("header", [None, "soon", "-3"])
async def test_429_without_a_usable_retry_after(
    client: Any, api: respx.MockRouter, header: str | None
) -> None:
    headers = {"Retry-After": header} if header is not None else {}
    api.get("/usage").respond(429, json={"detail": "slow down"}, headers=headers)
    with pytest.raises(RateLimitError) as caught:
        await call(client.with_options(max_retries=0).usage())
    assert caught.value.retry_after is None


async def test_html_502_gives_a_short_excerpt(client: Any, api: respx.MockRouter) -> None:
    page = "<html><head><title>502 Bad Gateway</title></head><body>" + "x" * 5000 + "</body></html>"
    api.get("/usage").respond(502, text=page, headers={"Content-Type": "text/html"})
    with pytest.raises(InternalServerError) as caught:
        await call(client.with_options(max_retries=0).usage())
    error = caught.value
    assert error.status_code == 502
    assert error.detail is None
    assert error.body == page
    assert "<title>502 Bad Gateway</title>" in str(error)
    assert len(str(error)) < 400


async def test_2xx_body_that_does_not_fit_names_the_field(client: Any, api: respx.MockRouter) -> None:
    bad = lead_out()
    bad["enrichment"]["opportunity_score"] = 140
    api.get("/leads/ld_1").respond(200, json=bad)
    with pytest.raises(APIResponseValidationError) as caught:
        await call(client.leads.get("ld_1"))
    message = str(caught.value)
    assert "enrichment.opportunity_score" in message
    assert "LeadOut" in message
    assert caught.value.response.status_code == 200


async def test_2xx_body_that_is_not_json(client: Any, api: respx.MockRouter) -> None:
    api.get("/usage").respond(200, text="<html>hello</html>")
    with pytest.raises(APIResponseValidationError, match=r"(?i)json"):
        await call(client.usage())


async def test_connection_refused_is_a_connection_error(client: Any, api: respx.MockRouter) -> None:
    api.get("/usage").mock(side_effect=httpx.ConnectError("connection refused"))
    with pytest.raises(LeadEnrichError) as caught:
        await call(client.with_options(max_retries=0).usage())
    assert type(caught.value).__name__ == "APIConnectionError"
    assert caught.value.request_sent is False  # type: ignore[attr-defined]
    assert "before the request was sent" in str(caught.value)
    assert "check that base_url (https://api.test) is right and the service is up" in str(caught.value)


async def test_read_timeout_is_a_timeout_error(client: Any, api: respx.MockRouter) -> None:
    api.get("/usage").mock(side_effect=httpx.ReadTimeout("read timed out"))
    with pytest.raises(LeadEnrichError) as caught:
        await call(client.with_options(max_retries=0).usage())
    assert type(caught.value).__name__ == "APITimeoutError"
    assert caught.value.request_sent is True  # type: ignore[attr-defined]
    assert "base_url" not in str(caught.value)  # it was reached: the address is right


async def test_the_key_never_appears_in_errors_or_logs(
    client: Any, api: respx.MockRouter, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="leadenrich")
    api.get("/usage").respond(401, json={"detail": f"Invalid API key {KEY}; pass it as a Bearer token"})
    api.get("/leads/x").respond(500, text=f"crash while handling {KEY}")
    with pytest.raises(AuthenticationError) as auth:
        await call(client.usage())
    with pytest.raises(InternalServerError) as server:
        await call(client.leads.get("x"))
    for error in (auth.value, server.value):
        assert KEY not in str(error)
        assert KEY not in repr(error)
    assert "***" in str(auth.value)
    assert KEY not in repr(client)
    assert KEY not in caplog.text
    assert caplog.records, "DEBUG logging should have recorded the requests"
