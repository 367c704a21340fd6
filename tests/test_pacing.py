"""Client-side pacing keeps a busy client under the per-key limits."""

from __future__ import annotations

import threading
from typing import Any

import pytest
import respx

from leadenrich import AsyncLeadEnrich, LeadEnrich, RateLimits
from leadenrich._ratelimit import Pacer
from leadenrich.testing import ManualClock
from tests.conftest import BASE, KEY
from tests.helpers import USAGE, call, max_in_window, usage_sent_at

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("cls", [LeadEnrich, AsyncLeadEnrich])
async def test_100_rapid_calls_stay_within_60_a_minute(
    api: respx.MockRouter, clock: ManualClock, cls: Any
) -> None:
    sent_at = usage_sent_at(api, clock)
    client = cls(KEY, base_url=BASE, clock=clock)
    for _ in range(100):
        await call(client.usage())
    assert len(sent_at) == 100
    assert max_in_window(sent_at, 60.0) <= 60
    # No slower than needed: the first 60 go at once, the next 40 one window later.
    assert sent_at[59] == sent_at[0]
    assert 60.0 <= sent_at[99] - sent_at[0] <= 60.0 * 1.02 + 0.05


async def test_async_enrich_creation_has_its_own_larger_budget(
    api: respx.MockRouter, clock: ManualClock
) -> None:
    api.post("/leads/enrich").respond(202, json={"job_id": "j"})
    api.get("/usage").respond(200, json=USAGE)
    client = LeadEnrich(KEY, clock=clock, base_url=BASE)
    start = clock.now()
    for _ in range(600):
        client.leads.enrich({"company": "A", "domain": "a.com"})
    assert clock.now() == start, "600 async creations fit in one minute"
    for _ in range(60):
        client.usage()
    assert clock.now() == start, "and they do not use up the sync budget"
    client.usage()
    assert clock.now() > start + 60


async def test_health_is_not_paced(api: respx.MockRouter, clock: ManualClock) -> None:
    api.get("/health").respond(200, json={"status": "ok"})
    client = LeadEnrich(KEY, clock=clock, base_url=BASE, rate_limits=RateLimits(sync_per_minute=1))
    for _ in range(5):
        client.health()
    assert clock.now() == 1000.0


async def test_copies_share_the_budget(api: respx.MockRouter, clock: ManualClock) -> None:
    api.get("/usage").respond(200, json=USAGE)
    client = LeadEnrich(KEY, clock=clock, base_url=BASE, rate_limits=RateLimits(sync_per_minute=2))
    client.usage()
    client.with_options(timeout=5).usage()
    assert clock.now() == 1000.0
    client.with_options(max_retries=0).usage()
    assert clock.now() >= 1060.0


async def test_pacing_off_sends_at_once(api: respx.MockRouter, clock: ManualClock) -> None:
    api.get("/usage").respond(200, json=USAGE)
    client = LeadEnrich(KEY, clock=clock, base_url=BASE, rate_limits=None)
    for _ in range(100):
        client.usage()
    assert clock.now() == 1000.0


def test_threads_reserve_slots_without_overbooking(clock: ManualClock) -> None:
    # 16 threads reserve 25 slots each at the same instant: the schedule they get must
    # never put more than 10 sends in any window, and nobody may get the same slot twice.
    pacer = Pacer(RateLimits(sync_per_minute=10, period=1.0), clock)
    scheduled: list[float] = []
    lock = threading.Lock()
    start = threading.Barrier(16)

    def reserve() -> None:
        start.wait()
        mine = [clock.now() + (pacer.reserve("sync") or 0.0) for _ in range(25)]
        with lock:
            scheduled.extend(mine)

    threads = [threading.Thread(target=reserve) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(scheduled) == 400
    assert max_in_window(scheduled, 1.0) <= 10
    assert max(scheduled) - min(scheduled) == pytest.approx(39 * (1.02 + 0.05))
