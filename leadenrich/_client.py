"""LeadEnrich and AsyncLeadEnrich: the two clients, wiring resources to the request path."""

from __future__ import annotations

from collections.abc import Mapping

import httpx

from . import _endpoints
from ._base_client import AsyncAPIClient, SyncAPIClient
from ._clock import ServiceClock
from ._config import (
    DEFAULT_MAX_RETRIES,
    DEFAULT_MAX_RETRY_AFTER,
    DEFAULT_TIMEOUT,
    DEFAULT_UPSTREAM_FULL_RETRIES,
)
from ._models import Health, UsageOut
from ._ratelimit import RateLimits
from ._resources.email import AsyncEmail, Email
from ._resources.jobs import AsyncJobs, Jobs
from ._resources.leads import AsyncLeads, Leads
from ._resources.mobile import AsyncMobile, Mobile

__all__ = ["AsyncLeadEnrich", "LeadEnrich"]

_DEFAULT_RATE_LIMITS = RateLimits()


class LeadEnrich(SyncAPIClient):
    """The blocking client.

    Args:
        api_key: Your API key; falls back to `$LEADENRICH_API_KEY`.
        base_url: The service's address; falls back to `$LEADENRICH_BASE_URL`. The
            `/api/v1` prefix is added for you.
        timeout: Seconds (or an `httpx.Timeout`) for every call; `enrich_sync` and
            `re_enrich` always allow at least 100 s to read the answer.
        max_retries: Retries of retryable failures; 0 turns retrying off.
        http_client: An `httpx.Client` to send through (its pool, proxies, certificates).
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
        >>> with LeadEnrich() as client:  # doctest: +SKIP
        ...     lead = client.leads.enrich_sync({"company": "Acme", "domain": "acme.com"})
        ...     print(lead.enrichment.opportunity_score)
    """

    leads: Leads
    """Enrich, list, fetch, delete and re-enrich leads."""
    jobs: Jobs
    """Asynchronous enrichment jobs."""
    email: Email
    """Work-email discovery."""
    mobile: Mobile
    """Mobile-number lookups."""

    def __init__(
        self,
        api_key: str | None = None,
        *,
        base_url: str | None = None,
        timeout: float | httpx.Timeout = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        http_client: httpx.Client | None = None,
        default_headers: Mapping[str, str] | None = None,
        rate_limits: RateLimits | None = _DEFAULT_RATE_LIMITS,
        max_retry_after: float = DEFAULT_MAX_RETRY_AFTER,
        upstream_full_retries: int = DEFAULT_UPSTREAM_FULL_RETRIES,
        clock: ServiceClock | None = None,
    ) -> None:
        self._configure(
            api_key,
            base_url,
            timeout,
            max_retries,
            default_headers,
            rate_limits,
            max_retry_after,
            upstream_full_retries,
            clock,
        )
        self._owns_http = http_client is None
        self._http = http_client if http_client is not None else httpx.Client()
        self._bind_resources()

    def _bind_resources(self) -> None:
        self.leads = Leads(self._request, self._enrichment_slot, self._durations, self._clock)
        self.jobs = Jobs(self._request, self._durations, self._clock)
        self.email = Email(self._request)
        self.mobile = Mobile(self._request, self._clock)

    def health(self) -> Health:
        """The liveness check; needs no key and spends nothing.

        Examples:
            >>> client.health().status  # doctest: +SKIP
            'ok'
        """
        return self._request(_endpoints.health())

    def usage(self) -> UsageOut:
        """This month's quota, credit balances and request counts.

        Examples:
            >>> client.usage().monthly_leads.used  # doctest: +SKIP
            12
        """
        return self._request(_endpoints.usage())


class AsyncLeadEnrich(AsyncAPIClient):
    """The asyncio client: the same methods as [`LeadEnrich`][leadenrich.LeadEnrich], awaitable.

    Close it with `await client.aclose()` or `async with`; it is never closed from a
    finalizer, so no "event loop is closed" errors at exit.

    Examples:
        >>> from leadenrich import AsyncLeadEnrich
        >>> async with AsyncLeadEnrich() as client:  # doctest: +SKIP
        ...     job = await client.leads.enrich({"company": "Acme", "domain": "acme.com"})
    """

    leads: AsyncLeads
    """Enrich, list, fetch, delete and re-enrich leads."""
    jobs: AsyncJobs
    """Asynchronous enrichment jobs."""
    email: AsyncEmail
    """Work-email discovery."""
    mobile: AsyncMobile
    """Mobile-number lookups."""

    def __init__(
        self,
        api_key: str | None = None,
        *,
        base_url: str | None = None,
        timeout: float | httpx.Timeout = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        http_client: httpx.AsyncClient | None = None,
        default_headers: Mapping[str, str] | None = None,
        rate_limits: RateLimits | None = _DEFAULT_RATE_LIMITS,
        max_retry_after: float = DEFAULT_MAX_RETRY_AFTER,
        upstream_full_retries: int = DEFAULT_UPSTREAM_FULL_RETRIES,
        clock: ServiceClock | None = None,
    ) -> None:
        self._configure(
            api_key,
            base_url,
            timeout,
            max_retries,
            default_headers,
            rate_limits,
            max_retry_after,
            upstream_full_retries,
            clock,
        )
        self._owns_http = http_client is None
        self._http = http_client if http_client is not None else httpx.AsyncClient()
        self._bind_resources()

    def _bind_resources(self) -> None:
        self.leads = AsyncLeads(self._request, self._enrichment_slot, self._durations, self._clock)
        self.jobs = AsyncJobs(self._request, self._durations, self._clock)
        self.email = AsyncEmail(self._request)
        self.mobile = AsyncMobile(self._request, self._clock)

    async def health(self) -> Health:
        """The liveness check; needs no key and spends nothing.

        Examples:
            >>> (await client.health()).status  # doctest: +SKIP
            'ok'
        """
        return await self._request(_endpoints.health())

    async def usage(self) -> UsageOut:
        """This month's quota, credit balances and request counts.

        Examples:
            >>> usage = await client.usage()  # doctest: +SKIP
        """
        return await self._request(_endpoints.usage())
