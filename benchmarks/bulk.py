"""Bulk enrichment throughput against the fake server, with the real time ratios scaled down.

200 leads, enrichments of 20-40 API seconds, the platform ceiling of 5, the per-key
limits on; every duration and window is multiplied by --scale, and the client runs on the
server's clock. The best any client can do is keep 5 enrichments running at all times, so
the ideal wall time is the sum of the enrichment durations divided by 5; the figure
printed is ideal / achieved. `refill` is how long, in API seconds, a slot stayed empty
between the end of one job and the start of the next (the mean over the run, and its
largest): what the async strategy loses against the ideal.

The async strategy runs once for each --ahead: the jobs it keeps queued at the service
behind its five running ones (0 turns that off; the SDK uses 2). --admission runs the
fake as the spec reads (`queue`: a job created while every slot is busy waits `queued`)
or as a service that refuses it instead (`upstream_full`).

With --checkpoint, each run writes a checkpoint and the figure adds its lines and how
many times it was synced to disk (one fsync covers every line queued meanwhile).

    python benchmarks/bulk.py [--leads 200] [--scale 0.03] [--strategy sync async]
        [--ahead 0 1 2] [--admission queue] [--checkpoint]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from leadenrich import JobOut
from leadenrich._bulk import queue_ahead
from leadenrich.testing import FakeServer, client_for
from leadenrich.testing._content import fraction  # the fake's per-lead duration rule
from leadenrich.testing._settings import JobAdmission

LOW, HIGH, CEILING = 20.0, 40.0, 5


def leads(count: int) -> list[dict[str, str]]:
    return [
        {"company": f"Company {i}", "domain": f"company{i}.example", "email": f"buyer{i}@company{i}.example"}
        for i in range(count)
    ]


def ideal_seconds(rows: list[dict[str, str]], scale: float) -> float:
    total = sum(LOW + (HIGH - LOW) * fraction(r["domain"], r["email"], None) for r in rows)
    return total * scale / CEILING


@dataclass(frozen=True)
class Setup:
    strategy: Literal["sync", "async"]
    ahead: int
    admission: JobAdmission
    scale: float


def run(setup: Setup, rows: list[dict[str, str]], checkpoint: bool) -> None:
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
            figures = measure(setup, rows, path)
            lines = len(path.read_text().splitlines()) if path is not None else 0
    finally:
        os.fsync = fsync
    written = f"  checkpoint {lines} lines, {syncs} fsyncs" if checkpoint else ""
    print(figures + written)


def measure(setup: Setup, rows: list[dict[str, str]], path: Path | None) -> str:
    with FakeServer(
        time_scale=setup.scale,
        enrichment_seconds=(LOW, HIGH),
        max_concurrent_enrichments=CEILING,
        job_admission=setup.admission,
    ) as server:
        client = client_for(server)  # on the server's clock, paced to its limits
        # Not a setting of the client: the benchmark reaches into it to compare.
        queue_ahead.AHEAD = setup.ahead
        tracemalloc.start()
        start = time.perf_counter()
        result = client.leads.enrich_many(rows, strategy=setup.strategy, checkpoint=path, progress=False)
        elapsed = time.perf_counter() - start
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        client.close()
        statuses = server.state.status_counts(server.api_key)
        requests = sum(statuses.values())
        charged = server.state.charged("enrichment", key=server.api_key)
        paid_for = sum(1 for o in result if o.charged)
        gaps = refills(server.state.jobs(), setup.scale)
    ideal = ideal_seconds(rows, setup.scale)
    name = setup.strategy if setup.strategy == "sync" else f"async, {setup.ahead} ahead"
    return (
        f"{name:15}  {len(rows)} leads in {elapsed:6.2f} s (ideal {ideal:6.2f} s)  "
        f"throughput {ideal / elapsed:5.3f} of the ceiling  "
        f"{refilled(gaps)}  "
        f"429s {statuses.get(429, 0)}  requests/lead {requests / len(rows):4.2f}  "
        f"lost {len(rows) - result.succeeded}  charges {charged} for {paid_for} paid leads "
        f"(double {charged - paid_for})  peak memory {peak / 2**20:5.1f} MiB"
    )


def refilled(gaps: list[float]) -> str:
    # A sync enrichment leaves no job behind: its slot's start is not recorded.
    return (
        f"refill {statistics.mean(gaps):4.2f} s (max {max(gaps):5.2f})" if gaps else "refill  n/a          "
    )


def refills(jobs: list[JobOut], scale: float) -> list[float]:
    """For each enrichment but the last five, the API seconds from its end to the start of
    the one that took its slot: five run at once, so the k-th to end is followed by the
    (k+5)-th to start."""
    starts = sorted(job.started_at for job in jobs if job.started_at is not None)
    ends = sorted(job.finished_at for job in jobs if job.finished_at is not None)
    return [
        max(0.0, (start - end).total_seconds() / scale)
        for end, start in zip(ends, starts[CEILING:], strict=False)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--leads", type=int, default=200)
    parser.add_argument("--scale", type=float, default=0.03, help="real seconds per API second")
    parser.add_argument("--strategy", nargs="+", default=["sync", "async"], choices=["sync", "async"])
    parser.add_argument(
        "--ahead", type=int, nargs="+", default=[0, 1, 2], help="jobs the async strategy keeps queued"
    )
    parser.add_argument("--admission", default="queue", choices=["queue", "upstream_full"])
    parser.add_argument("--checkpoint", action="store_true", help="write a checkpoint, and count its syncs")
    args = parser.parse_args()
    rows = leads(args.leads)
    admission: JobAdmission = "upstream_full" if args.admission == "upstream_full" else "queue"
    for name in args.strategy:
        if name == "sync":
            run(Setup("sync", 0, admission, args.scale), rows, args.checkpoint)
            continue
        for ahead in args.ahead:
            run(Setup("async", ahead, admission, args.scale), rows, args.checkpoint)


if __name__ == "__main__":
    main()
