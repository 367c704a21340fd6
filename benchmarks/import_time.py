"""Import cost of leadenrich over its runtime dependencies alone.

For each statement, a fresh interpreter first imports httpx, pydantic and tenacity, then
times the statement: the figure is what leadenrich adds on top of its dependencies,
median of many interpreters. Also checks that importing leadenrich pulls in none of the
optional heavy packages.

    python benchmarks/import_time.py [--runs 21]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

DEPENDENCIES = "import httpx, pydantic, tenacity"
STATEMENTS = {
    "import leadenrich": "import leadenrich",
    "from leadenrich import LeadEnrich (every model built)": "from leadenrich import LeadEnrich",
    # For scale: what any pydantic model costs, since `import pydantic` alone is lazy.
    "reference: one pydantic model": "from pydantic import BaseModel\nclass M(BaseModel):\n    x: int",
}
HEAVY = ("fastapi", "uvicorn", "starlette", "pandas", "tqdm")

PROBE = """
import time
t0 = time.perf_counter()
{deps}
t1 = time.perf_counter()
{statement}
t2 = time.perf_counter()
print((t1 - t0) * 1000, (t2 - t1) * 1000)
"""


def probe(statement: str) -> tuple[float, float]:
    code = PROBE.format(deps=DEPENDENCIES, statement=statement)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    deps, added = out.split()
    return float(deps), float(added)


def heavy_modules() -> list[str]:
    code = f"import sys, leadenrich; from leadenrich import LeadEnrich; print(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return out.split()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    samples: dict[str, list[float]] = {label: [] for label in STATEMENTS}
    deps: list[float] = []
    for _ in range(args.runs):
        for label, statement in STATEMENTS.items():
            base, added = probe(statement)
            deps.append(base)
            samples[label].append(added)
    print(f"{DEPENDENCIES!r}: {statistics.median(deps):.1f} ms (median of {len(deps)})")
    for label, values in samples.items():
        print(f"{label}: +{statistics.median(values):.1f} ms on top (budget +50 ms)")
    heavy = heavy_modules()
    print("optional packages imported:", ", ".join(heavy) if heavy else "none")


if __name__ == "__main__":
    main()
