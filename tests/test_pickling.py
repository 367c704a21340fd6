"""Errors cross processes (pickle) and copy intact; clients copy into working copies."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import httpx
import pytest
import respx

import leadenrich
from leadenrich import (
    APIConnectionError,
    APIResponseValidationError,
    APIStatusError,
    APITimeoutError,
    AsyncLeadEnrich,
    AuthenticationError,
    InternalServerError,
    InvalidRequestError,
    JobFailedError,
    JobOut,
    LeadEnrich,
    LeadEnrichError,
    NotFoundError,
    PermissionDeniedError,
    PollTimeoutError,
    QuotaExceededError,
    RateLimitError,
    UnprocessableEntityError,
)
from leadenrich._errors import status_error
from tests.conftest import BASE, KEY
from tests.helpers import call

pytestmark = pytest.mark.anyio

REQUEST = httpx.Request("POST", "https://api.test/api/v1/leads/enrich?mode=sync", content=b'{"lead": {}}')


def answer(status: int, body: Any, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.Response(status, json=body, headers=headers, request=REQUEST)


def failed_job() -> JobOut:
    return JobOut(job_id="job_9", status="failed", error={"message": "upstream timeout", "code": "timeout"})


EXAMPLES: dict[type[LeadEnrichError], Callable[[], LeadEnrichError]] = {
    LeadEnrichError: lambda: LeadEnrichError("no api_key given: pass api_key=..."),
    InvalidRequestError: lambda: InvalidRequestError("invalid lead: domain is missing"),
    APIConnectionError: lambda: APIConnectionError(
        "POST /leads/enrich failed", request=REQUEST, request_sent=True
    ),
    APITimeoutError: lambda: APITimeoutError(
        "POST /leads/enrich timed out", request=REQUEST, request_sent=False
    ),
    APIStatusError: lambda: status_error(answer(418, {"detail": "teapot"})),
    AuthenticationError: lambda: status_error(answer(401, {"detail": "invalid key"}), secret=KEY),
    QuotaExceededError: lambda: status_error(answer(402, {"detail": "monthly quota exhausted"})),
    PermissionDeniedError: lambda: status_error(answer(403, {"detail": "plan has no API access"})),
    NotFoundError: lambda: status_error(answer(404, {"detail": "lead 'ld_1' not found"})),
    UnprocessableEntityError: lambda: status_error(
        answer(
            422, {"detail": [{"loc": ["body", "lead", "domain"], "msg": "bad domain", "type": "value_error"}]}
        )
    ),
    RateLimitError: lambda: status_error(
        answer(429, {"detail": "upstream_full: retry"}, {"Retry-After": "2"})
    ),
    InternalServerError: lambda: status_error(answer(503, {"detail": "maintenance"})),
    APIResponseValidationError: lambda: APIResponseValidationError(
        "200 response to GET /usage does not fit UsageOut", response=answer(200, {"unexpected": True})
    ),
    JobFailedError: lambda: JobFailedError(failed_job()),
    PollTimeoutError: lambda: PollTimeoutError(
        "enrichment job job_9 still running after 5 s", last=failed_job()
    ),
}


def public_error_classes() -> set[type[LeadEnrichError]]:
    exported = (getattr(leadenrich, name) for name in leadenrich.__all__)
    return {obj for obj in exported if isinstance(obj, type) and issubclass(obj, LeadEnrichError)}


def test_the_examples_cover_every_public_error_class() -> None:
    assert set(EXAMPLES) == public_error_classes()
    assert all(type(make()) is cls for cls, make in EXAMPLES.items())


def same_error(original: LeadEnrichError, restored: LeadEnrichError) -> None:
    assert type(restored) is type(original)
    assert str(restored) == str(original)
    assert restored.message == original.message
    assert restored.args == original.args
    assert restored.attempts == original.attempts
    if isinstance(original, APIStatusError):
        assert isinstance(restored, APIStatusError)
        assert (restored.status_code, restored.detail, restored.body) == (
            original.status_code,
            original.detail,
            original.body,
        )
        assert restored.response.status_code == original.response.status_code
        assert restored.response.headers == original.response.headers
        assert restored.response.request.url == original.response.request.url
    if isinstance(original, RateLimitError):
        assert isinstance(restored, RateLimitError)
        assert (restored.retry_after, restored.upstream_full) == (2.0, True)
    if isinstance(original, UnprocessableEntityError):
        assert isinstance(restored, UnprocessableEntityError)
        assert restored.errors == original.errors
        assert restored.errors[0].loc == ["body", "lead", "domain"]
    if isinstance(original, APIConnectionError):
        assert isinstance(restored, APIConnectionError)
        assert restored.request_sent is original.request_sent
        assert restored.request.url == original.request.url
        assert restored.request.content == original.request.content
    if isinstance(original, APIResponseValidationError):
        assert isinstance(restored, APIResponseValidationError)
        assert restored.body == original.body
    if isinstance(original, JobFailedError):
        assert isinstance(restored, JobFailedError)
        assert restored.job == original.job
    if isinstance(original, PollTimeoutError):
        assert isinstance(restored, PollTimeoutError)
        assert restored.last == original.last


@pytest.mark.parametrize("cls", list(EXAMPLES), ids=lambda cls: cls.__name__)
@pytest.mark.parametrize("protocol", [2, pickle.HIGHEST_PROTOCOL])
def test_every_error_survives_pickle(cls: type[LeadEnrichError], protocol: int) -> None:
    original = EXAMPLES[cls]()
    original.attempts = 3
    restored = pickle.loads(pickle.dumps(original, protocol=protocol))
    same_error(original, restored)
    assert "(after 3 attempts)" in str(restored)
    # Still caught as what it is.
    with pytest.raises(cls):
        raise restored


@pytest.mark.parametrize("cls", list(EXAMPLES), ids=lambda cls: cls.__name__)
def test_every_error_survives_copy(cls: type[LeadEnrichError]) -> None:
    original = EXAMPLES[cls]()
    same_error(original, copy.copy(original))
    same_error(original, copy.deepcopy(original))


async def test_an_error_from_a_real_exchange_pickles(client: Any, api: respx.MockRouter) -> None:
    api.get("/leads/ld_9").respond(404, json={"detail": "lead 'ld_9' not found"})
    with pytest.raises(NotFoundError) as caught:
        await call(client.leads.get("ld_9"))
    restored = pickle.loads(pickle.dumps(caught.value))
    same_error(caught.value, restored)
    assert restored.response.json() == {"detail": "lead 'ld_9' not found"}
    assert KEY not in str(restored)


def test_copy_of_a_client_is_a_working_copy_sharing_the_pool(api: respx.MockRouter) -> None:
    route = api.get("/leads/ld_1").respond(404, json={"detail": "lead 'ld_1' not found"})
    client = LeadEnrich(KEY, base_url=BASE, max_retries=4)
    duplicate = copy.copy(client)
    assert type(duplicate) is LeadEnrich
    assert duplicate is not client
    assert (duplicate.base_url, duplicate.max_retries, duplicate.rate_limits) == (
        client.base_url,
        client.max_retries,
        client.rate_limits,
    )
    # Its namespaces are its own, bound to the copy.
    assert duplicate.leads is not client.leads
    with pytest.raises(NotFoundError):
        duplicate.leads.get("ld_1")
    assert route.call_count == 1
    duplicate.close()  # leaves the shared pool open
    with pytest.raises(NotFoundError):
        client.leads.get("ld_1")
    assert route.call_count == 2
    client.close()


async def test_copy_of_an_async_client(api: respx.MockRouter) -> None:
    api.get("/usage").respond(403, json={"detail": "no API access"})
    client = AsyncLeadEnrich(KEY, base_url=BASE)
    duplicate = copy.copy(client)
    assert type(duplicate) is AsyncLeadEnrich
    await duplicate.aclose()
    with pytest.raises(PermissionDeniedError):
        await client.usage()
    await client.aclose()
