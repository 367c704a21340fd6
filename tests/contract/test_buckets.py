"""The two per-key budgets of the spec's limits table, and that only the key over it is held back."""

from __future__ import annotations

import pytest

from leadenrich import RateLimitError
from tests.helpers import MakeServer, call

from .conftest import MakeClient

pytestmark = pytest.mark.anyio

LEAD = {"company": "Acme", "domain": "acme.com"}


async def test_async_job_creation_has_its_own_budget(
    make_client: MakeClient, make_server: MakeServer
) -> None:
    server = make_server(async_per_minute=3, sync_per_minute=100, time_scale=0.05)  # a 3 s window
    client = make_client(server, rate_limits=None, max_retries=0)
    for _ in range(3):
        await call(client.leads.enrich(LEAD))
    with pytest.raises(RateLimitError) as raised:
        await call(client.leads.enrich(LEAD))
    assert raised.value.detail.startswith("rate limit exceeded (3 req/min), retry in ")
    assert not raised.value.upstream_full
    # The sync budget is untouched by job creation.
    await call(client.usage())
    assert server.state.status_counts(server.api_key) == {202: 3, 429: 1, 200: 1}


async def test_only_the_key_over_its_limit_is_affected(
    make_client: MakeClient, make_server: MakeServer
) -> None:
    server = make_server(sync_per_minute=2, time_scale=0.05)
    busy = make_client(server, rate_limits=None, max_retries=0)
    other_key = server.add_key(user=server.user_of(server.api_key))  # same account, another key
    other = make_client(server, key=other_key, rate_limits=None, max_retries=0)
    await call(busy.usage())
    await call(busy.usage())
    with pytest.raises(RateLimitError):
        await call(busy.usage())
    usage = await call(other.usage())
    assert usage.api_calls_this_month.this_key == 1
    assert server.state.status_counts(other_key) == {200: 1}


async def test_the_paced_client_spreads_job_creation_over_its_budget(
    make_client: MakeClient, make_server: MakeServer
) -> None:
    server = make_server(async_per_minute=5, sync_per_minute=100, time_scale=0.005)  # 0.3 s window
    client = make_client(server)
    for _ in range(12):
        await call(client.leads.enrich(LEAD))
    assert server.state.status_counts(server.api_key) == {202: 12}
