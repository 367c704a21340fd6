"""Fixtures shared by every test: the anyio backend, fake servers, and respx-mocked clients
of both kinds."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import respx

from leadenrich import AsyncLeadEnrich, LeadEnrich
from leadenrich.testing import FakeServer, ManualClock
from tests.helpers import QUICK, MakeServer

BASE = "https://api.test"
API = BASE + "/api/v1"
KEY = "le_live_test_secret_0123456789"


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def make_server() -> Iterator[MakeServer]:
    """Start FakeServers with QUICK timings and the given settings; stopped after the test."""
    servers: list[FakeServer] = []

    def make(**overrides: Any) -> FakeServer:
        server = FakeServer(**{**QUICK, **overrides}).start()
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.stop()


@pytest.fixture
def server(make_server: MakeServer) -> FakeServer:
    """A started FakeServer with QUICK timings and otherwise default settings."""
    return make_server()


@pytest.fixture
def api() -> Iterator[respx.MockRouter]:
    """A respx router standing in for the service at https://api.test/api/v1."""
    with respx.mock(base_url=API, assert_all_called=False) as router:
        yield router


@pytest.fixture
def clock() -> ManualClock:
    """A clock that only moves when the SDK waits, so waits and deadlines run instantly."""
    return ManualClock()


@pytest.fixture
def sleeps(clock: ManualClock) -> list[float]:
    """Every wait the SDK asked of `clock`, recorded instead of slept."""
    return clock.sleeps


@pytest.fixture(params=["sync", "async"])
async def client(
    request: pytest.FixtureRequest, api: respx.MockRouter, clock: ManualClock
) -> AsyncIterator[Any]:
    """A LeadEnrich, then an AsyncLeadEnrich, against the mocked service on `clock`; pacing off."""
    if request.param == "sync":
        with LeadEnrich(KEY, base_url=BASE, rate_limits=None, clock=clock) as sync_client:
            yield sync_client
    else:
        async with AsyncLeadEnrich(KEY, base_url=BASE, rate_limits=None, clock=clock) as async_client:
            yield async_client
