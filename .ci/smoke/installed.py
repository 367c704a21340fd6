# pyright: strict
"""The package this Python imports is the wheel's, installed in its venv, not the checkout.

python .ci/smoke/installed.py SOURCE_TREE
"""

from __future__ import annotations

import sys
from pathlib import Path

import leadenrich
import leadenrich.testing


def main(tree: str) -> int:
    package = Path(leadenrich.__file__).resolve().parent
    venv = Path(sys.prefix).resolve()
    problems: list[str] = []
    if not package.is_relative_to(venv) or package.parent.name != "site-packages":
        problems.append(f"leadenrich is imported from {package}, not from {venv}'s site-packages")
    if package.is_relative_to(Path(tree).resolve()):
        problems.append(f"leadenrich is imported from the source tree ({package})")
    if not (package / "py.typed").exists():
        problems.append(f"{package} has no py.typed: type checkers would ignore the package's types")
    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        print(f"installed: leadenrich {leadenrich.__version__} from {package}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
