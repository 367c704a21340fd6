"""Per-call cost of the SDK over raw httpx + pydantic, in-process.

Both sides send through the same httpx.MockTransport answering with a ~2 KB LeadOut, so
the figures are the SDK's own bookkeeping: request building, pacing, error mapping and
parsing. Runs are interleaved (SDK, raw, SDK, raw, ...) and the medians compared, so a
noisy neighbour slows both sides alike.

    python benchmarks/overhead.py [--calls 2000] [--rounds 15]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from collections.abc import Awaitable, Callable

import httpx

from leadenrich import AsyncLeadEnrich, LeadEnrich, LeadOut, RateLimits

LEAD = {
    "id": "ld_0001",
    "input": {"company": "Acme Corp", "domain": "acme.com", "name": "Ada Lovelace", "email": "ada@acme.com"},
    "enrichment": {
        "company_overview": {
            "company_size": "201-500",
            "industry": "Industrial Software",
            "summary": "Acme builds scheduling software for factories. " * 6,
        },
        "tech_stack": {
            "cloud": ["AWS", "Cloudflare"],
            "crm": ["Salesforce"],
            "security": ["Okta", "CrowdStrike"],
            "infrastructure": ["Kubernetes", "Terraform", "Datadog"],
            "other": ["Snowflake", "dbt"],
        },
        "products": ["Acme Scheduler", "Acme Floor", "Acme Insights"],
        "intent_signals": {
            "hiring_signals": ["Hiring 4 platform engineers", "New VP Engineering"],
            "recent_news": ["Raised a Series C", "Opened a Berlin office"],
            "content_published": ["Blog: scaling MES to 40 plants"],
            "events_attended": ["Hannover Messe 2026"],
        },
        "buying_committee": [
            {"name": "Grace Hopper", "title": "CTO", "role": "economic buyer", "linkedin_url": None},
            {"name": "Alan Turing", "title": "Head of Platform", "role": "champion", "linkedin_url": None},
        ],
        "pain_points": ["Manual capacity planning", "Slow onboarding of plants"],
        "engagement_playbook": {
            "timing": "Within two weeks of the funding news",
            "opening_line": "Congratulations on the Series C.",
            "value_prop": "Cut plant onboarding from months to weeks.",
            "case_study_angle": "A 30-plant manufacturer on the same stack.",
        },
        "opportunity_score": 81,
        "score_rationale": "Fresh funding, platform hiring and a matching stack.",
        "tags": ["mid-market", "manufacturing", "platform-buyer"],
    },
    "tier": "growth",
    "created_at": "2026-11-22T10:00:00Z",
    "deduped": False,
}
BODY = json.dumps(LEAD).encode()
URL = "http://bench.test/api/v1/leads/ld_0001"


def handler(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, content=BODY, headers={"Content-Type": "application/json"})


def timed(fn: Callable[[], object], calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls


async def atimed(fn: Callable[[], Awaitable[object]], calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        await fn()
    return (time.perf_counter() - start) / calls


def sync_figures(calls: int, rounds: int) -> tuple[float, float]:
    raw = httpx.Client(transport=httpx.MockTransport(handler))
    # The default per-key budget would (rightly) pace thousands of calls a second;
    # give it room so the figure is the bookkeeping, not the waiting.
    sdk = LeadEnrich(
        "k",
        base_url="http://bench.test",
        http_client=httpx.Client(transport=httpx.MockTransport(handler)),
        rate_limits=RateLimits(sync_per_minute=10**9),
    )

    def raw_call() -> LeadOut:
        response = raw.get(URL, headers={"Authorization": "Bearer k"})
        response.raise_for_status()
        return LeadOut.model_validate(response.json())

    def sdk_call() -> LeadOut:
        return sdk.leads.get("ld_0001")

    timed(raw_call, calls // 4)
    timed(sdk_call, calls // 4)
    raws, sdks = [], []
    for _ in range(rounds):
        sdks.append(timed(sdk_call, calls))
        raws.append(timed(raw_call, calls))
    return statistics.median(sdks), statistics.median(raws)


async def async_figures(calls: int, rounds: int) -> tuple[float, float]:
    raw = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    sdk = AsyncLeadEnrich(
        "k",
        base_url="http://bench.test",
        http_client=httpx.AsyncClient(transport=httpx.MockTransport(handler)),
        rate_limits=RateLimits(sync_per_minute=10**9),
    )

    async def raw_call() -> LeadOut:
        response = await raw.get(URL, headers={"Authorization": "Bearer k"})
        response.raise_for_status()
        return LeadOut.model_validate(response.json())

    async def sdk_call() -> LeadOut:
        return await sdk.leads.get("ld_0001")

    await atimed(raw_call, calls // 4)
    await atimed(sdk_call, calls // 4)
    raws, sdks = [], []
    for _ in range(rounds):
        sdks.append(await atimed(sdk_call, calls))
        raws.append(await atimed(raw_call, calls))
    return statistics.median(sdks), statistics.median(raws)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000, help="calls per timed run")
    parser.add_argument("--rounds", type=int, default=15, help="interleaved runs per side")
    args = parser.parse_args()
    print(f"body {len(BODY)} bytes; {args.rounds} interleaved rounds of {args.calls} calls; medians")
    for name, (sdk, raw) in (
        ("sync ", sync_figures(args.calls, args.rounds)),
        ("async", asyncio.run(async_figures(args.calls, args.rounds))),
    ):
        print(f"{name}  sdk {sdk * 1e6:7.1f} us/call   raw {raw * 1e6:7.1f} us/call   ratio {sdk / raw:.2f}x")


if __name__ == "__main__":
    main()
