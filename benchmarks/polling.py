"""Twenty concurrent enrich_and_wait calls on one async client, against the fake server.

Prints the requests each job cost, the 429s the server returned, and how long after a job
finished its wait noticed, as a fraction of the job's duration (target: at most 0.10).
Every duration and window is multiplied by --scale, and so is the client's poll interval.

    python benchmarks/polling.py [--jobs 20] [--scale 0.02]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
from datetime import datetime, timezone

from leadenrich import AsyncLeadEnrich, LeadOut, RateLimits
from leadenrich.testing import FakeServer


async def main_async(jobs: int, scale: float) -> None:
    with FakeServer(time_scale=scale, enrichment_seconds=(20.0, 40.0)) as server:
        settings = server.settings
        limits = RateLimits(
            period=settings.rate_window, concurrent_enrichments=settings.max_concurrent_enrichments
        )
        returned: dict[str, datetime] = {}

        async def one(i: int, client: AsyncLeadEnrich) -> LeadOut:
            lead = await client.leads.enrich_and_wait(
                {"company": f"Company {i}", "domain": f"company{i}.example"}, poll_interval=1.0 * scale
            )
            returned[lead.id] = datetime.now(timezone.utc)
            return lead

        async with AsyncLeadEnrich(api_key=server.api_key, base_url=server.url, rate_limits=limits) as client:
            await asyncio.gather(*(one(i, client) for i in range(jobs)))
        finished = server.state.jobs()
        statuses = server.state.status_counts(server.api_key)
        polls = sum(1 for r in server.state.requests() if r.path.startswith("/api/v1/jobs/"))
        creations = sum(1 for r in server.state.requests() if r.path == "/api/v1/leads/enrich")
    delays: list[float] = []
    for job in finished:
        if job.result is None or job.started_at is None or job.finished_at is None:
            raise SystemExit(f"job {job.job_id} did not finish: {job.status}")
        duration = (job.finished_at - job.started_at).total_seconds()
        delays.append((returned[job.result.id] - job.finished_at).total_seconds() / duration)
    print(
        f"{jobs} concurrent waits: requests/job {(polls + creations) / jobs:.1f} "
        f"({polls / jobs:.1f} polls)  429s {statuses.get(429, 0)}  "
        f"notice delay / job duration: median {statistics.median(delays):.3f}  max {max(delays):.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--jobs", type=int, default=20)
    parser.add_argument("--scale", type=float, default=0.02, help="real seconds per API second")
    args = parser.parse_args()
    asyncio.run(main_async(args.jobs, args.scale))


if __name__ == "__main__":
    main()
