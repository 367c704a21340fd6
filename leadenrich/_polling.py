"""Waiting for a job or a lookup to reach a terminal state.

The schedule is a plain object shared by both clients, and the wait itself (`poll`) is
steps (`_steps.py`) that the sync client performs blocking and the async client awaits.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Generator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from . import _lazy_models
from ._clock import Deadline, ServiceClock
from ._errors import JobFailedError, LeadEnrichError, PollTimeoutError, RateLimitError
from ._steps import Pause, Send, Steps
from ._validate import seconds

if TYPE_CHECKING:
    from datetime import datetime

    from ._endpoints import Call
    from ._models import JobOut, LeadOut, MobileFindOut

__all__ = [
    "DEFAULT_JOB_TIMEOUT",
    "DEFAULT_LOOKUP_TIMEOUT",
    "DEFAULT_POLL_INTERVAL",
    "FIRST_LOOK",
    "TYPICAL_SHORTEST_JOB",
    "AgeSchedule",
    "CutShort",
    "JobDurations",
    "Waiter",
]

DEFAULT_JOB_TIMEOUT = 300.0
"""How long a job wait lasts by default: enrichments take 20-40 s, up to ~90 s, plus queueing."""
DEFAULT_LOOKUP_TIMEOUT = 300.0
"""How long a mobile lookup wait lasts by default."""
DEFAULT_POLL_INTERVAL = 1.0
"""By default, the shortest interval between two polls of a wait; for a job of unknown age
or a lookup, the first one, growing 1.5x per poll up to 5x this value."""
FIRST_LOOK = 1.0
"""How old a job this client created is when it is first looked at by default: a deduped
job (its contact already existed) is done at once, and is seen at once."""
_GROWTH = 1.5
_CEILING = 5.0

Polled = TypeVar("Polled", "JobOut", "MobileFindOut")


class CutShort(PollTimeoutError):
    """A request of a wait that would have waited past the wait's deadline (pacing, a
    retry's back-off). Never reaches the caller: the wait turns it into its own timeout."""

    def __init__(self, why: str) -> None:
        super().__init__(why, last=None)


@dataclass(frozen=True)
class AgeSchedule:
    """When to poll a job whose age is known: from its expected finish, at ages growing
    by `growth`.

    A job found done at age `a` after being seen running at age `a / growth` finished at
    most `growth - 1` of its duration ago, so `growth=1.1` bounds the notice delay to 10 %
    of the job's duration; the first poll, at `first` times the shortest duration
    expected, bounds it for the quickest jobs.
    """

    growth: float = 1.1
    first: float = 1.1

    def first_age(self, shortest: float) -> float:
        return shortest * self.first

    def next_age(self, age: float) -> float:
        return age * self.growth


TYPICAL_SHORTEST_JOB = 20.0
"""The spec's shortest typical enrichment, in the service's seconds (20-40 s): what a
client expects of its jobs until it has seen some finish."""


class JobDurations:
    """When this client created its jobs, and how long they took.

    A job is looked at first when it is `FIRST_LOOK` old, unless the last jobs showed
    that none ends that soon (`looks_early`); then polled by its age: first near the
    shortest duration expected (learnt from the last jobs that finished, the spec's 20 s
    until then), then at ages growing by `schedule.growth`. A duration is read from the
    job's own timestamps, so a job found done at its first poll still says how quick it
    was. Shared by a client and its copies, and by every wait on them.
    """

    _REMEMBERED = 1000  # creation times kept, so jobs.wait knows the age of a recent job
    _RECENT = 50  # finished jobs the shortest duration is drawn from
    _TRUSTED = 20  # finished jobs it takes to expect longer ones than the spec's
    _SLOW = 3  # finished jobs, each shown to end after its first look, that stop the early look

    def __init__(self, schedule: AgeSchedule | None = None) -> None:
        self.schedule: AgeSchedule = schedule or AgeSchedule()
        self._lock = threading.Lock()
        self._created: OrderedDict[str, float] = OrderedDict()
        self._durations: deque[float] = deque(maxlen=self._RECENT)
        self._slow: deque[bool] = deque(maxlen=self._SLOW)

    def created(self, job_id: str, at: float) -> None:
        """Remember that `job_id` was created at `at` (the clock's `now()`)."""
        with self._lock:
            self._created[job_id] = at
            self._created.move_to_end(job_id)
            while len(self._created) > self._REMEMBERED:
                self._created.popitem(last=False)

    def created_at(self, job_id: str) -> float | None:
        with self._lock:
            return self._created.get(job_id)

    def record(self, job: JobOut, clock: ServiceClock) -> None:
        """Learn how long a finished job ran, start (or creation) to finish, and whether
        it ended after its first look would have come."""
        deduped = job.result is not None and bool(job.result.deduped)
        created, finished = job.created_at, job.finished_at
        with self._lock:
            self._created.pop(job.job_id, None)
            # Only a job's own timestamps show it was slow: a job without them (a mocked
            # service's) keeps the early look.
            self._slow.append(
                created is not None
                and finished is not None
                and not deduped
                and _seconds(created, finished, clock) > FIRST_LOOK
            )
        # A failed or deduped job says nothing of how long an enrichment takes.
        if job.status != "done" or deduped or created is None or finished is None:
            return
        took = _seconds(job.started_at or created, finished, clock)
        if took > 0:
            with self._lock:
                self._durations.append(took)

    def looks_early(self) -> bool:
        """Whether a new job is first looked at when `FIRST_LOOK` old: unless each of the
        last `_SLOW` jobs that finished was shown to end later (deduped ones end at once)."""
        with self._lock:
            return len(self._slow) < self._SLOW or not all(self._slow)

    def shortest(self) -> float:
        """The shortest duration to expect of the next job, in the service's seconds.

        The quickest of `n` jobs is a little slower than the quickest there can be: by
        about the spread of the durations over `n - 1` (exact for evenly spread ones), so
        that much is taken off. Until `_TRUSTED` jobs have finished, the spec's 20 s holds
        unless a quicker job was seen: a few jobs that happened to be slow do not put off
        the first poll.
        """
        with self._lock:
            seen = list(self._durations)
        if not seen:
            return TYPICAL_SHORTEST_JOB
        quickest, slowest = min(seen), max(seen)
        expected = quickest
        if len(seen) > 1:
            expected = max(quickest - (slowest - quickest) / (len(seen) - 1), quickest / 2)
        if len(seen) >= self._TRUSTED:
            return expected
        return TYPICAL_SHORTEST_JOB if quickest >= TYPICAL_SHORTEST_JOB else expected


def _seconds(start: datetime, end: datetime, clock: ServiceClock) -> float:
    """The service's seconds between two of its timestamps.

    The service stamps its jobs in real seconds; a faster clock (a fake server's) runs
    that many more of the service's seconds in each.
    """
    return (end - start).total_seconds() / clock.scale


class _Age:
    """The job a wait follows: when it was created and started, and how long it has been
    seen running, in the service's seconds."""

    def __init__(self, durations: JobDurations, job_id: str, born: float) -> None:
        self.durations = durations
        self.job_id = job_id
        self.born = born
        # Until a poll shows when the job started, it is taken to run from its creation.
        self.queued_for = 0.0
        self.ran_for: float | None = None
        self.round_trip = 0.0

    def seen(self, job: JobOut, clock: ServiceClock, sent_at: float) -> None:
        """A poll sent at `sent_at` found the job queued or running."""
        if job.started_at is None:
            # Still queued: it has not begun to run, however old it is.
            self.queued_for = sent_at - self.born
        elif job.created_at is not None:
            self.queued_for = max(0.0, _seconds(job.created_at, job.started_at, clock))
        # Running when the poll reached the service, so at least since it was sent.
        self.ran_for = max(0.0, sent_at - self.born - self.queued_for)
        self.round_trip = clock.now() - sent_at


class Waiter(Generic[Polled]):
    """The state of one wait: the last object seen, the next interval, the deadline.

    An explicit `poll_interval` is the interval of every poll: the first comes that long
    after the job or lookup was created (at once when it is older, or of unknown age),
    the next ones that far apart. Without one, a job of known age is polled by its age
    (`JobDurations`), anything else at once, then at intervals from `DEFAULT_POLL_INTERVAL`
    growing 1.5x per poll up to 5x that.
    """

    def __init__(
        self,
        what: str,
        deadline: Deadline,
        poll_interval: float | None,
        on_progress: Callable[[Polled], object] | None,
    ) -> None:
        self.what = what
        self.deadline = deadline
        self._fixed = (
            poll_interval if poll_interval is None else seconds("poll_interval", poll_interval, positive=True)
        )
        self._interval = self._fixed or DEFAULT_POLL_INTERVAL
        self._on_progress: Callable[[Polled], object] | None = on_progress
        self._age: _Age | None = None
        self._sent_at = deadline.clock.now()
        self.last: Polled | None = None

    def follow(self, durations: JobDurations, job_id: str, started: float | None = None) -> None:
        """Poll `job_id` by its age when this client created it (else as an unknown job).

        `started`: when the job is taken to have begun to run, if later than its creation
        (it waited in the service's queue for a slot), until a poll shows when it did.
        """
        born = durations.created_at(job_id)
        if born is not None:
            self._age = _Age(durations, job_id, born)
            if started is not None:
                self._age.queued_for = max(0.0, started - born)

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
        self._sent_at = self.deadline.clock.now()
        try:
            yield
        except CutShort as exc:
            raise self._timed_out(exc.message) from exc.__cause__

    def observe(self, polled: Polled) -> bool:
        """Record a polled object; True when it is terminal."""
        self.last = polled
        if self._age is not None and isinstance(polled, _lazy_models.JobOut):
            if polled.is_terminal:
                self._age.durations.record(polled, self.deadline.clock)
            else:
                self._age.seen(polled, self.deadline.clock, self._sent_at)
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

    def until_first_poll(self) -> float:
        """How long to sleep before polling at all: until a job of known age is as old as
        its first look, else nothing."""
        if self._age is None:
            return 0.0
        wanted = self._age.queued_for + self._first_look(self._age)
        age = self.deadline.clock.now() - self._age.born
        return min(max(0.0, wanted - age), self.deadline.remaining())

    def next_delay(self) -> float:
        """How long to sleep before the next poll; PollTimeoutError once the deadline passed."""
        remaining = self.deadline.remaining()
        if remaining <= 0:
            raise self._timed_out(f"after {self.deadline.timeout:g} s")
        if self._age is not None and self._fixed is None:
            return min(self._until_next_age(self._age), remaining)
        delay = min(self._interval, remaining)
        if self._fixed is None:
            self._interval = min(self._interval * _GROWTH, DEFAULT_POLL_INTERVAL * _CEILING)
        return delay

    def _first_look(self, job: _Age) -> float:
        """How old (past its time queued) a job is at its first poll."""
        if self._fixed is not None:
            return self._fixed
        durations = job.durations
        return FIRST_LOOK if durations.looks_early() else durations.schedule.first_age(durations.shortest())

    def _until_next_age(self, job: _Age) -> float:
        # By the job's running time, not by poll count: a poll held back by pacing or a
        # 429 does not push the next one later. A job that waited in the queue has run
        # for less than its age, and its duration counts from its start.
        schedule = job.durations.schedule
        age = self.deadline.clock.now() - job.born
        if job.ran_for is None:
            wanted = job.queued_for + self._first_look(job)
        else:
            # The answer, not the request, is due at `growth` times the age: send it one
            # round trip early (less when pacing made that trip long).
            due = schedule.next_age(job.ran_for)
            early = min(job.round_trip, (due - job.ran_for) / 2)
            wanted = job.queued_for + max(schedule.first_age(job.durations.shortest()), due - early)
        return max(wanted - age, DEFAULT_POLL_INTERVAL)


def _state(last: JobOut | MobileFindOut) -> str:
    return last.status if isinstance(last, _lazy_models.JobOut) else last.state


def poll(waiter: Waiter[Polled], call: Call[Polled]) -> Steps[Polled]:
    """Send `call` until it answers a terminal object, on the waiter's schedule."""
    while True:
        try:
            with waiter.sending():
                polled: Polled = yield Send(call, waiter.deadline)
        except RateLimitError as exc:
            yield Pause(waiter.rate_limited(exc))
            continue
        if waiter.observe(polled):
            return polled
        yield Pause(waiter.next_delay())


def lead_of(job: JobOut) -> LeadOut:
    """The lead a terminal job produced; JobFailedError when it failed."""
    if job.status == "failed":
        raise JobFailedError(job)
    if job.result is None:
        raise LeadEnrichError(f"enrichment job {job.job_id} ended {job.status!r} without a result")
    return job.result
