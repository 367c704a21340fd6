"""Import cost of leadenrich over its runtime dependencies alone.

For each statement, a fresh interpreter first imports httpx, pydantic and tenacity, then
times the statement: the figure is what leadenrich adds on top of its dependencies,
median of many interpreters, in CPU time (the machine may be busy with other work, which
wall-clock time would count). Also checks that importing leadenrich pulls in none of the
optional heavy packages.

Models are imported, and build their validators, on first use, so what an import saves
a first call could pay back: the first and second `enrich_sync` (answered in-process by
an httpx mock transport, so the figure is the SDK's own work) are timed in fresh
interpreters too. Their floor is what raw httpx + pydantic cost the first time code
sends the lead and parses the answer into a model, timed in the same script in place of
the call (interpreters interleaved with the SDK's): `from pydantic import BaseModel`
imports its schema machinery lazily, so the first model class pays for it, and the
first validator built imports pydantic's schema generator and looks up every installed
distribution's entry points for pydantic plugins. A deferred model (the reference line)
pays only the first part, which is why it is not the floor: no first call can parse its
answer without a validator.

`--baseline REV` times the same import and first call of another version (a git
revision, such as the release of 1.0.0), in interpreters interleaved with this tree's,
and prints what the import saves next to what the first call costs more.

    python benchmarks/import_time.py [--runs 21] [--baseline REV]
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parent.parent
DEPENDENCIES = "import httpx, pydantic, tenacity"
CLIENT = "from leadenrich import LeadEnrich"
STATEMENTS = {
    "import leadenrich": "import leadenrich",
    CLIENT: CLIENT,
    # For scale: what any pydantic model costs, since `import pydantic` alone is lazy.
    "reference: one pydantic model": "from pydantic import BaseModel\nclass M(BaseModel):\n    x: int",
    # Pydantic's machinery for a model class, its validator left to first use: less than
    # any first call pays (FLOOR below is the first call's floor).
    "reference: one deferred model with a Field": (
        "from pydantic import BaseModel, ConfigDict, Field\n"
        "class M(BaseModel):\n"
        "    model_config = ConfigDict(defer_build=True)\n"
        "    x: int = Field(default=1, description='x')"
    ),
}
# OpenTelemetry too: with telemetry off (no provider set), the SDK never imports it.
HEAVY = ("fastapi", "uvicorn", "starlette", "pandas", "tqdm", "opentelemetry")

# Times the client's import, the first and the second enrich_sync, and the whole script up
# to the first answer. With the dependencies imported first, the first two are "on top of
# them" as the import figures above are; from a bare interpreter, the script's time is
# what a user who makes one call waits for.
FIRST_CALL = """
import time
t0 = time.process_time()
{deps}
import json
import httpx
t1 = time.process_time()
from leadenrich import LeadEnrich
t2 = time.process_time()
body = json.dumps({lead!r}).encode()
transport = httpx.MockTransport(lambda request: httpx.Response(200, content=body))
http = httpx.Client(transport=transport)
client = LeadEnrich(api_key="le_live_benchmark", base_url="https://api.test", http_client=http)
lead = {{"company": "Acme", "domain": "acme.com"}}
t3 = time.process_time()
{first}
t4 = time.process_time()
{again}
t5 = time.process_time()
print((t2 - t1) * 1000, (t4 - t3) * 1000, (t5 - t4) * 1000, (t4 - t0) * 1000)
"""
CALL = "client.leads.enrich_sync(lead)"
# The first call's floor: the same script, where in place of the SDK's call code on raw
# httpx + pydantic sends the lead through the same httpx client and parses the answer
# into a model of its own (one field of the body read, the rest ignored).
FLOOR_AGAIN = "M.model_validate_json(http.post('https://api.test/api/v1/leads/enrich', json=lead).content)"
FLOOR = (
    "from pydantic import BaseModel, Field\n"
    "class M(BaseModel):\n"
    "    id: str = Field(description='the lead')\n"
) + FLOOR_AGAIN
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


def python(code: str, source: Path = ROOT) -> str:
    # Run from the source tree: `-c` puts the working directory first on sys.path, so
    # that tree's leadenrich is the one imported.
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=ENV, cwd=source
    ).stdout


def probe(statement: str, source: Path = ROOT) -> tuple[float, float]:
    out = python(PROBE.format(deps=DEPENDENCIES, statement=statement), source)
    deps, added = out.split()
    return float(deps), float(added)


@dataclass
class Script:
    """What FIRST_CALL measured, in ms, each a list over the runs."""

    imports: list[float] = field(default_factory=list[float])
    first: list[float] = field(default_factory=list[float])
    second: list[float] = field(default_factory=list[float])
    total: list[float] = field(default_factory=list[float])

    def run(self, deps: str, source: Path, first: str = CALL, again: str = CALL) -> None:
        out = python(FIRST_CALL.format(deps=deps, lead=LEAD, first=first, again=again), source)
        for samples, value in zip(
            (self.imports, self.first, self.second, self.total), out.split(), strict=True
        ):
            samples.append(float(value))


def heavy_modules() -> list[str]:
    # After a client's first call, which is when telemetry is decided.
    code = (
        FIRST_CALL.format(deps="", lead=LEAD, first=CALL, again=CALL)
        + f"print(' '.join(m for m in {HEAVY!r} if any(n.partition('.')[0] == m for n in sys.modules)))"
    ).replace("import time", "import sys, time", 1)
    return python(code).splitlines()[-1].split()


def checkout(revision: str, into: Path) -> Path:
    """The `leadenrich` package as it was at `revision`, unpacked under `into`."""
    archive = subprocess.run(
        ["git", "archive", revision, "leadenrich"], capture_output=True, check=True, cwd=ROOT
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--baseline", metavar="REV", help="a git revision to compare with")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        baseline = checkout(args.baseline, Path(scratch)) if args.baseline else None
        sources = [ROOT] if baseline is None else [ROOT, baseline]
        for source in sources:
            python("import leadenrich._cli, leadenrich._client", source)  # writes the .pyc files, once
        samples: dict[str, list[float]] = {label: [] for label in STATEMENTS}
        deps: list[float] = []
        # Per source: the script on top of the dependencies, and from a bare interpreter.
        over = {source: Script() for source in sources}
        bare = {source: Script() for source in sources}
        floor = Script()
        for _ in range(args.runs):
            floor.run(DEPENDENCIES, ROOT, FLOOR, FLOOR_AGAIN)
            for label, statement in STATEMENTS.items():
                base, added = probe(statement)
                deps.append(base)
                samples[label].append(added)
            for source in sources:
                over[source].run(DEPENDENCIES, source)
                if baseline is not None:
                    bare[source].run("", source)
    print(f"{DEPENDENCIES!r}: {median(deps):.1f} ms (median of {len(deps)})")
    for label, values in samples.items():
        budget = " (budget +30 ms)" if label == CLIENT else ""
        print(f"{label}: +{median(values):.1f} ms on top{budget}")
    now = over[ROOT]
    print(
        f"first enrich_sync (models imported, validators built): {median(now.first):.1f} ms; "
        f"the second: {median(now.second):.1f} ms"
    )
    print(
        f"  its floor, raw httpx + pydantic's first model parsing the answer: {median(floor.first):.1f} ms; "
        f"the first call is {median(now.first) - median(floor.first):+.1f} ms above it (target +10 ms)"
    )
    heavy = heavy_modules()
    print("optional packages imported:", ", ".join(heavy) if heavy else "none")
    if baseline is not None:
        then = over[baseline]
        saved = median(then.imports) - median(now.imports)
        extra = median(now.first) - median(then.first)
        print(f"against {args.baseline}, on top of the dependencies:")
        print(
            f"  {CLIENT}: +{median(then.imports):.1f} ms then, +{median(now.imports):.1f} ms now: {saved:.1f} ms saved"
        )
        print(
            f"  first enrich_sync: {median(then.first):.1f} ms then, {median(now.first):.1f} ms now: {extra:+.1f} ms"
            f" ({median(then.first) - median(floor.first):+.1f} ms above the floor then)"
        )
        print(f"  the import and the first call together: {saved - extra:.1f} ms saved")
        total_then, total_now = median(bare[baseline].total), median(bare[ROOT].total)
        print(
            f"a script up to its first answer, from a bare interpreter: {total_then:.1f} ms then, "
            f"{total_now:.1f} ms now: {total_then - total_now:.1f} ms saved"
        )


if __name__ == "__main__":
    main()
