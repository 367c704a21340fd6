"""The options of a bulk run, named once: what `enrich_many` and `enrich_iter` take.

Standard library only, beside the progress option's type: the clients import it, while
the rest of the bulk package loads on a bulk method's first call.
"""

from __future__ import annotations

import os
from typing import Literal

from typing_extensions import TypedDict

from .progress import ProgressOption

__all__ = ["DEFAULT_CONCURRENCY", "DEFAULT_MAX_STORED", "BulkOptions", "MaxCredits", "Strategy"]

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
    """The options of [`enrich_many`][leadenrich._resources.leads.Leads.enrich_many] and
    `enrich_iter`, each optional.

    Examples:
        >>> options: BulkOptions = {"concurrency": 5, "checkpoint": "run.jsonl", "max_credits": "auto"}
        >>> result = client.leads.enrich_many(rows, **options)  # doctest: +SKIP
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
    crash or Ctrl-C loses nothing that was paid for and charges nothing twice."""
    progress: ProgressOption
    """None (the default) shows a progress bar (tqdm) when interactive; True always, False
    never; or a callable that receives each BulkOutcome."""
    poll_interval: float | None
    """The first polling interval of the `async` strategy."""
    strategy: Strategy
    """`sync` (the default: one blocking request per lead) or `async` (create a job, then
    poll it)."""
