"""The methods of `client.leads` on stored leads: `list`, `iter`, `get`, `delete`, `re_enrich`."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING

from .. import _endpoints
from .._endpoints import Extras, make_extras, per_call, with_extras
from .._pagination import check_page_size, next_skip
from .._types import ExtraHeaders, ExtraQuery, RequestTimeout
from ._link import AsyncLink, Namespace, SyncLink

if TYPE_CHECKING:
    from .._models import LeadDeleted, LeadOut, LeadPage

__all__ = ["AsyncStoredLeads", "StoredLeads"]


class StoredLeads(Namespace[SyncLink]):
    """The methods of [`Leads`][leadenrich._resources.leads.Leads] on stored leads."""

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


class AsyncStoredLeads(Namespace[AsyncLink]):
    """The methods of [`AsyncLeads`][leadenrich._resources.leads.AsyncLeads] on stored leads."""

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
