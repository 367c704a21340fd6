"""Bulk enrichment against a faulty fake server: every lead accounted for, none charged twice.

The server injects ~10 % faults (5xx, connections dropped before and after the work,
answers later than the client's timeout, broken JSON on 2xx, upstream_full bursts) on a
clock 5000 times faster than real time, and so does the SDK (a ServiceClock of the same scale): enrichments
take 4-8 ms and a 2-second back-off 0.4 ms.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import respx

from leadenrich import (
    APIConnectionError,
    APIResponseValidationError,
    AsyncLeadEnrich,
    BulkOutcome,
    BulkResult,
    InternalServerError,
    LeadEnrich,
    LeadIn,
    LeadOut,
    RateLimitError,
    ServiceClock,
)
from leadenrich._bulk.checkpoint import fingerprint
from leadenrich.testing import FakeServer
from tests.conftest import BASE, KEY
from tests.helpers import call, lead_out, scaled_client

pytestmark = pytest.mark.anyio

SCALE = 0.0002
CLOCK = ServiceClock(SCALE)
"""The clock of the SDK's clients on a mocked service: as fast as the fake server's."""
SEED = 2026
FAULTS: dict[str, Any] = {
    "server_error_rate": 0.03,
    "drop_before_rate": 0.02,
    "drop_after_rate": 0.02,
    "slow_rate": 0.01,
    "malformed_rate": 0.01,
    "upstream_full_rate": 0.005,
    "upstream_full_burst": 3,
    "slow_seconds": 0.75,
}
TIMEOUT = 0.5
"""Real seconds: a slow answer (0.75 s) outlasts it, a normal one (a few ms) never does."""
# The errors a lead may end with when the service failed it or its answer was lost.
LOST = (InternalServerError, APIConnectionError, APIResponseValidationError)


def rows(count: int = 300, *, failing_every: int = 0) -> list[dict[str, str]]:
    """Distinct leads without emails: nothing dedupes, so a lead sent twice is charged twice."""
    return [
        {
            "company": f"Co {i}",
            "domain": f"co{i}.fail" if failing_every and i % failing_every == 7 else f"co{i}.com",
        }
        for i in range(count)
    ]


@pytest.fixture(params=["sync", "async"])
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def faulty() -> Iterator[FakeServer]:
    with FakeServer(time_scale=SCALE, fault_seed=SEED, **FAULTS) as server:
        yield server


@pytest.fixture
async def client(kind: str, faulty: FakeServer) -> AsyncIterator[Any]:
    made = make_client(kind, faulty)
    yield made
    await call(made.aclose() if isinstance(made, AsyncLeadEnrich) else made.close())


def make_client(kind: str, server: FakeServer) -> LeadEnrich | AsyncLeadEnrich:
    client: LeadEnrich | AsyncLeadEnrich = scaled_client(kind, server, timeout=TIMEOUT)
    return client


def assert_charged_once(server: FakeServer) -> list[LeadOut]:
    """No lead stored (and charged) twice, and no credit taken without a stored lead."""
    stored = server.state.leads()
    twice = [key for key, n in Counter(fingerprint(lead.input) for lead in stored).items() if n > 1]
    assert twice == [], "a lead was enriched (and charged) twice"
    assert server.state.charged("enrichment", key=server.api_key) == len(stored), (
        "every charge left a stored lead; every failed run was refunded"
    )
    return stored


def assert_accounted_for(result: BulkResult, server: FakeServer) -> list[BulkOutcome]:
    """Every lead enriched or failed with a typed error, and the credits add up.

    Returns the failed leads the service did charge and store (answers lost for good): the
    result must call each of them `maybe_charged`, and they are the only slack allowed
    between the credits the result reports and those the server took.
    """
    stored = assert_charged_once(server)
    stored_ids = {lead.id for lead in stored}
    stored_inputs = {fingerprint(lead.input) for lead in stored}
    for outcome in result:
        if outcome.ok:
            assert outcome.status == "enriched"
            assert outcome.lead is not None
            assert outcome.lead.id in stored_ids
            assert outcome.charged
        else:
            assert outcome.status == "failed"
            assert isinstance(outcome.error, LOST), repr(outcome.error)
            assert not outcome.charged
    unrecovered = [o for o in result if not o.ok and fingerprint(lead_in(o)) in stored_inputs]
    assert all(o.maybe_charged for o in unrecovered)
    assert len(stored) == sum(o.charged for o in result) + len(unrecovered)
    return unrecovered


def lead_in(outcome: BulkOutcome) -> LeadIn:
    assert isinstance(outcome.input, LeadIn)
    return outcome.input


async def test_a_faulty_bulk_run_charges_no_lead_twice(client: Any, faulty: FakeServer) -> None:
    leads = rows(failing_every=50)
    result: BulkResult = await call(client.leads.enrich_many(leads, progress=False))

    assert [o.index for o in result] == list(range(300))
    unrecovered = assert_accounted_for(result, faulty)
    counts = faulty.state.fault_counts()
    assert set(counts) == {"server_error", "drop_before", "drop_after", "slow", "malformed", "upstream_full"}
    answered = len(faulty.state.requests()) + counts["drop_before"]
    assert 0.05 <= sum(counts.values()) / answered <= 0.25
    # The leads whose domain cannot be enriched fail, refunded, and say why; faults fail a
    # few more. A fault, or on a loaded machine a timeout, may lose such a lead's answer:
    # it then fails with that error instead, but not most of them.
    unenrichable = result.outcomes[7::50]
    assert [o.status for o in unenrichable] == ["failed"] * len(unenrichable)
    refused = [
        o
        for o in unenrichable
        if isinstance(o.error, InternalServerError) and "enrichment_failed" in str(o.error)
    ]
    assert len(refused) > len(unenrichable) / 2, [repr(o.error) for o in unenrichable]
    assert 250 <= result.succeeded <= 294
    # Answers lost after the work were looked up: each such lead is enriched and charged.
    lost_after = sum(
        1
        for f in faulty.state.faults()
        if f.path.endswith("/enrich") and f.kind in ("drop_after", "malformed")
    )
    assert lost_after >= 3
    assert len(unrecovered) <= 1, [(o.index, repr(o.error)) for o in unrecovered]
    # The leads the service said it refunded were not charged (assert_accounted_for):
    # nothing to look up for them. Any other failed lead reported not charged was not:
    # its lookup, once the service must have been done with it, did not find it, and the
    # service holds no record of it.
    failed = [o for o in result if not o.ok]
    said_refunded = [o for o in failed if isinstance(o.error, InternalServerError) and o.error.refunded]
    assert said_refunded
    assert not any(o.maybe_charged for o in said_refunded)
    stored_inputs = {fingerprint(lead.input) for lead in faulty.state.leads()}
    assert all(fingerprint(lead_in(o)) not in stored_inputs for o in failed if not o.maybe_charged)


async def run_until_complete(client: Any, leads: list[dict[str, str]], checkpoint: Path) -> list[BulkResult]:
    """Resume from the checkpoint until every lead is enriched (a few rounds: faults go on)."""
    results: list[BulkResult] = []
    for _ in range(8):
        result: BulkResult = await call(
            client.leads.enrich_many(leads, checkpoint=checkpoint, progress=False)
        )
        results.append(result)
        if result.succeeded == len(leads):
            return results
    raise AssertionError(f"still incomplete after {len(results)} resumed runs: {results[-1].failed} failed")


async def test_a_run_stopped_early_and_resumed_charges_each_lead_once(
    kind: str, client: Any, faulty: FakeServer, tmp_path: Path
) -> None:
    leads = rows()
    checkpoint = tmp_path / "run.jsonl"
    stop_after = random.Random(SEED).randrange(20, 280)
    seen = 0
    if kind == "sync":
        outcomes = client.leads.enrich_iter(leads, checkpoint=checkpoint, progress=False)
        for _ in outcomes:
            seen += 1
            if seen == stop_after:
                break
        outcomes.close()
    else:
        reached = asyncio.Event()

        async def consume() -> None:
            nonlocal seen
            async for _ in client.leads.enrich_iter(leads, checkpoint=checkpoint, progress=False):
                seen += 1
                if seen == stop_after:
                    reached.set()

        task = asyncio.ensure_future(consume())
        await reached.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    # The task may take in an outcome or two more before the cancellation lands.
    assert seen >= stop_after
    assert faulty.state.charged("enrichment") < len(leads)

    results = await run_until_complete(client, leads, checkpoint)
    final = results[-1]
    assert final.resumed >= stop_after
    assert {lead.id for lead in final.leads} == {lead.id for lead in faulty.state.leads()}
    assert len(assert_charged_once(faulty)) == len(leads)


async def test_a_cancelled_run_resumed_at_once_charges_no_lead_twice(tmp_path: Path) -> None:
    # Enrichments that outlast the resumed run's lookup: a run cancelled with five in
    # flight and resumed at once used to find none of them stored, and send all five again.
    checkpoint = tmp_path / "run.jsonl"
    leads = rows(20)
    with FakeServer(time_scale=SCALE, enrichment_seconds=(500.0, 500.0)) as server:
        client = make_client("async", server)
        assert isinstance(client, AsyncLeadEnrich)
        async with client:
            first = asyncio.ensure_future(
                client.leads.enrich_many(leads, checkpoint=checkpoint, progress=False)
            )
            # Five stored, five more in flight (waited for on a thread: the loop must run).
            assert await asyncio.to_thread(
                server.state.wait_until,
                lambda: len(server.state.leads()) >= 5 and server.state.in_flight == 5,
            )
            first.cancel()
            with pytest.raises(asyncio.CancelledError):
                await first
            assert server.state.in_flight == 0, "the leads in flight were let finish"
            # At least those five and five: more on a machine slow to deliver the cancel.
            done = len(server.state.leads())
            assert done >= 10
            result = await client.leads.enrich_many(leads, checkpoint=checkpoint, progress=False)
        assert result.succeeded == 20
        assert result.resumed == done
        assert server.state.charged("enrichment") == 20 == len(server.state.leads())


@pytest.mark.parametrize("stored", [True, False])
async def test_an_unreadable_2xx_to_an_enrich_is_a_lost_answer(
    kind: str, api: respx.MockRouter, tmp_path: Path, stored: bool
) -> None:
    # A 2xx means the service did the work and took the credit, readable body or not:
    # look the lead up like any lost answer, and never call it uncharged.
    lead = {"company": "Acme", "domain": "acme.com"}
    record = lead_out("ld_1", input=lead, created_at="2099-01-01T00:00:00Z")
    sent = api.post("/leads/enrich", params={"mode": "sync"}).mock(
        return_value=httpx.Response(200, content=json.dumps(record).encode()[:40])
    )
    # One page: the record (when stored), then nothing past it.
    api.get("/leads", params={"skip": "0"}).respond(200, json={"items": [record] if stored else []})
    api.get("/leads").respond(200, json={"items": []})
    checkpoint = tmp_path / "run.jsonl"
    cls = LeadEnrich if kind == "sync" else AsyncLeadEnrich
    client = cls(KEY, base_url=BASE, rate_limits=None, clock=CLOCK)
    result: BulkResult = await call(client.leads.enrich_many([lead], checkpoint=checkpoint, progress=False))
    await call(client.aclose() if isinstance(client, AsyncLeadEnrich) else client.close())

    [outcome] = result
    assert sent.call_count == 1
    if stored:
        assert (outcome.status, outcome.charged, outcome.maybe_charged) == ("enriched", True, False)
    else:
        assert (outcome.status, outcome.charged, outcome.maybe_charged) == ("failed", False, True)
        assert isinstance(outcome.error, APIResponseValidationError)
        finished = json.loads(checkpoint.read_text().splitlines()[-1])
        assert finished["maybe_charged"] is True, "a resumed run looks it up before sending it again"


async def test_a_service_that_only_answers_429_ends_the_run(kind: str, api: respx.MockRouter) -> None:
    # 429s are waited out (never charged), but a run against a service that answers
    # nothing else used to wait forever; it now gives up after some rounds, and starts
    # no other lead.
    throttled = httpx.Response(429, json={"detail": "rate limit exceeded (60 req/min), retry in 5 seconds"})
    sent = api.post("/leads/enrich", params={"mode": "sync"}).mock(return_value=throttled)
    cls = LeadEnrich if kind == "sync" else AsyncLeadEnrich
    client = cls(KEY, base_url=BASE, rate_limits=None, max_retries=1, clock=CLOCK)
    leads = rows(12)
    result: BulkResult = await call(client.leads.enrich_many(leads, concurrency=2, progress=False))
    await call(client.aclose() if isinstance(client, AsyncLeadEnrich) else client.close())

    failed = [o for o in result if o.status == "failed"]
    assert 1 <= len(failed) <= 2, "the leads in flight when the service was given up on"
    assert all(isinstance(o.error, RateLimitError) and not o.maybe_charged for o in failed)
    assert {o.status for o in result} == {"failed", "skipped"}
    assert "kept answering 429" in str(next(o.error for o in result if o.status == "skipped"))
    assert sent.call_count <= 2 * 10 * 2, "ten rounds of two attempts, for at most two leads"
