"""enrich_many: outcomes, credits, checkpoints, resume, recovery of lost answers."""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
import respx

from leadenrich import (
    APIConnectionError,
    APITimeoutError,
    AuthenticationError,
    BulkOutcome,
    BulkResult,
    InternalServerError,
    InvalidRequestError,
    JobOut,
    LeadEnrichError,
    LeadIn,
    LeadOut,
    LeadPage,
    PollTimeoutError,
    RateLimitError,
)
from leadenrich._bulk.checkpoint import Checkpoint
from leadenrich._bulk.inputs import Item, read_items
from leadenrich._bulk.plan import Plan
from leadenrich._bulk.tasks import Lookup, Send, is_ambiguous
from leadenrich.testing import ManualClock
from tests.helpers import call, collect, lead_out

pytestmark = pytest.mark.anyio

# pandas is imported by the tests that use it: imported here, it cost every xdist worker
# 0.4 s of CPU before its first test.

ROWS = [{"company": f"Co{i}", "domain": f"co{i}.com"} for i in range(6)]


class FakeEnrich:
    """A stand-in for POST /leads/enrich?mode=sync that stores what it enriches."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.sent: list[dict[str, Any]] = []
        self.stored: list[dict[str, Any]] = []
        self.script: dict[str, list[httpx.Response | Exception]] = {}
        self.store_before_failing: set[str] = set()
        self.checkpoint: Path | None = None
        """When set, each lead sent must already be marked started there."""
        self.unmarked = 0

    def __call__(self, request: httpx.Request) -> httpx.Response:
        lead = json.loads(request.content)["lead"]
        record: dict[str, Any] = {}
        with self.lock:
            self.sent.append(lead)
            if self.checkpoint is not None:
                started = self.checkpoint.read_text().count('"event":"started"')
                self.unmarked += started < len(self.sent)
            planned = self.script.get(lead["company"])
            failure = planned.pop(0) if planned else None
            if failure is None or lead["company"] in self.store_before_failing:
                record = lead_out(f"ld_{len(self.stored)}", input=lead, created_at="2099-01-01T00:00:00Z")
                self.stored.insert(0, record)
        if isinstance(failure, Exception):
            raise failure
        if failure is not None:
            return failure
        return httpx.Response(200, json=record)

    def listing(self, request: httpx.Request) -> httpx.Response:
        skip, limit = int(request.url.params["skip"]), int(request.url.params["limit"])
        return httpx.Response(200, json={"items": self.stored[skip : skip + limit]})


@pytest.fixture
def service(api: respx.MockRouter) -> FakeEnrich:
    fake = FakeEnrich()
    api.post("/leads/enrich", params={"mode": "sync"}).mock(side_effect=fake)
    api.get("/leads").mock(side_effect=fake.listing)
    return fake


async def test_every_lead_gets_an_outcome_in_order(client: Any, service: FakeEnrich) -> None:
    rows: list[Any] = [*ROWS[:3], {"company": "NoDomain"}, LeadIn(company="Obj", domain="obj.com"), 42]
    result = await call(client.leads.enrich_many(rows, progress=False))
    assert isinstance(result, BulkResult)
    assert [o.index for o in result] == [0, 1, 2, 3, 4, 5]
    assert [o.status for o in result] == ["enriched", "enriched", "enriched", "failed", "enriched", "failed"]
    assert isinstance(result.outcomes[3].error, InvalidRequestError)
    assert "domain is missing" in str(result.outcomes[3].error)
    assert (result.succeeded, result.failed, result.credits_spent) == (4, 2, 4)
    assert len(service.sent) == 4, "invalid rows are never sent"


async def test_one_failure_never_stops_the_rest(client: Any, service: FakeEnrich) -> None:
    service.script["Co2"] = [
        httpx.Response(422, json={"detail": [{"loc": ["body"], "msg": "bad", "type": "x"}]})
    ]
    result = await call(client.leads.enrich_many(ROWS, progress=False))
    assert [o.status for o in result] == [
        "enriched",
        "enriched",
        "failed",
        "enriched",
        "enriched",
        "enriched",
    ]
    assert result.errors[0].index == 2


async def test_429s_are_absorbed_without_dropping_the_lead(
    client: Any, service: FakeEnrich, sleeps: list[float], clock: ManualClock
) -> None:
    upstream = httpx.Response(429, json={"detail": "upstream_full: busy"}, headers={"Retry-After": "2"})
    service.script["Co1"] = [upstream] * 30  # more than the client's own upstream budget
    result = await call(client.leads.enrich_many(ROWS, progress=False))
    assert result.succeeded == 6
    assert sum(1 for lead in service.sent if lead["company"] == "Co1") == 31
    assert sum(sleeps) >= 2.0 * 30, "every 429 was waited out, 2 s at least"


async def test_max_credits_stops_new_enrichments(client: Any, service: FakeEnrich) -> None:
    result = await call(client.leads.enrich_many(ROWS, max_credits=2, concurrency=1, progress=False))
    assert [o.status for o in result] == ["enriched", "enriched", "skipped", "skipped", "skipped", "skipped"]
    assert result.credits_spent == 2
    assert "max_credits=2" in str(result.outcomes[2].error)
    assert len(service.sent) == 2


async def test_dedupes_are_not_charged_and_free_the_budget(client: Any, api: respx.MockRouter) -> None:
    api.post("/leads/enrich", params={"mode": "sync"}).mock(
        side_effect=lambda request: httpx.Response(200, json=lead_out(deduped=True))
    )
    result = await call(client.leads.enrich_many(ROWS, max_credits=1, concurrency=1, progress=False))
    assert result.deduped == 6
    assert result.credits_spent == 0


async def test_a_refused_account_stops_the_run(client: Any, service: FakeEnrich) -> None:
    service.script["Co0"] = [httpx.Response(401, json={"detail": "Pass the key as a Bearer token"})]
    result = await call(client.leads.enrich_many(ROWS, concurrency=1, progress=False))
    assert result.outcomes[0].status == "failed"
    assert isinstance(result.outcomes[0].error, AuthenticationError)
    assert {o.status for o in result.outcomes[1:]} == {"skipped"}
    assert len(service.sent) == 1


async def test_a_lost_answer_is_found_among_stored_leads(client: Any, service: FakeEnrich) -> None:
    # The service enriched and charged Co3, then the connection dropped: not a failure.
    service.script["Co3"] = [httpx.RemoteProtocolError("Server disconnected")]
    service.store_before_failing.add("Co3")
    result = await call(client.leads.enrich_many(ROWS, progress=False))
    assert result.outcomes[3].status == "enriched"
    assert result.outcomes[3].charged
    assert sum(1 for lead in service.sent if lead["company"] == "Co3") == 1, "never re-sent"
    assert result.credits_spent == 6


async def test_a_dropped_connection_is_looked_up_once_the_service_must_be_done(
    client: Any, api: respx.MockRouter, service: FakeEnrich, sleeps: list[float], clock: ManualClock
) -> None:
    # The connection drops while the service is still enriching Co3; it stores the lead
    # later. Looked up at once, it would be reported as maybe charged.
    service.script["Co3"] = [httpx.RemoteProtocolError("Server disconnected")]
    service.store_before_failing.add("Co3")

    def listing(request: httpx.Request) -> httpx.Response:
        done = sum(sleeps) >= 95
        stored = [r for r in service.stored if done or r["input"]["company"] != "Co3"]
        skip = int(request.url.params.get("skip", 0))
        return httpx.Response(200, json={"items": stored[skip : skip + int(request.url.params["limit"])]})

    api.get("/leads").mock(side_effect=listing)
    result = await call(client.leads.enrich_many(ROWS, progress=False))
    assert (result.outcomes[3].status, result.outcomes[3].charged) == ("enriched", True)
    # Parked, then looked up 100 s after the failure: one wait, with no worker held.
    assert sleeps == [100.0]
    assert sum(1 for lead in service.sent if lead["company"] == "Co3") == 1, "never re-sent"


async def test_a_lost_answer_not_stored_is_reported_not_resent(
    client: Any, service: FakeEnrich, sleeps: list[float], clock: ManualClock
) -> None:
    service.script["Co3"] = [httpx.Response(502, text="<html>Bad Gateway</html>")]
    result = await call(client.leads.enrich_many(ROWS, progress=False))
    assert sleeps == [], "the service answered: it is done, no need to wait before looking"
    assert result.outcomes[3].status == "failed"
    assert isinstance(result.outcomes[3].error, InternalServerError)
    assert "It was not sent again" in str(result.outcomes[3].error)
    assert sum(1 for lead in service.sent if lead["company"] == "Co3") == 1


async def test_a_created_job_is_never_sent_again_when_its_polls_are_refused(
    client: Any, api: respx.MockRouter, clock: ManualClock
) -> None:
    create = api.post("/leads/enrich").respond(202, json={"job_id": "j", "status": "queued"})
    api.get("/jobs/j").respond(429, json={"detail": "slow down"}, headers={"Retry-After": "500"})
    api.get("/leads").respond(200, json={"items": []})
    result = await call(
        client.with_options(max_retries=0).leads.enrich_many(ROWS[:1], strategy="async", progress=False)
    )
    [outcome] = result
    assert create.call_count == 1, "the lead of a created, charged job was sent again"
    assert outcome.status == "failed"
    assert outcome.maybe_charged
    assert isinstance(outcome.error, PollTimeoutError)


async def test_checkpoint_resume_skips_what_was_done(
    client: Any, service: FakeEnrich, tmp_path: Path
) -> None:
    path = tmp_path / "run.jsonl"
    service.script["Co4"] = [httpx.Response(422, json={"detail": "bad"})]
    first = await call(client.leads.enrich_many(ROWS, checkpoint=path, progress=False))
    assert first.failed == 1
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert sum(1 for line in lines if line["event"] == "finished") == 6
    assert all("le_live" not in line for line in path.read_text().splitlines())
    second = await call(client.leads.enrich_many(ROWS, checkpoint=path, progress=False))
    assert [o.resumed for o in second] == [True, True, True, True, False, True]
    assert second.succeeded == 6
    assert second.credits_spent == 1
    assert len(service.sent) == 7, "only the failed lead was sent again"


async def test_a_torn_last_line_is_tolerated(client: Any, service: FakeEnrich, tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    await call(client.leads.enrich_many(ROWS[:2], checkpoint=path, progress=False))
    with path.open("a") as handle:
        handle.write('{"event": "finished", "key": "abc#0", "lead": {"id": "half')
    result = await call(client.leads.enrich_many(ROWS[:3], checkpoint=path, progress=False))
    assert [o.resumed for o in result] == [True, True, False]
    assert path.read_text().endswith("\n")
    assert all(json.loads(line) for line in path.read_text().splitlines())


async def test_started_but_unfinished_leads_are_looked_up_before_resending(
    client: Any, service: FakeEnrich, tmp_path: Path, sleeps: list[float], clock: ManualClock
) -> None:
    # A run killed while Co0 was in flight: the service finished and stored it anyway.
    path = tmp_path / "run.jsonl"
    first = await call(client.leads.enrich_many(ROWS[:1], checkpoint=path, progress=False))
    started = next(json.loads(line) for line in path.read_text().splitlines() if '"started"' in line)
    path.write_text(json.dumps(started) + "\n")
    result = await call(client.leads.enrich_many(ROWS[:2], checkpoint=path, progress=False))
    # Co0 was sent moments ago: the service may take it in up to a settle window late and
    # then enrich it as long, storing it only when done, so the lookup waits until a sync
    # enrichment must have ended.
    assert len(sleeps) == 1
    assert 195 < sleeps[0] <= 200
    assert result.outcomes[0].resumed
    assert result.outcomes[0].lead is not None
    assert first.outcomes[0].lead is not None
    assert result.outcomes[0].lead.id == first.outcomes[0].lead.id
    assert [lead["company"] for lead in service.sent] == ["Co0", "Co1"]


async def test_a_rerun_gives_a_lost_answer_a_settle_window_however_old_its_start(
    client: Any, service: FakeEnrich, tmp_path: Path, sleeps: list[float], clock: ManualClock
) -> None:
    # Co0 started long ago but its request went out late (slots, 429s): its answer was
    # lost as late as the earlier run ended, and the service may still be enriching it.
    path = tmp_path / "run.jsonl"
    await call(client.leads.enrich_many(ROWS[:1], checkpoint=path, progress=False))
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    started = next(line for line in lines if line["event"] == "started")
    lost = {**started, "event": "finished", "status": "failed", "maybe_charged": True}
    path.write_text(
        json.dumps({**started, "at": "2000-01-01T00:00:00+00:00"}) + "\n" + json.dumps(lost) + "\n"
    )
    result = await call(client.leads.enrich_many(ROWS[:1], checkpoint=path, progress=False))
    assert len(sleeps) == 1
    assert 95 < sleeps[0] <= 100
    assert result.outcomes[0].resumed


async def test_an_old_start_without_an_answer_is_looked_up_once_it_was_taken_in_and_run_at_the_latest(
    client: Any, service: FakeEnrich, tmp_path: Path, sleeps: list[float], clock: ManualClock
) -> None:
    # "started" is written before the request waits for a slot, the pacer and 429s: it may
    # have left at any time until the killed run ended, so an old start proves nothing.
    # Looked up at once, a request still being enriched was not found and sent again.
    path = tmp_path / "run.jsonl"
    await call(client.leads.enrich_many(ROWS[:1], checkpoint=path, progress=False))
    started = next(json.loads(line) for line in path.read_text().splitlines() if '"started"' in line)
    path.write_text(json.dumps({**started, "at": "2000-01-01T00:00:00+00:00"}) + "\n")
    result = await call(client.leads.enrich_many(ROWS[:1], checkpoint=path, progress=False))
    assert result.outcomes[0].resumed
    assert sleeps == [200.0]


async def test_an_old_lost_answer_is_looked_up_a_settle_window_after_the_rerun_began(
    client: Any, service: FakeEnrich, tmp_path: Path, sleeps: list[float], clock: ManualClock
) -> None:
    # The checkpoint dates the loss long ago, but by this machine's clock, which may have
    # stepped since (or be another machine's): the rerun times nothing by it, and gives
    # the lead a settle window from its own start.
    path = tmp_path / "run.jsonl"
    await call(client.leads.enrich_many(ROWS[:1], checkpoint=path, progress=False))
    started = next(json.loads(line) for line in path.read_text().splitlines() if '"started"' in line)
    old = "2000-01-01T00:00:00+00:00"
    lost = {"event": "lost", "key": started["key"], "unanswered": 0.0, "at": old}
    path.write_text(json.dumps({**started, "at": old}) + "\n" + json.dumps(lost) + "\n")
    result = await call(client.leads.enrich_many(ROWS[:1], checkpoint=path, progress=False))
    assert result.outcomes[0].resumed
    assert sleeps == [100.0]


async def test_leads_that_cannot_be_looked_up_are_not_sent_again(
    client: Any, api: respx.MockRouter, service: FakeEnrich, tmp_path: Path
) -> None:
    path = tmp_path / "run.jsonl"
    await call(client.leads.enrich_many(ROWS[:1], checkpoint=path, progress=False))
    started = next(json.loads(line) for line in path.read_text().splitlines() if '"started"' in line)
    path.write_text(json.dumps(started) + "\n")
    api.get("/leads").respond(503, text="<html>busy</html>")
    result = await call(
        client.with_options(max_retries=0).leads.enrich_many(ROWS[:2], checkpoint=path, progress=False)
    )
    [lost, fresh] = result
    assert (lost.status, lost.maybe_charged) == ("failed", True)
    assert "not sent again" in str(lost.error)
    assert fresh.status == "enriched"
    assert [lead["company"] for lead in service.sent] == ["Co0", "Co1"], "Co0 was sent twice"
    # Still "started" in the checkpoint: the next run looks for it again.
    api.get("/leads").mock(side_effect=service.listing)
    third = await call(client.leads.enrich_many(ROWS[:2], checkpoint=path, progress=False))
    assert third.outcomes[1].resumed


async def test_a_foreign_file_is_refused(client: Any, service: FakeEnrich, tmp_path: Path) -> None:
    path = tmp_path / "notes.jsonl"
    path.write_text("hello\n")
    with pytest.raises(Exception, match="is not a checkpoint entry"):
        await call(client.leads.enrich_many(ROWS, checkpoint=path, progress=False))
    assert service.sent == []


async def test_a_dataframe_is_read_by_its_lead_columns(client: Any, service: FakeEnrich) -> None:
    import pandas

    frame = pandas.DataFrame(
        {
            "company": ["A", "B"],
            "domain": ["a.com", "b.com"],
            "email": ["x@a.com", None],
            "owner": ["me", "you"],
        }
    )
    result = await call(client.leads.enrich_many(frame, progress=False))
    assert result.succeeded == 2
    # The two leave together: either may reach the service first.
    assert sorted(service.sent, key=lambda lead: lead["company"]) == [
        {"company": "A", "domain": "a.com", "email": "x@a.com"},
        {"company": "B", "domain": "b.com"},
    ]
    table = result.to_pandas()
    assert list(table["status"]) == ["enriched", "enriched"]
    assert list(table["opportunity_score"]) == [72, 72]
    assert table.loc[0, "tech_stack_cloud"] == "AWS"


async def test_a_failed_lead_leaves_the_scores_whole_numbers(client: Any, service: FakeEnrich) -> None:
    rows = [ROWS[0], {"company": "No domain"}]
    table = (await call(client.leads.enrich_many(rows, progress=False))).to_pandas()
    assert str(table["opportunity_score"].dtype) == "Int64"
    assert table.loc[0, "opportunity_score"] == 72
    assert table["opportunity_score"].isna().tolist() == [False, True]
    # One marker for a missing value in every column: pandas' NA, never None beside NaN.
    import pandas

    missing = [value for column in table.columns for value in table[column] if pandas.isna(value)]
    assert missing
    assert all(value is pandas.NA for value in missing), {type(value).__name__ for value in missing}


def test_a_dataframe_without_lead_columns_is_refused() -> None:
    import pandas

    from leadenrich import LeadEnrich

    client = LeadEnrich("k", base_url="https://api.test")
    with pytest.raises(InvalidRequestError, match="no domain column"):
        client.leads.enrich_many(pandas.DataFrame({"company": ["A"]}))


async def test_records_flatten_the_enrichment(client: Any, service: FakeEnrich) -> None:
    result = await call(client.leads.enrich_many(ROWS[:1], progress=False))
    record = result.to_records()[0]
    assert record["input_company"] == "Co0"
    assert record["company_overview_industry"] == "Software"
    assert record["intent_signals_hiring_signals"] == "Hiring SREs"
    assert json.loads(record["buying_committee"])[0]["title"] == "CTO"
    assert record["error"] is None


async def test_outcomes_stream_as_they_complete(client: Any, service: FakeEnrich) -> None:
    seen: list[int] = []
    outcomes = await collect(client.leads.enrich_iter(ROWS, progress=lambda o: seen.append(o.index)))
    assert sorted(o.index for o in outcomes) == list(range(6))
    assert sorted(seen) == list(range(6))


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"concurrency": 0}, InvalidRequestError),
        ({"max_credits": -1}, InvalidRequestError),
        ({"strategy": "fast"}, InvalidRequestError),
        ({"poll_interval": 0}, InvalidRequestError),
    ],
)
async def test_bad_options_send_nothing(
    client: Any, service: FakeEnrich, kwargs: dict[str, Any], error: type[Exception]
) -> None:
    with pytest.raises(error):
        await call(client.leads.enrich_many(ROWS, **kwargs))
    assert service.sent == []


def test_a_timeout_before_any_job_was_created_charged_nothing() -> None:
    waiting_for_a_slot = PollTimeoutError("slots stayed busy; nothing was sent", last=None)
    polling = PollTimeoutError("job j was still running", last=JobOut(job_id="j", status="running"))
    assert not is_ambiguous(waiting_for_a_slot)
    assert is_ambiguous(polling)


async def test_every_lead_is_marked_started_before_it_is_sent(
    client: Any, service: FakeEnrich, tmp_path: Path
) -> None:
    service.checkpoint = tmp_path / "run.jsonl"
    result = await call(client.leads.enrich_many(ROWS, checkpoint=service.checkpoint, progress=False))
    assert result.succeeded == len(ROWS)
    assert service.unmarked == 0, "a lead reached the service before the checkpoint knew of it"


async def test_a_checkpoint_that_cannot_be_written_stops_the_run_before_sending(
    client: Any, service: FakeEnrich, tmp_path: Path
) -> None:
    # Its folder is a file: there is nothing to read, and the first line cannot be written.
    (tmp_path / "taken").write_text("not a folder")
    path = tmp_path / "taken" / "run.jsonl"
    result: BulkResult = await call(client.leads.enrich_many(ROWS, checkpoint=path, progress=False))
    assert service.sent == [], "a lead was sent that a rerun would not know to look up"
    assert [o.status for o in result] == ["skipped"] * len(ROWS)
    assert all(f"checkpoint {path} cannot be written" in str(o.error) for o in result)


def scheduled(path: Path) -> tuple[Plan, Checkpoint, Item]:
    """A plan writing its checkpoint to `path`, and its first lead, scheduled but not sent."""
    store = Checkpoint(path)
    plan = Plan(read_items(ROWS), store.take(), None, store, ManualClock())
    task = plan.next()
    assert isinstance(task, Send)
    return plan, store, task.item


def test_a_lead_scheduled_before_a_stop_is_skipped_not_sent(tmp_path: Path) -> None:
    plan, store, item = scheduled(tmp_path / "run.jsonl")
    plan.stop(LeadEnrichError("not started: the run was interrupted"))
    [skipped], line = plan.sending(item)
    store.close()
    assert line is None
    assert skipped.status == "skipped"
    assert str(skipped.error) == "not started: the run was interrupted"
    assert (tmp_path / "run.jsonl").read_bytes() == b"", "a lead never sent was marked started"


def test_a_lead_is_marked_started_when_it_is_sent_not_when_it_is_scheduled(tmp_path: Path) -> None:
    # A Ctrl-C between the two would leave a lead never sent "started", and the rerun
    # would wait out the service's 100 s for it before looking it up.
    path = tmp_path / "run.jsonl"
    plan, store, item = scheduled(path)
    assert path.read_bytes() == b""
    outcomes, line = plan.sending(item)
    assert outcomes == []
    assert line is not None
    line.result()
    store.close()
    assert Checkpoint(path).load().uncertain.keys() == {item.key}


def timed_out(read: float) -> APITimeoutError:
    """A read timeout of `read` seconds, after the request was sent."""
    request = httpx.Request(
        "POST", "https://api.example/api/v1/leads/enrich", extensions={"timeout": {"read": read}}
    )
    error = APITimeoutError("timed out", request=request, request_sent=True)
    error.__cause__ = httpx.ReadTimeout("timed out", request=request)
    return error


def test_a_request_unanswered_for_its_whole_timeout_is_looked_up_at_once_then_once_it_must_be_done(
    tmp_path: Path,
) -> None:
    # 150 s without an answer: the service must be done with a request it took in when it
    # was sent, so the first look comes at once. A service too busy to take it in may take
    # it in as late as the client waited for it (now) and then enrich it a settle window,
    # so not finding it then is not the end: one more look, 100 s later, finds it stored
    # (the stall under load that 1.1's first look missed).
    clock = ManualClock()
    plan = Plan(read_items(ROWS[:1]), Checkpoint(tmp_path / "run.jsonl").load(), None, None, clock)
    send = plan.next()
    assert isinstance(send, Send)
    plan.sending(send.item)
    assert plan.failed(send.item, timed_out(read=150.0)) == []
    first = plan.next()
    assert isinstance(first, Lookup)
    assert plan.looked_up(first, plan.scan(first), None) == [], "given up after one look"
    assert plan.next() is None
    assert plan.idle() == 100.0
    clock.advance(100.0)
    second = plan.next()
    assert isinstance(second, Lookup)
    scan = plan.scan(second)
    scan.read(stored_page(send.item, "ld_late"))
    [found] = plan.looked_up(second, scan, None)
    assert (found.status, found.charged, found.maybe_charged) == ("enriched", True, False)
    assert found.lead is not None
    assert found.lead.id == "ld_late"


def test_a_lead_not_found_once_the_service_must_be_done_with_it_was_not_charged(tmp_path: Path) -> None:
    # Its second look comes once the service must have stored it, had it enriched it: an
    # enrichment charged is stored (or refunded, failed). Failed, with the error it met;
    # nothing to look for in a rerun, which sends it again.
    clock = ManualClock()
    plan = Plan(read_items(ROWS[:1]), Checkpoint(tmp_path / "run.jsonl").load(), None, None, clock)
    send = plan.next()
    assert isinstance(send, Send)
    plan.sending(send.item)
    plan.failed(send.item, timed_out(read=150.0))
    outcomes: list[BulkOutcome] = []
    for _ in range(2):
        look = plan.next()
        assert isinstance(look, Lookup)
        outcomes = plan.looked_up(look, plan.scan(look), None)
        clock.advance(plan.idle() or 0.0)
    [lost] = outcomes
    assert (lost.status, lost.charged, lost.maybe_charged) == ("failed", False, False)
    assert isinstance(lost.error, APITimeoutError)
    assert plan.next() is None
    assert plan.idle() is None


def test_a_lost_job_is_looked_up_again_while_a_job_sent_with_it_is_running(tmp_path: Path) -> None:
    # Two jobs leave together. The first one's answer is lost; the second one's 202 comes
    # 15 s later (a loaded machine). When the lost one is looked up, a settle window after
    # the loss, the other has been running as long as it has had (both count from when
    # their requests left), so it may still be queued too: it is looked up once more.
    # (Counted from its late 202, the other looked 15 % younger, and the lost job was
    # reported maybe charged.)
    clock = ManualClock()
    plan = Plan(read_items(ROWS[:2]), Checkpoint(tmp_path / "run.jsonl").load(), None, None, clock, jobs=True)
    lost, other = plan.next(), plan.next()
    assert isinstance(lost, Send)
    assert isinstance(other, Send)
    plan.sending(lost.item)
    plan.sending(other.item)
    clock.advance(0.5)
    request = httpx.Request("POST", "https://api.example/api/v1/leads/enrich")
    assert plan.failed(lost.item, APIConnectionError("dropped", request=request, request_sent=True)) == []
    clock.advance(15.0)
    plan.job_created(other.item, "job_other")
    clock.advance(plan.idle() or 0.0)
    look = plan.next()
    assert isinstance(look, Lookup)
    assert plan.looked_up(look, plan.scan(look), None) == [], "reported without another look"
    assert plan.idle() == 100.0


def stored_page(item: Item, lead_id: str) -> LeadPage:
    """A page of the listing holding the service's record of `item`'s lead (undated)."""
    assert item.lead is not None
    return LeadPage(
        items=[LeadOut.model_validate(lead_out(lead_id, input=item.lead.model_dump(exclude_none=True)))]
    )


def test_rate_limit_error_is_not_a_lead_failure() -> None:
    assert not issubclass(RateLimitError, InvalidRequestError)


def test_ctrl_c_finishes_what_was_paid_for_and_resume_completes(
    api: respx.MockRouter, service: FakeEnrich, tmp_path: Path
) -> None:
    from leadenrich import LeadEnrich

    path = tmp_path / "run.jsonl"
    client = LeadEnrich("le_live_k", base_url="https://api.test", rate_limits=None)

    def interrupt(outcome: Any) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        client.leads.enrich_many(ROWS, concurrency=3, checkpoint=path, progress=interrupt)
    sent_before = len(service.sent)
    assert 1 <= sent_before < len(ROWS), "the interrupt stopped new leads from starting"
    finished = [json.loads(line) for line in path.read_text().splitlines() if '"finished"' in line]
    # A lead about to leave as the interrupt came is kept back, and written down as skipped.
    sent = [entry for entry in finished if entry["status"] != "skipped"]
    assert len(sent) == sent_before, "every lead in flight finished and was written down"
    result = client.leads.enrich_many(ROWS, checkpoint=path, progress=False)
    assert result.succeeded == len(ROWS)
    assert len(service.sent) == len(ROWS), "no lead was sent twice"
    assert result.resumed == sent_before


@pytest.mark.parametrize(("options", "first_poll"), [({}, 1.0), ({"poll_interval": 0.1}, 0.1)])
async def test_the_async_strategy_sees_a_job_done_at_once_at_its_first_look(
    client: Any, api: respx.MockRouter, clock: ManualClock, options: dict[str, Any], first_poll: float
) -> None:
    api.post("/leads/enrich").respond(202, json={"job_id": "j", "status": "queued"})
    poll = api.get("/jobs/j").respond(200, json={"job_id": "j", "status": "done", "result": lead_out()})
    start = clock.now()
    result = await call(client.leads.enrich_many(ROWS[:1], strategy="async", progress=False, **options))
    assert result.succeeded == 1
    assert (poll.call_count, clock.sleeps) == (1, [first_poll])
    assert clock.now() - start == pytest.approx(first_poll)


def test_to_pandas_without_pandas_names_the_extra_that_brings_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)  # what an environment without pandas imports
    with pytest.raises(ImportError, match=r'needs pandas: pip install "leadenrich\[notebook\]"'):
        BulkResult([]).to_pandas()
