"""Every decision of a bulk run, on recorded facts; shared by the sync and the async runner.

The plan says what to do next (send a lead, poll a recorded job, look up leads whose
answer was lost, or wait), turns each answer into outcomes, keeps the credit count and
writes every fact to the checkpoint the moment it is known. It never waits and never
sends: the runners do, and only that.

A lead's life: pending -> sent -> enriched, failed, or parked (its answer was lost:
looked up once the service must be done with it) -> enriched or maybe charged. A lead
with a known job id is never sent again: a rerun polls its job.

"Done with it" is counted from when the request reached the service at the latest. A sync
enrichment takes at most the settle window; a job may first wait in the service's queue,
so a lost job is given as long as the longest this run's own jobs have been seen to take.
"""

from __future__ import annotations

import logging
import random
import threading
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Literal, cast

import httpx

from .._clock import ServiceClock, wall_time
from .._config import LONG_RUNNING_READ_TIMEOUT
from .._errors import (
    APIConnectionError,
    APIResponseValidationError,
    APITimeoutError,
    AuthenticationError,
    InternalServerError,
    JobFailedError,
    LeadEnrichError,
    PermissionDeniedError,
    PollTimeoutError,
    QuotaExceededError,
    RateLimitError,
)
from .._polling import lead_of
from .._retry import UPSTREAM_FULL_BACKOFF
from .checkpoint import Checkpoint, Resume
from .inputs import Item
from .lookup import Scan
from .results import BulkOutcome

if TYPE_CHECKING:
    from .._models import JobOut, LeadOut

logger = logging.getLogger("leadenrich")

__all__ = ["SERVICE", "Lookup", "Plan", "Poll", "Send", "ServiceTimes", "Task", "is_ambiguous"]


@dataclass(frozen=True)
class ServiceTimes:
    """The service's durations a bulk run decides by, in seconds."""

    settle: float
    """After this long, the service is done with a request it received (a sync enrichment
    may take ~90 s), so its record is stored if it ever will be."""
    upstream_full: float
    """The pause after an `upstream_full` 429 that gave no Retry-After."""


SERVICE = ServiceTimes(settle=LONG_RUNNING_READ_TIMEOUT, upstream_full=UPSTREAM_FULL_BACKOFF)

# Errors that refuse the whole account, not one lead: no point starting more leads.
_ACCOUNT_ERRORS = (AuthenticationError, PermissionDeniedError, QuotaExceededError)


class NotSent(LeadEnrichError):
    """A lead's request kept from leaving: the run stopped while it waited to go (for a
    slot, the pacer or a back-off). Nothing was sent, so nothing was charged."""


# 429s are waited out, since they are refused before any work and never charged, but not
# forever: a service that answers nothing else (a throttled key, a proxy) would hold the
# run for good. Each round already includes the client's own retries.
_RATE_LIMITED_ROUNDS = 10
# What a poll of a known job may meet and still see the job's end by polling again: a
# passing fault, or a wait that ran out (the job is paid for; a rerun would poll it too).
_PASSING = (APIConnectionError, InternalServerError, APIResponseValidationError, PollTimeoutError)
_POLL_TRIES = 3
# A lead whose job creation answer was lost is looked up at most this often: again while
# one of the run's own jobs has taken at least _AS_LONG of the time the lost one has had.
_JOB_LOOKS = 3
_AS_LONG = 0.9
# A pause (a 429's, a lookup's retry) checks this often whether the run was stopped.
_PAUSE_STEP = 1.0


def is_ambiguous(error: LeadEnrichError) -> bool:
    """The service may have accepted, charged and stored the lead despite the error."""
    if isinstance(error, APIConnectionError):
        return error.request_sent
    if isinstance(error, PollTimeoutError):
        # Without a last object the deadline passed before a job was created (waiting for
        # an enrichment slot): nothing was sent.
        return error.last is not None
    # A 2xx whose body could not be read is an answer lost after the service did the work.
    return isinstance(error, (InternalServerError, APIResponseValidationError))


@dataclass(frozen=True)
class Send:
    """Send the lead (a credit is reserved for it)."""

    item: Item


@dataclass(frozen=True)
class Poll:
    """Poll a recorded job to its end, instead of sending its lead again."""

    item: Item
    job_id: str
    fresh: bool = False
    """Created by this run (its credit is this run's), not by an earlier one."""
    tries: int = 1


@dataclass(frozen=True)
class Parked:
    """A lead whose answer was lost, waiting to be looked up."""

    item: Item
    since: datetime
    """When its request may first have left: a record created before is not its own."""
    due: float
    """When (on the client's service clock) the service must be done with it."""
    reached: float
    """When (on the same clock) its request had reached the service at the latest."""
    error: LeadEnrichError | None
    """What this run met; None for a lead an earlier run left."""
    looks: int = 1
    """Which lookup of it this is."""
    unanswered: float = 0.0
    """Service seconds its request went unanswered before the client gave up on it (a read
    timeout), 0 for any other loss."""
    as_job: bool = False
    """Sent to create a job, which may wait in the service's queue before it runs."""


@dataclass(frozen=True)
class Lookup:
    """Look these parked leads up among the account's stored leads."""

    parked: tuple[Parked, ...]
    began: float = 0.0
    """When (on the client's service clock) the lookup began: a record stored later may
    have been missed by it."""

    def scan(self, claimed: Sequence[str]) -> Scan:
        return Scan({p.item.key: p.since for p in self.parked}, claimed)


Task = Send | Poll | Lookup
Step = list[BulkOutcome] | float
"""What a failed attempt leads to: its outcomes (maybe none: parked), or seconds to
pause before sending the lead again."""


class Plan:
    def __init__(
        self,
        items: list[Item],
        resume: Resume,
        max_credits: int | None,
        checkpoint: Checkpoint | None,
        clock: ServiceClock,
        service: ServiceTimes = SERVICE,
        jobs: bool = False,
    ) -> None:
        """`jobs`: the leads are sent as jobs (the `async` strategy), which may wait in the
        service's queue before they run."""
        self._checkpoint = checkpoint
        if checkpoint is not None:
            checkpoint.clock = clock
        self._as_jobs = jobs
        self._max_credits = max_credits
        self._service = service
        self._clock = clock
        self._lock = threading.Lock()
        self._reserved = 0
        self._spent = 0
        self._maybe = 0
        self._stop: LeadEnrichError | None = None
        self._pending: deque[Item] = deque()
        self._polls: deque[Poll] = deque()
        self._parked: list[Parked] = []
        self._copies: dict[int, list[Item]] = {}
        self._jobs: dict[str, str] = {}
        self._job_times: dict[str, tuple[float, float | None]] = {}
        """This run's jobs: when each one's creation request left and, once seen, when it ended."""
        self._ran: dict[str, tuple[float, float]] = {}
        """This run's jobs seen to have run (a result not deduped, or a failed enrichment),
        so to have gone through the service's queue: when each one's request left and ended."""
        self._sent: dict[str, tuple[datetime, float]] = {}
        """When each lead's request left: on the wall clock (what stored records carry) and
        on the client's service clock (what durations are measured on)."""
        self._rounds: dict[str, int] = {}
        self.claimed: list[str] = []
        """Ids of the records this run has given a lead: none is given to a second lead."""
        self.ready: list[BulkOutcome] = []
        """Outcomes known before anything is sent: invalid input, and leads done earlier."""
        self._read(items, resume)

    def _read(self, items: list[Item], resume: Resume) -> None:
        wall, now = wall_time(self._clock), self._clock.now()
        for item in items:
            if item.invalid is not None:
                self.ready.append(BulkOutcome(item.index, item.given, "failed", error=item.invalid))
            elif item.duplicate_of is not None:
                self._copies.setdefault(item.duplicate_of, []).append(item)
            elif item.key in resume.done:
                lead = resume.done[item.key]
                self.claimed.append(lead.id)
                self.ready.append(BulkOutcome(item.index, item.given, _status(lead), lead=lead, resumed=True))
            elif item.key in resume.jobs:
                self._jobs[item.key] = resume.jobs[item.key]
                self._polls.append(Poll(item, resume.jobs[item.key]))
            elif item.key in resume.uncertain:
                parked = self._left_by_earlier_run(item, resume, wall, now)
                self._parked.append(parked)
                logger.info(
                    "lead %d: an earlier run sent it without hearing back; looking it up in %.0f s, "
                    "once the service must be done with it, while the other leads go on",
                    item.index,
                    parked.due - now,
                )
            else:
                self._pending.append(item)
        self.ready = self._with_copies(self.ready)

    def _left_by_earlier_run(self, item: Item, resume: Resume, wall: datetime, now: float) -> Parked:
        """A lead an earlier run sent without hearing back, parked until the service must be
        done with it."""
        sent, scale = resume.uncertain[item.key], self._clock.scale
        # "started" is written before the request waits for a slot, the pacer and 429s: it
        # may have left at any time until that run ended, which was before now. A loss is
        # seen after the request left (the checkpoint's wall-clock times are converted).
        reached = (
            now if sent.lost is None else now + (max(sent.started, sent.lost) - wall).total_seconds() / scale
        )
        # 1.0's lines do not say: taken to have been sent as this run sends.
        as_job = self._as_jobs if sent.as_job is None else sent.as_job
        due = max(now, self._done_by(reached, answered=False, as_job=as_job))
        unanswered = sent.unanswered / scale
        return Parked(item, sent.started, due, reached, None, unanswered=unanswered, as_job=as_job)

    @property
    def total(self) -> int:
        return len(self.ready) + sum(len(c) for c in self._copies.values()) + self._waiting()

    def _waiting(self) -> int:
        return len(self._pending) + len(self._polls) + len(self._parked)

    # What to do next.

    def next(self) -> Task | None:
        """The next thing to do now, or None when nothing may start now."""
        with self._lock:
            failure = self._checkpoint.failure if self._checkpoint is not None else None
            if failure is not None and self._stop is None:
                self._stop = LeadEnrichError(f"not started: {failure}")
            if self._stop is not None:
                return None
            now = self._clock.now()
            due = tuple(p for p in self._parked if p.due <= now)
            if due:
                self._parked = [p for p in self._parked if p.due > now]
                return Lookup(due, now)
            if self._polls:
                return self._polls.popleft()
            if not self._pending or self._over_budget():
                return None
            self._reserved += 1
            return Send(self._pending.popleft())

    def _over_budget(self) -> bool:
        return (
            self._max_credits is not None and self._spent + self._maybe + self._reserved >= self._max_credits
        )

    def idle(self) -> float | None:
        """Seconds until a parked lead is due to be looked up; None when none is parked."""
        with self._lock:
            if not self._parked or self._stop is not None:
                return None
            return max(0.0, min(p.due for p in self._parked) - self._clock.now())

    def leftovers(self) -> list[BulkOutcome]:
        """Outcomes of every lead that will not start, once nothing more may start."""
        with self._lock:
            exhausted = (
                self._max_credits is not None
                and self._reserved == 0
                and not self._parked
                and self._spent + self._maybe >= self._max_credits
            )
            if self._stop is None and not exhausted:
                return []
            reason = self._stop or self._budget_reason()
            pending, self._pending = list(self._pending), deque[Item]()
            # A spent budget starts no new lead; the jobs already paid for are still polled
            # and the lost answers still looked up. A stop ends those too.
            polls: list[Poll] = []
            parked: list[Parked] = []
            if self._stop is not None:
                polls, self._polls = list(self._polls), deque[Poll]()
                parked, self._parked = self._parked, []
        outcomes = [BulkOutcome(item.index, item.given, "skipped", error=reason) for item in pending]
        for poll in polls:
            why = LeadEnrichError(f"{reason}; its job {poll.job_id} is polled by the next run")
            outcomes.append(self._maybe_charged(poll.item, why, poll.job_id))
        for lost in parked:
            why = LeadEnrichError(f"{reason}; its answer was lost, and the next run looks it up")
            outcomes.append(self._maybe_charged(lost.item, lost.error or why, None))
        return self._with_copies(outcomes)

    def _budget_reason(self) -> LeadEnrichError:
        spent = f"{self._spent} credit{'' if self._spent == 1 else 's'} spent"
        if self._maybe:
            spent += f" and {self._maybe} possibly spent by leads whose answer was lost"
        return LeadEnrichError(f"not started: max_credits={self._max_credits} is reached ({spent})")

    @property
    def stopped(self) -> bool:
        """Nothing more starts: Ctrl-C, a cancelled run or a refused account."""
        return self._stop is not None

    def stop(self, reason: LeadEnrichError) -> None:
        """Start nothing more (Ctrl-C, a cancelled run, a refused account)."""
        with self._lock:
            if self._stop is None:
                self._stop = reason

    def go_ahead(self) -> None:
        """Called as a lead's request is about to leave: NotSent once the run stopped."""
        if self.stopped:
            raise NotSent("the run stopped before the request left")

    def not_sent(self, item: Item) -> list[BulkOutcome]:
        """The outcome of a lead kept back by the stop, before it left or before it was
        sent again after a 429: skipped, nothing charged, and a rerun sends it."""
        with self._lock:
            reason = self._stop
            self._reserved -= 1
        assert reason is not None, "a lead is kept back only once the run stopped"
        outcome = BulkOutcome(item.index, item.given, "skipped", error=reason)
        self._record(item, outcome, maybe_charged=False)
        return self._with_copies([outcome])

    # Facts, recorded as they are learnt.

    def sending(self, item: Item) -> tuple[list[BulkOutcome], Future[None] | None]:
        """Mark `item` as about to leave; or, when the run stopped since it was scheduled,
        give its credit back and skip it.

        Returns the outcomes (skipped) and None, or no outcome and what to wait for
        before sending: the "started" line on disk, so that a rerun knows to look for it.
        """
        with self._lock:
            stopped = self._stop
            if stopped is not None:
                self._reserved -= 1
            else:
                self._sent[item.key] = (wall_time(self._clock), self._clock.now())
        if stopped is not None:
            return self._with_copies([BulkOutcome(item.index, item.given, "skipped", error=stopped)]), None
        if self._checkpoint is None:
            return [], None
        return [], self._checkpoint.started(item.key, item.index, as_job=self._as_jobs)

    def unsent(self, item: Item, error: LeadEnrichError) -> list[BulkOutcome]:
        """The checkpoint could not say the lead started: not sent, and nothing more is."""
        self.stop(LeadEnrichError(f"not started: {error}"))
        with self._lock:
            self._reserved -= 1
        return self._with_copies([BulkOutcome(item.index, item.given, "skipped", error=error)])

    def job_created(self, item: Item, job_id: str) -> Future[None] | None:
        """The service created `job_id` for the lead; returns what to wait for before
        polling (the job id on disk), or None."""
        with self._lock:
            self._jobs[item.key] = job_id
            # Counted from when its request left, as the lost ones it is compared with are
            # at the latest: a loaded machine that answers the one late does not make the
            # other look younger than it is.
            left = self._sent[item.key][1] if item.key in self._sent else self._clock.now()
            self._job_times[item.key] = (left, None)
        return self._checkpoint.job(item.key, job_id) if self._checkpoint is not None else None

    # Answers.

    def succeeded(self, item: Item, lead: LeadOut) -> list[BulkOutcome]:
        charged = not lead.deduped
        with self._lock:
            self._reserved -= 1
            self._spent += int(charged)
        return self._done(item, lead, charged=charged, resumed=False)

    def failed(self, item: Item, error: LeadEnrichError) -> Step:
        """What the failure of a sent lead leads to."""
        if isinstance(error, RateLimitError):
            return self._rate_limited(item, error)
        parked: float | None = None  # once parked: service seconds it went unanswered
        with self._lock:
            self._reserved -= 1
            job_id = self._jobs.get(item.key)
            if job_id is None and is_ambiguous(error):
                now = self._clock.now()
                waited = _waited(error, self._clock)
                reached = now - waited
                due = self._done_by(
                    reached, answered=not isinstance(error, APIConnectionError), as_job=self._as_jobs
                )
                self._maybe += 1
                self._parked.append(
                    Parked(
                        item,
                        self._sent[item.key][0],
                        max(now, due),
                        reached,
                        error,
                        unanswered=waited,
                        as_job=self._as_jobs,
                    )
                )
                logger.info(
                    "lead %d: its answer was lost (%s); looking it up in %.0f s, once the service "
                    "must be done with it",
                    item.index,
                    type(error).__name__,
                    max(0.0, due - now),
                )
                parked = waited
        if parked is not None:
            if self._checkpoint is not None:
                self._checkpoint.lost(item.key, parked * self._clock.scale)
            return []
        if isinstance(error, _ACCOUNT_ERRORS):
            self.stop(LeadEnrichError(f"not started: the account was refused ({error})"))
        if job_id is not None and not isinstance(error, JobFailedError):
            # The job exists: whatever came after, it may run and be charged. A poll that
            # met a passing fault is polled again; anything else is reported.
            with self._lock:
                self._maybe += 1
                if isinstance(error, _PASSING):
                    self._polls.append(Poll(item, job_id, fresh=True))
                    return []
            return self._with_copies([self._maybe_charged(item, error, job_id)])
        return self._failed(item, error, job_id)

    def _rate_limited(self, item: Item, error: RateLimitError) -> Step:
        with self._lock:
            rounds = self._rounds[item.key] = self._rounds.get(item.key, 0) + 1
        if self.stopped:
            return self.not_sent(item)
        if rounds < _RATE_LIMITED_ROUNDS:
            base = error.retry_after if error.retry_after is not None else self._service.upstream_full
            # Jittered, so the leads that met one burst do not all come back at once.
            return max(base, 0.0) + random.uniform(0.0, 0.5)
        self.stop(LeadEnrichError(f"not started: the service kept answering 429 ({error})"))
        with self._lock:
            self._reserved -= 1
        return self._failed(item, error, None)

    def pause(self, seconds: float) -> Iterator[float]:
        """The sleeps of a pause, a second at most each, ending early once the run stops."""
        remaining = seconds
        while remaining > 0 and not self.stopped:
            step = min(remaining, _PAUSE_STEP)
            remaining -= step
            yield step

    def _failed(self, item: Item, error: LeadEnrichError, job_id: str | None) -> list[BulkOutcome]:
        outcome = BulkOutcome(item.index, item.given, "failed", error=error, job_id=job_id)
        self._record(item, outcome, maybe_charged=False)
        return self._with_copies([outcome])

    def _maybe_charged(self, item: Item, error: LeadEnrichError, job_id: str | None) -> BulkOutcome:
        outcome = BulkOutcome(
            item.index, item.given, "failed", error=error, maybe_charged=True, job_id=job_id
        )
        self._record(item, outcome, maybe_charged=True)
        return outcome

    def polled(self, poll: Poll, job: JobOut | None, error: LeadEnrichError | None) -> list[BulkOutcome]:
        """The end of a recorded job (or why it could not be seen)."""
        item = poll.item
        if job is not None:
            try:
                lead = lead_of(job)
            except JobFailedError as exc:
                return self._job_failed(poll, exc)
            except LeadEnrichError as exc:
                error = exc
            else:
                charged = poll.fresh and not lead.deduped
                with self._lock:
                    self._maybe -= int(poll.fresh)
                    self._spent += int(charged)
                return self._done(item, lead, charged=charged, resumed=not poll.fresh)
        assert error is not None
        if isinstance(error, _PASSING) and poll.tries < _POLL_TRIES:
            with self._lock:
                self._polls.append(replace(poll, tries=poll.tries + 1))
            return []
        if isinstance(error, _ACCOUNT_ERRORS):
            self.stop(LeadEnrichError(f"not started: the account was refused ({error})"))
        return self._with_copies([self._maybe_charged(item, error, poll.job_id)])

    def _job_failed(self, poll: Poll, error: JobFailedError) -> list[BulkOutcome]:
        # Failed, so refunded: nothing to chase any more.
        item = poll.item
        with self._lock:
            del self._jobs[item.key]
            self._maybe -= int(poll.fresh)
            if not poll.fresh:
                # An earlier run's: sent again now, as a new job.
                self._pending.appendleft(item)
        if poll.fresh:
            return self._failed(item, error, poll.job_id)
        self._record(item, BulkOutcome(item.index, item.given, "failed", error=error), maybe_charged=False)
        return []

    def looked_up(
        self, lookup: Lookup, scan: Scan | None, error: LeadEnrichError | None
    ) -> list[BulkOutcome]:
        """The parked leads a lookup found (adopted), did not find, or could not look for."""
        found = scan.found if scan is not None else {}
        outcomes: list[BulkOutcome] = []
        for parked in lookup.parked:
            item, lead = parked.item, found.get(parked.item.key)
            fresh = parked.error is not None
            if lead is not None:
                with self._lock:
                    self._maybe -= int(fresh)
                    self._spent += int(fresh and not lead.deduped)
                outcomes += self._done(item, lead, charged=fresh and not lead.deduped, resumed=not fresh)
            elif error is not None:
                why = LeadEnrichError(
                    "not sent again: it was sent without an answer, and the stored leads could not "
                    f"be checked for it ({error}); run again to look once more"
                )
                outcomes += self._with_copies([self._maybe_charged(item, parked.error or why, None)])
            elif (due := self._look_again(parked, lookup.began)) is not None:
                with self._lock:
                    self._parked.append(replace(parked, due=due, looks=parked.looks + 1))
            elif fresh or not self._resend(parked, lookup.began):
                # Within this run; or an earlier run's job that may still wait in the queue,
                # so that not being stored yet proves nothing: not sent again.
                why = LeadEnrichError(
                    "not sent again: an earlier run sent it as a job without hearing back, it is "
                    "not stored yet, and no job of this run showed the service's queue had moved "
                    "past it; the next run looks for it again"
                )
                outcomes += self._with_copies([self._maybe_charged(item, parked.error or why, None)])
            else:
                # An earlier run's sync enrichment, not stored once the service was done:
                # never charged, so it is sent now.
                with self._lock:
                    self._pending.appendleft(item)
        with self._lock:
            self._pending = deque(sorted(self._pending, key=lambda item: item.index))
        return outcomes

    def _done(self, item: Item, lead: LeadOut, *, charged: bool, resumed: bool) -> list[BulkOutcome]:
        with self._lock:
            self.claimed.append(lead.id)
            job_id = self._jobs.get(item.key)
        outcome = BulkOutcome(
            item.index, item.given, _status(lead), lead=lead, resumed=resumed, charged=charged, job_id=job_id
        )
        self._record(item, outcome, maybe_charged=False)
        return self._with_copies([outcome])

    def _record(self, item: Item, outcome: BulkOutcome, *, maybe_charged: bool) -> None:
        with self._lock:
            if (times := self._job_times.get(item.key)) is not None and times[1] is None:
                end = self._clock.now()
                self._job_times[item.key] = (times[0], end)
                lead, error = outcome.lead, outcome.error
                if (lead is not None and not lead.deduped) or isinstance(error, JobFailedError):
                    self._ran[item.key] = (times[0], end)
        if self._checkpoint is not None:
            self._checkpoint.finished(
                item.key, item.index, outcome.status, outcome.lead, outcome.error, maybe_charged
            )

    def _with_copies(self, outcomes: list[BulkOutcome]) -> list[BulkOutcome]:
        """Each outcome, then the same outcome for every row that repeats its lead."""
        every: list[BulkOutcome] = []
        for outcome in outcomes:
            every.append(outcome)
            with self._lock:
                copies = self._copies.pop(outcome.index, [])
            every += [
                replace(
                    outcome, index=copy.index, input=copy.given, charged=False, duplicate_of=outcome.index
                )
                for copy in copies
            ]
        return every

    # When the service must be done with a request.

    def _done_by(self, reached: float, *, answered: bool, as_job: bool) -> float:
        """When the service must be done with a request that reached it by `reached` (the
        lock held): at once for a sync enrichment that was answered, a settle window later
        for one whose connection was lost, and for a job as long as this run's jobs take."""
        if as_job:
            return reached + max(self._service.settle, self._job_span())
        return reached if answered else reached + self._service.settle

    def _job_span(self) -> float:
        """The longest any of this run's jobs has taken from its request leaving to its end,
        counting those not seen to end yet by their age (the lock held)."""
        now = self._clock.now()
        return max(
            ((end if end is not None else now) - start for start, end in self._job_times.values()),
            default=0.0,
        )

    def _look_again(self, parked: Parked, began: float) -> float | None:
        """When to look again for a lost lead that was not stored yet, or None once the
        service must be done with it.

        A lost job may still wait in the service's queue while one of this run's jobs has
        taken nearly as long as the lost one has had; an earlier run's, until a job this
        run sent after it shows the queue moved past it. A request that went unanswered for
        its whole read timeout was looked up at once; a service too busy to take it in may
        have started it late, by up to as long, so it is looked up once more that long
        later (a settle window at least, the time the service may then take).
        """
        with self._lock:
            now = self._clock.now()
            if parked.as_job and parked.error is None:
                # An earlier run's: looked up again once a job of this run, sent after it,
                # shows the queue moved past it; not at all when no such job will come.
                if self._queue_moved_past(parked, began):
                    return None
                if ended := [end for start, end in self._ran.values() if start >= parked.reached]:
                    return min(ended) + self._service.settle
                running = any(
                    end is None and start >= parked.reached for start, end in self._job_times.values()
                )
                to_come = self._as_jobs and bool(self._pending) and not self._over_budget()
                return now + self._service.settle if running or to_come else None
            if parked.as_job:
                if parked.looks >= _JOB_LOOKS or self._job_span() < _AS_LONG * (now - parked.reached):
                    return None
                return now + self._service.settle
            if parked.looks > 1 or parked.unanswered == 0.0:
                return None
            return now + max(self._service.settle, parked.unanswered)

    def _resend(self, parked: Parked, began: float) -> bool:
        """Whether an earlier run's lead that a lookup begun at `began` did not find is sent
        now: a sync enrichment always (the service is done with it); a job only once the
        queue is seen to have moved past it."""
        if not parked.as_job:
            return True
        with self._lock:
            return self._queue_moved_past(parked, began)

    def _queue_moved_past(self, parked: Parked, began: float) -> bool:
        """Whether a job of this run that ran, whose request left after `parked`'s reached
        the service, had ended a settle window before the lookup `began` (the lock held): a
        job `parked`'s request made was admitted first (the oldest first) and, once
        running, ends within that window, so the lookup would have found it stored."""
        return any(
            start >= parked.reached and began >= end + self._service.settle
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


def _status(lead: LeadOut) -> Literal["enriched", "deduped"]:
    return "deduped" if lead.deduped else "enriched"
