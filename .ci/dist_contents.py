"""Check the file lists of the built wheel and sdist against the files git tracks.

The wheel holds the package (every tracked file of leadenrich/, py.typed among them), the
license, and nothing else: no tests, no benchmarks, no bytecode. The sdist holds what a
packager builds, tests and documents the package from: the package, the whole test suite
(tests/simulation/ included), docs/ with mkdocs.yml, the examples the docs include, the CI
scripts, and nothing git does not track.

    python .ci/dist_contents.py ROOT WHEEL SDIST
"""

from __future__ import annotations

import subprocess
import sys
import tarfile
import zipfile
from pathlib import PurePosixPath

# What a packager needs from the tree, besides the package: pyproject.toml's sdist `include`
# (.ci/run too: the tests read the checks it runs).
SDIST_TREES = (".ci/", "leadenrich/", "tests/", "docs/", "examples/")
SDIST_FILES = ("pyproject.toml", "README.md", "CHANGELOG.md", "CONTRIBUTING.md", "LICENSE", "mkdocs.yml")


def tracked(root: str) -> list[str]:
    listed = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True, check=True)
    return listed.stdout.splitlines()


def wheel_problems(names: list[str], files: list[str]) -> list[str]:
    problems = [
        f"the wheel lacks {name}" for name in files if name.startswith("leadenrich/") and name not in names
    ]
    if "leadenrich/py.typed" not in names:
        problems.append("the wheel lacks leadenrich/py.typed")
    if not any(name.endswith(".dist-info/licenses/LICENSE") for name in names):
        problems.append("the wheel lacks the license")
    for name in names:
        path = PurePosixPath(name)
        if path.parts[0] != "leadenrich" and not path.parts[0].endswith(".dist-info"):
            problems.append(f"the wheel holds {name}, outside the package")
        elif {"tests", "benchmarks", "__pycache__"} & set(path.parts) or path.suffix == ".pyc":
            problems.append(f"the wheel holds {name}")
        elif path.name == "conftest.py" or path.name.startswith("test_"):
            problems.append(f"the wheel holds the test file {name}")
    return problems


def sdist_problems(names: list[str], files: list[str]) -> list[str]:
    needed = [name for name in files if name.startswith(SDIST_TREES) or name in SDIST_FILES]
    problems = [f"the sdist lacks {name}" for name in needed if name not in names]
    problems += [
        f"the sdist holds {name}, which git does not track (commit it or remove it)"
        for name in names
        if name not in files and name != "PKG-INFO"
    ]
    return problems


def main(root: str, wheel: str, sdist: str) -> int:
    files = tracked(root)
    with zipfile.ZipFile(wheel) as archive:
        in_wheel = [name for name in archive.namelist() if not name.endswith("/")]
    with tarfile.open(sdist) as archive:
        # Each name starts with the sdist's own folder, leadenrich-X.Y.Z/.
        in_sdist = [m.name.partition("/")[2] for m in archive.getmembers() if m.isfile()]
    problems = wheel_problems(in_wheel, files) + sdist_problems(in_sdist, files)
    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        print(f"contents ok: {len(in_wheel)} files in the wheel, {len(in_sdist)} in the sdist")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
