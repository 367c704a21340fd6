"""A page of `leads.list()` goes on: has_next_page(), next_page() and iter_pages(), on
both clients (awaitable and an async iterator on the async client)."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import httpx
import pytest
import respx

from leadenrich import InvalidRequestError, LeadPage
from tests.helpers import call, collect, lead_out

pytestmark = pytest.mark.anyio

IDS = [f"ld_{n}" for n in range(5)]


def stored(request: httpx.Request) -> httpx.Response:
    """Five stored leads, served `limit` at a time from `skip`, with their total."""
    limit, skip = int(request.url.params["limit"]), int(request.url.params["skip"])
    items = [lead_out(lead_id) for lead_id in IDS[skip : skip + limit]]
    return httpx.Response(200, json={"items": items, "total": len(IDS)})


@pytest.fixture
def listing(api: respx.MockRouter) -> respx.Route:
    return api.get("/leads").mock(side_effect=stored)


async def test_next_page_asks_for_the_next_skip_with_the_same_size_and_options(
    client: Any, listing: respx.Route
) -> None:
    page = await call(client.leads.list(limit=2, extra_headers={"X-Team": "a"}, extra_query={"tag": "x"}))
    assert page.has_next_page()
    second = await call(page.next_page())
    assert [lead.id for lead in second] == ["ld_2", "ld_3"]
    sent = listing.calls.last.request
    assert (sent.url.params["limit"], sent.url.params["skip"], sent.url.params["tag"]) == ("2", "2", "x")
    assert sent.headers["X-Team"] == "a"
    last = await call(second.next_page())
    assert [lead.id for lead in last] == ["ld_4"]
    assert not last.has_next_page()


async def test_iter_pages_yields_this_page_and_every_next_one(client: Any, listing: respx.Route) -> None:
    first = await call(client.leads.list(limit=2, skip=1))
    pages = await collect(first.iter_pages())
    assert pages[0] is first
    assert [[lead.id for lead in page] for page in pages] == [["ld_1", "ld_2"], ["ld_3", "ld_4"]]
    assert listing.call_count == 2


async def test_past_the_last_page_nothing_is_sent(client: Any, listing: respx.Route) -> None:
    last = await call(client.leads.list(limit=10))
    assert not last.has_next_page()
    with pytest.raises(InvalidRequestError, match="last page"):
        await call(last.next_page())
    assert listing.call_count == 1


async def test_a_raw_listings_page_goes_on_too(client: Any, listing: respx.Route) -> None:
    raw = await call(client.leads.with_raw_response.list(limit=3))
    page = raw.parse()
    assert [lead.id for lead in await call(page.next_page())] == ["ld_3", "ld_4"]


async def test_leads_iter_walks_the_same_pages(client: Any, listing: respx.Route) -> None:
    assert [lead.id for lead in await collect(client.leads.iter(page_size=2))] == IDS
    assert [call.request.url.params["skip"] for call in listing.calls] == ["0", "2", "4"]


def test_a_page_built_from_a_body_is_the_only_page() -> None:
    page = LeadPage.model_validate({"items": [lead_out()], "total": 9})
    assert not page.has_next_page()
    assert list(page.iter_pages()) == [page]
    with pytest.raises(TypeError, match=r"not returned by leads.list\(\)"):
        page.next_page()


async def test_a_copy_goes_on_and_a_pickled_page_is_the_only_page(client: Any, listing: respx.Route) -> None:
    page = await call(client.leads.list(limit=2))
    assert copy.deepcopy(page).has_next_page()
    assert copy.copy(page).has_next_page()
    unpickled = pickle.loads(pickle.dumps(page))
    assert unpickled == page
    assert not unpickled.has_next_page()
