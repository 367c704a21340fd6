"""Fixtures of the command-line tests: fake servers, and `main()` run in-process."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from typing import Any
from unittest import mock

import pytest

from leadenrich._cli import main
from leadenrich.testing import FakeServer


@dataclass(frozen=True)
class Result:
    """What one run of the command did."""

    code: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)

    @property
    def error(self) -> str:
        """The one error line; fails unless stderr is exactly that line (and a note)."""
        lines = [line for line in self.err.splitlines() if not line.startswith("leadenrich: note: ")]
        assert len(lines) == 1, self.err
        assert lines[0].startswith("leadenrich: error: "), self.err
        return lines[0]

    @property
    def note(self) -> str | None:
        """The note after the error (1.0's exit code, as LEADENRICH_EXIT_CODES=1.0 asks), if any."""
        notes = [line for line in self.err.splitlines() if line.startswith("leadenrich: note: ")]
        assert len(notes) <= 1, self.err
        return notes[0] if notes else None


class Run:
    """`run("leads", "list")` runs `leadenrich leads list --base-url ... --api-key ...`."""

    def __init__(self, server: FakeServer, capsys: pytest.CaptureFixture[str]) -> None:
        self.server = server
        self._capsys = capsys
        self.terminal = False
        """Whether the command's standard output says it is a terminal (capsys's is not)."""

    def __call__(self, *argv: str, key: str | None = None, server: FakeServer | None = None) -> Result:
        target = server or self.server
        api_key = key or target.api_key
        # As `leadenrich fake-server` tells its user to: the SDK waits at the server's pace.
        with mock.patch.dict(os.environ, {"LEADENRICH_TIME_SCALE": str(target.settings.time_scale)}):
            return self.bare(*argv, "--base-url", target.url, "--api-key", api_key, secrets=(api_key,))

    def bare(self, *argv: str, secrets: tuple[str, ...] = ()) -> Result:
        """Run with exactly these arguments (no connection options added)."""
        self._capsys.readouterr()
        try:
            with mock.patch.object(sys.stdout, "isatty", return_value=self.terminal):
                code = main(list(argv))
        except SystemExit as exit:  # argparse: --help, usage errors
            code = exit.code if isinstance(exit.code, int) else 1
        captured = self._capsys.readouterr()
        result = Result(code, captured.out, captured.err)
        for secret in secrets:
            assert secret not in result.out + result.err
        assert "Traceback" not in result.err
        return result


@pytest.fixture(autouse=True)
def _no_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    # The developer's own key or URL must not leak into (or rescue) a test.
    monkeypatch.delenv("LEADENRICH_API_KEY", raising=False)
    monkeypatch.delenv("LEADENRICH_BASE_URL", raising=False)
    monkeypatch.delenv("LEADENRICH_TIME_SCALE", raising=False)
    monkeypatch.delenv("LEADENRICH_EXIT_CODES", raising=False)


@pytest.fixture
def run(server: FakeServer, capsys: pytest.CaptureFixture[str]) -> Run:
    return Run(server, capsys)


@pytest.fixture
def terminal(run: Run) -> None:
    """Standard output is a terminal, as for a person typing the command."""
    run.terminal = True
