"""Stored leads: list, get, delete and re-enrich."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from leadenrich.testing import FakeServer
from tests.helpers import MakeServer, api_client, assert_validation_error, lead


def _enrich(http: httpx.Client, domain: str, **fields: Any) -> dict[str, Any]:
    response = http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead(domain, **fields)})
    assert response.status_code == 200, response.text
    return response.json()


def test_listing_is_wrapped_newest_first(http: httpx.Client) -> None:
    ids = [_enrich(http, f"company{n}.com")["id"] for n in range(3)]
    page = http.get("/leads").json()
    assert set(page) == {"items", "total", "limit", "skip"}
    assert (page["total"], page["limit"], page["skip"]) == (3, 50, 0)
    assert [item["id"] for item in page["items"]] == ids[::-1]
    assert all(item["deduped"] is False for item in page["items"])


def test_listing_pages_with_limit_and_skip(http: httpx.Client) -> None:
    ids = [_enrich(http, f"company{n}.com")["id"] for n in range(5)][::-1]
    pages = [http.get("/leads", params={"limit": 2, "skip": skip}).json() for skip in (0, 2, 4, 6)]
    assert [[i["id"] for i in p["items"]] for p in pages] == [ids[0:2], ids[2:4], ids[4:5], []]
    assert all(p["total"] == 5 and p["limit"] == 2 for p in pages)
    assert [p["skip"] for p in pages] == [0, 2, 4, 6]


@pytest.mark.parametrize(
    ("params", "loc"),
    [
        ({"limit": 0}, ["query", "limit"]),
        ({"limit": 501}, ["query", "limit"]),
        ({"limit": "ten"}, ["query", "limit"]),
        ({"skip": -1}, ["query", "skip"]),
        ({"skip": 1.5}, ["query", "skip"]),
    ],
)
def test_listing_bounds_are_422(http: httpx.Client, params: dict[str, Any], loc: list[str | int]) -> None:
    assert_validation_error(http.get("/leads", params=params), loc)


def test_listing_accepts_the_extreme_bounds(http: httpx.Client) -> None:
    assert http.get("/leads", params={"limit": 1}).status_code == 200
    assert http.get("/leads", params={"limit": 500, "skip": 10_000}).json()["items"] == []


def test_an_account_lists_only_its_own_leads(server: FakeServer, http: httpx.Client) -> None:
    _enrich(http, "mine.com")
    with api_client(server, server.add_key()) as other:
        _enrich(other, "theirs.com")
        assert [i["input"]["domain"] for i in other.get("/leads").json()["items"]] == ["theirs.com"]
    assert [i["input"]["domain"] for i in http.get("/leads").json()["items"]] == ["mine.com"]


def test_get_returns_the_stored_lead(http: httpx.Client) -> None:
    created = _enrich(http, "acme.com", email="ada@acme.com")
    assert http.get(f"/leads/{created['id']}").json() == created


def test_another_accounts_lead_is_404_everywhere(server: FakeServer, http: httpx.Client) -> None:
    lead_id = _enrich(http, "acme.com")["id"]
    with api_client(server, server.add_key()) as stranger:
        responses = [
            stranger.get(f"/leads/{lead_id}"),
            stranger.delete(f"/leads/{lead_id}"),
            stranger.post(f"/leads/{lead_id}/re-enrich"),
        ]
    assert [r.status_code for r in responses] == [404, 404, 404]
    assert all(lead_id in r.json()["detail"] for r in responses)
    assert http.get(f"/leads/{lead_id}").status_code == 200
    assert server.state.charged("enrichment") == 1


def test_delete_answers_id_and_deleted(server: FakeServer, http: httpx.Client) -> None:
    lead_id = _enrich(http, "acme.com")["id"]
    response = http.delete(f"/leads/{lead_id}")
    assert response.status_code == 200
    assert response.json() == {"id": lead_id, "deleted": True}
    assert http.get(f"/leads/{lead_id}").status_code == 404
    assert http.delete(f"/leads/{lead_id}").status_code == 404
    assert http.get("/leads").json()["total"] == 0
    assert server.state.leads() == []


def test_re_enrich_blocks_charges_and_keeps_the_id(server: FakeServer, http: httpx.Client) -> None:
    created = _enrich(http, "acme.com", email="ada@acme.com")
    started = time.monotonic()
    response = http.post(f"/leads/{created['id']}/re-enrich")
    assert time.monotonic() - started >= server.settings.real_seconds(server.settings.enrichment_seconds[0])
    assert response.status_code == 200
    fresh = response.json()
    assert fresh["id"] == created["id"]
    assert fresh["input"] == created["input"]
    assert fresh["deduped"] is False
    assert fresh["enrichment"]["company_overview"] == created["enrichment"]["company_overview"]
    assert [c.ref for c in server.state.charges(kind="enrichment")] == [created["id"], created["id"]]
    assert http.get("/usage").json()["monthly_leads"]["used"] == 2
    assert http.get(f"/leads/{created['id']}").json() == fresh
    assert http.get("/leads").json()["total"] == 1


def test_re_enrich_of_an_unknown_lead_is_404(server: FakeServer, http: httpx.Client) -> None:
    assert http.post("/leads/ld_nope/re-enrich").status_code == 404
    assert server.state.charges() == []


def test_re_enrich_needs_quota(server: FakeServer) -> None:
    key = server.add_key(monthly_leads=1)
    with api_client(server, key) as http:
        lead_id = _enrich(http, "acme.com")["id"]
        assert http.post(f"/leads/{lead_id}/re-enrich").status_code == 402


def test_a_failed_re_enrichment_is_a_502_refunded_and_keeps_the_lead(make_server: MakeServer) -> None:
    failing = {"now": False}
    server = make_server(enrichment_seconds=(4.0, 8.0), enrichment_fails=lambda _lead: failing["now"])
    with api_client(server) as http:
        created = _enrich(http, "acme.com")
        failing["now"] = True
        response = http.post(f"/leads/{created['id']}/re-enrich")
        assert response.status_code == 502
        assert response.json()["detail"].startswith("enrichment_failed")
        assert http.get(f"/leads/{created['id']}").json() == created
    assert server.state.charged("enrichment") == 1
    assert server.state.in_flight == 0


def test_re_enrich_holds_a_platform_slot(make_server: MakeServer) -> None:
    # Under job_admission="upstream_full" the async job holds the only slot at once.
    server = make_server(
        job_admission="upstream_full", max_concurrent_enrichments=1, enrichment_seconds=(20.0, 20.0)
    )
    with api_client(server) as http:
        lead_id = _enrich(http, "acme.com")["id"]
        assert server.state.peak_in_flight == 1
        http.post("/leads/enrich", json={"lead": lead("busy.com")})
        assert http.post(f"/leads/{lead_id}/re-enrich").status_code == 429


@pytest.mark.parametrize(("order", "newest_first"), [("newest_first", True), ("oldest_first", False)])
def test_listing_order_is_a_setting(make_server: MakeServer, order: str, newest_first: bool) -> None:
    server = make_server(list_order=order, enrichment_seconds=(4.0, 8.0))
    with api_client(server) as http:
        ids = [_enrich(http, f"company{n}.com")["id"] for n in range(3)]
        listed = [item["id"] for item in http.get("/leads").json()["items"]]
    assert listed == (ids[::-1] if newest_first else ids)


@pytest.mark.parametrize(("rule", "charged"), [("ignore_case", 1), ("exact", 2)])
def test_how_emails_match_a_stored_contact_is_a_setting(
    make_server: MakeServer, rule: str, charged: int
) -> None:
    server = make_server(dedupe_emails=rule, enrichment_seconds=(4.0, 8.0))
    with api_client(server) as http:
        first = _enrich(http, "acme.com", email="ada@acme.com")
        second = _enrich(http, "acme.com", email=" Ada@Acme.com")
    assert second["deduped"] is (rule == "ignore_case")
    assert (second["id"] == first["id"]) is (rule == "ignore_case")
    assert server.state.charged("enrichment") == charged
