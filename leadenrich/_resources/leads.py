"""client.leads: enrich, list, fetch, delete and re-enrich leads.

The bulk methods load the bulk package (`_bulk/`) on their first call, not on import.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping
from functools import cached_property
from typing import TYPE_CHECKING, Any

from typing_extensions import Unpack

from .. import _endpoints
from .._bulk.iteration import AsyncBulkIterator, AsyncOpenIterations, OpenIterations
from .._bulk.options import DEFAULT_MAX_STORED, BulkOptions
from .._bulk.scan_progress import ScanProgress
from .._clock import Deadline
from .._endpoints import Extras, LeadLike, make_extras, per_call, with_extras
from .._job_steps import OnCreated, enrich_and_wait
from .._pagination import check_page_size, next_skip
from .._polling import DEFAULT_JOB_TIMEOUT, Waiter
from .._response import APIResponse
from .._steps import Steps
from .._types import DataFrameLike, ExtraHeaders, ExtraQuery, RequestTimeout
from ._link import AsyncLink, Link, Namespace, SyncLink

if TYPE_CHECKING:
    from .._bulk.preview import BulkPreview
    from .._bulk.queue_ahead import QueueAhead
    from .._bulk.results import BulkOutcome, BulkResult
    from .._models import EnrichJobCreated, JobOut, LeadDeleted, LeadOut, LeadPage

__all__ = ["AsyncLeads", "AsyncLeadsWithRawResponse", "Leads", "LeadsWithRawResponse"]

BulkInput = Iterable[LeadLike | Mapping[str, Any]] | DataFrameLike
"""LeadIn objects, dicts of its fields (rows read from a file are any mapping), or a DataFrame."""


class Leads(Namespace[SyncLink]):
    """Enrich and manage leads: `client.leads`.

    Examples:
        >>> lead = client.leads.enrich_sync({"company": "Acme", "domain": "acme.com"})  # doctest: +SKIP
        >>> client.leads.get(lead.id).input.company  # doctest: +SKIP
        'Acme'
    """

    def __init__(self, link: SyncLink, iterations: OpenIterations | None = None) -> None:
        super().__init__(link)
        self._iterations = iterations if iterations is not None else OpenIterations()

    @cached_property
    def with_raw_response(self) -> LeadsWithRawResponse:
        """The same methods, returning the HTTP response: `client.leads.with_raw_response.get(lead_id)`.

        Every method that sends one request is there; `enrich_and_wait`, `iter` and the
        bulk methods send many, and are not.
        """
        return LeadsWithRawResponse(self._link)

    def enrich(
        self,
        lead: LeadLike,
        *,
        callback_url: str | None = None,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> EnrichJobCreated:
        """Start an asynchronous enrichment; returns at once with a queued job.

        One enrichment credit is spent when the job runs (none when the contact's email
        is already known: the existing record is returned, marked `deduped`). With
        `callback_url`, the service POSTs the finished job there once.

        Examples:
            >>> job = client.leads.enrich({"company": "Acme", "domain": "acme.com"})  # doctest: +SKIP
            >>> client.jobs.get(job.job_id).status  # doctest: +SKIP
            'running'
        """
        call = per_call(_endpoints.enrich(lead, callback_url), timeout, extra_headers, extra_query)
        return _noted(self._link, self._link.request(call))

    def enrich_sync(
        self,
        lead: LeadLike,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> LeadOut:
        """Enrich a lead and wait for the result in the same request (typically 20-40 s).

        The read timeout of this call is at least 100 s, since the service may hold the
        request open for about 90 s. It is never re-sent after it may have reached the
        service, so it cannot be charged twice.

        Examples:
            >>> lead = client.leads.enrich_sync({"company": "Acme", "domain": "acme.com"})  # doctest: +SKIP
            >>> lead.enrichment.company_overview.industry  # doctest: +SKIP
            'Software'
        """
        return self._link.request(per_call(_endpoints.enrich_sync(lead), timeout, extra_headers, extra_query))

    def enrich_and_wait(
        self,
        lead: LeadLike,
        *,
        timeout: float = DEFAULT_JOB_TIMEOUT,
        poll_interval: float | None = None,
        on_progress: Callable[[JobOut], object] | None = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> LeadOut:
        """Start an asynchronous enrichment and poll the job until it finishes.

        Takes one of the client's enrichment slots for the whole time, so many calls at
        once on one client stay within the platform's ceiling instead of collecting
        `upstream_full` 429s. `timeout` (300 s by default) covers waiting for a slot, the
        job and the polling. The job is polled by its age, as in
        [`Jobs.wait`][leadenrich._resources.jobs.Jobs.wait]; `poll_interval` is the
        shortest interval between polls.

        Raises:
            JobFailedError: The job failed; `.job.error` says why.
            PollTimeoutError: The deadline passed; `.last` is the last JobOut seen (its
                job goes on, and `jobs.wait(.last.job_id)` picks it up again).

        Examples:
            >>> lead = client.leads.enrich_and_wait({"company": "Acme", "domain": "acme.com"})  # doctest: +SKIP
            >>> lead.enrichment.tags  # doctest: +SKIP
            ['mid-market', 'manufacturing']
        """
        return self._enrich_and_wait(
            lead, timeout, poll_interval, on_progress, extra_headers=extra_headers, extra_query=extra_query
        )

    def _enrich_and_wait(
        self,
        lead: LeadLike,
        timeout: float,
        poll_interval: float | None,
        on_progress: Callable[[JobOut], object] | None,
        on_created: OnCreated | None = None,
        *,
        ahead: QueueAhead | None = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> LeadOut:
        waiter = _waiter(self._link, timeout, poll_interval, on_progress)
        return self._link.run(_job(self._link, lead, waiter, on_created, ahead, extra_headers, extra_query))

    def enrich_iter(self, leads: BulkInput, **options: Unpack[BulkOptions]) -> Iterator[BulkOutcome]:
        """Enrich many leads, yielding each lead's outcome as it completes.

        Takes the same arguments as [`enrich_many`][leadenrich._resources.leads.Leads.enrich_many].
        Stopping the iteration early lets the leads already started finish (they are paid
        for) and writes them to the checkpoint.

        Examples:
            >>> for outcome in client.leads.enrich_iter(rows, checkpoint="run.jsonl"):  # doctest: +SKIP
            ...     print(outcome.index, outcome.status)
        """
        from .._bulk.runner import iterate, prepare

        batch = prepare(leads, **options, client_slots=self._link.slots)
        return self._iterations.track(iterate(batch, self._link))

    def enrich_many(self, leads: BulkInput, **options: Unpack[BulkOptions]) -> BulkResult:
        """Enrich many leads at once, as fast as the platform's limits allow.

        One lead's failure never stops the others; every lead gets an outcome. 429s are
        waited out (they are never charged), and a lead whose answer was lost is looked up
        among the account's stored leads, once the service must be done with it, before
        it is called failed. Identical rows are one lead: enriched once, and every copy
        gets its outcome (`duplicate_of`).

        Args:
            leads: LeadIn objects, dicts of LeadIn fields, or a pandas DataFrame whose
                columns include `company` and `domain` (other columns are ignored).
            **options: The run's options, each optional (see
                [`BulkOptions`][leadenrich.BulkOptions]): `concurrency` (5), `max_credits`
                (a number, `"auto"` for what the account has left, or None), `checkpoint`
                (a JSONL file that makes the run resumable), `progress`, `poll_interval`
                and `strategy` (`"sync"` or `"async"`).

        Examples:
            >>> result = client.leads.enrich_many(  # doctest: +SKIP
            ...     [{"company": "Acme", "domain": "acme.com"}, {"company": "Globex", "domain": "globex.com"}],
            ...     checkpoint="leads.jsonl",
            ... )
            >>> result.succeeded, result.credits_spent  # doctest: +SKIP
            (2, 2)
        """
        from .._bulk.results import BulkResult

        return BulkResult(list(self.enrich_iter(leads, **options)))

    def preview_many(
        self,
        leads: BulkInput,
        *,
        checkpoint: str | os.PathLike[str] | None = None,
        max_stored: int | None = DEFAULT_MAX_STORED,
        progress: ScanProgress = None,
    ) -> BulkPreview:
        """What [`enrich_many`][leadenrich._resources.leads.Leads.enrich_many] would charge for
        these leads, and whether the account can pay; nothing is charged.

        Reads the rows exactly as `enrich_many` does (the same validation and messages),
        the checkpoint, `usage()`, and the account's stored leads page by page (paced like
        every call, within the per-key budget) to find the rows whose email the service
        already has. It sends no enrichment.

        Args:
            leads: What `enrich_many` takes: LeadIn objects, dicts, or a DataFrame.
            checkpoint: The checkpoint the run will use: its finished rows cost nothing.
            max_stored: Read at most this many stored leads (None: all of them). Reading
                stops sooner once every email to look for was found.
            progress: None shows a bar (tqdm) while the stored leads are read when
                interactive; True always, False never; or a callable that receives the
                number of stored leads read so far after each page.

        Examples:
            >>> preview = client.leads.preview_many(rows, checkpoint="run.jsonl")  # doctest: +SKIP
            >>> preview.credits_at_most, preview.credits_left, preview.verdict  # doctest: +SKIP
            (115, 885, 'enough')
        """
        from .._bulk.preview import Draft, preview

        return self._link.run(preview(Draft.read(leads, checkpoint, max_stored), progress))

    def list(
        self,
        *,
        limit: int = 50,
        skip: int = 0,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> LeadPage:
        """One page of stored leads: `limit` is the page size, not a total.

        Examples:
            >>> page = client.leads.list(limit=20, skip=40)  # doctest: +SKIP
            >>> for lead in page:  # doctest: +SKIP
            ...     print(lead.id, lead.input.company)
        """
        return self._link.request(
            per_call(_endpoints.list_leads(limit, skip), timeout, extra_headers, extra_query)
        )

    def iter(
        self,
        *,
        page_size: int = 50,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> Iterator[LeadOut]:
        """Every stored lead, fetching pages of `page_size` as the iteration goes.

        Examples:
            >>> for lead in client.leads.iter():  # doctest: +SKIP
            ...     print(lead.id)
        """
        return self._pages(check_page_size(page_size), make_extras(timeout, extra_headers, extra_query))

    def _pages(self, size: int, extras: Extras | None) -> Iterator[LeadOut]:
        skip: int | None = 0
        while skip is not None:
            page = self._link.request(with_extras(_endpoints.list_leads(size, skip), extras))
            yield from page.items
            skip = next_skip(page, size, skip)

    def get(
        self,
        lead_id: str,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> LeadOut:
        """A stored lead by id; NotFoundError when it does not exist or is another account's.

        Examples:
            >>> client.leads.get("ld_123").input.company  # doctest: +SKIP
            'Acme'
        """
        return self._link.request(per_call(_endpoints.get_lead(lead_id), timeout, extra_headers, extra_query))

    def delete(
        self,
        lead_id: str,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> LeadDeleted:
        """Delete a stored lead.

        Examples:
            >>> client.leads.delete("ld_123").id  # doctest: +SKIP
            'ld_123'
        """
        return self._link.request(
            per_call(_endpoints.delete_lead(lead_id), timeout, extra_headers, extra_query)
        )

    def re_enrich(
        self,
        lead_id: str,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> LeadOut:
        """Enrich a stored lead again and return the fresh record (an enrichment run).

        Examples:
            >>> client.leads.re_enrich("ld_123").enrichment.opportunity_score  # doctest: +SKIP
            64
        """
        return self._link.request(
            per_call(_endpoints.re_enrich(lead_id), timeout, extra_headers, extra_query)
        )


def _noted(link: Link, created: EnrichJobCreated) -> EnrichJobCreated:
    """A job just created, its creation time noted: `jobs.wait` then polls it by its age."""
    link.durations.created(created.job_id, link.clock.now())
    return created


def _waiter(
    link: Link, timeout: float, poll_interval: float | None, on_progress: Callable[[JobOut], object] | None
) -> Waiter[JobOut]:
    return Waiter("enrichment job", Deadline(timeout, link.clock), poll_interval, on_progress)


def _job(
    link: Link,
    lead: LeadLike,
    waiter: Waiter[JobOut],
    on_created: OnCreated | None,
    ahead: QueueAhead | None,
    extra_headers: ExtraHeaders,
    extra_query: ExtraQuery,
) -> Steps[LeadOut]:
    """What `enrich_and_wait` does, written once for both clients."""
    call = per_call(_endpoints.enrich(lead), None, extra_headers, extra_query)
    return enrich_and_wait(link, call, waiter, on_created, ahead)


class LeadsWithRawResponse(Namespace[SyncLink]):
    """`client.leads.with_raw_response`: each call returns an [`APIResponse`][leadenrich.APIResponse].

    Examples:
        >>> raw = client.leads.with_raw_response.get("ld_123")  # doctest: +SKIP
        >>> raw.headers.get("retry-after"), raw.retries_taken  # doctest: +SKIP
    """

    def enrich(
        self,
        lead: LeadLike,
        *,
        callback_url: str | None = None,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> APIResponse[EnrichJobCreated]:
        """[`Leads.enrich`][leadenrich._resources.leads.Leads.enrich], with the HTTP response.

        Examples:
            >>> raw = client.leads.with_raw_response.enrich({"company": "Acme", "domain": "acme.com"})  # doctest: +SKIP
            >>> raw.status_code, raw.parse()  # doctest: +SKIP
        """
        return self._link.request_raw(
            per_call(_endpoints.enrich(lead, callback_url), timeout, extra_headers, extra_query)
        )

    def enrich_sync(
        self,
        lead: LeadLike,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> APIResponse[LeadOut]:
        """[`Leads.enrich_sync`][leadenrich._resources.leads.Leads.enrich_sync], with the HTTP response.

        Examples:
            >>> raw = client.leads.with_raw_response.enrich_sync({"company": "Acme", "domain": "acme.com"})  # doctest: +SKIP
            >>> raw.status_code, raw.parse()  # doctest: +SKIP
        """
        return self._link.request_raw(
            per_call(_endpoints.enrich_sync(lead), timeout, extra_headers, extra_query)
        )

    def list(
        self,
        *,
        limit: int = 50,
        skip: int = 0,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> APIResponse[LeadPage]:
        """[`Leads.list`][leadenrich._resources.leads.Leads.list], with the HTTP response.

        Examples:
            >>> raw = client.leads.with_raw_response.list(limit=20)  # doctest: +SKIP
            >>> raw.status_code, raw.parse()  # doctest: +SKIP
        """
        return self._link.request_raw(
            per_call(_endpoints.list_leads(limit, skip), timeout, extra_headers, extra_query)
        )

    def get(
        self,
        lead_id: str,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> APIResponse[LeadOut]:
        """[`Leads.get`][leadenrich._resources.leads.Leads.get], with the HTTP response.

        Examples:
            >>> raw = client.leads.with_raw_response.get("ld_123")  # doctest: +SKIP
            >>> raw.status_code, raw.parse()  # doctest: +SKIP
        """
        return self._link.request_raw(
            per_call(_endpoints.get_lead(lead_id), timeout, extra_headers, extra_query)
        )

    def delete(
        self,
        lead_id: str,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> APIResponse[LeadDeleted]:
        """[`Leads.delete`][leadenrich._resources.leads.Leads.delete], with the HTTP response.

        Examples:
            >>> raw = client.leads.with_raw_response.delete("ld_123")  # doctest: +SKIP
            >>> raw.status_code, raw.parse()  # doctest: +SKIP
        """
        return self._link.request_raw(
            per_call(_endpoints.delete_lead(lead_id), timeout, extra_headers, extra_query)
        )

    def re_enrich(
        self,
        lead_id: str,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> APIResponse[LeadOut]:
        """[`Leads.re_enrich`][leadenrich._resources.leads.Leads.re_enrich], with the HTTP response.

        Examples:
            >>> raw = client.leads.with_raw_response.re_enrich("ld_123")  # doctest: +SKIP
            >>> raw.status_code, raw.parse()  # doctest: +SKIP
        """
        return self._link.request_raw(
            per_call(_endpoints.re_enrich(lead_id), timeout, extra_headers, extra_query)
        )


class AsyncLeads(Namespace[AsyncLink]):
    """Enrich and manage leads: `client.leads` of the async client.

    Examples:
        >>> lead = await client.leads.enrich_sync({"company": "Acme", "domain": "acme.com"})  # doctest: +SKIP
    """

    def __init__(self, link: AsyncLink, iterations: AsyncOpenIterations | None = None) -> None:
        super().__init__(link)
        self._iterations = iterations if iterations is not None else AsyncOpenIterations()

    @cached_property
    def with_raw_response(self) -> AsyncLeadsWithRawResponse:
        """[`Leads.with_raw_response`][leadenrich._resources.leads.Leads.with_raw_response], awaitable."""
        return AsyncLeadsWithRawResponse(self._link)

    async def enrich(
        self,
        lead: LeadLike,
        *,
        callback_url: str | None = None,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> EnrichJobCreated:
        """[`Leads.enrich`][leadenrich._resources.leads.Leads.enrich], awaitable.

        Examples:
            >>> job = await client.leads.enrich({"company": "Acme", "domain": "acme.com"})  # doctest: +SKIP
        """
        call = per_call(_endpoints.enrich(lead, callback_url), timeout, extra_headers, extra_query)
        return _noted(self._link, await self._link.request(call))

    async def enrich_sync(
        self,
        lead: LeadLike,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> LeadOut:
        """[`Leads.enrich_sync`][leadenrich._resources.leads.Leads.enrich_sync], awaitable.

        Examples:
            >>> lead = await client.leads.enrich_sync({"company": "Acme", "domain": "acme.com"})  # doctest: +SKIP
        """
        return await self._link.request(
            per_call(_endpoints.enrich_sync(lead), timeout, extra_headers, extra_query)
        )

    async def enrich_and_wait(
        self,
        lead: LeadLike,
        *,
        timeout: float = DEFAULT_JOB_TIMEOUT,
        poll_interval: float | None = None,
        on_progress: Callable[[JobOut], object] | None = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> LeadOut:
        """[`Leads.enrich_and_wait`][leadenrich._resources.leads.Leads.enrich_and_wait], awaitable;
        cancelling the awaiting task stops the polling at once.

        Examples:
            >>> lead = await client.leads.enrich_and_wait({"company": "Acme", "domain": "acme.com"})  # doctest: +SKIP
        """
        return await self._enrich_and_wait(
            lead, timeout, poll_interval, on_progress, extra_headers=extra_headers, extra_query=extra_query
        )

    async def _enrich_and_wait(
        self,
        lead: LeadLike,
        timeout: float,
        poll_interval: float | None,
        on_progress: Callable[[JobOut], object] | None,
        on_created: OnCreated | None = None,
        *,
        ahead: QueueAhead | None = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> LeadOut:
        waiter = _waiter(self._link, timeout, poll_interval, on_progress)
        return await self._link.run(
            _job(self._link, lead, waiter, on_created, ahead, extra_headers, extra_query)
        )

    def enrich_iter(self, leads: BulkInput, **options: Unpack[BulkOptions]) -> AsyncBulkIterator:
        """Enrich many leads, yielding outcomes as they complete; see [`Leads.enrich_many`][leadenrich._resources.leads.Leads.enrich_many].

        Cancelling the consuming task (or stopping the iteration) starts no new lead and
        lets the leads in flight finish, since the service enriches and charges them
        anyway, so they reach the checkpoint; cancelling again abandons them, and a
        resumed run then looks them up before sending them again. After a `break`, they
        finish when the iterator is closed: on leaving `async with` on it, or at the
        latest when the client is closed, before its connections are.

        Examples:
            >>> async with client.leads.enrich_iter(rows) as outcomes:  # doctest: +SKIP
            ...     async for outcome in outcomes:
            ...         print(outcome.index, outcome.status)
        """
        from .._bulk.runner import aiterate, prepare

        batch = prepare(leads, **options, client_slots=self._link.slots)
        return AsyncBulkIterator(aiterate(batch, self._link), self._iterations)

    async def enrich_many(self, leads: BulkInput, **options: Unpack[BulkOptions]) -> BulkResult:
        """Enrich many leads at once; see [`Leads.enrich_many`][leadenrich._resources.leads.Leads.enrich_many].

        Works with a plain `await` in a Jupyter notebook.

        Examples:
            >>> result = await client.leads.enrich_many(rows, checkpoint="leads.jsonl")  # doctest: +SKIP
        """
        from .._bulk.results import BulkResult

        return BulkResult([outcome async for outcome in self.enrich_iter(leads, **options)])

    async def preview_many(
        self,
        leads: BulkInput,
        *,
        checkpoint: str | os.PathLike[str] | None = None,
        max_stored: int | None = DEFAULT_MAX_STORED,
        progress: ScanProgress = None,
    ) -> BulkPreview:
        """What `enrich_many` would charge; see [`Leads.preview_many`][leadenrich._resources.leads.Leads.preview_many].

        Examples:
            >>> preview = await client.leads.preview_many(rows, checkpoint="run.jsonl")  # doctest: +SKIP
        """
        from .._bulk.preview import Draft, preview

        return await self._link.run(preview(Draft.read(leads, checkpoint, max_stored), progress))

    async def list(
        self,
        *,
        limit: int = 50,
        skip: int = 0,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> LeadPage:
        """[`Leads.list`][leadenrich._resources.leads.Leads.list], awaitable.

        Examples:
            >>> page = await client.leads.list(limit=20)  # doctest: +SKIP
        """
        return await self._link.request(
            per_call(_endpoints.list_leads(limit, skip), timeout, extra_headers, extra_query)
        )

    def iter(
        self,
        *,
        page_size: int = 50,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> AsyncIterator[LeadOut]:
        """Every stored lead, page after page.

        Examples:
            >>> async for lead in client.leads.iter():  # doctest: +SKIP
            ...     print(lead.id)
        """
        return self._pages(check_page_size(page_size), make_extras(timeout, extra_headers, extra_query))

    async def _pages(self, size: int, extras: Extras | None) -> AsyncIterator[LeadOut]:
        skip: int | None = 0
        while skip is not None:
            page = await self._link.request(with_extras(_endpoints.list_leads(size, skip), extras))
            for lead in page.items:
                yield lead
            skip = next_skip(page, size, skip)

    async def get(
        self,
        lead_id: str,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> LeadOut:
        """[`Leads.get`][leadenrich._resources.leads.Leads.get], awaitable.

        Examples:
            >>> lead = await client.leads.get("ld_123")  # doctest: +SKIP
        """
        return await self._link.request(
            per_call(_endpoints.get_lead(lead_id), timeout, extra_headers, extra_query)
        )

    async def delete(
        self,
        lead_id: str,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> LeadDeleted:
        """[`Leads.delete`][leadenrich._resources.leads.Leads.delete], awaitable.

        Examples:
            >>> deleted = await client.leads.delete("ld_123")  # doctest: +SKIP
        """
        return await self._link.request(
            per_call(_endpoints.delete_lead(lead_id), timeout, extra_headers, extra_query)
        )

    async def re_enrich(
        self,
        lead_id: str,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> LeadOut:
        """[`Leads.re_enrich`][leadenrich._resources.leads.Leads.re_enrich], awaitable.

        Examples:
            >>> lead = await client.leads.re_enrich("ld_123")  # doctest: +SKIP
        """
        return await self._link.request(
            per_call(_endpoints.re_enrich(lead_id), timeout, extra_headers, extra_query)
        )


class AsyncLeadsWithRawResponse(Namespace[AsyncLink]):
    """`client.leads.with_raw_response` of the async client: each call returns an [`APIResponse`][leadenrich.APIResponse].

    Examples:
        >>> raw = await client.leads.with_raw_response.get("ld_123")  # doctest: +SKIP
        >>> raw.headers.get("retry-after"), raw.retries_taken  # doctest: +SKIP
    """

    async def enrich(
        self,
        lead: LeadLike,
        *,
        callback_url: str | None = None,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> APIResponse[EnrichJobCreated]:
        """[`LeadsWithRawResponse.enrich`][leadenrich._resources.leads.LeadsWithRawResponse.enrich], awaitable.

        Examples:
            >>> raw = await client.leads.with_raw_response.enrich({"company": "Acme", "domain": "acme.com"})  # doctest: +SKIP
            >>> raw.status_code, raw.parse()  # doctest: +SKIP
        """
        return await self._link.request_raw(
            per_call(_endpoints.enrich(lead, callback_url), timeout, extra_headers, extra_query)
        )

    async def enrich_sync(
        self,
        lead: LeadLike,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> APIResponse[LeadOut]:
        """[`LeadsWithRawResponse.enrich_sync`][leadenrich._resources.leads.LeadsWithRawResponse.enrich_sync], awaitable.

        Examples:
            >>> raw = await client.leads.with_raw_response.enrich_sync({"company": "Acme", "domain": "acme.com"})  # doctest: +SKIP
            >>> raw.status_code, raw.parse()  # doctest: +SKIP
        """
        return await self._link.request_raw(
            per_call(_endpoints.enrich_sync(lead), timeout, extra_headers, extra_query)
        )

    async def list(
        self,
        *,
        limit: int = 50,
        skip: int = 0,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> APIResponse[LeadPage]:
        """[`LeadsWithRawResponse.list`][leadenrich._resources.leads.LeadsWithRawResponse.list], awaitable.

        Examples:
            >>> raw = await client.leads.with_raw_response.list(limit=20)  # doctest: +SKIP
            >>> raw.status_code, raw.parse()  # doctest: +SKIP
        """
        return await self._link.request_raw(
            per_call(_endpoints.list_leads(limit, skip), timeout, extra_headers, extra_query)
        )

    async def get(
        self,
        lead_id: str,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> APIResponse[LeadOut]:
        """[`LeadsWithRawResponse.get`][leadenrich._resources.leads.LeadsWithRawResponse.get], awaitable.

        Examples:
            >>> raw = await client.leads.with_raw_response.get("ld_123")  # doctest: +SKIP
            >>> raw.status_code, raw.parse()  # doctest: +SKIP
        """
        return await self._link.request_raw(
            per_call(_endpoints.get_lead(lead_id), timeout, extra_headers, extra_query)
        )

    async def delete(
        self,
        lead_id: str,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> APIResponse[LeadDeleted]:
        """[`LeadsWithRawResponse.delete`][leadenrich._resources.leads.LeadsWithRawResponse.delete], awaitable.

        Examples:
            >>> raw = await client.leads.with_raw_response.delete("ld_123")  # doctest: +SKIP
            >>> raw.status_code, raw.parse()  # doctest: +SKIP
        """
        return await self._link.request_raw(
            per_call(_endpoints.delete_lead(lead_id), timeout, extra_headers, extra_query)
        )

    async def re_enrich(
        self,
        lead_id: str,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> APIResponse[LeadOut]:
        """[`LeadsWithRawResponse.re_enrich`][leadenrich._resources.leads.LeadsWithRawResponse.re_enrich], awaitable.

        Examples:
            >>> raw = await client.leads.with_raw_response.re_enrich("ld_123")  # doctest: +SKIP
            >>> raw.status_code, raw.parse()  # doctest: +SKIP
        """
        return await self._link.request_raw(
            per_call(_endpoints.re_enrich(lead_id), timeout, extra_headers, extra_query)
        )
