"""FakeSettings: every duration, limit, balance and outcome rule of the fake server."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any, Literal, get_args

from . import _rules
from ._open_points import (
    OPEN_POINTS,
    DedupeEmails,
    DeleteBody,
    FailedJobCallback,
    HealthBody,
    JobAdmission,
    ListLimitBounds,
    ListOrder,
    ListShape,
    ReEnrichCharge,
    SameEmailInFlight,
    ServiceClock,
    SyncFailure,
    Timestamps,
    UnknownFields,
    UnknownMode,
)
from ._setting_checks import integer, number, positive_number, rate, value_range

if TYPE_CHECKING:
    from .._models import EmailFindIn, LeadIn, MobileFindIn

__all__ = ["API_TIERS", "FAULT_RATES", "FakeSettings", "Tier", "check_tier", "overridden"]

Tier = Literal["free", "starter", "growth", "scale", "enterprise"]
API_TIERS: frozenset[str] = frozenset({"growth", "scale", "enterprise"})
"""The plans the spec lets through; the others get 403."""
FAULT_RATES = (
    "server_error_rate",
    "drop_before_rate",
    "drop_after_rate",
    "slow_rate",
    "malformed_rate",
    "upstream_full_rate",
)
"""The settings that inject faults; one request meets at most one, so they add up to <= 1."""


@dataclass(frozen=True)
class FakeSettings:
    """How the fake server behaves. The defaults are tuned for tests.

    Durations are in *API seconds*, the seconds the real service would take, and every
    one of them (the rate-limit window included) is multiplied by `time_scale` before
    the server waits it out. With the default scale of 0.005 a 30-second enrichment
    takes 0.15 s and the 60-second rate-limit window lasts 0.3 s; `time_scale=1.0` is
    real time. Limits are the spec's.

    Examples:
        >>> settings = FakeSettings(time_scale=1.0, max_concurrent_enrichments=2)
        >>> settings.real_seconds(30)
        30.0
    """

    time_scale: float = 0.005
    """Multiplies every duration below; 1.0 is real time."""
    enrichment_seconds: tuple[float, float] = (20.0, 40.0)
    """How long one enrichment runs: a value in this range, the same every time for one lead."""
    queued_seconds: float = 1.0
    """How long an async job stays `queued` before it starts `running`."""
    mobile_lookup_seconds: tuple[float, float] = (10.0, 30.0)
    """How long a mobile lookup stays `pending`: a value in this range, fixed per person."""
    sync_per_minute: int = 60
    """Per-key requests per window for every call except async job creation."""
    async_per_minute: int = 600
    """Per-key async job creations per window."""
    rate_window_seconds: float = 60.0
    """The sliding window the per-key limits count over."""
    max_concurrent_enrichments: int = 5
    """Enrichments in flight across the whole server (every key) before `upstream_full`."""
    upstream_retry_after: float = 2.0
    """What an `upstream_full` 429 asks the caller to wait."""
    enrichment_fails: Callable[[LeadIn], bool] = _rules.enrichment_fails
    """Which enrichments fail. Default: a domain ending in `.fail` or `.invalid`."""
    email_found: Callable[[EmailFindIn], bool] = _rules.email_found
    """Which email searches hit. Default: all but the documented trigger values."""
    mobile_found: Callable[[MobileFindIn], bool] = _rules.mobile_found
    """Which mobile lookups settle with a number. Default: all but the trigger values."""
    tier: Tier = "growth"
    """The plan of the ready key, and of `add_key()` accounts unless told otherwise."""
    monthly_leads: int | None = 1000
    """Leads included per month in a new account; None for unlimited."""
    credits: int = 0
    """Leads added by credit packs to a new account (the pool email hits share)."""
    mobile_credits: int = 100
    """Mobile credits bought by a new account."""
    callback_timeout: float = 5.0
    """Seconds (real, never scaled: it is network I/O) to wait for a callback receiver."""
    # The spec's open points. Each is one reading the real service may follow; the
    # contract tests run the SDK against every value. `open_points()` lists them.
    # Keyword-only, so the positions of the settings above and below stay as in 1.0.0.
    job_admission: JobAdmission = field(default="queue", kw_only=True)
    """What async creation does while every enrichment slot is busy. `queue`: 202, and
    the job stays `queued` until a slot frees (oldest first). `upstream_full`: the 1.0.0
    fake's reading, a 429 `upstream_full` (the job takes a slot at creation or is refused)."""
    list_order: ListOrder = field(default="newest_first", kw_only=True)
    """The order of `GET /leads`: `newest_first` or `oldest_first` (by creation)."""
    list_shape: ListShape = field(default="items", kw_only=True)
    """The body of `GET /leads`: `items` is `{items, total, limit, skip}`; `bare` a bare
    list; `leads` is `{leads, count}`; `data` is `{data, has_more}`; `results` is
    `{results, count, next, previous}` with `next` and `previous` as URLs or null."""
    list_limit_bounds: ListLimitBounds = field(default="reject", kw_only=True)
    """`limit` outside 1 to `list_max_limit`, or a negative `skip`: `reject` answers 422;
    `clamp` serves the nearest allowed value without saying so."""
    list_max_limit: int = field(default=500, kw_only=True)
    """The largest page `GET /leads` serves."""
    sync_failure: SyncFailure = field(default="502_json", kw_only=True)
    """A failed sync enrichment or re-enrichment (always refunded): `502_json` is 502
    `{"detail": "enrichment_failed: ...; the credit was refunded"}`; `500_text` a
    plain-text 500 `Internal Server Error`; `503_json` a 503 with a JSON detail."""
    health_body: HealthBody = field(default="status_version", kw_only=True)
    """The health answer: `status_version` is `{"status": "ok", "version": "1.0.0"}`,
    `status` is `{"status": "ok"}`, `text` the plain text `OK`, `empty` a 204."""
    delete_body: DeleteBody = field(default="id_deleted", kw_only=True)
    """The delete answer: `id_deleted` is `{"id": ..., "deleted": true}`, `lead` the
    deleted LeadOut, `message` is `{"message": "lead deleted"}`, `empty` a 204."""
    unknown_fields: UnknownFields = field(default="reject", kw_only=True)
    """A request body field the spec does not list: `reject` (422) or `ignore` (dropped)."""
    same_email_in_flight: SameEmailInFlight = field(default="charge_both", kw_only=True)
    """An enrichment whose email matches a run still in flight (same account):
    `charge_both` runs and charges both, storing two leads; `dedupe` waits for the first
    and returns its lead with `deduped: true`, free (or runs if the first failed)."""
    re_enrich_charge: ReEnrichCharge = field(default="charged", kw_only=True)
    """Whether re-enrich spends one enrichment credit (`charged`) or nothing (`free`)."""
    failed_job_callback: FailedJobCallback = field(default="posted", kw_only=True)
    """Whether a failed job's callback is POSTed (`posted`, with `error`) or not at all."""
    unknown_mode: UnknownMode = field(default="reject", kw_only=True)
    """`mode` other than `sync` or `async`: `reject` (422 at `["query", "mode"]`), or run
    it as `async` or as `sync`."""
    dedupe_emails: DedupeEmails = field(default="ignore_case", kw_only=True)
    """How a lead's email is matched against the stored contacts (the spec says a known
    contact is returned deduped, not how emails compare): `ignore_case` (spaces around
    and letter case ignored) or `exact`."""
    service_clock: ServiceClock = field(default="in_step", kw_only=True)
    """The clock the service stamps its leads, jobs and lookups with (`created_at`,
    `started_at`, `finished_at`), against this machine's: `in_step`, 5 minutes `behind`,
    or 5 minutes `ahead`. The spec promises nothing about the two agreeing."""
    timestamps: Timestamps = field(default="utc", kw_only=True)
    """How the service writes its stamps (the spec says only "ISO 8601"): `utc` with an
    offset (`+00:00`), or `local_without_offset`, its local time (5 hours behind UTC) with
    no offset at all."""
    job_retention_seconds: float | None = field(default=None, kw_only=True)
    """How long the service keeps a job once it ended, in API seconds: polled later, the
    job answers 404 as an unknown one does (the spec does not say how long jobs are
    kept). None keeps every job for the server's life."""
    gateway_timeout_seconds: float | None = field(default=None, kw_only=True)
    """A front end (a load balancer) that gives up on a sync enrichment or re-enrichment
    after this many API seconds and answers 504 with an HTML page, while the service
    goes on with it: the lead is stored and charged all the same. None: no such front
    end (the spec shows no 5xx body, nor whether anything stands in front)."""

    fault_seed: int = 0
    """Seeds every fault decision: one seed and one request always meet the same fault."""
    server_error_rate: float = 0.0
    """Share of API requests answered 500, 502 or 503 (an HTML or a JSON body) unprocessed."""
    drop_before_rate: float = 0.0
    """Share of API requests whose connection is dropped before they are processed."""
    drop_after_rate: float = 0.0
    """Share of API requests processed (work done, credit charged) whose answer is then
    lost: the connection is dropped instead."""
    slow_rate: float = 0.0
    """Share of API requests processed and then answered `slow_seconds` late."""
    slow_seconds: float = 1.0
    """How late a slow answer is, in real seconds (never scaled: it is measured against
    the client's timeout)."""
    malformed_rate: float = 0.0
    """Share of 2xx answers whose JSON body is broken (the work was done and charged)."""
    upstream_full_rate: float = 0.0
    """Share of enrichment requests that start a burst of `upstream_full` 429s."""
    upstream_full_burst: int = 5
    """How many enrichment requests in a row one burst refuses, its first included."""

    def __post_init__(self) -> None:
        positive_number("time_scale", self.time_scale, "1.0 is real time, 0.005 makes 30 s last 0.15 s")
        value_range("enrichment_seconds", self.enrichment_seconds)
        value_range("mobile_lookup_seconds", self.mobile_lookup_seconds)
        number("queued_seconds", self.queued_seconds)
        number("upstream_retry_after", self.upstream_retry_after)
        positive_number("rate_window_seconds", self.rate_window_seconds, "the spec's window is 60")
        positive_number("callback_timeout", self.callback_timeout, "real seconds")
        for name in ("sync_per_minute", "async_per_minute", "max_concurrent_enrichments"):
            integer(name, getattr(self, name), 1)
        integer("credits", self.credits, 0)
        integer("mobile_credits", self.mobile_credits, 0)
        if self.monthly_leads is not None:
            integer("monthly_leads", self.monthly_leads, 0, "or None for unlimited")
        check_tier("FakeSettings.tier", self.tier)
        self._check_open_points()
        if isinstance(self.fault_seed, bool) or not isinstance(self.fault_seed, int):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise ValueError(f"FakeSettings.fault_seed must be an int, got {self.fault_seed!r}")
        total = sum(rate(name, getattr(self, name)) for name in FAULT_RATES)
        if total > 1.0:
            raise ValueError(
                f"FakeSettings fault rates ({', '.join(FAULT_RATES)}) must add up to at most 1, got {total:g}"
            )
        positive_number("slow_seconds", self.slow_seconds, "real seconds")
        integer("upstream_full_burst", self.upstream_full_burst, 1)
        for name in ("enrichment_fails", "email_found", "mobile_found"):
            if not callable(getattr(self, name)):
                raise ValueError(
                    f"FakeSettings.{name} must be a callable taking the request, returning a bool"
                )

    def _check_open_points(self) -> None:
        integer("list_max_limit", self.list_max_limit, 1)
        for name in ("job_retention_seconds", "gateway_timeout_seconds"):
            if getattr(self, name) is not None:
                positive_number(name, getattr(self, name), "API seconds, or None")
        for name, choices in OPEN_POINTS.items():
            allowed = get_args(choices)
            if getattr(self, name) not in allowed:
                raise ValueError(
                    f"FakeSettings.{name} must be one of {', '.join(map(repr, allowed))}; "
                    f"got {getattr(self, name)!r}"
                )

    def real_seconds(self, api_seconds: float) -> float:
        """`api_seconds` of the real service, as seconds of this server's clock.

        Examples:
            >>> FakeSettings(time_scale=0.01).real_seconds(30)
            0.3
        """
        return api_seconds * self.time_scale

    @property
    def rate_window(self) -> float:
        """The per-key window in real seconds.

        Examples:
            >>> FakeSettings(time_scale=0.01).rate_window
            0.6
        """
        return self.real_seconds(self.rate_window_seconds)

    @classmethod
    def names(cls) -> list[str]:
        """The names of every setting."""
        return [f.name for f in fields(cls)]

    @classmethod
    def open_points(cls) -> dict[str, tuple[str, ...]]:
        """The settings for the points the spec leaves open, each with every value it
        takes, the 1.0.0 fake's first (for `job_admission`, the spec's reading first).

        Examples:
            >>> FakeSettings.open_points()["list_order"]
            ('newest_first', 'oldest_first')
        """
        return {name: get_args(choices) for name, choices in OPEN_POINTS.items()}


def overridden(settings: FakeSettings, overrides: Mapping[str, Any]) -> FakeSettings:
    """`settings` with the fields named in `overrides` changed; TypeError for an unknown name."""
    unknown = sorted(set(overrides) - set(FakeSettings.names()))
    if unknown:
        raise TypeError(
            f"unknown FakeSettings field(s) {', '.join(unknown)}; known: {', '.join(FakeSettings.names())}"
        )
    return replace(settings, **overrides) if overrides else settings


def check_tier(name: str, tier: object) -> None:
    allowed = get_args(Tier)
    if tier not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(allowed)}; got {tier!r}")
