"""LeadEnrich and AsyncLeadEnrich: the two clients, wiring resources to the request path."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from . import _endpoints
from ._base_client import AsyncAPIClient, SyncAPIClient
from ._bulk.iteration import AsyncOpenIterations, OpenIterations
from ._endpoints import per_call
from ._resources._link import AsyncLink, AsyncNamespace, SyncLink, SyncNamespace
from ._resources.email import AsyncEmail, AsyncEmailWithRawResponse, Email, EmailWithRawResponse
from ._resources.jobs import AsyncJobs, AsyncJobsWithRawResponse, Jobs, JobsWithRawResponse
from ._resources.leads import AsyncLeads, AsyncLeadsWithRawResponse, Leads, LeadsWithRawResponse
from ._resources.mobile import AsyncMobile, AsyncMobileWithRawResponse, Mobile, MobileWithRawResponse
from ._response import APIResponse
from ._telemetry import instrument
from ._types import ExtraHeaders, ExtraQuery, RequestTimeout

if TYPE_CHECKING:
    from ._models import Health, UsageOut

__all__ = ["AsyncLeadEnrich", "AsyncLeadEnrichWithRawResponse", "LeadEnrich", "LeadEnrichWithRawResponse"]


class LeadEnrich(SyncAPIClient):
    """The blocking client.

    Args:
        api_key: Your API key; falls back to `$LEADENRICH_API_KEY`.
        base_url: The service's address; falls back to `$LEADENRICH_BASE_URL`. The
            `/api/v1` prefix is added for you.
        timeout: Seconds (or an `httpx.Timeout`) for every call; `enrich_sync` and
            `re_enrich` always allow at least 100 s to read the answer.
        max_retries: Retries of retryable failures; 0 turns retrying off.
        http_client (httpx.Client | None): An `httpx.Client` to send through (its pool, proxies, certificates).
            The SDK never closes a client it was given.
        default_headers: Extra headers for every request.
        rate_limits: The per-key budget to pace requests to; None turns pacing off.
        max_retry_after: A 429 asking to wait longer than this many seconds is raised
            at once instead of waited out.
        upstream_full_retries: Retries of the platform's `upstream_full` 429, counted
            apart from `max_retries` because it is transient load.
        clock: The service's clock, which every wait of the SDK counts in (poll
            intervals, back-offs, Retry-After, pacing windows, wait deadlines). The
            default runs at the real service's speed; `FakeServer.client()` passes one
            scaled like the fake server, so tests run as fast as the fake.

    Examples:
        >>> from leadenrich import LeadEnrich
        >>> with LeadEnrich() as client:
        ...     lead = client.leads.enrich_sync({"company": "Acme", "domain": "acme.com"})
        ...     print(lead.enrichment.opportunity_score)
    """

    def _share(self) -> None:
        self._bulk_iterations = OpenIterations()

    @cached_property
    def leads(self) -> Leads:
        """Enrich, list, fetch, delete and re-enrich leads: `enrich`, `enrich_sync`, `enrich_and_wait`, `enrich_many`, `enrich_iter`, `preview_many`, `list`, `iter`, `get`, `delete`, `re_enrich`."""
        return Leads(self._link, self._bulk_iterations)

    @cached_property
    def jobs(self) -> Jobs:
        """Read and wait for asynchronous enrichment jobs: `get`, `wait`."""
        return Jobs(self._link)

    @cached_property
    def email(self) -> Email:
        """Find work emails: `find`."""
        return Email(self._link)

    @cached_property
    def mobile(self) -> Mobile:
        """Look up mobile numbers: `find`, `get`, `wait`, `find_and_wait`."""
        return Mobile(self._link)

    @cached_property
    def _link(self) -> SyncLink:
        return SyncLink(*self._link_state(), self._request, self._request_raw, self._enrichment_slot)

    @cached_property
    def with_raw_response(self) -> LeadEnrichWithRawResponse:
        """Every method that sends one request, returning an [`APIResponse`][leadenrich.APIResponse].

        `client.with_raw_response.usage()`, `client.leads.with_raw_response.get(lead_id)`
        (the same as `client.with_raw_response.leads.get(lead_id)`), and so on.
        """
        return LeadEnrichWithRawResponse(self._link, self.leads, self.jobs, self.email, self.mobile)

    def close(self) -> None:
        """Finish the bulk runs left open (their leads in flight are paid for), then close
        the connection pool (unless it was passed in as `http_client`).

        Examples:
            >>> client = LeadEnrich()
            >>> client.close()
        """
        self._bulk_iterations.close()
        super().close()

    def health(
        self,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> Health:
        """The liveness check; needs no key and spends nothing.

        Examples:
            >>> client.health().status
            'ok'
        """
        return self._request(per_call(_endpoints.health(), timeout, extra_headers, extra_query))

    def usage(
        self,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> UsageOut:
        """This month's quota, credit balances and request counts.

        Examples:
            >>> client.usage().monthly_leads.used
            12
        """
        return self._request(per_call(_endpoints.usage(), timeout, extra_headers, extra_query))


class AsyncLeadEnrich(AsyncAPIClient):
    """The asyncio client: the same arguments and methods as [`LeadEnrich`][leadenrich.LeadEnrich],
    the methods awaitable, and `http_client` an `httpx.AsyncClient`.

    Close it with `await client.aclose()` or `async with`; it is never closed from a
    finalizer, so no "event loop is closed" errors at exit. One client serves one
    `asyncio.run()` after another: each event loop gets a connection pool of its own,
    closed as the loop ends (a pool given as `http_client` is used as it is).

    Examples:
        >>> from leadenrich import AsyncLeadEnrich
        >>> async with AsyncLeadEnrich() as client:
        ...     job = await client.leads.enrich({"company": "Acme", "domain": "acme.com"})
    """

    def _share(self) -> None:
        super()._share()
        self._bulk_iterations = AsyncOpenIterations()

    @cached_property
    def leads(self) -> AsyncLeads:
        """Enrich, list, fetch, delete and re-enrich leads: `enrich`, `enrich_sync`, `enrich_and_wait`, `enrich_many`, `enrich_iter`, `preview_many`, `list`, `iter`, `get`, `delete`, `re_enrich`."""
        return AsyncLeads(self._link, self._bulk_iterations)

    @cached_property
    def jobs(self) -> AsyncJobs:
        """Read and wait for asynchronous enrichment jobs: `get`, `wait`."""
        return AsyncJobs(self._link)

    @cached_property
    def email(self) -> AsyncEmail:
        """Find work emails: `find`."""
        return AsyncEmail(self._link)

    @cached_property
    def mobile(self) -> AsyncMobile:
        """Look up mobile numbers: `find`, `get`, `wait`, `find_and_wait`."""
        return AsyncMobile(self._link)

    @cached_property
    def _link(self) -> AsyncLink:
        return AsyncLink(*self._link_state(), self._request, self._request_raw, self._enrichment_slot)

    @cached_property
    def with_raw_response(self) -> AsyncLeadEnrichWithRawResponse:
        """[`LeadEnrich.with_raw_response`][leadenrich.LeadEnrich.with_raw_response], awaitable."""
        return AsyncLeadEnrichWithRawResponse(self._link, self.leads, self.jobs, self.email, self.mobile)

    async def aclose(self) -> None:
        """Finish the bulk runs left open (a `break` out of `enrich_iter` leaves its leads
        in flight, paid for), then close the connection pool (unless it was passed in as
        `http_client`).

        Examples:
            >>> client = AsyncLeadEnrich()
            >>> await client.aclose()
        """
        await self._bulk_iterations.aclose()
        await super().aclose()

    async def health(
        self,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> Health:
        """[`LeadEnrich.health`][leadenrich.LeadEnrich.health], awaitable.

        Examples:
            >>> (await client.health()).status
            'ok'
        """
        return await self._request(per_call(_endpoints.health(), timeout, extra_headers, extra_query))

    async def usage(
        self,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> UsageOut:
        """[`LeadEnrich.usage`][leadenrich.LeadEnrich.usage], awaitable.

        Examples:
            >>> usage = await client.usage()
        """
        return await self._request(per_call(_endpoints.usage(), timeout, extra_headers, extra_query))


# The clients' own calls have spans named so; closing sends nothing.
instrument(LeadEnrich, "", only=("health", "usage"))
instrument(AsyncLeadEnrich, "", only=("health", "usage"))


class LeadEnrichWithRawResponse(SyncNamespace, spans="with_raw_response"):
    """`client.with_raw_response`: each call returns an [`APIResponse`][leadenrich.APIResponse].

    Examples:
        >>> raw = client.with_raw_response.usage()
        >>> raw.headers.get("retry-after"), raw.parse().monthly_leads.used
    """

    leads: LeadsWithRawResponse
    """`client.leads.with_raw_response`."""
    jobs: JobsWithRawResponse
    """`client.jobs.with_raw_response`."""
    email: EmailWithRawResponse
    """`client.email.with_raw_response`."""
    mobile: MobileWithRawResponse
    """`client.mobile.with_raw_response`."""

    def __init__(self, link: SyncLink, leads: Leads, jobs: Jobs, email: Email, mobile: Mobile) -> None:
        """Made by the client: reach it as `client.with_raw_response`."""
        super().__init__(link)
        self.leads = leads.with_raw_response
        self.jobs = jobs.with_raw_response
        self.email = email.with_raw_response
        self.mobile = mobile.with_raw_response

    def health(
        self,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> APIResponse[Health]:
        """[`health`][leadenrich.LeadEnrich.health], with the HTTP response.

        Examples:
            >>> raw = client.with_raw_response.health()
            >>> raw.status_code, raw.parse()
        """
        return self._link.request_raw(per_call(_endpoints.health(), timeout, extra_headers, extra_query))

    def usage(
        self,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> APIResponse[UsageOut]:
        """[`usage`][leadenrich.LeadEnrich.usage], with the HTTP response.

        Examples:
            >>> raw = client.with_raw_response.usage()
            >>> raw.status_code, raw.parse()
        """
        return self._link.request_raw(per_call(_endpoints.usage(), timeout, extra_headers, extra_query))


class AsyncLeadEnrichWithRawResponse(AsyncNamespace, spans="with_raw_response"):
    """`client.with_raw_response` of the async client: each call returns an [`APIResponse`][leadenrich.APIResponse].

    Examples:
        >>> raw = await client.with_raw_response.usage()
        >>> raw.headers.get("retry-after"), raw.parse().monthly_leads.used
    """

    leads: AsyncLeadsWithRawResponse
    """`client.leads.with_raw_response`."""
    jobs: AsyncJobsWithRawResponse
    """`client.jobs.with_raw_response`."""
    email: AsyncEmailWithRawResponse
    """`client.email.with_raw_response`."""
    mobile: AsyncMobileWithRawResponse
    """`client.mobile.with_raw_response`."""

    def __init__(
        self, link: AsyncLink, leads: AsyncLeads, jobs: AsyncJobs, email: AsyncEmail, mobile: AsyncMobile
    ) -> None:
        """Made by the client: reach it as `client.with_raw_response`."""
        super().__init__(link)
        self.leads = leads.with_raw_response
        self.jobs = jobs.with_raw_response
        self.email = email.with_raw_response
        self.mobile = mobile.with_raw_response

    async def health(
        self,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> APIResponse[Health]:
        """[`LeadEnrichWithRawResponse.health`][leadenrich._client.LeadEnrichWithRawResponse.health], awaitable.

        Examples:
            >>> raw = await client.with_raw_response.health()
            >>> raw.status_code, raw.parse()
        """
        return await self._link.request_raw(
            per_call(_endpoints.health(), timeout, extra_headers, extra_query)
        )

    async def usage(
        self,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> APIResponse[UsageOut]:
        """[`LeadEnrichWithRawResponse.usage`][leadenrich._client.LeadEnrichWithRawResponse.usage], awaitable.

        Examples:
            >>> raw = await client.with_raw_response.usage()
            >>> raw.status_code, raw.parse()
        """
        return await self._link.request_raw(per_call(_endpoints.usage(), timeout, extra_headers, extra_query))
