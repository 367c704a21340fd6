"""Injected faults: settings, each kind on the wire, what is charged, determinism, records."""

from __future__ import annotations

import json
import math
import re
import time
from typing import Any

import httpx
import pytest

from leadenrich.testing import FakeServer, FakeSettings
from tests.helpers import MakeServer, api_client, lead

QUICK: dict[str, Any] = {"enrichment_seconds": (4.0, 8.0)}


@pytest.mark.parametrize(
    ("field", "value", "allowed"),
    [
        ("server_error_rate", -0.1, "from 0 to 1"),
        ("drop_before_rate", 1.5, "from 0 to 1"),
        ("drop_after_rate", math.nan, "from 0 to 1"),
        ("slow_rate", "often", "from 0 to 1"),
        ("malformed_rate", True, "from 0 to 1"),
        ("upstream_full_rate", math.inf, "from 0 to 1"),
        ("slow_seconds", 0, "> 0"),
        ("upstream_full_burst", 0, ">= 1"),
        ("fault_seed", 1.5, "an int"),
    ],
)
def test_invalid_fault_settings_name_the_setting(field: str, value: Any, allowed: str) -> None:
    with pytest.raises(ValueError, match=re.escape(field)) as raised:
        FakeSettings(**{field: value})
    assert allowed in str(raised.value)


def test_fault_rates_add_up_to_at_most_one() -> None:
    with pytest.raises(ValueError, match="at most 1"):
        FakeSettings(server_error_rate=0.6, drop_after_rate=0.6)
    assert FakeSettings(server_error_rate=0.5, drop_after_rate=0.5).drop_after_rate == 0.5


def test_no_faults_by_default(server: FakeServer, http: httpx.Client) -> None:
    for _ in range(20):
        assert http.get("/usage").status_code == 200
    assert server.state.faults() == []
    assert server.state.fault_counts() == {}


@pytest.mark.parametrize("status", [500, 502, 503])
def test_server_errors_come_as_json_or_html_and_do_nothing(make_server: MakeServer, status: int) -> None:
    server = make_server(server_error_rate=1.0, **QUICK)
    bodies: set[str] = set()
    with api_client(server) as http:
        for n in range(40):
            response = http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead(f"c{n}.com")})
            assert response.status_code in (500, 502, 503)
            if response.status_code == status:
                bodies.add(response.headers["content-type"].split(";")[0])
                if "json" in response.headers["content-type"]:
                    assert isinstance(response.json()["detail"], str)
                else:
                    assert f"<title>{status} " in response.text
    assert bodies == {"application/json", "text/html"}
    assert server.state.charged("enrichment") == 0
    assert server.state.leads() == []
    assert server.state.fault_counts() == {"server_error": 40}
    assert {r.status_code for r in server.state.requests()} <= {500, 502, 503}


def test_a_drop_before_processing_loses_the_request(make_server: MakeServer) -> None:
    server = make_server(drop_before_rate=1.0, **QUICK)
    with api_client(server) as http, pytest.raises(httpx.RemoteProtocolError):
        http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead()})
    assert server.state.charged("enrichment") == 0
    assert server.state.requests() == []
    [fault] = server.state.faults()
    assert (fault.kind, fault.method, fault.path, fault.key) == (
        "drop_before",
        "POST",
        "/api/v1/leads/enrich",
        server.api_key,
    )


def test_a_drop_after_processing_loses_the_answer_not_the_work(make_server: MakeServer) -> None:
    server = make_server(drop_after_rate=1.0, **QUICK)
    with api_client(server) as http, pytest.raises(httpx.RemoteProtocolError):
        http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead()})
    assert server.state.charged("enrichment") == 1
    [stored] = server.state.leads()
    assert stored.input.domain == "acme.com"
    assert [(r.path, r.status_code) for r in server.state.requests()] == [("/api/v1/leads/enrich", 200)]
    assert server.state.fault_counts() == {"drop_after": 1}


def test_a_slow_answer_outlasts_the_client_timeout(make_server: MakeServer) -> None:
    server = make_server(slow_rate=1.0, slow_seconds=0.3, **QUICK)
    with api_client(server) as http:
        started = time.perf_counter()
        with pytest.raises(httpx.ReadTimeout):
            http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead()}, timeout=0.1)
        assert time.perf_counter() - started < 0.3
        # Done and charged all the same; a patient client gets the answer, late.
        assert server.state.charged("enrichment") == 1
        started = time.perf_counter()
        assert http.get("/usage", timeout=2.0).status_code == 200
        assert time.perf_counter() - started >= 0.3
    assert server.state.fault_counts() == {"slow": 2}


def test_a_malformed_body_is_a_2xx_with_broken_json(make_server: MakeServer) -> None:
    server = make_server(malformed_rate=1.0, **QUICK)
    with api_client(server) as http:
        for n in range(12):
            response = http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead(f"m{n}.com")})
            assert response.status_code == 200
            with pytest.raises(json.JSONDecodeError):
                response.json()
        # Only 2xx answers are spoiled: an error passes as it was.
        missing = http.get("/leads/ld_missing")
        assert missing.status_code == 404
        assert "not found" in missing.json()["detail"]
    details = {f.detail for f in server.state.faults()}
    assert details == {"truncated", "junk before the JSON"}
    assert server.state.charged("enrichment") == 12


def test_an_upstream_full_burst_refuses_the_next_enrichments(make_server: MakeServer) -> None:
    server = make_server(upstream_full_rate=0.3, upstream_full_burst=3, **QUICK)
    with api_client(server) as http:
        statuses = [
            http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead(f"u{n}.com")}).status_code
            for n in range(30)
        ]
        # Other endpoints never meet the burst.
        assert all(http.get("/usage").status_code == 200 for _ in range(10))
    assert set(statuses) == {200, 429}
    first = statuses.index(429)
    assert statuses[first : first + 3] == [429, 429, 429]
    refused = [f for f in server.state.faults() if f.kind == "upstream_full"]
    assert len(refused) == statuses.count(429)
    assert server.state.charged("enrichment") == statuses.count(200)


def test_health_is_never_faulted(make_server: MakeServer) -> None:
    server = make_server(server_error_rate=0.5, drop_before_rate=0.5)
    with httpx.Client(base_url=server.api_url, trust_env=False) as http:
        assert all(http.get("/health").status_code == 200 for _ in range(30))
    assert server.state.faults() == []


def _outcomes(seed: int) -> list[str]:
    with (
        FakeServer(fault_seed=seed, server_error_rate=0.2, malformed_rate=0.2, **QUICK) as server,
        api_client(server) as http,
    ):
        return [
            f"{http.get('/leads', params={'limit': n % 7 + 1}).status_code} {server.state.fault_counts()}"
            for n in range(40)
        ]


def test_faults_depend_on_the_seed_and_the_request_only() -> None:
    assert _outcomes(7) == _outcomes(7)
    assert _outcomes(7) != _outcomes(8)
