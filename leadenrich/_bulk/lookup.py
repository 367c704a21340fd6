"""Finding the stored records of leads whose answer was lost, whatever the listing's order.

The spec says neither in which order `GET /leads` lists an account's leads nor how many
it keeps, so a lookup assumes only this: each record carries its input and, usually,
`created_at`. A lead's candidates are the records with its input that no other lead of
the run has as its own; which of them is the lead's own is read on the service's clock,
as its stamps tell it (service_time.py), never by this machine's clock. A lookup reads
page after page until the listing ends, or stops early once the pages have come newest
first (as their stamps showed) and have either shown every wanted lead or gone past the
moment the earliest wanted lead left. Records of a lead that the stamps cannot order are
ordered by the listing once its stamps showed its order, and are otherwise `Tied`: no
record is taken for the lead's own on a guess.

Pure decisions: the runners fetch the pages and sleep between retries; the plan decides
what a lead's candidates settle.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .._errors import (
    APIConnectionError,
    APIResponseValidationError,
    InternalServerError,
    LeadEnrichError,
    RateLimitError,
)
from .._pagination import PageLimit, next_skip
from .checkpoint import fingerprint
from .service_time import ServiceTime, same_kind, seconds

if TYPE_CHECKING:
    from datetime import datetime

    from .._models import LeadOut, LeadPage

__all__ = ["PAGE_SIZE", "Found", "Scan", "Tied", "Wanted"]

PAGE_SIZE = 100
# A page that could not be read (a dropped connection, a 5xx, a 429, a broken 2xx) is
# asked for again this many times per lookup, on top of the client's own retries: a GET
# changes nothing, and giving up reports a paid lead as maybe charged.
_RETRIES = 4
_BACKOFF = 0.5
# Fingerprints of stored records kept for the lookups after (~170 bytes each): a lookup
# may read a whole account's listing, so an account of millions starts afresh past this.
_KEYS_KEPT = 100_000


@dataclass(frozen=True)
class Wanted:
    """A lead a lookup looks for."""

    left: float
    """When its request left at the latest, on the run's clock: what the run created by
    requests that left later is stored after it."""
    floor: float | None
    """When its request left at the earliest, if this run sent it: a record the service's
    clock reads as older is not its own."""
    after: datetime | None = None
    """For an earlier run's lead: a record stored before this one is not its own."""


@dataclass(frozen=True)
class Tied:
    """Records of a lead, each possibly the latest: neither their stamps (too coarse, too
    close, or none) nor the listing's order (not shown by any two stamps) tell them apart."""

    ids: tuple[str, ...]


@dataclass(frozen=True)
class Found:
    """A wanted lead's candidates, as a lookup found them (each the latest of its kind,
    or the records that may be)."""

    proven: LeadOut | Tied | None
    """Shown stored after the lead's request left: its own."""
    unread: LeadOut | Tied | None
    """The latest candidate the service's stamps do not read as older than the lead."""
    undated: LeadOut | Tied | None
    """The latest candidate neither the stamps nor the `Date` headers read as older."""


class Scan:
    """One lookup: which leads are wanted, what was found, what to read next.

    `now` reads the run's clock; `time` is what the service's stamps taught the run of the
    service's clock, and learns from every page. `keys` holds the fingerprints of records
    read before (by id), and gains those of this lookup's.
    """

    def __init__(
        self,
        wanted: dict[str, Wanted],
        time: ServiceTime,
        now: Callable[[], float],
        claimed: Iterable[str] = (),
        keys: dict[str, str] | None = None,
    ) -> None:
        self._wanted = dict(wanted)
        self._keys = {} if keys is None else keys
        self._time = time
        self._now = now
        self._claimed = set(claimed)
        # Past the earliest floor nothing older can be a wanted lead's, when this run knows it.
        floors = [want.floor for want in wanted.values() if want.floor is not None]
        self._earliest = min(floors) if len(floors) == len(wanted) else None
        self._skip: int | None = 0
        self._limit = PageLimit(PAGE_SIZE)
        self._newest_first = True
        """No two stamps read in order showed otherwise (nor a record without one)."""
        self._order: set[bool] = set()
        """What pairs of stamps surely showed: True, a later record listed before an
        earlier one; False, the other way."""
        self._span: dict[bool, tuple[datetime, datetime]] = {}
        """The earliest and latest stamp read, with an offset (True) and without."""
        self._position: dict[str, int] = {}
        """Each candidate's place in the listing."""
        self._first: list[str] | None = None
        """The ids of the first page, in order."""
        self.broken: LeadEnrichError | None = None
        """Why the listing could not be read to its end, though every page was answered."""
        self._previous: datetime | None = None
        self._retries = 0
        self.pages: int = 0
        self._candidates: dict[str, list[LeadOut]] = {}
        """Per wanted lead, the unclaimed records with its input, as read."""

    def next_page(self) -> tuple[int | None, int] | None:
        """(limit, skip) of the page to read next, or None when the lookup is over (no
        limit: the service's default page)."""
        if self._skip is None:
            return None
        if self._shown_newest_first() and self.pages and len(self._candidates) == len(self._wanted):
            # Newest first: the first page showed the service's latest stamps, so what
            # was found cannot turn out older than its request.
            return None
        return self._limit.value, self._skip

    def read(self, page: LeadPage) -> None:
        assert self._skip is not None
        self.pages += 1
        ids = [lead.id for lead in page.items]
        if self._first is None:
            self._first = ids
        elif ids and ids == self._first:
            # The first page again for a later `skip`: a service that ignores it would
            # serve it for ever, and what the listing holds past it is unknown. (A page of
            # records already read is not that: newest first, records stored since push
            # the older ones down.)
            self.broken = LeadEnrichError(
                f"the listing served its first page again for skip={self._skip}: its other "
                "records could not be read"
            )
            self._skip = None
            return
        now = self._now()
        for lead in page.items:
            self._time.observe(lead.created_at, now)
        passed = False
        for place, lead in enumerate(page.items, start=self._skip):
            created = lead.created_at
            if lead.id not in self._claimed and (key := self._key(lead)) in self._wanted:
                self._candidates.setdefault(key, []).append(lead)
                self._position[lead.id] = place
            previous = self._previous
            if created is None or (
                previous is not None and (not same_kind(previous, created) or created > previous)
            ):
                self._newest_first = False
            if created is not None:
                self._place(created)
            self._previous = created or previous
            passed = (
                created is not None
                and self._earliest is not None
                and self._time.before(created, self._earliest)
            )
        self._skip = next_skip(page, self._limit.value, self._skip)
        if self._shown_newest_first() and passed:
            # Newest first and past the earliest send: what follows is older still.
            self._skip = None

    def _key(self, lead: LeadOut) -> str:
        key = self._keys.get(lead.id)
        if key is None:
            if len(self._keys) >= _KEYS_KEPT:
                self._keys.clear()
            key = self._keys[lead.id] = fingerprint(lead.input)
        return key

    def _place(self, created: datetime) -> None:
        """Note what `created`, listed after every stamp read so far, shows of the order:
        any earlier-listed stamp surely later (or earlier) than it is evidence."""
        aware = created.tzinfo is not None
        if aware in self._span:
            low, high = self._span[aware]
            if self._time.older(created, high):
                self._order.add(True)
            if self._time.older(low, created):
                self._order.add(False)
            self._span[aware] = (min(low, created), max(high, created))
        else:
            self._span[aware] = (created, created)

    def _shown_newest_first(self) -> bool:
        """Whether the listing is newest first, as its stamps showed: only then does what
        follows hold nothing newer (stamps that tie show nothing)."""
        return self._newest_first and self._order == {True}

    @property
    def found(self) -> dict[str, Found]:
        """Each wanted lead's candidates, by what the service's stamps tell of them."""
        found: dict[str, Found] = {}
        time = self._time
        for key, leads in self._candidates.items():
            want = self._wanted[key]
            proven = [lead for lead in leads if time.after(lead.created_at, want.left)]
            unread = [lead for lead in leads if not _older(time, lead, want)]
            undated = [lead for lead in unread if not _older(time, lead, want, dated=True)]
            found[key] = Found(self._latest(proven), self._latest(unread), self._latest(undated))
        return found

    def _latest(self, leads: list[LeadOut]) -> LeadOut | Tied | None:
        """The last stored of `leads`: by their stamps; among records whose stamps cannot
        tell (or that have none), by the listing's order, once two stamps showed it; else
        the records that may be the last."""
        if not leads:
            return None
        top = max(leads, key=_stored_order)
        rivals = [lead for lead in leads if lead is top or not self._surely_older(lead, top)]
        if len(rivals) == 1:
            return top
        if len(self._order) != 1:
            return Tied(tuple(lead.id for lead in rivals))
        # Newest first: the first listed is the last stored.
        first = min if True in self._order else max
        return first(rivals, key=lambda lead: self._position[lead.id])

    def _surely_older(self, lead: LeadOut, than: LeadOut) -> bool:
        stamp, other = lead.created_at, than.created_at
        return stamp is not None and other is not None and self._time.older(stamp, other)

    def retry(self, error: LeadEnrichError) -> float | None:
        """Seconds to wait before asking for the same page again, or None to give up."""
        if self._limit.refused(error):
            return 0.0
        transient = (APIConnectionError, InternalServerError, APIResponseValidationError, RateLimitError)
        if not isinstance(error, transient) or self._retries >= _RETRIES:
            return None
        self._retries += 1
        if isinstance(error, RateLimitError) and error.retry_after is not None:
            return error.retry_after
        ceiling = _BACKOFF * 2 ** (self._retries - 1)
        return random.uniform(ceiling / 2, ceiling)


def _older(time: ServiceTime, lead: LeadOut, want: Wanted, *, dated: bool = False) -> bool:
    """Whether `lead` reads as stored before the wanted lead's request left (with `dated`,
    by the `Date` headers too)."""
    created = lead.created_at
    if created is None:
        return False
    if want.floor is not None:
        return time.before(created, want.floor, dated=dated)
    # Only a stamp with an offset: local time without one steps back an hour when summer
    # time ends, and the lead's own record would then look older than `after`.
    return want.after is not None and created.tzinfo is not None and time.older(created, want.after)


def _stored_order(lead: LeadOut) -> tuple[bool, float]:
    created = lead.created_at
    return (False, 0.0) if created is None else (True, seconds(created))
