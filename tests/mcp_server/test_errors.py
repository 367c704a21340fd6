"""Errors an agent can act on: tool errors (never crashes) with the SDK's message and what
to do, nothing charged for what was refused, and the key in no answer."""

from __future__ import annotations

import pytest

from leadenrich.testing import FakeServer
from tests.mcp_server.conftest import ADA, LEAD, Serve

pytestmark = pytest.mark.anyio

BAD_ARGUMENTS = [
    ("enrich_lead", {"lead": {"company": "Acme", "domain": "https://acme.com"}}, "bare domain"),
    ("enrich_lead", {"lead": {"company": "Acme"}}, "domain"),
    ("enrich_lead", {"lead": {**LEAD, "phone": "+1"}}, "phone"),
    ("find_email", {"person": {"first_name": "Ada"}}, "linkedin_url alone, or first_name + last_name"),
    ("find_mobile", {"person": {"last_name": "Lovelace", "domain": "acme.com"}}, "first_name"),
    ("enrich_leads", {"leads": []}, "at least 1"),
    ("enrich_leads", {"leads": [LEAD] * 26}, "at most 25"),
    ("list_leads", {"limit": 0}, "greater than or equal to 1"),
    ("get_job", {"job_id": "job_1", "wait_seconds": -1}, "wait_seconds"),
]


@pytest.mark.parametrize(("tool", "arguments", "says"), BAD_ARGUMENTS)
async def test_bad_arguments_are_a_clear_error_and_charge_nothing(
    serve: Serve, server: FakeServer, tool: str, arguments: dict[str, object], says: str
) -> None:
    async with serve(max_credits=1) as agent:
        message = await agent.error(tool, arguments)
        assert says in message
        usage = await agent.ok("get_usage")
    assert usage["cap"] == {"max_credits": 1, "spent": 0, "held": 0, "left": 1}
    assert [r.path for r in server.state.requests()] == ["/api/v1/usage"]


async def test_a_429_within_the_retries_is_waited_out(serve: Serve, server: FakeServer) -> None:
    server.fail_next("POST", "/api/v1/email/find", status=429)
    async with serve() as agent:
        out = await agent.ok("find_email", {"person": ADA})
    assert out["credits"]["charged"] == 1
    assert server.state.status_counts(server.api_key)[429] == 1


async def test_a_429_past_the_retries_says_wait_and_retry_and_frees_its_hold(
    serve: Serve, server: FakeServer
) -> None:
    server.fail_next("POST", "/api/v1/email/find", status=429, times=10)
    async with serve(max_credits=1, client_options={"max_retries": 1}) as agent:
        message = await agent.error("find_email", {"person": ADA})
        assert "429" in message
        assert "wait" in message
        assert "call again" in message
        assert "nothing charged" in message
        assert (await agent.ok("get_usage"))["cap"]["left"] == 1


async def test_a_402_says_add_credits(serve: Serve, server: FakeServer) -> None:
    server.fail_next("POST", "/api/v1/leads/enrich", status=402)
    async with serve() as agent:
        message = await agent.error("enrich_lead", {"lead": LEAD})
        assert "402" in message
        assert "add credits" in message
        assert "nothing charged" in message
        assert (await agent.ok("get_usage"))["cap"]["held"] == 0


async def test_a_422_from_the_service_says_fix_the_field(serve: Serve, server: FakeServer) -> None:
    server.fail_next("POST", "/api/v1/email/find", status=422)
    async with serve() as agent:
        message = await agent.error("find_email", {"person": ADA})
    assert "422" in message
    assert "fix the field" in message


async def test_an_unknown_id_is_a_404_error(serve: Serve) -> None:
    async with serve() as agent:
        for tool, key in (("get_job", "job_id"), ("get_lead", "lead_id"), ("get_mobile_lookup", "lookup_id")):
            message = await agent.error(tool, {key: "nope_123"})
            assert "404" in message
            assert "check the id" in message


async def test_a_lost_answer_keeps_its_credit_held(serve: Serve, server: FakeServer) -> None:
    # The service charged it, then the connection dropped: the cap must count it.
    server.fail_next("POST", "/api/v1/email/find", "drop_after")
    async with serve(max_credits=1) as agent:
        message = await agent.error("find_email", {"person": ADA})
        assert "may have charged it" in message
        assert (await agent.ok("get_usage"))["cap"] == {"max_credits": 1, "spent": 0, "held": 1, "left": 0}
        assert "spending cap" in await agent.error("find_email", {"person": ADA})
    assert server.state.charged("email", key=server.api_key) == 1


async def test_a_refused_key_is_never_echoed(serve: Serve, server: FakeServer) -> None:
    wrong = "le_live_not_the_servers_key_0123456789"
    async with serve(client_options={"api_key": wrong}) as agent:
        message = await agent.error("enrich_lead", {"lead": LEAD})
        result = await agent.call("get_usage")
    assert "401" in message
    assert "calling again will not help" in message
    assert wrong not in message
    assert wrong not in result.model_dump_json()
    assert server.state.charged("enrichment", key=server.api_key) == 0


async def test_a_job_started_but_not_followed_keeps_its_credit_held(serve: Serve, server: FakeServer) -> None:
    server.fail_next("GET", "/api/v1/jobs/*", status=404)
    async with serve(max_credits=1) as agent:
        message = await agent.error("enrich_lead", {"lead": LEAD})
        assert "stays held" in message
        job_id = message.split("the job ")[1].split(" ")[0]
        assert (await agent.ok("get_usage"))["cap"]["held"] == 1
        done = await agent.ok("get_job", {"job_id": job_id, "wait_seconds": 300})
    assert done["credits"]["charged"] == 1
    assert done["credits"]["cap"] == {"max_credits": 1, "spent": 1, "held": 0, "left": 0}
    assert server.state.charged("enrichment", key=server.api_key) == 1
