"""`read_checkpoint`: the result so far of a bulk run cut short, read from its checkpoint alone."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ._bulk.checkpoint import Checkpoint
from ._bulk.inputs import read_items
from ._bulk.results import BulkOutcome, BulkResult
from ._errors import LeadEnrichError

if TYPE_CHECKING:
    from ._resources.bulk_leads import BulkInput

__all__ = ["read_checkpoint"]

_NOT_FINISHED = "not finished in the checkpoint: run enrich_many again with the same checkpoint to go on"


def read_checkpoint(leads: BulkInput, checkpoint: str | os.PathLike[str]) -> BulkResult:
    """What a bulk run's checkpoint holds for `leads`: the result so far of a run that
    was cut short (Ctrl-C, a crash), read from the file alone, with no request sent.

    The file is only read: a run may be writing it meanwhile (a line it is writing is
    not read yet), and nothing of it changes. The rows are numbered and checked as
    `enrich_many` does. A row the checkpoint has
    finished is `enriched` (or `deduped`) with its lead, and `resumed`; a row refused
    before sending is `failed` with its error; every other row is `skipped`. A rerun of
    `enrich_many` with the same leads and checkpoint goes on from there: it pays for none
    of the finished rows again, and looks up the rows whose answer was lost.

    Args:
        leads: The rows the run was given: LeadIn objects, dicts, or a DataFrame.
        checkpoint: The run's checkpoint file; a missing file holds nothing.

    Raises:
        LeadEnrichError: The file cannot be read, or is not a checkpoint.

    Examples:
        >>> from leadenrich import read_checkpoint
        >>> try:
        ...     result = client.leads.enrich_many(rows, checkpoint="run.jsonl")
        ... except KeyboardInterrupt:
        ...     result = read_checkpoint(rows, "run.jsonl")
    """
    done = Checkpoint(checkpoint).load().records
    outcomes: list[BulkOutcome] = []
    # The bulk runner's own numbering and keys, so each row finds its checkpoint entry.
    for item in read_items(leads):
        lead = done.get(item.key)
        copy = item.duplicate_of
        if item.invalid is not None:
            outcome = BulkOutcome(index=item.index, input=item.given, status="failed", error=item.invalid)
        elif lead is None:
            error = LeadEnrichError(_NOT_FINISHED)
            outcome = BulkOutcome(
                index=item.index, input=item.given, status="skipped", error=error, duplicate_of=copy
            )
        else:
            outcome = BulkOutcome(
                index=item.index,
                input=item.given,
                status="deduped" if lead.deduped else "enriched",
                lead=lead,
                resumed=True,
                duplicate_of=copy,
            )
        outcomes.append(outcome)
    return BulkResult(outcomes)
