"""Per-call cost of the SDK over raw httpx + pydantic, in-process.

Both sides send through the same httpx.MockTransport answering with a ~2 KB LeadOut, so
the figures are the SDK's own bookkeeping: request building, pacing, error mapping and
parsing. Runs are interleaved (SDK, raw, SDK, raw, ...) and the medians compared, so a
noisy neighbour slows both sides alike. Time is this thread's CPU time, as
benchmarks/import_time.py counts it: a machine busy with other work (a load of 14 on 2
cores) made wall-clock runs of the same code differ by 30 %. Both sides, and the async
client's event loop, run on the one thread.

With telemetry, each setting is measured in a process of its own (OpenTelemetry's
providers are set once per process), one after the other in one run: telemetry off (no
provider: OpenTelemetry not even imported), the SDK's providers set to drop everything
(every span sampled out, no metric reader), and the SDK's in-memory span exporter and
metric reader. `--baseline REV`
measures another version (a git revision) first, telemetry off, in the same run.

    python benchmarks/overhead.py [--calls 2000] [--rounds 15] [--telemetry] [--baseline REV]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx
from import_time import checkout  # a sibling script: benchmarks/ is first on sys.path

from leadenrich import AsyncLeadEnrich, LeadEnrich, LeadOut, RateLimits

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = {
    "off": "telemetry off (no provider)",
    "drop": "SDK providers that drop everything",
    "memory": "SDK in-memory exporter and reader",
}

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


# Called between timed runs (never inside one): empties an in-memory exporter.
between_runs: Callable[[], object] = lambda: None  # noqa: E731


def timed(fn: Callable[[], object], calls: int) -> float:
    between_runs()
    start = time.thread_time()
    for _ in range(calls):
        fn()
    return (time.thread_time() - start) / calls


async def atimed(fn: Callable[[], Awaitable[object]], calls: int) -> float:
    between_runs()
    start = time.thread_time()
    for _ in range(calls):
        await fn()
    return (time.thread_time() - start) / calls


def set_providers(setting: str) -> None:
    """Set this process's OpenTelemetry providers for `setting` (before any client is made)."""
    global between_runs
    if setting == "off":
        return
    from opentelemetry import metrics, trace
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import InMemoryMetricReader
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
    from opentelemetry.sdk.trace.sampling import ALWAYS_OFF

    if setting == "drop":
        trace.set_tracer_provider(TracerProvider(sampler=ALWAYS_OFF))
        metrics.set_meter_provider(MeterProvider())
        return

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    metrics.set_meter_provider(MeterProvider(metric_readers=[InMemoryMetricReader()]))
    between_runs = exporter.clear


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


def figures(calls: int, rounds: int) -> list[str]:
    lines = []
    for name, (sdk, raw) in (
        ("sync ", sync_figures(calls, rounds)),
        ("async", asyncio.run(async_figures(calls, rounds))),
    ):
        lines.append(
            f"{name}  sdk {sdk * 1e6:7.1f} us/call   raw {raw * 1e6:7.1f} us/call   ratio {sdk / raw:.2f}x"
        )
    return lines


def child(setting: str, calls: int, rounds: int, source: Path = ROOT) -> list[str]:
    """The figures of one setting, from a process of its own on `source`'s leadenrich."""
    env = {k: v for k, v in os.environ.items() if k != "LEADENRICH_TELEMETRY"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(source), env.get("PYTHONPATH")]))
    command = [sys.executable, __file__, "--setting", setting, "--calls", str(calls), "--rounds", str(rounds)]
    result = subprocess.run(command, capture_output=True, text=True, check=True, env=env, cwd=source)
    return result.stdout.splitlines()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000, help="calls per timed run")
    parser.add_argument("--rounds", type=int, default=15, help="interleaved runs per side")
    parser.add_argument("--telemetry", action="store_true", help="each telemetry setting side by side")
    parser.add_argument("--baseline", metavar="REV", help="a git revision to measure first (telemetry off)")
    parser.add_argument("--setting", choices=SETTINGS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.setting is not None:  # a child of --telemetry
        set_providers(args.setting)
        print("\n".join(figures(args.calls, args.rounds)))
        return
    print(f"body {len(BODY)} bytes; {args.rounds} interleaved rounds of {args.calls} calls; medians")
    if not args.telemetry and args.baseline is None:
        print("\n".join(figures(args.calls, args.rounds)))
        return
    with tempfile.TemporaryDirectory() as scratch:
        if args.baseline is not None:
            source = checkout(args.baseline, Path(scratch))
            print(f"{args.baseline}, telemetry off:")
            print("\n".join(f"  {line}" for line in child("off", args.calls, args.rounds, source)))
    for setting, label in SETTINGS.items() if args.telemetry else [("off", SETTINGS["off"])]:
        print(f"this tree, {label}:")
        print("\n".join(f"  {line}" for line in child(setting, args.calls, args.rounds)))


if __name__ == "__main__":
    main()
