"""The service's clock: the one setting every wait of the SDK derives from.

Every duration the SDK waits out stands for time on the service's side: a poll interval,
the ~90 s a sync enrichment may take and the settle window derived from it, the ~2 s
`upstream_full` back-off, a `Retry-After`, a pacing window, a wait's deadline. All of them
are counted in the service's seconds on one `ServiceClock`, which turns them into real
seconds. The default runs at the service's real speed; a fake server with a scaled clock
hands out clients whose clock runs at the same scale, so tests run as fast as the fake.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone

from ._validate import seconds

__all__ = ["Deadline", "ManualClock", "ServiceClock", "wall_time"]


class ServiceClock:
    """How the SDK reads the service's time and waits for it.

    Args:
        scale: Real seconds per second of the service: 1.0 (the default) for the real
            service, the fake server's `time_scale` for a fake server.

    Examples:
        >>> from leadenrich import LeadEnrich, ServiceClock
        >>> clock = ServiceClock(scale=0.01)  # 100 times as fast as the real service
        >>> client = LeadEnrich(api_key="le_live_x", base_url="http://127.0.0.1:8000", clock=clock)
        >>> clock.real_seconds(90)
        0.9
    """

    def __init__(self, scale: float = 1.0) -> None:
        self.scale: float = seconds("ServiceClock.scale", scale, positive=True)

    def real_seconds(self, service_seconds: float) -> float:
        """How long `service_seconds` of the service last on this machine.

        Examples:
            >>> ServiceClock(scale=0.005).real_seconds(30)
            0.15
        """
        return service_seconds * self.scale

    def now(self) -> float:
        """The service's monotonic time, in its seconds (a point of reference, not a date).

        Examples:
            >>> clock = ServiceClock(scale=0.5)
            >>> later = clock.now() + 10  # 10 s of the service: 5 s on this machine
        """
        return self._real_now() / self.scale

    def sleep(self, service_seconds: float) -> None:
        """Block for `service_seconds` of the service's time.

        Examples:
            >>> ServiceClock(scale=0.001).sleep(2)  # the upstream_full back-off: 2 ms here
        """
        if service_seconds > 0:
            self._real_sleep(self.real_seconds(service_seconds))

    async def asleep(self, service_seconds: float) -> None:
        """Wait `service_seconds` of the service's time without blocking the event loop.

        Examples:
            >>> await ServiceClock(scale=0.001).asleep(2)
        """
        if service_seconds > 0:
            await self._real_asleep(self.real_seconds(service_seconds))

    def _wall(self) -> datetime:
        """This machine's date and time (UTC), for the times a checkpoint records: only
        ever compared with other readings of this machine's clock, never with the
        service's stamps (the two clocks need not agree)."""
        return datetime.now(timezone.utc)

    # The three ways to reach real time: a clock for tests overrides these.
    def _real_now(self) -> float:
        return time.monotonic()

    def _real_sleep(self, real_seconds: float) -> None:
        time.sleep(real_seconds)

    async def _real_asleep(self, real_seconds: float) -> None:
        import asyncio  # ~15 ms to import: only when an async client waits

        await asyncio.sleep(real_seconds)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(scale={self.scale:g})"


class ManualClock(ServiceClock):
    """A clock that moves only when the SDK waits: every wait ends at once.

    For unit tests of pacing, retries and deadlines against a mocked transport: nothing
    sleeps, and `sleeps` records every wait the SDK asked for, in service seconds.

    Examples:
        >>> clock = ManualClock()
        >>> clock.sleep(2.5)
        >>> clock.sleeps, clock.now()
        ([2.5], 1002.5)
    """

    def __init__(self, start: float = 1000.0) -> None:
        super().__init__()
        self._now: float = start
        self.sleeps: list[float] = []
        """Every wait asked for, in order, in service seconds."""

    def advance(self, service_seconds: float) -> None:
        """Move the clock forward, as if that much time had passed.

        Examples:
            >>> clock = ManualClock()
            >>> clock.advance(60)
            >>> clock.now(), clock.sleeps
            (1060.0, [])
        """
        self._now += service_seconds

    def sleep(self, service_seconds: float) -> None:
        """Record the wait and move the clock past it, at once.

        Examples:
            >>> clock = ManualClock()
            >>> clock.sleep(1.5)
            >>> clock.sleeps
            [1.5]
        """
        self.sleeps.append(service_seconds)
        self._now += max(0.0, service_seconds)

    async def asleep(self, service_seconds: float) -> None:
        """Record the wait and move the clock past it, at once (never yields to the loop).

        Examples:
            >>> await ManualClock().asleep(1.5)
        """
        self.sleep(service_seconds)

    def _real_now(self) -> float:
        return self._now

    def _wall(self) -> datetime:
        # Moves with the clock, from a fixed date: a test's checkpoint reads the same every run.
        return _MANUAL_EPOCH + timedelta(seconds=self._now * self.scale)


_MANUAL_EPOCH = datetime(2026, 1, 1, tzinfo=timezone.utc)


def wall_time(clock: ServiceClock) -> datetime:
    """`clock`'s reading of this machine's date and time (see `ServiceClock._wall`): kept
    off the public surface, where it would read as the service's date."""
    return clock._wall()  # pyright: ignore[reportPrivateUsage]


class Deadline:
    """A point in the service's time, `timeout` of its seconds from now.

    Every wait made on the way to it (a paced send, a retry's back-off, a poll interval)
    is checked against it before it starts, so a wait ends by its deadline plus at most
    one request's own timeout.
    """

    def __init__(self, timeout: float, clock: ServiceClock) -> None:
        self.timeout: float = seconds("timeout", timeout, positive=True)
        self.clock: ServiceClock = clock
        self._at = clock.now() + self.timeout

    def remaining(self) -> float:
        return max(0.0, self._at - self.clock.now())
