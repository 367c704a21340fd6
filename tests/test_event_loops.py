"""An AsyncLeadEnrich used from more than one event loop: each `asyncio.run()` gets a pool
(and enrichment slots) of its own, closed as that loop ends; a pool the caller gave is
used as it is."""

from __future__ import annotations

import asyncio

import httpx
import pytest
import respx

from leadenrich import AsyncLeadEnrich, LeadDict, RateLimits
from leadenrich.testing import FakeServer
from tests.conftest import BASE, KEY
from tests.helpers import USAGE

ROWS: list[LeadDict] = [{"company": f"Co{n}", "domain": f"co{n}.com"} for n in range(5)]


def test_a_second_asyncio_run_gets_a_pool_of_its_own(server: FakeServer) -> None:
    # The first loop's connection, kept alive in the pool, died with its loop.
    client = AsyncLeadEnrich(server.api_key, base_url=server.url, clock=server.clock)

    async def tier() -> str:
        return (await client.usage()).tier

    assert asyncio.run(tier()) == "growth"
    assert asyncio.run(tier()) == "growth"
    asyncio.run(client.aclose())


def test_a_client_serves_one_asyncio_run_after_another(server: FakeServer) -> None:
    # One slot for three leads at a time: the slots are waited on in each loop, which an
    # asyncio semaphore allows in the loop it first waited in only.
    limits = RateLimits(concurrent_enrichments=1, period=server.rate_limits.period)
    client = AsyncLeadEnrich(server.api_key, base_url=server.url, rate_limits=limits, clock=server.clock)
    first_pool = client._http

    async def enrich(rows: list[LeadDict]) -> int:
        result = await client.leads.enrich_many(rows, concurrency=3, progress=False)
        return int(result.succeeded)

    assert asyncio.run(enrich(ROWS[:2])) == 2
    assert asyncio.run(enrich(ROWS[2:])) == 3
    # The first loop's end closed its pool: no connection outlives the loop it belongs to.
    assert first_pool.is_closed

    async def close() -> None:
        await client.aclose()

    asyncio.run(close())
    assert server.state.wait_until(lambda: server.state.connections == 0, 5.0)
    assert server.state.charged("enrichment", key=server.api_key) == 5


def test_a_closed_client_stays_closed_in_another_loop(server: FakeServer) -> None:
    client = AsyncLeadEnrich(server.api_key, base_url=server.url, clock=server.clock)

    async def use_then_close() -> None:
        await client.usage()
        await client.aclose()

    async def use() -> None:
        await client.usage()

    asyncio.run(use_then_close())
    # Not a new pool for the new loop: closing is for good, as httpx says.
    with pytest.raises(RuntimeError, match="client has been closed"):
        asyncio.run(use())


def test_a_pool_the_caller_gave_is_used_in_every_loop(api: respx.MockRouter) -> None:
    route = api.get("/usage").respond(200, json=USAGE)
    http = httpx.AsyncClient(headers={"X-Proxy-Token": "p"})
    client = AsyncLeadEnrich(KEY, base_url=BASE, http_client=http, rate_limits=None)

    async def usage() -> None:
        await client.usage()

    asyncio.run(usage())
    asyncio.run(usage())
    assert [call.request.headers["x-proxy-token"] for call in route.calls] == ["p", "p"]
    assert not http.is_closed  # the caller's, to close

    async def close() -> None:
        await client.aclose()
        assert not http.is_closed
        await http.aclose()

    asyncio.run(close())
