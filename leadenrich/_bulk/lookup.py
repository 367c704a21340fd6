"""Finding the stored records of leads whose answer was lost, whatever the listing's order.

The spec says neither in which order `GET /leads` lists an account's leads nor how
many it keeps, so a lookup assumes only this: each record carries its input and,
usually, `created_at`. It reads page after page until every wanted lead is found or
the listing ends, and stops early only when the pages have come newest first (by
`created_at`) and have gone past the moment the earliest wanted lead was sent.

Pure decisions: the runners fetch the pages and sleep between retries.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from datetime import datetime, timedelta, timezone
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

if TYPE_CHECKING:
    from .._models import LeadOut, LeadPage

__all__ = ["PAGE_SIZE", "Scan"]

PAGE_SIZE = 100
# Records created this long before a send are still taken as its result (clock skew).
_SKEW = timedelta(minutes=2)
# A page that could not be read (a dropped connection, a 5xx, a 429, a broken 2xx) is
# asked for again this many times per lookup, on top of the client's own retries: a GET
# changes nothing, and giving up reports a paid lead as maybe charged.
_RETRIES = 4
_BACKOFF = 0.5


class Scan:
    """One lookup: which leads are wanted (key -> when sent), what was found, what next."""

    def __init__(self, wanted: dict[str, datetime], claimed: Iterable[str] = ()) -> None:
        self._wanted = dict(wanted)
        self._claimed = set(claimed)
        self._floor = min(wanted.values(), default=datetime.now(timezone.utc)) - _SKEW
        self._skip: int | None = 0
        self._newest_first = True
        self._previous: datetime | None = None
        self._retries = 0
        self.pages = 0
        self.found: dict[str, LeadOut] = {}

    def next_page(self) -> tuple[int, int] | None:
        """(limit, skip) of the page to read next, or None when the lookup is over."""
        if self._skip is None or len(self.found) == len(self._wanted):
            return None
        return PAGE_SIZE, self._skip

    def read(self, page: LeadPage) -> None:
        assert self._skip is not None
        self.pages += 1
        passed = False
        for lead in page.items:
            created = _aware(lead.created_at) if lead.created_at is not None else None
            self._match(lead, created)
            if created is None or (self._previous is not None and created > self._previous):
                self._newest_first = False
            self._previous = created or self._previous
            passed = created is not None and created < self._floor
        self._skip = next_skip(page, PAGE_SIZE, self._skip)
        if self._newest_first and passed:
            # Newest first and past the earliest send: what follows is older still.
            self._skip = None

    def _match(self, lead: LeadOut, created: datetime | None) -> None:
        if lead.id in self._claimed:
            return
        key = fingerprint(lead.input)
        since = self._wanted.get(key)
        if since is None or key in self.found:
            return
        if created is None or created >= since - _SKEW:
            self.found[key] = lead
            self._claimed.add(lead.id)

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


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)
