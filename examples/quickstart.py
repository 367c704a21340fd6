"""Enrich one lead and print what came back.

Uses the real API when LEADENRICH_API_KEY (and LEADENRICH_BASE_URL) are set, and the
bundled fake server otherwise, so it runs anywhere; its first line says which. The
examples live in the repository's examples/ directory (and the sdist), not in the wheel:
from a clone,

    pip install -e ".[fake]"
    python examples/quickstart.py
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

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


def which_server(base_url: str) -> str:
    # connect() picks the real API when LEADENRICH_API_KEY is set.
    if not os.environ.get("LEADENRICH_API_KEY"):
        return (
            f"LEADENRICH_API_KEY is not set: talking to the bundled fake server at {base_url} "
            "(made-up data, no real credits)"
        )
    if urlsplit(base_url).hostname in ("127.0.0.1", "localhost", "::1"):
        # What `leadenrich fake-server` prints to export: a server of this machine, not the service.
        return (
            f"talking to {base_url}, a server on this machine (LEADENRICH_API_KEY is set; "
            "the fake that `leadenrich fake-server` starts spends no real credits)"
        )
    return f"talking to {base_url} (LEADENRICH_API_KEY is set: real credits are spent)"


def main() -> None:
    lead = LeadIn(
        company="Acme Robotics", domain="acme-robotics.com", name="Ada Lovelace", title="VP Engineering"
    )
    try:
        with connect() as client:
            print(which_server(client.base_url))
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
