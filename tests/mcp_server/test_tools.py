"""Every tool through the protocol's client: listed with valid schemas and truthful
annotations, called, and answering structured output that fits its schema, with what it
cost checked against the fake server's books."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from leadenrich.testing import FakeServer
from tests.mcp_server.conftest import ADA, LEAD, Agent, Serve

pytestmark = pytest.mark.anyio

CHARGING = {"enrich_lead", "find_email", "find_mobile", "enrich_leads"}
READING = {"get_job", "get_mobile_lookup", "get_lead", "list_leads", "get_usage", "preview_batch"}


async def test_every_tool_is_listed_with_valid_schemas_and_annotations(serve: Serve) -> None:
    async with serve() as agent:
        listed = (await agent.client.list_tools()).tools
    assert {tool.name for tool in listed} == CHARGING | READING
    # What an agent gives: the context and the person's approval are the server's own.
    assert {tool.name: sorted(tool.input_schema.get("properties", {})) for tool in listed} == {
        "enrich_lead": ["lead", "wait_seconds"],
        "get_job": ["job_id", "wait_seconds"],
        "find_email": ["person"],
        "find_mobile": ["person", "wait_seconds"],
        "get_mobile_lookup": ["lookup_id", "wait_seconds"],
        "get_lead": ["lead_id"],
        "list_leads": ["limit", "skip"],
        "get_usage": [],
        "preview_batch": ["leads"],
        "enrich_leads": ["leads"],
    }
    for tool in listed:
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)
        assert tool.output_schema is not None, tool.name
        jsonschema.Draft202012Validator.check_schema(tool.output_schema)
        notes = tool.annotations
        assert notes is not None, tool.name
        assert notes.title, tool.name
        assert notes.read_only_hint is (tool.name in READING), tool.name
        # Nothing deletes or overwrites: the charging tools add a lead and spend credits.
        assert notes.destructive_hint is False, tool.name
        assert notes.idempotent_hint is (tool.name in READING), tool.name
        assert tool.description is not None
        if tool.name in CHARGING:
            assert "Costs 1" in tool.description, tool.name
            assert "cap" in tool.description, tool.name
        else:
            assert "Costs nothing" in tool.description, tool.name


def test_the_tool_inputs_are_the_sdks_request_models() -> None:
    from leadenrich import EmailFindIn, LeadIn, MobileFindIn
    from leadenrich._mcp.server import TOOLS

    inputs = {spec.fn.__name__: spec.fn.__annotations__ for spec in TOOLS}
    assert inputs["enrich_lead"]["lead"] in ("LeadIn", LeadIn)
    assert inputs["find_email"]["person"] in ("EmailFindIn", EmailFindIn)
    assert inputs["find_mobile"]["person"] in ("MobileFindIn", MobileFindIn)


async def structured(agent: Agent, name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
    """A call's structured output, checked against the output schema the tool lists."""
    output = await agent.ok(name, arguments)
    schemas = {tool.name: tool.output_schema for tool in (await agent.client.list_tools()).tools}
    jsonschema.validate(output, schemas[name] or {})
    return output


async def test_enrich_lead_waits_for_its_job_and_charges_one_credit(serve: Serve, server: FakeServer) -> None:
    async with serve(max_credits=5) as agent:
        out = await structured(agent, "enrich_lead", {"lead": LEAD})
        assert out["job"]["status"] == "done"
        assert out["job"]["result"]["input"]["domain"] == "acme.com"
        assert 0 <= out["job"]["result"]["enrichment"]["opportunity_score"] <= 100
        assert out["credits"]["charged"] == 1
        assert out["credits"]["held"] == 0
        assert out["credits"]["cap"] == {"max_credits": 5, "spent": 1, "held": 0, "left": 4}
        # The job and its lead, read back: free, and the job's credit is not reported again.
        again = await structured(agent, "get_job", {"job_id": out["job"]["job_id"]})
        assert again["credits"]["charged"] == 0
        assert "free" in again["credits"]["note"]
        lead_id = out["job"]["result"]["id"]
        assert (await structured(agent, "get_lead", {"lead_id": lead_id}))["id"] == lead_id
        listed = await structured(agent, "list_leads", {"limit": 10})
        assert [lead["id"] for lead in listed["items"]] == [lead_id]
        assert listed["has_more"] is False
        usage = await structured(agent, "get_usage")
        assert usage["usage"]["monthly_leads"]["used"] == 1
        assert usage["cap"]["spent"] == 1
    assert server.state.charged("enrichment", key=server.api_key) == 1


async def test_a_job_still_running_holds_its_credit_until_get_job_sees_it_end(
    serve: Serve, server: FakeServer
) -> None:
    async with serve(max_credits=1) as agent:
        out = await structured(agent, "enrich_lead", {"lead": LEAD, "wait_seconds": 0})
        assert out["job"]["status"] in ("queued", "running")
        assert out["credits"] == {
            **out["credits"],
            "charged": 0,
            "held": 1,
            "cap": {"max_credits": 1, "spent": 0, "held": 1, "left": 0},
        }
        assert "get_job" in out["credits"]["note"]
        # The held credit counts against the cap: a second enrichment sends nothing.
        refused = await agent.error("enrich_lead", {"lead": {"company": "Globex", "domain": "globex.com"}})
        assert "spending cap" in refused
        assert "0 of the cap's 1" in refused
        done = await structured(agent, "get_job", {"job_id": out["job"]["job_id"], "wait_seconds": 300})
        assert done["job"]["status"] == "done"
        assert done["credits"]["charged"] == 1
        assert done["credits"]["cap"] == {"max_credits": 1, "spent": 1, "held": 0, "left": 0}
    assert server.state.charged("enrichment", key=server.api_key) == 1
    assert sum(r.path == "/api/v1/leads/enrich" for r in server.state.requests()) == 1


async def test_a_deduped_lead_costs_nothing_and_says_so(serve: Serve, server: FakeServer) -> None:
    known = {**LEAD, "email": "ada@acme.com"}
    async with serve(max_credits=2) as agent:
        first = await structured(agent, "enrich_lead", {"lead": known})
        second = await structured(agent, "enrich_lead", {"lead": known})
        assert first["credits"]["charged"] == 1
        assert second["job"]["result"]["deduped"] is True
        assert second["credits"]["charged"] == 0
        assert "deduped" in second["credits"]["note"]
        assert second["credits"]["cap"]["left"] == 1
    assert server.state.charged("enrichment", key=server.api_key) == 1


async def test_find_email_charges_a_hit_only(serve: Serve, server: FakeServer) -> None:
    async with serve() as agent:
        hit = await structured(agent, "find_email", {"person": ADA})
        miss = await structured(agent, "find_email", {"person": {**ADA, "last_name": "Nobody"}})
        assert hit["result"]["state"] == "found"
        assert hit["result"]["email"]
        assert hit["credits"]["charged"] == 1
        assert miss["result"]["state"] == "not_found"
        assert miss["credits"]["charged"] == 0
        assert miss["credits"]["cap"]["spent"] == 1
    assert server.state.charged("email", key=server.api_key) == 1


async def test_find_mobile_charges_a_settled_lookup_only(serve: Serve, server: FakeServer) -> None:
    async with serve() as agent:
        settled = await structured(agent, "find_mobile", {"person": ADA})
        refunded = await structured(agent, "find_mobile", {"person": {**ADA, "last_name": "Landline"}})
        assert settled["lookup"]["state"] == "settled"
        assert settled["lookup"]["mobile"]
        assert settled["credits"]["charged"] == 1
        assert refunded["lookup"]["state"] == "refunded"
        assert refunded["credits"]["charged"] == 0
        again = await structured(agent, "get_mobile_lookup", {"lookup_id": settled["lookup"]["lookup_id"]})
        assert again["lookup"]["state"] == "settled"
        assert again["credits"]["charged"] == 0
        assert again["credits"]["cap"]["spent"] == 1
    assert server.state.charged("mobile", key=server.api_key) == 1


async def test_a_pending_lookup_holds_its_credit_until_it_settles(serve: Serve, server: FakeServer) -> None:
    async with serve(max_credits=1) as agent:
        pending = await structured(agent, "find_mobile", {"person": ADA, "wait_seconds": 0})
        assert pending["lookup"]["state"] == "pending"
        assert pending["credits"]["held"] == 1
        assert pending["credits"]["cap"]["left"] == 0
        done = await structured(
            agent, "get_mobile_lookup", {"lookup_id": pending["lookup"]["lookup_id"], "wait_seconds": 300}
        )
        assert done["lookup"]["state"] == "settled"
        assert done["credits"]["charged"] == 1
        assert done["credits"]["cap"]["held"] == 0
    assert server.state.charged("mobile", key=server.api_key) == 1


async def test_preview_then_batch_then_the_same_batch_resumes_free(serve: Serve, server: FakeServer) -> None:
    batch = [{"company": f"Co{i}", "domain": f"co{i}.com"} for i in range(4)]
    async with serve(max_credits=10) as agent:
        preview = await structured(agent, "preview_batch", {"leads": batch})
        assert preview["credits_at_most"] == 4
        assert [row["status"] for row in preview["rows"]] == ["new"] * 4
        assert server.state.charged("enrichment", key=server.api_key) == 0
        first = await structured(agent, "enrich_leads", {"leads": batch})
        assert [o["status"] for o in first["outcomes"]] == ["enriched"] * 4
        assert first["credits"]["charged"] == 4
        again = await structured(agent, "enrich_leads", {"leads": batch})
        assert all(o["resumed"] and not o["charged"] for o in again["outcomes"])
        assert again["credits"]["charged"] == 0
        assert "resumed" in again["credits"]["note"]
        assert again["credits"]["cap"]["spent"] == 4
    assert server.state.charged("enrichment", key=server.api_key) == 4
