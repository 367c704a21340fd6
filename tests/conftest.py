"""Fixtures shared by every test: the anyio backend and respx-mocked clients of both kinds."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import respx

from leadenrich import AsyncLeadEnrich, LeadEnrich
from leadenrich.testing import ManualClock

BASE = "https://api.test"
API = BASE + "/api/v1"
KEY = "le_live_test_secret_0123456789"


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    return "asyncio"


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
