"""A new user's first script against the fake server at time_scale=0.01, timed.

Quickstart (one enrichment), a bulk run of 20 leads, an email search and a mobile lookup,
on a client made the way docs/testing.md shows (on the server's clock). The service
itself would take about 150 s for this; at a scale of 0.01 the fake takes about 1.5 s of
it, and what the script takes beyond that is the SDK's own waiting.

    python benchmarks/new_user.py [--rounds 5]

Prints the median wall time of the rounds, and the share of it that the fake server's
scaled work accounts for.
"""

from __future__ import annotations

import argparse
import statistics
import time

from leadenrich import LeadEnrich
from leadenrich.testing import FakeServer

SCALE = 0.01
LEADS = [{"company": f"Company {n}", "domain": f"company{n}.example"} for n in range(20)]


def script(server: FakeServer) -> None:
    with LeadEnrich(api_key=server.api_key, base_url=server.url, clock=server.clock) as client:
        lead = client.leads.enrich_sync({"company": "Acme", "domain": "acme.com"})
        assert 0 <= lead.enrichment.opportunity_score <= 100
        result = client.leads.enrich_many(LEADS, progress=False)
        assert result.succeeded == len(LEADS)
        email = client.email.find(first_name="Ada", last_name="Lovelace", domain="acme.com")
        assert email.state == "found"
        mobile = client.mobile.find_and_wait(first_name="Ada", last_name="Lovelace", domain="acme.com")
        assert mobile.state in ("settled", "refunded")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    walls: list[float] = []
    for _ in range(args.rounds):
        with FakeServer(time_scale=SCALE) as server:
            start = time.perf_counter()
            script(server)
            walls.append(time.perf_counter() - start)
    median = statistics.median(walls)
    print(f"new user's script at time_scale={SCALE}: median {median:.2f} s over {args.rounds} rounds")
    print(f"  rounds: {', '.join(f'{w:.2f}' for w in walls)} s")


if __name__ == "__main__":
    main()
