"""Helpers for the fake server's tests: raw HTTP clients, request bodies, waits."""

from __future__ import annotations

from typing import Any

import httpx

from leadenrich import JobOut, MobileFindOut
from leadenrich.testing import FakeServer

VALIDATION_KEYS = {"loc", "msg", "type"}


def api_client(server: FakeServer, key: str | None = None) -> httpx.Client:
    """An httpx client on the server's /api/v1, sending `key` (the ready key by default)."""
    return anonymous_client(server, headers={"Authorization": f"Bearer {key or server.api_key}"})


def anonymous_client(server: FakeServer, headers: dict[str, str] | None = None) -> httpx.Client:
    """An httpx client on the server's /api/v1 sending no key."""
    # verify=False: plain http only, and it skips loading CA certificates (~30 ms a client).
    return httpx.Client(base_url=server.api_url, headers=headers, trust_env=False, verify=False, timeout=10.0)


def lead(domain: str = "acme.com", **fields: Any) -> dict[str, Any]:
    """A LeadIn body."""
    return {"company": domain.split(".")[0].title() + " Inc", "domain": domain, **fields}


def wait_job(server: FakeServer, job_id: str, timeout: float = 5.0) -> JobOut:
    """The job once it is done or failed (waits on the server's state, not by polling HTTP)."""

    def find() -> JobOut | None:
        return next((j for j in server.state.jobs() if j.job_id == job_id), None)

    assert server.state.wait_until(lambda: (job := find()) is not None and job.is_terminal, timeout)
    job = find()
    assert job is not None
    return job


def wait_lookup(server: FakeServer, lookup_id: str, timeout: float = 5.0) -> MobileFindOut:
    def find() -> MobileFindOut | None:
        return next((m for m in server.state.lookups() if m.lookup_id == lookup_id), None)

    assert server.state.wait_until(lambda: (m := find()) is not None and m.is_terminal, timeout)
    lookup = find()
    assert lookup is not None
    return lookup


def assert_validation_error(response: httpx.Response, loc: list[str | int]) -> list[dict[str, Any]]:
    """A 422 in the spec's shape, one of whose entries points at `loc`."""
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, list)
    assert detail
    for entry in detail:
        assert set(entry) == VALIDATION_KEYS, entry
        assert isinstance(entry["msg"], str)
        assert isinstance(entry["type"], str)
        assert all(isinstance(part, (str, int)) for part in entry["loc"])
    assert loc in [entry["loc"] for entry in detail], detail
    return detail
