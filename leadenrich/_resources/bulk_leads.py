"""The bulk methods of `client.leads`: `enrich_iter`, `enrich_many`, `preview_many`.

They load the bulk package (`_bulk/`) on their first call, not on import.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from typing_extensions import Unpack

from .._bulk.iteration import AsyncBulkIterator, AsyncOpenIterations, Halt, OpenIterations
from .._bulk.options import DEFAULT_MAX_STORED, BulkOptions, bulk_keywords
from .._bulk.scan_progress import ScanProgress
from .._endpoints import LeadLike
from .._help import with_args_of
from .._signatures import spelled_out
from .._types import DataFrameLike
from ._link import AsyncNamespace, SyncNamespace

if TYPE_CHECKING:
    from .._bulk.preview import BulkPreview
    from .._bulk.results import BulkOutcome, BulkResult

__all__ = ["AsyncBulkEnrichment", "BulkEnrichment", "BulkInput"]

BulkInput = Iterable[LeadLike | Mapping[str, Any]] | DataFrameLike
"""LeadIn objects, dicts of its fields (rows read from a file are any mapping), or a DataFrame."""


class BulkEnrichment(SyncNamespace, spans="leads"):
    """The bulk methods of [`Leads`][leadenrich.Leads]."""

    _iterations: OpenIterations

    @bulk_keywords
    def enrich_iter(self, leads: BulkInput, **options: Unpack[BulkOptions]) -> Iterator[BulkOutcome]:
        """Enrich many leads, yielding each lead's outcome as it completes.

        Takes the same arguments as [`enrich_many`][leadenrich.Leads.enrich_many].
        Stopping the iteration early lets the leads already started finish (they are paid
        for) and writes them to the checkpoint.

        Examples:
            >>> for outcome in client.leads.enrich_iter(rows, checkpoint="run.jsonl"):
            ...     print(outcome.index, outcome.status)
        """
        from .._bulk.runner import iterate, prepare

        batch = prepare(leads, **options, client_slots=self._link.slots)
        return self._iterations.track(iterate(batch, self._link))

    @bulk_keywords
    def enrich_many(self, leads: BulkInput, **options: Unpack[BulkOptions]) -> BulkResult:
        """Enrich many leads at once, as fast as the platform's limits allow.

        One lead's failure never stops the others; every lead gets an outcome. 429s are
        waited out (they are never charged), and a lead whose answer was lost is looked up
        among the account's stored leads, once the service must be done with it, before
        it is called failed. Identical rows are one lead: enriched once, and every copy
        gets its outcome (`duplicate_of`).

        The keywords are the keys of [`BulkOptions`][leadenrich.BulkOptions], each optional.

        Args:
            leads: LeadIn objects, dicts of LeadIn fields, or a pandas DataFrame whose
                columns include `company` and `domain` (other columns are ignored).
            concurrency: Leads enriched at once (default 5, the platform's limit).
            max_credits: Start no new lead once this many credits could be spent; `"auto"`:
                what the account has left (read from `usage()` first); None: no limit.
                The leads not started are reported `skipped`.
            checkpoint: A JSONL file that makes the run resumable: a rerun with it skips
                the leads already enriched and charges nothing twice. Held by the run until
                it ends: a second run on it raises LeadEnrichError before sending anything.
            progress: None: a progress bar when interactive (tqdm installed); True: always;
                False: never; or a callable given each BulkOutcome as it completes.
            poll_interval: The `async` strategy's pause between polls of a job; None polls
                each job by its age, as `enrich_and_wait` does.
            strategy: `"sync"` (default: one blocking request per lead) or `"async"` (a job
                per lead, polled).

        Examples:
            >>> result = client.leads.enrich_many(
            ...     [{"company": "Acme", "domain": "acme.com"}, {"company": "Globex", "domain": "globex.com"}],
            ...     checkpoint="leads.jsonl",
            ... )
            >>> result.succeeded, result.credits_spent
            (2, 2)
        """
        from .._bulk.results import BulkResult

        return BulkResult(list(self.enrich_iter(leads, **options)))

    @spelled_out
    def preview_many(
        self,
        leads: BulkInput,
        *,
        checkpoint: str | os.PathLike[str] | None = None,
        max_stored: int | None = DEFAULT_MAX_STORED,
        progress: ScanProgress = None,
    ) -> BulkPreview:
        """What [`enrich_many`][leadenrich.Leads.enrich_many] would charge for
        these leads, and whether the account can pay; nothing is charged.

        Reads the rows exactly as `enrich_many` does (the same validation and messages),
        the checkpoint, `usage()`, and the account's stored leads page by page (paced like
        every call, within the per-key budget) to find the rows whose email the service
        already has. It sends no enrichment.

        Args:
            leads: What `enrich_many` takes: LeadIn objects, dicts, or a DataFrame.
            checkpoint: The checkpoint the run will use: its finished rows cost nothing.
                It is only read, and may be read while a run writes it.
            max_stored: Read at most this many stored leads (None: all of them). Reading
                stops sooner once every email to look for was found.
            progress: None shows a bar (tqdm) while the stored leads are read when
                interactive; True always, False never; or a callable that receives the
                number of stored leads read so far after each page.

        Examples:
            >>> preview = client.leads.preview_many(rows, checkpoint="run.jsonl")
            >>> preview.credits_at_most, preview.credits_left, preview.verdict
            (115, 885, 'enough')
        """
        from .._bulk.preview import Draft, preview

        return self._link.run(preview(Draft.read(leads, checkpoint, max_stored), progress, self._link.owner))


class AsyncBulkEnrichment(AsyncNamespace, spans="leads"):
    """The bulk methods of [`AsyncLeads`][leadenrich.AsyncLeads]."""

    _iterations: AsyncOpenIterations

    @bulk_keywords
    def enrich_iter(self, leads: BulkInput, **options: Unpack[BulkOptions]) -> AsyncBulkIterator:
        """Enrich many leads, yielding outcomes as they complete; see [`Leads.enrich_many`][leadenrich.Leads.enrich_many].

        Cancelling the consuming task (or stopping the iteration) starts no new lead and
        lets the leads in flight finish, since the service enriches and charges them
        anyway, so they reach the checkpoint; cancelling again abandons them, and a
        resumed run then looks them up before sending them again. After a `break`, they
        finish when the iterator is closed: on leaving `async with` on it, or at the
        latest when the client is closed, before its connections are.

        Examples:
            >>> async with client.leads.enrich_iter(rows) as outcomes:
            ...     async for outcome in outcomes:
            ...         print(outcome.index, outcome.status)
        """
        from .._bulk.runner import aiterate, prepare

        batch = prepare(leads, **options, client_slots=self._link.slots)
        halt = Halt()
        return AsyncBulkIterator(aiterate(batch, self._link, halt), self._iterations, halt)

    @bulk_keywords
    async def enrich_many(self, leads: BulkInput, **options: Unpack[BulkOptions]) -> BulkResult:
        """Enrich many leads at once, as fast as the platform's limits allow; awaitable.

        As [`Leads.enrich_many`][leadenrich.Leads.enrich_many]: one lead's failure never
        stops the others, 429s are waited out, a lead whose answer was lost is looked up
        before it is called failed, identical rows are enriched once. Works with a plain
        `await` in a Jupyter notebook.

        Examples:
            >>> result = await client.leads.enrich_many(rows, checkpoint="leads.jsonl")
        """
        from .._bulk.results import BulkResult

        return BulkResult([outcome async for outcome in self.enrich_iter(leads, **options)])

    @spelled_out
    async def preview_many(
        self,
        leads: BulkInput,
        *,
        checkpoint: str | os.PathLike[str] | None = None,
        max_stored: int | None = DEFAULT_MAX_STORED,
        progress: ScanProgress = None,
    ) -> BulkPreview:
        """What `enrich_many` would charge; see [`Leads.preview_many`][leadenrich.Leads.preview_many].

        Examples:
            >>> preview = await client.leads.preview_many(rows, checkpoint="run.jsonl")
        """
        from .._bulk.preview import Draft, preview

        return await self._link.run(
            preview(Draft.read(leads, checkpoint, max_stored), progress, self._link.owner)
        )


# Written once, on the sync enrich_many (which the API reference shows); help() of its
# twins, which the reference describes beside it, reads the same Args.
for _twin in (BulkEnrichment.enrich_iter, AsyncBulkEnrichment.enrich_iter, AsyncBulkEnrichment.enrich_many):
    with_args_of(_twin, BulkEnrichment.enrich_many)
