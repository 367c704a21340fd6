"""The spending cap holds: checked before every charging request leaves, across
concurrent calls and sessions, with the fake server's books as the judge."""

from __future__ import annotations

import threading
from typing import Any

import anyio
import pytest
from mcp.types import CallToolResult

from leadenrich._mcp import CreditCap
from leadenrich._mcp.cap import CapReached
from leadenrich.testing import FakeServer
from tests.mcp_server.conftest import ADA, Serve, text

pytestmark = pytest.mark.anyio

ENRICH = "/api/v1/leads/enrich"


def sent(server: FakeServer, path: str) -> int:
    return sum(record.method == "POST" and record.path == path for record in server.state.requests())


async def test_concurrent_calls_never_pass_the_cap(serve: Serve, make_server: Any) -> None:
    # Enrichments of half a second: the twelve calls overlap, every hold is taken while
    # the others are still held (CONTRIBUTING: a race's margin is wide).
    server: FakeServer = make_server(enrichment_seconds=(100.0, 100.0))
    results: list[CallToolResult] = []
    async with serve(fake=server, max_credits=5) as agent:

        async def one(i: int) -> None:
            lead = {"company": f"Co{i}", "domain": f"co{i}.com"}
            results.append(await agent.call("enrich_lead", {"lead": lead, "wait_seconds": 600}))

        async with anyio.create_task_group() as group:
            for i in range(12):
                group.start_soon(one, i)
        refused = [text(r) for r in results if r.is_error]
        done = [r.structured_content for r in results if not r.is_error]
        assert len(done) == 5
        assert len(refused) == 7
        assert server.state.peak_in_flight == 5  # the five ran at once: the holds overlapped
        assert all("spending cap" in message and "nothing was sent" in message for message in refused)
        assert all(d is not None and d["credits"]["charged"] == 1 for d in done)
        usage = await agent.ok("get_usage")
        assert usage["cap"] == {"max_credits": 5, "spent": 5, "held": 0, "left": 0}
    # The books: nothing was sent past the cap, nothing charged past it.
    assert sent(server, ENRICH) == 5
    assert server.state.charged("enrichment", key=server.api_key) == 5


async def test_the_cap_is_the_servers_across_sessions(serve: Serve, server: FakeServer) -> None:
    async with serve(max_credits=2) as agent:
        await agent.ok("find_email", {"person": ADA})
        # A second session (another connection of the same host, or another host over
        # HTTP) meets the same cap.
        async with agent.second_session() as other:
            await other.ok("find_email", {"person": {**ADA, "first_name": "Grace"}})
            message = await other.error("find_email", {"person": {**ADA, "first_name": "Alan"}})
    assert "0 of the cap's 2" in message
    assert sent(server, "/api/v1/email/find") == 2


async def test_a_batch_enriches_what_the_cap_allows_and_skips_the_rest(
    serve: Serve, server: FakeServer
) -> None:
    batch = [{"company": f"Co{i}", "domain": f"co{i}.com"} for i in range(5)]
    async with serve(max_credits=3) as agent:
        out = await agent.ok("enrich_leads", {"leads": batch})
        statuses = [o["status"] for o in out["outcomes"]]
        assert statuses.count("enriched") == 3
        assert statuses.count("skipped") == 2
        assert "2 skipped" in out["credits"]["note"]
        # The cap is spent: the same batch again resumes the three, free, and sends nothing.
        again = await agent.ok("enrich_leads", {"leads": batch})
        assert sum(o["resumed"] for o in again["outcomes"]) == 3
        assert again["credits"]["charged"] == 0
    assert sent(server, ENRICH) == 3
    assert server.state.charged("enrichment", key=server.api_key) == 3


async def test_no_cap_only_when_asked_for(serve: Serve, server: FakeServer) -> None:
    async with serve(max_credits=None) as agent:
        out = await agent.ok("find_email", {"person": ADA})
    assert out["credits"]["cap"] == {"max_credits": None, "spent": 1, "held": 0, "left": None}


def test_two_threads_never_both_take_the_last_credit() -> None:
    def take(cap: CreditCap, start: threading.Barrier, won: list[bool]) -> None:
        start.wait()
        try:
            cap.hold(1, "a call")
            won.append(True)
        except CapReached:
            won.append(False)

    for _ in range(200):
        cap = CreditCap(1)
        won: list[bool] = []
        start = threading.Barrier(2)
        threads = [threading.Thread(target=take, args=(cap, start, won)) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(won) == [False, True]


def test_a_settled_hold_frees_what_was_not_charged() -> None:
    cap = CreditCap(3)
    hold = cap.hold(1, "an email search")
    assert (cap.spent, cap.held, cap.left) == (0, 1, 2)
    cap.settle(hold, 0)
    cap.settle(hold, 1)  # settled once: a second settle changes nothing
    assert (cap.spent, cap.held, cap.left) == (0, 0, 3)
    batch = cap.hold_up_to(5, "a batch")
    assert batch.credits == 3
    assert cap.left == 0
    cap.settle(batch, 2)
    assert (cap.spent, cap.held, cap.left) == (2, 0, 1)
    assert cap.hold_up_to(4, "a batch").credits == 1
    assert cap.hold_up_to(4, "a batch").credits == 0
    with pytest.raises(ValueError, match="0 or more"):
        CreditCap(-1)


@pytest.mark.parametrize("reading", ["charge_both", "dedupe"])
async def test_the_cap_agrees_with_the_books_for_one_email_enriched_twice_at_once(
    serve: Serve, make_server: Any, reading: str
) -> None:
    # An open point of the spec: the service may charge both, or dedupe the second.
    server: FakeServer = make_server(same_email_in_flight=reading, enrichment_seconds=(100.0, 100.0))
    lead = {"company": "Acme", "domain": "acme.com", "email": "ada@acme.com"}
    async with serve(fake=server, max_credits=5) as agent:
        outputs: list[dict[str, Any]] = []

        async def one() -> None:
            outputs.append(await agent.ok("enrich_lead", {"lead": lead, "wait_seconds": 600}))

        async with anyio.create_task_group() as group:
            group.start_soon(one)
            group.start_soon(one)
        cap = (await agent.ok("get_usage"))["cap"]
    charged = server.state.charged("enrichment", key=server.api_key)
    assert charged == (2 if reading == "charge_both" else 1)
    assert cap["spent"] == charged
    assert sum(output["credits"]["charged"] for output in outputs) == charged


async def test_a_failed_job_counts_as_spent(serve: Serve, server: FakeServer) -> None:
    # The spec does not say a failed job is refunded: the cap counts it, whatever the books say.
    async with serve(max_credits=2) as agent:
        out = await agent.ok("enrich_lead", {"lead": {"company": "Broken", "domain": "broken.fail"}})
    assert out["job"]["status"] == "failed"
    assert out["credits"]["charged"] == 1
    assert "counted as spent" in out["credits"]["note"]
    assert out["credits"]["cap"]["spent"] == 1
    assert server.state.charged("enrichment", key=server.api_key) <= 1
