"""Bulk enrichment throughput against the fake server, with the real time ratios scaled down.

200 leads, enrichments of 20-40 API seconds, the platform ceiling of 5, the per-key
limits on; every duration and window is multiplied by --scale, and the client runs on the
server's clock. The best any client can do is keep 5 enrichments running at all times, so
the ideal wall time is the sum of the enrichment durations divided by 5; the figure
printed is ideal / achieved.

With --checkpoint, each run writes a checkpoint and the figure adds its lines and how
many times it was synced to disk (one fsync covers every line queued meanwhile).

    python benchmarks/bulk.py [--leads 200] [--scale 0.03] [--strategy sync async] [--checkpoint]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Literal

from leadenrich.testing import FakeServer, client_for
from leadenrich.testing._content import fraction  # the fake's per-lead duration rule

LOW, HIGH, CEILING = 20.0, 40.0, 5


def leads(count: int) -> list[dict[str, str]]:
    return [
        {"company": f"Company {i}", "domain": f"company{i}.example", "email": f"buyer{i}@company{i}.example"}
        for i in range(count)
    ]


def ideal_seconds(rows: list[dict[str, str]], scale: float) -> float:
    total = sum(LOW + (HIGH - LOW) * fraction(r["domain"], r["email"], None) for r in rows)
    return total * scale / CEILING


def run(
    strategy: Literal["sync", "async"], rows: list[dict[str, str]], scale: float, checkpoint: bool
) -> None:
    syncs = 0
    fsync = os.fsync

    def counting(fd: int) -> None:
        nonlocal syncs
        syncs += 1
        fsync(fd)

    os.fsync = counting
    try:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "run.jsonl" if checkpoint else None
            figures = measure(strategy, rows, scale, path)
            lines = len(path.read_text().splitlines()) if path is not None else 0
    finally:
        os.fsync = fsync
    written = f"  checkpoint {lines} lines, {syncs} fsyncs" if checkpoint else ""
    print(figures + written)


def measure(
    strategy: Literal["sync", "async"], rows: list[dict[str, str]], scale: float, path: Path | None
) -> str:
    with FakeServer(
        time_scale=scale, enrichment_seconds=(LOW, HIGH), max_concurrent_enrichments=CEILING
    ) as server:
        client = client_for(server)  # on the server's clock, paced to its limits
        tracemalloc.start()
        start = time.perf_counter()
        result = client.leads.enrich_many(rows, strategy=strategy, checkpoint=path, progress=False)
        elapsed = time.perf_counter() - start
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        client.close()
        statuses = server.state.status_counts(server.api_key)
        requests = sum(statuses.values())
        charged = server.state.charged("enrichment", key=server.api_key)
        paid_for = sum(1 for o in result if o.charged)
    ideal = ideal_seconds(rows, scale)
    return (
        f"{strategy:5}  {len(rows)} leads in {elapsed:6.2f} s (ideal {ideal:6.2f} s)  "
        f"throughput {ideal / elapsed:5.3f} of the ceiling  "
        f"429s {statuses.get(429, 0)}  requests/lead {requests / len(rows):4.2f}  "
        f"lost {len(rows) - result.succeeded}  charges {charged} for {paid_for} paid leads "
        f"(double {charged - paid_for})  peak memory {peak / 2**20:5.1f} MiB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--leads", type=int, default=200)
    parser.add_argument("--scale", type=float, default=0.03, help="real seconds per API second")
    parser.add_argument("--strategy", nargs="+", default=["sync", "async"], choices=["sync", "async"])
    parser.add_argument("--checkpoint", action="store_true", help="write a checkpoint, and count its syncs")
    args = parser.parse_args()
    rows = leads(args.leads)
    for name in args.strategy:
        run("async" if name == "async" else "sync", rows, args.scale, args.checkpoint)


if __name__ == "__main__":
    main()
