"""The options of a bulk run, named once: what `enrich_many` and `enrich_iter` take.

Light to import (the standard library, the progress option's type and the errors the
clients load anyway): the clients import it, while the rest of the bulk package loads on
a bulk method's first call, and a run reads `max_credits` without loading the preview.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Literal

from typing_extensions import TypedDict, TypeIs

from .._errors import InvalidRequestError
from .._help import without_cross_references
from .._signatures import keywords_from
from .progress import ProgressOption

if TYPE_CHECKING:
    from .._models import UsageOut

__all__ = [
    "BULK_DEFAULTS",
    "DEFAULT_CONCURRENCY",
    "DEFAULT_MAX_STORED",
    "BulkOptions",
    "MaxCredits",
    "Strategy",
    "bulk_keywords",
    "credits_left",
    "wants_auto",
]

MaxCredits = int | Literal["auto"] | None
"""`enrich_many(max_credits=...)`: a number of credits, `"auto"` for what the account has
left (read from `usage()` before the run starts), or None for no limit."""

Strategy = Literal["sync", "async"]
"""`sync`: one blocking enrich request per lead. `async`: create a job, then poll it."""

DEFAULT_CONCURRENCY = 5
"""The platform's ceiling of enrichments at once."""

DEFAULT_MAX_STORED = 10_000
"""How many stored leads a preview reads at most by default: 100 pages, under two minutes
at the sync budget of 60 requests a minute."""


class BulkOptions(TypedDict, total=False):
    """The options of [`enrich_many`][leadenrich.Leads.enrich_many] and
    `enrich_iter`, each optional.

    Examples:
        >>> options: BulkOptions = {"concurrency": 5, "checkpoint": "run.jsonl", "max_credits": "auto"}
        >>> result = client.leads.enrich_many(rows, **options)
    """

    concurrency: int
    """Leads enriched at once (5 by default). The platform runs 5 enrichments at a time,
    so more than 5 only queues (see `RateLimits.concurrent_enrichments`). With 5 or more,
    the `async` strategy also keeps two jobs queued at the service, which start the
    moment a slot frees."""
    max_credits: MaxCredits
    """Start no new enrichment once this many credits could be spent; the leads left are
    reported as `skipped`. `"auto"` reads what the account has left from `usage()` when
    the run starts and stops there, so a run never ends in a wall of 402s (`preview_many`
    tells beforehand how many leads that covers). None (the default): no limit."""
    checkpoint: str | os.PathLike[str] | None
    """A JSONL file. Every fact about a lead is appended as it is learnt (started, its job
    id, its answer lost, finished), and a rerun with the same file skips the leads already
    enriched, polls the jobs it knows and looks up the leads whose answer was lost, so a
    crash or Ctrl-C loses nothing that was paid for and charges nothing twice. A run holds
    the file until it ends: a second run on it, in this process or another, raises
    LeadEnrichError (a BlockingIOError too) before it sends anything."""
    progress: ProgressOption
    """None (the default) shows a progress bar (tqdm) when interactive; True always, False
    never; or a callable that receives each BulkOutcome."""
    poll_interval: float | None
    """The `async` strategy's interval between two polls of a job, from its creation on.
    None (the default) polls each job as `enrich_and_wait` does: first a second after its
    creation (a deduped job is done at once; left out once three jobs in a row took
    longer), then by its age, which costs about five polls a job of 20-40 s. A fixed
    interval costs a poll a job each interval, and five jobs polled every 2 s would ask
    for 150 of the key's 60 requests a minute: the client's pacing then spaces them."""
    strategy: Strategy
    """`sync` (the default: one blocking request per lead) or `async` (create a job, then
    poll it)."""


BULK_DEFAULTS: BulkOptions = {
    "concurrency": DEFAULT_CONCURRENCY,
    "max_credits": None,
    "checkpoint": None,
    "progress": None,
    "poll_interval": None,
    "strategy": "sync",
}
"""What a run does with an option left out."""

# help(BulkOptions) reads its docstring without the reference's link targets.
BulkOptions.__doc__ = without_cross_references(BulkOptions.__doc__)

bulk_keywords = keywords_from(BulkOptions, BULK_DEFAULTS)
"""Shows the keys of `BulkOptions`, with their defaults, in a method's run-time signature."""


def credits_left(usage: UsageOut) -> int | None:
    """Enrichment credits the account has left this month; None when it has no limit.

    Examples:
        >>> from leadenrich import UsageOut
        >>> credits_left(UsageOut.model_validate({
        ...     "tier": "growth",
        ...     "monthly_leads": {"included": 1000, "credits_added": 50, "effective_limit": 1050, "used": 990},
        ...     "mobile_credits": {"purchased": 0, "used": 0, "balance": 0},
        ...     "api_calls_this_month": {"total": 0, "this_key": 0},
        ... }))
        60
    """
    quota = usage.monthly_leads
    if quota.effective_limit is None:
        return None
    return max(0, quota.effective_limit - quota.used)


def wants_auto(max_credits: MaxCredits) -> TypeIs[Literal["auto"]]:
    """True for `max_credits="auto"`; an error for any other string, before anything is sent."""
    if max_credits == "auto":
        return True
    if isinstance(max_credits, str):  # pyright: ignore[reportUnnecessaryIsInstance]
        # Not a type checker's catch: a setting read from a file or the command line.
        raise InvalidRequestError(
            f"max_credits must be an int >= 0, None (no limit) or 'auto' (what the account has left), "
            f"got {max_credits!r}"
        )
    return False
