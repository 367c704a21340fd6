"""The spans and metrics a client reports through the OpenTelemetry API (the `otel` extra).

Loaded only when telemetry is on (`_telemetry.py`). The tracer and the meter are the
application's providers' `leadenrich`; the SDK and the exporters are the application's.

Nothing reported carries the API key, and a lead's personal data (names, emails, phone
numbers) only with `LEADENRICH_TELEMETRY=personal`. Error messages are never recorded,
only the error's type: a 422's message may quote the lead it refused.
"""

from __future__ import annotations

import sys
import threading
import time
from collections import Counter as Tally
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

import httpx
from opentelemetry import context, metrics, trace
from opentelemetry.util.types import AttributeValue

from . import _lazy_models
from ._errors import APIConnectionError, APIStatusError, RateLimitError
from ._version import __version__

if TYPE_CHECKING:
    from types import TracebackType

    from ._bulk.progress import Reporter
    from ._bulk.results import BulkOutcome, BulkResult
    from ._endpoints import Call

__all__ = ["Attempt", "CallSpan", "Telemetry", "provided"]

NAME = "leadenrich"
"""The tracer's and the meter's name: the package's, as OpenTelemetry asks of a library."""

_PERSONAL_KEYS = ("name", "email")

_telemetries: dict[bool, Telemetry] = {}
_made = threading.Lock()

_current: ContextVar[CallSpan | None] = ContextVar("leadenrich_call", default=None)
"""The public call running in this context: its attempts and retries are counted on it."""


def provided(*, personal: bool) -> Telemetry | None:
    """The process's telemetry when the application has set a tracer or a meter provider
    (other than the API's no-op ones, which would drop it all)."""
    tracer_provider, meter_provider = trace.get_tracer_provider(), metrics.get_meter_provider()
    if isinstance(tracer_provider, (trace.ProxyTracerProvider, trace.NoOpTracerProvider)) and (
        _proxy(meter_provider) or isinstance(meter_provider, metrics.NoOpMeterProvider)
    ):
        return None
    with _made:
        telemetry = _telemetries.get(personal)
        if telemetry is None:
            telemetry = _telemetries[personal] = Telemetry(personal)
        return telemetry


def _proxy(provider: metrics.MeterProvider) -> bool:
    # The API's stand-in until a provider is set has no public name (unlike the tracer's).
    return type(provider).__name__ == "_ProxyMeterProvider"


class Telemetry:
    """The tracer, the meter and its instruments; shared by every client of the process."""

    def __init__(self, personal: bool) -> None:
        self.personal: bool = personal
        self.tracer: trace.Tracer = trace.get_tracer(NAME, __version__)
        meter = metrics.get_meter(NAME, __version__)
        self.requests: metrics.Counter = meter.create_counter(
            "leadenrich.requests", unit="{request}", description="HTTP requests sent, by endpoint and status"
        )
        self.duration: metrics.Histogram = meter.create_histogram(
            "leadenrich.request.duration", unit="s", description="Time from sending a request to its answer"
        )
        self.rate_limited: metrics.Counter = meter.create_counter(
            "leadenrich.rate_limited", unit="{response}", description="429 answers, by variant"
        )
        self.retries: metrics.Counter = meter.create_counter(
            "leadenrich.retries", unit="{retry}", description="Requests sent again, by what the last one met"
        )
        self.budget_wait: metrics.Histogram = meter.create_histogram(
            "leadenrich.budget.wait",
            unit="s",
            description="Each wait for a place in the per-key budget before a request (client-side pacing)",
        )
        self.credits: metrics.Counter = meter.create_counter(
            "leadenrich.credits", unit="{credit}", description="Credits the answers say were charged"
        )
        self.bulk_leads: metrics.Counter = meter.create_counter(
            "leadenrich.bulk.leads", unit="{lead}", description="Leads of bulk runs, by outcome"
        )

    def call(self, name: str) -> CallSpan:
        """The span of one public call, current while it runs."""
        return CallSpan(self, name)

    def attempt(self, request: httpx.Request, call: Call[Any], paced: float, resend: int) -> Attempt:
        """The client span of one HTTP attempt, current while it is sent and answered."""
        return Attempt(self, request, call, paced, resend)

    def retrying(self, reason: str, delay: float, attempt: int) -> None:
        """A failed attempt will be sent again after `delay` seconds."""
        self.retries.add(1, {"leadenrich.retry.reason": reason})
        # On the call's own span: never on one of the application's (a page of `leads.iter`
        # runs under the caller's).
        call = _current.get()
        if call is not None:
            call.retried(
                {
                    "leadenrich.retry.reason": reason,
                    "leadenrich.retry.delay": delay,
                    "leadenrich.retry.attempt": attempt,
                }
            )

    def counted(self, report: Reporter) -> Reporter:
        """`report`, counting each lead of a bulk run as it settles (or is read back from
        its checkpoint), and the credits it was charged."""
        return _Counted(self, report)


class _Counted:
    def __init__(self, telemetry: Telemetry, report: Reporter) -> None:
        self._telemetry = telemetry
        self._report = report

    def update(self, outcome: BulkOutcome) -> None:
        telemetry = self._telemetry
        telemetry.bulk_leads.add(
            1, {"leadenrich.bulk.outcome": outcome.status, "leadenrich.bulk.resumed": outcome.resumed}
        )
        if outcome.charged:
            telemetry.credits.add(
                1, {"leadenrich.credit.pool": "enrichment", "leadenrich.operation": "leads.bulk"}
            )
        self._report.update(outcome)

    def close(self) -> None:
        self._report.close()


class CallSpan:
    """A public call's span: what it returned, the retries and polls it made, its error."""

    def __init__(self, telemetry: Telemetry, name: str) -> None:
        self._telemetry = telemetry
        self._name = name
        self._span = telemetry.tracer.start_span(name, kind=trace.SpanKind.INTERNAL)
        self._lock = threading.Lock()
        self._retries = 0
        self._polls = 0
        self._polled: str | None = None
        self._several = False

    def __enter__(self) -> CallSpan:
        self._token = context.attach(trace.set_span_in_context(self._span))
        self._mine = _current.set(self)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None:
        _current.reset(self._mine)
        context.detach(self._token)
        span = self._span
        if self._retries:
            span.set_attribute("leadenrich.retries", self._retries)
        if self._polled is not None:
            key, _ = _polled_id(self._polled)
            span.set_attribute(key.replace(".id", ".polls"), self._polls)
        if kind is not None:
            span.set_attribute("error.type", kind.__qualname__)
            span.set_status(trace.StatusCode.ERROR, kind.__qualname__)
        span.end()

    def retried(self, event: dict[str, AttributeValue]) -> None:
        with self._lock:
            self._retries += 1
        self._span.add_event("leadenrich.retry", event)

    def count_poll(self, path: str) -> None:
        with self._lock:
            self._polls += 1
            self._several = self._several or (self._polled is not None and self._polled != path)
            self._polled = path

    def returned(self, result: Any) -> Any:
        """Note what the call returned (ids, states, the credits it charged); return it."""
        charged = _charged(self._name, result)
        if charged is not None and charged[1]:
            pool, credits = charged
            self._telemetry.credits.add(
                credits, {"leadenrich.credit.pool": pool, "leadenrich.operation": self._name}
            )
        if not self._span.is_recording():  # sampled out: its attributes would be dropped
            return result
        attributes = _described(result, self._telemetry.personal)
        if not self._several and self._polled is not None:
            attributes.setdefault(*_polled_id(self._polled))
        if charged is not None:
            attributes["leadenrich.credits.charged"] = charged[1]
        self._span.set_attributes(attributes)
        return result


class Attempt:
    """One HTTP attempt's client span and its metrics, by the semantic conventions for HTTP clients."""

    def __init__(
        self, telemetry: Telemetry, request: httpx.Request, call: Call[Any], paced: float, resend: int
    ) -> None:
        self._telemetry = telemetry
        method = request.method
        url = request.url
        template, polled = _template(url, call.path)
        self._metric: dict[str, AttributeValue] = {"http.request.method": method, "url.template": template}
        if paced > 0:
            telemetry.budget_wait.record(paced, {"leadenrich.budget": call.bucket or "none"})
        if polled is not None and (running := _current.get()) is not None:
            running.count_poll(polled)
        # What a sampler may decide by; the rest only for a span that records.
        self._span = span = telemetry.tracer.start_span(
            f"{method} {template}", kind=trace.SpanKind.CLIENT, attributes=dict(self._metric)
        )
        if not span.is_recording():
            return
        attributes: dict[str, AttributeValue] = {
            "server.address": url.host,
            "server.port": url.port or (443 if url.scheme == "https" else 80),
            "url.full": str(url),
        }
        if resend:
            attributes["http.request.resend_count"] = resend
        if paced > 0:
            attributes["leadenrich.pacing.wait"] = paced
        if polled is not None:
            key, polled_id = _polled_id(polled)
            attributes[key] = polled_id
        span.set_attributes(attributes)

    def __enter__(self) -> Attempt:
        self._token = context.attach(trace.set_span_in_context(self._span))
        self._started = time.perf_counter()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None:
        elapsed = time.perf_counter() - self._started
        context.detach(self._token)
        span, metric = self._span, self._metric
        if isinstance(error, APIStatusError):
            status = error.status_code
            metric["http.response.status_code"] = status
            metric["error.type"] = str(status)
            span.set_attribute("http.response.status_code", status)
            if isinstance(error, RateLimitError):
                variant = "upstream_full" if error.upstream_full else "per_key"
                span.set_attribute("leadenrich.rate_limit.variant", variant)
                if error.retry_after is not None:
                    span.set_attribute("leadenrich.retry_after", error.retry_after)
                self._telemetry.rate_limited.add(1, {"leadenrich.rate_limit.variant": variant})
        elif error is not None:
            cause = error.__cause__ if isinstance(error, APIConnectionError) else error
            metric["error.type"] = _type_name(cause if cause is not None else error)
        if "error.type" in metric:
            span.set_attribute("error.type", metric["error.type"])
            span.set_status(trace.StatusCode.ERROR, str(metric["error.type"]))
        self._telemetry.requests.add(1, metric)
        self._telemetry.duration.record(elapsed, metric)
        span.end()

    def answered(self, response: httpx.Response) -> httpx.Response:
        """A successful answer: its status on the span and the metrics."""
        self._metric["http.response.status_code"] = response.status_code
        self._span.set_attribute("http.response.status_code", response.status_code)
        return response


def _template(url: httpx.URL, path: str) -> tuple[str, str | None]:
    """A request's path as its endpoint's template (`/api/v1/jobs/{job_id}`), and the path
    of a job or lookup being polled (None for any other request).

    `path` is the endpoint's, after the base URL (`/jobs/job_1`): what is before it in the
    URL (`/api/v1`, and any prefix of the base URL) is kept as it is."""
    sent = url.raw_path.decode("ascii").partition("?")[0]
    base = sent[: len(sent) - len(path)] if sent.endswith(path) else ""
    parts = path.split("/")
    polled = None
    if len(parts) > 2 and parts[1] == "leads" and parts[2] != "enrich":
        parts[2] = "{lead_id}"
    elif len(parts) == 3 and parts[1] == "jobs":
        polled, parts[2] = path, "{job_id}"
    elif len(parts) == 4 and parts[1:3] == ["mobile", "find"]:
        polled, parts[3] = path, "{lookup_id}"
    return base + "/".join(parts), polled


def _polled_id(path: str) -> tuple[str, str]:
    """The attribute that names the job or lookup a poll's `path` asks about, and its id."""
    kind, _, quoted = path.rpartition("/")
    return "leadenrich.job.id" if kind == "/jobs" else "leadenrich.lookup.id", unquote(quoted)


def _type_name(error: BaseException) -> str:
    # httpx's exceptions by their public name (`httpx.ReadTimeout`), as the conventions ask.
    name = type(error).__qualname__
    return f"httpx.{name}" if isinstance(error, httpx.HTTPError) else name


def _described(result: Any, personal: bool) -> dict[str, AttributeValue]:
    """The attributes of what a public call returned: ids and states, personal data only
    when asked for."""
    models = _lazy_models
    attributes: dict[str, AttributeValue] = {}
    if isinstance(result, models.LeadOut):
        attributes["leadenrich.lead.id"] = result.id
        attributes["leadenrich.lead.deduped"] = bool(result.deduped)
        if personal:
            for key in _PERSONAL_KEYS:
                if (value := getattr(result.input, key)) is not None:
                    attributes[f"leadenrich.lead.{key}"] = value
    elif isinstance(result, models.JobOut):
        attributes["leadenrich.job.id"] = result.job_id
        attributes["leadenrich.job.status"] = result.status
    elif isinstance(result, models.EnrichJobCreated):
        attributes["leadenrich.job.id"] = result.job_id
    elif isinstance(result, models.EmailFindOut):
        attributes["leadenrich.email.state"] = result.state
        if personal and result.email is not None:
            attributes["leadenrich.email.address"] = result.email
    elif isinstance(result, models.MobileFindOut):
        attributes["leadenrich.lookup.id"] = result.lookup_id
        attributes["leadenrich.lookup.state"] = result.state
        if personal and result.mobile is not None:
            attributes["leadenrich.lookup.mobile"] = result.mobile
    elif _is_bulk_result(result):
        attributes.update(_bulk_counts(result))
    return attributes


def _is_bulk_result(result: Any) -> bool:
    # Only a bulk call returns one, and it has loaded the bulk package by then: any
    # other call leaves it unloaded.
    results = sys.modules.get("leadenrich._bulk.results")
    return results is not None and isinstance(result, results.BulkResult)


def _bulk_counts(result: BulkResult) -> dict[str, AttributeValue]:
    statuses = Tally(outcome.status for outcome in result.outcomes)
    counts: dict[str, AttributeValue] = {
        "leadenrich.bulk.leads": len(result.outcomes),
        # Counted in the credits metric lead by lead as they settle (`bulk_outcome`).
        "leadenrich.credits.charged": result.credits_spent,
    }
    for status in ("enriched", "deduped", "failed", "skipped"):
        counts[f"leadenrich.bulk.{status}"] = statuses[status]
    return counts


def _charged(name: str, result: Any) -> tuple[str, int] | None:
    """The credit pool and the credits a call charged, by what its answer says; None when
    the call does not charge, or its answer does not say (re-enrich: the spec leaves it
    open; a job or lookup only followed: charged to the call that started it; a bulk run:
    counted lead by lead as they settle, `bulk_outcome`)."""
    if name in ("leads.enrich_sync", "leads.enrich_and_wait") and isinstance(result, _lazy_models.LeadOut):
        return "enrichment", 0 if result.deduped else 1
    if name == "email.find" and isinstance(result, _lazy_models.EmailFindOut):
        return "enrichment", 1 if result.found else 0
    if name == "mobile.find_and_wait" and isinstance(result, _lazy_models.MobileFindOut):
        return "mobile", 1 if result.state == "settled" else 0
    return None
