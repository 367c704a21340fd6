"""OpenTelemetry spans and metrics, read with the SDK's in-memory exporter and metric reader.

The providers are the process's global ones, as an application sets them: set once per
test process (OpenTelemetry refuses a second), and sampling only while a test of this
module runs. The tests that come after it in the process run as before: the fake
server's spans are dropped at once, and LEADENRICH_TELEMETRY=off is set for them.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
import respx
from opentelemetry import metrics, trace
from opentelemetry.context import Context
from opentelemetry.sdk.metrics import Counter, Histogram, MeterProvider
from opentelemetry.sdk.metrics.export import (
    AggregationTemporality,
    InMemoryMetricReader,
    NumberDataPoint,
)
from opentelemetry.sdk.trace import ReadableSpan, Span, SpanProcessor, TracerProvider
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.sdk.trace.sampling import Decision, Sampler, SamplingResult
from opentelemetry.util.types import Attributes

from leadenrich import AsyncLeadEnrich, BulkResult, LeadDict, LeadEnrich, RateLimits
from leadenrich.testing import FakeServer, ManualClock, async_client_for, client_for
from tests.conftest import API, BASE, KEY
from tests.helpers import USAGE, call, close, lead_out

pytestmark = pytest.mark.anyio

SCOPE = "leadenrich"


class _Recorder(SpanProcessor, Sampler):
    """Samples, and keeps, the spans of a test of this module: no other test's."""

    def __init__(self) -> None:
        self.exporter = InMemorySpanExporter()
        self.recording = False

    def should_sample(
        self,
        parent_context: Context | None,
        trace_id: int,
        name: str,
        kind: trace.SpanKind | None = None,
        attributes: Attributes = None,
        *args: Any,
        **kwargs: Any,
    ) -> SamplingResult:
        # The span's attributes are the ones a sampler hands back.
        if self.recording:
            return SamplingResult(Decision.RECORD_AND_SAMPLE, attributes)
        return SamplingResult(Decision.DROP)

    def get_description(self) -> str:
        return "while a test of tests/test_telemetry.py runs"

    def on_start(self, span: Span, parent_context: Context | None = None) -> None:
        pass

    def on_end(self, span: ReadableSpan) -> None:
        if self.recording:
            self.exporter.export([span])


class Telemetry:
    """What the process's providers recorded during one test."""

    def __init__(self, recorder: _Recorder, reader: InMemoryMetricReader) -> None:
        self._recorder = recorder
        self._reader = reader

    def spans(self) -> list[ReadableSpan]:
        """The SDK's spans (not the fake server's), in the order they ended."""
        return [
            span
            for span in self._recorder.exporter.get_finished_spans()
            if span.instrumentation_scope is not None and span.instrumentation_scope.name == SCOPE
        ]

    def named(self, name: str) -> list[ReadableSpan]:
        return [span for span in self.spans() if span.name == name]

    def children(self, parent: ReadableSpan) -> list[ReadableSpan]:
        return sorted(
            (span for span in self.spans() if span.parent is not None and span.parent.span_id == _id(parent)),
            key=lambda span: span.start_time or 0,
        )

    def metrics(self) -> dict[str, list[tuple[dict[str, Any], float]]]:
        """Each `leadenrich.` metric's points since the last read: (attributes, sum or count)."""
        found: dict[str, list[tuple[dict[str, Any], float]]] = {}
        data = self._reader.get_metrics_data()
        for resource in data.resource_metrics if data is not None else []:
            for scope in resource.scope_metrics:
                if scope.scope.name != SCOPE:
                    continue
                for metric in scope.metrics:
                    points = found.setdefault(metric.name, [])
                    for point in metric.data.data_points:
                        # A counter's point has a value; a histogram's, a sum (and a count).
                        value = point.value if isinstance(point, NumberDataPoint) else point.sum
                        points.append((dict(point.attributes or {}), value))
        return found

    def total(self, name: str, **attributes: Any) -> float:
        """The sum of a metric's points whose attributes include `attributes`."""
        return sum(
            value
            for point, value in self.metrics_read.get(name, [])
            if all(point.get(key) == wanted for key, wanted in attributes.items())
        )

    def read_metrics(self) -> None:
        self.metrics_read = self.metrics()

    def forget(self) -> None:
        """Start afresh: what was recorded so far is not this test's subject."""
        self._recorder.exporter.clear()
        self._reader.get_metrics_data()


_process: tuple[_Recorder, InMemoryMetricReader] | None = None


def _providers() -> tuple[_Recorder, InMemoryMetricReader]:
    global _process
    if _process is None:
        recorder = _Recorder()
        tracer_provider = TracerProvider(sampler=recorder)
        tracer_provider.add_span_processor(recorder)
        trace.set_tracer_provider(tracer_provider)
        # Delta: each read holds what happened since the one before.
        reader = InMemoryMetricReader(
            preferred_temporality={
                Counter: AggregationTemporality.DELTA,
                Histogram: AggregationTemporality.DELTA,
            }
        )
        metrics.set_meter_provider(MeterProvider(metric_readers=[reader]))
        _process = (recorder, reader)
        # The process's other tests run without telemetry, as before the providers were
        # set; each test here has it on (`telemetry` unsets this for its run).
        os.environ["LEADENRICH_TELEMETRY"] = "off"
    return _process


@pytest.fixture
def telemetry(monkeypatch: pytest.MonkeyPatch) -> Iterator[Telemetry]:
    recorder, reader = _providers()
    monkeypatch.delenv("LEADENRICH_TELEMETRY", raising=False)
    recorded = Telemetry(recorder, reader)
    recorded.forget()  # what other tests left
    recorder.recording = True
    try:
        yield recorded
    finally:
        recorder.recording = False


def _id(span: ReadableSpan) -> int:
    context = span.get_span_context()
    assert context is not None
    return context.span_id


def attributes_of(span: ReadableSpan) -> dict[str, Any]:
    return dict(span.attributes or {})


@pytest.fixture(params=["sync", "async"])
def kind(request: pytest.FixtureRequest) -> str:
    return request.param


def on(server: FakeServer, kind: str, **options: Any) -> LeadEnrich | AsyncLeadEnrich:
    return client_for(server, **options) if kind == "sync" else async_client_for(server, **options)


async def test_enrich_and_wait_with_a_429_and_a_retry(
    telemetry: Telemetry, server: FakeServer, kind: str
) -> None:
    server.fail_next("POST", "/api/v1/leads/enrich", "upstream_full")
    server.fail_next("GET", "/api/v1/jobs/*", "server_error", status=503)
    client = on(server, kind)
    with trace.get_tracer("app").start_as_current_span("caller") as caller:
        lead = await call(client.leads.enrich_and_wait({"company": "Acme", "domain": "acme.com"}))
    await close(client)
    telemetry.read_metrics()

    (span,) = telemetry.named("leads.enrich_and_wait")
    assert span.kind is trace.SpanKind.INTERNAL
    assert span.parent is not None
    assert span.parent.span_id == caller.get_span_context().span_id
    attempts = telemetry.children(span)
    assert all(attempt.kind is trace.SpanKind.CLIENT for attempt in attempts)
    posts = [a for a in attempts if a.name == "POST /api/v1/leads/enrich"]
    polls = [a for a in attempts if a.name == "GET /api/v1/jobs/{job_id}"]
    assert len(posts) + len(polls) == len(attempts)
    # The 429 and the job it let through, then a 503 poll sent again.
    assert [attributes_of(a)["http.response.status_code"] for a in posts] == [429, 202]
    refused, created = map(attributes_of, posts)
    assert refused["leadenrich.rate_limit.variant"] == "upstream_full"
    assert refused["leadenrich.retry_after"] == 2.0
    assert refused["error.type"] == "429"
    assert "http.request.resend_count" not in refused
    assert created["http.request.resend_count"] == 1
    assert [attributes_of(a)["http.response.status_code"] for a in polls[:2]] == [503, 200]
    assert attributes_of(polls[1])["http.request.resend_count"] == 1
    assert all(a.status.status_code is trace.StatusCode.ERROR for a in (posts[0], polls[0]))
    first = attributes_of(posts[0])
    assert first["http.request.method"] == "POST"
    assert first["url.template"] == "/api/v1/leads/enrich"
    assert first["server.address"] == "127.0.0.1"
    assert first["url.full"] == f"{server.url}/api/v1/leads/enrich"

    job_id = attributes_of(span)["leadenrich.job.id"]
    assert all(attributes_of(poll)["leadenrich.job.id"] == job_id for poll in polls)
    assert attributes_of(span) == {
        "leadenrich.lead.id": lead.id,
        "leadenrich.lead.deduped": False,
        "leadenrich.job.id": job_id,
        "leadenrich.job.polls": len(polls),
        "leadenrich.retries": 2,
        "leadenrich.credits.charged": 1,
    }
    retries = [event for event in span.events if event.name == "leadenrich.retry"]
    assert [dict(event.attributes or {})["leadenrich.retry.reason"] for event in retries] == [
        "429 upstream_full",
        "503",
    ]
    # The back-off of an upstream_full: about 2 s, with up to 0.5 s of jitter.
    delay: Any = dict(retries[0].attributes or {})["leadenrich.retry.delay"]
    assert 2.0 <= delay <= 2.5

    assert (
        telemetry.total("leadenrich.rate_limited", **{"leadenrich.rate_limit.variant": "upstream_full"}) == 1
    )
    assert telemetry.total("leadenrich.retries") == 2
    assert telemetry.total("leadenrich.retries", **{"leadenrich.retry.reason": "503"}) == 1
    assert telemetry.total("leadenrich.credits", **{"leadenrich.credit.pool": "enrichment"}) == 1
    assert telemetry.total("leadenrich.requests") == len(attempts)
    assert telemetry.total("leadenrich.requests", **{"http.response.status_code": 429}) == 1
    assert telemetry.total("leadenrich.requests", **{"url.template": "/api/v1/jobs/{job_id}"}) == len(polls)


async def test_a_per_key_429_its_retry_after_and_the_pacing_wait(
    telemetry: Telemetry, api: respx.MockRouter, kind: str
) -> None:
    clock = ManualClock()
    api.get("/usage").mock(
        side_effect=[
            httpx.Response(200, json=USAGE),
            httpx.Response(
                429,
                json={"detail": "rate limit exceeded (60 req/min), retry in 3 seconds"},
                headers={"Retry-After": "3"},
            ),
            httpx.Response(200, json=USAGE),
        ]
    )
    cls = LeadEnrich if kind == "sync" else AsyncLeadEnrich
    client = cls(KEY, base_url=BASE, clock=clock, rate_limits=RateLimits(sync_per_minute=1, period=60.0))
    await call(client.usage())
    await call(client.usage())
    await close(client)
    telemetry.read_metrics()

    first, second = telemetry.named("usage")
    assert "leadenrich.retries" not in attributes_of(first)
    assert attributes_of(second)["leadenrich.retries"] == 1
    refused, answered = (attributes_of(a) for a in telemetry.children(second))
    assert refused["leadenrich.rate_limit.variant"] == "per_key"
    assert refused["leadenrich.retry_after"] == 3.0
    # One place a minute: the second call waited for the budget, and so did its retry.
    assert refused["leadenrich.pacing.wait"] == pytest.approx(clock.sleeps[0])
    assert clock.sleeps[0] > 60
    assert "leadenrich.pacing.wait" not in attributes_of(telemetry.children(first)[0])
    assert answered["http.response.status_code"] == 200
    assert answered["leadenrich.pacing.wait"] > 0
    assert telemetry.total("leadenrich.rate_limited", **{"leadenrich.rate_limit.variant": "per_key"}) == 1
    assert telemetry.total("leadenrich.retries", **{"leadenrich.retry.reason": "429 rate limit"}) == 1
    assert telemetry.total("leadenrich.budget.wait") == pytest.approx(
        refused["leadenrich.pacing.wait"] + answered["leadenrich.pacing.wait"]
    )


async def test_a_bulk_run_counts_its_leads_as_its_result_does(
    telemetry: Telemetry, server: FakeServer, kind: str
) -> None:
    stored: LeadDict = {"company": "Initech", "domain": "initech.com", "email": "peter@initech.com"}
    client = on(server, kind)
    await call(client.leads.enrich_sync(stored))
    telemetry.forget()
    rows: list[LeadDict] = [
        {"company": "Acme", "domain": "acme.com"},
        {"company": "Broken", "domain": "broken.fail"},
        stored,  # deduped
        {"company": "Globex", "domain": "globex.com"},
        {"company": "Hooli", "domain": "hooli.com"},
        {"company": "Umbrella", "domain": "umbrella.com"},
    ]
    with trace.get_tracer("app").start_as_current_span("nightly"):
        result: BulkResult = await call(
            client.leads.enrich_many(rows, max_credits=3, concurrency=2, progress=False)
        )
    await close(client)
    telemetry.read_metrics()

    # Each outcome at least once (which leads max_credits leaves out is the plan's choice).
    assert all((result.succeeded - result.deduped, result.failed, result.deduped, result.skipped))
    (span,) = telemetry.named("leads.enrich_many")
    assert attributes_of(span) == {
        "leadenrich.bulk.leads": len(rows),
        "leadenrich.bulk.enriched": result.succeeded - result.deduped,
        "leadenrich.bulk.deduped": result.deduped,
        "leadenrich.bulk.failed": result.failed,
        "leadenrich.bulk.skipped": result.skipped,
        "leadenrich.credits.charged": result.credits_spent,
    }
    for status in ("enriched", "deduped", "failed", "skipped"):
        wanted = sum(1 for outcome in result if outcome.status == status)
        assert telemetry.total("leadenrich.bulk.leads", **{"leadenrich.bulk.outcome": status}) == wanted
    assert telemetry.total("leadenrich.credits") == result.credits_spent
    # Every request of the run (from the pool's threads, or the run's tasks) is the run's.
    sent = [s for s in telemetry.spans() if s.kind is trace.SpanKind.CLIENT]
    assert len(sent) >= len(rows) - result.skipped
    assert all(s.parent is not None and s.parent.span_id == _id(span) for s in sent)


def test_calls_nest_under_the_callers_span_in_threads(telemetry: Telemetry, server: FakeServer) -> None:
    tracer = trace.get_tracer("app")
    with client_for(server) as client:

        def work(number: int) -> int:
            with tracer.start_as_current_span(f"worker {number}") as mine:
                client.usage()
                return mine.get_span_context().span_id

        with ThreadPoolExecutor(3) as pool:
            parents = list(pool.map(work, range(3)))
    calls = telemetry.named("usage")
    assert sorted(s.parent.span_id for s in calls if s.parent is not None) == sorted(parents)
    for span in calls:
        (attempt,) = telemetry.children(span)
        assert attempt.name == "GET /api/v1/usage"


async def test_calls_nest_under_the_callers_span_in_tasks(telemetry: Telemetry, server: FakeServer) -> None:
    tracer = trace.get_tracer("app")
    async with async_client_for(server) as client:

        async def work(number: int) -> int:
            with tracer.start_as_current_span(f"task {number}") as mine:
                await client.usage()
                return mine.get_span_context().span_id

        parents = await asyncio.gather(*(work(number) for number in range(3)))
    calls = telemetry.named("usage")
    assert sorted(s.parent.span_id for s in calls if s.parent is not None) == sorted(parents)
    assert all(len(telemetry.children(span)) == 1 for span in calls)


PERSON: LeadDict = {"name": "Ada Lovelace", "email": "ada@acme.com", "company": "Acme", "domain": "acme.com"}


async def _personal_calls(server: FakeServer, kind: str) -> list[str]:
    """Calls that see a lead's personal data; returns the values that must not leak."""
    client = on(server, kind)
    await call(client.leads.enrich_sync(PERSON))
    found = await call(
        client.email.find(first_name="Grace", last_name="Hopper", company_name="Navy", domain="navy.mil")
    )
    lookup = await call(
        client.mobile.find_and_wait(first_name="Grace", last_name="Hopper", domain="navy.mil")
    )
    with pytest.raises(Exception):  # noqa: B017, PT011 - any refusal: its message must not leak
        await call(client.leads.enrich_sync({"company": "Acme", "domain": "acme.com", "email": 7}))  # type: ignore[typeddict-item]  # pyright: ignore[reportArgumentType]
    await close(client)
    assert found.email is not None
    assert lookup.mobile is not None
    return [server.api_key, str(PERSON.get("name")), str(PERSON.get("email")), found.email, lookup.mobile]


def _everything(telemetry: Telemetry) -> str:
    """Every attribute and event of the SDK's spans, and every metric attribute, as text."""
    parts: list[str] = []
    for span in telemetry.spans():
        parts.append(repr(dict(span.attributes or {})))
        parts.append(repr(span.status.description))
        parts.extend(f"{event.name} {dict(event.attributes or {})!r}" for event in span.events)
    parts.append(repr(telemetry.metrics()))
    return "\n".join(parts)


async def test_no_key_and_no_personal_data_by_default(
    telemetry: Telemetry, make_server: Any, kind: str
) -> None:
    server = make_server(mobile_credits=5)
    secrets = await _personal_calls(server, kind)
    reported = _everything(telemetry)
    assert telemetry.named("email.find")
    assert telemetry.named("mobile.find_and_wait")
    for secret in secrets:
        assert secret not in reported
    assert "Lovelace" not in reported
    assert "Hopper" not in reported


async def test_personal_data_only_when_asked_for(
    telemetry: Telemetry, make_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEADENRICH_TELEMETRY", "personal")
    server = make_server(mobile_credits=5)
    key, name, email, found, mobile = await _personal_calls(server, "sync")
    (enriched,) = [s for s in telemetry.named("leads.enrich_sync") if s.status.is_ok]
    assert attributes_of(enriched)["leadenrich.lead.name"] == name
    assert attributes_of(enriched)["leadenrich.lead.email"] == email
    assert attributes_of(telemetry.named("email.find")[0])["leadenrich.email.address"] == found
    assert attributes_of(telemetry.named("mobile.find_and_wait")[0])["leadenrich.lookup.mobile"] == mobile
    assert key not in _everything(telemetry)


async def test_off_by_one_setting(
    telemetry: Telemetry, server: FakeServer, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    monkeypatch.setenv("LEADENRICH_TELEMETRY", "off")
    client = on(server, kind)
    await call(client.usage())
    await close(client)
    assert telemetry.spans() == []
    assert telemetry.metrics() == {}
    monkeypatch.setenv("LEADENRICH_TELEMETRY", "on")
    client = on(server, kind)
    await call(client.usage())
    await close(client)
    assert [span.name for span in telemetry.spans()] == ["GET /api/v1/usage", "usage"]
    assert set(telemetry.metrics()) == {"leadenrich.requests", "leadenrich.request.duration"}


def test_an_unknown_setting_is_named_and_taken_as_on(
    telemetry: Telemetry, api: respx.MockRouter, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEADENRICH_TELEMETRY", "yes please")
    api.get("/usage").respond(json=USAGE)
    with pytest.warns(
        UserWarning, match=r"LEADENRICH_TELEMETRY='yes please' is not one of on, off, personal"
    ):
        client = LeadEnrich(KEY, base_url=BASE, rate_limits=None)
    client.usage()
    client.close()
    assert [span.name for span in telemetry.spans()] == ["GET /api/v1/usage", "usage"]


def test_the_raw_response_and_stored_lead_calls_have_spans(
    telemetry: Telemetry, api: respx.MockRouter
) -> None:
    api.get("/leads/ld_1").respond(json=lead_out("ld_1"))
    with LeadEnrich(KEY, base_url=BASE, rate_limits=None) as client:
        client.leads.get("ld_1")
        client.leads.with_raw_response.get("ld_1")
    names = [span.name for span in telemetry.spans()]
    assert names == [
        "GET /api/v1/leads/{lead_id}",
        "leads.get",
        "GET /api/v1/leads/{lead_id}",
        "leads.with_raw_response.get",
    ]
    assert attributes_of(telemetry.named("leads.get")[0])["leadenrich.lead.id"] == "ld_1"
    assert attributes_of(telemetry.spans()[0])["url.full"] == f"{API}/leads/ld_1"


def _fresh_python(code: str) -> Sequence[str]:
    """What `code` prints, in a Python of its own with telemetry left to its providers."""
    env = {k: v for k, v in os.environ.items() if k != "LEADENRICH_TELEMETRY"}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    return result.stdout.split()


CALL = """
import sys, json, httpx
from leadenrich import LeadEnrich
from opentelemetry import metrics, trace
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.sdk.trace.sampling import ALWAYS_OFF, ALWAYS_ON
body = json.dumps({usage!r}).encode()
def make():
    http = httpx.Client(transport=httpx.MockTransport(lambda request: httpx.Response(200, content=body)))
    return LeadEnrich(api_key="le_live_x", base_url="https://api.test", http_client=http, rate_limits=None)
def spans_kept(sampler):
    exporter = InMemorySpanExporter()
    provider = TracerProvider(sampler=sampler)
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return provider, exporter
"""
"""A Python that sends `usage()` to a mock transport (`make()` a client), with what it
takes to set OpenTelemetry's SDK up: `spans_kept(sampler)` is a tracer provider and its
exporter, not yet set."""


def test_a_client_made_before_the_provider_is_set_reports_nothing() -> None:
    code = CALL.format(usage=USAGE) + (
        "early = make()\n"
        "provider, exporter = spans_kept(ALWAYS_ON)\n"
        "early.usage()\n"
        "print(len(exporter.get_finished_spans()))\n"
        "trace.set_tracer_provider(provider)\n"
        "early.usage()\n"
        "print(len(exporter.get_finished_spans()))\n"
        "make().usage()\n"
        "print(len(exporter.get_finished_spans()))\n"
    )
    # Made before: never; made after: the call and its attempt.
    assert _fresh_python(code) == ["0", "0", "2"]


def test_spans_sampled_out_still_count_in_the_metrics() -> None:
    code = CALL.format(usage=USAGE) + (
        "provider, exporter = spans_kept(ALWAYS_OFF)\n"
        "trace.set_tracer_provider(provider)\n"
        "reader = InMemoryMetricReader()\n"
        "metrics.set_meter_provider(MeterProvider(metric_readers=[reader]))\n"
        "make().usage()\n"
        "data = reader.get_metrics_data()\n"
        "requests = [p.value for r in data.resource_metrics for s in r.scope_metrics for m in s.metrics"
        " if m.name == 'leadenrich.requests' for p in m.data.data_points]\n"
        "print(len(exporter.get_finished_spans()), sum(requests))\n"
    )
    assert _fresh_python(code) == ["0", "1"]


def test_an_iterator_s_requests_nest_under_the_caller_and_leave_its_span_alone(
    telemetry: Telemetry, api: respx.MockRouter
) -> None:
    api.get("/leads").mock(
        side_effect=[
            httpx.Response(503, json={"detail": "busy"}),
            httpx.Response(200, json={"items": [lead_out("ld_1")]}),
            httpx.Response(200, json={"items": []}),
        ]
    )
    with (
        LeadEnrich(KEY, base_url=BASE, rate_limits=None, clock=ManualClock()) as client,
        trace.get_tracer("app").start_as_current_span("report") as report,
    ):
        assert [lead.id for lead in client.leads.iter(page_size=50)] == ["ld_1"]
    spans = telemetry.spans()
    assert [span.name for span in spans] == ["GET /api/v1/leads"] * 3
    assert all(
        span.parent is not None and span.parent.span_id == report.get_span_context().span_id for span in spans
    )
    assert [attributes_of(span)["http.response.status_code"] for span in spans] == [503, 200, 200]
    # The retry is counted, and the application's span gets no event of the SDK's.
    assert telemetry.metrics()["leadenrich.retries"] == [({"leadenrich.retry.reason": "503"}, 1)]
    assert not report.events  # type: ignore[attr-defined]
