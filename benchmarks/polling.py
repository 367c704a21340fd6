"""How soon enrich_and_wait notices a finished job, and what its polls cost, by schedule.

Runs concurrent enrich_and_wait calls on one key against a time-scaled fake server (the
spec's 20-40 s enrichments, 60 requests a minute per key, 5 enrichments at once), on a
client of the server's clock (client_for / async_client_for), for both clients and a few
polling schedules. For each it prints the requests each job cost (creation included), the
429s the server returned, and how long after a job finished its wait noticed, as a
fraction of the job's duration (the target: max <= 0.10 at <= 6.5 requests per job; the
first look a second in costs a request on the client's first jobs).

    python benchmarks/polling.py [--jobs 20] [--scale 0.2] [--schedules 1.1/1.1,1.15/1.15]

A schedule is `growth/first`: polls at ages growing by `growth`, the first (after the
look a second in) at `first` times the shortest job seen (the spec's 20 s before one has
finished).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timezone

from leadenrich import AsyncLeadEnrich, LeadDict, LeadEnrich
from leadenrich._polling import AgeSchedule
from leadenrich.testing import FakeServer, async_client_for, client_for

DEFAULT_SCHEDULES = "1.1/1.1,1.08/1.08,1.15/1.15,1.1/1.0"


@dataclass
class Run:
    client: str
    schedule: AgeSchedule
    requests_per_job: float
    polls_per_job: float
    rate_limited: int
    delays: list[float]

    def line(self) -> str:
        return (
            f"{self.client:5}  growth {self.schedule.growth:<4g} first {self.schedule.first:<4g}  "
            f"requests/job {self.requests_per_job:.2f} ({self.polls_per_job:.2f} polls)  "
            f"429s {self.rate_limited}  notice delay / duration: "
            f"median {statistics.median(self.delays):.3f}  "
            f"p90 {statistics.quantiles(self.delays, n=10)[-1]:.3f}  max {max(self.delays):.3f}"
        )


def lead(i: int) -> LeadDict:
    return {"company": f"Company {i}", "domain": f"company{i}.example"}


def measure(kind: str, schedule: AgeSchedule, jobs: int, scale: float) -> Run:
    returned: dict[str, datetime] = {}
    with FakeServer(time_scale=scale, enrichment_seconds=(20.0, 40.0)) as server:
        if kind == "sync":
            with client_for(server) as client:
                _use(client, schedule)

                def one(i: int) -> None:
                    done = client.leads.enrich_and_wait(lead(i))
                    returned[done.id] = datetime.now(timezone.utc)

                # As many threads as jobs: the client's own slots keep 5 in flight.
                with ThreadPoolExecutor(max_workers=jobs) as pool:
                    list(pool.map(one, range(jobs)))
        else:

            async def run_all() -> None:
                async with async_client_for(server) as client:
                    _use(client, schedule)

                    async def one(i: int) -> None:
                        done = await client.leads.enrich_and_wait(lead(i))
                        returned[done.id] = datetime.now(timezone.utc)

                    await asyncio.gather(*(one(i) for i in range(jobs)))

            asyncio.run(run_all())
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
    return Run(kind, schedule, (polls + creations) / jobs, polls / jobs, statuses.get(429, 0), delays)


def _use(client: LeadEnrich | AsyncLeadEnrich, schedule: AgeSchedule) -> None:
    # The schedule is not a setting of the client: a benchmark reaches into it to compare.
    client._durations.schedule = schedule  # pyright: ignore[reportPrivateUsage]


def parse(schedules: str) -> list[AgeSchedule]:
    parsed: list[AgeSchedule] = []
    for item in schedules.split(","):
        growth, _, first = item.partition("/")
        parsed.append(AgeSchedule(growth=float(growth), first=float(first or growth)))
    return parsed


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--jobs", type=int, default=20)
    parser.add_argument("--scale", type=float, default=0.2, help="real seconds per API second")
    parser.add_argument("--schedules", default=DEFAULT_SCHEDULES, help="growth/first, comma-separated")
    parser.add_argument("--clients", default="sync,async")
    args = parser.parse_args()
    print(f"{args.jobs} enrich_and_wait on one key, 5 in flight, time_scale {args.scale:g}")
    for schedule in parse(args.schedules):
        for kind in args.clients.split(","):
            print(measure(kind, schedule, args.jobs, args.scale).line(), flush=True)


if __name__ == "__main__":
    main()
