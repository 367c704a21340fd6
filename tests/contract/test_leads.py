"""Stored leads through both clients: list, iterate, get, delete, re-enrich, ownership."""

from __future__ import annotations

import pytest

from leadenrich import LeadDeleted, LeadOut, LeadPage, NotFoundError
from leadenrich.testing import FakeServer
from tests.helpers import call, collect

from .conftest import Client, MakeClient

pytestmark = pytest.mark.anyio


async def _enrich(client: Client, count: int) -> list[LeadOut]:
    return [
        await call(client.leads.enrich_sync({"company": f"C{n}", "domain": f"c{n}.com"}))
        for n in range(count)
    ]


async def test_list_is_a_page_newest_first(client: Client) -> None:
    made = await _enrich(client, 3)
    page = await call(client.leads.list(limit=2))
    assert isinstance(page, LeadPage)
    assert [lead.id for lead in page] == [made[2].id, made[1].id]
    assert page.model_extra == {"total": 3, "limit": 2, "skip": 0}
    rest = await call(client.leads.list(limit=2, skip=2))
    assert [lead.id for lead in rest] == [made[0].id]


async def test_iter_walks_every_page(client: Client) -> None:
    made = await _enrich(client, 5)
    seen = await collect(client.leads.iter(page_size=2))
    assert [lead.id for lead in seen] == [lead.id for lead in reversed(made)]


async def test_get_delete_and_get_again(client: Client, server: FakeServer) -> None:
    [made] = await _enrich(client, 1)
    assert await call(client.leads.get(made.id)) == made
    deleted = await call(client.leads.delete(made.id))
    assert isinstance(deleted, LeadDeleted)
    assert (deleted.id, deleted.deleted) == (made.id, True)
    with pytest.raises(NotFoundError):
        await call(client.leads.get(made.id))
    assert server.state.leads() == []


async def test_re_enrich_is_a_charged_run_on_the_same_lead(client: Client, server: FakeServer) -> None:
    [made] = await _enrich(client, 1)
    fresh = await call(client.leads.re_enrich(made.id))
    assert isinstance(fresh, LeadOut)
    assert fresh.id == made.id
    assert fresh.input == made.input
    assert fresh.enrichment.company_overview == made.enrichment.company_overview
    assert server.state.charged("enrichment") == 2
    assert (await call(client.usage())).monthly_leads.used == 2


async def test_another_accounts_things_are_not_found(make_client: MakeClient, server: FakeServer) -> None:
    owner = make_client(server)
    [made] = await _enrich(owner, 1)
    job = await call(owner.leads.enrich({"company": "Acme", "domain": "acme.com"}))
    lookup = await call(owner.mobile.find(linkedin_url="https://linkedin.com/in/ada"))
    stranger = make_client(server, server.add_key(), max_retries=0)
    # Lambdas: the sync client raises as soon as it is called.
    for attempt in (
        lambda: stranger.leads.get(made.id),
        lambda: stranger.leads.delete(made.id),
        lambda: stranger.leads.re_enrich(made.id),
        lambda: stranger.jobs.get(job.job_id),
        lambda: stranger.mobile.get(lookup.lookup_id),
    ):
        with pytest.raises(NotFoundError) as raised:
            await call(attempt())
        assert raised.value.status_code == 404
    assert server.state.charged("enrichment") == 2
