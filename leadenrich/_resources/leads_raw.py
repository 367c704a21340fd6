"""`client.leads.with_raw_response`: the methods of `client.leads` that send one request,
returning the HTTP response."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import _endpoints
from .._endpoints import LeadLike, make_extras, per_call
from .._pagination import AsyncListing, SyncListing
from .._response import APIResponse
from .._types import ExtraHeaders, ExtraQuery, RequestTimeout
from ._link import AsyncNamespace, SyncNamespace

if TYPE_CHECKING:
    from .._models import EnrichJobCreated, LeadDeleted, LeadOut, LeadPage
    from .._models.pages import Awaited

__all__ = ["AsyncLeadsWithRawResponse", "LeadsWithRawResponse"]


class LeadsWithRawResponse(SyncNamespace, spans="leads.with_raw_response"):
    """`client.leads.with_raw_response`: each call returns an [`APIResponse`][leadenrich.APIResponse].

    Examples:
        >>> raw = client.leads.with_raw_response.get("ld_123")
        >>> raw.headers.get("retry-after"), raw.retries_taken
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
        """[`Leads.enrich`][leadenrich.Leads.enrich], with the HTTP response.

        Examples:
            >>> raw = client.leads.with_raw_response.enrich({"company": "Acme", "domain": "acme.com"})
            >>> raw.status_code, raw.parse()
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
        """[`Leads.enrich_sync`][leadenrich.Leads.enrich_sync], with the HTTP response.

        Examples:
            >>> raw = client.leads.with_raw_response.enrich_sync({"company": "Acme", "domain": "acme.com"})
            >>> raw.status_code, raw.parse()
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
        """[`Leads.list`][leadenrich.Leads.list], with the HTTP response.

        Examples:
            >>> raw = client.leads.with_raw_response.list(limit=20)
            >>> raw.status_code, raw.parse()
        """
        listing = SyncListing(limit, skip, make_extras(timeout, extra_headers, extra_query), self._link)
        return self._link.request_raw(listing.call())

    def get(
        self,
        lead_id: str,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> APIResponse[LeadOut]:
        """[`Leads.get`][leadenrich.Leads.get], with the HTTP response.

        Examples:
            >>> raw = client.leads.with_raw_response.get("ld_123")
            >>> raw.status_code, raw.parse()
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
        """[`Leads.delete`][leadenrich.Leads.delete], with the HTTP response.

        Examples:
            >>> raw = client.leads.with_raw_response.delete("ld_123")
            >>> raw.status_code, raw.parse()
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
        """[`Leads.re_enrich`][leadenrich.Leads.re_enrich], with the HTTP response.

        Examples:
            >>> raw = client.leads.with_raw_response.re_enrich("ld_123")
            >>> raw.status_code, raw.parse()
        """
        return self._link.request_raw(
            per_call(_endpoints.re_enrich(lead_id), timeout, extra_headers, extra_query)
        )


class AsyncLeadsWithRawResponse(AsyncNamespace, spans="leads.with_raw_response"):
    """`client.leads.with_raw_response` of the async client: each call returns an [`APIResponse`][leadenrich.APIResponse].

    Examples:
        >>> raw = await client.leads.with_raw_response.get("ld_123")
        >>> raw.headers.get("retry-after"), raw.retries_taken
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
        """[`LeadsWithRawResponse.enrich`][leadenrich._resources.leads_raw.LeadsWithRawResponse.enrich], awaitable.

        Examples:
            >>> raw = await client.leads.with_raw_response.enrich({"company": "Acme", "domain": "acme.com"})
            >>> raw.status_code, raw.parse()
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
        """[`LeadsWithRawResponse.enrich_sync`][leadenrich._resources.leads_raw.LeadsWithRawResponse.enrich_sync], awaitable.

        Examples:
            >>> raw = await client.leads.with_raw_response.enrich_sync({"company": "Acme", "domain": "acme.com"})
            >>> raw.status_code, raw.parse()
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
    ) -> APIResponse[LeadPage[Awaited]]:
        """[`LeadsWithRawResponse.list`][leadenrich._resources.leads_raw.LeadsWithRawResponse.list], awaitable.

        Examples:
            >>> raw = await client.leads.with_raw_response.list(limit=20)
            >>> raw.status_code, raw.parse()
        """
        listing = AsyncListing(limit, skip, make_extras(timeout, extra_headers, extra_query), self._link)
        return await self._link.request_raw(listing.call())

    async def get(
        self,
        lead_id: str,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> APIResponse[LeadOut]:
        """[`LeadsWithRawResponse.get`][leadenrich._resources.leads_raw.LeadsWithRawResponse.get], awaitable.

        Examples:
            >>> raw = await client.leads.with_raw_response.get("ld_123")
            >>> raw.status_code, raw.parse()
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
        """[`LeadsWithRawResponse.delete`][leadenrich._resources.leads_raw.LeadsWithRawResponse.delete], awaitable.

        Examples:
            >>> raw = await client.leads.with_raw_response.delete("ld_123")
            >>> raw.status_code, raw.parse()
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
        """[`LeadsWithRawResponse.re_enrich`][leadenrich._resources.leads_raw.LeadsWithRawResponse.re_enrich], awaitable.

        Examples:
            >>> raw = await client.leads.with_raw_response.re_enrich("ld_123")
            >>> raw.status_code, raw.parse()
        """
        return await self._link.request_raw(
            per_call(_endpoints.re_enrich(lead_id), timeout, extra_headers, extra_query)
        )
