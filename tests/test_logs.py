"""LEADENRICH_LOG=debug|info shows the SDK's log on stderr; without it the SDK configures nothing."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent(
    """
    import logging

    import leadenrich
    from leadenrich import LeadEnrich, NotFoundError
    from leadenrich.testing import FakeServer

    assert logging.getLogger().handlers == [], "importing configured logging"
    with FakeServer() as server:
        print("KEY", server.api_key, flush=True)
        with LeadEnrich(server.api_key, base_url=server.url) as client:
            client.usage()
            try:
                client.leads.get("ld_missing", extra_query={"view": "full"})
            except NotFoundError:
                pass
    sdk = logging.getLogger("leadenrich")
    print("ROOT", len(logging.getLogger().handlers), "SDK", len(sdk.handlers), logging.getLevelName(sdk.level))
    """
)


def run(level: str | None) -> tuple[str, str, str]:
    env = {k: v for k, v in os.environ.items() if k != "LEADENRICH_LOG"}
    if level is not None:
        env["LEADENRICH_LOG"] = level
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=120, check=True
    )
    key = done.stdout.split("KEY ", 1)[1].split()[0]
    sdk_lines = "\n".join(line for line in done.stderr.splitlines() if " leadenrich] " in line)
    return done.stdout, sdk_lines, key + "\n" + done.stderr


@pytest.mark.parametrize("level", ["info", "INFO", "debug"])
def test_the_variable_shows_each_request_on_stderr_without_the_key(level: str) -> None:
    stdout, lines, key_and_stderr = run(level)
    key, stderr = key_and_stderr.split("\n", 1)
    assert "GET /api/v1/usage -> 200 OK (" in lines
    assert "GET /api/v1/leads/ld_missing?view=full -> 404 Not Found (" in lines
    assert " ms)" in lines
    assert key not in stderr
    assert key.removeprefix("le_live_") not in stderr
    # Only the SDK's logger got a handler: the root logger is the application's.
    assert f"ROOT 0 SDK 1 {level.upper()}" in stdout
    if level == "debug":
        assert "sending GET /api/v1/usage headers=" in lines
        assert "'authorization': 'Bearer ***'" in lines
    else:
        assert "sending" not in lines


def test_without_the_variable_nothing_is_printed_or_configured() -> None:
    stdout, lines, _ = run(None)
    assert lines == ""
    assert "ROOT 0 SDK 0 NOTSET" in stdout


def test_an_unknown_level_is_a_warning_naming_the_values() -> None:
    stdout, lines, key_and_stderr = run("verbose")
    assert lines == ""
    assert "LEADENRICH_LOG='verbose' is ignored: set it to debug or info" in key_and_stderr
    assert "ROOT 0 SDK 0 NOTSET" in stdout
