"""In CI (`CI=true`), a test that cannot run fails instead of skipping: the entry-point tests
without the `leadenrich` script, the typing tests without pyright or mypy, the shared-budget
tests without Redis. Elsewhere they skip, saying what to install."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from tests.helpers import installed

TESTS = Path(__file__).parent


@pytest.fixture
def nothing_installed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # A Python whose scripts folder holds nothing: no console script, no checker.
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))


def looked_for(tool: str) -> str:
    """What a test needing `tool` would do: run, skip, or fail."""
    try:
        installed(tool)
    except pytest.fail.Exception as failed:
        return f"fail: {failed}"
    except pytest.skip.Exception as skipped:
        return f"skip: {skipped}"
    return "run"


@pytest.mark.usefixtures("nothing_installed")
@pytest.mark.parametrize("ci", ["true", "1", "TRUE", "yes"])
@pytest.mark.parametrize("tool", ["leadenrich", "pyright", "mypy"])
def test_a_missing_tool_fails_in_ci(monkeypatch: pytest.MonkeyPatch, ci: str, tool: str) -> None:
    monkeypatch.setenv("CI", ci)
    assert looked_for(tool).startswith(f"fail: {tool} is not installed")


@pytest.mark.usefixtures("nothing_installed")
@pytest.mark.parametrize("ci", [None, "", "false"])
def test_a_missing_tool_skips_elsewhere(monkeypatch: pytest.MonkeyPatch, ci: str | None) -> None:
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    assert looked_for("pyright").startswith("skip: pyright is not installed")
    assert looked_for("pyright").endswith("pip install -e '.[dev]'")


def test_an_installed_tool_is_found() -> None:
    assert looked_for("leadenrich") == "run"


def test_no_test_skips_on_its_own() -> None:
    # Every skip for want of a tool goes through tests/helpers.py's missing(), the one
    # place that knows CI turns it into a failure.
    skipping = re.compile(r"pytest\.skip\(|\.skipif\(|importorskip\(")
    found = [
        f"{path.relative_to(TESTS)}:{number}"
        for path in sorted(TESTS.rglob("*.py"))
        if path.name not in ("helpers.py", Path(__file__).name)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if skipping.search(line)
    ]
    assert found == []
