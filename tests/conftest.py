"""Fixtures shared by every test: the anyio backend and respx-mocked clients of both kinds."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import respx

from leadenrich import AsyncLeadEnrich, LeadEnrich, _clock
from tests.helpers import FakeClock

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
def sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Every wait the SDK asks for, recorded instead of slept."""
    recorded: list[float] = []

    def sleep(seconds: float) -> None:
        recorded.append(seconds)

    async def async_sleep(seconds: float) -> None:
        recorded.append(seconds)

    monkeypatch.setattr(_clock, "sleep", sleep)
    monkeypatch.setattr(_clock, "async_sleep", async_sleep)
    return recorded


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    """A clock that only moves when the SDK sleeps, so waits and deadlines run instantly."""
    fake = FakeClock()
    monkeypatch.setattr(_clock, "monotonic", fake.monotonic)
    monkeypatch.setattr(_clock, "sleep", fake.sleep)
    monkeypatch.setattr(_clock, "async_sleep", fake.async_sleep)
    return fake


@pytest.fixture(params=["sync", "async"])
async def client(
    request: pytest.FixtureRequest, api: respx.MockRouter, sleeps: list[float]
) -> AsyncIterator[Any]:
    """A LeadEnrich, then an AsyncLeadEnrich, against the mocked service; pacing off."""
    if request.param == "sync":
        with LeadEnrich(KEY, base_url=BASE, rate_limits=None) as sync_client:
            yield sync_client
    else:
        async with AsyncLeadEnrich(KEY, base_url=BASE, rate_limits=None) as async_client:
            yield async_client
