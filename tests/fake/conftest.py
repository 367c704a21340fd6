"""Fixtures for the fake server's own tests: servers with chosen settings, raw httpx clients."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from leadenrich.testing import FakeServer

from .support import api_client

MakeServer = Callable[..., FakeServer]


@pytest.fixture
def make_server() -> Iterator[MakeServer]:
    """Start a FakeServer with the given FakeSettings fields; stopped after the test."""
    servers: list[FakeServer] = []

    def make(**overrides: Any) -> FakeServer:
        server = FakeServer(**overrides).start()
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.stop()


@pytest.fixture
def server(make_server: MakeServer) -> FakeServer:
    """A server with the default settings but 5x shorter enrichments and lookups (20-40 ms),
    which most tests only wait out; tests of timing use `make_server` with what they need."""
    return make_server(enrichment_seconds=(4.0, 8.0), mobile_lookup_seconds=(2.0, 6.0))


@pytest.fixture
def http(server: FakeServer) -> Iterator[httpx.Client]:
    """Raw HTTP on the server's /api/v1 with its ready key."""
    with api_client(server) as client:
        yield client
