"""The SDK's waits under both readings of a full platform at async creation, both clients:
`queue` (202, the job waits in `queued` for a slot) and `upstream_full` (a 429 at creation,
which the SDK backs off from and sends again)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from leadenrich import LeadOut
from leadenrich.testing import FakeServer, FakeSettings
from tests.helpers import MakeServer, call

from .conftest import PATIENT, MakeClient

pytestmark = pytest.mark.anyio

ADMISSIONS = FakeSettings.open_points()["job_admission"]


def _occupy(server: FakeServer) -> str:
    """Another account takes the platform's only slot for one enrichment (0.1 s)."""
    response = httpx.post(
        server.api_url + "/leads/enrich",
        json={"lead": {"company": "Other", "domain": "other.com"}},
        headers={"Authorization": f"Bearer {server.add_key()}"},
        trust_env=False,
    )
    assert response.status_code == 202
    job_id = str(response.json()["job_id"])
    assert server.state.wait_until(lambda: server.state.in_flight == 1)
    return job_id


def _server(make_server: MakeServer, admission: str) -> FakeServer:
    return make_server(job_admission=admission, max_concurrent_enrichments=1, enrichment_seconds=(20.0, 20.0))


def _job(server: FakeServer, job_id: str) -> Any:
    return next(job for job in server.state.jobs() if job.job_id == job_id)


@pytest.mark.parametrize("admission", ADMISSIONS)
async def test_enrich_and_wait_gets_the_lead(
    make_client: MakeClient, make_server: MakeServer, admission: str
) -> None:
    server = _server(make_server, admission)
    client = make_client(server)
    other = _occupy(server)
    lead = await call(client.leads.enrich_and_wait({"company": "Acme", "domain": "acme.com"}, **PATIENT))
    assert isinstance(lead, LeadOut)
    statuses = server.state.status_counts(server.api_key)
    if admission == "queue":
        assert 429 not in statuses
        [job] = server.state.jobs(user=server.user_of(server.api_key))
        # It waited in `queued` for the other account's enrichment to end.
        assert job.started_at is not None
        assert job.started_at >= _job(server, other).finished_at
    else:
        assert statuses[429] >= 1
        assert len(server.state.jobs(user=server.user_of(server.api_key))) == 1
    assert statuses[202] == 1
    assert server.state.charged("enrichment", key=server.api_key) == 1
    assert server.state.peak_in_flight == 1


@pytest.mark.parametrize("admission", ADMISSIONS)
async def test_jobs_wait_sees_queued_then_done(
    make_client: MakeClient, make_server: MakeServer, admission: str
) -> None:
    server = _server(make_server, admission)
    client = make_client(server)
    other = _occupy(server)
    seen: list[str] = []
    created = await call(client.leads.enrich({"company": "Acme", "domain": "acme.com"}))
    assert created.status == "queued"
    done = await call(
        client.jobs.wait(created.job_id, on_progress=lambda job: seen.append(job.status), **PATIENT)
    )
    assert done.status == "done"
    assert seen[-1] == "done"
    assert set(seen) <= {"queued", "running", "done"}
    if admission == "queue":
        # It stayed queued while the other account's enrichment held the only slot.
        assert done.started_at is not None
        assert done.started_at >= _job(server, other).finished_at


@pytest.mark.parametrize("admission", ADMISSIONS)
async def test_enrich_many_async_strategy_enriches_every_lead(
    make_client: MakeClient, make_server: MakeServer, admission: str
) -> None:
    server = _server(make_server, admission)
    client = make_client(server)
    _occupy(server)
    leads = [{"company": f"C{n}", "domain": f"c{n}.com"} for n in range(4)]
    result = await call(client.leads.enrich_many(leads, strategy="async", poll_interval=0.01, progress=False))
    assert [outcome.status for outcome in result] == ["enriched"] * 4
    assert result.credits_spent == 4
    assert server.state.charged("enrichment", key=server.api_key) == 4
    assert len({outcome.lead.id for outcome in result if outcome.lead is not None}) == 4
    assert server.state.peak_in_flight == 1
