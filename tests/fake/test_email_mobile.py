"""Email discovery (charged on a hit) and mobile lookups (pending, then settled or refunded)."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

import httpx
import pytest

from leadenrich import EmailFindOut
from leadenrich.testing import FakeServer
from tests.helpers import api_client, assert_validation_error, wait_lookup

ADA = {"first_name": "Ada", "last_name": "Lovelace", "domain": "acme.com"}
INVALID_PEOPLE: list[dict[str, Any]] = [
    {},
    {"first_name": "Ada"},
    {"first_name": "Ada", "last_name": "Lovelace"},
    {"last_name": "Lovelace", "company_name": "Acme"},
    {"linkedin_url": "https://linkedin.com/in/ada", "first_name": "Ada"},
]


class TestEmail:
    def test_a_hit_is_found_and_charged_one_enrichment_credit(
        self, server: FakeServer, http: httpx.Client
    ) -> None:
        response = http.post("/email/find", json=ADA)
        assert response.status_code == 200
        found = EmailFindOut.model_validate(response.json())
        assert found.state == "found"
        assert found.email == "ada.lovelace@acme.com"
        assert found.email_status in {"verified", "catch_all", "risky"}
        assert found.email_score is not None
        assert 0 <= found.email_score <= 100
        assert found.source == "service_verified"
        assert found.contact == "Ada Lovelace"
        [charge] = server.state.charges()
        assert (charge.kind, charge.amount, charge.key) == ("email", 1, server.api_key)
        assert http.get("/usage").json()["monthly_leads"]["used"] == 1

    def test_the_same_person_gives_the_same_answer(self, http: httpx.Client) -> None:
        assert http.post("/email/find", json=ADA).json() == http.post("/email/find", json=ADA).json()

    def test_a_profile_alone_is_enough(self, http: httpx.Client) -> None:
        found = http.post(
            "/email/find", json={"linkedin_url": "https://www.linkedin.com/in/grace-hopper-42"}
        ).json()
        assert found["state"] == "found"
        assert found["contact"] == "Grace Hopper"
        assert found["email"].startswith("grace.hopper@")

    def test_a_company_name_stands_in_for_the_domain(self, http: httpx.Client) -> None:
        body = {"first_name": "Ada", "last_name": "Lovelace", "company_name": "Acme Widgets"}
        assert http.post("/email/find", json=body).json()["email"] == "ada.lovelace@acmewidgets.com"

    @pytest.mark.parametrize(
        "person",
        [
            {"first_name": "Ann", "last_name": "Nobody", "domain": "acme.com"},
            {"linkedin_url": "https://linkedin.com/in/nobody-at-all"},
            {"first_name": "Ann", "last_name": "Lee", "domain": "acme.invalid"},
        ],
    )
    def test_a_miss_is_not_found_and_free(
        self, server: FakeServer, http: httpx.Client, person: dict[str, Any]
    ) -> None:
        missed = http.post("/email/find", json=person).json()
        assert missed["state"] == "not_found"
        assert missed["email"] is None
        assert missed["source"] is None
        assert server.state.charges() == []
        assert http.get("/usage").json()["monthly_leads"]["used"] == 0

    @pytest.mark.parametrize("person", INVALID_PEOPLE)
    def test_an_invalid_combination_is_a_422(
        self, server: FakeServer, http: httpx.Client, person: dict[str, Any]
    ) -> None:
        detail = assert_validation_error(http.post("/email/find", json=person), ["body"])
        assert "linkedin_url" in detail[0]["msg"]
        assert server.state.charges() == []

    def test_a_wrong_type_is_a_422_at_the_field(self, http: httpx.Client) -> None:
        assert_validation_error(
            http.post("/email/find", json={**ADA, "first_name": 42}), ["body", "first_name"]
        )


class TestMobile:
    def test_a_lookup_is_pending_then_settles_with_a_number(
        self, server: FakeServer, http: httpx.Client
    ) -> None:
        response = http.post("/mobile/find", json=ADA)
        assert response.status_code == 202
        pending = response.json()
        assert pending["state"] == "pending"
        assert pending["mobile"] is None
        assert pending["lookup_id"].startswith("mob_")
        assert datetime.fromisoformat(pending["created_at"].replace("Z", "+00:00")).tzinfo is not None
        # Nothing is charged while it is pending.
        assert server.state.charges() == []

        wait_lookup(server, pending["lookup_id"])
        settled = http.get(f"/mobile/find/{pending['lookup_id']}").json()
        assert settled["state"] == "settled"
        assert re.fullmatch(r"\+[1-9]\d{7,14}", settled["mobile"])
        assert settled["contact"] == "Ada Lovelace"
        assert settled["created_at"] == pending["created_at"]
        [charge] = server.state.charges()
        assert (charge.kind, charge.amount, charge.ref) == ("mobile", 1, pending["lookup_id"])
        assert http.get("/usage").json()["mobile_credits"] == {"purchased": 100, "used": 1, "balance": 99}

    def test_uk_domains_get_uk_numbers(self, server: FakeServer, http: httpx.Client) -> None:
        lookup_id = http.post("/mobile/find", json={**ADA, "domain": "acme.co.uk"}).json()["lookup_id"]
        assert (wait_lookup(server, lookup_id).mobile or "").startswith("+447700900")

    @pytest.mark.parametrize("last_name", ["Landline", "Nobody"])
    def test_no_number_is_refunded_and_free(
        self, server: FakeServer, http: httpx.Client, last_name: str
    ) -> None:
        lookup_id = http.post("/mobile/find", json={**ADA, "last_name": last_name}).json()["lookup_id"]
        wait_lookup(server, lookup_id)
        refunded = http.get(f"/mobile/find/{lookup_id}").json()
        assert refunded["state"] == "refunded"
        assert refunded["mobile"] is None
        assert server.state.charges() == []
        assert http.get("/usage").json()["mobile_credits"] == {"purchased": 100, "used": 0, "balance": 100}

    def test_rules_are_configurable(self, make_server: Any) -> None:
        server: FakeServer = make_server(mobile_found=lambda query: False, email_found=lambda query: False)
        with api_client(server) as http:
            assert http.post("/email/find", json=ADA).json()["state"] == "not_found"
            lookup_id = http.post("/mobile/find", json=ADA).json()["lookup_id"]
            assert wait_lookup(server, lookup_id).state == "refunded"

    @pytest.mark.parametrize("person", INVALID_PEOPLE)
    def test_an_invalid_combination_is_a_422(
        self, server: FakeServer, http: httpx.Client, person: dict[str, Any]
    ) -> None:
        assert_validation_error(http.post("/mobile/find", json=person), ["body"])
        assert server.state.lookups() == []

    def test_another_accounts_lookup_is_404(self, server: FakeServer, http: httpx.Client) -> None:
        lookup_id = http.post("/mobile/find", json=ADA).json()["lookup_id"]
        with api_client(server, server.add_key()) as stranger:
            assert stranger.get(f"/mobile/find/{lookup_id}").status_code == 404
        assert http.get("/mobile/find/mob_unknown").status_code == 404
        assert http.get(f"/mobile/find/{lookup_id}").status_code == 200
