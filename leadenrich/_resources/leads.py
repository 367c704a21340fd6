"""client.leads: enrich, list, fetch, delete and re-enrich leads, one at a time or in bulk.

Each subject's methods are written in a module of their own (`enrichment.py`,
`stored_leads.py`, `bulk_leads.py`, `leads_raw.py`); the namespaces here put them together.
"""

from __future__ import annotations

from functools import cached_property

from .._bulk.iteration import AsyncOpenIterations, OpenIterations
from ._link import AsyncLink, SyncLink
from .bulk_leads import AsyncBulkEnrichment, BulkEnrichment
from .enrichment import AsyncEnrichment, Enrichment
from .leads_raw import AsyncLeadsWithRawResponse, LeadsWithRawResponse
from .stored_leads import AsyncStoredLeads, StoredLeads

__all__ = ["AsyncLeads", "AsyncLeadsWithRawResponse", "Leads", "LeadsWithRawResponse"]


class Leads(StoredLeads, BulkEnrichment, Enrichment):
    """Enrich and manage leads: `client.leads`.

    Examples:
        >>> lead = client.leads.enrich_sync({"company": "Acme", "domain": "acme.com"})
        >>> client.leads.get(lead.id).input.company
        'Acme'
    """

    def __init__(self, link: SyncLink, iterations: OpenIterations | None = None) -> None:
        """Made by the client: reach it as `client.leads`."""
        super().__init__(link)
        self._iterations = iterations if iterations is not None else OpenIterations()

    @cached_property
    def with_raw_response(self) -> LeadsWithRawResponse:
        """The same methods, returning the HTTP response: `client.leads.with_raw_response.get(lead_id)`.

        Every method that sends one request is there; `enrich_and_wait`, `iter` and the
        bulk methods send many, and are not.
        """
        return LeadsWithRawResponse(self._link)


class AsyncLeads(AsyncStoredLeads, AsyncBulkEnrichment, AsyncEnrichment):
    """Enrich and manage leads: `client.leads` of the async client.

    Examples:
        >>> lead = await client.leads.enrich_sync({"company": "Acme", "domain": "acme.com"})
    """

    def __init__(self, link: AsyncLink, iterations: AsyncOpenIterations | None = None) -> None:
        """Made by the client: reach it as `client.leads`."""
        super().__init__(link)
        self._iterations = iterations if iterations is not None else AsyncOpenIterations()

    @cached_property
    def with_raw_response(self) -> AsyncLeadsWithRawResponse:
        """[`Leads.with_raw_response`][leadenrich.Leads.with_raw_response], awaitable."""
        return AsyncLeadsWithRawResponse(self._link)
