"""The Python versions the package says it supports are the ones its checks hold it to.

CI has one interpreter, so the classifiers' range stands on the static checks: pyright,
mypy and ruff target the oldest version (pyproject.toml), and .ci/run runs pyright again
for the newest. Adding a version to the classifiers means adding its check.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # the dev extra's, where the standard library has no TOML reader (not installed on 3.11+)
    import tomli as tomllib  # pyright: ignore[reportMissingImports]

ROOT = Path(__file__).resolve().parent.parent


def pyproject() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_classifiers_the_requirement_and_the_checks_name_the_same_versions() -> None:
    config = pyproject()
    project, tool = config["project"], config["tool"]
    minors = sorted(
        int(found[1])
        for classifier in project["classifiers"]
        if (found := re.fullmatch(r"Programming Language :: Python :: 3\.(\d+)", classifier))
    )
    assert minors == list(range(minors[0], minors[-1] + 1)), f"a gap in the classifiers: {minors}"
    oldest, newest = f"3.{minors[0]}", f"3.{minors[-1]}"
    assert project["requires-python"] == f">={oldest}"
    assert tool["pyright"]["pythonVersion"] == oldest
    assert tool["mypy"]["python_version"] == oldest
    assert tool["ruff"]["target-version"] == f"py3{minors[0]}"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    checked = re.findall(r"^pyright --pythonversion (3\.\d+)(.*)$", ci, re.MULTILINE)
    assert sorted(version for version, _ in checked) == sorted({oldest, newest})
    assert all("leadenrich" in what or not what.strip() for _, what in checked), checked
