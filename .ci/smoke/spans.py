# pyright: strict
"""The `otel` extra: one call against the fake server exports the call's span and its HTTP
attempt's child to the OpenTelemetry SDK's in-memory exporter, and no attribute holds the
key or the lead's personal data.

    python .ci/smoke/spans.py
"""

from __future__ import annotations

import sys

from opentelemetry import trace
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from leadenrich import LeadIn
from leadenrich.testing import FakeServer, client_for

LEAD = LeadIn(company="Acme", domain="acme.com", name="Ada Lovelace", email="ada@acme.com")


def problems_of(spans: list[ReadableSpan], secrets: list[str]) -> list[str]:
    by_name = {span.name: span for span in spans}
    call, attempt = by_name.get("leads.enrich_sync"), by_name.get("POST /api/v1/leads/enrich")
    if call is None or attempt is None or len(spans) != 2:
        return [f"expected the spans leads.enrich_sync and POST /api/v1/leads/enrich, got {sorted(by_name)}"]
    problems: list[str] = []
    if attempt.parent is None or call.context is None or attempt.parent.span_id != call.context.span_id:
        problems.append("the HTTP attempt's span is not a child of the call's")
    if (call.kind, attempt.kind) != (trace.SpanKind.INTERNAL, trace.SpanKind.CLIENT):
        problems.append(f"the kinds are {call.kind} and {attempt.kind}, not INTERNAL and CLIENT")
    expected: dict[ReadableSpan, dict[str, object]] = {
        call: {"leadenrich.credits.charged": 1, "leadenrich.lead.deduped": False},
        attempt: {"http.request.method": "POST", "http.response.status_code": 200},
    }
    for span, attributes in expected.items():
        seen = dict(span.attributes or {})
        problems += [
            f"{span.name}: {key} is {seen.get(key)!r}, not {value!r}"
            for key, value in attributes.items()
            if seen.get(key) != value
        ]
    problems += [
        f"{span.name}: {key} holds {secret!r}"
        for span in spans
        for key, value in (span.attributes or {}).items()
        for secret in secrets
        if secret in str(value)
    ]
    return problems


def main() -> int:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    with FakeServer() as server, client_for(server) as client:
        client.leads.enrich_sync(LEAD)
        secrets = [server.api_key, LEAD.name or "", LEAD.email or ""]
    # The fake server's own spans (a recent FastAPI makes some) are not the SDK's.
    spans = [
        s
        for s in exporter.get_finished_spans()
        if s.instrumentation_scope and s.instrumentation_scope.name == "leadenrich"
    ]
    problems = problems_of(spans, secrets)
    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        print(f"spans: {', '.join(span.name for span in spans)}, the attempt a child of the call, no key")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
