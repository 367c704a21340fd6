"""Client-side pacing keeps a busy client under the per-key limits."""

from __future__ import annotations

import threading
import time
from typing import Any

import anyio
import httpx
import pytest
import respx

from leadenrich import AsyncLeadEnrich, LeadEnrich, RateLimits, _clock
from tests.conftest import BASE, KEY
from tests.helpers import USAGE, call

pytestmark = pytest.mark.anyio


class FakeClock:
    """monotonic() that only moves when the SDK sleeps."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds

    async def async_sleep(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(_clock, "monotonic", fake.monotonic)
    monkeypatch.setattr(_clock, "sleep", fake.sleep)
    monkeypatch.setattr(_clock, "async_sleep", fake.async_sleep)
    return fake


def max_in_window(times: list[float], period: float) -> int:
    times = sorted(times)
    return max(sum(1 for t in times if start <= t < start + period) for start in times)


@pytest.mark.parametrize("cls", [LeadEnrich, AsyncLeadEnrich])
async def test_100_rapid_calls_stay_within_60_a_minute(
    api: respx.MockRouter, clock: FakeClock, cls: Any
) -> None:
    sent_at: list[float] = []

    def respond(request: httpx.Request) -> httpx.Response:
        sent_at.append(clock.now)
        return httpx.Response(200, json=USAGE)

    api.get("/usage").mock(side_effect=respond)
    client = cls(KEY, base_url=BASE)
    for _ in range(100):
        await call(client.usage())
    assert len(sent_at) == 100
    assert max_in_window(sent_at, 60.0) <= 60
    # No slower than needed: the first 60 go at once, the next 40 one window later.
    assert sent_at[59] == sent_at[0]
    assert 60.0 <= sent_at[99] - sent_at[0] <= 60.0 * 1.06


async def test_async_enrich_creation_has_its_own_larger_budget(
    api: respx.MockRouter, clock: FakeClock
) -> None:
    api.post("/leads/enrich").respond(202, json={"job_id": "j"})
    api.get("/usage").respond(200, json=USAGE)
    client = LeadEnrich(KEY, base_url=BASE)
    start = clock.now
    for _ in range(600):
        client.leads.enrich({"company": "A", "domain": "a.com"})
    assert clock.now == start, "600 async creations fit in one minute"
    for _ in range(60):
        client.usage()
    assert clock.now == start, "and they do not use up the sync budget"
    client.usage()
    assert clock.now > start + 60


async def test_health_is_not_paced(api: respx.MockRouter, clock: FakeClock) -> None:
    api.get("/health").respond(200, json={"status": "ok"})
    client = LeadEnrich(KEY, base_url=BASE, rate_limits=RateLimits(sync_per_minute=1))
    for _ in range(5):
        client.health()
    assert clock.now == 1000.0


async def test_copies_share_the_budget(api: respx.MockRouter, clock: FakeClock) -> None:
    api.get("/usage").respond(200, json=USAGE)
    client = LeadEnrich(KEY, base_url=BASE, rate_limits=RateLimits(sync_per_minute=2))
    client.usage()
    client.with_options(timeout=5).usage()
    assert clock.now == 1000.0
    client.with_options(max_retries=0).usage()
    assert clock.now >= 1060.0


async def test_pacing_off_sends_at_once(api: respx.MockRouter, clock: FakeClock) -> None:
    api.get("/usage").respond(200, json=USAGE)
    client = LeadEnrich(KEY, base_url=BASE, rate_limits=None)
    for _ in range(100):
        client.usage()
    assert clock.now == 1000.0


def test_threads_share_one_budget(api: respx.MockRouter) -> None:
    # Real (short) time: 8 threads x 5 calls against 10 per 0.2 s.
    sent_at: list[float] = []
    lock = threading.Lock()

    def respond(request: httpx.Request) -> httpx.Response:
        with lock:
            sent_at.append(time.monotonic())
        return httpx.Response(200, json=USAGE)

    api.get("/usage").mock(side_effect=respond)
    client = LeadEnrich(KEY, base_url=BASE, rate_limits=RateLimits(sync_per_minute=10, period=0.2))
    threads = [threading.Thread(target=lambda: [client.usage() for _ in range(5)]) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(sent_at) == 40
    assert max_in_window(sent_at, 0.2) <= 10


async def test_tasks_share_one_budget(api: respx.MockRouter) -> None:
    sent_at: list[float] = []

    def respond(request: httpx.Request) -> httpx.Response:
        sent_at.append(time.monotonic())
        return httpx.Response(200, json=USAGE)

    api.get("/usage").mock(side_effect=respond)
    async with (
        AsyncLeadEnrich(KEY, base_url=BASE, rate_limits=RateLimits(sync_per_minute=10, period=0.2)) as client,
        anyio.create_task_group() as group,
    ):
        for _ in range(30):
            group.start_soon(client.usage)
    assert len(sent_at) == 30
    assert max_in_window(sent_at, 0.2) <= 10
