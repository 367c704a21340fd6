"""What the plan asks a runner to do next, and what an error says of a sent request."""

from __future__ import annotations

from dataclasses import dataclass

from .._errors import (
    APIConnectionError,
    APIResponseValidationError,
    InternalServerError,
    LeadEnrichError,
    PollTimeoutError,
)
from .inputs import Item
from .results import BulkOutcome
from .settling import Parked

__all__ = ["Lookup", "NotSent", "Poll", "Send", "Step", "Task", "is_ambiguous"]


class NotSent(LeadEnrichError):
    """A lead's request kept from leaving: the run stopped while it waited to go (for a
    slot, the pacer or a back-off). Nothing was sent, so nothing was charged."""


def is_ambiguous(error: LeadEnrichError) -> bool:
    """The service may have accepted, charged and stored the lead despite the error."""
    if isinstance(error, APIConnectionError):
        return error.request_sent
    if isinstance(error, PollTimeoutError):
        # Without a last object the deadline passed before a job was created (waiting for
        # an enrichment slot): nothing was sent.
        return error.last is not None
    if isinstance(error, InternalServerError):
        # Unless the service says it refunded the credit: then nothing is left to look up.
        return not error.refunded
    # A 2xx whose body could not be read is an answer lost after the service did the work.
    return isinstance(error, APIResponseValidationError)


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
class Lookup:
    """Look these parked leads up among the account's stored leads."""

    parked: tuple[Parked, ...]
    began: float = 0.0
    """When (on the client's service clock) the lookup began: a record stored later may
    have been missed by it."""


Task = Send | Poll | Lookup
Step = list[BulkOutcome] | float
"""What a failed attempt leads to: its outcomes (maybe none: parked), or seconds to
pause before sending the lead again."""
