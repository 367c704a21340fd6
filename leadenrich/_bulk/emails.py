"""One lead per email at the service at a time.

Rows with the same email but other fields are separate leads. The spec dedupes against
stored leads only: two sent at once may both be charged, or the service may hold the
second until the first ends, later than a lost answer's lookup counts on (settling.py).
One after the other, the second is deduped (free) when the first was stored. A lead left
maybe charged may still be at the service (a job still queued, a request taken in late):
its email stays held for the rest of the run, and the leads that share it wait for a
rerun, which finds the first one's record and gets theirs deduped.
"""

from __future__ import annotations

from .inputs import Item

__all__ = ["EmailTurns"]


class EmailTurns:
    """Which emails a lead of the run may be at the service with (not thread-safe: the
    plan's lock guards it)."""

    def __init__(self) -> None:
        self._holders: dict[str, set[str]] = {}
        """Email -> the keys of the leads that may be at the service with it (several: an
        earlier run's unanswered leads, each settled on its own)."""
        self._kept: dict[str, set[str]] = {}
        """Emails held for the rest of the run -> the leads left maybe charged with them."""
        self.changed = False
        """An email was kept since the plan last looked (`Plan._kept_back`)."""

    def free(self, item: Item) -> bool:
        """Whether `item` may go: no other lead with its email may be at the service."""
        email = _email_of(item)
        return email is None or (not self._holders.get(email, set()) - {item.key} and not self.kept(item))

    def hold(self, item: Item) -> None:
        """`item` may be at the service from now on."""
        if (email := _email_of(item)) is not None:
            self._holders.setdefault(email, set()).add(item.key)

    def release(self, item: Item) -> None:
        """`item`'s request is over (or it goes back to wait): its email is free once no
        other lead may be at the service with it, unless a lead left maybe charged keeps it."""
        email = _email_of(item)
        if email is not None and (holders := self._holders.get(email)) is not None:
            holders.discard(item.key)
            if not holders:
                del self._holders[email]

    def keep(self, item: Item) -> None:
        """`item` was left maybe charged: for all the run knows it is still at the service,
        so no other lead with its email goes in this run."""
        if (email := _email_of(item)) is not None:
            self._kept.setdefault(email, set()).add(item.key)
            self.changed = True

    def kept(self, item: Item) -> bool:
        """Whether `item` waits for an email held for the rest of the run by another lead."""
        email = _email_of(item)
        return email is not None and bool(self._kept.get(email, set()) - {item.key})


def _email_of(item: Item) -> str | None:
    # Without case: the spec does not say how the service compares them, and holding a
    # lead back longer than needed costs no credit.
    email = item.lead.email if item.lead is not None else None
    return email.strip().lower() if email else None
