"""Limits: the platform ceiling, per-key rate limits, quota and credit exhaustion."""

from __future__ import annotations

import re
import time

import httpx
import pytest

from leadenrich.testing import FakeServer
from tests.helpers import MakeServer, api_client, lead, wait_job

# Enrichments that outlast any test (1000 API seconds): the server's stop cancels them.
FOREVER = (1000.0, 1000.0)


def _fill(http: httpx.Client, count: int) -> list[str]:
    jobs = []
    for n in range(count):
        response = http.post("/leads/enrich", json={"lead": lead(f"busy{n}.com")})
        assert response.status_code == 202
        jobs.append(response.json()["job_id"])
    return jobs


def _assert_upstream_full(response: httpx.Response, server: FakeServer) -> None:
    assert response.status_code == 429
    detail = response.json()["detail"]
    assert detail.startswith("upstream_full")
    assert "retry in a few seconds" in detail
    # In the service's seconds, whatever the scale: a client on the server's clock scales it.
    assert response.headers["retry-after"] == "2"


class TestCeiling:
    """Under the 1.0.0 reading (`job_admission="upstream_full"`) async jobs take their slot
    at creation, which makes the ceiling easy to fill; TestQueue has the spec's reading."""

    def test_a_sixth_enrichment_is_upstream_full_in_every_mode(self, make_server: MakeServer) -> None:
        # The stored lead is quick to make; async jobs stay queued, holding their slots.
        server = make_server(
            job_admission="upstream_full", enrichment_seconds=(4.0, 8.0), queued_seconds=10_000
        )
        with api_client(server) as http:
            stored = http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead("stored.com")})
            assert stored.status_code == 200
            _fill(http, 5)
            assert server.state.in_flight == 5
            charged = server.state.charged("enrichment")
            _assert_upstream_full(http.post("/leads/enrich", json={"lead": lead("sixth.com")}), server)
            _assert_upstream_full(
                http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead("sixth.com")}), server
            )
            _assert_upstream_full(http.post(f"/leads/{stored.json()['id']}/re-enrich"), server)
        assert server.state.charged("enrichment") == charged == 6
        assert len(server.state.jobs()) == 5

    def test_the_ceiling_is_platform_wide(self, make_server: MakeServer) -> None:
        server = make_server(job_admission="upstream_full", enrichment_seconds=FOREVER)
        with api_client(server) as http:
            _fill(http, 5)
        with api_client(server, server.add_key("enterprise", monthly_leads=None)) as other:
            _assert_upstream_full(other.post("/leads/enrich", json={"lead": lead()}), server)
        assert server.state.charges(key=server.api_key) == server.state.charges()

    @pytest.mark.parametrize(
        ("slots", "busy"),
        [
            (1, "the platform's only enrichment slot is busy"),
            (2, "all 2 enrichment slots of the platform are busy"),
        ],
    )
    def test_the_detail_counts_the_slots(self, make_server: MakeServer, slots: int, busy: str) -> None:
        server = make_server(
            job_admission="upstream_full", max_concurrent_enrichments=slots, enrichment_seconds=FOREVER
        )
        with api_client(server) as http:
            _fill(http, slots)
            refused = http.post("/leads/enrich", json={"lead": lead()})
        assert refused.json() == {"detail": f"upstream_full: {busy}; retry in a few seconds"}

    def test_a_finished_enrichment_frees_its_slot(self, make_server: MakeServer) -> None:
        server = make_server(
            job_admission="upstream_full", max_concurrent_enrichments=2, enrichment_seconds=(20.0, 20.0)
        )
        with api_client(server) as http:
            first, _ = _fill(http, 2)
            assert http.post("/leads/enrich", json={"lead": lead()}).status_code == 429
            wait_job(server, first)
            assert server.state.wait_until(lambda: server.state.in_flight < 2)
            assert http.post("/leads/enrich", json={"lead": lead()}).status_code == 202
        assert server.state.peak_in_flight == 2

    def test_a_failed_enrichment_frees_its_slot(self, make_server: MakeServer) -> None:
        server = make_server(
            job_admission="upstream_full", max_concurrent_enrichments=1, enrichment_seconds=(4.0, 8.0)
        )
        with api_client(server) as http:
            assert (
                http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead("x.fail")}).status_code
                == 502
            )
            assert server.state.in_flight == 0
            assert (
                http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead()}).status_code == 200
            )

    def test_retry_after_is_scaled_and_real_time_asks_for_two_seconds(self, make_server: MakeServer) -> None:
        server = make_server(
            job_admission="upstream_full",
            time_scale=1.0,
            max_concurrent_enrichments=1,
            enrichment_seconds=FOREVER,
        )
        with api_client(server) as http:
            _fill(http, 1)
            response = http.post("/leads/enrich", json={"lead": lead()})
        assert response.status_code == 429
        assert response.headers["retry-after"] == "2"


class TestPerKeyRate:
    def test_the_61st_sync_request_in_a_minute_is_refused(self, make_server: MakeServer) -> None:
        # A 6-second window: room for 60 quick requests, and the test never waits it out.
        server = make_server(time_scale=0.1)
        with api_client(server) as http:
            for _ in range(60):
                assert http.get("/leads").status_code == 200
            refused = http.get("/usage")
        assert refused.status_code == 429
        # In the service's seconds: the 60-second window frees its first place within it.
        retry_after = int(refused.headers["retry-after"])
        assert 1 <= retry_after <= 60
        assert refused.json() == {
            "detail": f"rate limit exceeded (60 req/min), retry in {retry_after} seconds"
        }

    def test_only_that_key_is_limited(self, make_server: MakeServer) -> None:
        server = make_server(time_scale=0.1, sync_per_minute=2)
        same_user = server.add_key(user="default")
        with api_client(server) as http:
            http.get("/leads")
            http.get("/leads")
            assert http.get("/leads").status_code == 429
        with api_client(server, same_user) as colleague:
            assert colleague.get("/leads").status_code == 200
        with api_client(server, server.add_key()) as stranger:
            assert stranger.get("/leads").status_code == 200

    def test_refused_requests_do_not_count_in_the_window(self, make_server: MakeServer) -> None:
        # A 1.2 s window: the five requests of the first burst fall in one even on a busy
        # machine, and the four of the second in the next.
        server = make_server(sync_per_minute=3, time_scale=0.02)
        window = server.settings.rate_window
        with api_client(server) as http:
            started = time.monotonic()
            assert [http.get("/leads").status_code for _ in range(3)] == [200, 200, 200]
            assert [http.get("/leads").status_code for _ in range(2)] == [429, 429]
            # Once the first three leave the window, three more fit: the refusals took no room.
            # The subject is the window passing: wait it out.
            time.sleep(max(0.0, started + window * 1.1 - time.monotonic()))
            assert [http.get("/leads").status_code for _ in range(4)] == [200, 200, 200, 429]

    def test_async_job_creation_has_its_own_bucket(self, make_server: MakeServer) -> None:
        server = make_server(
            time_scale=0.1, async_per_minute=3, sync_per_minute=5, max_concurrent_enrichments=50
        )
        with api_client(server) as http:
            for n in range(3):
                assert http.post("/leads/enrich", json={"lead": lead(f"a{n}.com")}).status_code == 202
            refused = http.post("/leads/enrich", json={"lead": lead()})
            assert refused.status_code == 429
            assert re.fullmatch(
                r"rate limit exceeded \(3 req/min\), retry in \d+ seconds", refused.json()["detail"]
            )
            # The sync bucket is untouched by async job creation...
            for _ in range(5):
                assert http.get("/leads").status_code == 200
            # ...and sync enrich counts there, not in the async bucket.
            assert (
                http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead()}).status_code == 429
            )
        assert server.state.charged("enrichment") == 3


class TestQuota:
    def test_an_exhausted_monthly_quota_is_a_402_asking_for_a_credit_pack(self, server: FakeServer) -> None:
        key = server.add_key(monthly_leads=1, credits=0)
        with api_client(server, key) as http:
            assert (
                http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead()}).status_code == 200
            )
            for params in ({"mode": "sync"}, {"mode": "async"}):
                refused = http.post("/leads/enrich", params=params, json={"lead": lead("next.com")})
                assert refused.status_code == 402
                detail = refused.json()["detail"]
                assert "limit reached" in detail
                assert "credit pack" in detail
            found = http.post("/email/find", json={"first_name": "A", "last_name": "B", "domain": "next.com"})
            assert found.status_code == 402
            assert http.get("/usage").json()["monthly_leads"] == {
                "included": 1,
                "credits_added": 0,
                "effective_limit": 1,
                "used": 1,
            }
        assert server.state.charged("enrichment", key=key) == 1
        assert server.state.charges(key=key, kind="email") == []

    def test_credit_packs_extend_the_pool(self, server: FakeServer) -> None:
        key = server.add_key(monthly_leads=0, credits=1)
        with api_client(server, key) as http:
            assert (
                http.post(
                    "/email/find", json={"first_name": "A", "last_name": "B", "domain": "x.com"}
                ).json()["state"]
                == "found"
            )
            assert (
                http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead()}).status_code == 402
            )
            server.add_credits(key, credits=1)
            assert (
                http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead()}).status_code == 200
            )
            assert http.get("/usage").json()["monthly_leads"]["credits_added"] == 2

    def test_a_refund_gives_the_credit_back(self, server: FakeServer) -> None:
        key = server.add_key(monthly_leads=1)
        with api_client(server, key) as http:
            assert (
                http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead("a.fail")}).status_code
                == 502
            )
            assert (
                http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead()}).status_code == 200
            )

    def test_unlimited_accounts_never_run_out(self, make_server: MakeServer) -> None:
        server = make_server(monthly_leads=None, enrichment_seconds=(0.0, 0.0))
        with api_client(server) as http:
            for n in range(5):
                assert (
                    http.post(
                        "/leads/enrich", params={"mode": "sync"}, json={"lead": lead(f"{n}.com")}
                    ).status_code
                    == 200
                )

    def test_an_exhausted_mobile_pool_is_a_402(self, make_server: MakeServer) -> None:
        server = make_server(mobile_lookup_seconds=(1000.0, 1000.0))
        key = server.add_key(mobile_credits=1)
        person = {"first_name": "Ada", "last_name": "Lovelace", "domain": "acme.com"}
        with api_client(server, key) as http:
            assert http.post("/mobile/find", json=person).status_code == 202
            # The pending lookup holds the only credit.
            refused = http.post("/mobile/find", json=person)
            assert refused.status_code == 402
            assert "limit reached" in refused.json()["detail"]
            assert "credit pack" in refused.json()["detail"]
            server.add_credits(server.user_of(key), mobile_credits=1)
            assert http.post("/mobile/find", json=person).status_code == 202

    def test_a_refunded_lookup_frees_its_held_credit(self, server: FakeServer) -> None:
        key = server.add_key(mobile_credits=1)
        with api_client(server, key) as http:
            pending = http.post(
                "/mobile/find", json={"linkedin_url": "https://linkedin.com/in/landline-9"}
            ).json()
            assert server.state.wait_until(lambda: server.state.lookups()[0].state == "refunded"), pending
            assert (
                http.post("/mobile/find", json={"linkedin_url": "https://linkedin.com/in/ada"}).status_code
                == 202
            )


@pytest.mark.parametrize("status", [402, 429])
def test_refusals_are_counted_as_calls_but_charge_nothing(make_server: MakeServer, status: int) -> None:
    server = make_server(sync_per_minute=1 if status == 429 else 60, monthly_leads=0)
    with api_client(server) as http:
        http.get("/leads")
        assert (
            http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead()}).status_code == status
        )
    assert server.state.charges() == []
    assert server.state.status_counts(server.api_key) == {200: 1, status: 1}
