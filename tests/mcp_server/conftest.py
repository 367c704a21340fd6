"""Fixtures of the MCP server's tests: the server on a fake server, and the protocol's own
client talking to it in memory (`mcp.Client` on the server object, as a host would over a
transport, framing aside)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult

from leadenrich._config import ClientSettings
from leadenrich._mcp import CreditCap, ServerState, build_server
from leadenrich.testing import FakeServer, async_client_for

Serve = Callable[..., AbstractAsyncContextManager["Agent"]]


class Agent:
    """A host's view of the server: tool calls, and the server's state beside them."""

    def __init__(self, client: Client, server: MCPServer[ServerState], fake: FakeServer) -> None:
        self.client = client
        self.server = server
        self.fake = fake

    @asynccontextmanager
    async def second_session(self) -> AsyncIterator[Agent]:
        """Another client of the same server: a second session."""
        async with Client(self.server) as client:
            yield Agent(client, self.server, self.fake)

    async def call(self, name: str, arguments: dict[str, Any] | None = None) -> CallToolResult:
        result = await self.client.call_tool(name, arguments or {})
        # Whatever a tool answers, the key is not in it.
        assert self.fake.api_key not in result.model_dump_json()
        return result

    async def ok(self, name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        """The structured output of a call that must succeed."""
        result = await self.call(name, arguments)
        assert not result.is_error, text(result)
        assert result.structured_content is not None
        return result.structured_content

    async def error(self, name: str, arguments: dict[str, Any] | None = None) -> str:
        """The message of a call that must fail as a tool error (not a protocol error)."""
        result = await self.call(name, arguments)
        assert result.is_error, result.structured_content
        return text(result)


def text(result: CallToolResult) -> str:
    return " ".join(getattr(block, "text", "") for block in result.content)


@pytest.fixture
def serve(server: FakeServer, tmp_path: Path) -> Serve:
    """`async with serve(max_credits=3) as agent:` a server on `server` and a client on it."""

    @asynccontextmanager
    async def start(
        *,
        fake: FakeServer | None = None,
        max_credits: int | None = 10,
        confirm_above: int | None = 1,
        client_options: ClientSettings | None = None,
        **client_settings: Any,
    ) -> AsyncIterator[Agent]:
        on = fake or server
        async with async_client_for(on, **(client_options or ClientSettings())) as sdk:
            state = ServerState(
                client=sdk,
                cap=CreditCap(max_credits),
                confirm_above=confirm_above,
                checkpoints=tmp_path,
            )
            mcp_server = build_server(state)
            async with Client(mcp_server, **client_settings) as client:
                yield Agent(client, mcp_server, on)

    return start


LEAD = {"company": "Acme", "domain": "acme.com"}
ADA = {"first_name": "Ada", "last_name": "Lovelace", "domain": "acme.com"}
