"""Waiting for a job or a lookup to reach a terminal state.

The schedule and the deadline are plain objects shared by both clients; the sync and
async loops around them differ only in how they fetch and sleep.
"""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable, Generator
from contextlib import contextmanager
from typing import Generic, TypeVar

from ._clock import ServiceClock
from ._errors import JobFailedError, LeadEnrichError, PollTimeoutError, RateLimitError
from ._models import JobOut, LeadOut, MobileFindOut
from ._validate import seconds

__all__ = [
    "DEFAULT_JOB_TIMEOUT",
    "DEFAULT_LOOKUP_TIMEOUT",
    "DEFAULT_POLL_INTERVAL",
    "CutShort",
    "Deadline",
    "JobDurations",
    "Waiter",
]

DEFAULT_JOB_TIMEOUT = 300.0
"""How long a job wait lasts by default: enrichments take 20-40 s, up to ~90 s, plus queueing."""
DEFAULT_LOOKUP_TIMEOUT = 300.0
"""How long a mobile lookup wait lasts by default."""
DEFAULT_POLL_INTERVAL = 1.0
"""The first interval between polls; it grows 1.5x per poll up to 5x this value."""
_GROWTH = 1.5
_CEILING = 5.0

Polled = TypeVar("Polled", JobOut, MobileFindOut)


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


class CutShort(PollTimeoutError):
    """A request of a wait that would have waited past the wait's deadline (pacing, a
    retry's back-off). Never reaches the caller: the wait turns it into its own timeout."""

    def __init__(self, why: str) -> None:
        super().__init__(why, last=None)


class JobDurations:
    """How long this client's jobs took, creation to finish, by the service's own clock.

    A job cannot finish sooner than the quickest one seen so far, give or take: polling
    it before then only spends the per-key budget that the polls of older jobs, close to
    finishing, need. Shared by a client and its copies.
    """

    # Polls start at this fraction of the shortest duration seen, to allow for variance.
    _MARGIN = 0.8

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._shortest: float | None = None

    def record(self, job: JobOut) -> None:
        if job.status != "done" or job.created_at is None or job.finished_at is None:
            return
        took = (job.finished_at - job.created_at).total_seconds()
        if took > 0:
            with self._lock:
                self._shortest = took if self._shortest is None else min(self._shortest, took)

    def quiet_period(self) -> float:
        """Seconds after creating a job before its first poll is worth its cost."""
        with self._lock:
            return 0.0 if self._shortest is None else self._shortest * self._MARGIN


class Waiter(Generic[Polled]):
    """The state of one wait: the last object seen, the next interval, the deadline."""

    def __init__(
        self,
        what: str,
        deadline: Deadline,
        poll_interval: float | None,
        on_progress: Callable[[Polled], object] | None,
    ) -> None:
        self.what = what
        self.deadline = deadline
        first = (
            DEFAULT_POLL_INTERVAL
            if poll_interval is None
            else seconds("poll_interval", poll_interval, positive=True)
        )
        self._interval = first
        self._ceiling = first * _CEILING
        self._on_progress: Callable[[Polled], object] | None = on_progress
        self._quiet_until = 0.0
        self.last: Polled | None = None

    def stay_quiet(self, seconds: float) -> None:
        """Do not poll again for `seconds` from now (the job cannot be done sooner)."""
        self._quiet_until = self.deadline.clock.now() + seconds

    def created(self, what: str, first: Polled) -> None:
        """Name what is waited for, and what it was when created (`.last` of a timeout)."""
        self.what = what
        self.last = first

    def _timed_out(self, why: str) -> PollTimeoutError:
        seen = f"was still {_state(self.last)}" if self.last is not None else "was not seen yet"
        return PollTimeoutError(
            f"{self.what} {seen} {why}; wait again with a larger timeout, or check back later",
            last=self.last,
        )

    @contextmanager
    def sending(self) -> Generator[None, None, None]:
        """A request that would wait past the deadline ends the wait with its timeout,
        naming what was waited for and carrying the last object seen."""
        try:
            yield
        except CutShort as exc:
            raise self._timed_out(exc.message) from exc.__cause__

    def observe(self, polled: Polled) -> bool:
        """Record a polled object; True when it is terminal."""
        self.last = polled
        if self._on_progress is not None:
            self._on_progress(polled)
        return polled.is_terminal

    def rate_limited(self, error: RateLimitError) -> float:
        """How long to sleep after a 429 that outlasted the client's retries.

        A wait has its own deadline, so it keeps polling after the service asks it to
        slow down rather than failing; when the deadline comes first, the wait ends with
        PollTimeoutError (caused by the 429).
        """
        remaining = self.deadline.remaining()
        wanted = error.retry_after if error.retry_after is not None else self._interval
        if wanted >= remaining:
            # Not the RateLimitError itself: that reads as "nothing happened, send again",
            # and after enrich_and_wait's creation a job exists and was paid for.
            raise self._timed_out(
                f"when the service asked for {wanted:g} s more (429), past the {self.deadline.timeout:g} s deadline"
            ) from error
        return wanted

    def next_delay(self) -> float:
        """How long to sleep before the next poll; PollTimeoutError once the deadline passed."""
        remaining = self.deadline.remaining()
        if remaining <= 0:
            raise self._timed_out(f"after {self.deadline.timeout:g} s")
        quiet = self._quiet_until - self.deadline.clock.now()
        delay = min(max(self._interval, quiet), remaining)
        if quiet <= 0:
            self._interval = min(self._interval * _GROWTH, self._ceiling)
        return delay


def _state(last: JobOut | MobileFindOut) -> str:
    return last.status if isinstance(last, JobOut) else last.state


def wait(fetch: Callable[[Deadline], Polled], waiter: Waiter[Polled]) -> Polled:
    """Poll `fetch` until it returns a terminal object (blocking)."""
    clock = waiter.deadline.clock
    while True:
        try:
            with waiter.sending():
                polled = fetch(waiter.deadline)
        except RateLimitError as exc:
            clock.sleep(waiter.rate_limited(exc))
            continue
        if waiter.observe(polled):
            return polled
        clock.sleep(waiter.next_delay())


async def async_wait(fetch: Callable[[Deadline], Awaitable[Polled]], waiter: Waiter[Polled]) -> Polled:
    """Poll `fetch` until it returns a terminal object; cancellable at every await."""
    clock = waiter.deadline.clock
    while True:
        try:
            with waiter.sending():
                polled = await fetch(waiter.deadline)
        except RateLimitError as exc:
            await clock.asleep(waiter.rate_limited(exc))
            continue
        if waiter.observe(polled):
            return polled
        await clock.asleep(waiter.next_delay())


def lead_of(job: JobOut) -> LeadOut:
    """The lead a terminal job produced; JobFailedError when it failed."""
    if job.status == "failed":
        raise JobFailedError(job)
    if job.result is None:
        raise LeadEnrichError(f"enrichment job {job.job_id} ended {job.status!r} without a result")
    return job.result
