"""Enrich a few leads concurrently with the asyncio client, and print a short report.

Each lead goes through `enrich_and_wait` (an asynchronous job, polled until it is done);
`asyncio.gather` runs them side by side. Uses the real API when LEADENRICH_API_KEY (and
LEADENRICH_BASE_URL) are set, and the bundled fake server otherwise. From a clone of the
repository (the examples are not in the wheel):

    pip install -e ".[fake]"
    python examples/async_quickstart.py
"""

from __future__ import annotations

import asyncio
import time

from leadenrich import AsyncLeadEnrich, LeadEnrichError, LeadIn, LeadOut
from leadenrich.testing import aconnect

LEADS = [
    LeadIn(company="Acme Robotics", domain="acme-robotics.com", name="Ada Lovelace", title="VP Engineering"),
    LeadIn(company="Globex", domain="globex.com", name="Hank Scorpio", title="CEO"),
    LeadIn(company="Initech", domain="initech.com", name="Bill Lumbergh", title="Division VP"),
    LeadIn(company="Hooli", domain="hooli.com", name="Gavin Belson", title="Founder"),
]


async def enrich(client: AsyncLeadEnrich, lead: LeadIn) -> LeadOut | LeadEnrichError:
    # One lead's failure is reported with the others instead of cancelling the whole
    # gather; the remaining jobs are paid for and should be seen through.
    try:
        return await client.leads.enrich_and_wait(lead)
    except LeadEnrichError as exc:
        return exc


def show(lead: LeadIn, outcome: LeadOut | LeadEnrichError) -> None:
    if isinstance(outcome, LeadEnrichError):
        print(f"{lead.company:<15} failed: {outcome}")
        return
    enrichment = outcome.enrichment
    overview = enrichment.company_overview
    print(
        f"{lead.company:<15} score {enrichment.opportunity_score:>3}/100  "
        f"{overview.industry}, {overview.company_size} people  (lead {outcome.id})"
    )
    print(f"{'':<15} {enrichment.score_rationale}")


async def main() -> None:
    async with aconnect() as client:
        started = time.perf_counter()
        outcomes = await asyncio.gather(*(enrich(client, lead) for lead in LEADS))
        elapsed = time.perf_counter() - started
        for lead, outcome in zip(LEADS, outcomes, strict=True):
            show(lead, outcome)
        enriched = sum(1 for outcome in outcomes if isinstance(outcome, LeadOut))
        print(f"{enriched} of {len(LEADS)} leads enriched concurrently in {elapsed:.1f} s")


if __name__ == "__main__":
    asyncio.run(main())
