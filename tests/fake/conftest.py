"""Fixtures for the fake server's own tests: servers with chosen settings, raw httpx clients."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from leadenrich.testing import FakeServer
from tests.helpers import api_client


@pytest.fixture
def http(server: FakeServer) -> Iterator[httpx.Client]:
    """Raw HTTP on the server's /api/v1 with its ready key."""
    with api_client(server) as client:
        yield client
