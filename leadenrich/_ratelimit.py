"""Client-side pacing: stay under the per-key limits instead of collecting 429s."""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

from ._clock import ServiceClock
from ._shared_budget import SharedBudget, as_shared_budget
from ._validate import integer, seconds

if TYPE_CHECKING:
    from ._redis_pacing import SharedPacing

__all__ = ["AsyncSlots", "Bucket", "Pacer", "Question", "RateLimits", "Slots"]

Bucket = Literal["sync", "async"]

# Requests reach the server a little after the client counts them, and not always in the
# same order; a window 2 % and 50 ms wider than the server's keeps that jitter from turning
# into a 429. The jitter is milliseconds whatever the window, so the 50 ms does most of the
# work (it matters for the short windows of a scaled fake server); every per cent more
# would be a per cent of the key's budget never used.
_SAFETY = 1.02
_SLACK = 0.05


def _widened(period: float, clock: ServiceClock) -> float:
    """The client's window, in the service's seconds: the slack is real time (scheduling
    jitter), so it is converted."""
    return period * _SAFETY + _SLACK / clock.scale


@dataclass(frozen=True)
class RateLimits:
    """The per-key request budget the client paces itself to.

    The defaults are the spec's limits: 60 requests a minute for every call except async
    job creation, and 600 a minute for async job creation. Plans with other limits pass
    their own numbers; pass `rate_limits=None` to the client to turn pacing off.

    Attributes:
        sync_per_minute: Requests per period for every call but async enrich.
        async_per_minute: Async enrich creations per period.
        period: The window the limits count over, in the service's seconds (60).
        concurrent_enrichments: Enrichments this client runs at once (sync enrich,
            re-enrich, enrich_and_wait, enrich_many): the platform runs 5 at a time, and
            more from one client would only collect `upstream_full` 429s.
        shared: A budget shared with every other process on the key, through Redis: a
            URL such as `"redis://localhost:6379/0"`, or a
            [`SharedBudget`][leadenrich.SharedBudget] for more settings. None (the
            default) paces each client alone. See "Many workers, one key" in the documentation.

    Examples:
        >>> RateLimits(sync_per_minute=120)
        RateLimits(sync_per_minute=120, async_per_minute=600, period=60.0, concurrent_enrichments=5, shared=None)
        >>> RateLimits(shared="redis://localhost:6379/0").shared
        SharedBudget('redis://localhost:6379/0', on_failure='local')
    """

    sync_per_minute: int = 60
    async_per_minute: int = 600
    period: float = 60.0
    concurrent_enrichments: int = 5
    shared: SharedBudget | str | None = None

    def __post_init__(self) -> None:
        integer("RateLimits.sync_per_minute", self.sync_per_minute, 1)
        integer("RateLimits.async_per_minute", self.async_per_minute, 1)
        seconds("RateLimits.period", self.period, positive=True)
        integer("RateLimits.concurrent_enrichments", self.concurrent_enrichments, 1)
        object.__setattr__(self, "shared", as_shared_budget(self.shared))


@dataclass(frozen=True)
class Question:
    """What a shared budget's Redis is told as it books a client's next place."""

    after: float
    """Real seconds the client's own window still makes it wait."""
    ages: tuple[float, ...]
    """The places it took while Redis did not answer, as real seconds before now
    (negative: still to come)."""
    untold: tuple[float, ...]
    """The same places on the client's clock, for its window to forget once told."""


class _Window:
    """At most `limit` requests in any `period` seconds: a sliding-window log.

    A token bucket of the same rate lets a burst through and then one request per
    interval, which a server that counts a sliding window rejects; a log of send times
    is never over the limit by any of the usual ways of counting.

    With a shared budget the log still records every place the client takes, the ones
    Redis booked too: it is what holds the client to the limit when Redis stops
    answering, comes back empty or is flushed. The places taken while Redis did not
    answer are also kept apart until Redis has been told of them.
    """

    def __init__(self, limit: int, period: float, clock: ServiceClock) -> None:
        self._limit = limit
        self._period = _widened(period, clock)
        self._clock = clock
        self._sent: deque[float] = deque()
        self._untold: list[float] = []
        self._lock = threading.Lock()

    def reserve(self, within: float | None = None) -> float | None:
        """Claim the next free slot; returns how long to wait before sending.

        With `within`, a slot further away than that is not claimed: None is returned
        and the window is left as it was (a wait must not outlive its deadline).
        """
        with self._lock:
            return self._book(within)

    def _book(self, within: float | None, after: float = 0.0, untold: bool = False) -> float | None:
        # Once full, each place is a period after the one it pops: the places fall into
        # `limit` chains a period apart, so no window holds more than `limit`, in
        # whatever order the waits `after` (Redis's) put them.
        now = self._clock.now()
        full = len(self._sent) >= self._limit
        at = max(now + after, self._sent[0] + self._period) if full else now + after
        if within is not None and at - now > within:
            return None
        if full:
            self._sent.popleft()
        self._sent.append(at)
        if untold:
            self._untold.append(at)
        return at - now

    def ask(self) -> Question:
        """What Redis is told as it books the client's next place."""
        with self._lock:
            now = self._clock.now()
            free = self._sent[0] + self._period if len(self._sent) >= self._limit else now
            # A place a period old holds nothing back any more, here or in Redis.
            self._untold = [at for at in self._untold if at > now - self._period]
            real = self._clock.real_seconds
            return Question(
                after=real(max(0.0, free - now)),
                ages=tuple(real(now - at) for at in self._untold),
                untold=tuple(self._untold),
            )

    def book(self, question: Question, real_wait: float | None, within: float | None) -> float | None:
        """`reserve`, once Redis was asked `question`: it waits `real_wait` real seconds,
        or None when Redis did not answer (the place is then one to tell it of)."""
        with self._lock:
            if real_wait is None:
                return self._book(within, untold=True)
            told = set(question.untold)
            self._untold = [at for at in self._untold if at not in told]
            return self._book(within, real_wait / self._clock.scale)


class Slots(Protocol):
    """The enrichment slots of a sync client (a `threading.BoundedSemaphore` or shared)."""

    def acquire(self, blocking: bool = True, timeout: float | None = None) -> bool: ...

    def release(self) -> None: ...


class AsyncSlots(Protocol):
    """The enrichment slots of an async client (an `asyncio.Semaphore` or shared)."""

    async def acquire(self) -> bool: ...

    def release(self) -> None: ...


class Pacer:
    """One window per bucket and the enrichment slots, shared by a client and every copy
    made by `with_options`.

    Reservations happen under a thread lock and the waiting outside it, so the same pacer
    serves threads and asyncio tasks alike. Slots are a thread semaphore for the sync
    client and an asyncio one per event loop, made on first use, for the async client.
    With a shared budget, each place is booked in Redis and in the local window, which
    alone paces the client while Redis does not answer; the slots are leases in Redis,
    and the local ones serve while it does not answer.
    """

    def __init__(self, limits: RateLimits, clock: ServiceClock, api_key: str = "") -> None:
        self.limits = limits
        self._windows: dict[Bucket, _Window] = {
            "sync": _Window(limits.sync_per_minute, limits.period, clock),
            "async": _Window(limits.async_per_minute, limits.period, clock),
        }
        budget = as_shared_budget(limits.shared)
        self._shared: SharedPacing | None = None
        self.slots: Slots = threading.BoundedSemaphore(limits.concurrent_enrichments)
        if budget is not None:
            from ._redis_pacing import SharedPacing, SharedSlots

            self._shared = SharedPacing(
                budget,
                api_key,
                {
                    # Redis keeps real time.
                    "sync": (limits.sync_per_minute, clock.real_seconds(_widened(limits.period, clock))),
                    "async": (limits.async_per_minute, clock.real_seconds(_widened(limits.period, clock))),
                },
                limits.concurrent_enrichments,
            )
            if budget.enrichment_slots:
                self.slots = SharedSlots(self._shared)
        # asyncio's semaphores belong to one event loop: a client used from a second
        # asyncio.run() gets slots of its own there (the first loop's are all free by then).
        self._loop_slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, AsyncSlots] = (
            weakref.WeakKeyDictionary()
        )
        self._lock = threading.Lock()

    @property
    def shares_slots(self) -> bool:
        """Whether the enrichment slots are shared with other processes through Redis."""
        return self._shared is not None and self._shared.budget.enrichment_slots

    @property
    def async_slots(self) -> AsyncSlots:
        """The enrichment slots of an async client, in the running event loop."""
        loop = asyncio.get_running_loop()
        with self._lock:
            slots = self._loop_slots.get(loop)
            if slots is None:
                slots = self._loop_slots[loop] = self._new_async_slots()
        return slots

    def _new_async_slots(self) -> AsyncSlots:
        if self._shared is not None and self.shares_slots:
            from ._redis_pacing import AsyncSharedSlots

            return AsyncSharedSlots(self._shared)
        return asyncio.Semaphore(self.limits.concurrent_enrichments)

    def close(self) -> None:
        """Close the connections to a shared budget's Redis, if any."""
        if self._shared is not None:
            self._shared.close()

    async def aclose(self) -> None:
        if self._shared is not None:
            await self._shared.aclose()

    def reserve(self, bucket: Bucket, within: float | None = None) -> float | None:
        """Claim a slot in `bucket`; returns the seconds to wait before sending, or None
        when the slot is further away than `within` seconds (a wait must not outlive
        its deadline).

        With a shared budget the place is booked in Redis (a place booked there past the
        deadline stays booked: it only leaves the fleet one request short in that
        window), and in the local window whatever Redis answers.
        """
        window = self._windows[bucket]
        if self._shared is None:
            return window.reserve(within)
        question = window.ask()
        real_wait = self._shared.reserve(bucket, question.after, question.ages)
        return window.book(question, real_wait, within)

    async def areserve(self, bucket: Bucket, within: float | None = None) -> float | None:
        """`reserve` for an async client: a shared budget is asked without blocking the loop."""
        window = self._windows[bucket]
        if self._shared is None:
            return window.reserve(within)
        question = window.ask()
        real_wait = await self._shared.areserve(bucket, question.after, question.ages)
        return window.book(question, real_wait, within)
