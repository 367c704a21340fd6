"""Jobs an async-strategy run creates before one of its enrichment slots is free.

The service answers an accepted job `queued`, and a job created while its enrichment
slots are all busy waits in that state until one frees. A run that keeps a job or two
queued behind its running ones has its next job start the moment one of them finishes,
rather than once the client has noticed (a poll later) and created the next, and then
once the service has taken the new job in: neither wait costs throughput any more. A
queued job is created, recorded and paid for like any other; it takes one of the
client's slots when one frees, and its polls count from then.

A service that refuses such a job with `upstream_full` instead of queueing it is taken
at its word: from then on the run creates a job only with a slot free.
"""

from __future__ import annotations

import threading
from collections.abc import AsyncGenerator, Generator
from contextlib import asynccontextmanager, contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import asyncio

__all__ = ["AHEAD", "PLATFORM_SLOTS", "QueueAhead", "places_ahead"]

AHEAD = 2
"""Jobs a run keeps queued. One is not always enough: two slots may free before the
client notices either (benchmarks/bulk.py measures 0, 1 and 2)."""

PLATFORM_SLOTS = 5
"""The spec's platform ceiling: enrichments in flight across the whole platform."""


def places_ahead(strategy: str, concurrency: int, client_slots: int | None) -> int:
    """How many jobs a run keeps queued: none but for the async strategy on every slot
    of the platform. A queued job starts on any slot that frees, so a run meant to use
    fewer (a lower `concurrency`, or fewer slots for the client) would run more than
    that at once whenever the platform had room."""
    slots = concurrency if client_slots is None else min(concurrency, client_slots)
    return AHEAD if strategy == "async" and slots >= PLATFORM_SLOTS else 0


class QueueAhead:
    """The places of one run's queued jobs: `place` for the blocking client's threads,
    `aplace` for the async client's tasks (a run uses one or the other)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.refused = False
        self._places = threading.BoundedSemaphore(size)
        self._async_places: asyncio.BoundedSemaphore | None = None

    @contextmanager
    def place(self) -> Generator[bool, None, None]:
        """Hold a place for a job created before a slot is free; False once the service
        has refused one (the job is then created with a slot held)."""
        if self.refused:
            yield False
            return
        with self._places:
            yield not self.refused

    @asynccontextmanager
    async def aplace(self) -> AsyncGenerator[bool, None]:
        """`place`, for a task."""
        if self.refused:
            yield False
            return
        if self._async_places is None:
            import asyncio

            self._async_places = asyncio.BoundedSemaphore(self.size)
        async with self._async_places:
            yield not self.refused

    @property
    def places(self) -> int:
        """How many jobs may be queued now: none once the service refused one."""
        return 0 if self.refused else self.size

    def refuse(self) -> None:
        """The service answered `upstream_full`: it does not queue jobs."""
        self.refused = True
