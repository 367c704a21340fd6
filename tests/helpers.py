"""Helpers for tests that drive the sync and the async client with one body."""

from __future__ import annotations

import asyncio
import inspect
import json
import time
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


class FakeClock:
    """monotonic() that only moves when the SDK sleeps; records every sleep."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds

    async def async_sleep(self, seconds: float) -> None:
        self.sleep(seconds)


class ScaledClock:
    """The SDK's clock running 1/scale times as fast as the wall clock, like a fake server
    with `time_scale=scale`: a 2-second back-off lasts 2 * scale real seconds, and waits,
    deadlines and pacing windows count the same API seconds as the server does.

    Install with `clock.install(monkeypatch)`; HTTP timeouts stay in real seconds.
    """

    def __init__(self, scale: float) -> None:
        self.scale = scale

    def install(self, monkeypatch: Any) -> None:
        from leadenrich import _clock

        monkeypatch.setattr(_clock, "monotonic", self.monotonic)
        monkeypatch.setattr(_clock, "sleep", self.sleep)
        monkeypatch.setattr(_clock, "async_sleep", self.async_sleep)

    def monotonic(self) -> float:
        return time.monotonic() / self.scale

    def sleep(self, seconds: float) -> None:
        time.sleep(max(0.0, seconds) * self.scale)

    async def async_sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds) * self.scale)


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


def scaled_client(kind: str, server: Any, key: str | None = None, **options: Any) -> Any:
    """A LeadEnrich ("sync") or AsyncLeadEnrich ("async") on `server`, paced in API
    seconds: what a ScaledClock of the server's time_scale counts."""
    from leadenrich import AsyncLeadEnrich, LeadEnrich, RateLimits

    settings = server.settings
    limits = RateLimits(
        sync_per_minute=settings.sync_per_minute,
        async_per_minute=settings.async_per_minute,
        period=settings.rate_window_seconds,
        concurrent_enrichments=settings.max_concurrent_enrichments,
    )
    cls = LeadEnrich if kind == "sync" else AsyncLeadEnrich
    return cls(api_key=key or server.api_key, base_url=server.url, rate_limits=limits, **options)
