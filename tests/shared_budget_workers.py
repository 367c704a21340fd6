"""Worker processes for the shared-budget tests and benchmark (importable by a new process)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event

from leadenrich import AsyncLeadEnrich, LeadEnrich, RateLimitError, RateLimits

__all__ = ["hold_enrichment_slots", "paced_calls"]


def paced_calls(
    kind: str, base_url: str, api_key: str, limits: RateLimits | None, calls: int, go: Event, out: Queue[int]
) -> None:
    """Make `calls` paced requests, half through a `with_options` copy; report the 429s met.

    Each worker first opens its connection (health is not paced), as a long-running worker
    has: a first request's connection set-up would otherwise delay it past its booked place.
    """
    if kind == "sync":
        out.put(_sync_calls(base_url, api_key, limits, calls, go))
    else:
        out.put(asyncio.run(_async_calls(base_url, api_key, limits, calls, go)))


def _sync_calls(base_url: str, api_key: str, limits: RateLimits | None, calls: int, go: Event) -> int:
    limited = 0
    with LeadEnrich(api_key, base_url=base_url, rate_limits=limits, max_retries=0) as client:
        client.health()
        go.wait(60)
        copy = client.with_options(timeout=30)
        for i in range(calls):
            try:
                (copy if i % 2 else client).usage()
            except RateLimitError:
                limited += 1
    return limited


async def _async_calls(base_url: str, api_key: str, limits: RateLimits | None, calls: int, go: Event) -> int:
    limited = 0
    async with AsyncLeadEnrich(api_key, base_url=base_url, rate_limits=limits, max_retries=0) as client:
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
