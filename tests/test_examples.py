"""Every example runs against the bundled fake server and prints what it promises."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run_example(name: str, *args: str, cwd: Path | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEADENRICH_")}
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / name), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=cwd,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_quickstart() -> None:
    out = run_example("quickstart.py")
    assert "Ada Lovelace at Acme Robotics (acme-robotics.com), lead ld_" in out
    assert "/100, " in out
    assert "credits used this month: 1 of 1000" in out


def test_webhook_receiver() -> None:
    out = run_example("webhook_receiver.py")
    lines = out.splitlines()
    assert lines[0].startswith("job job_")
    assert "done, confirmed with the API: lead ld_" in lines[1]
    assert "of Initech" in lines[1]


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.py")))
def test_every_example_is_tested(name: str) -> None:
    tested = {n.removeprefix("test_").replace("_", "") for n in globals() if n.startswith("test_")}
    assert name.removesuffix(".py").replace("_", "") in tested, f"examples/{name} has no test"
