"""Worker processes for the shared-budget tests and benchmark (importable by a new process)."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event

from leadenrich import AsyncLeadEnrich, LeadEnrich, RateLimitError, RateLimits, ServiceClock
from leadenrich._ratelimit import Pacer

__all__ = ["book_places", "hold_enrichment_slots", "paced_calls"]


def book_places(limits: RateLimits, places: int, go: Event, out: Queue[list[tuple[float, float]]]) -> None:
    """Book `places` in the shared window and report when each one is, as bounds.

    Redis answers with a wait from its own clock, which is this machine's: the place is the
    wait after some moment between sending the booking and reading the answer.
    """
    pacer = Pacer(limits, ServiceClock(), "key")
    pacer.reserve("async")  # connected before the start, as a running worker is
    go.wait(60)
    booked: list[tuple[float, float]] = []
    for _ in range(places):
        before = time.time()
        wait = pacer.reserve("sync")
        after = time.time()
        assert wait is not None
        booked.append((before + wait, after + wait))
    pacer.close()
    out.put(booked)


def paced_calls(
    kind: str,
    base_url: str,
    api_key: str,
    limits: RateLimits | None,
    calls: int,
    max_retries: int,
    go: Event,
    out: Queue[int],
) -> None:
    """Make `calls` paced requests, half through a `with_options` copy; report how many
    ended in a 429 (with `max_retries=0`, every 429 met).

    Each worker first opens its connection (health is not paced), as a long-running worker
    has: a first request's connection set-up would otherwise delay it past its booked place.
    """
    if kind == "sync":
        out.put(_sync_calls(base_url, api_key, limits, calls, max_retries, go))
    else:
        out.put(asyncio.run(_async_calls(base_url, api_key, limits, calls, max_retries, go)))


def _sync_calls(
    base_url: str, api_key: str, limits: RateLimits | None, calls: int, max_retries: int, go: Event
) -> int:
    limited = 0
    with LeadEnrich(api_key, base_url=base_url, rate_limits=limits, max_retries=max_retries) as client:
        client.health()
        go.wait(60)
        copy = client.with_options(timeout=30)
        for i in range(calls):
            try:
                (copy if i % 2 else client).usage()
            except RateLimitError:
                limited += 1
    return limited


async def _async_calls(
    base_url: str, api_key: str, limits: RateLimits | None, calls: int, max_retries: int, go: Event
) -> int:
    limited = 0
    async with AsyncLeadEnrich(
        api_key, base_url=base_url, rate_limits=limits, max_retries=max_retries
    ) as client:
        await client.health()
        await asyncio.to_thread(go.wait, 60)
        copy = client.with_options(timeout=30)
        for i in range(calls):
            try:
                await (copy if i % 2 else client).usage()
            except RateLimitError:
                limited += 1
    return limited


def hold_enrichment_slots(base_url: str, api_key: str, limits: RateLimits) -> None:
    """Run enrichments on every slot until the process is killed."""
    with LeadEnrich(api_key, base_url=base_url, rate_limits=limits) as client:
        leads = [
            {"company": f"Holder {i}", "domain": f"holder{i}.com"}
            for i in range(limits.concurrent_enrichments)
        ]
        with ThreadPoolExecutor(len(leads)) as pool:
            list(pool.map(lambda lead: client.leads.enrich_and_wait(lead, timeout=600), leads))
