"""Asking the person before a costly call, where the host can ask (elicitation)."""

from __future__ import annotations

from typing import Any

import pytest
from mcp import types

from leadenrich.testing import FakeServer
from tests.mcp_server.conftest import ADA, Serve

pytestmark = pytest.mark.anyio

BATCH = [{"company": f"Co{i}", "domain": f"co{i}.com"} for i in range(3)]


def host(answer: str, approve: bool = True) -> tuple[list[str], Any]:
    """A host that answers every question `answer` (accept, decline, cancel), and what it was asked."""
    asked: list[str] = []

    async def elicit(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        content = {"approve": approve} if answer == "accept" else None
        return types.ElicitResult(action=answer, content=content)  # type: ignore[arg-type]

    return asked, elicit


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_batch_above_the_threshold_asks_first(serve: Serve, server: FakeServer, mode: str) -> None:
    # Both ways the protocol carries the question: an answer sent with the call again
    # (2026-07-28), and a request in the middle of the call (the handshake's versions).
    asked, elicit = host("accept")
    async with serve(max_credits=10, confirm_above=1, elicitation_callback=elicit, mode=mode) as agent:
        out = await agent.ok("enrich_leads", {"leads": BATCH})
        await agent.ok("find_email", {"person": ADA})  # one credit: not above the threshold
    assert len(asked) == 1
    assert "batch of 3 leads" in asked[0]
    assert "up to 3 credits" in asked[0]
    assert "10 of the server's 10" in asked[0]
    assert out["credits"]["charged"] == 3


@pytest.mark.parametrize(("answer", "approve"), [("decline", True), ("cancel", True), ("accept", False)])
async def test_a_refusal_sends_nothing(serve: Serve, server: FakeServer, answer: str, approve: bool) -> None:
    asked, elicit = host(answer, approve)
    async with serve(confirm_above=0, elicitation_callback=elicit) as agent:
        message = await agent.error("find_email", {"person": ADA})
    assert len(asked) == 1
    assert "work-email search for Ada Lovelace acme.com" in asked[0]
    assert "did not approve" in message
    assert "nothing was sent" in message
    assert server.state.requests() == []


async def test_a_host_that_cannot_ask_is_not_asked(serve: Serve, server: FakeServer) -> None:
    async with serve(confirm_above=0) as agent:
        assert agent.client.session is not None
        out = await agent.ok("find_email", {"person": ADA})
    assert out["credits"]["charged"] == 1


async def test_never_asks_when_told_not_to(serve: Serve) -> None:
    asked, elicit = host("decline")
    async with serve(confirm_above=None, elicitation_callback=elicit) as agent:
        await agent.ok("enrich_leads", {"leads": BATCH})
    assert asked == []
