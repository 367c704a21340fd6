"""Type checkers catch misspelt dict keys and keywords, and see the raw-response types.

tests/typing_checks/input_types.py marks each line that must be an error; both checkers
run with unused ignores reported, so a mark on a line that is no longer an error fails.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent / "typing_checks"
ROOT = Path(__file__).parent.parent


def checker(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent))
    if found is None:
        pytest.skip(f"{name} is not installed (pip install -e '.[dev]')")
    return found


def test_pyright_flags_every_marked_line_and_nothing_else() -> None:
    done = subprocess.run(
        [checker("pyright"), "-p", str(HERE / "pyrightconfig.json"), "--pythonpath", sys.executable],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 errors" in done.stdout


def test_mypy_flags_every_marked_line_and_nothing_else() -> None:
    done = subprocess.run(
        [
            checker("mypy"),
            "--strict",
            "--warn-unused-ignores",
            "--config-file",
            str(ROOT / "pyproject.toml"),
            str(HERE / "input_types.py"),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_line_that_is_no_longer_an_error_fails_the_check(tmp_path: Path) -> None:
    # The mechanism itself: a mark on a correct line is reported by both checkers.
    source = (HERE / "input_types.py").read_text(encoding="utf-8")
    fixed = source.replace(
        '{"compnay": "Acme", "domain": "acme.com"})', '{"company": "Acme", "domain": "acme.com"})', 1
    )
    assert fixed != source
    copy = tmp_path / "input_types.py"
    copy.write_text(fixed, encoding="utf-8")
    mypy = subprocess.run(
        [checker("mypy"), "--strict", "--warn-unused-ignores", str(copy)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert 'Unused "type: ignore" comment' in mypy.stdout
    config = tmp_path / "pyrightconfig.json"
    config.write_text((HERE / "pyrightconfig.json").read_text(encoding="utf-8"), encoding="utf-8")
    pyright = subprocess.run(
        [checker("pyright"), "-p", str(config), "--pythonpath", sys.executable],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert "Unnecessary" in pyright.stdout
