"""A lost answer is found among the stored leads whatever the service's clock says.

The spec promises nothing about the service's clock agreeing with the client's, nor that
its ISO 8601 stamps carry an offset. A bulk run that compared its own clock with the
stamps missed a paid lead stored by a service 5 minutes behind, or writing its local
time without an offset, and reported it maybe charged (a rerun then sent it again, and it
was charged twice). Both clients, both strategies, every reading of the two open points.
"""

from __future__ import annotations

import pytest

from leadenrich import BulkResult
from leadenrich.testing import FakeSettings
from tests.helpers import MakeServer, call

from .conftest import MakeClient

pytestmark = pytest.mark.anyio

ENRICH = "/api/v1/leads/enrich"
CLOCKS = FakeSettings.open_points()["service_clock"]
STAMPS = FakeSettings.open_points()["timestamps"]


@pytest.mark.parametrize("strategy", ["sync", "async"])
@pytest.mark.parametrize("stamps", STAMPS)
@pytest.mark.parametrize("clock", CLOCKS)
async def test_a_lead_whose_answer_was_lost_is_found_whatever_the_services_clock(
    make_client: MakeClient, make_server: MakeServer, clock: str, stamps: str, strategy: str
) -> None:
    server = make_server(service_clock=clock, timestamps=stamps, enrichment_seconds=(20.0, 20.0))
    # The service enriches the lead, charges it and stores it; its answer never arrives.
    server.fail_next("POST", ENRICH, "drop_after")
    client = make_client(server)
    rows = [{"company": "Acme", "domain": "acme.com"}, {"company": "Globex", "domain": "globex.com"}]
    result: BulkResult = await call(client.leads.enrich_many(rows, strategy=strategy, progress=False))
    assert [(o.status, o.charged, o.maybe_charged) for o in result] == [("enriched", True, False)] * 2
    stored = {lead.id for lead in server.state.leads()}
    assert {o.lead.id for o in result if o.lead is not None} == stored
    posts = [r for r in server.state.requests() if r.method == "POST" and r.path == ENRICH]
    assert len(posts) == 2, "a lead was sent again"
    assert result.credits_spent == server.state.charged("enrichment") == 2
