"""A tool call's time beside the same SDK call's, against the fake server.

The MCP server runs in this process and the protocol's own client (`mcp.Client`) talks
to it in memory, so the difference is the MCP layer: the client, argument validation,
the tool, the structured output and its schema check. Both sides send the same request
to the same fake server on loopback through the same AsyncLeadEnrich (its pacing set far
above what the run sends). Rounds are interleaved (SDK, tool, SDK, tool, ...) and the
medians of per-call times compared, so a noisy neighbour slows both alike. Two in-memory
modes: `auto` (the 2026-07-28 protocol, dispatched directly) and `legacy` (the
initialize handshake and JSON-RPC messages over memory streams, as over stdio but for
the pipe). Wall time shows what a caller waits; CPU time (of the whole process, the
fake server's thread included) is steadier on a machine others are using.

    python benchmarks/mcp_overhead.py [--calls 200] [--rounds 9]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
from mcp import Client

from leadenrich import AsyncLeadEnrich
from leadenrich._mcp import CreditCap, ServerState, build_server
from leadenrich.testing import FakeServer, async_client_for

Call = Callable[[], Awaitable[Any]]


async def per_call(call: Call, calls: int) -> tuple[float, float]:
    """Median wall seconds of one call over `calls` calls, and the process's CPU seconds a
    call (the fake server's included: it runs on a thread of this process)."""
    times: list[float] = []
    cpu = time.process_time()
    for _ in range(calls):
        start = time.perf_counter()
        await call()
        times.append(time.perf_counter() - start)
    return statistics.median(times), (time.process_time() - cpu) / calls


async def compare(name: str, sdk_call: Call, tool_call: Call, calls: int, rounds: int) -> None:
    for _ in range(20):  # warm both paths: imports, validators, connections
        await sdk_call()
        await tool_call()
    sdk: list[tuple[float, float]] = []
    tool: list[tuple[float, float]] = []
    for _ in range(rounds):
        sdk.append(await per_call(sdk_call, calls))
        tool.append(await per_call(tool_call, calls))
    # Medians over the rounds, in ms: wall time, then CPU time (steadier on a busy machine).
    sdk_ms, tool_ms = (
        statistics.median(t[0] for t in sdk) * 1000,
        statistics.median(t[0] for t in tool) * 1000,
    )
    sdk_cpu, tool_cpu = (
        statistics.median(t[1] for t in sdk) * 1000,
        statistics.median(t[1] for t in tool) * 1000,
    )
    print(
        f"{name:<28} wall: SDK {sdk_ms:6.2f} ms, tool {tool_ms:6.2f} ms, {tool_ms / sdk_ms:4.2f}x | "
        f"CPU: SDK {sdk_cpu:6.2f} ms, tool {tool_cpu:6.2f} ms, {tool_cpu / sdk_cpu:4.2f}x, "
        f"MCP layer {tool_cpu - sdk_cpu:5.2f} ms"
    )


async def main(calls: int, rounds: int) -> None:
    with (
        FakeServer(sync_per_minute=10**7, async_per_minute=10**7) as fake,
        tempfile.TemporaryDirectory() as d,
    ):
        async with async_client_for(fake) as sdk:
            lead = await sdk.leads.enrich_and_wait({"company": "Acme", "domain": "acme.com"})
            state = ServerState(client=sdk, cap=CreditCap(None), confirm_above=None, checkpoints=Path(d))
            server = build_server(state)
            for mode in ("auto", "legacy"):
                async with Client(server, mode=mode) as client:
                    await run(mode, sdk, client, lead.id, calls, rounds)


async def run(mode: str, sdk: AsyncLeadEnrich, client: Client, lead_id: str, calls: int, rounds: int) -> None:
    async def tool(name: str, arguments: dict[str, Any]) -> None:
        result = await client.call_tool(name, arguments)
        assert not result.is_error, result.content

    await compare(
        f"get_lead ({mode})",
        lambda: sdk.leads.get(lead_id),
        lambda: tool("get_lead", {"lead_id": lead_id}),
        calls,
        rounds,
    )
    await compare(f"get_usage ({mode})", sdk.usage, lambda: tool("get_usage", {}), calls, rounds)
    await compare(
        f"list_leads, 1 lead ({mode})",
        lambda: sdk.leads.list(limit=20),
        lambda: tool("list_leads", {"limit": 20}),
        calls,
        rounds,
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="A tool call's time beside the same SDK call's.")
    parser.add_argument("--calls", type=int, default=200, help="calls per round (default: %(default)s)")
    parser.add_argument("--rounds", type=int, default=9, help="interleaved rounds (default: %(default)s)")
    options = parser.parse_args()
    anyio.run(main, options.calls, options.rounds)
