"""Helpers of every test: one body for both clients, fake-server timings, raw HTTP to a
fake server, the service's bodies, and waits on the server's own state."""

from __future__ import annotations

import inspect
import json
import os
import pydoc
import shutil
import sys
from collections.abc import AsyncIterable, Callable, Iterable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, NoReturn

import httpx
import pytest
import respx

from leadenrich import AsyncLeadEnrich, JobOut, MobileFindOut, ServiceClock
from leadenrich.testing import FakeServer

QUICK: dict[str, Any] = {"enrichment_seconds": (4.0, 8.0), "mobile_lookup_seconds": (2.0, 6.0)}
"""Enrichments of 20-40 ms and lookups of 10-30 ms at the default scale, 5x shorter than the
service's: most tests only wait them out. Tests of timing pass their own."""


def missing(what: str) -> NoReturn:
    """Skip the test for want of something the dev extra brings; in CI (`CI=true`) fail it
    instead: a test that cannot run there must not vanish from the run unseen."""
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(what, pytrace=False)
    pytest.skip(what)


def installed(name: str) -> str:
    """The path of a command this Python installed (a console script, pyright, mypy)."""
    found = shutil.which(name, path=str(Path(sys.executable).parent))
    if found is None:
        missing(f"{name} is not installed beside {sys.executable}: pip install -e '.[dev]'")
    return found


MakeServer = Callable[..., FakeServer]
"""The `make_server` fixture: a started FakeServer with QUICK timings and the given settings."""


async def call(value: Any) -> Any:
    """The result of a client call: awaited when the client is async."""
    if inspect.isawaitable(value):
        return await value
    return value


async def close(client: Any) -> None:
    """Close a client of either kind."""
    await call(client.aclose() if isinstance(client, AsyncLeadEnrich) else client.close())


def usage_sent_at(api: respx.MockRouter, clock: ServiceClock) -> list[float]:
    """The times, on `clock`, at which the mocked service is sent each `usage()` call from now on."""
    sent_at: list[float] = []

    def respond(request: httpx.Request) -> httpx.Response:
        sent_at.append(clock.now())
        return httpx.Response(200, json=USAGE)

    api.get("/usage").mock(side_effect=respond)
    return sent_at


def max_in_window(times: list[float], period: float) -> int:
    """The most of `times` that fall in any `period` seconds (a half-open window)."""
    times = sorted(times)
    return max(sum(1 for t in times if start <= t < start + period) for start in times)


async def collect(iterable: Iterable[Any] | AsyncIterable[Any]) -> list[Any]:
    """All items of an iterator or an async iterator."""
    if isinstance(iterable, AsyncIterable):
        return [item async for item in iterable]
    return list(iterable)


def help_text(obj: object) -> str:
    """What `help(obj)` prints, without the bold of a terminal."""
    return pydoc.plain(pydoc.render_doc(obj))


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


USERS_PYTEST = ["-p", "no:cacheprovider", "-p", "no:randomly", "-p", "no:xdist", "-p", "no:hypothesispytest"]
"""Options of a child pytest that stands for a user's project: without the plugins of this
project's own dev environment, which a user's need not have. hypothesis's alone costs 0.7 s
of CPU to load where PYTHONDONTWRITEBYTECODE stops pytest caching the modules it rewrites."""

VALIDATION_KEYS = {"loc", "msg", "type"}


def api_client(server: FakeServer, key: str | None = None) -> httpx.Client:
    """An httpx client on the server's /api/v1, sending `key` (the ready key by default)."""
    return anonymous_client(server, headers={"Authorization": f"Bearer {key or server.api_key}"})


def anonymous_client(server: FakeServer, headers: dict[str, str] | None = None) -> httpx.Client:
    """An httpx client on the server's /api/v1 sending no key."""
    # verify=False: plain http only, and it skips loading CA certificates (~30 ms a client).
    return httpx.Client(base_url=server.api_url, headers=headers, trust_env=False, verify=False, timeout=10.0)


def lead(domain: str = "acme.com", **fields: Any) -> dict[str, Any]:
    """A LeadIn body."""
    return {"company": domain.split(".")[0].title() + " Inc", "domain": domain, **fields}


def wait_job(server: FakeServer, job_id: str, timeout: float = 5.0) -> JobOut:
    """The job once it is done or failed (waits on the server's state, not by polling HTTP)."""

    def find() -> JobOut | None:
        return next((j for j in server.state.jobs() if j.job_id == job_id), None)

    assert server.state.wait_until(lambda: (job := find()) is not None and job.is_terminal, timeout)
    job = find()
    assert job is not None
    return job


def wait_lookup(server: FakeServer, lookup_id: str, timeout: float = 5.0) -> MobileFindOut:
    def find() -> MobileFindOut | None:
        return next((m for m in server.state.lookups() if m.lookup_id == lookup_id), None)

    assert server.state.wait_until(lambda: (m := find()) is not None and m.is_terminal, timeout)
    lookup = find()
    assert lookup is not None
    return lookup


def assert_validation_error(response: httpx.Response, loc: list[str | int]) -> list[dict[str, Any]]:
    """A 422 in the spec's shape, one of whose entries points at `loc`."""
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, list)
    assert detail
    for entry in detail:
        assert set(entry) == VALIDATION_KEYS, entry
        assert isinstance(entry["msg"], str)
        assert isinstance(entry["type"], str)
        assert all(isinstance(part, (str, int)) for part in entry["loc"])
    assert loc in [entry["loc"] for entry in detail], detail
    return detail


def scaled_client(kind: str, server: FakeServer, key: str | None = None, **options: Any) -> Any:
    """A LeadEnrich ("sync") or AsyncLeadEnrich ("async") on `server` and its clock, with
    its ready key or `key`."""
    from leadenrich.testing import async_client_for, client_for

    make = client_for if kind == "sync" else async_client_for
    return make(server, **({"api_key": key} if key is not None else {}), **options)
