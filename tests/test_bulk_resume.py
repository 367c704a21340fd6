"""What a rerun does with the leads an earlier run left without an answer, and with the
jobs it recorded: decided from the checkpoint's lines, on a ManualClock."""

from __future__ import annotations

import json
from concurrent.futures import Future
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from leadenrich import JobOut, LeadEnrichError, LeadOut, LeadPage, read_checkpoint
from leadenrich._bulk.checkpoint import Checkpoint
from leadenrich._bulk.inputs import Item, read_items
from leadenrich._bulk.plan import Plan
from leadenrich._bulk.tasks import Lookup, Poll, Send
from leadenrich._clock import wall_time
from leadenrich.testing import ManualClock
from tests.helpers import lead_out

ROWS = [{"company": f"Co{i}", "domain": f"co{i}.com"} for i in range(3)]
SETTLE = 100.0
INTAKE = 100.0
"""How late the service may take in a request (settling.py): `SERVICE.intake`."""


def earlier_run(path: Path, *lines: dict[str, Any]) -> Checkpoint:
    """A checkpoint holding `lines`, as an earlier run wrote them."""
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return Checkpoint(path)


def at(seconds_ago: float = 0.0) -> str:
    """A date of this machine's, as the checkpoint records them: on the run's clock (a
    ManualClock's dates are its own)."""
    return (CLOCK_DATE - timedelta(seconds=seconds_ago)).isoformat()


# ManualClock() reads this date at its start: the dates the tests' lines carry are theirs.
CLOCK_DATE = wall_time(ManualClock())


def started(item: Item, **fields: Any) -> dict[str, Any]:
    return {"event": "started", "key": item.key, "index": item.index, "at": at(), **fields}


def look_up(plan: Plan, clock: ManualClock, found: str | None = None) -> list[Any]:
    """Wait for the next lookup and answer it: the lead stored as `found`, or not stored."""
    idle = plan.idle()
    assert idle is not None, "no lookup is due"
    clock.advance(idle)
    look = plan.next()
    assert isinstance(look, Lookup)
    scan = plan.scan(look)
    if found is not None:
        scan.read(LeadPage(items=[stored(look.parked[0].item, found)]))
    return plan.looked_up(look, scan, None)


def stored(item: Item, lead_id: str, created_at: str | None = None) -> LeadOut:
    """The service's record of `item`'s lead (no date: taken as stored after it left)."""
    assert item.lead is not None
    body = lead_out(lead_id, input=item.lead.model_dump(exclude_none=True), created_at=created_at)
    return LeadOut.model_validate(body)


def rerun_sending_a_job(tmp_path: Path, clock: ManualClock) -> tuple[Plan, Item]:
    """A rerun of Co0, which an earlier run sent as a job and lost the answer of (a
    dropped connection: taken in by then, if ever), and Co1, which the rerun sends now as
    a job (created, not ended yet)."""
    items = read_items(ROWS[:2])
    lost = {"event": "lost", "key": items[0].key, "unanswered": 0.0, "at": at()}
    resume = earlier_run(tmp_path / "run.jsonl", started(items[0], as_job=True), lost).load()
    plan = Plan(items, resume, None, None, clock, jobs=True)
    return plan, send_job(plan, 1)


def send_job(plan: Plan, index: int) -> Item:
    """The plan's next task, a Send of row `index`, sent as a job (created, not ended)."""
    send = plan.next()
    assert isinstance(send, Send)
    assert send.item.index == index
    plan.sending(send.item)
    plan.job_created(send.item, f"job_{index}")
    return send.item


def test_an_earlier_runs_job_not_stored_is_not_sent_again_when_no_job_shows_the_queue_moved(
    tmp_path: Path,
) -> None:
    # Its 202 was lost: the job may wait behind others in the queue for as long as the
    # queue takes. Not stored a settle window later proves nothing; sent again, it was
    # charged twice once the first job ran.
    clock = ManualClock()
    items = read_items(ROWS[:1])
    lost = {"event": "lost", "key": items[0].key, "unanswered": 0.0, "at": at()}
    resume = earlier_run(tmp_path / "run.jsonl", started(items[0], as_job=True), lost).load()
    plan = Plan(items, resume, None, None, clock, jobs=True)
    [outcome] = look_up(plan, clock)
    assert (outcome.status, outcome.maybe_charged) == ("failed", True)
    assert "not sent again" in str(outcome.error)
    assert plan.next() is None
    assert plan.idle() is None


def test_an_earlier_runs_job_not_stored_is_sent_again_once_a_later_job_ended_a_settle_window_ago(
    tmp_path: Path,
) -> None:
    # Co1 is this run's job, sent after Co0's request reached the service: the queue admits
    # the oldest first, so once Co1 ended (and a job then runs a settle window at most), a
    # job Co0's request made would be stored.
    clock = ManualClock()
    plan, co1 = rerun_sending_a_job(tmp_path, clock)
    assert look_up(plan, clock) == [], "given up while Co1's job was running"
    clock.advance(20.0)
    plan.succeeded(co1, LeadOut.model_validate(lead_out("ld_1")))
    assert look_up(plan, clock) == []
    assert plan.next() is None, "sent again before a settle window after Co1's end"
    assert plan.idle() == 20.0
    assert look_up(plan, clock) == []
    resend = plan.next()
    assert isinstance(resend, Send)
    assert resend.item.index == 0


@pytest.mark.parametrize(
    ("fields", "rerun_as_jobs", "sent_again"),
    [
        ({"as_job": False}, True, True),
        ({"as_job": True}, False, False),
        ({}, False, False),
        ({}, True, False),
    ],
)
def test_an_earlier_runs_lead_not_found_is_sent_again_if_it_was_no_job(
    tmp_path: Path, fields: dict[str, Any], rerun_as_jobs: bool, sent_again: bool
) -> None:
    # A sync enrichment not stored once the service is done with it was never charged; a
    # job may still be queued, and this rerun has no job of its own to show otherwise. A
    # 1.0 line does not say: it is taken for a job (taken for a sync request, a job still
    # queued would be sent again and charged twice).
    clock = ManualClock()
    items = read_items(ROWS[:1])
    resume = earlier_run(tmp_path / "run.jsonl", started(items[0], **fields)).load()
    plan = Plan(items, resume, None, None, clock, jobs=rerun_as_jobs)
    outcomes = look_up(plan, clock)
    assert (outcomes == []) is sent_again
    assert isinstance(plan.next(), Send) is sent_again


def test_a_deduped_job_does_not_show_the_queue_moved(tmp_path: Path) -> None:
    # A job for a contact the account holds comes back at once without queueing: it says
    # nothing of a job waiting in the queue.
    clock = ManualClock()
    plan, co1 = rerun_sending_a_job(tmp_path, clock)
    clock.advance(1.0)
    plan.succeeded(co1, LeadOut.model_validate(lead_out("ld_1", deduped=True)))
    [outcome] = look_up(plan, clock)
    assert (outcome.index, outcome.status, outcome.maybe_charged) == (0, "failed", True)
    assert plan.next() is None


def test_a_lookup_that_began_too_early_does_not_count_as_proof(tmp_path: Path) -> None:
    # Co1's job ran and ended 5 s in; a job of Co0's would be stored 100 s later. The
    # lookup began at 100 and ended at 106: a record stored at 105 may have been missed,
    # so another lookup comes before Co0 is sent again.
    clock = ManualClock()
    plan, co1 = rerun_sending_a_job(tmp_path, clock)
    clock.advance(5.0)
    plan.succeeded(co1, LeadOut.model_validate(lead_out("ld_1")))
    clock.advance(plan.idle() or 0.0)
    look = plan.next()
    assert isinstance(look, Lookup)
    clock.advance(6.0)
    assert plan.looked_up(look, plan.scan(look), None) == []
    again = plan.next()
    assert isinstance(again, Lookup), "sent again on a lookup begun before the proof"
    assert plan.looked_up(again, plan.scan(again), None) == []
    resend = plan.next()
    assert isinstance(resend, Send)
    assert resend.item.index == 0


def test_only_a_job_that_left_after_the_lost_one_was_taken_in_proves_the_queue_moved(tmp_path: Path) -> None:
    # Co0's job was in flight when the earlier run ended: the service may take it in as
    # late as INTAKE after, so later than a job the rerun sends at once (Co1), which may
    # then start first. Co1 running and ending proves nothing of Co0's job, which may be
    # stored after the lookup: sent again, it was charged twice. So the rerun keeps its
    # last lead (Co2) back until Co0's request must have been taken in; Co2's job, once
    # it ran and a settle window passed, shows the queue moved past Co0's.
    clock = ManualClock()
    items = read_items(ROWS[:3])
    resume = earlier_run(tmp_path / "run.jsonl", started(items[0], as_job=True)).load()
    plan = Plan(items, resume, None, None, clock, jobs=True)
    co1 = send_job(plan, 1)
    assert plan.next() is None, "the last lead left before Co0's request must have been taken in"
    assert plan.idle() == INTAKE
    clock.advance(20.0)
    plan.succeeded(co1, LeadOut.model_validate(lead_out("ld_1")))
    clock.advance(INTAKE - 20.0)
    look = plan.next()
    assert isinstance(look, Lookup)
    co2 = plan.next()
    assert isinstance(co2, Send)
    plan.sending(co2.item)
    # Co2's request is on its way, its job not created yet: it may still prove the queue moved.
    assert plan.looked_up(look, plan.scan(look), None) == [], "given up while Co2 was on its way"
    plan.job_created(co2.item, "job_2")
    clock.advance(30.0)
    plan.succeeded(co2.item, LeadOut.model_validate(lead_out("ld_2")))
    assert look_up(plan, clock) == [], "Co1's run taken for proof"
    assert plan.next() is None
    # Co2 ended 130 s in: its proof holds a settle window later, 30 s after this lookup.
    assert plan.idle() == pytest.approx(30.0)
    assert look_up(plan, clock) == []
    resend = plan.next()
    assert isinstance(resend, Send)
    assert resend.item.index == 0


def test_a_lead_sent_again_after_a_loss_counts_from_the_rerun_not_the_loss(tmp_path: Path) -> None:
    # Lost once, looked up, sent again and then abandoned: the old loss says nothing of
    # when the new request reached the service. It left before now, the service may take
    # it in up to INTAKE after, and it then runs a settle window at most.
    clock = ManualClock()
    items = read_items(ROWS[:1])
    lines = [
        {**started(items[0], as_job=False), "at": at(300)},
        {"event": "lost", "key": items[0].key, "unanswered": 0.0, "at": at(290)},
        {**started(items[0], as_job=False), "at": at(60)},
    ]
    plan = Plan(items, earlier_run(tmp_path / "run.jsonl", *lines).load(), None, None, clock)
    assert plan.next() is None
    assert plan.idle() == INTAKE + SETTLE


def test_a_start_long_ago_is_looked_up_once_the_rerun_has_given_it_time_to_be_taken_in_and_run(
    tmp_path: Path,
) -> None:
    # The line is written before the request waits for a slot, the pacer and 429s: the
    # request may have left at any time until the earlier run ended, before now.
    clock = ManualClock()
    items = read_items(ROWS[:1])
    line = {**started(items[0], as_job=False), "at": "2000-01-01T00:00:00+00:00"}
    plan = Plan(items, earlier_run(tmp_path / "run.jsonl", line).load(), None, None, clock)
    assert plan.next() is None
    assert plan.idle() == INTAKE + SETTLE


def test_a_recorded_read_timeout_gives_an_earlier_runs_lead_the_time_to_be_taken_in_late(
    tmp_path: Path,
) -> None:
    # The request went 150 s without an answer: the service may have taken it in as late
    # as the client waited for it (at the loss), and then run it a settle window.
    clock = ManualClock()
    items = read_items(ROWS[:1])
    lost = {"event": "lost", "key": items[0].key, "unanswered": 150.0, "at": at()}
    resume = earlier_run(tmp_path / "run.jsonl", started(items[0], as_job=False), lost).load()
    plan = Plan(items, resume, None, None, clock)
    assert plan.next() is None
    assert plan.idle() == pytest.approx(SETTLE)
    [found] = look_up(plan, clock, "ld_late")
    assert found.resumed
    assert found.lead is not None
    assert found.lead.id == "ld_late"


def test_a_spent_budget_still_polls_every_recorded_job(tmp_path: Path) -> None:
    # The jobs were paid for by the earlier run: a rerun after a 402 (max_credits="auto"
    # on an empty account is 0) collects them all, not one per free worker.
    clock = ManualClock()
    items = read_items(ROWS)
    jobs = [{"event": "job", "key": item.key, "job_id": f"job_{item.index}", "at": at()} for item in items]
    resume = earlier_run(tmp_path / "run.jsonl", *[started(i, as_job=True) for i in items], *jobs).load()
    plan = Plan(items, resume, 0, None, clock, jobs=True)
    polls = [plan.next()]
    assert plan.leftovers() == [], "recorded jobs were given up"
    polls += [plan.next(), plan.next()]
    assert all(isinstance(poll, Poll) for poll in polls)
    assert sorted(poll.job_id for poll in polls if isinstance(poll, Poll)) == ["job_0", "job_1", "job_2"]


class AskingJournal:
    """A checkpoint kept in memory that, as a lead's end is written, asks the plan for its
    next task: what the thread runner may do at that moment, when another task ends."""

    name = "memory"
    failure: LeadEnrichError | None = None

    def __init__(self, *lines: dict[str, Any]) -> None:
        self.lines = [json.dumps(line) + "\n" for line in lines]
        self.plan: Plan | None = None
        self.asked: list[object] = []

    def read(self) -> bytes:
        return "".join(self.lines).encode()

    def take(self) -> bytes:
        return self.read()

    def append(self, line: str) -> Future[None]:
        self.lines.append(line)
        if self.plan is not None and json.loads(line)["event"] == "finished":
            self.asked.append(self.plan.next())
        done: Future[None] = Future()
        done.set_result(None)
        return done

    def close(self) -> None:
        pass


def test_an_earlier_runs_failed_job_is_sent_again_only_once_its_failure_is_on_record() -> None:
    # The thread runner asks for the next task whenever any task ends, so it may ask while
    # a poll's thread still writes the earlier job's failure. The lead must not be sent
    # again before then: the failure's line would follow the new send's, and a rerun would
    # forget the send.
    items = read_items(ROWS[:1])
    job = {"event": "job", "key": items[0].key, "job_id": "job_1", "at": at()}
    journal = AskingJournal(started(items[0], as_job=True), job)
    checkpoint = Checkpoint(journal=journal)
    plan = journal.plan = Plan(items, checkpoint.take(), None, checkpoint, ManualClock(), jobs=True)
    poll = plan.next()
    assert isinstance(poll, Poll)
    failed = JobOut(job_id="job_1", status="failed", error={"code": "enrichment_failed", "refunded": True})
    assert plan.polled(poll, failed, None) == []
    assert journal.asked == [None], "the lead was handed out again before its failure was written"
    resend = plan.next()
    assert isinstance(resend, Send)
    plan.sending(resend.item)
    assert [json.loads(line)["event"] for line in journal.lines[-2:]] == ["finished", "started"]


def taken_without_proof(tmp_path: Path) -> tuple[Checkpoint, Item, LeadOut]:
    """A checkpoint whose run took `ld_old` for Co0's lost job without proof (the record
    may be an earlier one of the lead while its job still waited in the queue)."""
    [item] = read_items(ROWS[:1])
    older = stored(item, "ld_old")
    taken = {
        "event": "finished",
        "key": item.key,
        "index": 0,
        "status": "enriched",
        "lead": older.model_dump(mode="json"),
        "provisional": True,
        "at": at(),
    }
    return earlier_run(tmp_path / "run.jsonl", started(item, as_job=True), taken), item, older


def test_a_record_taken_without_proof_is_kept_and_looked_at_once_more(tmp_path: Path) -> None:
    checkpoint, item, older = taken_without_proof(tmp_path)
    resume = checkpoint.load()
    assert item.key not in resume.done, "a lead whose record may be an older one is not done"
    assert resume.uncertain[item.key].provisional == older
    assert resume.records == {item.key: older}
    [read] = read_checkpoint(ROWS[:1], tmp_path / "run.jsonl")
    assert (read.status, read.lead, read.resumed) == ("enriched", older, True)


def rerun_of_taken_without_proof(tmp_path: Path) -> tuple[Plan, Checkpoint, Item]:
    """The next run on `taken_without_proof`'s checkpoint (with jobs), writing its lines
    to the same file."""
    source, item, _ = taken_without_proof(tmp_path)
    checkpoint = Checkpoint(journal=source.journal)
    return Plan([item], checkpoint.take(), None, checkpoint, ManualClock(), jobs=True), checkpoint, item


STAMPS = {"ld_old": "2026-01-01T00:00:00Z", "ld_own": "2026-01-02T00:00:00Z"}


@pytest.mark.parametrize(
    ("listed", "broken", "taken", "provisional"),
    [
        (["ld_old", "ld_own"], None, "ld_own", False),  # its job ran since: its own record
        (["ld_old"], None, "ld_old", False),  # nothing newer: the one taken stands
        ([], None, "ld_old", False),  # not listed any more: never sent again
        ([], "the listing could not be read", "ld_old", True),  # looked at again next time
    ],
)
def test_the_next_run_takes_the_latest_record_at_its_start(
    tmp_path: Path, listed: list[str], broken: str | None, taken: str, provisional: bool
) -> None:
    plan, checkpoint, item = rerun_of_taken_without_proof(tmp_path)
    [outcome] = look_at_start(plan, [stored(item, lead_id, STAMPS[lead_id]) for lead_id in listed], broken)
    assert (outcome.status, outcome.lead.id, outcome.resumed, outcome.charged) == (
        "enriched",
        taken,
        True,
        False,
    )
    assert plan.next() is None, "sent again"
    checkpoint.close()
    line = json.loads(Path(tmp_path / "run.jsonl").read_text().splitlines()[-1])
    assert (line["lead"]["id"], line.get("provisional", False)) == (taken, provisional)
    assert (item.key in Checkpoint(tmp_path / "run.jsonl").load().done) is not provisional


def test_two_records_no_stamp_orders_leave_the_lead_maybe_charged_and_looked_at_again(tmp_path: Path) -> None:
    # The service's stamps are none: the record taken and a later one of the lead cannot
    # be told apart. One of them is its job's own: neither is reported, nothing is sent.
    plan, checkpoint, item = rerun_of_taken_without_proof(tmp_path)
    [outcome] = look_at_start(plan, [stored(item, "ld_old"), stored(item, "ld_own")], None)
    assert (outcome.status, outcome.maybe_charged, outcome.lead) == ("failed", True, None)
    assert "ld_old" in str(outcome.error)
    assert "ld_own" in str(outcome.error)
    assert plan.next() is None, "sent again"
    checkpoint.close()
    again = Checkpoint(tmp_path / "run.jsonl").load()
    assert again.uncertain[item.key].provisional is not None, "the next run looks once more"
    assert item.key not in again.records, "read as done though the run said maybe charged"


def test_a_record_taken_without_proof_ends_the_leads_job(tmp_path: Path) -> None:
    # A job id the run dropped (the service forgot the job) is not polled again.
    source, item, older = taken_without_proof(tmp_path)
    lines = source.journal.read().decode().splitlines(keepends=True)
    job = json.dumps({"event": "job", "key": item.key, "job_id": "job_1", "at": at()}) + "\n"
    path = tmp_path / "again.jsonl"
    path.write_text(lines[0] + job + lines[1])
    resume = Checkpoint(path).load()
    assert (resume.jobs, resume.records) == ({}, {item.key: older})


def look_at_start(plan: Plan, listed: list[LeadOut], broken: str | None) -> list[Any]:
    """The lookup a run makes as it starts, answered with `listed` (newest first, as the
    fake server lists them) or, with `broken`, a listing that could not be read."""
    assert plan.idle() == 0.0, "looked at once the run starts"
    look = plan.next()
    assert isinstance(look, Lookup)
    scan = plan.scan(look)
    scan.read(LeadPage(items=listed[::-1]))
    return plan.looked_up(look, scan, LeadEnrichError(broken) if broken else None)
