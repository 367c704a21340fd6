"""Rate limits, the platform ceiling and concurrency, through both clients."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from leadenrich import LeadOut, RateLimitError
from tests.helpers import MakeServer, call

from .conftest import PATIENT, MakeClient

pytestmark = pytest.mark.anyio


async def test_the_per_key_limit_is_a_rate_limit_error(
    make_client: MakeClient, make_server: MakeServer
) -> None:
    server = make_server(sync_per_minute=3, time_scale=0.05)  # a 3-second window
    client = make_client(server, rate_limits=None, max_retries=0)
    for _ in range(3):
        await call(client.usage())
    with pytest.raises(RateLimitError) as raised:
        await call(client.leads.list())
    error = raised.value
    assert error.status_code == 429
    assert not error.upstream_full
    # The service's seconds until the 60-second window frees a place.
    assert error.retry_after is not None
    assert 50 <= error.retry_after <= 60
    assert error.detail == f"rate limit exceeded (3 req/min), retry in {error.retry_after:.0f} seconds"
    assert server.state.status_counts(server.api_key) == {200: 3, 429: 1}


async def test_a_paced_client_never_meets_the_limit(make_client: MakeClient, make_server: MakeServer) -> None:
    server = make_server(sync_per_minute=4)
    client = make_client(server)  # paced to the server's scaled window
    for _ in range(6):
        await call(client.usage())
    assert server.state.status_counts(server.api_key) == {200: 6}


@pytest.mark.parametrize("admission", ["queue", "upstream_full"])
async def test_a_full_platform_is_an_upstream_full_error(
    make_client: MakeClient, make_server: MakeServer, admission: str
) -> None:
    # Jobs that outlast the test.
    server = make_server(job_admission=admission, enrichment_seconds=(1000.0, 1000.0))
    client = make_client(server, max_retries=0, upstream_full_retries=0)
    # Another account fills the platform's five slots.
    headers = {"Authorization": f"Bearer {server.add_key()}"}
    async with httpx.AsyncClient(base_url=server.api_url, headers=headers, trust_env=False) as other:
        for n in range(5):
            created = await other.post(
                "/leads/enrich", json={"lead": {"company": "B", "domain": f"b{n}.com"}}
            )
            assert created.status_code == 202
    # Queued jobs take their slots after their intake time (1 API second).
    assert server.state.wait_until(lambda: server.state.in_flight == 5)
    busy = server.state.charges()
    with pytest.raises(RateLimitError) as raised:
        await call(client.leads.enrich_sync({"company": "Acme", "domain": "acme.com"}))
    assert raised.value.upstream_full
    assert raised.value.retry_after == 2
    assert server.state.charges() == busy


async def test_many_enrichments_at_once_lose_nothing(
    kind: str, make_client: MakeClient, make_server: MakeServer
) -> None:
    server = make_server(async_per_minute=1000, sync_per_minute=1000)
    client = make_client(server)
    leads = [{"company": f"C{n}", "domain": f"c{n}.com", "email": f"p{n}@c{n}.com"} for n in range(12)]

    def enrich(lead: dict[str, Any]) -> Any:
        if lead["company"].endswith(("0", "2", "4", "6", "8")):
            return client.leads.enrich_and_wait(lead, **PATIENT)
        return client.leads.enrich_sync(lead)

    if kind == "async":
        results = await asyncio.gather(*(enrich(lead) for lead in leads))
    else:
        with ThreadPoolExecutor(8) as pool:
            results = list(pool.map(enrich, leads))
    assert all(isinstance(result, LeadOut) for result in results)
    assert len({result.id for result in results}) == 12
    assert {lead.id for lead in server.state.leads()} == {result.id for result in results}
    assert server.state.charged("enrichment") == 12
    # The client holds one of its slots per enrichment, so the platform never turned it away.
    assert server.state.peak_in_flight <= 5
    assert 429 not in server.state.status_counts(server.api_key)
