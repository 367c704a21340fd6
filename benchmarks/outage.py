"""How quickly `leadenrich enrich-file` gives up on a service out of reach.

A CSV of `--leads` leads, and a base URL on a loopback port nothing listens on. The
command runs as a user would run it (its defaults: 2 retries, the real clock, five leads
at a time), with the estimate and without it (`--no-estimate`), `--runs` times each. The
figures: the median wall time from start to exit, the exit code, and how many leads the
output file says were tried.

    python benchmarks/outage.py [--leads 23] [--runs 5]
"""

from __future__ import annotations

import argparse
import csv
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(
        description="How quickly enrich-file gives up on a service out of reach."
    )
    parser.add_argument("--leads", type=int, default=23)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEADENRICH_")}
    env.update(
        LEADENRICH_API_KEY="le_live_" + "0" * 32, LEADENRICH_BASE_URL=f"http://127.0.0.1:{closed_port()}"
    )
    with tempfile.TemporaryDirectory() as folder:
        source, out = Path(folder) / "leads.csv", Path(folder) / "out.csv"
        source.write_text("company,domain\n" + "".join(f"Co{n},co{n}.com\n" for n in range(args.leads)))
        for label, extra in (("with the estimate", []), ("--no-estimate", ["--no-estimate"])):
            walls: list[float] = []
            codes: set[int] = set()
            tried: set[int] = set()
            for _ in range(args.runs):
                for path in Path(folder).glob("out.csv*"):
                    path.unlink()
                started = time.perf_counter()
                done = subprocess.run(
                    [sys.executable, "-m", "leadenrich", "enrich-file", str(source), "-o", str(out), *extra],
                    env=env,
                    capture_output=True,
                    text=True,
                )
                walls.append(time.perf_counter() - started)
                codes.add(done.returncode)
                rows = list(csv.DictReader(out.open(encoding="utf-8"))) if out.exists() else []
                tried.add(sum(1 for row in rows if row["status"] == "failed"))
            print(
                f"{label:<18}  median {statistics.median(walls):.2f} s (min {min(walls):.2f}, max "
                f"{max(walls):.2f}), exit {sorted(codes)}, leads tried {sorted(tried)} of {args.leads}"
            )


if __name__ == "__main__":
    main()
