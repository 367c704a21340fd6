"""Import cost of leadenrich over its runtime dependencies alone.

For each statement, a fresh interpreter first imports httpx, pydantic and tenacity, then
times the statement: the figure is what leadenrich adds on top of its dependencies,
median of many interpreters, in CPU time (the machine may be busy with other work, which
wall-clock time would count). Also checks that importing leadenrich pulls in none of the
optional heavy packages.

Models build their validators on first use, so what an import saves a first call could
pay back: the first and second `enrich_sync` (answered in-process by an httpx mock
transport, so the figure is the SDK's own work) are timed in fresh interpreters too.
The floor is what pydantic itself costs for any model (`from pydantic import BaseModel`
imports its schema machinery lazily, so the first model class pays for it).

    python benchmarks/import_time.py [--runs 21]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

DEPENDENCIES = "import httpx, pydantic, tenacity"
STATEMENTS = {
    "import leadenrich": "import leadenrich",
    "from leadenrich import LeadEnrich": "from leadenrich import LeadEnrich",
    # For scale: what any pydantic model costs, since `import pydantic` alone is lazy.
    "reference: one pydantic model": "from pydantic import BaseModel\nclass M(BaseModel):\n    x: int",
    # The floor of any SDK whose models are classes at import: pydantic's machinery for a
    # model class, with its validator left to first use as leadenrich's are.
    "floor: one deferred model with a Field": (
        "from pydantic import BaseModel, ConfigDict, Field\n"
        "class M(BaseModel):\n"
        "    model_config = ConfigDict(defer_build=True)\n"
        "    x: int = Field(default=1, description='x')"
    ),
}
HEAVY = ("fastapi", "uvicorn", "starlette", "pandas", "tqdm")

FIRST_CALL = """
import json, time
import httpx
from leadenrich import LeadEnrich
body = json.dumps({lead!r}).encode()
transport = httpx.MockTransport(lambda request: httpx.Response(200, content=body))
client = LeadEnrich(api_key="le_live_benchmark", base_url="https://api.test", http_client=httpx.Client(transport=transport))
lead = {{"company": "Acme", "domain": "acme.com"}}
t0 = time.process_time()
client.leads.enrich_sync(lead)
t1 = time.process_time()
client.leads.enrich_sync(lead)
t2 = time.process_time()
print((t1 - t0) * 1000, (t2 - t1) * 1000)
"""
LEAD = {
    "id": "ld_1",
    "input": {"company": "Acme", "domain": "acme.com"},
    "enrichment": {
        "company_overview": {"company_size": "51-200", "industry": "Software", "summary": "Makes anvils."},
        "tech_stack": {"cloud": ["AWS"], "crm": [], "security": [], "infrastructure": [], "other": []},
        "products": ["Anvil"],
        "intent_signals": {
            "hiring_signals": [],
            "recent_news": [],
            "content_published": [],
            "events_attended": [],
        },
        "buying_committee": [{"name": "Bo", "title": "CTO", "role": "economic buyer", "linkedin_url": None}],
        "pain_points": ["Scale"],
        "engagement_playbook": {
            "timing": "now",
            "opening_line": "Hi",
            "value_prop": "x",
            "case_study_angle": "y",
        },
        "opportunity_score": 72,
        "score_rationale": "Hiring.",
        "tags": ["smb"],
    },
    "tier": "growth",
    "created_at": "2026-11-22T10:00:00Z",
    "deduped": False,
}

PROBE = """
import time
t0 = time.process_time()
{deps}
t1 = time.process_time()
{statement}
t2 = time.process_time()
print((t1 - t0) * 1000, (t2 - t1) * 1000)
"""


# As an installed package is: compiled once, then loaded from its .pyc files. With
# PYTHONDONTWRITEBYTECODE set, every run would compile leadenrich's sources again (about
# 25 ms of the figure) while the dependencies, compiled by pip, would not.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def python(code: str) -> str:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=ENV
    ).stdout


def probe(statement: str) -> tuple[float, float]:
    out = python(PROBE.format(deps=DEPENDENCIES, statement=statement))
    deps, added = out.split()
    return float(deps), float(added)


def first_call() -> tuple[float, float]:
    first, second = python(FIRST_CALL.format(lead=LEAD)).split()
    return float(first), float(second)


def heavy_modules() -> list[str]:
    code = f"import sys, leadenrich; from leadenrich import LeadEnrich; print(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    return python(code).split()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    python("import leadenrich._cli, leadenrich._client")  # writes the .pyc files, once
    samples: dict[str, list[float]] = {label: [] for label in STATEMENTS}
    deps: list[float] = []
    calls: list[tuple[float, float]] = []
    for _ in range(args.runs):
        for label, statement in STATEMENTS.items():
            base, added = probe(statement)
            deps.append(base)
            samples[label].append(added)
        calls.append(first_call())
    print(f"{DEPENDENCIES!r}: {statistics.median(deps):.1f} ms (median of {len(deps)})")
    for label, values in samples.items():
        print(f"{label}: +{statistics.median(values):.1f} ms on top (budget +30 ms)")
    first = statistics.median(call[0] for call in calls)
    second = statistics.median(call[1] for call in calls)
    print(f"first enrich_sync (validators built): {first:.1f} ms; the second: {second:.1f} ms")
    heavy = heavy_modules()
    print("optional packages imported:", ", ".join(heavy) if heavy else "none")


if __name__ == "__main__":
    main()
