"""The enrichment methods of `client.leads`: `enrich`, `enrich_sync`, `enrich_and_wait`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .. import _endpoints
from .._clock import Deadline
from .._endpoints import LeadLike, per_call
from .._job_steps import OnCreated, enrich_and_wait
from .._polling import DEFAULT_JOB_TIMEOUT, Waiter
from .._steps import Steps
from .._types import ExtraHeaders, ExtraQuery, RequestTimeout
from ._link import AsyncNamespace, Link, SyncNamespace

if TYPE_CHECKING:
    from .._bulk.queue_ahead import QueueAhead
    from .._models import EnrichJobCreated, JobOut, LeadOut

__all__ = ["AsyncEnrichment", "Enrichment"]


class Enrichment(SyncNamespace, spans="leads"):
    """The enrichment methods of [`Leads`][leadenrich.Leads]."""

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
            >>> job = client.leads.enrich({"company": "Acme", "domain": "acme.com"})
            >>> client.jobs.get(job.job_id).status
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
            >>> lead = client.leads.enrich_sync({"company": "Acme", "domain": "acme.com"})
            >>> lead.enrichment.company_overview.industry
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
        job and the polling. The job is polled as
        [`Jobs.wait`][leadenrich.Jobs.wait] polls it: `poll_interval`
        apart from its creation on when given; else first a second after its creation (a
        deduped job is done at once), then by its age.

        Raises:
            JobFailedError: The job failed; `.job.error` says why.
            PollTimeoutError: The deadline passed; `.last` is the last JobOut seen (its
                job goes on, and `jobs.wait(.last.job_id)` picks it up again).

        Examples:
            >>> lead = client.leads.enrich_and_wait({"company": "Acme", "domain": "acme.com"})
            >>> lead.enrichment.tags
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


class AsyncEnrichment(AsyncNamespace, spans="leads"):
    """The enrichment methods of [`AsyncLeads`][leadenrich.AsyncLeads]."""

    async def enrich(
        self,
        lead: LeadLike,
        *,
        callback_url: str | None = None,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> EnrichJobCreated:
        """[`Leads.enrich`][leadenrich.Leads.enrich], awaitable.

        Examples:
            >>> job = await client.leads.enrich({"company": "Acme", "domain": "acme.com"})
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
        """[`Leads.enrich_sync`][leadenrich.Leads.enrich_sync], awaitable.

        Examples:
            >>> lead = await client.leads.enrich_sync({"company": "Acme", "domain": "acme.com"})
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
        """[`Leads.enrich_and_wait`][leadenrich.Leads.enrich_and_wait], awaitable;
        cancelling the awaiting task stops the polling at once.

        Examples:
            >>> lead = await client.leads.enrich_and_wait({"company": "Acme", "domain": "acme.com"})
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
