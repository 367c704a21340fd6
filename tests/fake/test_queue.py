"""Async jobs wait in `queued` while the platform's slots are busy (job_admission="queue"),
or are refused with upstream_full at creation (job_admission="upstream_full")."""

from __future__ import annotations

import httpx

from leadenrich.testing import FakeServer
from tests.helpers import MakeServer, api_client, lead, wait_job

FOREVER = (1000.0, 1000.0)


def _create(http: httpx.Client, domain: str) -> str:
    response = http.post("/leads/enrich", json={"lead": lead(domain)})
    assert response.status_code == 202, response.text
    assert response.json()["status"] == "queued"
    return str(response.json()["job_id"])


def _status(http: httpx.Client, job_id: str) -> str:
    return str(http.get(f"/jobs/{job_id}").json()["status"])


def test_a_job_beyond_the_ceiling_is_accepted_and_stays_queued(make_server: MakeServer) -> None:
    server = make_server(max_concurrent_enrichments=2, enrichment_seconds=FOREVER)
    with api_client(server) as http:
        running = [_create(http, f"busy{n}.com") for n in range(2)]
        assert server.state.wait_until(lambda: server.state.in_flight == 2)
        waiting = _create(http, "waiting.com")
        # Well past its intake time (1 API second), it still has no slot.
        assert not server.state.wait_until(lambda: server.state.in_flight > 2, timeout=0.1)
        assert [_status(http, job) for job in running] == ["running", "running"]
        job = http.get(f"/jobs/{waiting}").json()
        assert (job["status"], job["started_at"], job["result"]) == ("queued", None, None)
    # Accepted means charged, like any enrichment run; refunded if it never runs.
    assert server.state.charged("enrichment") == 3
    assert server.state.peak_in_flight == 2


def test_a_queued_job_runs_when_a_slot_frees_oldest_first(make_server: MakeServer) -> None:
    server = make_server(max_concurrent_enrichments=1, enrichment_seconds=(10.0, 10.0))
    with api_client(server) as http:
        jobs = [_create(http, f"c{n}.com") for n in range(3)]
        finished = [wait_job(server, job) for job in jobs]
    assert [job.status for job in finished] == ["done"] * 3
    starts = [job.started_at for job in finished if job.started_at is not None]
    ends = [job.finished_at for job in finished if job.finished_at is not None]
    assert len(starts) == len(ends) == 3
    # One slot: each job starts once the one before has finished, in creation order.
    assert starts[1] >= ends[0]
    assert starts[2] >= ends[1]
    assert server.state.peak_in_flight == 1
    assert server.state.charged("enrichment") == 3


def test_a_sync_request_is_still_refused_when_every_slot_is_busy(make_server: MakeServer) -> None:
    server = make_server(max_concurrent_enrichments=1, enrichment_seconds=FOREVER)
    with api_client(server) as http:
        _create(http, "busy.com")
        assert server.state.wait_until(lambda: server.state.in_flight == 1)
        refused = http.post("/leads/enrich", params={"mode": "sync"}, json={"lead": lead()})
    assert refused.status_code == 429
    assert refused.json()["detail"].startswith("upstream_full")


def test_stopping_the_server_fails_and_refunds_queued_jobs(make_server: MakeServer) -> None:
    server: FakeServer = make_server(max_concurrent_enrichments=1, enrichment_seconds=FOREVER)
    with api_client(server) as http:
        _create(http, "busy.com")
        _create(http, "waiting.com")
    server.stop()
    jobs = server.state.jobs()
    assert [job.status for job in jobs] == ["failed", "failed"]
    assert all(job.error is not None and job.error["code"] == "server_stopped" for job in jobs)
    assert server.state.charged("enrichment") == 0
    assert server.state.in_flight == 0


def test_upstream_full_admission_refuses_at_creation(make_server: MakeServer) -> None:
    server = make_server(
        job_admission="upstream_full", max_concurrent_enrichments=1, enrichment_seconds=FOREVER
    )
    with api_client(server) as http:
        _create(http, "busy.com")
        # The job took its slot at creation, before its intake time was over.
        assert server.state.in_flight == 1
        refused = http.post("/leads/enrich", json={"lead": lead()})
    assert refused.status_code == 429
    assert refused.json()["detail"].startswith("upstream_full")
    assert len(server.state.jobs()) == 1
    assert server.state.charged("enrichment") == 1
