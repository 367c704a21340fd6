"""Clients bound to a fake server, and `connect()`: the real API when a key is set, else a fake.

The one module of the fake that reaches into the SDK's private modules (the rest of
testing/ uses its models and public names only): the clients, and the ManualClock that
`leadenrich.testing` hands out for tests without a server.
"""

from __future__ import annotations

import dataclasses
import inspect
import os
from collections.abc import AsyncGenerator, Generator
from contextlib import asynccontextmanager, contextmanager

from typing_extensions import Unpack

from .._client import AsyncLeadEnrich, LeadEnrich
from .._clock import ManualClock
from .._config import ClientSettings
from .._signatures import Described, keywords_from
from ._server import FakeServer

__all__ = ["ManualClock", "aconnect", "async_client_for", "client_for", "connect"]


# What a client bound to a server takes from it when left out; the rest, the client's own defaults.
_FROM_SERVER = ("api_key", "base_url", "clock", "rate_limits")
_SERVER_S = Described("the server's")
server_options = keywords_from(
    ClientSettings,
    {
        name: _SERVER_S if name in _FROM_SERVER else parameter.default
        for name, parameter in inspect.signature(LeadEnrich).parameters.items()
        if name in ClientSettings.__annotations__
    },
)
"""Shows the client settings `client_for` and its kin take, in their run-time signature."""


@server_options
def client_for(server: FakeServer, **options: Unpack[ClientSettings]) -> LeadEnrich:
    """A LeadEnrich on `server` with its ready key (or `api_key=`), on its clock and paced to its limits.

    On the server's [`clock`][leadenrich.testing.FakeServer.clock], every wait of the
    client (polls, back-offs, pacing, deadlines) runs as fast as the server does. Any
    other setting of the client may be given (`timeout=`, `max_retries=`, ...); a
    mistyped one is an error for type checkers, and a TypeError when called.

    Examples:
        >>> with FakeServer() as server, client_for(server) as client:
        ...     client.usage()
    """
    return LeadEnrich(**_on_server(server, options))


@server_options
def async_client_for(server: FakeServer, **options: Unpack[ClientSettings]) -> AsyncLeadEnrich:
    """An AsyncLeadEnrich on `server` with its ready key, on its clock and paced to its limits.

    Takes the settings [`client_for`][leadenrich.testing.client_for] takes.

    Examples:
        >>> with FakeServer() as server:
        ...     async with async_client_for(server) as client:
        ...         await client.usage()
    """
    return AsyncLeadEnrich(**_on_server(server, options))


def _on_server(server: FakeServer, options: ClientSettings) -> ClientSettings:
    options.setdefault("api_key", server.api_key)  # another of its keys may be given
    options.setdefault("base_url", server.url)
    clock = options.get("clock") or server.clock
    options["clock"] = clock
    # The server's window, in seconds of the client's clock (the spec's 60 on the server's).
    period = server.settings.rate_window / clock.scale
    options.setdefault("rate_limits", dataclasses.replace(server.rate_limits, period=period))
    return options


@contextmanager
@server_options
def connect(**options: Unpack[ClientSettings]) -> Generator[LeadEnrich, None, None]:
    """A client of the real API when `LEADENRICH_API_KEY` is set, else of a fake server.

    The fake server runs for the duration of the `with` block. This is how the examples
    run anywhere: with your key against the service, without one against the fake. It
    takes the client's settings (`timeout=`, `max_retries=`, ...).

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
@server_options
async def aconnect(**options: Unpack[ClientSettings]) -> AsyncGenerator[AsyncLeadEnrich, None]:
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
