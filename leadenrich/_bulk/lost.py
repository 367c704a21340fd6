"""What a lookup's findings decide for a lead whose answer was lost: a pure verdict.

The lookup (lookup.py) finds a lead's candidate records; when the service must be done
with its request, and what proves a lost job will never run, are settling.py's. This
module weighs them: take a record, look again later, send the lead again (an earlier
run's, never charged), or report it maybe charged. The plan applies the verdict.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .._errors import APIResponseValidationError, LeadEnrichError
from .lookup import Found, Tied
from .settling import Parked

if TYPE_CHECKING:
    from .._models import LeadOut

__all__ = ["LookAgain", "NotCharged", "Resend", "Take", "Unknown", "Verdict", "verdict"]

# A lost job whose record a lookup finds but cannot prove its own is looked at this many
# times, a settle window apart and then twice as far each time (100, 200 and 400 s),
# before the latest such record is taken: the one found may be an earlier record of the
# same lead while its own still waits in the queue (the next run looks once more).
_UNPROVEN_LOOKS = 4


@dataclass(frozen=True)
class Take:
    """`pick` is the lead's record."""

    pick: LeadOut
    proven: bool
    provisional: bool = False
    """Taken without proof at a lost job's last look: the next run looks once more."""


@dataclass(frozen=True)
class LookAgain:
    due: float


@dataclass(frozen=True)
class Resend:
    """An earlier run's lead, never charged: sent now."""


@dataclass(frozen=True)
class NotCharged:
    """A lead of this run whose lost request the service did not store once it must have
    been done with it: an enrichment it charged would be stored by then (or refunded,
    failed), so it was not charged. Failed with the error it met; a rerun sends it again."""


@dataclass(frozen=True)
class Unknown:
    """Maybe charged, not sent again, for `why`."""

    why: LeadEnrichError


Verdict = Take | LookAgain | Resend | NotCharged | Unknown


def verdict(
    parked: Parked,
    hit: Found | None,
    error: LeadEnrichError | None,
    *,
    final: bool,
    began: float,
    settle: float,
    again: Callable[[], float | None],
    close: Callable[[LeadOut | Tied], bool],
) -> Verdict:
    """What a lookup begun at `began` decides for `parked`: `hit` is what it found of the
    lead, `error` why it could not read the listing; `final` says the service must be
    done with the lead; `again` is when settling.py would look once more (None: never);
    `close` whether the service's clock is known closely enough to take a record."""
    fresh = parked.error is not None
    if parked.provisional is not None:
        # A record an earlier run took without proof: the latest of the lead now is its
        # own (its job's, if it still waited in the queue then). The listing unread, the
        # one taken stands until the next run.
        if error is not None:
            return Take(parked.provisional, proven=False, provisional=True)
        latest = hit.unread if hit is not None else None
        return _take(latest or parked.provisional, proven=False)
    if hit is not None and hit.proven is not None:
        return _take(hit.proven, proven=True)
    if error is not None:
        return Unknown(
            parked.error
            or LeadEnrichError(
                "not sent again: it was sent without an answer, and the stored leads could not "
                f"be checked for it ({error}); run again to look once more"
            )
        )
    if final and hit is not None and (pick := hit.undated if fresh else hit.unread) is not None:
        # The lead's own record, if it has one, is stored by now: the latest of the lead's
        # not older than its request is it (an earlier record only if its own never was).
        # For an earlier run's lead only the stamps may rule one out: not found, it is
        # sent again.
        return _take(pick, proven=False)
    if final and not fresh:
        # An earlier run's, not stored once the service was done with it (a sync
        # enrichment) or the queue moved past it (a job): never charged, sent now.
        return Resend()
    if final and parked.error is not None:
        if (hit is not None and hit.unread is not None) or isinstance(
            parked.error, APIResponseValidationError
        ):
            # A record the stamps do not rule out, only a `Date` header (a front end's
            # clock, which may be off the stamps'): it may be its own. Or the service said
            # it was done (a 2xx, its body cut short) and its record is not listed: its
            # word against its listing, which settles nothing.
            return Unknown(parked.error)
        # This run's own, with no record the stamps do not rule out once the service was
        # done with it (the rule that sends an earlier run's lead again): not charged.
        return NotCharged()
    if due := again():
        return LookAgain(due)
    if hit is not None and (pick := hit.undated) is not None and close(pick):
        if parked.looks < _UNPROVEN_LOOKS:
            # An earlier record of the lead may stand in for its own, still queued: looked
            # at again, further apart, before the latest is taken.
            return LookAgain(began + settle * 2 ** (parked.looks - 1))
        # A job's last look, with the service's clock known closely: the latest record of
        # the lead not older than its request. Its own may still wait in a queue slower
        # than anything this run saw, behind an older record of the lead the stamps do not
        # rule out: the next run looks once more.
        return _take(pick, proven=False, provisional=True)
    # Within this run; or an earlier run's job that may still wait in the queue: neither a
    # missing record nor one that may be an earlier record of the lead proves anything.
    stored = (
        "a record of it is stored that may be an earlier one of the same lead"
        if hit is not None
        else "it is not stored yet"
    )
    return Unknown(
        parked.error
        or LeadEnrichError(
            f"not sent again: an earlier run sent it as a job without hearing back, {stored}, "
            "and no job of this run showed the service's queue had moved past it; the next "
            "run looks for it again"
        )
    )


def _take(pick: LeadOut | Tied, *, proven: bool, provisional: bool = False) -> Take | Unknown:
    """`pick` as the lead's record; records it cannot tell apart leave the lead maybe
    charged, never sent again."""
    if not isinstance(pick, Tied):
        return Take(pick, proven, provisional)
    return Unknown(
        LeadEnrichError(
            f"not sent again: it was sent without an answer, and the stored leads hold {len(pick.ids)} "
            f"records of it ({', '.join(pick.ids)}) that neither their timestamps nor the listing's "
            "order tell apart: one is its own if it was charged"
        )
    )
