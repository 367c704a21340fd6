"""The job-completion callback: once, unsigned, for done and failed jobs; errors swallowed."""

from __future__ import annotations

import httpx

from leadenrich import JobCompletedEvent
from leadenrich.testing import FakeServer
from tests.helpers import lead, wait_job


def _wait_deliveries(server: FakeServer, count: int) -> None:
    assert server.state.wait_until(lambda: len(server.state.callbacks()) >= count)


def test_a_done_job_posts_the_event_once(server: FakeServer, http: httpx.Client) -> None:
    url = server.callback_url("hooks")
    job_id = http.post(
        "/leads/enrich", json={"lead": lead(email="ada@acme.com"), "callback_url": url}
    ).json()["job_id"]
    _wait_deliveries(server, 1)
    job = http.get(f"/jobs/{job_id}").json()
    assert job["callback_url"] == url

    [delivery] = server.state.callbacks()
    assert (delivery.job_id, delivery.url, delivery.status_code, delivery.error) == (job_id, url, 204, None)
    assert delivery.delivered
    [received] = server.state.received_callbacks("hooks")
    assert received == delivery.payload
    assert set(received) == {"job_id", "kind", "status", "created_at", "finished_at", "result", "error"}
    event = JobCompletedEvent.model_validate(received)
    assert (event.job_id, event.kind, event.status, event.error) == (job_id, "lead.enrich", "done", None)
    assert event.result is not None
    assert event.result.model_dump(mode="json") == job["result"]
    assert event.result.input.email == "ada@acme.com"
    # Nothing more arrives later: one delivery per job.
    wait_job(server, http.post("/leads/enrich", json={"lead": lead("later.com")}).json()["job_id"])
    assert len(server.state.callbacks()) == 1


def test_a_failed_job_posts_a_failed_event(server: FakeServer, http: httpx.Client) -> None:
    url = server.callback_url()
    job_id = http.post("/leads/enrich", json={"lead": lead("acme.fail"), "callback_url": url}).json()[
        "job_id"
    ]
    _wait_deliveries(server, 1)
    [received] = server.state.received_callbacks()
    event = JobCompletedEvent.model_validate(received)
    assert (event.job_id, event.status, event.result) == (job_id, "failed", None)
    assert event.error is not None
    assert event.error["code"] == "enrichment_failed"
    assert received["result"] is None


def test_a_deduped_job_posts_its_event_too(server: FakeServer, http: httpx.Client) -> None:
    first = http.post(
        "/leads/enrich", params={"mode": "sync"}, json={"lead": lead(email="a@acme.com")}
    ).json()
    url = server.callback_url()
    http.post("/leads/enrich", json={"lead": lead(email="a@acme.com"), "callback_url": url})
    _wait_deliveries(server, 1)
    [received] = server.state.received_callbacks()
    assert received["status"] == "done"
    assert received["result"]["id"] == first["id"]
    assert received["result"]["deduped"] is True


def test_an_unreachable_receiver_is_recorded_and_not_retried(
    server: FakeServer, http: httpx.Client, closed_port: int
) -> None:
    url = f"http://127.0.0.1:{closed_port}/hooks"
    job_id = http.post("/leads/enrich", json={"lead": lead(), "callback_url": url}).json()["job_id"]
    _wait_deliveries(server, 1)
    [delivery] = server.state.callbacks()
    assert delivery.status_code is None
    assert delivery.error is not None
    assert "ConnectError" in delivery.error
    assert not delivery.delivered
    assert http.get(f"/jobs/{job_id}").json()["status"] == "done"
    wait_job(server, http.post("/leads/enrich", json={"lead": lead("later.com")}).json()["job_id"])
    assert len(server.state.callbacks()) == 1


def test_a_failing_receiver_is_recorded_and_not_retried(server: FakeServer, http: httpx.Client) -> None:
    url = server.callback_url("flaky", status=500)
    http.post("/leads/enrich", json={"lead": lead(), "callback_url": url})
    _wait_deliveries(server, 1)
    [delivery] = server.state.callbacks()
    assert delivery.status_code == 500
    assert not delivery.delivered
    wait_job(server, http.post("/leads/enrich", json={"lead": lead("later.com")}).json()["job_id"])
    assert len(server.state.received_callbacks("flaky")) == 1


def test_no_callback_url_no_delivery(server: FakeServer, http: httpx.Client) -> None:
    wait_job(server, http.post("/leads/enrich", json={"lead": lead()}).json()["job_id"])
    # A later job's delivery arriving alone shows the first one is not merely late.
    url = server.callback_url()
    later = http.post("/leads/enrich", json={"lead": lead("later.com"), "callback_url": url}).json()["job_id"]
    _wait_deliveries(server, 1)
    assert [d.job_id for d in server.state.callbacks()] == [later]
