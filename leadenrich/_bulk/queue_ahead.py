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
from collections.abc import Generator
from contextlib import AsyncExitStack, ExitStack, contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import asyncio

    from .._steps import AsyncRunner, SyncRunner

__all__ = ["AHEAD", "PLATFORM_SLOTS", "QueueAhead", "TakePlace", "places_ahead"]

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
    """The places of one run's queued jobs, taken by the blocking client's threads or by
    the async client's tasks (a run uses one or the other)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.refused = False
        self._places = threading.BoundedSemaphore(size)
        self._async_places: asyncio.BoundedSemaphore | None = None

    def take(self) -> bool:
        """Take a place for a job created before a slot is free, waiting for one; False,
        nothing taken, once the service has refused one (the job is then created with a
        slot held). A place taken is given back with `give_back`."""
        if self.refused:
            return False
        self._places.acquire()
        return self._taken()

    async def atake(self) -> bool:
        """`take`, for a task."""
        if self.refused:
            return False
        if self._async_places is None:
            import asyncio

            self._async_places = asyncio.BoundedSemaphore(self.size)
        await self._async_places.acquire()
        return self._taken()

    def _taken(self) -> bool:
        # Refused while this one waited: the place is of no use.
        if self.refused:
            self.give_back()
            return False
        return True

    def give_back(self) -> None:
        places = self._async_places if self._async_places is not None else self._places
        places.release()

    @contextmanager
    def place(self) -> Generator[bool, None, None]:
        """`take` a place for the block (a thread's): True when one was taken."""
        placed = self.take()
        try:
            yield placed
        finally:
            if placed:
                self.give_back()

    @property
    def places(self) -> int:
        """How many jobs may be queued now: none once the service refused one."""
        return 0 if self.refused else self.size

    def refuse(self) -> None:
        """The service answered `upstream_full`: it does not queue jobs."""
        self.refused = True


@dataclass(frozen=True)
class TakePlace:
    """The step that takes a place of `ahead` (see `QueueAhead.take`)."""

    ahead: QueueAhead

    def perform(self, runner: SyncRunner, held: ExitStack) -> bool:
        return self.ahead.take()

    async def aperform(self, runner: AsyncRunner, held: AsyncExitStack) -> bool:
        return await self.ahead.atake()
