"""client.leads: enrich, list, fetch, delete and re-enrich leads."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Mapping
from contextlib import AsyncExitStack, ExitStack
from dataclasses import replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from .. import _endpoints, _lazy_models
from .._bulk.iteration import AsyncBulkIterator, AsyncOpenIterations, OpenIterations
from .._bulk.preview import DEFAULT_MAX_STORED, BulkPreview, Draft, MaxCredits, credits_left
from .._bulk.progress import ProgressOption
from .._bulk.queue_ahead import QueueAhead
from .._bulk.results import BulkOutcome, BulkResult
from .._bulk.runner import AsyncService, Service, Strategy, aiterate, iterate, prepare
from .._bulk.scan_progress import ScanProgress, scan_reporter
from .._clock import ServiceClock
from .._endpoints import Call, Extras, LeadLike, make_extras, per_call, with_extras
from .._errors import RateLimitError
from .._pagination import check_page_size, next_skip
from .._polling import DEFAULT_JOB_TIMEOUT, Deadline, JobDurations, Waiter, async_wait, lead_of, wait
from .._response import APIResponse
from .._types import DataFrameLike, ExtraHeaders, ExtraQuery, RequestTimeout
from ._protocols import AsyncRawSend, AsyncSend, AsyncSlot, SyncRawSend, SyncSend, SyncSlot

if TYPE_CHECKING:
    from .._models import EnrichJobCreated, JobOut, LeadDeleted, LeadIn, LeadOut, LeadPage

__all__ = ["AsyncLeads", "AsyncLeadsWithRawResponse", "Leads", "LeadsWithRawResponse"]

BulkInput = Iterable[LeadLike | Mapping[str, Any]] | DataFrameLike
"""LeadIn objects, dicts of its fields (rows read from a file are any mapping), or a DataFrame."""


class Leads:
    """Enrich and manage leads: `client.leads`.

    Examples:
        >>> lead = client.leads.enrich_sync({"company": "Acme", "domain": "acme.com"})  # doctest: +SKIP
        >>> client.leads.get(lead.id).input.company  # doctest: +SKIP
        'Acme'
    """

    def __init__(
        self,
        send: SyncSend,
        raw: SyncRawSend,
        slot: SyncSlot,
        durations: JobDurations,
        clock: ServiceClock,
        iterations: OpenIterations | None = None,
        slots: int | None = None,
    ) -> None:
        """`slots`: how many enrichments `slot` lets run at once (None: no limit)."""
        self._send = send
        self._raw = raw
        self._slot = slot
        self._durations = durations
        self._clock = clock
        self._iterations = iterations if iterations is not None else OpenIterations()
        self._slots = slots

    @cached_property
    def with_raw_response(self) -> LeadsWithRawResponse:
        """The same methods, returning the HTTP response: `client.leads.with_raw_response.get(lead_id)`.

        Every method that sends one request is there; `enrich_and_wait`, `iter` and the
        bulk methods send many, and are not.
        """
        return LeadsWithRawResponse(self._raw)

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
        created = self._send(
            per_call(_endpoints.enrich(lead, callback_url), timeout, extra_headers, extra_query)
        )
        self._durations.created(created.job_id, self._clock.now())
        return created

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
        return self._send(per_call(_endpoints.enrich_sync(lead), timeout, extra_headers, extra_query))

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
            lead,
            timeout,
            poll_interval,
            on_progress,
            None,
            extra_headers=extra_headers,
            extra_query=extra_query,
        )

    def _enrich_and_wait(
        self,
        lead: LeadLike,
        timeout: float,
        poll_interval: float | None,
        on_progress: Callable[[JobOut], object] | None,
        on_created: Callable[[str], None] | None,
        *,
        ahead: QueueAhead | None = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> LeadOut:
        waiter: Waiter[JobOut] = Waiter(
            "enrichment job", Deadline(timeout, self._clock), poll_interval, on_progress
        )
        call = per_call(_endpoints.enrich(lead), None, extra_headers, extra_query)
        with ExitStack() as slot:
            created = self._create_ahead(call, waiter, on_created, ahead, slot) if ahead else None
            started = self._clock.now() if created is not None else None
            if created is None:
                slot.enter_context(self._slot(waiter.deadline))
                created = self._create(call, waiter, on_created)
            waiter.follow(self._durations, created.job_id, started)
            self._clock.sleep(waiter.next_delay())
            poll = per_call(_endpoints.get_job(created.job_id), None, extra_headers, extra_query)
            job = wait(lambda deadline: self._send(poll, deadline), waiter)
        return lead_of(job)

    def _create(
        self, call: Call[EnrichJobCreated], waiter: Waiter[JobOut], on_created: Callable[[str], None] | None
    ) -> EnrichJobCreated:
        with waiter.sending():
            created = self._send(call, waiter.deadline)
        # From here on a timeout carries the job: it goes on, and was paid for.
        waiter.created(
            f"enrichment job {created.job_id}",
            _lazy_models.JobOut(job_id=created.job_id, status=created.status),
        )
        self._durations.created(created.job_id, self._clock.now())
        if on_created is not None:
            on_created(created.job_id)
        return created

    def _create_ahead(
        self,
        call: Call[EnrichJobCreated],
        waiter: Waiter[JobOut],
        on_created: Callable[[str], None] | None,
        ahead: QueueAhead,
        slot: ExitStack,
    ) -> EnrichJobCreated | None:
        """Create the job before one of the client's slots is free, then wait for one
        (queue_ahead.py); None, nothing created, when the service does not queue jobs."""
        with ahead.place() as placed:
            if not placed:
                return None
            try:
                created = self._create(replace(call, retry_upstream_full=False), waiter, on_created)
            except RateLimitError as exc:
                if not exc.upstream_full:
                    raise
                ahead.refuse()
                return None
            # Without a deadline: the job exists, and a slot frees as the jobs before it end.
            slot.enter_context(self._slot(None))
        return created

    def _wait_job(self, job_id: str, poll_interval: float | None) -> JobOut:
        waiter: Waiter[JobOut] = Waiter(
            f"enrichment job {job_id}", Deadline(DEFAULT_JOB_TIMEOUT, self._clock), poll_interval, None
        )
        poll = _endpoints.get_job(job_id)
        return wait(lambda deadline: self._send(poll, deadline), waiter)

    def enrich_iter(
        self,
        leads: BulkInput,
        *,
        concurrency: int = 5,
        max_credits: MaxCredits = None,
        checkpoint: str | os.PathLike[str] | None = None,
        progress: ProgressOption = None,
        poll_interval: float | None = None,
        strategy: Strategy = "sync",
    ) -> Iterator[BulkOutcome]:
        """Enrich many leads, yielding each lead's outcome as it completes.

        Takes the same arguments as [`enrich_many`][leadenrich._resources.leads.Leads.enrich_many].
        Stopping the iteration early lets the leads already started finish (they are paid
        for) and writes them to the checkpoint.

        Examples:
            >>> for outcome in client.leads.enrich_iter(rows, checkpoint="run.jsonl"):  # doctest: +SKIP
            ...     print(outcome.index, outcome.status)
        """
        batch = prepare(
            leads,
            concurrency=concurrency,
            max_credits=max_credits,
            checkpoint=checkpoint,
            progress=progress,
            strategy=strategy,
            poll_interval=poll_interval,
            client_slots=self._slots,
        )

        def enrich(lead: LeadIn, on_created: Callable[[str], None]) -> LeadOut:
            if strategy == "async":
                return self._enrich_and_wait(
                    lead, DEFAULT_JOB_TIMEOUT, poll_interval, None, on_created, ahead=batch.ahead
                )
            return self.enrich_sync(lead)

        service = Service(
            enrich=enrich,
            poll=lambda job_id: self._wait_job(job_id, poll_interval),
            page=lambda limit, skip: self.list(limit=limit, skip=skip),
            credits_left=lambda: credits_left(self._send(_endpoints.usage())),
            clock=self._clock,
        )
        return self._iterations.track(iterate(batch, service))

    def enrich_many(
        self,
        leads: BulkInput,
        *,
        concurrency: int = 5,
        max_credits: MaxCredits = None,
        checkpoint: str | os.PathLike[str] | None = None,
        progress: ProgressOption = None,
        poll_interval: float | None = None,
        strategy: Strategy = "sync",
    ) -> BulkResult:
        """Enrich many leads at once, as fast as the platform's limits allow.

        One lead's failure never stops the others; every lead gets an outcome. 429s are
        waited out (they are never charged), and a lead whose answer was lost is looked up
        among the account's stored leads, once the service must be done with it, before
        it is called failed. Identical rows are one lead: enriched once, and every copy
        gets its outcome (`duplicate_of`).

        Args:
            leads: LeadIn objects, dicts of LeadIn fields, or a pandas DataFrame whose
                columns include `company` and `domain` (other columns are ignored).
            concurrency: Leads enriched at once. The platform runs 5 enrichments at a
                time, so more than 5 only queues (see `RateLimits.concurrent_enrichments`).
                With 5 or more, the `async` strategy also keeps two jobs queued at the
                service, which start the moment a slot frees.
            max_credits: Start no new enrichment once this many credits could be spent;
                the leads left are reported as `skipped`. `"auto"` reads what the account
                has left from `usage()` when the run starts and stops there, so a run
                never ends in a wall of 402s ([`preview_many`][leadenrich._resources.leads.Leads.preview_many]
                tells beforehand how many leads that covers).
            checkpoint: A JSONL file. Every fact about a lead is appended as it is
                learnt (started, its job id, its answer lost, finished), and a rerun with
                the same file skips the leads already enriched, polls the jobs it knows
                and looks up the leads whose answer was lost, so a crash or Ctrl-C loses
                nothing that was paid for and charges nothing twice.
            progress: None shows a progress bar (tqdm) when interactive; True always,
                False never; or a callable that receives each BulkOutcome.
            poll_interval: The first polling interval of the `async` strategy.
            strategy: `sync` (default: one blocking request per lead) or `async`
                (create a job, then poll it).

        Examples:
            >>> result = client.leads.enrich_many(  # doctest: +SKIP
            ...     [{"company": "Acme", "domain": "acme.com"}, {"company": "Globex", "domain": "globex.com"}],
            ...     checkpoint="leads.jsonl",
            ... )
            >>> result.succeeded, result.credits_spent  # doctest: +SKIP
            (2, 2)
        """
        return BulkResult(
            list(
                self.enrich_iter(
                    leads,
                    concurrency=concurrency,
                    max_credits=max_credits,
                    checkpoint=checkpoint,
                    progress=progress,
                    poll_interval=poll_interval,
                    strategy=strategy,
                )
            )
        )

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
        draft = Draft.read(leads, checkpoint, max_stored)
        usage = self._send(_endpoints.usage())
        scan = draft.scan()
        if (call := scan.next_call()) is not None:
            shown = scan_reporter(progress)
            try:
                while call is not None:
                    shown.update(scan.take(self._send(call)))
                    call = scan.next_call()
            finally:
                shown.close()
        return draft.result(usage, scan)

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
        return self._send(per_call(_endpoints.list_leads(limit, skip), timeout, extra_headers, extra_query))

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
            page = self._send(with_extras(_endpoints.list_leads(size, skip), extras))
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
        return self._send(per_call(_endpoints.get_lead(lead_id), timeout, extra_headers, extra_query))

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
        return self._send(per_call(_endpoints.delete_lead(lead_id), timeout, extra_headers, extra_query))

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
        return self._send(per_call(_endpoints.re_enrich(lead_id), timeout, extra_headers, extra_query))


class LeadsWithRawResponse:
    """`client.leads.with_raw_response`: each call returns an [`APIResponse`][leadenrich.APIResponse].

    Examples:
        >>> raw = client.leads.with_raw_response.get("ld_123")  # doctest: +SKIP
        >>> raw.headers.get("retry-after"), raw.retries_taken  # doctest: +SKIP
    """

    def __init__(self, raw: SyncRawSend) -> None:
        self._raw = raw

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
        return self._raw(per_call(_endpoints.enrich(lead, callback_url), timeout, extra_headers, extra_query))

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
        return self._raw(per_call(_endpoints.enrich_sync(lead), timeout, extra_headers, extra_query))

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
        return self._raw(per_call(_endpoints.list_leads(limit, skip), timeout, extra_headers, extra_query))

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
        return self._raw(per_call(_endpoints.get_lead(lead_id), timeout, extra_headers, extra_query))

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
        return self._raw(per_call(_endpoints.delete_lead(lead_id), timeout, extra_headers, extra_query))

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
        return self._raw(per_call(_endpoints.re_enrich(lead_id), timeout, extra_headers, extra_query))


class AsyncLeads:
    """Enrich and manage leads: `client.leads` of the async client.

    Examples:
        >>> lead = await client.leads.enrich_sync({"company": "Acme", "domain": "acme.com"})  # doctest: +SKIP
    """

    def __init__(
        self,
        send: AsyncSend,
        raw: AsyncRawSend,
        slot: AsyncSlot,
        durations: JobDurations,
        clock: ServiceClock,
        iterations: AsyncOpenIterations | None = None,
        slots: int | None = None,
    ) -> None:
        """`slots`: how many enrichments `slot` lets run at once (None: no limit)."""
        self._send = send
        self._raw = raw
        self._slot = slot
        self._durations = durations
        self._clock = clock
        self._iterations = iterations if iterations is not None else AsyncOpenIterations()
        self._slots = slots

    @cached_property
    def with_raw_response(self) -> AsyncLeadsWithRawResponse:
        """The same methods, returning the HTTP response: `client.leads.with_raw_response.get(lead_id)`.

        Every method that sends one request is there; `enrich_and_wait`, `iter` and the
        bulk methods send many, and are not.
        """
        return AsyncLeadsWithRawResponse(self._raw)

    async def enrich(
        self,
        lead: LeadLike,
        *,
        callback_url: str | None = None,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> EnrichJobCreated:
        """Start an asynchronous enrichment; see [`Leads.enrich`][leadenrich._resources.leads.Leads.enrich].

        Examples:
            >>> job = await client.leads.enrich({"company": "Acme", "domain": "acme.com"})  # doctest: +SKIP
        """
        created = await self._send(
            per_call(_endpoints.enrich(lead, callback_url), timeout, extra_headers, extra_query)
        )
        self._durations.created(created.job_id, self._clock.now())
        return created

    async def enrich_sync(
        self,
        lead: LeadLike,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> LeadOut:
        """Enrich a lead in one request; see [`Leads.enrich_sync`][leadenrich._resources.leads.Leads.enrich_sync].

        Examples:
            >>> lead = await client.leads.enrich_sync({"company": "Acme", "domain": "acme.com"})  # doctest: +SKIP
        """
        return await self._send(per_call(_endpoints.enrich_sync(lead), timeout, extra_headers, extra_query))

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
        """Start an enrichment and poll it to the end; see [`Leads.enrich_and_wait`][leadenrich._resources.leads.Leads.enrich_and_wait].

        Examples:
            >>> lead = await client.leads.enrich_and_wait({"company": "Acme", "domain": "acme.com"})  # doctest: +SKIP
        """
        return await self._enrich_and_wait(
            lead,
            timeout,
            poll_interval,
            on_progress,
            None,
            extra_headers=extra_headers,
            extra_query=extra_query,
        )

    async def _enrich_and_wait(
        self,
        lead: LeadLike,
        timeout: float,
        poll_interval: float | None,
        on_progress: Callable[[JobOut], object] | None,
        on_created: Callable[[str], Awaitable[None]] | None,
        *,
        ahead: QueueAhead | None = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> LeadOut:
        waiter: Waiter[JobOut] = Waiter(
            "enrichment job", Deadline(timeout, self._clock), poll_interval, on_progress
        )
        call = per_call(_endpoints.enrich(lead), None, extra_headers, extra_query)
        async with AsyncExitStack() as slot:
            created = await self._create_ahead(call, waiter, on_created, ahead, slot) if ahead else None
            started = self._clock.now() if created is not None else None
            if created is None:
                await slot.enter_async_context(self._slot(waiter.deadline))
                created = await self._create(call, waiter, on_created)
            waiter.follow(self._durations, created.job_id, started)
            await self._clock.asleep(waiter.next_delay())
            poll = per_call(_endpoints.get_job(created.job_id), None, extra_headers, extra_query)
            job = await async_wait(lambda deadline: self._send(poll, deadline), waiter)
        return lead_of(job)

    async def _create(
        self,
        call: Call[EnrichJobCreated],
        waiter: Waiter[JobOut],
        on_created: Callable[[str], Awaitable[None]] | None,
    ) -> EnrichJobCreated:
        with waiter.sending():
            created = await self._send(call, waiter.deadline)
        # From here on a timeout carries the job: it goes on, and was paid for.
        waiter.created(
            f"enrichment job {created.job_id}",
            _lazy_models.JobOut(job_id=created.job_id, status=created.status),
        )
        self._durations.created(created.job_id, self._clock.now())
        if on_created is not None:
            await on_created(created.job_id)
        return created

    async def _create_ahead(
        self,
        call: Call[EnrichJobCreated],
        waiter: Waiter[JobOut],
        on_created: Callable[[str], Awaitable[None]] | None,
        ahead: QueueAhead,
        slot: AsyncExitStack,
    ) -> EnrichJobCreated | None:
        """See [`Leads._create_ahead`][leadenrich._resources.leads.Leads._create_ahead]."""
        async with ahead.aplace() as placed:
            if not placed:
                return None
            try:
                created = await self._create(replace(call, retry_upstream_full=False), waiter, on_created)
            except RateLimitError as exc:
                if not exc.upstream_full:
                    raise
                ahead.refuse()
                return None
            await slot.enter_async_context(self._slot(None))
        return created

    async def _wait_job(self, job_id: str, poll_interval: float | None) -> JobOut:
        waiter: Waiter[JobOut] = Waiter(
            f"enrichment job {job_id}", Deadline(DEFAULT_JOB_TIMEOUT, self._clock), poll_interval, None
        )
        poll = _endpoints.get_job(job_id)
        return await async_wait(lambda deadline: self._send(poll, deadline), waiter)

    def enrich_iter(
        self,
        leads: BulkInput,
        *,
        concurrency: int = 5,
        max_credits: MaxCredits = None,
        checkpoint: str | os.PathLike[str] | None = None,
        progress: ProgressOption = None,
        poll_interval: float | None = None,
        strategy: Strategy = "sync",
    ) -> AsyncBulkIterator:
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
        batch = prepare(
            leads,
            concurrency=concurrency,
            max_credits=max_credits,
            checkpoint=checkpoint,
            progress=progress,
            strategy=strategy,
            poll_interval=poll_interval,
            client_slots=self._slots,
        )

        async def enrich(lead: LeadIn, on_created: Callable[[str], Awaitable[None]]) -> LeadOut:
            if strategy == "async":
                return await self._enrich_and_wait(
                    lead, DEFAULT_JOB_TIMEOUT, poll_interval, None, on_created, ahead=batch.ahead
                )
            return await self.enrich_sync(lead)

        async def left() -> int | None:
            return credits_left(await self._send(_endpoints.usage()))

        service = AsyncService(
            enrich=enrich,
            poll=lambda job_id: self._wait_job(job_id, poll_interval),
            page=lambda limit, skip: self.list(limit=limit, skip=skip),
            credits_left=left,
            clock=self._clock,
        )
        return AsyncBulkIterator(aiterate(batch, service), self._iterations)

    async def enrich_many(
        self,
        leads: BulkInput,
        *,
        concurrency: int = 5,
        max_credits: MaxCredits = None,
        checkpoint: str | os.PathLike[str] | None = None,
        progress: ProgressOption = None,
        poll_interval: float | None = None,
        strategy: Strategy = "sync",
    ) -> BulkResult:
        """Enrich many leads at once; see [`Leads.enrich_many`][leadenrich._resources.leads.Leads.enrich_many].

        Works with a plain `await` in a Jupyter notebook.

        Examples:
            >>> result = await client.leads.enrich_many(rows, checkpoint="leads.jsonl")  # doctest: +SKIP
        """
        outcomes = self.enrich_iter(
            leads,
            concurrency=concurrency,
            max_credits=max_credits,
            checkpoint=checkpoint,
            progress=progress,
            poll_interval=poll_interval,
            strategy=strategy,
        )
        return BulkResult([outcome async for outcome in outcomes])

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
        draft = Draft.read(leads, checkpoint, max_stored)
        usage = await self._send(_endpoints.usage())
        scan = draft.scan()
        if (call := scan.next_call()) is not None:
            shown = scan_reporter(progress)
            try:
                while call is not None:
                    shown.update(scan.take(await self._send(call)))
                    call = scan.next_call()
            finally:
                shown.close()
        return draft.result(usage, scan)

    async def list(
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
            >>> page = await client.leads.list(limit=20)  # doctest: +SKIP
        """
        return await self._send(
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
            page = await self._send(with_extras(_endpoints.list_leads(size, skip), extras))
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
        """A stored lead by id.

        Examples:
            >>> lead = await client.leads.get("ld_123")  # doctest: +SKIP
        """
        return await self._send(per_call(_endpoints.get_lead(lead_id), timeout, extra_headers, extra_query))

    async def delete(
        self,
        lead_id: str,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> LeadDeleted:
        """Delete a stored lead.

        Examples:
            >>> await client.leads.delete("ld_123")  # doctest: +SKIP
        """
        return await self._send(
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
        """Enrich a stored lead again (an enrichment run).

        Examples:
            >>> lead = await client.leads.re_enrich("ld_123")  # doctest: +SKIP
        """
        return await self._send(per_call(_endpoints.re_enrich(lead_id), timeout, extra_headers, extra_query))


class AsyncLeadsWithRawResponse:
    """`client.leads.with_raw_response` of the async client: each call returns an [`APIResponse`][leadenrich.APIResponse].

    Examples:
        >>> raw = await client.leads.with_raw_response.get("ld_123")  # doctest: +SKIP
        >>> raw.headers.get("retry-after"), raw.retries_taken  # doctest: +SKIP
    """

    def __init__(self, raw: AsyncRawSend) -> None:
        self._raw = raw

    async def enrich(
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
            >>> raw = await client.leads.with_raw_response.enrich({"company": "Acme", "domain": "acme.com"})  # doctest: +SKIP
            >>> raw.status_code, raw.parse()  # doctest: +SKIP
        """
        return await self._raw(
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
        """[`Leads.enrich_sync`][leadenrich._resources.leads.Leads.enrich_sync], with the HTTP response.

        Examples:
            >>> raw = await client.leads.with_raw_response.enrich_sync({"company": "Acme", "domain": "acme.com"})  # doctest: +SKIP
            >>> raw.status_code, raw.parse()  # doctest: +SKIP
        """
        return await self._raw(per_call(_endpoints.enrich_sync(lead), timeout, extra_headers, extra_query))

    async def list(
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
            >>> raw = await client.leads.with_raw_response.list(limit=20)  # doctest: +SKIP
            >>> raw.status_code, raw.parse()  # doctest: +SKIP
        """
        return await self._raw(
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
        """[`Leads.get`][leadenrich._resources.leads.Leads.get], with the HTTP response.

        Examples:
            >>> raw = await client.leads.with_raw_response.get("ld_123")  # doctest: +SKIP
            >>> raw.status_code, raw.parse()  # doctest: +SKIP
        """
        return await self._raw(per_call(_endpoints.get_lead(lead_id), timeout, extra_headers, extra_query))

    async def delete(
        self,
        lead_id: str,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> APIResponse[LeadDeleted]:
        """[`Leads.delete`][leadenrich._resources.leads.Leads.delete], with the HTTP response.

        Examples:
            >>> raw = await client.leads.with_raw_response.delete("ld_123")  # doctest: +SKIP
            >>> raw.status_code, raw.parse()  # doctest: +SKIP
        """
        return await self._raw(per_call(_endpoints.delete_lead(lead_id), timeout, extra_headers, extra_query))

    async def re_enrich(
        self,
        lead_id: str,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> APIResponse[LeadOut]:
        """[`Leads.re_enrich`][leadenrich._resources.leads.Leads.re_enrich], with the HTTP response.

        Examples:
            >>> raw = await client.leads.with_raw_response.re_enrich("ld_123")  # doctest: +SKIP
            >>> raw.status_code, raw.parse()  # doctest: +SKIP
        """
        return await self._raw(per_call(_endpoints.re_enrich(lead_id), timeout, extra_headers, extra_query))
