"""How long a preview takes to read an account's stored leads, and what it sends.

A fake server holds `--stored` leads with emails; the preview looks at `--rows` rows, half
of them with an email the account has, and one email it does not have (so the whole
listing is read). The client is paced to the server's scaled per-key budget; against the
service, the wall time grows by a minute for each 60 requests beyond the first 60. The preview must charge nothing: the figures say so.

    python benchmarks/preview.py [--stored 2000] [--rows 2000] [--time-scale 0.005]
"""

from __future__ import annotations

import argparse
import math
import time

from leadenrich.testing import FakeServer, client_for


def main() -> None:
    parser = argparse.ArgumentParser(description="How long a preview takes to read the stored leads.")
    parser.add_argument("--stored", type=int, default=2000)
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--time-scale", type=float, default=0.005)
    args = parser.parse_args()
    settings = {"time_scale": args.time_scale, "enrichment_seconds": (0.0, 0.0), "queued_seconds": 0.0}
    with FakeServer(monthly_leads=None, **settings) as server, client_for(server) as client:
        for n in range(args.stored):
            # Jobs: the async bucket, so seeding leaves the sync budget of the preview alone.
            client.leads.enrich({"company": f"Stored{n}", "domain": f"s{n}.com", "email": f"p{n}@s{n}.com"})
        server.state.wait_until(lambda: len(server.state.leads()) == args.stored, timeout=120)
        rows = [
            {"company": f"Row{n}", "domain": f"r{n}.com", **({"email": f"p{n}@s{n}.com"} if n % 2 else {})}
            for n in range(args.rows - 1)
        ]
        rows.append({"company": "Unknown", "domain": "unknown.com", "email": "nobody@unknown.com"})
        charged = server.state.charged("enrichment")
        before = len(server.state.requests())
        started = time.perf_counter()
        preview = client.leads.preview_many(rows, max_stored=None, progress=False)
        wall = time.perf_counter() - started
        sent = server.state.requests()[before:]
    pages = sum(1 for r in sent if r.path.endswith("/leads"))
    print(f"rows                 {len(preview)}")
    print(
        f"stored leads read    {preview.stored_read} of {args.stored} (whole listing: {preview.listing_complete})"
    )
    print(
        f"requests             {len(sent)} ({pages} pages of the listing, 1 usage), 429s: {sum(r.status_code == 429 for r in sent)}"
    )
    print(f"rows found stored    {preview.stored}, to enrich {preview.new}")
    print(f"wall time            {wall:.2f} s (the pacing windows last {60 * args.time_scale:g} s here)")
    # Against the service, each full window of 60 requests beyond the first waits a minute.
    waits = max(0, math.ceil(len(sent) / 60) - 1)
    print(f"against the service  about {waits * 60 + wall:.0f} s ({waits} minute-long pacing waits)")
    print(f"credits charged      {server.state.charged('enrichment') - charged}")


if __name__ == "__main__":
    main()
