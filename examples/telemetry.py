"""Print the SDK's OpenTelemetry spans and metrics on the console.

An application sets its tracer and meter providers once, at start-up, before it makes
its clients; every client made after that reports to them. Here the exporters print to
the console: one line a span as it ends, and the metrics once, as the program ends.
Uses the bundled fake server unless LEADENRICH_API_KEY (and LEADENRICH_BASE_URL) are set:

    pip install "leadenrich[otel,fake]" opentelemetry-sdk
    python examples/telemetry.py
"""

from __future__ import annotations

from opentelemetry import metrics, trace
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import ConsoleMetricExporter, MetricsData, PeriodicExportingMetricReader
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import ConsoleSpanExporter, SimpleSpanProcessor

from leadenrich.testing import connect


def one_line(span: ReadableSpan) -> str:
    """A span of the SDK's as one line: its name, how long it took, and its attributes.

    (The bundled fake server runs in this process, and its web framework reports spans of
    its own: left out here.)"""
    if span.instrumentation_scope is None or span.instrumentation_scope.name != "leadenrich":
        return ""
    took = ((span.end_time or 0) - (span.start_time or 0)) / 1e6
    attributes = ", ".join("=".join((key, str(value))) for key, value in (span.attributes or {}).items())
    return f"span {span.name} ({took:.0f} ms) {attributes}\n"


def totals(data: MetricsData) -> str:
    """Each metric of the SDK's, a line per set of attributes: its total (or, for a
    histogram, how many values it holds)."""
    lines: list[str] = []
    for resource in data.resource_metrics:
        for scope in resource.scope_metrics:
            if scope.scope.name != "leadenrich":
                continue
            for metric in scope.metrics:
                for point in metric.data.data_points:
                    value = getattr(point, "value", None)
                    shown = value if value is not None else f"{getattr(point, 'count', 0)} values"
                    lines.append(f"metric {metric.name} {dict(point.attributes or {})}: {shown}\n")
    return "".join(lines)


def main() -> None:
    tracer_provider = TracerProvider()
    tracer_provider.add_span_processor(SimpleSpanProcessor(ConsoleSpanExporter(formatter=one_line)))
    trace.set_tracer_provider(tracer_provider)
    metric_reader = PeriodicExportingMetricReader(ConsoleMetricExporter(formatter=totals))
    meter_provider = MeterProvider(metric_readers=[metric_reader])
    metrics.set_meter_provider(meter_provider)

    # Made after the providers were set: this client reports to them.
    with connect() as client:
        lead = client.leads.enrich_and_wait({"company": "Acme", "domain": "acme.com"})
        print(f"enriched {lead.id}")
        rows = [
            {"company": "Globex", "domain": "globex.com"},
            {"company": "Initech", "domain": "initech.com"},
        ]
        result = client.leads.enrich_many(rows, progress=False)
        print(f"{result.succeeded} enriched in bulk for {result.credits_spent} credits")
    # Exports the metrics a last time, and ends the exporters.
    meter_provider.shutdown()
    tracer_provider.shutdown()


if __name__ == "__main__":
    main()
