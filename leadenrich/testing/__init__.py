"""Testing support: a fake Lead Enrichment API server (install the `fake` extra).

    from leadenrich import LeadEnrich
    from leadenrich.testing import FakeServer

    with FakeServer() as server:
        client = LeadEnrich(api_key=server.api_key, base_url=server.url)

The pytest plugin (fixtures `leadenrich_server`, `leadenrich_client`,
`async_leadenrich_client`) is `leadenrich.testing.pytest_plugin`. pytest loads it in
every project that installs leadenrich, and it lives in this package, so the names below
load on first use (PEP 562); fastapi and uvicorn only when a server starts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._lazy import load

if TYPE_CHECKING:
    from ._connect import ManualClock, aconnect, async_client_for, client_for, connect
    from ._server import FakeServer
    from ._settings import FakeSettings

__all__ = [
    "FakeServer",
    "FakeSettings",
    "ManualClock",
    "aconnect",
    "async_client_for",
    "client_for",
    "connect",
]

_SOURCES = {
    "FakeServer": "._server",
    "FakeSettings": "._settings",
    "ManualClock": "._connect",
    "aconnect": "._connect",
    "async_client_for": "._connect",
    "client_for": "._connect",
    "connect": "._connect",
}


def __getattr__(name: str) -> Any:
    return load(__name__, _SOURCES, name)


def __dir__() -> list[str]:
    return sorted(__all__)
