"""A bulk run in the world as it may be: readings of the spec's open points the plan once
missed (a page bound, jobs forgotten, a gateway giving up while the service goes on), and
the world around a run (a checkpoint carried to another account or service, one written
by 1.0, a disk that fills up as a job is created). Both clients, against the fake server.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from leadenrich import LeadEnrichError, LeadIn
from leadenrich._bulk.checkpoint import fingerprint
from leadenrich.testing import FakeServer
from tests.helpers import MakeServer, call

from .conftest import PATIENT, MakeClient

pytestmark = pytest.mark.anyio


def rows(count: int) -> list[dict[str, Any]]:
    return [{"company": f"Co{n}", "domain": f"co{n}.com"} for n in range(count)]


def refused(server: FakeServer, status: int, path: str) -> int:
    return sum(1 for r in server.state.requests() if r.status_code == status and r.path == path)


async def test_a_gateway_gives_up_and_the_listing_refuses_pages_of_100(
    make_client: MakeClient, make_server: MakeServer
) -> None:
    # Every sync enrichment outlasts the front end: a 504, while the service goes on and
    # stores the lead. The lookups that find them meet a listing that serves 50 at most.
    server = make_server(
        gateway_timeout_seconds=5.0,
        enrichment_seconds=(8.0, 12.0),
        list_limit_bounds="reject",
        list_max_limit=50,
    )
    client = make_client(server)
    result = await call(client.leads.enrich_many(rows(3), strategy="sync", progress=False))
    assert [(o.status, o.charged, o.maybe_charged) for o in result] == [("enriched", True, False)] * 3
    assert result.credits_spent == server.state.charged("enrichment") == 3
    assert refused(server, 504, "/api/v1/leads/enrich") == 3
    assert refused(server, 422, "/api/v1/leads") >= 1, "the lookup asked for pages of 100 first"
    assert sorted(lead.id for lead in server.state.leads()) == sorted(o.lead.id for o in result)


async def test_preview_reads_a_listing_that_refuses_pages_of_100(
    make_client: MakeClient, make_server: MakeServer
) -> None:
    server = make_server(list_limit_bounds="reject", list_max_limit=50)
    client = make_client(server)
    stored = await call(
        client.leads.enrich_sync({"company": "Acme", "domain": "acme.com", "email": "a@acme.com"})
    )
    preview = await call(
        client.leads.preview_many([{"company": "Acme Inc", "domain": "acme.com", "email": "a@acme.com"}])
    )
    [row] = preview.rows
    assert (row.status, row.stored_lead_id) == ("stored", stored.id)
    assert preview.credits_at_most == 0
    assert refused(server, 422, "/api/v1/leads") == 1


def legacy_line(event: str, row: dict[str, Any], **fields: Any) -> str:
    """A checkpoint line about `row` as 1.1 (or, without `as_job`, 1.0) wrote it."""
    key = fingerprint(LeadIn.model_validate(row))
    return json.dumps({"event": event, "key": key, "index": 0, **fields, "at": "2026-01-01T00:00:00"}) + "\n"


async def test_a_job_the_service_forgot_is_looked_up_not_sent_again(
    make_client: MakeClient, make_server: MakeServer, tmp_path: Path
) -> None:
    server = make_server(job_retention_seconds=30.0)
    client = make_client(server)
    [lead] = rows(1)
    created = await call(client.leads.enrich(lead))
    done = await call(client.jobs.wait(created.job_id, **PATIENT))
    server.clock.sleep(60.0)  # on the server's clock: the job is forgotten by then
    checkpoint = tmp_path / "run.jsonl"
    checkpoint.write_text(
        legacy_line("started", lead, as_job=True) + legacy_line("job", lead, job_id=created.job_id)
    )
    [outcome] = await call(client.leads.enrich_many([lead], checkpoint=checkpoint, progress=False))
    assert refused(server, 404, f"/api/v1/jobs/{created.job_id}") == 1
    assert (outcome.status, outcome.lead.id, outcome.charged, outcome.maybe_charged) == (
        "enriched",
        done.result.id,
        False,
        False,
    )
    assert server.state.charged("enrichment") == 1, "the lead was not sent again"


async def test_a_1_0_start_line_is_taken_for_a_job_still_queued(
    make_client: MakeClient, make_server: MakeServer, tmp_path: Path
) -> None:
    # One slot, held by a long enrichment: the job 1.0 created waits in the queue behind it
    # for longer than a sync request is given (its line does not say it was a job).
    server = make_server(max_concurrent_enrichments=1, enrichment_seconds=(250.0, 250.0))
    client = make_client(server)
    await call(client.leads.enrich({"company": "Busy", "domain": "busy.com"}))
    [lead] = rows(1)
    queued = await call(client.leads.enrich(lead))
    checkpoint = tmp_path / "run.jsonl"
    checkpoint.write_text(legacy_line("started", lead))
    [outcome] = await call(
        client.leads.enrich_many([lead], checkpoint=checkpoint, strategy="sync", progress=False)
    )
    assert server.state.charged("enrichment") == 2, "the queued lead was sent again"
    assert outcome.status in ("enriched", "failed")
    if outcome.status == "failed":
        assert outcome.maybe_charged, "a lead that may be queued is reported maybe charged"
    job = await call(client.jobs.wait(queued.job_id, **PATIENT))
    [again] = await call(client.leads.enrich_many([lead], checkpoint=checkpoint, progress=False))
    assert (again.status, again.lead.id, again.charged) == ("enriched", job.result.id, False)
    assert server.state.charged("enrichment") == 2


async def test_an_older_record_taken_without_proof_is_looked_at_once_more(
    make_client: MakeClient, make_server: MakeServer, tmp_path: Path
) -> None:
    # The lead was enriched before (no email: the service keeps both records). A 1.0 run
    # created its job again and lost the answer; the job waits behind a slot held for
    # longer than the rerun looks, so the only record the rerun finds is the older one.
    server = make_server(max_concurrent_enrichments=1, enrichment_seconds=(1200.0, 1200.0), time_scale=0.002)
    client = make_client(server)
    [lead] = rows(1)
    older = await call(client.leads.enrich_sync(lead))
    await call(client.leads.enrich({"company": "Busy", "domain": "busy.com"}))
    queued = await call(client.leads.enrich(lead))
    checkpoint = tmp_path / "run.jsonl"
    checkpoint.write_text(legacy_line("started", lead))
    [taken] = await call(client.leads.enrich_many([lead], checkpoint=checkpoint, progress=False))
    assert (taken.status, taken.lead.id, taken.charged, taken.resumed) == ("enriched", older.id, False, True)
    [line] = [e for e in map(json.loads, checkpoint.read_text().splitlines()) if e["event"] == "finished"]
    assert (line["lead"]["id"], line.get("provisional")) == (older.id, True)
    still = await call(client.jobs.get(queued.job_id))
    assert still.status == "queued", "the rerun ended while the job waited"
    job = await call(client.jobs.wait(queued.job_id, **PATIENT))
    # The next run looks once more at its start, and takes the job's own record.
    [own] = await call(client.leads.enrich_many([lead], checkpoint=checkpoint, progress=False))
    assert (own.status, own.lead.id, own.charged, own.resumed) == ("enriched", job.result.id, False, True)
    assert server.state.charged("enrichment") == 3, "nothing was sent again"
    # Then the lead is done: a run after reads it from the checkpoint and asks nothing.
    asked = len(server.state.requests())
    [done] = await call(client.leads.enrich_many([lead], checkpoint=checkpoint, progress=False))
    assert (done.lead.id, done.resumed) == (job.result.id, True)
    assert [r.path for r in server.state.requests()[asked:]] == []


async def test_a_checkpoint_refuses_another_account_and_another_service(
    make_client: MakeClient, make_server: MakeServer, tmp_path: Path
) -> None:
    server = make_server()
    checkpoint = tmp_path / "run.jsonl"
    first = await call(make_client(server).leads.enrich_many(rows(2), checkpoint=checkpoint, progress=False))
    assert first.succeeded == 2
    other_key = server.state.accounts.add_key(user="another")
    elsewhere = make_server()
    for client in (make_client(server, key=other_key), make_client(elsewhere, key=server.api_key)):
        for method, options in (
            (client.leads.enrich_many, {"progress": False}),
            (client.leads.preview_many, {}),
        ):
            with pytest.raises(LeadEnrichError, match=r"belongs to another (account|service)") as caught:
                await call(method(rows(3), checkpoint=checkpoint, **options))
            said = str(caught.value)
            assert "Nothing was sent" in said
            assert server.api_key not in said
            assert other_key not in said
    # The other key asked for the checkpoint's records (a GET each, never shown it), and
    # for nothing else; the other service was asked nothing.
    asked = [
        (r.method, r.path.rsplit("/", 1)[0], r.status_code)
        for r in server.state.requests()
        if r.key == other_key
    ]
    assert asked == [("GET", "/api/v1/leads", 404)] * 4
    assert elsewhere.state.requests() == []
    # A second key of the same account is shown the records: it resumes the run, and is
    # named among the checkpoint's owners.
    colleague = server.state.accounts.add_key(user=server.user_of(server.api_key))
    resumed = await call(
        make_client(server, key=colleague).leads.enrich_many(rows(2), checkpoint=checkpoint, progress=False)
    )
    assert [o.resumed for o in resumed] == [True, True]
    # The owner's own key goes on where the first run stopped.
    again = await call(make_client(server).leads.enrich_many(rows(3), checkpoint=checkpoint, progress=False))
    assert [o.resumed for o in again] == [True, True, False]
    assert server.state.charged("enrichment") == 3
    text = checkpoint.read_text()
    assert server.api_key not in text
    assert colleague not in text
    assert text.count('"event":"owner"') == 2


async def test_a_checkpoint_of_1_1_is_adopted_by_the_first_run(
    make_client: MakeClient, make_server: MakeServer, tmp_path: Path
) -> None:
    server = make_server()
    [lead] = rows(1)
    stored = await call(make_client(server).leads.enrich_sync(lead))
    checkpoint = tmp_path / "run.jsonl"
    out = stored.model_dump(mode="json")
    checkpoint.write_text(legacy_line("finished", lead, status="enriched", lead=out))
    [outcome] = await call(
        make_client(server).leads.enrich_many([lead], checkpoint=checkpoint, progress=False)
    )
    assert (outcome.status, outcome.resumed) == ("enriched", True)
    first = json.loads(checkpoint.read_text().splitlines()[1])
    assert (first["event"], first["service"]) == ("owner", make_client(server).base_url.rstrip("/"))


async def test_a_full_disk_as_a_job_is_created_still_polls_it(
    make_client: MakeClient, make_server: MakeServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = make_server()
    client = make_client(server)
    checkpoint = tmp_path / "run.jsonl"
    fsync = os.fsync

    def failing(fd: int) -> None:
        # The disk fills up as the first job's id is written: it never reaches the disk.
        if b'"event":"job"' in checkpoint.read_bytes():
            raise OSError(28, "No space left on device")
        fsync(fd)

    monkeypatch.setattr(os, "fsync", failing)
    result = await call(
        client.leads.enrich_many(
            rows(3), strategy="async", concurrency=1, checkpoint=checkpoint, progress=False
        )
    )
    first, *rest = list(result)
    assert (first.status, first.charged, first.maybe_charged) == ("enriched", True, False)
    assert [o.status for o in rest] == ["skipped", "skipped"]
    assert server.state.charged("enrichment") == result.credits_spent == 1
