"""A model of the Lead Enrichment service, as we read the spec, and its books.

It answers the requests a bulk run sends (enrich sync and async, jobs, the listing of
stored leads, usage) on the world's time, with the spec's rules: a credit per
enrichment run (taken at admission, given back when the enrichment fails), dedupe by
email, jobs `queued` -> `running` -> `done` or `failed`, 5 enrichments at once across
the platform, the per-key windows, and the quota. Where the spec is silent it follows
the reading the schedule names (the same open points as the fake server's settings),
and it keeps its own clock: `clock_offset` seconds off the true time, its stamps written
in the format the schedule names.

The books (`charges`, `records`, `jobs`) are what the checks hold a run to.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta, timezone
from email.utils import format_datetime
from functools import partial
from typing import Any, Literal

from leadenrich._bulk.checkpoint import fingerprint
from leadenrich._models import LeadIn

from .clock import EPOCH, World

__all__ = ["WRITER", "Answer", "Charge", "Job", "Record", "Service", "ServiceSettings", "lead_key"]

Stamps = Literal[
    "utc", "offset", "naive_local", "whole_seconds", "whole_minutes", "jittered", "two_nodes", "none"
]
"""How the service writes its times: ISO 8601 in UTC; with another zone's offset; its
local time (5 hours behind UTC) with no offset at all; in whole seconds; in whole minutes;
from nodes whose clocks differ by up to 3 s (not monotone); from two nodes 3 s either
side of the true time (the jitter at its bound); or not at all."""

ENRICHMENT = {
    "company_overview": {},
    "tech_stack": {},
    "intent_signals": {},
    "engagement_playbook": {},
    "opportunity_score": 50,
}
WRITER = -2
"""The request number of another program's enrichments on the account (`Schedule.writer`)."""
SETTLE = 100.0
"""The longest the model takes to take in a request it received, and the longest an
enrichment runs (the spec's 'up to about 90 seconds'): the windows the SDK reasons with."""


@dataclass(frozen=True)
class ServiceSettings:
    job_admission: Literal["queue", "upstream_full"] = "queue"
    list_order: Literal["newest_first", "oldest_first"] = "newest_first"
    same_email_in_flight: Literal["charge_both", "dedupe"] = "charge_both"
    dedupe_emails: Literal["ignore_case", "exact"] = "ignore_case"
    clock_offset: float = 0.0
    stamps: Stamps = "utc"
    quota: int | None = 1000
    used: int = 0
    sync_failure: int = 502
    queued_seconds: float = 1.0
    durations: tuple[float, float] = (20.0, 40.0)
    fail_fast: bool = False
    """A job whose enrichment fails ends `failed` at its creation, without queueing."""
    others: tuple[tuple[float, float], ...] = ()
    """Other accounts' enrichments on the platform's slots: (when, for how long)."""
    filler: int = 0
    """Unrelated leads the account stored before, so a listing runs to several pages."""
    date_offset: float = 0.0
    """How far the `Date` header's clock (a front end's) is off the stamps' clock."""
    page_cap: int | None = None
    """The most records a page of the listing holds (the spec shows no maximum)."""
    page_bound: Literal["clamp", "reject"] = "clamp"
    """A `limit` above `page_cap`: served `page_cap` records, the page saying the limit it
    applied (`clamp`), or refused with a 422 (`reject`, as the fake server's default)."""
    job_retention: float | None = None
    """How long the service keeps a job once it ended: polled later, it answers 404 (the
    spec does not say how long jobs are kept; None, for ever)."""
    dispatch_tick: float | None = None
    """Queued jobs are started on a scheduler's tick, this often, rather than the moment a
    slot frees: a sync request may take a slot while a job waits for the tick (the spec
    does not say how, or in which order, queued jobs take slots). The oldest still first."""
    gateway_timeout: float | None = None
    """A front end that gives up on a request after this long and answers 504 while the
    service goes on with it (a load balancer in front of a sync enrichment)."""


@dataclass(frozen=True)
class Answer:
    status: int
    body: Any = None
    """What `json.dumps` makes the answer's body of, or the JSON itself (bytes)."""
    headers: dict[str, str] = field(default_factory=dict[str, str])


@dataclass
class Record:
    """A stored lead."""

    id: str
    input: dict[str, Any]
    created: float
    """When it was stored, on the true clock."""
    key: str
    """The SDK's fingerprint of its input."""


@dataclass
class Charge:
    key: str
    ref: str
    request: int
    """The ordinal of the request that caused it (see Network)."""
    amount: int
    at: float
    email: str | None = None
    """The lead's email as the service compares emails (None without one)."""


@dataclass
class Job:
    id: str
    key: str
    request: int
    status: str
    created: float
    started: float | None = None
    finished: float | None = None
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None


@dataclass
class _Run:
    """An admitted enrichment: charged, and either running on a slot or queued for one."""

    ref: str
    lead: dict[str, Any]
    key: str
    email: str | None
    request: int
    fails: bool
    seconds: float
    done: Callable[[Record | None], None]
    job: Job | None = None
    followers: list[Callable[[], None]] = field(default_factory=list[Callable[[], None]])
    other: bool = False
    """Another account's: it holds a slot, charges and stores nothing of this account's."""


class Service:
    """The service of one account with one key, on the world's time."""

    def __init__(self, world: World, settings: ServiceSettings, failing: frozenset[str]) -> None:
        self.world = world
        self.settings = settings
        self.failing = failing
        """Domains whose enrichment fails (refunded)."""
        self.records: list[Record] = []
        self.jobs: dict[str, Job] = {}
        self.charges: list[Charge] = []
        self.used = settings.used
        self._ids = 0
        self._running: dict[str, _Run] = {}
        self._queue: deque[_Run] = deque()
        self._emails: dict[str, _Run] = {}
        self._windows: dict[str, deque[float]] = {"sync": deque(), "async": deque()}
        self._ticking = False
        # The last `Date` written, by its second: many answers share one.
        self._date_second: tuple[int, int] | None = None
        self._date = ""
        self._written: dict[tuple[str, ...], str] = {}
        for n, (at, seconds) in enumerate(settings.others):
            world.at(at, lambda n=n, seconds=seconds: self._other(n, seconds))
        # Stored in the order of their stamps, the oldest first, as every record is.
        for n in reversed(range(settings.filler)):
            self.records.append(
                Record(
                    f"ld_old{n}", {"company": f"Old {n}", "domain": f"old{n}.com"}, -86400.0 - n, f"old{n}"
                )
            )

    def _other(self, n: int, seconds: float) -> None:
        """Another account's enrichment: it takes a slot (or queues for one, the oldest first)."""
        run = _Run(f"other_{n}", {}, f"other{n}", None, -1, False, seconds, lambda record: None, other=True)
        self._queue.append(run)
        self._admit_queued()

    # The account as it stood before the schedule (leads stored by earlier work).

    def store_earlier(self, lead: dict[str, Any], age: float) -> Record:
        record = Record(self._new_id("ld"), lead, self.world.now - age, lead_key(lead))
        self.records.append(record)
        self.records.sort(key=lambda r: r.created)
        return record

    # Requests, as they are taken in.

    def take(
        self,
        method: str,
        path: str,
        params: dict[str, Any],
        body: Any,
        request: int,
        reply: Callable[[Answer], None],
    ) -> None:
        if path == "/leads/enrich" and method == "POST":
            bucket = "sync" if params.get("mode") == "sync" else "async"
            if (refused := self._rate_limited(bucket)) is not None:
                reply(refused)
            elif bucket == "sync":
                self._enrich_sync(body["lead"], request, reply)
            else:
                self._enrich_async(body["lead"], request, reply)
            return
        if (refused := self._rate_limited("sync")) is not None:
            reply(refused)
        elif path.startswith("/jobs/"):
            job = self.jobs.get(path.removeprefix("/jobs/"))
            reply(
                Answer(200, self._job_body(job))
                if job is not None and not self._forgotten(job)
                else Answer(404, {"detail": "job not found"})
            )
        elif path.startswith("/leads/"):
            lead_id = path.removeprefix("/leads/")
            record = next((r for r in self.records if r.id == lead_id), None)
            reply(
                Answer(200, self._lead_out(record, deduped=False))
                if record is not None
                else Answer(404, {"detail": "lead not found"})
            )
        elif path == "/leads":
            limit = int(params.get("limit", 50))
            cap, bound = self.settings.page_cap, self.settings.page_bound
            if cap is not None and bound == "reject" and limit > cap:
                reply(Answer(422, {"detail": [_too_large("limit", cap)]}))
            else:
                reply(Answer(200, self._page(limit, int(params.get("skip", 0)))))
        elif path == "/usage":
            reply(Answer(200, self._usage()))
        else:
            raise AssertionError(f"the model does not serve {method} {path}")

    def _forgotten(self, job: Job) -> bool:
        retention = self.settings.job_retention
        return (
            retention is not None and job.finished is not None and self.world.now > job.finished + retention
        )

    def _rate_limited(self, bucket: str) -> Answer | None:
        window = self._windows[bucket]
        limit = 60 if bucket == "sync" else 600
        now = self.world.now
        while window and window[0] <= now - 60.0:
            window.popleft()
        if len(window) >= limit:
            wait = max(1, math.ceil(window[0] + 60.0 - now))
            detail = f"rate limit exceeded ({limit} req/min), retry in {wait} seconds"
            return Answer(429, {"detail": detail}, {"Retry-After": str(wait)})
        window.append(now)
        return None

    def _upstream_full(self) -> Answer:
        return Answer(
            429,
            {"detail": "upstream_full: all 5 enrichment slots are busy; retry in a few seconds"},
            {"Retry-After": "2"},
        )

    def _quota_left(self) -> bool:
        quota = self.settings.quota
        return quota is None or self.used < quota

    def _stored_with_email(self, email: str | None) -> Record | None:
        wanted = self._email_key(email)
        if wanted is None:
            return None
        for record in self.records:
            if self._email_key(record.input.get("email")) == wanted:
                return record
        return None

    def _email_key(self, email: str | None) -> str | None:
        if not email or not email.strip():
            return None
        return email.strip().lower() if self.settings.dedupe_emails == "ignore_case" else email

    def _enrich_sync(self, lead: dict[str, Any], request: int, reply: Callable[[Answer], None]) -> None:
        stored = self._stored_with_email(lead.get("email"))
        if stored is not None:
            reply(Answer(200, self._lead_out(stored, deduped=True)))
            return
        if (first := self._in_flight(lead)) is not None:
            first.followers.append(lambda: self._enrich_sync(lead, request, reply))
            return
        if not self._quota_left():
            reply(Answer(402, {"detail": "monthly quota reached: buy a credit pack"}))
            return
        if len(self._running) >= 5:
            reply(self._upstream_full())
            return

        def done(record: Record | None) -> None:
            if record is None:
                reply(
                    Answer(
                        self.settings.sync_failure,
                        {"detail": "enrichment_failed: no company data; the credit was refunded"},
                    )
                )
            else:
                reply(Answer(200, self._lead_out(record, deduped=False)))

        run = self._admit(lead, self._new_id("ld"), request, done)
        self._start(run)

    def _enrich_async(self, lead: dict[str, Any], request: int, reply: Callable[[Answer], None]) -> None:
        now = self.world.now
        stored = self._stored_with_email(lead.get("email"))
        if stored is None and not self._quota_left():
            reply(Answer(402, {"detail": "monthly quota reached: buy a credit pack"}))
            return
        if stored is None and self.settings.job_admission == "upstream_full" and len(self._running) >= 5:
            reply(self._upstream_full())
            return
        job = Job(self._new_id("job"), lead_key(lead), request, "queued", now)
        self.jobs[job.id] = job
        reply(Answer(202, {"job_id": job.id, "status": "queued"}))
        if stored is None and self.settings.fail_fast and lead["domain"] in self.failing:
            job.status, job.finished = "failed", now
            job.error = {"code": "enrichment_failed", "refunded": False}
            return
        if stored is not None:
            job.status, job.started, job.finished = "done", now, now
            job.result = self._lead_out(stored, deduped=True)
            return
        self._job_admit(job, lead)

    def _job_admit(self, job: Job, lead: dict[str, Any]) -> None:
        if job.status != "queued":
            return
        if (first := self._in_flight(lead)) is not None:
            first.followers.append(lambda: self._job_follow(job, lead))
            return

        def done(record: Record | None) -> None:
            job.finished = self.world.now
            if record is None:
                job.status = "failed"
                job.error = {"code": "enrichment_failed", "refunded": True}
            else:
                job.status, job.result = "done", self._lead_out(record, deduped=False)

        run = self._admit(lead, self._new_id("ld"), job.request, done)
        run.job = job
        if self.settings.job_admission == "upstream_full":
            self._start(run)
        else:
            self.world.after(self.settings.queued_seconds, lambda: self._enqueue(run))

    def _job_follow(self, job: Job, lead: dict[str, Any]) -> None:
        """A job that waited for a run with its email: deduped if that one was stored."""
        stored = self._stored_with_email(lead.get("email"))
        if stored is not None:
            job.status, job.started, job.finished = "done", self.world.now, self.world.now
            job.result = self._lead_out(stored, deduped=True)
        elif not self._quota_left():
            job.status, job.finished = "failed", self.world.now
            job.error = {"code": "quota_exceeded", "refunded": False}
        else:
            self._job_admit(job, lead)

    def _in_flight(self, lead: dict[str, Any]) -> _Run | None:
        if self.settings.same_email_in_flight != "dedupe":
            return None
        email = self._email_key(lead.get("email"))
        return self._emails.get(email) if email is not None else None

    def _admit(
        self, lead: dict[str, Any], ref: str, request: int, done: Callable[[Record | None], None]
    ) -> _Run:
        key = lead_key(lead)
        email = self._email_key(lead.get("email"))
        low, high = self.settings.durations
        seconds = low + (high - low) * _fraction(key)
        run = _Run(ref, lead, key, email, request, lead["domain"] in self.failing, seconds, done)
        self._charge(run, 1)
        if email is not None:
            self._emails.setdefault(email, run)
        return run

    def _charge(self, run: _Run, amount: int) -> None:
        self.used += amount
        self.charges.append(Charge(run.key, run.ref, run.request, amount, self.world.now, run.email))

    def _enqueue(self, run: _Run) -> None:
        self._queue.append(run)
        self._admit_queued()

    def _admit_queued(self) -> None:
        tick = self.settings.dispatch_tick
        if tick is None:
            self._dispatch()
        elif not self._ticking and self._queue:
            self._ticking = True
            self.world.at(math.floor(self.world.now / tick + 1.0) * tick, self._on_tick)

    def _on_tick(self) -> None:
        self._ticking = False
        self._dispatch()
        if self._queue and len(self._running) >= 5:
            return  # the next slot to free schedules the next tick
        if self._queue:
            self._admit_queued()

    def _dispatch(self) -> None:
        # Oldest first: a job created earlier starts before any created later.
        while self._queue and len(self._running) < 5:
            self._start(self._queue.popleft())

    def _start(self, run: _Run) -> None:
        self._running[run.ref] = run
        if run.job is not None:
            run.job.status, run.job.started = "running", self.world.now
        self.world.after(run.seconds, lambda: self._finish(run))

    def _finish(self, run: _Run) -> None:
        del self._running[run.ref]
        if run.other:
            self._admit_queued()
            return
        if run.email is not None and self._emails.get(run.email) is run:
            del self._emails[run.email]
        if run.fails:
            self._charge(run, -1)
            record = None
        else:
            record = Record(run.ref, run.lead, self.world.now, run.key)
            self.records.append(record)
        run.done(record)
        for follower in run.followers:
            follower()
        self._admit_queued()

    # What the service writes.

    def stamp(self, true_time: float) -> str | None:
        moment = EPOCH + timedelta(seconds=true_time + self.settings.clock_offset)
        style = self.settings.stamps
        if style == "none":
            return None
        if style == "offset":
            return moment.astimezone(timezone(timedelta(hours=2))).isoformat()
        if style == "naive_local":
            return moment.astimezone(timezone(timedelta(hours=-5))).replace(tzinfo=None).isoformat()
        if style == "whole_seconds":
            return moment.replace(microsecond=0).isoformat()
        if style == "whole_minutes":
            return moment.replace(second=0, microsecond=0).isoformat()
        if style == "two_nodes":
            node = hashlib.sha256(repr(true_time).encode()).digest()[0] & 1
            return (moment + timedelta(seconds=6.0 * node - 3.0)).isoformat()
        if style == "jittered":
            node = int(hashlib.sha256(repr(true_time).encode()).hexdigest()[:4], 16) / 0xFFFF
            return (moment + timedelta(seconds=6.0 * node - 3.0)).isoformat()
        return moment.isoformat()

    def http_date(self) -> str:
        """The `Date` header of an answer given now: the service's clock, to the second."""
        settings = self.settings
        since = timedelta(seconds=self.world.now + settings.clock_offset + settings.date_offset)
        second = (since.days, since.seconds)
        if second != self._date_second:
            moment = EPOCH + since
            self._date_second = second
            self._date = format_datetime(moment.replace(microsecond=0), usegmt=True)
        return self._date

    def _lead_out(self, record: Record, *, deduped: bool) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": record.id,
            "input": record.input,
            "enrichment": ENRICHMENT,
            "deduped": deduped,
        }
        if (created := self.stamp(record.created)) is not None:
            out["created_at"] = created
        return out

    def _json(self, key: tuple[str, ...], make: Callable[[], dict[str, Any]]) -> str:
        """What `make` returns, as `json.dumps` writes it, written once per `key`: the
        listing's records and the jobs are read again and again, unchanged."""
        text = self._written.get(key)
        if text is None:
            text = self._written[key] = json.dumps(make())
        return text

    def _job_body(self, job: Job) -> bytes:
        # A job changes only as its status does, and is polled many times in each.
        return self._json(("job", job.id, job.status), lambda: self._job_out(job)).encode()

    def _job_out(self, job: Job) -> dict[str, Any]:
        out: dict[str, Any] = {
            "job_id": job.id,
            "status": job.status,
            "kind": "lead.enrich",
            "result": job.result,
            "error": job.error,
        }
        for name, moment in (
            ("created_at", job.created),
            ("started_at", job.started),
            ("finished_at", job.finished),
        ):
            if moment is not None:
                out[name] = self.stamp(moment)
        return out

    def _page(self, limit: int, skip: int) -> bytes:
        """A page of the listing, as the JSON `json.dumps` writes."""
        if self.settings.page_cap is not None:
            limit = min(limit, self.settings.page_cap)
        records = self.records if self.settings.list_order == "oldest_first" else self.records[::-1]
        items = ", ".join(
            self._json(("lead", r.id), partial(self._lead_out, r, deduped=False))
            for r in records[skip : skip + limit]
        )
        page = f'{{"items": [{items}], "total": {len(records)}, "limit": {limit}, "skip": {skip}}}'
        return page.encode()

    def _usage(self) -> dict[str, Any]:
        quota = self.settings.quota
        return {
            "tier": "growth",
            "monthly_leads": {
                "included": quota,
                "credits_added": 0,
                "effective_limit": quota,
                "used": self.used,
            },
            "mobile_credits": {"purchased": 0, "used": 0, "balance": 0},
            "api_calls_this_month": {"total": 0, "this_key": 0},
        }

    def _new_id(self, prefix: str) -> str:
        self._ids += 1
        return f"{prefix}_{self._ids}"

    # The books.

    def net_charges(self) -> dict[str, int]:
        """Credits the runs' requests kept per lead (fingerprint): taken at admission, given
        back on failure (another program's are the user's own spending, not the runs')."""
        net: dict[str, int] = {}
        for charge in self.charges:
            if charge.request != WRITER:
                net[charge.key] = net.get(charge.key, 0) + charge.amount
        return net

    def kept_by_request(self) -> dict[int, int]:
        """Credits kept per request that caused them."""
        kept: dict[int, int] = {}
        for charge in self.charges:
            kept[charge.request] = kept.get(charge.request, 0) + charge.amount
        return kept


_KEYS: dict[tuple[tuple[str, Any], ...], str] = {}


def lead_key(lead: dict[str, Any]) -> str:
    """The SDK's fingerprint of a lead as the service received it (remembered: the same
    few leads come back in every request of a schedule)."""
    seen = tuple(sorted(lead.items()))
    key = _KEYS.get(seen)
    if key is None:
        key = _KEYS[seen] = fingerprint(LeadIn.model_validate(lead))
    return key


def _too_large(name: str, most: int) -> dict[str, Any]:
    return {
        "loc": ["query", name],
        "msg": f"Input should be less than or equal to {most}",
        "type": "less_than_equal",
    }


def _fraction(key: str) -> float:
    return int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF


def parse_body(body: bytes | None) -> Any:
    return json.loads(body) if body else None
