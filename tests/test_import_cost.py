"""Importing the clients defines no pydantic model.

The first model class pulls in pydantic's schema machinery (pydantic.main, pydantic_core),
most of what `from leadenrich import LeadEnrich` used to cost; benchmarks/import_time.py
measures the time, these tests guard the property behind it, in a fresh interpreter each.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.helpers import lead_out

MODELS = ("pydantic.main", "pydantic_core", "leadenrich._models")


def loaded_after(code: str, watched: tuple[str, ...]) -> list[str]:
    """The `watched` modules a fresh interpreter has loaded after running `code`."""
    report = f"import sys, json\nprint(json.dumps([m for m in {watched!r} if m in sys.modules]))"
    result = subprocess.run(
        [sys.executable, "-c", f"{code}\n{report}"], capture_output=True, text=True, check=True
    )
    return json.loads(result.stdout.splitlines()[-1])


@pytest.mark.parametrize(
    "code",
    [
        "import leadenrich",
        "from leadenrich import LeadEnrich, AsyncLeadEnrich",
        "from leadenrich import LeadEnrichError, RateLimits, ServiceClock, ClientSettings",
        # A client made and closed, without a call, needs no model either.
        "from leadenrich import LeadEnrich, AsyncLeadEnrich\n"
        "LeadEnrich(api_key='le_live_x', base_url='https://api.test').close()\n"
        "AsyncLeadEnrich(api_key='le_live_x', base_url='https://api.test')",
    ],
)
def test_the_clients_import_no_model(code: str) -> None:
    assert loaded_after(code, MODELS) == []


def test_the_check_sees_a_model_import() -> None:
    # The check above would pass on a probe that sees nothing.
    assert loaded_after("import leadenrich\nleadenrich.LeadOut", MODELS) == list(MODELS)


def test_a_call_loads_only_the_models_it_uses() -> None:
    code = (
        "from leadenrich import _endpoints\n"
        "call = _endpoints.enrich_sync({'company': 'Acme', 'domain': 'acme.com'})\n"
        f"call.parse({json.dumps(lead_out()).encode()!r})"
    )
    others = (
        "leadenrich._models.pages",
        "leadenrich._models.jobs",
        "leadenrich._models.lookups",
        "leadenrich._models.account",
    )
    assert loaded_after(code, ("leadenrich._models.leads", *others)) == ["leadenrich._models.leads"]


BULK = (
    "leadenrich._bulk.runner",
    "leadenrich._bulk.plan",
    "leadenrich._bulk.preview",
    "leadenrich._bulk.checkpoint",
    "leadenrich._bulk.results",
)


def test_the_clients_load_the_bulk_package_on_a_bulk_call() -> None:
    assert loaded_after("from leadenrich import LeadEnrich, AsyncLeadEnrich", BULK) == []
    # A bulk method's call loads it: the check above sees it when it is there.
    code = (
        "from leadenrich import LeadEnrich\n"
        "client = LeadEnrich(api_key='le_live_x', base_url='https://api.test')\n"
        "client.leads.enrich_iter([{'company': 'Acme', 'domain': 'acme.com'}])\n"
        "client.close()"
    )
    # A run does not load the preview (its own first call does).
    assert loaded_after(code, BULK) == [name for name in BULK if name != "leadenrich._bulk.preview"]


def test_a_call_without_a_telemetry_provider_imports_no_opentelemetry() -> None:
    # Telemetry is off until the application sets a provider: the SDK then never imports
    # OpenTelemetry (about 60 ms), though the otel extra is installed here.
    code = (
        "import json, httpx\n"
        "from leadenrich import LeadEnrich\n"
        f"body = json.dumps({lead_out()!r}).encode()\n"
        "http = httpx.Client(transport=httpx.MockTransport(lambda request: httpx.Response(200, content=body)))\n"
        "with LeadEnrich(api_key='le_live_x', base_url='https://api.test', http_client=http) as client:\n"
        "    client.leads.get('ld_1')\n"
    )
    watched = ("opentelemetry.trace", "opentelemetry.metrics")
    assert loaded_after(code, watched) == []
    # The check would pass on a probe that sees nothing.
    assert loaded_after(code + "import opentelemetry.trace", watched) == ["opentelemetry.trace"]
