"""Type checkers catch misspelt dict keys and keywords, and see the raw-response types.

tests/typing_checks/input_types.py marks each line that must be an error; both checkers
run with unused ignores reported, so a mark on a line that is no longer an error fails.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.helpers import installed

HERE = Path(__file__).parent / "typing_checks"
ROOT = Path(__file__).parent.parent
MARKED = HERE / "input_types.py"
FIXED = "input_types_fixed.py"


@dataclass(frozen=True)
class Checked:
    """What each checker reported, by file name: the marked file, and a copy with one mark
    made wrong. One run of each checker covers both (pyright alone takes seconds to start)."""

    pyright: dict[str, list[str]]
    mypy: dict[str, list[str]]


def run_pyright(files: list[Path]) -> dict[str, list[str]]:
    config = str(HERE / "pyrightconfig.json")
    done = subprocess.run(
        [
            installed("pyright"),
            "-p",
            config,
            "--pythonpath",
            sys.executable,
            "--outputjson",
            *map(str, files),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    # 0: no error, 1: errors found; anything else means pyright could not check.
    assert done.returncode in (0, 1), done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["summary"]["filesAnalyzed"] == len(files), done.stdout
    found: dict[str, list[str]] = {file.name: [] for file in files}
    for diagnostic in report["generalDiagnostics"]:
        line = diagnostic["range"]["start"]["line"] + 1
        found[Path(diagnostic["file"]).name].append(
            f"{line}: {diagnostic['severity']}: {diagnostic['message']}"
        )
    return found


def run_mypy(files: list[Path]) -> dict[str, list[str]]:
    config = str(ROOT / "pyproject.toml")
    done = subprocess.run(
        [installed("mypy"), "--strict", "--warn-unused-ignores", "--config-file", config, *map(str, files)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert done.returncode in (0, 1), done.stdout + done.stderr
    assert f"{len(files)} source files" in done.stdout, done.stdout + done.stderr
    found: dict[str, list[str]] = {file.name: [] for file in files}
    for line in done.stdout.splitlines():
        path, _, rest = line.partition(":")
        # By name: mypy's cache can report a module under the path of an earlier run's copy.
        if Path(path).name in found:
            found[Path(path).name].append(rest.strip())
    return found


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> Checked:
    source = MARKED.read_text(encoding="utf-8")
    fixed = source.replace(
        '{"compnay": "Acme", "domain": "acme.com"})', '{"company": "Acme", "domain": "acme.com"})', 1
    )
    assert fixed != source
    copy = tmp_path_factory.mktemp("typing") / FIXED
    copy.write_text(fixed, encoding="utf-8")
    files = [MARKED.resolve(), copy.resolve()]
    return Checked(run_pyright(files), run_mypy(files))


def test_pyright_flags_every_marked_line_and_nothing_else(checked: Checked) -> None:
    assert checked.pyright[MARKED.name] == []


def test_mypy_flags_every_marked_line_and_nothing_else(checked: Checked) -> None:
    assert checked.mypy[MARKED.name] == []


def test_a_line_that_is_no_longer_an_error_fails_the_check(checked: Checked) -> None:
    # The mechanism itself: a mark on a correct line is reported by both checkers.
    [mypy] = checked.mypy[FIXED]
    assert 'Unused "type: ignore" comment' in mypy
    [pyright] = checked.pyright[FIXED]
    assert "Unnecessary" in pyright
