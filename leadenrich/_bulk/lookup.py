"""Finding the stored records of leads whose answer was lost, whatever the listing's order.

The spec says neither in which order `GET /leads` lists an account's leads nor how
many it keeps, so a lookup assumes only this: each record carries its input and,
usually, `created_at`. A lead's record is one with its input that no other lead of the
run has as its own and that was not stored before the lead's request left, as the
service's own clock tells (service_time.py): this machine's clock is never compared
with the service's stamps. A lookup reads page after page until the listing ends, or
stops early once the pages have come newest first and have either gone past the moment
the earliest wanted lead was sent or shown every wanted lead.

Pure decisions: the runners fetch the pages and sleep between retries.
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
from .._pagination import next_skip
from .checkpoint import fingerprint
from .service_time import ServiceTime, same_kind, seconds

if TYPE_CHECKING:
    from datetime import datetime

    from .._models import LeadOut, LeadPage

__all__ = ["PAGE_SIZE", "Found", "Scan"]

PAGE_SIZE = 100
# A page that could not be read (a dropped connection, a 5xx, a 429, a broken 2xx) is
# asked for again this many times per lookup, on top of the client's own retries: a GET
# changes nothing, and giving up reports a paid lead as maybe charged.
_RETRIES = 4
_BACKOFF = 0.5


@dataclass(frozen=True)
class Found:
    """A wanted lead's record, as a lookup found it."""

    lead: LeadOut
    proven: bool
    """Shown stored after the lead's request left; else it may be an earlier record of
    the same lead, taken only at the lead's last lookup."""


class Scan:
    """One lookup: which leads are wanted, what was found, what to read next.

    `wanted` maps each lead's key to when its request may first have left, on the run's
    clock; `now` reads that clock; `time` is what the service's stamps taught the run of
    the service's clock, and learns from every page.
    """

    def __init__(
        self,
        wanted: dict[str, float],
        time: ServiceTime,
        now: Callable[[], float],
        claimed: Iterable[str] = (),
    ) -> None:
        self._wanted = dict(wanted)
        self._time = time
        self._now = now
        self._claimed = set(claimed)
        self._earliest = min(wanted.values(), default=0.0)
        self._skip: int | None = 0
        self._newest_first = True
        self._previous: datetime | None = None
        self._retries = 0
        self.pages: int = 0
        self._candidates: dict[str, list[LeadOut]] = {}
        """Per wanted lead, the unclaimed records with its input, as read."""

    def next_page(self) -> tuple[int, int] | None:
        """(limit, skip) of the page to read next, or None when the lookup is over."""
        if self._skip is None:
            return None
        if self._newest_first and self.pages and len(self.found) == len(self._wanted):
            # Newest first: the first page showed the service's latest stamps, so what
            # was found cannot turn out older than its request.
            return None
        return PAGE_SIZE, self._skip

    def read(self, page: LeadPage) -> None:
        assert self._skip is not None
        self.pages += 1
        now = self._now()
        for lead in page.items:
            self._time.observe(lead.created_at, now)
        passed = False
        for lead in page.items:
            created = lead.created_at
            if lead.id not in self._claimed and (key := fingerprint(lead.input)) in self._wanted:
                self._candidates.setdefault(key, []).append(lead)
            previous = self._previous
            if created is None or (
                previous is not None and (not same_kind(previous, created) or created > previous)
            ):
                self._newest_first = False
            self._previous = created or previous
            passed = created is not None and self._time.before(created, self._earliest)
        self._skip = next_skip(page, PAGE_SIZE, self._skip)
        if self._newest_first and passed:
            # Newest first and past the earliest send: what follows is older still.
            self._skip = None

    @property
    def found(self) -> dict[str, Found]:
        """Each wanted lead's record: the latest of the candidates not shown stored before
        its request left; proven when the service's clock is known closely enough to show
        it (a record of the run's own was seen), undecided otherwise."""
        found: dict[str, Found] = {}
        time = self._time
        for key, leads in self._candidates.items():
            sent = self._wanted[key]
            possible = [
                lead for lead in leads if lead.created_at is None or not time.before(lead.created_at, sent)
            ]
            if possible:
                lead = max(possible, key=_stored_order)
                found[key] = Found(lead, proven=lead.created_at is not None and time.close(lead.created_at))
        return found

    def retry(self, error: LeadEnrichError) -> float | None:
        """Seconds to wait before asking for the same page again, or None to give up."""
        transient = (APIConnectionError, InternalServerError, APIResponseValidationError, RateLimitError)
        if not isinstance(error, transient) or self._retries >= _RETRIES:
            return None
        self._retries += 1
        if isinstance(error, RateLimitError) and error.retry_after is not None:
            return error.retry_after
        ceiling = _BACKOFF * 2 ** (self._retries - 1)
        return random.uniform(ceiling / 2, ceiling)


def _stored_order(lead: LeadOut) -> tuple[bool, float]:
    created = lead.created_at
    return (False, 0.0) if created is None else (True, seconds(created))
