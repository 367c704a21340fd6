"""Contract fixtures: a fake server, and the sync or the async client on it.

Every test runs twice, once per client, with one body: `await call(client.x(...))`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from leadenrich import AsyncLeadEnrich
from leadenrich.testing import FakeServer, async_client_for, client_for

Client = Any
"""A LeadEnrich or an AsyncLeadEnrich; drive it with `await call(...)`."""
MakeClient = Callable[..., Client]

PATIENT: dict[str, Any] = {"timeout": 3600.0}
"""For a wait that is not about its deadline: an hour of the service (18 s at the default
scale), which no machine, however busy, takes to finish a quick job."""


@pytest.fixture(params=["sync", "async"])
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def make_client(kind: str) -> AsyncIterator[MakeClient]:
    """Build a client of this test's kind on a server and its clock (its ready key unless
    `key` is given)."""
    made: list[Client] = []

    def make(server: FakeServer, key: str | None = None, **options: Any) -> Client:
        if key is not None:
            options["api_key"] = key
        client = (client_for if kind == "sync" else async_client_for)(server, **options)
        made.append(client)
        return client

    yield make
    for client in made:
        if isinstance(client, AsyncLeadEnrich):
            await client.aclose()
        else:
            client.close()


@pytest.fixture
def client(make_client: MakeClient, server: FakeServer) -> Client:
    """The sync client, then the async client, on `server` with its ready key."""
    return make_client(server)


@pytest.fixture
def strict(client: Client) -> Client:
    """`client` with retries off, to see each error as the server sent it."""
    return client.with_options(max_retries=0, upstream_full_retries=0)
