"""The server as a host runs it: the `leadenrich mcp` command as a subprocess, started from
the configuration on docs/mcp.md, over stdio and streamable HTTP, with the protocol's own
client."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from leadenrich.testing import FakeServer
from tests.helpers import installed
from tests.mcp_server.conftest import ADA, LEAD, Agent

pytestmark = pytest.mark.anyio

DOCS = Path(__file__).resolve().parents[2] / "docs" / "mcp.md"


def documented_config() -> dict[str, object]:
    """The host configuration docs/mcp.md gives for trying the server on the fake."""
    page = DOCS.read_text(encoding="utf-8")
    block = re.search(r"<!-- host-config:fake -->\s*```json\n(.*?)```", page, re.DOTALL)
    assert block is not None, "docs/mcp.md lost its host configuration"
    return json.loads(block[1])["mcpServers"]["leadenrich"]


@asynccontextmanager
async def host(command: str, args: list[str], env: dict[str, str], errlog: Path) -> AsyncIterator[Client]:
    with errlog.open("w", encoding="utf-8") as log:
        transport = stdio_client(StdioServerParameters(command=command, args=args, env=env), errlog=log)
        async with Client(transport) as client:
            yield client


def clean_environment() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("LEADENRICH_")}


async def test_a_host_configured_from_the_docs_lists_the_tools_and_enriches(tmp_path: Path) -> None:
    config = documented_config()
    assert config["command"] == "leadenrich"
    args = [str(arg) for arg in config["args"]]  # type: ignore[attr-defined]
    # The documented command, with the fake's clock quicker than the docs' tenth of real time.
    async with host(
        installed("leadenrich"), [*args, "--time-scale", "0.005"], clean_environment(), tmp_path / "err"
    ) as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert {"enrich_lead", "get_usage", "enrich_leads"} <= names
        result = await client.call_tool("enrich_lead", {"lead": LEAD})
        assert not result.is_error
        assert result.structured_content is not None
        assert result.structured_content["job"]["status"] == "done"
        assert result.structured_content["credits"]["charged"] == 1
    assert "against the bundled fake server, with a cap of 10 credits" in (tmp_path / "err").read_text()


async def test_over_stdio_the_cap_holds_and_the_key_is_never_shown(
    server: FakeServer, tmp_path: Path
) -> None:
    env = {
        **clean_environment(),
        "LEADENRICH_API_KEY": server.api_key,
        "LEADENRICH_TIME_SCALE": str(server.settings.time_scale),
        "LEADENRICH_LOG": "debug",
    }
    args = ["mcp", "--base-url", server.url, "--max-credits", "1"]
    async with host(installed("leadenrich"), args, env, tmp_path / "err") as client:
        agent = Agent(client, None, server)  # type: ignore[arg-type]
        await agent.ok("enrich_lead", {"lead": LEAD})
        refused = await agent.error("enrich_lead", {"lead": {"company": "Globex", "domain": "globex.com"}})
        assert "spending cap" in refused
        assert "bare domain" in await agent.error(
            "enrich_lead", {"lead": {"company": "X", "domain": "http://x.com"}}
        )
    log = (tmp_path / "err").read_text()
    assert "POST" in log  # the SDK's debug log went to stderr, never to the protocol's stdout
    assert server.api_key not in log
    assert sum(r.path == "/api/v1/leads/enrich" for r in server.state.requests()) == 1
    assert server.state.charged("enrichment", key=server.api_key) == 1


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def over_http(server: FakeServer) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """`leadenrich mcp --transport http` on `server` with a cap of 1, its URL, and the
    process (stopped with Ctrl-C after the test)."""
    port = free_port()
    env = {**clean_environment(), "LEADENRICH_API_KEY": server.api_key}
    command = [sys.executable, "-m", "leadenrich", "mcp", "--base-url", server.url, "--max-credits", "1"]
    process = subprocess.Popen(
        [*command, "--transport", "http", "--port", str(port)], env=env, stderr=subprocess.PIPE, text=True
    )
    try:
        assert process.stderr is not None
        assert f"serving on http://127.0.0.1:{port}/mcp" in process.stderr.readline()
        listening(port)
        yield f"http://127.0.0.1:{port}/mcp", process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            process.communicate(timeout=30)


async def test_over_http_every_session_shares_the_cap(
    server: FakeServer, over_http: tuple[str, subprocess.Popen[str]]
) -> None:
    url, process = over_http
    async with Client(url) as first, Client(url) as second:
        await Agent(first, None, server).ok("find_email", {"person": ADA})  # type: ignore[arg-type]
        refused = await Agent(second, None, server).error("find_email", {"person": ADA})  # type: ignore[arg-type]
    assert "0 of the cap's 1" in refused
    assert sum(r.path == "/api/v1/email/find" for r in server.state.requests()) == 1
    err = await anyio.to_thread.run_sync(stop, process)
    assert process.returncode == 130  # Ctrl-C, as for every command
    assert server.api_key not in err


def test_over_http_a_ctrl_c_is_an_interruption_where_it_was_ignored_at_start() -> None:
    # Started from a script in the background, a program inherits SIGINT ignored. uvicorn
    # takes the Ctrl-C itself, and raises it again once the server stopped, under the
    # handler it found: ignored, the command ended 0 as if nothing had happened.
    port = free_port()
    command = ["-m", "leadenrich", "mcp", "--fake", "--transport", "http", "--port", str(port)]
    # As `sh` leaves it for a command it starts in the background (`exec` keeps it).
    ignoring = ["sh", "-c", 'trap "" INT; exec "$0" "$@"', sys.executable, *command]
    process = subprocess.Popen(ignoring, env=clean_environment(), stderr=subprocess.PIPE, text=True)
    listening(port)
    err = stop(process)
    assert process.returncode == 130, err
    assert err.endswith("leadenrich: interrupted\n")


def stop(process: subprocess.Popen[str]) -> str:
    """Ctrl-C, then what the process wrote on stderr."""
    process.send_signal(signal.SIGINT)
    return process.communicate(timeout=30)[1]


def listening(port: int) -> None:
    """Wait until the server accepts connections (it said it serves just before it binds)."""
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)  # a poll for the port: the subject of no assertion
