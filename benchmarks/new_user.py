"""A new user's first script against the fake server at time_scale=0.01, timed.

Quickstart (one enrichment), a bulk run of 20 leads, an email search and a mobile lookup,
on a client made the way docs/testing.md shows (on the server's clock). The service
itself would take about 196 s for this; at a scale of 0.01 the fake takes 1.96 s of it,
and what the script takes beyond that is the SDK's (and the fake's request handling).

The fake's own time is computed from its rules: the quickstart's enrichment, the bulk
run's makespan (its 20 enrichments in the order sent, each on the first of the 5 slots to
free: the tail after the quickest slots are done is the fake's, not the SDK's), and the
lookup. Each step is printed beside it.

    python benchmarks/new_user.py [--rounds 5]

Prints the median wall time of the rounds, per step, and what the first round's process
spent before the script: importing leadenrich and starting the fake server. Later rounds
reuse what the first built (validators, the imported modules), as a script run twice in
one notebook would.
"""

from __future__ import annotations

import time

IMPORT_START = time.perf_counter()

import argparse  # noqa: E402
import heapq  # noqa: E402
import itertools  # noqa: E402
import statistics  # noqa: E402

from leadenrich import LeadDict, LeadEnrich, MobileFindIn  # noqa: E402
from leadenrich.testing import FakeServer  # noqa: E402
from leadenrich.testing._content import fraction  # noqa: E402  # the fake's duration rule
from leadenrich.testing._settings import FakeSettings  # noqa: E402

IMPORTED = time.perf_counter() - IMPORT_START

SCALE = 0.01
QUICKSTART: LeadDict = {"company": "Acme", "domain": "acme.com"}
LEADS = [{"company": f"Company {n}", "domain": f"company{n}.example"} for n in range(20)]
PERSON = {"first_name": "Ada", "last_name": "Lovelace", "domain": "acme.com"}
STEPS = ("client", "quickstart", "bulk of 20", "email", "mobile")


def script(server: FakeServer) -> list[float]:
    """The script; returns the wall time of each of its STEPS."""
    marks = [time.perf_counter()]
    with LeadEnrich(api_key=server.api_key, base_url=server.url, clock=server.clock) as client:
        marks.append(time.perf_counter())
        lead = client.leads.enrich_sync(QUICKSTART)
        assert 0 <= lead.enrichment.opportunity_score <= 100
        marks.append(time.perf_counter())
        result = client.leads.enrich_many(LEADS, progress=False)
        assert result.succeeded == len(LEADS)
        marks.append(time.perf_counter())
        email = client.email.find(first_name="Ada", last_name="Lovelace", domain="acme.com")
        assert email.state == "found"
        marks.append(time.perf_counter())
        mobile = client.mobile.find_and_wait(first_name="Ada", last_name="Lovelace", domain="acme.com")
        assert mobile.state in ("settled", "refunded")
    marks.append(time.perf_counter())
    return [later - earlier for earlier, later in itertools.pairwise(marks)]


def fake_seconds() -> list[float]:
    """The fake's own time for each of STEPS, in real seconds at SCALE."""
    settings = FakeSettings(time_scale=SCALE)
    low, high = settings.enrichment_seconds

    def enrichment(lead: LeadDict | dict[str, str]) -> float:
        return low + (high - low) * fraction(lead["domain"], None, None)

    slots = [0.0] * settings.max_concurrent_enrichments
    for lead in LEADS:
        heapq.heappush(slots, heapq.heappop(slots) + enrichment(lead))
    shortest, longest = settings.mobile_lookup_seconds
    lookup = shortest + (longest - shortest) * fraction(MobileFindIn(**PERSON).model_dump_json())
    return [settings.real_seconds(s) for s in (0.0, enrichment(QUICKSTART), max(slots), 0.0, lookup)]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rounds: list[list[float]] = []
    started: list[float] = []
    for _ in range(args.rounds):
        start = time.perf_counter()
        with FakeServer(time_scale=SCALE) as server:
            started.append(time.perf_counter() - start)
            rounds.append(script(server))
    walls = [sum(steps) for steps in rounds]
    fake = fake_seconds()
    median = statistics.median(walls)
    print(f"new user's script at time_scale={SCALE}: median {median:.3f} s over {args.rounds} rounds")
    print(f"  rounds: {', '.join(f'{w:.3f}' for w in walls)} s")
    print(f"  the fake's own time {sum(fake):.3f} s; beyond it {median - sum(fake):+.3f} s")
    for n, name in enumerate(STEPS):
        took = statistics.median(steps[n] for steps in rounds)
        print(f"  {name:11} {took:6.3f} s  (the fake's {fake[n]:.3f} s, beyond {took - fake[n]:+.3f} s)")
    print(f"  before the script, first round: imports {IMPORTED:.3f} s, server start-up {started[0]:.3f} s")


if __name__ == "__main__":
    main()
