"""Enrich one lead and print what came back.

Uses the real API when LEADENRICH_API_KEY (and LEADENRICH_BASE_URL) are set, and the
bundled fake server otherwise, so it runs anywhere; its first line says which:

    pip install "leadenrich[fake]"
    python examples/quickstart.py
"""

from __future__ import annotations

import os

from leadenrich import LeadEnrichError, LeadIn, LeadOut
from leadenrich.testing import connect


def show(lead: LeadOut) -> None:
    enrichment = lead.enrichment
    overview = enrichment.company_overview
    print(f"{lead.input.name} at {lead.input.company} ({lead.input.domain}), lead {lead.id}")
    print(f"  industry:      {overview.industry} ({overview.company_size} people)")
    print(f"  summary:       {overview.summary}")
    print(f"  tech stack:    {', '.join(enrichment.tech_stack.cloud + enrichment.tech_stack.crm)}")
    print(f"  intent:        {'; '.join(enrichment.intent_signals.hiring_signals[:2])}")
    print(f"  score:         {enrichment.opportunity_score}/100: {enrichment.score_rationale}")
    print(f"  open with:     {enrichment.engagement_playbook.opening_line}")
    for member in enrichment.buying_committee[:3]:
        print(f"  committee:     {member.name}, {member.title} ({member.role})")
    print(f"  tags:          {', '.join(enrichment.tags)}")


def main() -> None:
    lead = LeadIn(
        company="Acme Robotics", domain="acme-robotics.com", name="Ada Lovelace", title="VP Engineering"
    )
    try:
        with connect() as client:
            # connect() picks the real API when LEADENRICH_API_KEY is set, as here.
            if os.environ.get("LEADENRICH_API_KEY"):
                print(f"talking to {client.base_url} (LEADENRICH_API_KEY is set: real credits are spent)")
            else:
                print(
                    f"LEADENRICH_API_KEY is not set: talking to the bundled fake server at {client.base_url} "
                    "(made-up data, no real credits)"
                )
            enriched = client.leads.enrich_sync(lead)
            show(enriched)
            usage = client.usage()
            print(
                f"credits used this month: {usage.monthly_leads.used} of {usage.monthly_leads.effective_limit}"
            )
    except LeadEnrichError as exc:
        # One line, not a traceback: a key without LEADENRICH_BASE_URL lands here, for one.
        raise SystemExit(f"quickstart: {exc}") from None


if __name__ == "__main__":
    main()
