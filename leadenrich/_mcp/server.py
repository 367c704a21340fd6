"""The MCP server: the tools registered with what they cost and their annotations, and
the transports (stdio for desktop hosts, streamable HTTP for the rest)."""

from __future__ import annotations

import logging
from collections.abc import AsyncGenerator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

from leadenrich import __version__

from . import tools
from .state import ServerState

__all__ = ["TOOLS", "ToolSpec", "build_server", "serve"]

Transport = Literal["stdio", "http"]


@dataclass(frozen=True)
class ToolSpec:
    """A tool: its function, what it costs and does to the account, and its annotations."""

    fn: Callable[..., Any]
    title: str
    description: str
    read_only: bool
    idempotent: bool
    open_world: bool

    def annotations(self) -> ToolAnnotations:
        # Nothing here deletes or overwrites: the charging tools add (a stored lead, a
        # spent credit), so destructive is false; what they may spend is said in every
        # description and enforced by the cap.
        return ToolAnnotations(
            title=self.title,
            read_only_hint=self.read_only,
            destructive_hint=False,
            idempotent_hint=self.idempotent,
            open_world_hint=self.open_world,
        )


_FREE = "Costs nothing and changes nothing on the account."
_CAP = (
    " Checked against the server's spending cap before anything is sent: a call the cap "
    "cannot pay sends nothing and says how many credits are left."
)

TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        tools.enrich_lead,
        "Enrich a lead",
        "Enrich one B2B lead (company and bare domain required; name, email, title, "
        "linkedin_url help) into a company overview, tech stack, intent signals, buying "
        "committee, engagement playbook and a 0-100 opportunity score. Starts an enrichment "
        "job and waits up to wait_seconds for it (typically 20-40 s); if it is still running, "
        "follow it with get_job. Costs 1 enrichment credit; free when the contact's email is "
        "already known (the stored lead comes back with deduped=true). Stores the lead on the "
        "account." + _CAP,
        read_only=False,
        idempotent=False,
        open_world=True,
    ),
    ToolSpec(
        tools.get_job,
        "Enrichment job status",
        "Show an enrichment job (queued, running, done or failed) and, once done, its lead; "
        "with wait_seconds, wait for it to end. " + _FREE + " The credit of a job started by "
        "enrich_lead is reported here once it is seen to end, never twice.",
        read_only=True,
        idempotent=True,
        open_world=False,
    ),
    ToolSpec(
        tools.find_email,
        "Find a work email",
        "Find a person's work email: give linkedin_url alone, or first_name and last_name with "
        "company_name or domain. Costs 1 enrichment credit when an email is found, nothing "
        "when it is not (state not_found)." + _CAP,
        read_only=False,
        idempotent=False,
        open_world=True,
    ),
    ToolSpec(
        tools.find_mobile,
        "Find a mobile number",
        "Look up a person's mobile number (linkedin_url alone, or first_name and last_name "
        "with company_name or domain) and wait up to wait_seconds for the answer (typically "
        "10-30 s); if still pending, follow it with get_mobile_lookup. Costs 1 mobile credit "
        "when a number is found (state settled), nothing when none is (state refunded)." + _CAP,
        read_only=False,
        idempotent=False,
        open_world=True,
    ),
    ToolSpec(
        tools.get_mobile_lookup,
        "Mobile lookup status",
        "Show a mobile lookup (pending, settled with a number, or refunded); with "
        "wait_seconds, wait for it to end. " + _FREE,
        read_only=True,
        idempotent=True,
        open_world=False,
    ),
    ToolSpec(
        tools.get_lead,
        "Get a stored lead",
        "Show one of the account's enriched leads by its id. " + _FREE,
        read_only=True,
        idempotent=True,
        open_world=False,
    ),
    ToolSpec(
        tools.list_leads,
        "List stored leads",
        "List the account's enriched leads, one page at a time (limit, skip). " + _FREE,
        read_only=True,
        idempotent=True,
        open_world=False,
    ),
    ToolSpec(
        tools.get_usage,
        "Usage and credits left",
        "Show the account's monthly enrichment quota (monthly_leads: effective_limit minus "
        "used is what is left), its mobile credits and request counts, and this server's "
        "spending cap (spent, held, left). " + _FREE,
        read_only=True,
        idempotent=True,
        open_world=False,
    ),
    ToolSpec(
        tools.preview_batch,
        "Preview a batch's cost",
        f"Show what enrich_leads would charge for up to {tools.MAX_BATCH} leads, and whether "
        "the account and the server's cap can pay: leads whose email the account already has, "
        "repeated leads and leads an earlier call of the same batch finished are free, every "
        "other lead costs 1 enrichment credit at most. Reads the usage and the stored leads. " + _FREE,
        read_only=True,
        idempotent=True,
        open_world=False,
    ),
    ToolSpec(
        tools.enrich_leads,
        "Enrich a small batch",
        f"Enrich up to {tools.MAX_BATCH} leads, five at a time, and wait for all of them. Costs "
        "1 enrichment credit per lead enriched; deduped leads, repeated leads and leads an "
        "earlier call of the same batch finished cost nothing (the same batch sent again "
        "resumes). Leads past what the server's cap has left are not started and are reported "
        "skipped. Stores the leads on the account. Run preview_batch first to see the cost.",
        read_only=False,
        idempotent=False,
        open_world=True,
    ),
)


def build_server(state: ServerState) -> MCPServer[ServerState]:
    """The server with every tool, sharing `state` (one client, one cap) across sessions."""

    @asynccontextmanager
    async def shared(_: MCPServer[ServerState]) -> AsyncGenerator[ServerState, None]:
        # Every session (a stdio connection, each HTTP session) sees the same state: the
        # cap is the server's, for its whole life.
        yield state

    # MCPServer configures the root logger when it is made (logging.basicConfig with its
    # own handler); the SDK leaves the process's logging to the process, as everywhere
    # else, so that is undone. Warnings still reach stderr through logging's last resort.
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    server = MCPServer(
        "leadenrich",
        title="Lead Enrichment",
        version=__version__,
        instructions=(
            "Tools for the Lead Enrichment API. Calls that charge credits say so and what they "
            "charged; this server refuses any call past its spending cap (get_usage shows what "
            "is left). Look for a lead with list_leads before enriching it again."
        ),
        lifespan=shared,
        log_level="WARNING",
    )
    root.handlers[:] = handlers
    root.setLevel(level)
    for spec in TOOLS:
        server.add_tool(
            spec.fn,
            title=spec.title,
            description=spec.description,
            annotations=spec.annotations(),
            structured_output=True,
        )
    return server


async def serve(state: ServerState, transport: Transport, *, host: str, port: int) -> None:
    """Serve until the host closes stdio (or, over HTTP, until interrupted); the client is closed after."""
    server = build_server(state)
    try:
        if transport == "stdio":
            await server.run_stdio_async()
        else:
            await server.run_streamable_http_async(host=host, port=port)
    finally:
        await state.client.aclose()
