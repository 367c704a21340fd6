"""pytest fixtures: a fake Lead Enrichment server per test, and clients bound to it.

Installed with leadenrich as the `leadenrich` pytest plugin, so every pytest run of every
project that installs leadenrich loads this module: it imports nothing but pytest until
a fixture is used.

Fixtures:
    leadenrich_settings: The FakeSettings of the server; override it to change them.
    leadenrich_server: A running FakeServer, new for each test (a few milliseconds).
    leadenrich_client: A LeadEnrich on that server, closed after the test.
    async_leadenrich_client: An AsyncLeadEnrich on that server, closed after the test
        (an async fixture: use it from tests marked `pytest.mark.anyio`).

Examples:
    def test_enrich(leadenrich_client):
        lead = leadenrich_client.leads.enrich_sync({"company": "Acme", "domain": "acme.com"})
        assert 0 <= lead.enrichment.opportunity_score <= 100
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from leadenrich import AsyncLeadEnrich, LeadEnrich
    from leadenrich.testing import FakeServer, FakeSettings

__all__ = ["async_leadenrich_client", "leadenrich_client", "leadenrich_server", "leadenrich_settings"]


@pytest.fixture
def leadenrich_settings() -> FakeSettings:
    """The settings of `leadenrich_server`: override this fixture to change them.

    Examples:
        @pytest.fixture
        def leadenrich_settings():
            return FakeSettings(max_concurrent_enrichments=1)
    """
    from leadenrich.testing import FakeSettings

    return FakeSettings()


@pytest.fixture
def leadenrich_server(leadenrich_settings: FakeSettings) -> Iterator[FakeServer]:
    """A running fake server, new for each test, so no state leaks between tests."""
    from leadenrich.testing import FakeServer

    with FakeServer(leadenrich_settings) as server:
        yield server


@pytest.fixture
def leadenrich_client(leadenrich_server: FakeServer) -> Iterator[LeadEnrich]:
    """A LeadEnrich client with the server's ready key, closed after the test."""
    from leadenrich.testing import client_for

    with client_for(leadenrich_server) as client:
        yield client


@pytest.fixture
async def async_leadenrich_client(leadenrich_server: FakeServer) -> AsyncIterator[AsyncLeadEnrich]:
    """An AsyncLeadEnrich client with the server's ready key, closed after the test."""
    from leadenrich.testing import async_client_for

    async with async_client_for(leadenrich_server) as client:
        yield client
