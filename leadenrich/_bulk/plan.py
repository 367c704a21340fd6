"""The bookkeeping of a bulk run, shared by the sync and the async runner.

It decides which lead starts next (or is skipped), turns each answer into an outcome,
keeps the credit count, and writes the checkpoint. It never waits and never sends.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterable
from datetime import datetime, timedelta, timezone
from typing import Literal

from .._errors import (
    APIConnectionError,
    APIResponseValidationError,
    AuthenticationError,
    InternalServerError,
    JobFailedError,
    LeadEnrichError,
    PermissionDeniedError,
    PollTimeoutError,
    QuotaExceededError,
)
from .._models import LeadOut
from .checkpoint import Checkpoint, Resume, fingerprint
from .inputs import Item
from .results import BulkOutcome

__all__ = ["Plan", "is_ambiguous"]

# Errors that refuse the whole account, not one lead: no point starting more leads.
_ACCOUNT_ERRORS = (AuthenticationError, PermissionDeniedError, QuotaExceededError)
# Records created this long before a send are still taken as its result (clock skew).
_SKEW = timedelta(minutes=2)


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


class Plan:
    def __init__(
        self, items: list[Item], resume: Resume, max_credits: int | None, checkpoint: Checkpoint | None
    ) -> None:
        self._checkpoint = checkpoint
        self._max_credits = max_credits
        self._lock = threading.Lock()
        self._reserved = 0
        self._spent = 0
        self._stop: LeadEnrichError | None = None
        self.ready: list[BulkOutcome] = []
        """Outcomes known before anything is sent: invalid input, and leads done earlier."""
        self.uncertain: dict[str, tuple[Item, datetime]] = {}
        """Leads an earlier run started but never heard back from: look them up first."""
        self._lost = resume.lost
        self._pending: deque[Item] = deque()
        for item in items:
            if item.invalid is not None:
                self.ready.append(BulkOutcome(item.index, item.given, "failed", error=item.invalid))
            elif item.key in resume.done:
                lead = resume.done[item.key]
                self.ready.append(BulkOutcome(item.index, item.given, _status(lead), lead=lead, resumed=True))
            elif item.key in resume.uncertain:
                self.uncertain[item.key] = (item, resume.uncertain[item.key])
            else:
                self._pending.append(item)

    @property
    def total(self) -> int:
        return len(self.ready) + len(self.uncertain) + len(self._pending)

    def recovered(self, found: dict[str, LeadOut]) -> list[BulkOutcome]:
        """Adopt the stored records of uncertain leads; queue the rest to be sent again."""
        outcomes: list[BulkOutcome] = []
        for key, (item, _) in sorted(self.uncertain.items(), key=lambda pair: pair[1][0].index):
            lead = found.get(key)
            if lead is None:
                self._pending.appendleft(item)
                continue
            outcome = BulkOutcome(item.index, item.given, _status(lead), lead=lead, resumed=True)
            self._record(item, outcome, maybe_charged=False)
            outcomes.append(outcome)
        self._pending = deque(sorted(self._pending, key=lambda item: item.index))
        self.uncertain.clear()
        return outcomes

    def unresolved(self, error: LeadEnrichError) -> list[BulkOutcome]:
        """Uncertain leads that could not be looked up: reported, not sent again."""
        reason = LeadEnrichError(
            "not sent again: an earlier run sent it without hearing back, and the stored leads "
            f"could not be checked for it ({error}); run again to look once more"
        )
        outcomes: list[BulkOutcome] = []
        for item, _ in sorted(self.uncertain.values(), key=lambda pair: pair[0].index):
            outcome = BulkOutcome(item.index, item.given, "failed", error=reason, maybe_charged=True)
            self._record(item, outcome, maybe_charged=True)
            outcomes.append(outcome)
        self.uncertain.clear()
        return outcomes

    def settle_delay(self, settle: float) -> float:
        """Seconds until `settle` seconds have passed since the checkpoint last heard of
        any uncertain lead: its start or, later, its lost answer. A request may go out long
        after its lead started, never after its lost answer was written down."""
        if not self.uncertain:
            return 0.0
        newest = max(max(since, self._lost.get(key, since)) for key, (_, since) in self.uncertain.items())
        return max(0.0, (newest - datetime.now(timezone.utc)).total_seconds() + settle)

    def next(self) -> Item | None:
        """The next lead to start, with a credit reserved for it; None when none may start."""
        with self._lock:
            if self._stop is not None or not self._pending:
                return None
            if self._max_credits is not None and self._spent + self._reserved >= self._max_credits:
                return None
            self._reserved += 1
            return self._pending.popleft()

    def sending(self, item: Item) -> BulkOutcome | None:
        """Note that `item` is about to be sent (from now on a rerun looks it up first), or,
        when the run stopped since it was scheduled, give its credit back and skip it.

        Called by the worker that sends it, not when it is scheduled: a Ctrl-C between the
        two would otherwise send a lead after the user asked to stop, or leave one never
        sent marked as started, which the rerun would wait for.
        """
        with self._lock:
            if self._stop is not None:
                self._reserved -= 1
                return BulkOutcome(item.index, item.given, "skipped", error=self._stop)
        if self._checkpoint is not None:
            self._checkpoint.started(item.key, item.index)
        return None

    def skipped(self) -> list[BulkOutcome]:
        """Outcomes for every lead that will not start, once nothing more may start."""
        with self._lock:
            # A lead in flight may come back deduped and hand its credit back: the budget
            # is spent only once none is in flight.
            exhausted = (
                self._max_credits is not None and self._reserved == 0 and self._spent >= self._max_credits
            )
            if not self._pending or (self._stop is None and not exhausted):
                return []
            reason = self._stop or LeadEnrichError(
                f"not started: max_credits={self._max_credits} could be spent by the leads already enriched"
            )
            items, self._pending = list(self._pending), deque()
        return [BulkOutcome(item.index, item.given, "skipped", error=reason) for item in items]

    @property
    def stopped(self) -> bool:
        """Nothing more starts: Ctrl-C, a cancelled run or a refused account."""
        return self._stop is not None

    def stop(self, reason: LeadEnrichError) -> None:
        """Start nothing more (Ctrl-C, a cancelled run, a refused account)."""
        with self._lock:
            if self._stop is None:
                self._stop = reason

    def succeeded(self, item: Item, lead: LeadOut) -> BulkOutcome:
        charged = not lead.deduped
        outcome = BulkOutcome(item.index, item.given, _status(lead), lead=lead, charged=charged)
        self._settle(charged)
        self._record(item, outcome, maybe_charged=False)
        return outcome

    def failed(self, item: Item, error: LeadEnrichError, *, found: LeadOut | None = None) -> BulkOutcome:
        """The outcome of a lead whose call raised; `found` is its record if a lookup found one."""
        if found is not None:
            # The answer was lost but the service did the work: it was charged.
            return self.succeeded(item, found)
        if isinstance(error, _ACCOUNT_ERRORS):
            self.stop(LeadEnrichError(f"not started: the account was refused ({error})"))
        maybe_charged = is_ambiguous(error)
        self._settle(maybe_charged and not isinstance(error, JobFailedError))
        outcome = BulkOutcome(item.index, item.given, "failed", error=error, maybe_charged=maybe_charged)
        self._record(item, outcome, maybe_charged=maybe_charged)
        return outcome

    def _settle(self, charged: bool) -> None:
        with self._lock:
            self._reserved -= 1
            self._spent += int(charged)

    def _record(self, item: Item, outcome: BulkOutcome, *, maybe_charged: bool) -> None:
        if self._checkpoint is not None:
            self._checkpoint.finished(
                item.key, item.index, outcome.status, outcome.lead, outcome.error, maybe_charged
            )


def match_stored(wanted: dict[str, datetime], stored: Iterable[LeadOut]) -> dict[str, LeadOut]:
    """Stored records whose input matches a wanted lead and that were created after it was sent.

    `wanted` maps checkpoint keys (fingerprint#occurrence) to when the lead was sent.
    """
    by_base: dict[str, list[tuple[str, datetime]]] = {}
    for key, since in sorted(wanted.items()):
        by_base.setdefault(key.split("#")[0], []).append((key, since))
    found: dict[str, LeadOut] = {}
    for lead in stored:
        candidates = by_base.get(fingerprint(lead.input))
        if not candidates:
            continue
        created = lead.created_at
        for position, (key, since) in enumerate(candidates):
            if created is None or _aware(created) >= since - _SKEW:
                found[key] = lead
                del candidates[position]
                break
        if len(found) == len(wanted):
            break
    return found


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def _status(lead: LeadOut) -> Literal["enriched", "deduped"]:
    return "deduped" if lead.deduped else "enriched"
