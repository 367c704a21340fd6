"""Bad input is refused before anything is sent, with a message that says how to fix it."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import respx

from leadenrich import InvalidRequestError, LeadIn, LeadPage
from tests.helpers import call, collect, lead_out

pytestmark = pytest.mark.anyio

VALID_PEOPLE = [
    {"linkedin_url": "https://linkedin.com/in/ada"},
    {"first_name": "Ada", "last_name": "Lovelace", "company_name": "Acme"},
    {"first_name": "Ada", "last_name": "Lovelace", "domain": "acme.com"},
    {"first_name": "Ada", "last_name": "Lovelace", "company_name": "Acme", "domain": "acme.com"},
]
INVALID_PEOPLE = [
    {},
    {"first_name": "Ada"},
    {"first_name": "Ada", "last_name": "Lovelace"},
    {"last_name": "Lovelace", "domain": "acme.com"},
    {"company_name": "Acme", "domain": "acme.com"},
    {"linkedin_url": "https://linkedin.com/in/ada", "first_name": "Ada"},
]


@pytest.mark.parametrize("namespace", ["email", "mobile"])
@pytest.mark.parametrize("person", INVALID_PEOPLE)
async def test_invalid_person_combinations_send_nothing(
    client: Any, api: respx.MockRouter, namespace: str, person: dict[str, str]
) -> None:
    route = api.route().respond(200, json={})
    with pytest.raises(InvalidRequestError, match=r"linkedin_url alone, or first_name \+ last_name"):
        await call(getattr(client, namespace).find(**person))
    assert route.call_count == 0


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        ({"first_name": "Ada"}, "first_name was given too"),
        ({"first_name": "Ada", "domain": "acme.com"}, "first_name, domain were given too"),
    ],
)
async def test_linkedin_url_with_other_keywords_names_them(
    client: Any, api: respx.MockRouter, extra: dict[str, str], named: str
) -> None:
    route = api.route().respond(200, json={})
    with pytest.raises(InvalidRequestError, match=f"linkedin_url must be given alone, but {named}"):
        await call(client.email.find(linkedin_url="https://linkedin.com/in/ada", **extra))
    assert route.call_count == 0


@pytest.mark.parametrize("namespace", ["email", "mobile"])
@pytest.mark.parametrize("person", VALID_PEOPLE)
async def test_valid_person_combinations_are_sent(
    client: Any, api: respx.MockRouter, namespace: str, person: dict[str, str]
) -> None:
    api.post("/email/find").respond(200, json={"state": "not_found"})
    route = api.post("/mobile/find").respond(202, json={"lookup_id": "m", "state": "pending"})
    await call(getattr(client, namespace).find(**person))
    assert api.calls.call_count == 1
    assert namespace == "email" or route.call_count == 1


@pytest.mark.parametrize(
    ("lead", "message"),
    [
        ({"company": "Acme"}, "^invalid lead: domain is missing$"),
        ({"domain": "acme.com"}, "^invalid lead: company is missing$"),
        (
            {"company": "Acme", "domain": "https://acme.com"},
            "domain: must be a bare domain .* drop the scheme",
        ),
        (
            {"company": "Acme", "domain": "acme.com", "compnay": "typo"},
            r"^invalid lead: compnay is not a field \(did you mean company\?\)$",
        ),
        (
            {"company": "Acme", "domain": "acme.com", "phone": "+1 555"},
            r"phone is not a field \(the fields are name, email, title, company, domain, linkedin_url\)$",
        ),
        ({"company": "", "domain": "acme.com"}, "company: String should have at least 1 character"),
        ({"company": 7, "domain": "acme.com"}, "company: Input should be a valid string"),
    ],
)
async def test_bad_leads_send_nothing(
    client: Any, api: respx.MockRouter, lead: dict[str, Any], message: str
) -> None:
    route = api.route().respond(202, json={"job_id": "j"})
    with pytest.raises(InvalidRequestError, match=message):
        await call(client.leads.enrich(lead))
    with pytest.raises(InvalidRequestError, match=message):
        await call(client.leads.enrich_sync(lead))
    assert route.call_count == 0


async def test_callback_url_must_be_absolute(client: Any, api: respx.MockRouter) -> None:
    route = api.route().respond(202, json={"job_id": "j"})
    with pytest.raises(InvalidRequestError, match="callback_url: must be an absolute"):
        await call(client.leads.enrich(LeadIn(company="A", domain="a.com"), callback_url="/hooks/done"))
    assert route.call_count == 0


@pytest.mark.parametrize(
    ("kwargs", "message"), [({"limit": 0}, "limit must be >= 1"), ({"skip": -1}, "skip must be >= 0")]
)
async def test_list_bounds(client: Any, api: respx.MockRouter, kwargs: dict[str, int], message: str) -> None:
    route = api.route().respond(200, json=[])
    with pytest.raises(InvalidRequestError, match=message):
        await call(client.leads.list(**kwargs))
    assert route.call_count == 0


async def test_iter_page_size_is_checked_at_once(client: Any, api: respx.MockRouter) -> None:
    with pytest.raises(InvalidRequestError, match="page_size must be >= 1"):
        client.leads.iter(page_size=0)


@pytest.mark.parametrize("bad_id", ["", "   "])
async def test_empty_ids_send_nothing(client: Any, api: respx.MockRouter, bad_id: str) -> None:
    route = api.route().respond(200, json={})
    with pytest.raises(InvalidRequestError, match="lead_id must be a non-empty string"):
        await call(client.leads.get(bad_id))
    assert route.call_count == 0


@pytest.mark.parametrize("bad_id", ["job_1\n", " job_1", "job: job_1", "job_1\nstatus: queued"])
async def test_ids_with_whitespace_send_nothing(client: Any, api: respx.MockRouter, bad_id: str) -> None:
    route = api.route().respond(200, json={})
    for ask, name in (
        (client.jobs.get, "job_id"),
        (client.leads.get, "lead_id"),
        (client.leads.delete, "lead_id"),
        (client.mobile.get, "lookup_id"),
    ):
        with pytest.raises(InvalidRequestError) as raised:
            await call(ask(bad_id))
        assert (
            str(raised.value)
            == f"{name} must not contain spaces or line breaks, got {bad_id!r}: pass the id alone"
        )
    assert route.call_count == 0


async def test_non_string_ids_are_type_errors(client: Any) -> None:
    with pytest.raises(TypeError, match="job_id must be a str, got int"):
        await call(client.jobs.get(42))


@pytest.mark.parametrize(
    "body",
    [
        [lead_out("a")],
        {"items": [lead_out("a")], "total": 1},
        {"leads": [lead_out("a")], "next": None},
        {"data": [lead_out("a")]},
        {"results": [lead_out("a")], "count": 1},
    ],
)
def test_every_listing_shape_parses(body: Any) -> None:
    page = LeadPage.model_validate(body)
    assert [lead.id for lead in page] == ["a"]
    assert len(page) == 1
    if isinstance(body, dict):
        kept = {k: v for k, v in body.items() if k not in ("items", "leads", "data", "results")}
        assert page.model_extra == kept


async def test_iter_pages_a_bare_list_until_an_empty_page(client: Any, api: respx.MockRouter) -> None:
    # A bare list says nothing of what follows, and a service may cap the page size
    # silently: a short page is not taken for the last, an empty one is.
    pages = {
        "0": [lead_out("a"), lead_out("b")],
        "2": [lead_out("c"), lead_out("d")],
        "4": [lead_out("e")],
    }
    route = api.get("/leads").mock(
        side_effect=lambda request: httpx.Response(200, json=pages.get(request.url.params["skip"], []))
    )
    leads = await collect(client.leads.iter(page_size=2))
    assert [lead.id for lead in leads] == ["a", "b", "c", "d", "e"]
    assert [dict(c.request.url.params) for c in route.calls] == [
        {"limit": "2", "skip": "0"},
        {"limit": "2", "skip": "2"},
        {"limit": "2", "skip": "4"},
        {"limit": "2", "skip": "5"},
    ]


async def test_iter_reads_a_bare_list_capped_without_a_word(client: Any, api: respx.MockRouter) -> None:
    def respond(request: httpx.Request) -> httpx.Response:
        skip = int(request.url.params["skip"])
        return httpx.Response(200, json=[lead_out(str(i)) for i in range(skip, min(skip + 2, 5))])

    route = api.get("/leads").mock(side_effect=respond)
    leads = await collect(client.leads.iter(page_size=100))
    assert [lead.id for lead in leads] == ["0", "1", "2", "3", "4"]
    assert route.call_count == 4


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ({"total": 4}, {"total": 4}),
        ({"count": 4}, {"count": 4}),
        ({"has_more": True}, {"has_more": False}),
        ({"next": "https://api.test/api/v1/leads?skip=2"}, {"next": None}),
    ],
    ids=["total", "count", "has_more", "next"],
)
async def test_iter_stops_where_the_page_says(
    client: Any, api: respx.MockRouter, first: dict[str, Any], second: dict[str, Any]
) -> None:
    # Each page is full (2 of 2), so only what the page says ends the iteration.
    pages = {
        "0": {"items": [lead_out("a"), lead_out("b")], **first},
        "2": {"items": [lead_out("c"), lead_out("d")], **second},
    }
    route = api.get("/leads").mock(
        side_effect=lambda request: httpx.Response(200, json=pages[request.url.params["skip"]])
    )
    leads = await collect(client.leads.iter(page_size=2))
    assert [lead.id for lead in leads] == ["a", "b", "c", "d"]
    assert route.call_count == 2


async def test_iter_stops_on_an_empty_page(client: Any, api: respx.MockRouter) -> None:
    route = api.get("/leads").mock(
        side_effect=lambda request: httpx.Response(
            200, json={"items": [lead_out("a")] if request.url.params["skip"] == "0" else []}
        )
    )
    leads = await collect(client.leads.iter(page_size=1))
    assert [lead.id for lead in leads] == ["a"]
    assert route.call_count == 2


async def test_iter_follows_a_server_cap_on_page_size(client: Any, api: respx.MockRouter) -> None:
    def respond(request: httpx.Request) -> httpx.Response:
        skip = int(request.url.params["skip"])
        items = [lead_out(str(i)) for i in range(skip, min(skip + 2, 5))]
        return httpx.Response(200, json={"items": items, "limit": 2, "skip": skip})

    api.get("/leads").mock(side_effect=respond)
    leads = await collect(client.leads.iter(page_size=100))
    assert [lead.id for lead in leads] == ["0", "1", "2", "3", "4"]
