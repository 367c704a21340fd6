"""POST /leads/enrich in both modes, the job state machine, dedupe and validation."""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any

import httpx
import pytest

from leadenrich import JobOut, LeadOut
from leadenrich.testing import FakeServer
from tests.helpers import MakeServer, api_client, assert_validation_error, lead, wait_job


def test_async_enrich_answers_202_queued_at_once(make_server: MakeServer) -> None:
    # The job's intake alone lasts an hour of the service: a 202 that waited for the
    # enrichment could not come before the job left `queued` (no clock is read here, so a
    # busy machine cannot fail it).
    server = make_server(queued_seconds=3600.0)
    with api_client(server) as http:
        response = http.post("/leads/enrich", json={"lead": lead()})
    [job] = server.state.async_jobs.outs(None)
    assert job.status == "queued"
    assert response.status_code == 202
    body = response.json()
    assert set(body) == {"job_id", "status"}
    assert body["status"] == "queued"
    assert body["job_id"].startswith("job_")


def test_mode_async_is_the_default_and_can_be_explicit(http: httpx.Client) -> None:
    response = http.post("/leads/enrich", params={"mode": "async"}, json={"lead": lead()})
    assert response.status_code == 202
    assert response.json()["status"] == "queued"


def test_a_job_goes_queued_running_done(make_server: MakeServer) -> None:
    # Long enough phases (0.1 s each) to see every state over HTTP.
    server = make_server(queued_seconds=20, enrichment_seconds=(20.0, 20.0))
    with api_client(server) as http:
        job_id = http.post("/leads/enrich", json={"lead": lead(email="ada@acme.com")}).json()["job_id"]
        seen: list[str] = []
        job: dict[str, Any] = {}
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            job = http.get(f"/jobs/{job_id}").json()
            if not seen or seen[-1] != job["status"]:
                seen.append(job["status"])
            if job["status"] in ("done", "failed"):
                break
            time.sleep(0.01)  # the poll interval: every state the job passes through is seen
    assert seen == ["queued", "running", "done"]
    assert job["kind"] == "lead.enrich"
    assert job["error"] is None
    created, started, finished = (
        datetime.fromisoformat(job[k].replace("Z", "+00:00"))
        for k in ("created_at", "started_at", "finished_at")
    )
    assert created.tzinfo is not None
    assert created <= started <= finished
    result = LeadOut.model_validate(job["result"])
    assert result.input.email == "ada@acme.com"
    assert result.deduped is False
    assert server.state.charged("enrichment") == 1
    assert [lead_out.id for lead_out in server.state.leads()] == [result.id]


def test_a_queued_job_has_no_start_yet(make_server: MakeServer) -> None:
    server = make_server(queued_seconds=10_000)
    with api_client(server) as http:
        job_id = http.post("/leads/enrich", json={"lead": lead()}).json()["job_id"]
        job = http.get(f"/jobs/{job_id}").json()
    assert job["status"] == "queued"
    assert job["started_at"] is None
    assert job["finished_at"] is None
    assert job["result"] is None
    assert job["callback_url"] is None


def test_a_failed_job_carries_an_error_and_refunds_its_credit(server: FakeServer, http: httpx.Client) -> None:
    job_id = http.post("/leads/enrich", json={"lead": lead("broken.fail")}).json()["job_id"]
    wait_job(server, job_id)
    job = http.get(f"/jobs/{job_id}").json()
    assert job["status"] == "failed"
    assert job["result"] is None
    assert job["error"]["code"] == "enrichment_failed"
    assert "broken.fail" in job["error"]["message"]
    assert job["finished_at"] is not None
    assert [c.amount for c in server.state.charges(kind="enrichment")] == [1, -1]
    assert http.get("/usage").json()["monthly_leads"]["used"] == 0
    assert http.get("/leads").json()["total"] == 0


def test_the_failure_rule_is_configurable(make_server: MakeServer) -> None:
    server = make_server(
        enrichment_seconds=(4.0, 8.0), enrichment_fails=lambda lead_in: lead_in.company == "Doomed"
    )
    with api_client(server) as http:
        failing = http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead(company="Doomed")})
        fine = http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead("acme.fail")})
    assert failing.status_code == 502
    assert fine.status_code == 200


def test_sync_enrich_blocks_for_the_enrichment_and_returns_the_lead(
    server: FakeServer, http: httpx.Client
) -> None:
    body = lead(
        name="Ada Lovelace", email="ada@acme.com", title="CTO", linkedin_url="https://linkedin.com/in/ada"
    )
    started = time.monotonic()
    response = http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": body})
    elapsed = time.monotonic() - started
    assert response.status_code == 200
    assert elapsed >= server.settings.real_seconds(server.settings.enrichment_seconds[0])
    out = LeadOut.model_validate(response.json())
    assert out.input.model_dump() == body
    assert out.id.startswith("ld_")
    assert out.tier == "growth"
    assert out.deduped is False
    assert out.created_at is not None
    assert out.created_at.tzinfo is not None
    assert server.state.charged("enrichment", key=server.api_key) == 1
    assert http.get(f"/leads/{out.id}").json()["id"] == out.id


def test_sync_mode_ignores_the_callback_url(server: FakeServer, http: httpx.Client) -> None:
    body = {"lead": lead(), "callback_url": server.callback_url()}
    assert http.post("/leads/enrich", params={"mode": "sync"}, json=body).status_code == 200
    # A later async job's delivery arriving alone shows the sync one is not merely late.
    job_id = http.post(
        "/leads/enrich", json={"lead": lead("other.com"), "callback_url": server.callback_url()}
    ).json()["job_id"]
    assert server.state.wait_until(lambda: len(server.state.callbacks()) == 1)
    assert [d.job_id for d in server.state.callbacks()] == [job_id]


def test_a_failed_sync_enrichment_is_a_502_and_refunded(server: FakeServer, http: httpx.Client) -> None:
    response = http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead("gone.invalid")})
    assert response.status_code == 502
    detail = response.json()["detail"]
    assert detail.startswith("enrichment_failed: ")
    assert "refunded" in detail
    assert server.state.charged("enrichment") == 0
    assert len(server.state.charges()) == 2
    assert server.state.leads() == []
    assert server.state.in_flight == 0


@pytest.mark.parametrize("mode", ["SYNC", "later", ""])
def test_an_unknown_mode_is_a_422(server: FakeServer, http: httpx.Client, mode: str) -> None:
    response = http.post("/leads/enrich", params={"mode": mode}, json={"lead": lead()})
    assert_validation_error(response, ["query", "mode"])
    assert server.state.charges() == []


@pytest.mark.parametrize(
    ("body", "loc"),
    [
        ({"lead": {"company": "Acme"}}, ["body", "lead", "domain"]),
        ({"lead": {"domain": "acme.com"}}, ["body", "lead", "company"]),
        ({"lead": {"company": "Acme", "domain": ""}}, ["body", "lead", "domain"]),
        ({"lead": {"company": "Acme", "domain": "https://acme.com"}}, ["body", "lead", "domain"]),
        ({"lead": {"company": 7, "domain": "acme.com"}}, ["body", "lead", "company"]),
        ({"lead": lead(), "callback_url": "ftp://hooks"}, ["body", "callback_url"]),
        ({}, ["body", "lead"]),
        ({"lead": {**lead(), "compnay": "typo"}}, ["body", "lead", "compnay"]),
    ],
)
def test_invalid_bodies_are_422_in_the_specs_shape(
    server: FakeServer, http: httpx.Client, body: dict[str, Any], loc: list[str | int]
) -> None:
    for mode in ("async", "sync"):
        assert_validation_error(http.post("/leads/enrich", params={"mode": mode}, json=body), loc)
    assert server.state.charges() == []
    assert server.state.jobs() == []


def test_a_missing_or_broken_body_is_a_422(http: httpx.Client) -> None:
    assert_validation_error(http.post("/leads/enrich"), ["body"])
    broken = http.post("/leads/enrich", content=b"{not json", headers={"Content-Type": "application/json"})
    assert broken.status_code == 422
    assert broken.json()["detail"][0]["type"] == "json_invalid"


def test_another_accounts_job_is_404(server: FakeServer, http: httpx.Client) -> None:
    job_id = http.post("/leads/enrich", json={"lead": lead()}).json()["job_id"]
    with api_client(server, server.add_key()) as stranger:
        response = stranger.get(f"/jobs/{job_id}")
    assert response.status_code == 404
    assert isinstance(response.json()["detail"], str)
    assert http.get("/jobs/job_unknown").status_code == 404
    # A second key of the same account sees it.
    with api_client(server, server.add_key(user="default")) as colleague:
        assert colleague.get(f"/jobs/{job_id}").status_code == 200


class TestDedupe:
    def test_sync_returns_the_existing_record_without_a_charge(
        self, server: FakeServer, http: httpx.Client
    ) -> None:
        first = http.post(
            "/leads/enrich", params={"mode": "sync"}, json={"lead": lead(email="Ada@Acme.com")}
        ).json()
        again = http.post(
            "/leads/enrich",
            params={"mode": "sync"},
            json={"lead": lead("acme.io", email="ada@acme.COM", name="Someone Else")},
        )
        # No enrichment ran for it (one charge, one stored lead, below): no clock is read,
        # so a busy machine cannot fail this.
        assert again.status_code == 200
        body = again.json()
        assert body["deduped"] is True
        assert body["id"] == first["id"]
        assert body["input"] == first["input"]
        assert server.state.charged("enrichment") == 1
        assert http.get("/leads").json()["total"] == 1

    def test_async_yields_a_job_done_at_once(self, server: FakeServer, http: httpx.Client) -> None:
        first = http.post(
            "/leads/enrich", params={"mode": "sync"}, json={"lead": lead(email="ada@acme.com")}
        ).json()
        created = http.post("/leads/enrich", json={"lead": lead(email="ADA@acme.com")})
        assert created.status_code == 202
        assert created.json()["status"] == "queued"
        job = JobOut.model_validate(http.get(f"/jobs/{created.json()['job_id']}").json())
        assert job.status == "done"
        assert job.result is not None
        assert job.result.deduped is True
        assert job.result.id == first["id"]
        assert job.created_at == job.started_at == job.finished_at
        assert server.state.charged("enrichment") == 1

    def test_is_per_account(self, server: FakeServer, http: httpx.Client) -> None:
        http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead(email="ada@acme.com")})
        with api_client(server, server.add_key()) as other:
            body = other.post(
                "/leads/enrich", params={"mode": "sync"}, json={"lead": lead(email="ada@acme.com")}
            ).json()
        assert body["deduped"] is False
        assert server.state.charged("enrichment") == 2

    def test_needs_an_email(self, server: FakeServer, http: httpx.Client) -> None:
        for _ in range(2):
            assert (
                http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead()}).json()["deduped"]
                is False
            )
        assert server.state.charged("enrichment") == 2

    def test_a_deleted_lead_is_enriched_again(self, server: FakeServer, http: httpx.Client) -> None:
        first = http.post(
            "/leads/enrich", params={"mode": "sync"}, json={"lead": lead(email="ada@acme.com")}
        ).json()
        http.delete(f"/leads/{first['id']}")
        again = http.post(
            "/leads/enrich", params={"mode": "sync"}, json={"lead": lead(email="ada@acme.com")}
        ).json()
        assert again["deduped"] is False
        assert again["id"] != first["id"]
        assert server.state.charged("enrichment") == 2

    def test_works_even_when_the_quota_is_spent_and_the_platform_full(self, make_server: MakeServer) -> None:
        # Async jobs stay queued (holding the only slot) for as long as the test runs.
        server = make_server(
            job_admission="upstream_full",
            monthly_leads=2,
            max_concurrent_enrichments=1,
            enrichment_seconds=(1.0, 1.0),
            queued_seconds=10_000,
        )
        with api_client(server) as http:
            http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead(email="ada@acme.com")})
            assert http.post("/leads/enrich", json={"lead": lead("slow.com")}).status_code == 202
            assert server.state.in_flight == 1
            fresh = http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead("new.com")})
            again = http.post(
                "/leads/enrich", params={"mode": "sync"}, json={"lead": lead(email="ada@acme.com")}
            )
        assert fresh.status_code == 402
        assert again.status_code == 200
        assert again.json()["deduped"] is True
        assert server.state.charged("enrichment") == 2


class TestContent:
    def test_every_field_of_the_enrichment_is_filled(self, http: httpx.Client) -> None:
        body = lead("northwind.io", name="Grace Hopper", title="VP Engineering", email="grace@northwind.io")
        enrichment = http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": body}).json()[
            "enrichment"
        ]
        overview = enrichment["company_overview"]
        assert all(overview[k] for k in ("company_size", "industry", "summary"))
        assert all(
            enrichment["tech_stack"][k] for k in ("cloud", "crm", "security", "infrastructure", "other")
        )
        assert enrichment["products"]
        assert enrichment["pain_points"]
        assert enrichment["tags"]
        assert set(enrichment["intent_signals"]) == {
            "hiring_signals",
            "recent_news",
            "content_published",
            "events_attended",
        }
        assert enrichment["buying_committee"]
        for member in enrichment["buying_committee"]:
            assert all(member[k] for k in ("name", "title", "role", "linkedin_url"))
        assert all(
            enrichment["engagement_playbook"][k]
            for k in ("timing", "opening_line", "value_prop", "case_study_angle")
        )
        assert "Grace" in enrichment["engagement_playbook"]["opening_line"]
        assert isinstance(enrichment["opportunity_score"], int)
        assert 0 <= enrichment["opportunity_score"] <= 100
        rationale = enrichment["score_rationale"]
        assert "\n" not in rationale
        assert rationale.endswith(".")
        assert rationale.count(". ") == 0
        assert rationale[0].isupper()
        assert "/100" not in rationale  # the score is a field of its own

    @pytest.mark.parametrize(
        ("domain", "summary", "rationale", "opening_line"),
        [
            (
                "hooli.com",
                "Hooli Inc (hooli.com) is an education technology company with 51-200 employees, "
                "running on Google Cloud and selling Hooli Cloud, Hooli Pay and Hooli Insights.",
                "An education technology company with 51-200 employees, 2 open hiring signals "
                "and 1 recent news item.",
                "Hi Ada, teams at Hooli Inc often tell us they are held back by seasonal traffic spikes.",
            ),
            (
                "globex.com",
                "Globex Inc (globex.com) is a manufacturing company with 51-200 employees, "
                "running on Microsoft Azure and selling Globex Pay and Globex Hub.",
                "A manufacturing company with 51-200 employees, 1 open hiring signal and 1 recent news item.",
                "Hi Ada, teams at Globex Inc often tell us they are held back by quality escapes.",
            ),
        ],
    )
    def test_the_prose_is_grammatical(
        self, http: httpx.Client, domain: str, summary: str, rationale: str, opening_line: str
    ) -> None:
        body = lead(domain, name="Ada Lovelace")
        enrichment = http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": body}).json()[
            "enrichment"
        ]
        assert enrichment["company_overview"]["summary"] == summary
        assert enrichment["score_rationale"] == rationale
        assert enrichment["engagement_playbook"]["opening_line"] == opening_line

    def test_the_same_domain_gives_the_same_company_record(
        self, server: FakeServer, http: httpx.Client
    ) -> None:
        def enrich(body: dict[str, Any]) -> dict[str, Any]:
            return http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": body}).json()[
                "enrichment"
            ]

        first = enrich(lead("globex.com", name="Hank Scorpio"))
        second = enrich(lead("globex.com", name="Homer Simpson", title="Safety Inspector"))
        for part in ("company_overview", "tech_stack", "products", "buying_committee", "pain_points"):
            assert first[part] == second[part]
        assert first["intent_signals"] == second["intent_signals"]
        others = [
            enrich(lead(domain))["company_overview"] for domain in ("initech.com", "hooli.com", "umbrella.co")
        ]
        assert any(other != first["company_overview"] for other in others)

    def test_opportunity_scores_stay_in_range(self, make_server: MakeServer) -> None:
        server = make_server(enrichment_seconds=(0.0, 0.0), sync_per_minute=1000)
        with api_client(server) as http:
            for n in range(40):
                body = lead(f"company{n}.com", title=("CEO", "VP Sales", "Engineer", None)[n % 4])
                score = http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": body}).json()[
                    "enrichment"
                ]["opportunity_score"]
                assert 0 <= score <= 100
