"""Clients bound to a fake server, and `connect()`: the real API when a key is set, else a fake.

The one module of the fake that reaches into the SDK's private modules (the rest of
testing/ uses its models and public names only): the clients, and the ManualClock that
`leadenrich.testing` hands out for tests without a server.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import AsyncGenerator, Generator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

from .._client import AsyncLeadEnrich, LeadEnrich
from .._clock import ManualClock
from ._server import FakeServer

__all__ = ["ManualClock", "aconnect", "async_client_for", "client_for", "connect"]


def client_for(server: FakeServer, **options: Any) -> LeadEnrich:
    """A LeadEnrich on `server` with its ready key (or `api_key=`), on its clock and paced to its limits.

    On the server's [`clock`][leadenrich.testing.FakeServer.clock], every wait of the
    client (polls, back-offs, pacing, deadlines) runs as fast as the server does.

    Examples:
        >>> with FakeServer() as server, client_for(server) as client:
        ...     client.usage()
    """
    return LeadEnrich(**_on_server(server, options))


def async_client_for(server: FakeServer, **options: Any) -> AsyncLeadEnrich:
    """An AsyncLeadEnrich on `server` with its ready key, on its clock and paced to its limits.

    Examples:
        >>> with FakeServer() as server:
        ...     async with async_client_for(server) as client:
        ...         await client.usage()
    """
    return AsyncLeadEnrich(**_on_server(server, options))


def _on_server(server: FakeServer, options: dict[str, Any]) -> dict[str, Any]:
    options.setdefault("api_key", server.api_key)  # another of its keys may be given
    options.setdefault("base_url", server.url)
    clock = options.setdefault("clock", server.clock)
    # The server's window, in seconds of the client's clock (the spec's 60 on the server's).
    period = server.settings.rate_window / clock.scale
    options.setdefault("rate_limits", dataclasses.replace(server.rate_limits, period=period))
    return options


@contextmanager
def connect(**options: Any) -> Generator[LeadEnrich, None, None]:
    """A client of the real API when `LEADENRICH_API_KEY` is set, else of a fake server.

    The fake server runs for the duration of the `with` block. This is how the examples
    run anywhere: with your key against the service, without one against the fake.

    Args:
        **options: Client options (`timeout`, `max_retries`, ...).

    Examples:
        >>> from leadenrich.testing import connect
        >>> with connect() as client:
        ...     print(client.health().status)
    """
    if os.environ.get("LEADENRICH_API_KEY"):
        with LeadEnrich(**options) as client:
            yield client
        return
    with FakeServer() as server, client_for(server, **options) as client:
        yield client


@asynccontextmanager
async def aconnect(**options: Any) -> AsyncGenerator[AsyncLeadEnrich, None]:
    """The async twin of [`connect`][leadenrich.testing.connect].

    Examples:
        >>> async with aconnect() as client:
        ...     job = await client.leads.enrich({"company": "Acme", "domain": "acme.com"})
    """
    if os.environ.get("LEADENRICH_API_KEY"):
        async with AsyncLeadEnrich(**options) as client:
            yield client
        return
    with FakeServer() as server:
        async with async_client_for(server, **options) as client:
            yield client
