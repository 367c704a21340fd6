"""A bulk run of 300 leads against a fake server injecting ~10 % faults: what it survives.

The scenario of tests/test_faults.py: 300 distinct leads (no emails, so nothing dedupes
and a lead sent twice would be charged twice; every 50th has a domain that cannot be
enriched), `enrich_many` with the sync strategy, and a server that answers 3 % of
requests with a 5xx, drops 2 % of connections before and 2 % after doing the work,
answers 1 % later than the client's timeout, breaks the JSON of 1 % of its 2xx answers,
and starts a burst of three upstream_full 429s on 0.5 % of enrichment requests. The server's clock and
the SDK's run 5000 times faster than real time (a 20-40 s enrichment takes 4-8 ms).

For each client and seed it prints the faults injected by kind, how the leads ended,
the credits the server took against those the result accounts for, and the wall time.

    python benchmarks/faults.py [--leads 300] [--seeds 2026] [--clients sync async]
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from leadenrich import AsyncLeadEnrich, BulkResult, LeadEnrich, LeadIn, RateLimits
from leadenrich._bulk.checkpoint import fingerprint
from leadenrich.testing import FakeServer

SCALE = 0.0002
FAULTS: dict[str, Any] = {
    "server_error_rate": 0.03,
    "drop_before_rate": 0.02,
    "drop_after_rate": 0.02,
    "slow_rate": 0.01,
    "malformed_rate": 0.01,
    "upstream_full_rate": 0.005,
    "upstream_full_burst": 3,
    "slow_seconds": 0.75,
}
TIMEOUT = 0.5
KINDS = ("server_error", "drop_before", "drop_after", "slow", "malformed", "upstream_full")


def leads(count: int) -> list[dict[str, str]]:
    return [
        {"company": f"Co {i}", "domain": f"co{i}.fail" if i % 50 == 7 else f"co{i}.com"} for i in range(count)
    ]


@dataclass
class Figures:
    client: str
    seed: int
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
    """Failed leads the server did charge (answers lost for good)."""
    twice: int
    """Leads the server stored (and charged) more than once."""
    lost_after: int
    """Enrich answers lost after the work was done (dropped, or a broken 2xx body)."""


def run(client_kind: str, seed: int, rows: list[dict[str, str]]) -> Figures:
    with FakeServer(time_scale=SCALE, fault_seed=seed, **FAULTS) as server:
        settings = server.settings
        limits = RateLimits(
            sync_per_minute=settings.sync_per_minute,
            async_per_minute=settings.async_per_minute,
            period=settings.rate_window_seconds,  # the service's seconds, as its clock counts
            concurrent_enrichments=settings.max_concurrent_enrichments,
        )
        options: dict[str, Any] = {
            "api_key": server.api_key,
            "base_url": server.url,
            "timeout": TIMEOUT,
            "clock": server.clock,  # the SDK's waits and deadlines as fast as the server runs
        }
        start = time.perf_counter()
        if client_kind == "sync":
            with LeadEnrich(**options, rate_limits=limits) as client:
                result = client.leads.enrich_many(rows, progress=False)
        else:

            async def main() -> BulkResult:
                async with AsyncLeadEnrich(**options, rate_limits=limits) as client:
                    return await client.leads.enrich_many(rows, progress=False)

            result = asyncio.run(main())
        seconds = time.perf_counter() - start
        faults = {str(kind): count for kind, count in server.state.fault_counts().items()}
        stored = Counter(fingerprint(lead.input) for lead in server.state.leads())
        failed = [o for o in result if not o.ok]
        return Figures(
            client=client_kind,
            seed=seed,
            seconds=seconds,
            requests=len(server.state.requests()) + faults.get("drop_before", 0),
            faults=faults,
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


def report(figures: Figures) -> None:
    f = figures
    total = sum(f.faults.values())
    kinds = "  ".join(f"{kind} {f.faults.get(kind, 0)}" for kind in KINDS)
    print(f"{f.client} client, seed {f.seed}: {f.requests} requests in {f.seconds:.2f} s")
    print(f"  faults injected   {total} ({total / f.requests:.1%} of requests): {kinds}")
    print(
        f"  leads             {f.enriched} enriched, {f.failed} failed "
        f"({f.refused} not enrichable, refunded; {f.failed - f.refused} lost to faults, "
        f"{f.maybe} of all failed marked maybe_charged)"
    )
    print(
        f"  lost answers      {f.lost_after} enrich answers lost after the work was done, "
        f"{f.lost_after - f.unrecovered} found again by the lookup"
    )
    print(
        f"  credits           server took {f.charged}, result accounts for {f.reported} "
        f"+ {f.unrecovered} unrecovered maybe_charged; stored twice: {f.twice}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--leads", type=int, default=300)
    parser.add_argument("--seeds", type=int, nargs="+", default=[2026])
    parser.add_argument("--clients", nargs="+", default=["sync", "async"], choices=["sync", "async"])
    args = parser.parse_args()
    rows = leads(args.leads)
    for seed in args.seeds:
        for client_kind in args.clients:
            report(run(client_kind, seed, rows))


if __name__ == "__main__":
    main()
