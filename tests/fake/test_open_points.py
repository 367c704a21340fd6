"""The settings for the spec's open points, on the wire: each value does what docs/testing.md says."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import pytest

from leadenrich.testing import FakeServer, FakeSettings
from tests.helpers import MakeServer, anonymous_client, api_client, assert_validation_error, lead, wait_job

QUICK: dict[str, Any] = {"enrichment_seconds": (4.0, 8.0), "mobile_lookup_seconds": (2.0, 6.0)}


def _sync(server: FakeServer, domain: str, **fields: Any) -> dict[str, Any]:
    with api_client(server) as http:
        response = http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead(domain, **fields)})
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_every_open_point_defaults_to_its_first_value() -> None:
    settings = FakeSettings()
    points = FakeSettings.open_points()
    assert set(points) >= {
        "job_admission",
        "list_order",
        "list_shape",
        "list_limit_bounds",
        "sync_failure",
        "health_body",
        "delete_body",
        "unknown_fields",
        "same_email_in_flight",
        "re_enrich_charge",
        "failed_job_callback",
        "unknown_mode",
    }
    for name, values in points.items():
        assert len(values) >= 2, name
        assert getattr(settings, name) == values[0], name


def test_an_unknown_value_names_the_setting_and_its_values() -> None:
    with pytest.raises(
        ValueError, match=r"FakeSettings.list_order must be one of 'newest_first', 'oldest_first'"
    ):
        FakeSettings(list_order="random")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"list_max_limit must be an int >= 1"):
        FakeSettings(list_max_limit=0)


class TestListing:
    @pytest.mark.parametrize("order", ["newest_first", "oldest_first"])
    def test_order(self, make_server: MakeServer, order: str) -> None:
        server = make_server(list_order=order, **QUICK)
        made = [_sync(server, f"c{n}.com")["id"] for n in range(3)]
        with api_client(server) as http:
            listed = [item["id"] for item in http.get("/leads").json()["items"]]
        assert listed == (made[::-1] if order == "newest_first" else made)

    @pytest.mark.parametrize(
        ("shape", "keys"),
        [
            ("items", {"items", "total", "limit", "skip"}),
            ("leads", {"leads", "count"}),
            ("data", {"data", "has_more"}),
            ("results", {"results", "count", "next", "previous"}),
        ],
    )
    def test_wrapped_shapes(self, make_server: MakeServer, shape: str, keys: set[str]) -> None:
        server = make_server(list_shape=shape, **QUICK)
        for n in range(3):
            _sync(server, f"c{n}.com")
        with api_client(server) as http:
            first = http.get("/leads", params={"limit": 2}).json()
            last = http.get("/leads", params={"limit": 2, "skip": 2}).json()
        assert set(first) == keys
        assert len(first[shape]) == 2
        assert len(last[shape]) == 1
        if shape == "data":
            assert (first["has_more"], last["has_more"]) == (True, False)
        if shape in ("leads", "results"):
            assert first["count"] == last["count"] == 3
        if shape == "results":
            assert first["next"].endswith("/api/v1/leads?limit=2&skip=2")
            assert (first["previous"], last["next"]) == (None, None)
            assert last["previous"].endswith("/api/v1/leads?limit=2&skip=0")

    def test_bare_list(self, make_server: MakeServer) -> None:
        server = make_server(list_shape="bare", **QUICK)
        made = _sync(server, "acme.com")
        with api_client(server) as http:
            body = http.get("/leads").json()
        assert isinstance(body, list)
        assert [item["id"] for item in body] == [made["id"]]

    def test_reject_bounds(self, make_server: MakeServer) -> None:
        server = make_server(list_max_limit=10)
        with api_client(server) as http:
            assert_validation_error(http.get("/leads", params={"limit": 11}), ["query", "limit"])
            assert_validation_error(http.get("/leads", params={"limit": 0}), ["query", "limit"])
            assert_validation_error(http.get("/leads", params={"limit": 10, "skip": -1}), ["query", "skip"])
            assert http.get("/leads", params={"limit": 10}).status_code == 200

    def test_clamp_bounds(self, make_server: MakeServer) -> None:
        server = make_server(list_limit_bounds="clamp", list_max_limit=2, **QUICK)
        for n in range(3):
            _sync(server, f"c{n}.com")
        with api_client(server) as http:
            capped = http.get("/leads", params={"limit": 50, "skip": -4}).json()
            tiny = http.get("/leads", params={"limit": 0}).json()
        assert (len(capped["items"]), capped["limit"], capped["skip"]) == (2, 2, 0)
        assert (len(tiny["items"]), tiny["limit"]) == (1, 1)


class TestFailedSyncEnrichment:
    @pytest.mark.parametrize(
        ("value", "status", "json_body"),
        [("502_json", 502, True), ("500_text", 500, False), ("503_json", 503, True)],
    )
    def test_answer_and_refund(
        self, make_server: MakeServer, value: str, status: int, json_body: bool
    ) -> None:
        server = make_server(sync_failure=value, **QUICK)
        with api_client(server) as http:
            response = http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead("gone.fail")})
        assert response.status_code == status
        if json_body:
            assert response.headers["content-type"] == "application/json"
            assert response.json()["detail"].endswith("the credit was refunded")
        else:
            assert response.headers["content-type"].startswith("text/plain")
            assert response.text == "Internal Server Error"
        assert [c.amount for c in server.state.charges()] == [1, -1]
        assert server.state.leads() == []


class TestBodies:
    @pytest.mark.parametrize(
        ("value", "status", "text"),
        [
            ("status_version", 200, '{"status":"ok","version":"1.0.0"}'),
            ("status", 200, '{"status":"ok"}'),
            ("text", 200, "OK"),
            ("empty", 204, ""),
        ],
    )
    def test_health(self, make_server: MakeServer, value: str, status: int, text: str) -> None:
        server = make_server(health_body=value)
        with anonymous_client(server) as anonymous:
            response = anonymous.get("/health")
        assert (response.status_code, response.text) == (status, text)

    @pytest.mark.parametrize("value", ["id_deleted", "lead", "message", "empty"])
    def test_delete(self, make_server: MakeServer, value: str) -> None:
        server = make_server(delete_body=value, **QUICK)
        made = _sync(server, "acme.com")
        with api_client(server) as http:
            response = http.delete(f"/leads/{made['id']}")
            again = http.delete(f"/leads/{made['id']}")
        expected: Any = {
            "id_deleted": {"id": made["id"], "deleted": True},
            "lead": made,
            "message": {"message": "lead deleted"},
            "empty": None,
        }[value]
        assert response.status_code == (204 if value == "empty" else 200)
        assert (response.json() if response.content else None) == expected
        assert again.status_code == 404
        assert server.state.leads() == []


class TestUnknownFields:
    BODIES: ClassVar[list[tuple[str, dict[str, Any], list[str | int]]]] = [
        ("/leads/enrich", {"lead": lead(), "priority": "high"}, ["body", "priority"]),
        ("/leads/enrich", {"lead": {**lead(), "phone": "+1"}}, ["body", "lead", "phone"]),
        ("/email/find", {"linkedin_url": "https://linkedin.com/in/ada", "x": 1}, ["body", "x"]),
        ("/mobile/find", {"linkedin_url": "https://linkedin.com/in/ada", "x": 1}, ["body", "x"]),
    ]

    @pytest.mark.parametrize(("path", "body", "loc"), BODIES)
    def test_reject(self, server: FakeServer, path: str, body: dict[str, Any], loc: list[str | int]) -> None:
        with api_client(server) as http:
            [entry] = assert_validation_error(http.post(path, json=body), loc)
        assert entry["type"] == "extra_forbidden"
        assert server.state.charges() == []

    @pytest.mark.parametrize(("path", "body", "loc"), BODIES)
    def test_ignore(
        self, make_server: MakeServer, path: str, body: dict[str, Any], loc: list[str | int]
    ) -> None:
        server = make_server(unknown_fields="ignore", **QUICK)
        with api_client(server) as http:
            response = http.post(path, json=body)
            assert response.status_code in (200, 202), response.text
            # Still validated: what is left must be a valid request.
            assert_validation_error(
                http.post(path, json={"x": 1}), ["body", *([] if "find" in path else ["lead"])]
            )


class TestSameEmailInFlight:
    def _two_at_once(self, server: FakeServer) -> list[dict[str, Any]]:
        # Two async jobs for one email, created before either has run.
        with api_client(server) as http:
            ids = [
                http.post("/leads/enrich", json={"lead": lead(domain, email="ada@acme.com")}).json()["job_id"]
                for domain in ("acme.com", "acme.io")
            ]
        return [wait_job(server, job_id).model_dump(mode="json") for job_id in ids]

    def test_charge_both(self, make_server: MakeServer) -> None:
        server = make_server(**QUICK)
        first, second = self._two_at_once(server)
        assert first["result"]["id"] != second["result"]["id"]
        assert (first["result"]["deduped"], second["result"]["deduped"]) == (False, False)
        assert server.state.charged("enrichment") == 2
        assert len(server.state.leads()) == 2

    def test_dedupe(self, make_server: MakeServer) -> None:
        server = make_server(same_email_in_flight="dedupe", **QUICK)
        first, second = self._two_at_once(server)
        assert second["status"] == "done"
        assert second["result"]["id"] == first["result"]["id"]
        assert (first["result"]["deduped"], second["result"]["deduped"]) == (False, True)
        assert server.state.charged("enrichment") == 1
        assert len(server.state.leads()) == 1

    def test_dedupe_of_a_sync_request_waits_for_the_job(self, make_server: MakeServer) -> None:
        server = make_server(same_email_in_flight="dedupe", **QUICK)
        with api_client(server) as http:
            job_id = http.post("/leads/enrich", json={"lead": lead(email="ada@acme.com")}).json()["job_id"]
            sync = http.post(
                "/leads/enrich", params={"mode": "sync"}, json={"lead": lead(email="ADA@acme.com")}
            )
        assert sync.status_code == 200
        assert sync.json()["deduped"] is True
        assert sync.json()["id"] == wait_job(server, job_id).result.id  # type: ignore[union-attr]
        assert server.state.charged("enrichment") == 1

    def test_dedupe_after_a_failed_run_runs_the_second(self, make_server: MakeServer) -> None:
        server = make_server(same_email_in_flight="dedupe", **QUICK)
        with api_client(server) as http:
            failing = http.post("/leads/enrich", json={"lead": lead("gone.fail", email="ada@acme.com")})
            second = http.post("/leads/enrich", json={"lead": lead("acme.com", email="ada@acme.com")})
        assert wait_job(server, failing.json()["job_id"]).status == "failed"
        done = wait_job(server, second.json()["job_id"])
        assert done.status == "done"
        assert done.result is not None
        assert done.result.deduped is False
        assert server.state.charged("enrichment") == 1


@pytest.mark.parametrize(("value", "charged"), [("charged", 2), ("free", 1)])
def test_re_enrich_charge(make_server: MakeServer, value: str, charged: int) -> None:
    server = make_server(re_enrich_charge=value, **QUICK)
    made = _sync(server, "acme.com")
    with api_client(server) as http:
        again = http.post(f"/leads/{made['id']}/re-enrich")
    assert again.status_code == 200
    assert again.json()["id"] == made["id"]
    assert server.state.charged("enrichment") == charged


def test_a_free_re_enrichment_is_allowed_with_the_quota_spent(make_server: MakeServer) -> None:
    server = make_server(re_enrich_charge="free", monthly_leads=1, **QUICK)
    made = _sync(server, "acme.com")
    with api_client(server) as http:
        assert http.post(f"/leads/{made['id']}/re-enrich").status_code == 200
        assert (
            http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead("b.com")}).status_code
            == 402
        )


@pytest.mark.parametrize(("value", "posted"), [("posted", True), ("not_posted", False)])
def test_failed_job_callback(make_server: MakeServer, value: str, posted: bool) -> None:
    server = make_server(failed_job_callback=value, **QUICK)
    with api_client(server) as http:
        failed = http.post(
            "/leads/enrich", json={"lead": lead("gone.fail"), "callback_url": server.callback_url("f")}
        )
        done = http.post(
            "/leads/enrich", json={"lead": lead("acme.com"), "callback_url": server.callback_url("d")}
        )
    assert wait_job(server, failed.json()["job_id"]).status == "failed"
    assert wait_job(server, done.json()["job_id"]).status == "done"
    # The successful job's callback is always posted; it is the mark that deliveries are done.
    assert server.state.wait_until(lambda: len(server.state.received_callbacks("d")) == 1)
    assert server.state.wait_until(lambda: len(server.state.callbacks()) == (2 if posted else 1), timeout=1.0)
    assert len(server.state.received_callbacks("f")) == (1 if posted else 0)


class TestUnknownMode:
    def test_reject(self, server: FakeServer) -> None:
        with api_client(server) as http:
            [entry] = assert_validation_error(
                http.post("/leads/enrich", params={"mode": "later"}, json={"lead": lead()}), ["query", "mode"]
            )
        assert entry["type"] == "literal_error"
        assert server.state.charges() == []

    @pytest.mark.parametrize(("value", "status"), [("async", 202), ("sync", 200)])
    def test_run_as(self, make_server: MakeServer, value: str, status: int) -> None:
        server = make_server(unknown_mode=value, async_per_minute=1, **QUICK)
        with api_client(server) as http:
            response = http.post("/leads/enrich", params={"mode": "later"}, json={"lead": lead()})
            # It counts against the bucket of the mode it ran as.
            after = http.post("/leads/enrich", json={"lead": lead("b.com")})
        assert response.status_code == status
        assert after.status_code == (429 if value == "async" else 202)
        assert server.state.charged("enrichment") == (1 if value == "async" else 2)


def test_docs_list_every_open_point_with_its_values() -> None:
    page = (Path(__file__).parents[2] / "docs" / "testing.md").read_text()
    rows = {line.split("|")[1].strip(): line for line in page.splitlines() if line.startswith("| `")}
    for name, values in FakeSettings.open_points().items():
        row = rows.get(f"`{name}`")
        assert row is not None, f"docs/testing.md has no row for {name}"
        listed = row.split("|")[2]
        assert listed.strip().startswith(f'`"{values[0]}"`'), f"{name}: the default comes first"
        for value in values:
            assert f'`"{value}"`' in listed, f"docs/testing.md does not list {name}={value}"
