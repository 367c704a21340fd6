"""The methods of `client.leads` on stored leads: `list`, `iter`, `get`, `delete`, `re_enrich`."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING

from .. import _endpoints
from .._endpoints import make_extras, per_call
from .._pagination import AsyncListing, SyncListing, check_page_size
from .._types import ExtraHeaders, ExtraQuery, RequestTimeout
from ._link import AsyncNamespace, SyncNamespace

if TYPE_CHECKING:
    from .._models import LeadDeleted, LeadOut, LeadPage
    from .._models.pages import Awaited

__all__ = ["AsyncStoredLeads", "StoredLeads"]


class StoredLeads(SyncNamespace, spans="leads"):
    """The methods of [`Leads`][leadenrich.Leads] on stored leads."""

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

        The page goes on to the next ones: `page.has_next_page()`, `page.next_page()`,
        `page.iter_pages()`.

        Examples:
            >>> page = client.leads.list(limit=20, skip=40)
            >>> for lead in page:
            ...     print(lead.id, lead.input.company)
        """
        listing = SyncListing(limit, skip, make_extras(timeout, extra_headers, extra_query), self._link)
        return self._link.request(listing.call())

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
            >>> for lead in client.leads.iter():
            ...     print(lead.id)
        """
        extras = make_extras(timeout, extra_headers, extra_query)
        return SyncListing(check_page_size(page_size), 0, extras, self._link).leads()

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
            >>> client.leads.get("ld_123").input.company
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
            >>> client.leads.delete("ld_123").id
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
            >>> client.leads.re_enrich("ld_123").enrichment.opportunity_score
            64
        """
        return self._link.request(
            per_call(_endpoints.re_enrich(lead_id), timeout, extra_headers, extra_query)
        )


class AsyncStoredLeads(AsyncNamespace, spans="leads"):
    """The methods of [`AsyncLeads`][leadenrich.AsyncLeads] on stored leads."""

    async def list(
        self,
        *,
        limit: int = 50,
        skip: int = 0,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> LeadPage[Awaited]:
        """[`Leads.list`][leadenrich.Leads.list], awaitable; so are the
        page's `next_page()`, and its `iter_pages()` is an async iterator.

        Examples:
            >>> page = await client.leads.list(limit=20)
            >>> while page.has_next_page():
            ...     page = await page.next_page()
        """
        listing = AsyncListing(limit, skip, make_extras(timeout, extra_headers, extra_query), self._link)
        return await self._link.request(listing.call())

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
            >>> async for lead in client.leads.iter():
            ...     print(lead.id)
        """
        extras = make_extras(timeout, extra_headers, extra_query)
        return AsyncListing(check_page_size(page_size), 0, extras, self._link).leads()

    async def get(
        self,
        lead_id: str,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> LeadOut:
        """[`Leads.get`][leadenrich.Leads.get], awaitable.

        Examples:
            >>> lead = await client.leads.get("ld_123")
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
        """[`Leads.delete`][leadenrich.Leads.delete], awaitable.

        Examples:
            >>> deleted = await client.leads.delete("ld_123")
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
        """[`Leads.re_enrich`][leadenrich.Leads.re_enrich], awaitable.

        Examples:
            >>> lead = await client.leads.re_enrich("ld_123")
        """
        return await self._link.request(
            per_call(_endpoints.re_enrich(lead_id), timeout, extra_headers, extra_query)
        )
