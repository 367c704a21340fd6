"""Load: 50 threads on one LeadEnrich, 120 tasks on one AsyncLeadEnrich, a faulty server.

No deadlock, no exception that is not a LeadEnrichError, never more connections than the
pool allows, and none left open once the client is closed.
"""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from leadenrich import AsyncLeadEnrich, LeadEnrich, LeadEnrichError, PersonQuery, RateLimits, ServiceClock
from leadenrich.testing import FakeServer

pytestmark = pytest.mark.anyio

# Not faster: every request costs real CPU (client and server share two cores), and at
# tests/test_faults.py's 5000-fold speed the SDK's 300-second waits would end in 60 ms.
SCALE = 0.005
CLOCK = ServiceClock(SCALE)
"""The SDK's clock, as fast as the fake server's."""
# A light fault mix: errors and dropped connections under load are where pools leak.
FAULTS: dict[str, Any] = {
    "server_error_rate": 0.01,
    "drop_before_rate": 0.01,
    "drop_after_rate": 0.01,
    "malformed_rate": 0.01,
    "upstream_full_rate": 0.005,
}
DEADLINE = 60.0
"""Real seconds before a worker still running counts as deadlocked (each takes ~1 s)."""


# A budget of a plan far above the spec's 60 requests a minute: at 60, a minute of 50
# threads' polling is spent in a second, and the test would measure waiting, not load.
PER_MINUTE = 6000


@pytest.fixture
def server() -> Iterator[FakeServer]:
    with FakeServer(
        time_scale=SCALE,
        enrichment_seconds=(4.0, 8.0),
        mobile_lookup_seconds=(2.0, 4.0),
        mobile_credits=1000,
        sync_per_minute=PER_MINUTE,
        async_per_minute=PER_MINUTE,
        fault_seed=11,
        **FAULTS,
    ) as running:
        yield running


def limits(server: FakeServer) -> RateLimits:
    # In API seconds, which is what the scaled clock counts.
    return RateLimits(PER_MINUTE, PER_MINUTE, period=server.settings.rate_window_seconds)


def person(n: int) -> PersonQuery:
    return {"first_name": "Ada", "last_name": f"Load{n}", "domain": f"load{n}.com"}


ENRICHING = 5
"""One worker in this many enriches and polls: the platform runs 5 enrichments at once, so
every worker enriching at once would measure its queue (and PollTimeoutErrors), not the
client."""


def workload(client: LeadEnrich, n: int) -> list[str]:
    """Each kind of call once (enrichments and polls in one worker of ENRICHING); returns
    what each step ended with, a type name on error."""
    steps: list[str] = []

    def step(name: str, fn: Any) -> Any:
        try:
            value = fn()
        except LeadEnrichError as exc:
            steps.append(f"{name}:{type(exc).__name__}")
            return None
        steps.append(f"{name}:ok")
        return value

    step("usage", client.usage)
    lead = None
    if n % ENRICHING == 0:
        lead = step(
            "enrich_sync",
            lambda: client.leads.enrich_sync({"company": f"Load {n}", "domain": f"load{n}.com"}),
        )
        step(
            "enrich_and_wait",
            lambda: client.leads.enrich_and_wait({"company": f"Job {n}", "domain": f"job{n}.com"}),
        )
    if lead is not None:
        step("get", lambda: client.leads.get(lead.id))
    step("list", lambda: client.leads.list(limit=5))
    step("email", lambda: client.email.find(**person(n)))
    if n % ENRICHING == 0:
        step(
            "mobile",
            lambda: client.mobile.find_and_wait(first_name="Ada", last_name=f"Load{n}", domain="load.com"),
        )
    if lead is not None:
        step("delete", lambda: client.leads.delete(lead.id))
    step("missing", lambda: client.jobs.get("job_missing"))
    return steps


async def aworkload(client: AsyncLeadEnrich, n: int) -> list[str]:
    steps: list[str] = []

    async def step(name: str, fn: Any) -> Any:
        try:
            value = await fn()
        except LeadEnrichError as exc:
            steps.append(f"{name}:{type(exc).__name__}")
            return None
        steps.append(f"{name}:ok")
        return value

    await step("usage", client.usage)
    lead = None
    if n % ENRICHING == 0:
        lead = await step(
            "enrich_sync",
            lambda: client.leads.enrich_sync({"company": f"Load {n}", "domain": f"load{n}.com"}),
        )
        await step(
            "enrich_and_wait",
            lambda: client.leads.enrich_and_wait({"company": f"Job {n}", "domain": f"job{n}.com"}),
        )
    if lead is not None:
        await step("get", lambda: client.leads.get(lead.id))
    await step("list", lambda: client.leads.list(limit=5))
    await step("email", lambda: client.email.find(**person(n)))
    if n % ENRICHING == 0:
        await step(
            "mobile",
            lambda: client.mobile.find_and_wait(first_name="Ada", last_name=f"Load{n}", domain="load.com"),
        )
    if lead is not None:
        await step("delete", lambda: client.leads.delete(lead.id))
    await step("missing", lambda: client.jobs.get("job_missing"))
    return steps


def assert_mostly_ok(runs: list[list[str]], workers: int) -> Counter[str]:
    """Every worker ran to its end, and faults failed only a few calls (never a read twice
    over: reads are retried)."""
    assert len(runs) == workers
    outcomes = Counter(s for run in runs for s in run)
    for name in ("usage", "list"):
        assert outcomes[f"{name}:ok"] >= 0.95 * workers, outcomes
    assert outcomes["missing:NotFoundError"] >= 0.95 * workers, outcomes
    failed = sum(n for s, n in outcomes.items() if not s.endswith(":ok") and not s.startswith("missing:"))
    assert failed <= 0.1 * outcomes.total(), outcomes
    return outcomes


DEFAULT_POOL = 100
"""httpx's default max_connections, which the SDK's own pool keeps. It keeps 20 alive, so
with more workers than that it closes and reopens connections all the time, and the
server hears of a close a moment after the client opened the next connection: the server
may count more open connections than the pool holds. What it serves at once (each
request holding one connection) stays within the pool; so do its connections when the
pool keeps all of them alive and never churns."""


def pool_connections(http: httpx.Client | httpx.AsyncClient) -> int:
    return len(http._transport._pool.connections)  # type: ignore[attr-defined]


class PoolSampler:
    """The most connections the client's pool held, read each time an answer arrives: the
    pool opens a connection only to send a request, whose answer then comes on it."""

    def __init__(self, http: httpx.Client | httpx.AsyncClient) -> None:
        self.http = http
        self.peak = 0
        if isinstance(http, httpx.AsyncClient):

            async def on_answer(_: httpx.Response) -> None:
                self.sample()

            http.event_hooks["response"].append(on_answer)
        else:
            http.event_hooks["response"].append(lambda _: self.sample())

    def sample(self) -> None:
        self.peak = max(self.peak, pool_connections(self.http))


def assert_within_a_pool_of_8(sampler: PoolSampler, server: FakeServer) -> None:
    """The pool never held a ninth connection, and the server never served nine requests
    at once. Not the server's count of open connections: it hears of a connection the
    client closed (a dropped or timed-out one) a moment after the pool opened the next, so
    on a busy machine it counted 9."""
    assert 0 < sampler.peak <= 8
    assert 0 < server.state.peak_serving <= 8


def run_threads(client: LeadEnrich, count: int) -> list[list[str]]:
    runs: list[list[str]] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def worker(n: int) -> None:
        try:
            steps = workload(client, n)
        except BaseException as exc:  # anything but a LeadEnrichError fails the test
            with lock:
                errors.append(exc)
            return
        with lock:
            runs.append(steps)

    threads = [threading.Thread(target=worker, args=(n,), daemon=True) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(DEADLINE)
    assert not any(thread.is_alive() for thread in threads), "deadlock: workers still running"
    assert errors == []
    return runs


def test_50_threads_share_one_client(server: FakeServer) -> None:
    client = LeadEnrich(api_key=server.api_key, base_url=server.url, rate_limits=limits(server), clock=CLOCK)
    sampler = PoolSampler(client._http)
    try:
        runs = run_threads(client, 50)
    finally:
        client.close()
    assert_mostly_ok(runs, 50)
    assert 0 < sampler.peak <= 50, "at most one connection per thread, within the pool's 100"
    assert 0 < server.state.peak_serving <= 50
    assert pool_connections(client._http) == 0
    assert server.state.wait_until(lambda: server.state.connections == 0, 5.0), "connections left open"


def test_50_threads_stay_within_a_small_pool(server: FakeServer) -> None:
    pool = httpx.Limits(max_connections=8, max_keepalive_connections=8)
    with httpx.Client(limits=pool) as http:
        with LeadEnrich(
            api_key=server.api_key,
            base_url=server.url,
            rate_limits=limits(server),
            http_client=http,
            clock=CLOCK,
        ) as client:
            sampler = PoolSampler(http)
            runs = run_threads(client, 50)
        assert not http.is_closed, "a client given its pool leaves it open"
    assert_mostly_ok(runs, 50)
    assert_within_a_pool_of_8(sampler, server)
    assert pool_connections(http) == 0
    assert server.state.wait_until(lambda: server.state.connections == 0, 5.0)


async def run_tasks(client: AsyncLeadEnrich, count: int) -> list[list[str]]:
    tasks = [asyncio.ensure_future(aworkload(client, n)) for n in range(count)]
    done, pending = await asyncio.wait(tasks, timeout=DEADLINE)
    assert not pending, "deadlock: tasks still running"
    return [task.result() for task in done]  # re-raises anything but a LeadEnrichError


async def test_120_tasks_share_one_async_client(server: FakeServer) -> None:
    """More tasks than the default pool's 100 connections, so the pool is what bounds them.
    No more: each task waiting for a connection costs httpcore's scheduler a scan of the
    pool on every request (encode/httpcore#1035), and 200 tasks spent 6 s of CPU there."""
    client = AsyncLeadEnrich(
        api_key=server.api_key, base_url=server.url, rate_limits=limits(server), clock=CLOCK
    )
    sampler = PoolSampler(client._http)
    try:
        runs = await run_tasks(client, 120)
    finally:
        await client.aclose()
    assert_mostly_ok(runs, 120)
    assert 0 < sampler.peak <= DEFAULT_POOL
    assert 0 < server.state.peak_serving <= DEFAULT_POOL
    assert pool_connections(client._http) == 0
    assert server.state.wait_until(lambda: server.state.connections == 0, 5.0), "connections left open"


async def test_50_tasks_stay_within_a_small_pool(server: FakeServer) -> None:
    """Six tasks for each of the pool's 8 connections, as with the threads: most of them
    wait for a connection at any time, which is what the pool's bound is about."""
    pool = httpx.Limits(max_connections=8, max_keepalive_connections=8)
    async with httpx.AsyncClient(limits=pool) as http:
        async with AsyncLeadEnrich(
            api_key=server.api_key,
            base_url=server.url,
            rate_limits=limits(server),
            http_client=http,
            clock=CLOCK,
        ) as client:
            sampler = PoolSampler(http)
            runs = await run_tasks(client, 50)
        assert not http.is_closed, "a client given its pool leaves it open"
    assert_mostly_ok(runs, 50)
    assert_within_a_pool_of_8(sampler, server)
    assert pool_connections(http) == 0
    assert server.state.wait_until(lambda: server.state.connections == 0, 5.0)
