"""Bulk runs decide on recorded facts: the regressions of 1.0, on both clients, against the fake.

Each test injects one fault at a chosen request (`FakeServer.fail_next`) on a server and
an SDK clock both running 500 times faster than real time: an enrichment of 20-40 API
seconds takes 40-80 ms, and the 100 s a lost answer is parked for takes 0.2 s.
"""

from __future__ import annotations

import json
import os
import threading
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from leadenrich import (
    AsyncBulkIterator,
    AuthenticationError,
    BulkResult,
    InternalServerError,
    LeadEnrich,
    NotFoundError,
    PollTimeoutError,
    ServiceClock,
)
from leadenrich._bulk.checkpoint import fingerprint
from leadenrich.testing import FakeServer
from tests.helpers import api_client, call, close, lead, scaled_client

pytestmark = pytest.mark.anyio

SCALE = 0.002
ENRICH = "/api/v1/leads/enrich"


def rows(count: int, prefix: str = "Co") -> list[dict[str, str]]:
    """Distinct leads without emails: nothing dedupes, so a lead sent twice is charged twice."""
    return [{"company": f"{prefix} {i}", "domain": f"{prefix.lower()}{i}.com"} for i in range(count)]


@pytest.fixture(params=["sync", "async"])
def kind(request: pytest.FixtureRequest) -> str:
    """Each test runs on LeadEnrich, then on AsyncLeadEnrich."""
    return str(request.param)


@pytest.fixture
def server() -> Iterator[FakeServer]:
    with FakeServer(time_scale=SCALE) as fake:
        yield fake


make_client = scaled_client


@pytest.fixture
async def client(kind: str, server: FakeServer) -> AsyncIterator[Any]:
    made = make_client(kind, server)
    yield made
    await close(made)


def posts(server: FakeServer) -> int:
    """Enrich requests the service received (those dropped after the work included)."""
    return sum(1 for r in server.state.requests() if r.method == "POST" and r.path == ENRICH)


def assert_charged_once(server: FakeServer) -> None:
    stored = server.state.leads()
    twice = [key for key, n in Counter(fingerprint(lead.input) for lead in stored).items() if n > 1]
    assert twice == [], "a lead was enriched (and charged) twice"
    assert server.state.charged("enrichment") == len(stored)


def events(path: Path, event: str) -> list[dict[str, Any]]:
    return [entry for line in path.read_text().splitlines() if (entry := json.loads(line))["event"] == event]


# 1. A job still running when the wait gives up is polled by the rerun, never sent again.


async def test_a_job_outliving_the_wait_is_polled_on_resume_not_sent_again(kind: str, tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    leads = rows(2)
    # Jobs of 2000 API seconds outlive the wait of 300 s and the two polls of 300 s after it,
    # by 1.1 real seconds at twice the module's speed: the last poll is never that late.
    with FakeServer(time_scale=SCALE / 2, enrichment_seconds=(2000.0, 2000.0)) as server:
        client = make_client(kind, server)
        first: BulkResult = await call(
            client.leads.enrich_many(leads, strategy="async", checkpoint=path, progress=False)
        )
        assert all(isinstance(o.error, PollTimeoutError) and o.maybe_charged for o in first)
        recorded = {entry["job_id"] for entry in events(path, "job")}
        assert recorded == {o.job_id for o in first}, "every job id was written down"
        assert server.state.wait_until(lambda: len(server.state.leads()) == 2, timeout=60)

        second: BulkResult = await call(
            client.leads.enrich_many(leads, strategy="async", checkpoint=path, progress=False)
        )
        await close(client)
        assert [(o.status, o.resumed, o.job_id in recorded) for o in second] == [("enriched", True, True)] * 2
        assert posts(server) == 2, "a lead with a recorded job was sent again"
        assert_charged_once(server)


async def test_a_job_outliving_one_wait_is_polled_again_in_the_run(kind: str) -> None:
    # 400 API seconds: past the 300 s wait, within the poll that follows it.
    with FakeServer(time_scale=SCALE, enrichment_seconds=(400.0, 400.0)) as server:
        client = make_client(kind, server)
        result: BulkResult = await call(client.leads.enrich_many(rows(2), strategy="async", progress=False))
        await close(client)
        assert [(o.status, o.charged, o.job_id is not None) for o in result] == [("enriched", True, True)] * 2
        assert posts(server) == 2
        assert result.credits_spent == server.state.charged("enrichment") == 2


# 2. An error after the job exists is not a clean failure.


@pytest.mark.parametrize(("status", "error"), [(404, NotFoundError), (401, AuthenticationError)])
async def test_a_refused_poll_leaves_the_job_to_be_polled_again(
    kind: str, server: FakeServer, tmp_path: Path, status: int, error: type[Exception]
) -> None:
    path = tmp_path / "run.jsonl"
    client = make_client(kind, server, max_retries=0)
    # A poll answered 404, or 401 as after a key rotation: the job exists all the same.
    server.fail_next("GET", "/api/v1/jobs/*", status=status)
    first: BulkResult = await call(
        client.leads.enrich_many(rows(1), strategy="async", checkpoint=path, progress=False)
    )
    await close(client)
    [lost] = first
    assert isinstance(lost.error, error)
    assert (lost.status, lost.maybe_charged) == ("failed", True)
    assert lost.job_id is not None

    # The key is rotated: the rerun, with the account's new key, polls the same job.
    user = server.user_of(server.api_key)
    server.revoke_key(server.api_key)
    rotated = make_client(kind, server, key=server.add_key(user=user))
    second: BulkResult = await call(rotated.leads.enrich_many(rows(1), checkpoint=path, progress=False))
    await close(rotated)
    [found] = second
    assert (found.status, found.resumed, found.job_id) == ("enriched", True, lost.job_id)
    assert posts(server) == 1
    assert_charged_once(server)


# 3. Leaving an async iteration early finishes the leads in flight before the client closes.


async def test_break_out_of_the_async_iteration_finishes_the_leads_in_flight(
    server: FakeServer, tmp_path: Path
) -> None:
    path = tmp_path / "run.jsonl"
    async with make_client("async", server) as client:
        async for _ in client.leads.enrich_iter(rows(10), checkpoint=path, progress=False):
            break
    assert_every_paid_lead_written(server, path)


async def test_async_with_on_the_iterator_finishes_the_leads_in_flight_on_leaving(
    server: FakeServer, tmp_path: Path
) -> None:
    path = tmp_path / "run.jsonl"
    client = make_client("async", server)
    outcomes = client.leads.enrich_iter(rows(10), checkpoint=path, progress=False)
    assert isinstance(outcomes, AsyncBulkIterator)
    async with outcomes:
        async for _ in outcomes:
            break
    assert_every_paid_lead_written(server, path)
    await client.aclose()


def test_break_out_of_the_sync_iteration_finishes_the_leads_in_flight(
    server: FakeServer, tmp_path: Path
) -> None:
    path = tmp_path / "run.jsonl"
    with make_client("sync", server) as client:
        for _ in client.leads.enrich_iter(rows(10), checkpoint=path, progress=False):
            break
    assert_every_paid_lead_written(server, path)


def assert_every_paid_lead_written(server: FakeServer, path: Path) -> None:
    assert server.state.in_flight == 0
    written = {entry["lead"]["id"] for entry in events(path, "finished") if "lead" in entry}
    stored = {lead.id for lead in server.state.leads()}
    assert len(stored) > 1, "leads were in flight when the iteration was left"
    assert written == stored, "a lead was charged but not written to the checkpoint"


# 4. Identical rows are one lead: enriched once, every copy with the same outcome.


async def test_identical_rows_are_enriched_once_even_when_the_answer_is_lost(
    kind: str, server: FakeServer, client: Any
) -> None:
    a, b = rows(2)
    server.fail_next("POST", ENRICH, "drop_after")  # the first lead's answer (concurrency 1)
    result: BulkResult = await call(client.leads.enrich_many([a, a, b, a], concurrency=1, progress=False))
    first, copy, other, again = result
    assert first.lead is not None
    assert copy.lead is not None
    assert again.lead is not None
    assert (first.status, first.charged, first.duplicate_of) == ("enriched", True, None)
    assert (copy.status, copy.charged, copy.duplicate_of) == ("enriched", False, 0)
    assert copy.lead.id == first.lead.id == again.lead.id
    assert other.lead is not None
    assert other.lead.id != first.lead.id
    assert (result.duplicates, result.credits_spent) == (2, 2)
    assert posts(server) == 2
    assert server.state.charged("enrichment") == result.credits_spent


# 5. Stop means stop: a lead waiting out a 429 is not sent after the stop.


async def stop_after_first(client: Any, leads: list[dict[str, str]], **options: Any) -> list[Any]:
    """Run until the first outcome, then stop: Ctrl-C (sync client), or leave `async for`
    inside `async with` on the iterator (async client). Returns the outcomes seen."""
    seen: list[Any] = []
    if isinstance(client, LeadEnrich):

        def interrupt(outcome: Any) -> None:
            seen.append(outcome)
            raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            client.leads.enrich_many(leads, progress=interrupt, **options)
        return seen
    async with client.leads.enrich_iter(leads, progress=False, **options) as outcomes:
        async for outcome in outcomes:
            seen.append(outcome)
            break
    return seen


async def test_a_lead_waiting_out_a_429_is_not_sent_after_the_stop(kind: str, tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    # On a slower clock than the server's: the SDK's 2 s pause after a 429 lasts 100 ms,
    # the other lead's enrichment 2 ms.
    with FakeServer(time_scale=SCALE, enrichment_seconds=(1.0, 1.0)) as server:
        server.fail_next("POST", ENRICH, status=429)
        client = make_client(kind, server, max_retries=0, clock=ServiceClock(0.05))
        seen = await stop_after_first(client, rows(2), concurrency=2, checkpoint=path)
        await close(client)
        assert [o.status for o in seen] == ["enriched"]
        assert posts(server) == 2, "the lead refused with a 429 was sent again after the stop"
        assert server.state.charged("enrichment") == 1
        [skipped] = [entry for entry in events(path, "finished") if entry["status"] == "skipped"]
        assert skipped["maybe_charged"] is False


# Leads whose durations at enrichment_seconds=(20, 100) are 8 s of the service apart or
# more (the fake draws a lead's duration from its domain): whichever 5 of them run first,
# the third to finish ends 16 s after the first, 0.8 real seconds at this scale (at 0.02,
# 0.32 s: a loaded machine's stall let a third lead go before the first outcome was seen).
SPREAD_SCALE = 0.05
SPREAD = [
    "slot23.com",
    "slot3.com",
    "slot47.com",
    "slot13.com",
    "slot15.com",
    "slot5.com",
    "slot21.com",
    "slot0.com",
]


async def test_leads_waiting_for_a_slot_are_not_sent_after_the_stop(kind: str, tmp_path: Path) -> None:
    # 8 leads at once on a client with 5 enrichment slots: 3 are started and wait for a
    # slot. The stop comes with the first outcome, when at most one of them has had the
    # slot it freed: the others must not leave, and are written down as not charged.
    path = tmp_path / "run.jsonl"
    leads = [{"company": f"Co {n}", "domain": domain} for n, domain in enumerate(SPREAD)]
    with FakeServer(time_scale=SPREAD_SCALE, enrichment_seconds=(20.0, 100.0)) as server:
        client = make_client(kind, server)
        await stop_after_first(client, leads, concurrency=8, checkpoint=path)
        await close(client)
        skipped = [entry for entry in events(path, "finished") if entry["status"] == "skipped"]
        assert len(skipped) >= 2, "leads waiting for a slot were sent after the stop"
        assert posts(server) == len(leads) - len(skipped)
        assert all(entry["maybe_charged"] is False for entry in skipped)
        assert server.state.charged("enrichment") == posts(server)


async def test_leaving_the_async_loop_stops_the_run_while_the_program_goes_on(tmp_path: Path) -> None:
    # As above, but the loop is left with a plain `break` (no `async with` on the
    # iterator), and the program goes on with the client open until the leads in flight
    # are done. The loop held the iterator alone: leaving it stops the run, as dropping
    # the blocking iterator does. (It used to go on: the leads waiting for a slot left
    # after the loop was left, and were charged.)
    path = tmp_path / "run.jsonl"
    leads = [{"company": f"Co {n}", "domain": domain} for n, domain in enumerate(SPREAD)]
    with FakeServer(time_scale=SPREAD_SCALE, enrichment_seconds=(20.0, 100.0)) as server:
        client = make_client("async", server)
        async for _ in client.leads.enrich_iter(leads, concurrency=8, checkpoint=path, progress=False):
            break
        assert await until(lambda: server.state.in_flight == 0), "the leads in flight never ended"
        await close(client)
        skipped = [entry for entry in events(path, "finished") if entry["status"] == "skipped"]
        assert len(skipped) >= 2, "leads waiting for a slot were sent after the loop was left"
        assert posts(server) == len(leads) - len(skipped)
        assert server.state.charged("enrichment") == posts(server)
        written = {entry["lead"]["id"] for entry in events(path, "finished") if "lead" in entry}
        assert written == {lead.id for lead in server.state.leads()}, "a paid lead was not written down"


async def until(condition: Callable[[], bool], timeout: float = 30.0) -> bool:
    """Whether `condition` came true within `timeout` real seconds, the loop going on meanwhile."""
    import asyncio

    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            return False
        await asyncio.sleep(0.005)
    return True


# 6. A lost answer parks its lead; the worker moves on.


async def test_a_lost_answer_is_parked_and_the_worker_moves_on(kind: str) -> None:
    # The other three leads take 1 API second each, 15 real ms in all, and the lost one is
    # parked for 100 s, 0.5 real s: only a worker waiting for it finishes it before them.
    # (At enrichments of 20-40 s and 500 times real time, the three took up to 0.24 s of
    # the park's 0.2 s, and a busy machine finished the parked lead first.)
    with FakeServer(time_scale=0.005, enrichment_seconds=(1.0, 1.0)) as server:
        client = make_client(kind, server)
        server.fail_next("POST", ENRICH, "drop_after")
        order: list[int] = []
        result: BulkResult = await call(
            client.leads.enrich_many(rows(4), concurrency=1, progress=lambda o: order.append(o.index))
        )
        await close(client)
    assert order == [1, 2, 3, 0], "the worker waited for the lost answer before the next lead"
    lost = result.outcomes[0]
    assert (lost.status, lost.charged, lost.maybe_charged) == ("enriched", True, False)
    assert posts(server) == 4
    assert result.credits_spent == server.state.charged("enrichment") == 4


async def test_a_sync_enrichment_that_timed_out_is_taken_once_nothing_older_can_pass_for_it(
    kind: str,
) -> None:
    # The client waited its whole read timeout (a settle window) for an answer that never
    # began: looked up at once, the lead's record is there, but the run has made no record
    # of its own to read the service's clock by, so nothing shows it is not an earlier
    # record of the same lead while its own is still being enriched (taken in late). It is
    # taken once the service must be done with the lead, and the other lead goes first;
    # it is charged once, and not sent again. The read timeout is the service's 100 s on
    # its clock (0.2 s), the slow answer a second late, and the enrichment 1 s (2 ms).
    with FakeServer(time_scale=SCALE, enrichment_seconds=(1.0, 1.0)) as server:
        server.fail_next("POST", ENRICH, "slow")
        client = make_client(kind, server, timeout=httpx.Timeout(5.0, read=server.clock.real_seconds(100)))
        order: list[int] = []
        result: BulkResult = await call(
            client.leads.enrich_many(rows(2), concurrency=1, progress=lambda o: order.append(o.index))
        )
        await close(client)
    assert [f.kind for f in server.state.faults()] == ["slow"]
    assert order == [1, 0], "a record nothing proved the lead's own was taken before the service was done"
    lost = result.outcomes[0]
    assert (lost.status, lost.charged, lost.maybe_charged) == ("enriched", True, False)
    assert posts(server) == 2
    assert result.credits_spent == server.state.charged("enrichment") == 2


async def test_a_sync_enrichment_the_service_took_in_late_is_found_by_a_second_look(kind: str) -> None:
    # The client gives up after 0.3 s (150 s of the service); the service, too busy to
    # take the request in, starts it at 0.4 s and stores it. The look at once finds
    # nothing; one more, 150 s of the service later (0.6 s), finds it: the lead is
    # enriched, not reported maybe charged, and not sent again.
    with FakeServer(time_scale=SCALE, slow_seconds=0.4, enrichment_seconds=(1.0, 1.0)) as server:
        server.fail_next("POST", ENRICH, "taken_late")
        client = make_client(kind, server, timeout=httpx.Timeout(5.0, read=server.clock.real_seconds(150)))
        result: BulkResult = await call(client.leads.enrich_many(rows(1), progress=False))
        await close(client)
    [late] = result
    assert (late.status, late.charged, late.maybe_charged) == ("enriched", True, False)
    assert [f.kind for f in server.state.faults()] == ["taken_late"]
    assert posts(server) == 1
    assert result.credits_spent == server.state.charged("enrichment") == 1


def listings(server: FakeServer) -> int:
    return sum(1 for r in server.state.requests() if r.path == "/api/v1/leads")


async def test_a_lost_job_is_looked_up_once_when_the_runs_jobs_are_quick(kind: str) -> None:
    # Nothing was created, which no lookup can tell from a job still running: the run's
    # other job took far less than a settle window, so one look settles it. Its job takes
    # 1 s and is noticed at most ~23 s in (the poll after the look a second in), against
    # the 90 s that would call for another look: at 1 % of real time the margin is 0.7
    # real seconds, which a busy machine does not eat (at 0.2 %, 0.1 s; it did).
    with FakeServer(time_scale=0.01, enrichment_seconds=(1.0, 1.0)) as server:
        server.fail_next("POST", ENRICH, "server_error", status=502)
        client = make_client(kind, server)
        result: BulkResult = await call(
            client.leads.enrich_many(rows(2), strategy="async", concurrency=1, progress=False)
        )
        await close(client)
        lost, other = result
        assert (lost.status, lost.maybe_charged) == ("failed", True)
        assert isinstance(lost.error, InternalServerError)
        assert (other.status, other.charged) == ("enriched", True)
        assert listings(server) == 1, "looked up again, though no job of the run was slow"
        assert server.state.charged("enrichment") == 1


async def test_a_lost_job_queued_behind_other_work_is_looked_up_until_found(kind: str) -> None:
    # One platform slot, and five jobs of 30 s of another account ahead: the run's lost
    # job ends 180 s after the run starts, past its first look (100 s after it was sent).
    # The run's other job, queued behind it, has then been waiting about as long: so the
    # lost one is looked up again, a settle window later, rather than reported maybe
    # charged. At 1 % of real time, so that the run's start (up to 0.5 s here) stays
    # well within the 100 s between the looks.
    with FakeServer(time_scale=0.01, max_concurrent_enrichments=1, enrichment_seconds=(30.0, 30.0)) as server:
        with api_client(server, server.add_key()) as other:
            for i in range(5):
                created = other.post("/leads/enrich", json={"lead": lead(f"elsewhere{i}.com")})
                assert created.status_code == 202
        server.fail_next("POST", ENRICH, "drop_after")
        client = make_client(kind, server)
        result: BulkResult = await call(
            client.leads.enrich_many(rows(2), strategy="async", concurrency=2, progress=False)
        )
        await close(client)
        assert [(o.status, o.charged, o.maybe_charged) for o in result] == [("enriched", True, False)] * 2
        assert listings(server) == 2, "the lost job was not looked for until it could have ended"
        assert posts(server) == 5 + 2
        assert_charged_once(server)


async def test_a_stop_leaves_parked_leads_to_the_rerun_which_finds_them(
    kind: str, server: FakeServer, client: Any, tmp_path: Path
) -> None:
    path = tmp_path / "run.jsonl"
    server.fail_next("POST", ENRICH, "drop_after")  # lead 0's answer: parked for 100 s
    seen = await stop_after_first(client, rows(3), concurrency=1, checkpoint=path)
    assert [o.index for o in seen] == [1], "the run stopped at once, without waiting for the parked lead"
    assert [entry["index"] for entry in events(path, "started")] == [0, 1]
    assert len(events(path, "lost")) == 1

    result: BulkResult = await call(client.leads.enrich_many(rows(3), checkpoint=path, progress=False))
    assert [(o.status, o.resumed) for o in result] == [
        ("enriched", True),
        ("enriched", True),
        ("enriched", False),
    ]
    assert posts(server) == 3, "the parked lead was sent again"
    assert_charged_once(server)


# 7. The async runner never touches the disk on its event loop; syncs are batched.


async def test_checkpoint_lines_are_synced_off_the_runners_threads_in_batches(
    kind: str, client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    syncing: list[str] = []
    fsync = os.fsync

    def recording(fd: int) -> None:
        syncing.append(threading.current_thread().name)
        fsync(fd)

    monkeypatch.setattr(os, "fsync", recording)
    path = tmp_path / "run.jsonl"
    result: BulkResult = await call(client.leads.enrich_many(rows(30), checkpoint=path, progress=False))
    assert result.succeeded == 30
    assert set(syncing) == {"leadenrich-checkpoint"}
    assert len(syncing) < len(path.read_text().splitlines()), "one sync per line"


# 8. A checkpoint that cannot be written any more: the leads in flight still finish.


async def test_a_checkpoint_failing_mid_run_finishes_the_leads_in_flight(
    kind: str, server: FakeServer, client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fsync = os.fsync
    synced = 0

    def failing(fd: int) -> None:
        # The owner line, then the leads' lines: the disk fills up after four syncs.
        nonlocal synced
        synced += 1
        if synced > 4:
            raise OSError(28, "No space left on device")
        fsync(fd)

    monkeypatch.setattr(os, "fsync", failing)
    result: BulkResult = await call(
        client.leads.enrich_many(rows(12), concurrency=3, checkpoint=tmp_path / "run.jsonl", progress=False)
    )
    assert len(result) == 12
    assert result.succeeded == posts(server) == server.state.charged("enrichment")
    assert result.succeeded >= 2, "the leads in flight when the disk filled up finished"
    assert result.skipped == 12 - result.succeeded
    assert all("cannot be written" in str(o.error) for o in result.errors)


# 9. Lookups work whatever the order of GET /leads, paging by created_at.


@pytest.mark.parametrize("order", ["newest_first", "oldest_first"])
async def test_a_lost_answer_is_found_whatever_the_listing_order(kind: str, order: str) -> None:
    # The 250 leads made first are only a listing to page: enrichments of 10 API seconds, as
    # short as keeps five at a time at half the key's 60 requests a minute (at 1 s, the
    # pacer runs at the limit, and a request delivered late meets a 429).
    with FakeServer(time_scale=SCALE, list_order=order, enrichment_seconds=(10.0, 10.0)) as server:
        client = make_client(kind, server)
        # 250 older leads: more than two pages of 100, and more than 1.0's in-run scan.
        earlier: BulkResult = await call(client.leads.enrich_many(rows(250, "Old"), progress=False))
        assert earlier.succeeded == 250
        listed = sum(1 for r in server.state.requests() if r.path == "/api/v1/leads")
        server.fail_next("POST", ENRICH, "drop_after")
        result: BulkResult = await call(client.leads.enrich_many(rows(1), progress=False))
        await close(client)
        [outcome] = result
        assert (outcome.status, outcome.charged) == ("enriched", True)
        pages = sum(1 for r in server.state.requests() if r.path == "/api/v1/leads") - listed
        # Newest first, the first page reaches past the send; oldest first, all three are read.
        assert pages == (1 if order == "newest_first" else 3)
        assert posts(server) == 251


# 10. An unreadable page of GET /leads is read again.


async def test_an_unreadable_lookup_is_retried(kind: str, server: FakeServer, client: Any) -> None:
    server.fail_next("POST", ENRICH, "drop_after")
    server.fail_next("GET", "/api/v1/leads", "malformed")
    result: BulkResult = await call(client.leads.enrich_many(rows(1), progress=False))
    [outcome] = result
    assert (outcome.status, outcome.charged, outcome.maybe_charged) == ("enriched", True, False)
    assert [f.kind for f in server.state.faults()] == ["drop_after", "malformed"]


# 11. The max_credits reason says what was spent, and what may have been.


async def test_the_max_credits_reason_counts_failed_leads_as_possibly_spent(
    kind: str, server: FakeServer, client: Any
) -> None:
    server.fail_next("POST", ENRICH, "server_error", status=502, times=2)
    # Nor can the stored leads be read: the two stay possibly spent (found not stored, they
    # would be known not charged, and give their credits back).
    server.fail_next("GET", "/api/v1/leads", "server_error", status=502, times=100)
    result: BulkResult = await call(
        client.with_options(max_retries=0).leads.enrich_many(
            rows(4), concurrency=1, max_credits=2, progress=False
        )
    )
    assert [o.status for o in result] == ["failed", "failed", "skipped", "skipped"]
    assert all(isinstance(o.error, InternalServerError) and o.maybe_charged for o in result.outcomes[:2])
    reason = str(result.outcomes[2].error)
    assert "already enriched" not in reason
    assert "max_credits=2 is reached (0 credits spent and 2 possibly spent" in reason
    assert server.state.charged("enrichment") == 0


# Kill -9 at any point: a rerun charges nothing twice and polls every recorded job.


@pytest.mark.parametrize("kept", [1, 2, 3, 5, 8])
async def test_a_rerun_after_a_kill_at_any_line_charges_no_lead_twice(
    kind: str, tmp_path: Path, kept: int
) -> None:
    """A kill -9 leaves the checkpoint as it was on disk at that moment, while the service
    goes on with what it received. Emulated: a complete run, whose checkpoint is cut
    after `kept` lines but keeps every "started" line (each lead was sent, and a lead is
    sent only once its start is on disk)."""
    path = tmp_path / "run.jsonl"
    leads = rows(4)
    with FakeServer(time_scale=SCALE) as server:
        client = make_client(kind, server)
        first: BulkResult = await call(
            client.leads.enrich_many(leads, strategy="async", checkpoint=path, progress=False)
        )
        assert first.succeeded == 4
        lines = path.read_text().splitlines(keepends=True)
        path.write_text("".join(lines[:kept] + [line for line in lines[kept:] if '"started"' in line]))
        jobs = {entry["job_id"] for entry in events(path, "job")}
        second: BulkResult = await call(
            client.leads.enrich_many(leads, strategy="async", checkpoint=path, progress=False)
        )
        await close(client)
        assert second.succeeded == 4
        assert_charged_once(server)
        assert {o.job_id for o in second if o.job_id in jobs} == jobs, "a recorded job was not polled"
        assert posts(server) == 4, "a lead was sent again"


def test_duplicates_counts_the_copies_not_the_rows_they_repeat() -> None:
    with FakeServer(time_scale=SCALE) as server, make_client("sync", server) as client:
        row = rows(1)[0]
        result: BulkResult = client.leads.enrich_many([row, dict(row), row], progress=False)
        assert [o.duplicate_of for o in result] == [None, 0, 0]
        assert (len(result), result.duplicates, result.credits_spent) == (3, 2, 1)


@pytest.mark.parametrize("in_flight", ["charge_both", "dedupe"])
@pytest.mark.parametrize("strategy", ["sync", "async"])
async def test_leads_with_one_email_go_one_at_a_time_and_the_later_ones_are_deduped(
    kind: str, in_flight: str, strategy: str
) -> None:
    # Three leads with one email (other companies) and one more, with room for all four at
    # once: the spec dedupes against stored leads only, so sent together the three could
    # all be charged ("charge_both") or held behind each other past a lost answer's look
    # ("dedupe"). One at a time, the first is charged and the others come back deduped.
    email = "pat@acme.com"
    leads = [
        {"company": "Acme", "domain": "acme.com", "email": email},
        {"company": "Acme EU", "domain": "acme.eu", "email": email},
        {"company": "Other", "domain": "other.com"},
        {"company": "Acme US", "domain": "acme.us", "email": email},
    ]
    with FakeServer(time_scale=SCALE, same_email_in_flight=in_flight) as server:
        client = make_client(kind, server)
        result: BulkResult = await call(
            client.leads.enrich_many(leads, strategy=strategy, concurrency=4, progress=False)
        )
        await close(client)
    assert [(o.status, o.charged) for o in result] == [
        ("enriched", True),
        ("deduped", False),
        ("enriched", True),
        ("deduped", False),
    ]
    assert server.state.charged("enrichment") == 2
    outcomes = list(result)
    first = outcomes[0].lead
    assert first is not None
    assert {o.lead.id for o in outcomes if o.lead is not None and o.status == "deduped"} == {first.id}
