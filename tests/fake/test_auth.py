"""Authentication, plans, the health check and usage counting."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from leadenrich.testing import FakeServer
from tests.helpers import anonymous_client, api_client, lead

# Every endpoint but health, with a body that would otherwise be valid.
AUTHENTICATED: list[tuple[str, str, dict[str, Any] | None]] = [
    ("POST", "/leads/enrich", {"lead": lead()}),
    ("POST", "/leads/enrich?mode=sync", {"lead": lead()}),
    ("GET", "/jobs/job_1", None),
    ("GET", "/leads", None),
    ("GET", "/leads/ld_1", None),
    ("DELETE", "/leads/ld_1", None),
    ("POST", "/leads/ld_1/re-enrich", None),
    ("POST", "/email/find", {"linkedin_url": "https://linkedin.com/in/ada"}),
    ("POST", "/mobile/find", {"linkedin_url": "https://linkedin.com/in/ada"}),
    ("GET", "/mobile/find/mob_1", None),
    ("GET", "/usage", None),
]


def test_health_needs_no_key_and_counts_nothing(server: FakeServer, http: httpx.Client) -> None:
    with anonymous_client(server) as anonymous:
        response = anonymous.get("/health")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "version": "1.0.0"}
    # With a key it is not counted either, and nothing is charged.
    assert http.get("/health").status_code == 200
    usage = http.get("/usage").json()
    assert usage["api_calls_this_month"] == {"total": 1, "this_key": 1}
    assert server.state.charges() == []


def test_health_ignores_a_bad_key_and_the_rate_limit(make_server: Any) -> None:
    server: FakeServer = make_server(sync_per_minute=1)
    with api_client(server, key="le_live_wrong") as wrong:
        assert wrong.get("/health").status_code == 200
    with api_client(server) as http:
        assert http.get("/usage").status_code == 200
        assert http.get("/usage").status_code == 429
        assert http.get("/health").status_code == 200


@pytest.mark.parametrize(("method", "path", "body"), AUTHENTICATED)
def test_every_other_endpoint_needs_a_bearer_key(
    server: FakeServer, method: str, path: str, body: dict[str, Any] | None
) -> None:
    with anonymous_client(server) as anonymous:
        response = anonymous.request(method, path, json=body)
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"
    detail = response.json()["detail"]
    assert "Bearer token" in detail
    assert "Authorization: Bearer <API_KEY>" in detail
    assert server.state.charges() == []


@pytest.mark.parametrize(
    "authorization",
    ["Bearer le_live_00000000000000000000000000000000", "Token {key}", "{key}", "Bearer", "Basic {key}"],
)
def test_invalid_keys_and_schemes_are_401(server: FakeServer, authorization: str) -> None:
    with anonymous_client(server) as raw:
        response = raw.get("/usage", headers={"Authorization": authorization.format(key=server.api_key)})
    assert response.status_code == 401
    assert "Bearer" in response.json()["detail"]


def test_the_bearer_scheme_is_case_insensitive(server: FakeServer) -> None:
    with anonymous_client(server) as raw:
        response = raw.get("/usage", headers={"Authorization": f"bearer {server.api_key}"})
    assert response.status_code == 200


@pytest.mark.parametrize("tier", ["free", "starter"])
def test_plans_without_api_access_get_403(server: FakeServer, tier: Any) -> None:
    key = server.add_key(tier)
    with api_client(server, key) as http:
        response = http.get("/usage")
        enrich = http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead()})
    assert response.status_code == 403
    assert tier in response.json()["detail"]
    assert "Growth, Scale or Enterprise" in response.json()["detail"]
    assert enrich.status_code == 403
    assert server.state.charges() == []


@pytest.mark.parametrize("tier", ["growth", "scale", "enterprise"])
def test_api_plans_are_let_through_and_reported(server: FakeServer, tier: Any) -> None:
    key = server.add_key(tier)
    with api_client(server, key) as http:
        response = http.get("/usage")
    assert response.status_code == 200
    assert response.json()["tier"] == tier


def test_usage_of_a_fresh_account(server: FakeServer, http: httpx.Client) -> None:
    assert http.get("/usage").json() == {
        "tier": "growth",
        "monthly_leads": {"included": 1000, "credits_added": 0, "effective_limit": 1000, "used": 0},
        "mobile_credits": {"purchased": 100, "used": 0, "balance": 100},
        "api_calls_this_month": {"total": 1, "this_key": 1},
    }


def test_usage_reports_the_accounts_balances(server: FakeServer) -> None:
    key = server.add_key("scale", monthly_leads=200, credits=50, mobile_credits=7)
    with api_client(server, key) as http:
        usage = http.get("/usage").json()
    assert usage["tier"] == "scale"
    assert usage["monthly_leads"] == {"included": 200, "credits_added": 50, "effective_limit": 250, "used": 0}
    assert usage["mobile_credits"] == {"purchased": 7, "used": 0, "balance": 7}


def test_unlimited_plans_report_null_limits(server: FakeServer) -> None:
    key = server.add_key("enterprise", monthly_leads=None)
    with api_client(server, key) as http:
        monthly = http.get("/usage").json()["monthly_leads"]
    assert monthly == {"included": None, "credits_added": 0, "effective_limit": None, "used": 0}


def test_api_calls_count_every_request_of_every_key_of_the_user(server: FakeServer) -> None:
    second = server.add_key(user="default")
    other_user = server.add_key()
    with api_client(server) as first_http, api_client(server, second) as second_http:
        for _ in range(3):
            first_http.get("/leads")
        first_http.get("/jobs/job_missing")  # a 404 is a call too
        first_http.get("/leads", params={"limit": 0})  # and so is a 422
        second_http.get("/leads")
        calls = second_http.get("/usage").json()["api_calls_this_month"]
        assert calls == {"total": 7, "this_key": 2}
        calls = first_http.get("/usage").json()["api_calls_this_month"]
        assert calls == {"total": 8, "this_key": 6}
    with api_client(server, other_user) as other_http:
        assert other_http.get("/usage").json()["api_calls_this_month"] == {"total": 1, "this_key": 1}


def test_two_keys_share_the_users_pools(server: FakeServer) -> None:
    second = server.add_key(user="default")
    with api_client(server, second) as http:
        assert http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead()}).status_code == 200
    with api_client(server) as http:
        assert http.get("/usage").json()["monthly_leads"]["used"] == 1
        assert http.get("/leads").json()["total"] == 1
    assert server.user_of(second) == server.user_of(server.api_key) == "default"
    assert server.state.charged("enrichment", key=second) == 1
    assert server.state.charged("enrichment", key=server.api_key) == 0
    assert server.state.charged("enrichment", user="default") == 1


def test_requests_are_recorded_per_key_by_status(server: FakeServer, http: httpx.Client) -> None:
    http.get("/usage")
    http.get("/leads/nope")
    with anonymous_client(server) as anonymous:
        anonymous.get("/usage")
        anonymous.get("/health")
    assert server.state.status_counts(server.api_key) == {200: 1, 404: 1}
    assert server.state.status_counts(None) == {401: 1, 200: 1}
    last = server.state.requests()[-1]
    assert (last.method, last.path, last.status_code, last.key) == ("GET", "/api/v1/health", 200, None)
    assert last.at.tzinfo is not None


# The order of checks: 401 (key), 403 (plan), then 422 (the request itself).
BROKEN_BODY = b'{"lead": {"company": '


@pytest.mark.parametrize(("method", "path", "body"), AUTHENTICATED)
def test_without_a_key_a_broken_request_is_401_not_422(
    server: FakeServer, method: str, path: str, body: dict[str, Any] | None
) -> None:
    headers = {"Content-Type": "application/json"}
    with anonymous_client(server) as anonymous:
        broken = anonymous.request(method, path, content=BROKEN_BODY, headers=headers)
        bad_query = anonymous.request(method, path + ("&" if "?" in path else "?") + "limit=x&mode=nope")
    assert (broken.status_code, bad_query.status_code) == (401, 401)
    assert broken.headers["www-authenticate"] == "Bearer"
    assert "Bearer" in broken.json()["detail"]
    assert server.state.charges() == []


@pytest.mark.parametrize(("method", "path", "body"), AUTHENTICATED)
def test_a_plan_without_api_access_gets_403_before_validation(
    server: FakeServer, method: str, path: str, body: dict[str, Any] | None
) -> None:
    with api_client(server, server.add_key("starter")) as starter:
        response = starter.request(
            method, path, content=BROKEN_BODY, headers={"Content-Type": "application/json"}
        )
    assert response.status_code == 403
    assert "upgrade to Growth, Scale or Enterprise" in response.json()["detail"]


@pytest.mark.parametrize(("method", "path"), [("POST", "/leads/enrich"), ("POST", "/email/find")])
def test_with_a_valid_key_a_broken_body_is_422(server: FakeServer, method: str, path: str) -> None:
    with api_client(server) as http:
        response = http.request(
            method, path, content=BROKEN_BODY, headers={"Content-Type": "application/json"}
        )
    assert response.status_code == 422
    [entry] = response.json()["detail"]
    assert entry["type"] == "json_invalid"


def test_unknown_paths_and_methods_need_a_key_too(server: FakeServer, http: httpx.Client) -> None:
    with anonymous_client(server) as anonymous:
        assert anonymous.get("/nowhere").status_code == 401
        assert anonymous.put("/usage").status_code == 401
    assert http.get("/nowhere").status_code == 404
    assert http.put("/usage").status_code == 405


def test_the_key_rate_is_checked_before_the_body(make_server: Any) -> None:
    server: FakeServer = make_server(sync_per_minute=1, time_scale=0.1)
    with api_client(server) as http:
        assert http.get("/usage").status_code == 200
        refused = http.post("/email/find", content=BROKEN_BODY, headers={"Content-Type": "application/json"})
    assert refused.status_code == 429
    assert refused.json()["detail"].startswith("rate limit exceeded")
