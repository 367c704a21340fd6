"""A bulk run of 300 leads against a fake server injecting ~10 % faults: what it survives, and what it costs.

The scenario of tests/test_faults.py: 300 distinct leads (no emails, so nothing dedupes
and a lead sent twice would be charged twice; every 50th has a domain that cannot be
enriched), `enrich_many` with each client and each strategy, and a server that, on every
path (GET /leads and GET /jobs included), answers 3 % of requests with a 5xx, drops 2 %
of connections before and 2 % after doing the work, answers 1 % later than the client's
timeout, breaks the JSON of 1 % of its 2xx answers, and starts a burst of three
upstream_full 429s on 0.5 % of enrichment requests.

Time runs at --scale of real time (0.005 by default: a 20-40 s enrichment takes 0.1-0.2 s)
on the server and on the client's clock. The client's HTTP timeouts are in proportion
too: they are real seconds, and a real client waits 30 s for an answer (100 s for a sync
enrichment, which the SDK derives from its clock), so the benchmark's client waits
30 s x scale. (This benchmark once kept a real 0.5 s timeout at scale 0.0002: each slow
answer then held a worker for 2,500 s of the service, 25 settle windows, a cost no real
run pays.) A slow answer comes 150 s of the service late, past both timeouts. At much
smaller scales the machine's own cost per request (a few ms) is no longer small beside
an enrichment, and the fault-free run measures the machine rather than the service.

For each client and strategy it runs `--rounds` pairs (fault-free, then faulty) and
prints the medians of both wall times and of their difference, against one settle
window (the 100 s after which the service must be done with a request, in real seconds
at that scale): a run that waited once per lost answer, or whose tail waited more than
one window, would exceed it. Then the faults injected by kind, how the leads ended, and
the money: credits taken against those the result accounts for, leads stored twice, and
paid leads the result could not find, summed over every round.

    python benchmarks/faults.py [--leads 300] [--rounds 3] [--seeds 2026] [--scale 0.005]
        [--clients sync async] [--strategies sync async]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

import httpx

from leadenrich import BulkResult, LeadIn
from leadenrich._bulk.checkpoint import fingerprint
from leadenrich._bulk.plan import SERVICE
from leadenrich.testing import FakeServer, async_client_for, client_for

SCALE = 0.005
RATES: dict[str, Any] = {
    "server_error_rate": 0.03,
    "drop_before_rate": 0.02,
    "drop_after_rate": 0.02,
    "slow_rate": 0.01,
    "malformed_rate": 0.01,
    "upstream_full_rate": 0.005,
    "upstream_full_burst": 3,
}
READ = 30.0
"""A real client's read timeout, in the service's seconds (the SDK's default)."""
LATE = 150.0
"""How late a slow answer comes, in the service's seconds: past the 100 s of a sync enrichment."""
KINDS = ("server_error", "drop_before", "drop_after", "slow", "malformed", "upstream_full")


def leads(count: int) -> list[dict[str, str]]:
    return [
        {"company": f"Co {i}", "domain": f"co{i}.fail" if i % 50 == 7 else f"co{i}.com"} for i in range(count)
    ]


@dataclass
class Faulty:
    """What one faulty run did."""

    seconds: float
    requests: int
    faults: dict[str, int]
    enriched: int
    failed: int
    refused: int
    """Failed: the enrichment itself failed (a domain that cannot be enriched), refunded."""
    charged: int
    """Credits the server took (net of refunds)."""
    reported: int
    """Leads the result says this run charged."""
    maybe: int
    """Failed leads the result says may have been charged."""
    unrecovered: int
    """Failed leads the server did charge (paid leads whose record the run did not find)."""
    twice: int
    """Leads the server stored (and charged) more than once."""
    lost_after: int
    """Enrich answers lost after the work was done (dropped, or a broken 2xx body)."""


def enrich(
    server: FakeServer, client_kind: str, strategy: str, rows: list[dict[str, str]]
) -> tuple[BulkResult, float]:
    # Real seconds for the network, the service's (scaled) for the answer.
    timeout = httpx.Timeout(5.0, read=server.clock.real_seconds(READ))
    how: dict[str, Any] = {"strategy": strategy, "progress": False}
    start = time.perf_counter()
    if client_kind == "sync":
        with client_for(server, timeout=timeout) as client:
            result = client.leads.enrich_many(rows, **how)
    else:

        async def main() -> BulkResult:
            async with async_client_for(server, timeout=timeout) as client:
                return await client.leads.enrich_many(rows, **how)

        result = asyncio.run(main())
    return result, time.perf_counter() - start


def clean_run(client_kind: str, strategy: str, rows: list[dict[str, str]], scale: float) -> float:
    with FakeServer(time_scale=scale) as server:
        result, seconds = enrich(server, client_kind, strategy, rows)
    assert result.credits_spent == len(rows) - sum(1 for row in rows if row["domain"].endswith(".fail"))
    return seconds


def faulty_run(
    client_kind: str, strategy: str, seed: int, rows: list[dict[str, str]], scale: float
) -> Faulty:
    faults = {**RATES, "slow_seconds": LATE * scale}
    with FakeServer(time_scale=scale, fault_seed=seed, **faults) as server:
        result, seconds = enrich(server, client_kind, strategy, rows)
        injected = {str(kind): count for kind, count in server.state.fault_counts().items()}
        stored = Counter(fingerprint(lead.input) for lead in server.state.leads())
        failed = [o for o in result if not o.ok]
        return Faulty(
            seconds=seconds,
            requests=len(server.state.requests()) + injected.get("drop_before", 0),
            faults=injected,
            enriched=result.succeeded,
            failed=len(failed),
            refused=sum(1 for o in failed if "enrichment_failed" in str(o.error)),
            charged=server.state.charged("enrichment", key=server.api_key),
            reported=sum(o.charged for o in result),
            maybe=sum(o.maybe_charged for o in failed),
            unrecovered=sum(
                1 for o in failed if isinstance(o.input, LeadIn) and stored[fingerprint(o.input)]
            ),
            twice=sum(1 for n in stored.values() if n > 1),
            lost_after=sum(
                1
                for fault in server.state.faults()
                if fault.path.endswith("/leads/enrich") and fault.kind in ("drop_after", "malformed")
            ),
        )


def report(
    client_kind: str, strategy: str, seed: int, scale: float, clean: list[float], runs: list[Faulty]
) -> None:
    window = SERVICE.settle * scale
    differences = [run.seconds - seconds for run, seconds in zip(runs, clean, strict=True)]
    difference = statistics.median(differences)
    verdict = "within" if difference <= window else "OVER"
    print(
        f"{client_kind} client, {strategy} strategy, seed {seed}: medians of {len(runs)} round{'' if len(runs) == 1 else 's'} at scale {scale:g}"
    )
    print(
        f"  wall time         fault-free {statistics.median(clean):.2f} s, faulty "
        f"{statistics.median(r.seconds for r in runs):.2f} s, difference {difference:+.2f} s "
        f"(rounds: {', '.join(f'{d:+.2f}' for d in differences)}); "
        f"one settle window {window:.2f} s: {verdict}"
    )
    last = runs[-1]
    total = sum(last.faults.values())
    kinds = "  ".join(f"{kind} {last.faults.get(kind, 0)}" for kind in KINDS)
    print(
        f"  faults injected   {total} ({total / last.requests:.1%} of {last.requests} requests, last round): {kinds}"
    )
    print(
        f"  leads             {last.enriched} enriched, {last.failed} failed "
        f"({last.refused} not enrichable, refunded; {last.failed - last.refused} lost to faults, "
        f"{last.maybe} of all failed marked maybe_charged)"
    )
    lost = sum(r.lost_after for r in runs)
    unrecovered = sum(r.unrecovered for r in runs)
    print(
        f"  lost answers      {lost} enrich answers lost after the work was done, "
        f"{lost - unrecovered} found again by the lookup (all rounds)"
    )
    print(
        f"  credits           server took {sum(r.charged for r in runs)}, result accounts for "
        f"{sum(r.reported for r in runs)} + {unrecovered} paid but not found; "
        f"stored twice: {sum(r.twice for r in runs)} (all rounds)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--leads", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seeds", type=int, nargs="+", default=[2026])
    parser.add_argument("--clients", nargs="+", default=["sync", "async"], choices=["sync", "async"])
    parser.add_argument("--strategies", nargs="+", default=["sync", "async"], choices=["sync", "async"])
    parser.add_argument("--scale", type=float, default=SCALE, help="real seconds per API second")
    args = parser.parse_args()
    rows = leads(args.leads)
    print(f"load average at start: {', '.join(f'{n:.2f}' for n in os.getloadavg())}")
    for seed in args.seeds:
        for client_kind in args.clients:
            for strategy in args.strategies:
                clean: list[float] = []
                runs: list[Faulty] = []
                for _ in range(args.rounds):
                    clean.append(clean_run(client_kind, strategy, rows, args.scale))
                    runs.append(faulty_run(client_kind, strategy, seed, rows, args.scale))
                report(client_kind, strategy, seed, args.scale, clean, runs)
    print(f"load average at end: {', '.join(f'{n:.2f}' for n in os.getloadavg())}")


if __name__ == "__main__":
    main()
