"""The pytest plugin, run in a child pytest the way a user's project would use it."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from importlib.metadata import entry_points
from pathlib import Path

from tests.helpers import USERS_PYTEST

PLUGIN = "leadenrich.testing.pytest_plugin"

USER_TESTS = """
import pytest
from leadenrich import AsyncLeadEnrich, LeadEnrich
from leadenrich.testing import FakeServer, FakeSettings

SEEN = []


def test_server_is_running_and_fresh(leadenrich_server):
    assert isinstance(leadenrich_server, FakeServer)
    assert leadenrich_server.state.requests() == []
    SEEN.append(leadenrich_server.url)


def test_each_test_gets_its_own_server(leadenrich_server):
    assert SEEN and leadenrich_server.url not in SEEN


def test_sync_client(leadenrich_client, leadenrich_server):
    assert isinstance(leadenrich_client, LeadEnrich)
    lead = leadenrich_client.leads.enrich_sync({"company": "Acme", "domain": "acme.com"})
    assert leadenrich_server.state.charged("enrichment", key=leadenrich_server.api_key) == 1
    assert lead.id == leadenrich_client.leads.list().items[0].id
    # On the server's clock: the spec's window, counted in the server's scaled seconds.
    assert leadenrich_client.clock.scale == leadenrich_server.settings.time_scale
    assert leadenrich_client.rate_limits.period == leadenrich_server.settings.rate_window_seconds


@pytest.mark.anyio
async def test_async_client(async_leadenrich_client, leadenrich_server):
    assert isinstance(async_leadenrich_client, AsyncLeadEnrich)
    job = await async_leadenrich_client.leads.enrich({"company": "Acme", "domain": "acme.com"})
    # The spec's durations, as against the real service: the client's clock runs them fast.
    done = await async_leadenrich_client.jobs.wait(job.job_id, timeout=300)
    assert done.status == "done"


class TestOverriddenSettings:
    @pytest.fixture
    def leadenrich_settings(self):
        return FakeSettings(max_concurrent_enrichments=1, tier="scale")

    def test_settings_fixture_can_be_overridden(self, leadenrich_server, leadenrich_client):
        assert leadenrich_server.settings.max_concurrent_enrichments == 1
        assert leadenrich_client.usage().tier == "scale"
"""

CONFTEST = """
import pytest


@pytest.fixture
def anyio_backend():
    return "asyncio"
"""


def _registered_by_entry_point() -> bool:
    return any(ep.value == PLUGIN for ep in entry_points(group="pytest11"))


def test_fixtures_in_a_users_test_suite(tmp_path: Path) -> None:
    (tmp_path / "test_user.py").write_text(textwrap.dedent(USER_TESTS))
    (tmp_path / "conftest.py").write_text(textwrap.dedent(CONFTEST))
    # Installed, the package's entry point loads the plugin; in a bare checkout, -p does.
    load = [] if _registered_by_entry_point() else ["-p", PLUGIN]
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            *load,
            "-q",
            "-W",
            "error",
            *USERS_PYTEST,
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "5 passed" in result.stdout
