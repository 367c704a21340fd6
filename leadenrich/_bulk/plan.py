"""Every decision of a bulk run, on recorded facts; shared by the sync and the async runner.

The plan says what to do next (send a lead, poll a recorded job, look up leads whose
answer was lost, or wait), turns each answer into outcomes, keeps the credit count and
writes every fact to the checkpoint the moment it is known. It never waits and never
sends: the runners do, and only that.

A lead's life: pending -> sent -> enriched, failed, or parked (its answer was lost:
looked up once the service must be done with it) -> enriched or maybe charged. A lead
with a known job id is never sent again: a rerun polls its job.

When the service must be done with a lost request, and what proves a lost job will never
run, are settling.py's rules; whose record a stored lead is, lookup.py's, on the service's
clock as its stamps tell it (service_time.py).
"""

from __future__ import annotations

import logging
import random
import threading
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Literal

from .._clock import ServiceClock
from .._errors import (
    APIConnectionError,
    APIResponseValidationError,
    AuthenticationError,
    InternalServerError,
    JobFailedError,
    LeadEnrichError,
    NotFoundError,
    PermissionDeniedError,
    PollTimeoutError,
    QuotaExceededError,
    RateLimitError,
)
from .._polling import lead_of
from .checkpoint import Checkpoint, Resume
from .emails import EmailTurns
from .inputs import Item
from .lookup import Scan, Tied, Wanted
from .lost import LookAgain, NotCharged, Resend, Take, Unknown, verdict
from .results import BulkOutcome
from .service_time import ServiceTime
from .settling import SERVICE, Parked, ServiceTimes, Settling
from .tasks import Lookup, NotSent, Poll, Send, Step, Task, is_ambiguous

if TYPE_CHECKING:
    from .._models import JobOut, LeadOut

logger = logging.getLogger("leadenrich")

__all__ = ["SERVICE", "Plan", "ServiceTimes"]


# Errors that refuse the whole account, not one lead: no point starting more leads. A
# 402 (the quota is spent) leaves the lookups and polls of what was paid for to finish;
# a 401 or 403 would refuse those too.
_ACCOUNT_ERRORS = (AuthenticationError, PermissionDeniedError, QuotaExceededError)


# 429s are waited out, since they are refused before any work and never charged, but not
# forever: a service that answers nothing else (a throttled key, a proxy) would hold the
# run for good. Each round already includes the client's own retries.
_RATE_LIMITED_ROUNDS = 10
# What a poll of a known job may meet and still see the job's end by polling again: a
# passing fault, or a wait that ran out (the job is paid for; a rerun would poll it too).
_PASSING = (APIConnectionError, InternalServerError, APIResponseValidationError, PollTimeoutError)
_POLL_TRIES = 3
# A pause (a 429's, a lookup's retry) checks this often whether the run was stopped.
_PAUSE_STEP = 1.0


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
        self._refused: LeadEnrichError | None = None
        """Why the service takes no more enrichments (a 402): none start, the rest goes on."""
        self._pending: deque[Item] = deque()
        self._polls: deque[Poll] = deque()
        self._parked: list[Parked] = []
        self._copies: dict[int, list[Item]] = {}
        self._jobs: dict[str, str] = {}
        self._emails = EmailTurns()
        self._settling = Settling(clock, service, jobs)
        self.service_time: ServiceTime = ServiceTime(clock.scale)
        """The service's clock, as the stamps of its answers tell it."""
        self._sent: dict[str, float] = {}
        """When each lead's request first set out (before any wait for a slot or the pacer)."""
        self._left: dict[str, float] = {}
        """When each lead's request last left: the attempts before were refused or never
        sent, so the service took none of them in."""
        self._rounds: dict[str, int] = {}
        self._unproven: dict[str, float] = {}
        """An earlier run's jobs whose creation went unanswered, not settled yet: when the
        service had taken each in at the latest. One of this run's jobs must leave after
        that, and run, before such a lead may be sent again (settling.py)."""
        self.claimed: list[str] = []
        """Ids of the records given to a lead as its own (not deduped): none is a second lead's."""
        self._keys: dict[str, str] = {}
        """The fingerprint of each stored record a lookup read, by id: a record's input never
        changes, and each lookup reads the same pages again."""
        self.ready: list[BulkOutcome] = []
        """Outcomes known before anything is sent: invalid input, and leads done earlier."""
        self._read(items, resume)

    def _read(self, items: list[Item], resume: Resume) -> None:
        now = self._clock.now()
        for item in items:
            if item.invalid is not None:
                self.ready.append(BulkOutcome(item.index, item.given, "failed", error=item.invalid))
            elif item.duplicate_of is not None:
                self._copies.setdefault(item.duplicate_of, []).append(item)
            elif item.key in resume.done:
                lead = resume.done[item.key]
                self._claim(lead)
                self.ready.append(BulkOutcome(item.index, item.given, _status(lead), lead=lead, resumed=True))
            elif item.key in resume.jobs:
                self._jobs[item.key] = resume.jobs[item.key]
                self._polls.append(Poll(item, resume.jobs[item.key]))
                self._emails.hold(item)
            elif item.key in resume.uncertain:
                parked = self._settling.left_earlier(item, resume.uncertain[item.key])
                self._parked.append(parked)
                if parked.as_job:
                    self._unproven[item.key] = parked.intake_by
                # Held while it may still be at the service: a lead with its email sent now
                # may be charged too. (A held lead is no job to come: `_more_jobs`.)
                self._emails.hold(item)
                if parked.provisional is not None:
                    logger.info(
                        "lead %d: an earlier run took %s for it without proof; looking for a later "
                        "record of it now",
                        item.index,
                        parked.provisional.id,
                    )
                else:
                    logger.info(
                        "lead %d: an earlier run sent it without hearing back; looking it up in "
                        "%.0f s, once the service must be done with it, while the other leads go on",
                        item.index,
                        parked.due - now,
                    )
            else:
                self._pending.append(item)
        self.ready = self._with_copies(self.ready)

    def _claim(self, lead: LeadOut) -> None:
        # A deduped record is another lead's: it may still be the record of a lead of this
        # run whose answer was lost (one with the same email), and settle that one too.
        if not lead.deduped:
            self.claimed.append(lead.id)

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
            if not self._pending or self._over_budget() or self._holding(now) is not None:
                return None
            item = next((item for item in self._pending if self._emails.free(item)), None)
            if item is None:
                return None
            self._pending.remove(item)
            self._emails.hold(item)
            self._reserved += 1
            return Send(item)

    def _holding(self, now: float) -> float | None:
        """Until when the last lead to send is kept back (the lock held): for as long as an
        earlier run's unanswered job may still be taken in, so that the job it makes can
        show the queue moved past that one (sent earlier, it would show nothing)."""
        if not (self._as_jobs and self._unproven and sum(map(self._emails.free, self._pending)) == 1):
            return None
        until = max(self._unproven.values())
        return until if now < until else None

    def _over_budget(self) -> bool:
        return self._refused is not None or (
            self._max_credits is not None and self._spent + self._maybe + self._reserved >= self._max_credits
        )

    def idle(self) -> float | None:
        """Seconds until a parked lead is due to be looked up, or a lead kept back may
        leave; None when nothing waits for a time."""
        with self._lock:
            if self._stop is not None:
                return None
            now = self._clock.now()
            times = [p.due for p in self._parked]
            if (held := self._holding(now)) is not None and not self._over_budget():
                times.append(held)
            return max(0.0, min(times) - now) if times else None

    def leftovers(self) -> list[BulkOutcome]:
        """Outcomes of every lead that will not start, once nothing more may start."""
        with self._lock:
            exhausted = (
                self._max_credits is not None
                and self._reserved == 0
                and not self._parked
                and self._spent + self._maybe >= self._max_credits
            )
            finishing = self._stop is not None or self._refused is not None or exhausted
            kept = [] if finishing else self._kept_back()
        if not finishing:
            return self._skip_kept(kept)
        with self._lock:
            reason = self._stop or self._refused or self._budget_reason()
            pending, self._pending = list(self._pending), deque[Item]()
            # A spent budget or quota starts no new lead; the jobs already paid for are
            # still polled and the lost answers still looked up. A stop ends those too.
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

    def _kept_back(self) -> list[Item]:
        """Takes from the pending leads those whose email a lead left maybe charged holds
        for the rest of the run (the lock held); looked for only once an email was kept or a
        lead went back to wait since the last look, as the runners ask at every turn."""
        if not self._emails.changed:
            return []
        self._emails.changed = False
        kept = [item for item in self._pending if self._emails.kept(item)]
        if kept:
            self._pending = deque(item for item in self._pending if not self._emails.kept(item))
        return kept

    def _wait_again(self, item: Item) -> None:
        """`item` goes back to the pending leads, first (the lock held)."""
        self._pending.appendleft(item)
        self._emails.changed = True  # its email may be kept by now: `_kept_back` looks

    def _skip_kept(self, kept: list[Item]) -> list[BulkOutcome]:
        """The outcomes of leads `_kept_back` took: skipped, and not recorded, so a rerun
        sends them."""
        outcomes: list[BulkOutcome] = []
        for item in kept:
            why = LeadEnrichError(
                "not started: a lead with the same email was left maybe charged, and may still be "
                "at the service, which would charge this one too; a rerun finds that one's record "
                "first, and this one is then deduped (free)"
            )
            outcomes.append(BulkOutcome(item.index, item.given, "skipped", error=why))
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

    def _refuse(self, error: LeadEnrichError) -> None:
        """The account was refused: a 402 starts nothing more; a 401 or 403 stops the run."""
        reason = LeadEnrichError(f"not started: the account was refused ({error})")
        if not isinstance(error, QuotaExceededError):
            self.stop(reason)
            return
        with self._lock:
            if self._refused is None:
                self._refused = reason

    def leaving(self, item: Item) -> None:
        """Called as a lead's request is about to leave (each attempt): NotSent once the
        run stopped."""
        if self.stopped:
            raise NotSent("the run stopped before the request left")
        with self._lock:
            self._left[item.key] = self._clock.now()

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
                self._emails.release(item)
            else:
                self._sent[item.key] = self._clock.now()
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
            self._emails.release(item)
        return self._with_copies([BulkOutcome(item.index, item.given, "skipped", error=error)])

    def job_created(self, item: Item, job_id: str) -> Future[None] | None:
        """The service created `job_id` for the lead; returns what to wait for before
        polling (the job id on disk), or None."""
        with self._lock:
            self._jobs[item.key] = job_id
        # Counted from when the request that made it left (taken in no sooner), as the lost
        # ones it is compared with are: a loaded machine that answers the one late does
        # not make the other look younger than it is.
        self._settling.job_created(item.key, self._left_at(item))
        return self._checkpoint.job(item.key, job_id) if self._checkpoint is not None else None

    # Answers.

    def succeeded(self, item: Item, lead: LeadOut) -> list[BulkOutcome]:
        charged = not lead.deduped
        with self._lock:
            self._reserved -= 1
            self._spent += int(charged)
        return self._done(
            item, lead, charged=charged, resumed=False, made=self._left_at(item) if charged else None
        )

    def failed(self, item: Item, error: LeadEnrichError) -> Step:
        """What the failure of a sent lead leads to."""
        if isinstance(error, RateLimitError):
            return self._rate_limited(item, error)
        parked: Parked | None = None
        with self._lock:
            self._reserved -= 1
            job_id = self._jobs.get(item.key)
            if job_id is None and is_ambiguous(error):
                parked = self._settling.lost_now(item, self._left.get(item.key, self._sent[item.key]), error)
                self._maybe += 1
                self._parked.append(parked)
        if parked is not None:
            logger.info(
                "lead %d: its answer was lost (%s); looking it up in %.0f s, once the service "
                "must be done with it",
                item.index,
                type(error).__name__,
                max(0.0, parked.due - self._clock.now()),
            )
            if self._checkpoint is not None:
                self._checkpoint.lost(item.key, parked.unanswered * self._clock.scale)
            return []
        if isinstance(error, _ACCOUNT_ERRORS):
            self._refuse(error)
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
                made = self._left_at(item) if charged else None
                return self._done(item, lead, charged=charged, resumed=not poll.fresh, made=made)
        assert error is not None
        if isinstance(error, NotFoundError):
            return self._forgotten(poll, error)
        if isinstance(error, _PASSING) and poll.tries < _POLL_TRIES:
            with self._lock:
                self._polls.append(replace(poll, tries=poll.tries + 1))
            return []
        if isinstance(error, _ACCOUNT_ERRORS):
            self._refuse(error)
        return self._with_copies([self._maybe_charged(item, error, poll.job_id)])

    def _forgotten(self, poll: Poll, error: NotFoundError) -> list[BulkOutcome]:
        """The service no longer knows the lead's job (the spec does not say how long it
        keeps jobs; the checkpoint says whose account it is): the job ended, and its record,
        if it ran, is among the stored leads. Looked up there, as a lead whose answer was
        lost; not found, it was never charged."""
        item = poll.item
        parked = self._settling.forgotten(item, error if poll.fresh else None)
        with self._lock:
            del self._jobs[item.key]
            self._parked.append(parked)
        logger.info(
            "lead %d: the service no longer knows its job %s; looking for it among the stored "
            "leads in %.0f s",
            item.index,
            poll.job_id,
            max(0.0, parked.due - self._clock.now()),
        )
        return []

    def _job_failed(self, poll: Poll, error: JobFailedError) -> list[BulkOutcome]:
        # Failed, so refunded: nothing to chase any more.
        item = poll.item
        with self._lock:
            del self._jobs[item.key]
            self._maybe -= int(poll.fresh)
        if poll.fresh:
            return self._failed(item, error, poll.job_id)
        self._record(item, BulkOutcome(item.index, item.given, "failed", error=error), maybe_charged=False)
        with self._lock:
            # An earlier run's: sent again now, as a new job; only once its failure is on
            # record (and its email let go), so that the new send's lines come after it.
            self._wait_again(item)
        return []

    def scan(self, lookup: Lookup) -> Scan:
        """What a lookup reads the listing for: each parked lead's record."""
        wanted = {p.item.key: Wanted(p.left, p.floor, p.after) for p in lookup.parked}
        with self._lock:
            claimed = list(self.claimed)
        return Scan(wanted, self.service_time, self._clock.now, claimed, self._keys)

    def looked_up(
        self, lookup: Lookup, scan: Scan | None, error: LeadEnrichError | None
    ) -> list[BulkOutcome]:
        """The parked leads a lookup found (adopted), did not find, or could not look for."""
        found = scan.found if scan is not None else {}
        error = error or (scan.broken if scan is not None else None)
        outcomes: list[BulkOutcome] = []
        for parked in lookup.parked:
            item = parked.item
            decided = verdict(
                parked,
                found.get(item.key),
                error,
                final=self._settling.final(parked, lookup.began),
                began=lookup.began,
                settle=self._service.settle,
                again=partial(self._settling.look_again, parked, lookup.began, self._more_jobs),
                close=self._close,
            )
            if isinstance(decided, Take):
                outcomes += self._adopt(
                    parked, decided.pick, proven=decided.proven, provisional=decided.provisional
                )
            elif isinstance(decided, Unknown):
                outcomes += self._with_copies([self._maybe_charged(item, decided.why, None)])
            elif isinstance(decided, NotCharged):
                assert parked.error is not None, "only a lead of this run is found not charged"
                with self._lock:
                    self._maybe -= 1
                outcomes += self._failed(item, parked.error, None)
            with self._lock:
                if isinstance(decided, LookAgain):
                    self._parked.append(replace(parked, due=decided.due, looks=parked.looks + 1))
                    continue
                if isinstance(decided, Resend):
                    self._emails.release(item)
                    self._wait_again(item)
                self._unproven.pop(item.key, None)
        with self._lock:
            self._pending = deque(sorted(self._pending, key=lambda item: item.index))
        return outcomes

    def _left_at(self, item: Item) -> float:
        """When the lead's request last left (the attempts before were refused or never sent)."""
        with self._lock:
            return self._left.get(item.key, self._sent.get(item.key, self._clock.now()))

    def service_date(self, header: str) -> None:
        """An answer's `Date` header: the service's clock now, as its front end tells it."""
        self.service_time.observe_date(header, self._clock.now())

    def job_seen(self, item: Item, job: JobOut) -> None:
        """A poll of the job this run created for the lead: its stamp is of this run's making."""
        self.service_time.made(job.created_at, self._left_at(item), self._clock.now())

    def _close(self, lead: LeadOut | Tied) -> bool:
        """Whether `lead` may be taken for a lost lead's own at its last look: when its
        stamp has an offset, once the service's clock is known closely (a `Date` header,
        a record of the run's making) and the record passed the bound. A stamp with no
        offset, or none, leaves nothing better to go on than the latest record: it is
        taken (it may be an earlier record of the same lead, docs/reliability.md)."""
        if isinstance(lead, Tied):
            return True  # looked at again like any record, and left maybe charged at last
        created = lead.created_at
        return created is None or created.tzinfo is None or self.service_time.close(created)

    def _adopt(self, parked: Parked, lead: LeadOut, *, proven: bool, provisional: bool) -> list[BulkOutcome]:
        """A parked lead's record, found: charged to this run when this run lost its answer
        (`provisional`: taken without proof, looked at once more by the next run)."""
        fresh = parked.error is not None
        charged = fresh and not lead.deduped
        with self._lock:
            self._maybe -= int(fresh)
            self._spent += int(charged)
        made = parked.left if charged and proven else None
        return self._done(
            parked.item, lead, charged=charged, resumed=not fresh, made=made, provisional=provisional
        )

    def _more_jobs(self) -> bool:
        """Whether this run still creates jobs: leads on their way to the service, or
        leads to send and the budget to."""
        with self._lock:
            free = any(self._emails.free(item) for item in self._pending)
            return self._as_jobs and (self._reserved > 0 or (free and not self._over_budget()))

    def _done(
        self,
        item: Item,
        lead: LeadOut,
        *,
        charged: bool,
        resumed: bool,
        made: float | None = None,
        provisional: bool = False,
    ) -> list[BulkOutcome]:
        """`made`: when the request of this run that created the record left (None when
        the record is not of this run's making)."""
        now = self._clock.now()
        if made is not None:
            self.service_time.made(lead.created_at, made, now)
        else:
            self.service_time.observe(lead.created_at, now)
        with self._lock:
            self._claim(lead)
            job_id = self._jobs.get(item.key)
        outcome = BulkOutcome(
            item.index, item.given, _status(lead), lead=lead, resumed=resumed, charged=charged, job_id=job_id
        )
        self._record(item, outcome, maybe_charged=False, provisional=provisional)
        return self._with_copies([outcome])

    def _record(
        self, item: Item, outcome: BulkOutcome, *, maybe_charged: bool, provisional: bool = False
    ) -> None:
        with self._lock:
            if maybe_charged:
                self._emails.keep(item)
            else:
                self._emails.release(item)
        lead = outcome.lead
        # A job that ran went through the service's queue: a result not deduped. (A failed
        # job proves nothing: the spec does not say it waited its turn first.)
        self._settling.job_ended(item.key, lead is not None and not lead.deduped)
        if self._checkpoint is not None:
            self._checkpoint.finished(
                item.key,
                item.index,
                outcome.status,
                outcome.lead,
                outcome.error,
                maybe_charged,
                provisional=provisional,
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


def _status(lead: LeadOut) -> Literal["enriched", "deduped"]:
    return "deduped" if lead.deduped else "enriched"
