# pyright: strict
"""The `mcp` extra: an MCP client (the mcp SDK's stdio client) starts `leadenrich mcp`
against a fake server, initialises, lists the tools, checks their names are the ones
docs/mcp.md documents, and calls the free `get_usage`.

    python .ci/smoke/mcp_list.py DOCS/mcp.md
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from leadenrich.testing import FakeServer


def documented_tools(page: str) -> list[str]:
    """The first column of the page's table of tools, in its order."""
    section = page.partition("## The tools and what each costs")[2].partition("\n## ")[0]
    return re.findall(r"^\| `(\w+)` \|", section, re.MULTILINE)


async def session(server: FakeServer, errlog: Path) -> tuple[list[str], dict[str, object], bool]:
    """The tools' names, get_usage's structured answer and whether it was an error."""
    # The console script beside this Python: the venv's, as a host configured from the docs runs it.
    command = str(Path(sys.executable).with_name("leadenrich"))
    env = {name: value for name, value in os.environ.items() if not name.startswith("LEADENRICH_")}
    parameters = StdioServerParameters(
        command=command,
        args=["mcp", "--base-url", server.url, "--max-credits", "3"],
        env={**env, "LEADENRICH_API_KEY": server.api_key},
    )
    with errlog.open("w", encoding="utf-8") as log:
        async with (
            stdio_client(parameters, errlog=log) as (read, write),
            ClientSession(read, write) as client,
        ):
            await client.initialize()
            names = [tool.name for tool in (await client.list_tools()).tools]
            usage = await client.call_tool("get_usage", {})
    return names, dict(usage.structured_content or {}), usage.is_error


def main(docs: str) -> int:
    documented = documented_tools(Path(docs).read_text(encoding="utf-8"))
    with FakeServer() as server, tempfile.TemporaryDirectory() as scratch:
        errlog = Path(scratch) / "stderr"
        names, usage, failed = anyio.run(session, server, errlog)
        log = errlog.read_text(encoding="utf-8")
        requests = [(r.method, r.path) for r in server.state.requests()]
        key = server.api_key
    problems: list[str] = []
    if not documented:
        problems.append(f"{docs} lists no tools: its table of tools moved or changed shape")
    if sorted(names) != sorted(documented):
        problems.append(f"the server lists {sorted(names)}; {docs} documents {sorted(documented)}")
    cap = usage.get("cap")
    if failed or "usage" not in usage or not isinstance(cap, dict) or cap.get("max_credits") != 3:  # pyright: ignore[reportUnknownMemberType]
        problems.append(f"get_usage answered {usage!r}")
    if requests.count(("GET", "/api/v1/usage")) != 1:
        problems.append(f"the fake server saw {requests}, not one GET /api/v1/usage")
    if key in log:
        problems.append("the server's stderr shows the API key")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"the server's stderr:\n{log}", file=sys.stderr)
    else:
        print(f"mcp: {len(names)} tools listed over stdio, as documented; get_usage answered")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
