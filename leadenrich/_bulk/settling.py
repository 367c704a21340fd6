"""When the service must be done with a request whose answer was lost, and what proves it.

What the plan assumes of the service (docs/reliability.md lists it, and the simulation in
tests/simulation holds the plan to it):

- A request that reached the service is taken in within `intake` seconds of leaving
  this machine (or within as long as the client waited for its answer, if longer), or
  never. Only a request nobody waited for to the end (a read timeout, a gateway's 5xx,
  or a run that ended without an answer) can still be waiting to be taken in: a 2xx
  whose body was cut short, or a dropped connection, comes from a request taken in
  already, or never to be. Only the cut 2xx says the service was done with it.
- An enrichment runs at most `settle` seconds once it starts (a sync one ~90 s): a sync
  request taken in is stored, if ever, `settle` seconds later.
- A job waits in the service's queue for a slot, the oldest first, for as long as the
  queue takes; so a lost job is looked up once this run's own jobs have taken as long,
  and an earlier run's lost job is sent again only once a job that left after it was
  taken in, at the latest, is seen to have run, a settle window before the lookup.

All times are on the run's clock, in the service's seconds.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, cast

import httpx

from .._clock import ServiceClock
from .._config import LONG_RUNNING_READ_TIMEOUT
from .._errors import APIConnectionError, APITimeoutError, InternalServerError, LeadEnrichError
from .._retry import UPSTREAM_FULL_BACKOFF
from .checkpoint import Unanswered
from .inputs import Item

if TYPE_CHECKING:
    from .._models import LeadOut

__all__ = ["SERVICE", "Parked", "ServiceTimes", "Settling"]


@dataclass(frozen=True)
class ServiceTimes:
    """The service's durations a bulk run decides by, in seconds."""

    settle: float
    """After this long, the service is done with a request it took in (a sync enrichment
    may take ~90 s), so its record is stored if it ever will be."""
    upstream_full: float
    """The pause after an `upstream_full` 429 that gave no Retry-After."""
    intake: float
    """The service takes in a request that reached it within this long of it leaving
    this machine, or never."""


SERVICE = ServiceTimes(
    settle=LONG_RUNNING_READ_TIMEOUT, upstream_full=UPSTREAM_FULL_BACKOFF, intake=LONG_RUNNING_READ_TIMEOUT
)

# A lead whose job creation answer was lost is looked up at most this often: again while
# one of the run's own jobs has taken at least _AS_LONG of the time the lost one has had.
_JOB_LOOKS = 3
_AS_LONG = 0.9


@dataclass(frozen=True)
class Parked:
    """A lead whose answer was lost, waiting to be looked up."""

    item: Item
    left: float
    """When its request left at the latest: what the run's own requests that left later
    created proves a record of the lead stored after it."""
    floor: float | None
    """When its request left at the earliest, for a lead of this run: a record the
    service's clock reads as older is not its own."""
    reached: float
    """When its request most likely reached the service (as it left, for one that timed out)."""
    intake_by: float
    """When the service had taken the request in at the latest, if it ever did."""
    due: float
    """When to look it up."""
    settled_by: float | None
    """When a lookup that misses it shows it was never stored (None for a job: it may
    wait in the queue)."""
    error: LeadEnrichError | None
    """What this run met; None for a lead an earlier run left."""
    looks: int = 1
    """Which lookup of it this is."""
    unanswered: float = 0.0
    """How long its request went unanswered before the client gave up on it (a read
    timeout), 0 for any other loss."""
    as_job: bool = False
    """Sent to create a job, which may wait in the service's queue before it runs."""
    after: datetime | None = None
    """For an earlier run's lead: the latest record that run had received when the lead
    set out (this machine's dates time nothing across runs: they may have stepped)."""
    provisional: LeadOut | None = None
    """The record an earlier run took for the lead without proof, looked at once more
    (`Unanswered.provisional`)."""


class Settling:
    """This run's jobs, and every timing decision about lost answers (thread-safe)."""

    def __init__(self, clock: ServiceClock, service: ServiceTimes, as_jobs: bool) -> None:
        self._clock = clock
        self._service = service
        self._as_jobs = as_jobs
        self._lock = threading.Lock()
        self._job_times: dict[str, tuple[float, float | None]] = {}
        """This run's jobs: when each one's creation request left and, once seen, when it ended."""
        self._ran: dict[str, tuple[float, float]] = {}
        """This run's jobs seen to have run (a result not deduped), so to have gone through
        the service's queue: when each one's request left and ended."""

    # This run's jobs.

    def job_created(self, key: str, left: float) -> None:
        with self._lock:
            self._job_times[key] = (left, None)

    def job_ended(self, key: str, ran: bool) -> None:
        """The job of `key` ended (if it is one of this run's); `ran`: through the queue."""
        with self._lock:
            times = self._job_times.get(key)
            if times is None or times[1] is not None:
                return
            end = self._clock.now()
            self._job_times[key] = (times[0], end)
            if ran:
                self._ran[key] = (times[0], end)

    def _job_span(self, now: float) -> float:
        """The longest any of this run's jobs has taken from its request leaving to its end,
        counting those not seen to end yet by their age (the lock held)."""
        return max(
            ((end if end is not None else now) - start for start, end in self._job_times.values()),
            default=0.0,
        )

    # Lost answers.

    def lost_now(self, item: Item, left: float, error: LeadEnrichError) -> Parked:
        """A lead of this run whose answer `error` lost, its request having left at `left`."""
        now = self._clock.now()
        waited = _waited(error, self._clock)
        if not waited and isinstance(error, InternalServerError):
            # A gateway's 5xx may come once it gave up waiting, as a read timeout does:
            # before the service took the request in, or while it goes on with it.
            waited = max(0.0, now - left)
        reached = now - waited
        service = self._service
        with self._lock:
            if waited:
                # Timed out: the service may take it in late, as late as `intake` after it
                # left, or as long as the client waited for it.
                intake_by = reached + max(service.intake, waited)
                settled_by = intake_by + service.settle
            elif isinstance(error, APIConnectionError):
                # Dropped: taken in by now or never, and perhaps still running.
                intake_by = now
                settled_by = now + service.settle
            else:
                # A 2xx whose body was cut short: the service was done with it.
                intake_by = settled_by = now
            if self._as_jobs:
                due = max(now, reached + max(service.settle, self._job_span(now)))
                return Parked(
                    item, left, left, reached, intake_by, due, None, error, unanswered=waited, as_job=True
                )
            due = max(now, reached if settled_by == now else reached + service.settle)
            return Parked(item, left, left, reached, intake_by, due, settled_by, error, unanswered=waited)

    def left_earlier(self, item: Item, sent: Unanswered) -> Parked:
        """A lead an earlier run sent without hearing back. Its request left before this
        run began, at any time: the checkpoint's dates are this machine's, which may have
        stepped between the runs, so they time nothing here."""
        now, service = self._clock.now(), self._service
        if sent.provisional is not None:
            # Looked at once more, now: the latest record of the lead is taken. (Not as a
            # job: nothing of this run waits for it, nor proves anything of its queue.)
            return Parked(
                item,
                left=now,
                floor=None,
                reached=now,
                intake_by=now,
                due=now,
                settled_by=now,
                error=None,
                after=sent.after,
                provisional=sent.provisional,
            )
        # 1.0's lines do not say: sent as a job, maybe, which may still wait in the queue
        # (taken for a sync request, it would be looked up too soon and sent again).
        as_job = True if sent.as_job is None else sent.as_job
        unanswered = sent.unanswered / self._clock.scale
        if not sent.lost:
            # In flight when that run ended: it may have left just before now.
            intake_by = now + service.intake
        elif unanswered:
            # Timed out, so it left at least `unanswered` before the loss, before now, and
            # may be taken in as late as `intake` after it left or as long as it waited.
            intake_by = now + max(service.intake, unanswered) - unanswered
        else:
            # An answer was lost: the request was taken in by then, before now.
            intake_by = now
        if as_job:
            with self._lock:
                due = now + max(service.settle, self._job_span(now))
            return Parked(item, now, None, now, intake_by, due, None, None, as_job=True, after=sent.after)
        settled_by = intake_by + service.settle
        return Parked(item, now, None, now, intake_by, settled_by, settled_by, None, after=sent.after)

    def forgotten(self, item: Item, error: LeadEnrichError | None) -> Parked:
        """A lead whose known job the service no longer knows (a 404 for it): a service
        forgets a job once it ended, so its record, if it ran, is stored within a settle
        window (`error`: the 404, for a job of this run; None for an earlier run's)."""
        now = self._clock.now()
        settled_by = now + self._service.settle
        with self._lock:
            times = self._job_times.get(item.key) if error is not None else None
        if times is None:
            return Parked(item, now, None, now, now, settled_by, settled_by, error)
        # This run's job: a record older than its creation is not its own (a job may dedupe
        # one stored long before, and charge nothing).
        left = times[0]
        return Parked(item, left, left, now, now, settled_by, settled_by, error)

    def look_again(self, parked: Parked, began: float, more_jobs: Callable[[], bool]) -> float | None:
        """When to look again for a lost lead a lookup begun at `began` did not find, or
        None once it never will be stored (or nothing will tell)."""
        now = self._clock.now()
        service = self._service
        if not parked.as_job:
            settled = parked.settled_by
            return None if settled is None or began >= settled else settled
        with self._lock:
            if parked.error is None:
                # An earlier run's: looked up again once a job of this run, sent after it
                # was taken in at the latest, shows the queue moved past it; not at all
                # when no such job will come (`more_jobs`: the run still creates jobs).
                if self._queue_moved_past(parked, began):
                    return None
                if ended := [end for start, end in self._ran.values() if start >= parked.intake_by]:
                    return min(ended) + service.settle
                running = any(
                    end is None and start >= parked.intake_by for start, end in self._job_times.values()
                )
                return now + service.settle if running or more_jobs() else None
            if parked.looks >= _JOB_LOOKS or self._job_span(now) < _AS_LONG * (now - parked.reached):
                return None
            return now + service.settle

    def final(self, parked: Parked, began: float) -> bool:
        """Whether the lead's own record, if it ever will be, was stored by the time a
        lookup began at `began`: for a sync enrichment once the service must be done with
        it, for a job once the queue is seen to have moved past it. Not found then, an
        earlier run's lead was never charged, and is sent again."""
        if not parked.as_job:
            return parked.settled_by is not None and began >= parked.settled_by
        with self._lock:
            return self._queue_moved_past(parked, began)

    def _queue_moved_past(self, parked: Parked, began: float) -> bool:
        """Whether a job of this run that ran, whose request left after the service had
        taken `parked`'s in at the latest, ended a settle window before the lookup `began`
        (the lock held): `parked`'s job was admitted first (the oldest first) and, once
        running, ended within that window, so the lookup would have found it stored."""
        return any(
            start >= parked.intake_by and began >= end + self._service.settle
            for start, end in self._ran.values()
        )


def _waited(error: LeadEnrichError, clock: ServiceClock) -> float:
    """Service seconds the request had been with the service when `error` came: a read
    timeout means no answer began for that long after the request was sent."""
    if isinstance(error, APITimeoutError) and isinstance(error.__cause__, httpx.ReadTimeout):
        limits: object = error.request.extensions.get("timeout")
        if isinstance(limits, dict):
            read = cast("dict[str, object]", limits).get("read")
            if isinstance(read, (int, float)):
                return float(read) / clock.scale
    return 0.0
