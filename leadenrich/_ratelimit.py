"""Client-side pacing: stay under the per-key limits instead of collecting 429s."""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from ._clock import ServiceClock
from ._validate import integer, seconds

if TYPE_CHECKING:
    import asyncio

__all__ = ["Bucket", "Pacer", "RateLimits"]

Bucket = Literal["sync", "async"]

# Requests reach the server a little after the client counts them, and not always in the
# same order; a window 5 % and 50 ms wider than the server's keeps that jitter from
# turning into a 429 (the 50 ms matters for the short windows of a scaled fake server).
_SAFETY = 1.05
_SLACK = 0.05


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

    Examples:
        >>> RateLimits(sync_per_minute=120)
        RateLimits(sync_per_minute=120, async_per_minute=600, period=60.0, concurrent_enrichments=5)
    """

    sync_per_minute: int = 60
    async_per_minute: int = 600
    period: float = 60.0
    concurrent_enrichments: int = 5

    def __post_init__(self) -> None:
        integer("RateLimits.sync_per_minute", self.sync_per_minute, 1)
        integer("RateLimits.async_per_minute", self.async_per_minute, 1)
        seconds("RateLimits.period", self.period, positive=True)
        integer("RateLimits.concurrent_enrichments", self.concurrent_enrichments, 1)


class _Window:
    """At most `limit` requests in any `period` seconds: a sliding-window log.

    A token bucket of the same rate lets a burst through and then one request per
    interval, which a server that counts a sliding window rejects; a log of send times
    is never over the limit by any of the usual ways of counting.
    """

    def __init__(self, limit: int, period: float, clock: ServiceClock) -> None:
        self._limit = limit
        # The slack is real time (scheduling jitter), so it is converted to the service's.
        self._period = period * _SAFETY + _SLACK / clock.scale
        self._clock = clock
        self._sent: deque[float] = deque()
        self._lock = threading.Lock()

    def reserve(self, within: float | None = None) -> float | None:
        """Claim the next free slot; returns how long to wait before sending.

        With `within`, a slot further away than that is not claimed: None is returned
        and the window is left as it was (a wait must not outlive its deadline).
        """
        with self._lock:
            now = self._clock.now()
            at = now
            if len(self._sent) >= self._limit:
                at = max(now, self._sent[0] + self._period)
                if within is not None and at - now > within:
                    return None
                self._sent.popleft()
            self._sent.append(at)
            return at - now


class Pacer:
    """One window per bucket and the enrichment slots, shared by a client and every copy
    made by `with_options`.

    Reservations happen under a thread lock and the waiting outside it, so the same pacer
    serves threads and asyncio tasks alike. Slots are a thread semaphore for the sync
    client and an asyncio one, made on first use, for the async client.
    """

    def __init__(self, limits: RateLimits, clock: ServiceClock) -> None:
        self.limits = limits
        self._windows: dict[Bucket, _Window] = {
            "sync": _Window(limits.sync_per_minute, limits.period, clock),
            "async": _Window(limits.async_per_minute, limits.period, clock),
        }
        self.slots = threading.BoundedSemaphore(limits.concurrent_enrichments)
        self._async_slots: asyncio.Semaphore | None = None

    @property
    def async_slots(self) -> asyncio.Semaphore:
        """The enrichment slots of an async client."""
        if self._async_slots is None:
            import asyncio

            self._async_slots = asyncio.Semaphore(self.limits.concurrent_enrichments)
        return self._async_slots

    def reserve(self, bucket: Bucket, within: float | None = None) -> float | None:
        """Claim a slot in `bucket`; returns the seconds to wait before sending, or None
        when the slot is further away than `within` seconds (nothing is claimed then)."""
        return self._windows[bucket].reserve(within)
