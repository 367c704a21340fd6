"""Helpers for tests that drive the sync and the async client with one body."""

from __future__ import annotations

import inspect
import json
from collections.abc import AsyncIterable, Iterable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any


async def call(value: Any) -> Any:
    """The result of a client call: awaited when the client is async."""
    if inspect.isawaitable(value):
        return await value
    return value


async def collect(iterable: Iterable[Any] | AsyncIterable[Any]) -> list[Any]:
    """All items of an iterator or an async iterator."""
    if isinstance(iterable, AsyncIterable):
        return [item async for item in iterable]
    return list(iterable)


def lead_out(lead_id: str = "ld_1", **changes: Any) -> dict[str, Any]:
    """A LeadOut body as the service sends it."""
    body: dict[str, Any] = {
        "id": lead_id,
        "input": {"company": "Acme", "domain": "acme.com", "email": "ada@acme.com"},
        "enrichment": {
            "company_overview": {
                "company_size": "51-200",
                "industry": "Software",
                "summary": "Makes anvils.",
            },
            "tech_stack": {
                "cloud": ["AWS"],
                "crm": ["HubSpot"],
                "security": [],
                "infrastructure": [],
                "other": [],
            },
            "products": ["Anvil"],
            "intent_signals": {
                "hiring_signals": ["Hiring SREs"],
                "recent_news": [],
                "content_published": [],
                "events_attended": [],
            },
            "buying_committee": [
                {"name": "Bo", "title": "CTO", "role": "economic buyer", "linkedin_url": None}
            ],
            "pain_points": ["Scale"],
            "engagement_playbook": {
                "timing": "now",
                "opening_line": "Hi",
                "value_prop": "Faster",
                "case_study_angle": "Peer",
            },
            "opportunity_score": 72,
            "score_rationale": "Hiring and on AWS.",
            "tags": ["smb"],
        },
        "tier": "growth",
        "created_at": "2026-11-22T10:00:00Z",
        "deduped": False,
    }
    body.update(changes)
    return body


def job_out(job_id: str = "job_1", status: str = "queued", **changes: Any) -> dict[str, Any]:
    """A JobOut body as the service sends it."""
    body: dict[str, Any] = {
        "job_id": job_id,
        "status": status,
        "kind": "lead.enrich",
        "created_at": "2026-11-22T10:00:00Z",
        "started_at": None,
        "finished_at": None,
        "result": None,
        "error": None,
        "callback_url": None,
    }
    body.update(changes)
    return body


USAGE = {
    "tier": "growth",
    "monthly_leads": {"included": 1000, "credits_added": 50, "effective_limit": 1050, "used": 3},
    "mobile_credits": {"purchased": 10, "used": 1, "balance": 9},
    "api_calls_this_month": {"total": 40, "this_key": 12},
}


def age_checkpoint(path: Path, seconds: float = 300.0) -> None:
    """Move every time in a bulk checkpoint `seconds` into the past: a rerun made later.

    A rerun waits until 100 s after the newest lead sent without an answer before it
    looks for it, since the service may still be enriching it. A subprocess cannot have
    its clock scaled, so tests of a rerun that should not wait make the run older.
    """
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        entry["at"] = (datetime.fromisoformat(entry["at"]) - timedelta(seconds=seconds)).isoformat()
        lines.append(json.dumps(entry))
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
