"""What every schedule must leave true, checked against the model service's books.

- `charged_twice`: no lead (rows of one fingerprint) is paid for more than once, nor
  leads of one email (the service dedupes them: only the first stored is paid for).
- `paid_lead_lost`: every lead the service kept a credit for ends, in the last run, with
  the record that credit paid for (the last run comes after an hour of quiet and meets no
  fault: whatever an earlier run reported `maybe_charged` must be found by then), or
  `maybe_charged` when the lead has two records no reader can tell apart (`_tied`).
- `paid_lead_sent_again`: no run sends a lead again once the service kept a credit for a
  run's earlier request for it (a lead left maybe charged is looked up, never sent
  again on a guess: only the service's dedupe by email would keep that free).
- `sent_after_stop`: no enrichment request leaves after the user stopped the run.
- `checkpoint_disagrees`: every lead the checkpoint calls done has a record the service
  stored for it (or returned it, deduped), and every job it names is that lead's job.
- `credits_misreported`: a run that went to its end reports as charged no more than the
  service kept for its requests, and flags the rest `maybe_charged`.
- `over_max_credits`, `over_preview`: a run's requests never cost more than its
  `max_credits` (or, with "auto", what the account had left), nor more than the preview
  made just before it said at most.
- `run_failed`: a run the user did not stop ended with every row's outcome, raised
  nothing, and left no task behind; `unreadable_checkpoint`: the next run can read it.
- `lead_unsettled` (liveness): once the faults stop, every lead ends: the last run leaves
  none `maybe_charged`, but for two records no reader can tell apart (`_tied`), for an
  older record of the very same lead that only a `Date` header rules out (`_older_twin`),
  and for a
  job creation the service never took in while nothing of the last run ran through the
  platform's slots after it (nothing the client can see shows the queue moved past it:
  the spec bounds no job's wait, so only a later enrichment that ran proves it never will);
  and no lead is kept back for a lead of its email left maybe charged, but behind one of
  those.
- `resumed_under_another_account`: a run reports a lead enriched with a record its own
  account does not hold (a checkpoint carried to another account's key).

Another program on the account (`Schedule.writer`, not a run of this checkpoint) may
enrich some of the same leads during a schedule. Its charges are the user's own spending,
not the runs': the books above count only the runs' requests (a lead paid once by it and
once by a run is not charged twice by the run: the service dedupes by email alone, and
without an email it stores a second record, which no run can avoid, since nothing but
sending tells a run the service has the lead). Its records are the runs' business only
as candidates for a lost lead's own: a record it stored after (or within the plan's
margin before) a run's first request for the lead left cannot be told from the one that
request stored (the run's request was charged, or deduped against it), so a run may end
the lead with it and count it charged or not (`_written_after`, `_taken_from_writer`);
one it stored surely before is the plan's to rule out by the stamps, and taking it is a
`credits_misreported` (the run's request was deduped, free) or a `paid_lead_lost`.
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise

from leadenrich._bulk.checkpoint import Resume
from leadenrich._bulk.inputs import read_items
from leadenrich._bulk.results import BulkOutcome
from leadenrich._errors import LeadEnrichError

from .clock import EPOCH
from .harness import Observed, World_
from .network import Sent
from .service import WRITER, Record

__all__ = ["Violation", "check"]


@dataclass(frozen=True)
class Violation:
    name: str
    detail: str

    def __str__(self) -> str:
        return f"{self.name}: {self.detail}"


def check(sim: World_) -> list[Violation]:
    found: list[Violation] = []
    items = read_items([row.given() for row in sim.schedule.rows])
    rows_of: dict[str, list[int]] = {}
    for item in items:
        if item.invalid is None:
            rows_of.setdefault(item.key, []).append(item.index)
    service = sim.service
    # One lead paid on two accounts is paid twice.
    net: dict[str, int] = {}
    for account in sim.network.accounts.values():
        for key, paid in account.net_charges().items():
            net[key] = net.get(key, 0) + paid
    for key, paid in net.items():
        if paid > 1:
            charges = [c for account in sim.network.accounts.values() for c in account.charges]
            requests = sorted({c.request for c in charges if c.key == key and c.amount > 0})
            found.append(
                Violation("charged_twice", f"rows {rows_of.get(key)} paid {paid} times (requests {requests})")
            )
    found += _email_paid_twice(sim, rows_of)
    found += _paid_sent_again(sim, rows_of)
    last = sim.runs[-1]
    by_row = {o.index: o for o in last.outcomes}
    charged_refs = {c.ref for c in service.charges if c.amount > 0 and c.request != WRITER}
    for key, paid in net.items():
        if paid < 1 or key not in rows_of:
            continue
        kept = [r.id for r in service.records if r.key == key and r.id in charged_refs]
        outcome = by_row.get(rows_of[key][0])
        got = outcome.lead.id if outcome is not None and outcome.lead is not None else None
        if (
            got not in kept
            and not (outcome is not None and outcome.maybe_charged and _tied(sim, key))
            and not _written_after(sim, key, got)
        ):
            said = (
                "no outcome"
                if outcome is None
                else f"{outcome.status} {got or ''} {outcome.error or ''}".strip()
            )
            found.append(
                Violation(
                    "paid_lead_lost", f"row {rows_of[key][0]} paid for {kept}, the last run says: {said}"
                )
            )
    found += _unsettled(sim, rows_of, by_row)
    kept_by_request = service.kept_by_request()
    records = {r.id: r for r in service.records}
    for observed in sim.runs:
        found += _run_checks(sim, observed, rows_of, len(items), kept_by_request, records)
    return found


def _email_paid_twice(sim: World_, rows_of: dict[str, list[int]]) -> list[Violation]:
    """Leads of one email (as the service compares them) that one account paid for more
    than once: the service dedupes an email against its stored leads, so the run that
    sends them one after the other pays for the first stored and gets the others free.
    A run by 1.1 could pay twice so on its own (a lead it left maybe charged let go of its
    email): that is 1.1's bug, not this plan's, unless a later run paid for one more."""
    found: list[Violation] = []
    for account in sim.network.accounts.values():
        kept = account.kept_by_request()
        paid: dict[str, int] = {}
        keys: dict[str, set[str]] = {}
        by_this_plan: set[str] = set()
        for charge in account.charges:
            if charge.email is not None and charge.request >= 0:
                paid[charge.email] = paid.get(charge.email, 0) + charge.amount
                keys.setdefault(charge.email, set()).add(charge.key)
                run = sim.runs[sim.network.sent[charge.request].process]
                if kept.get(charge.request, 0) > 0 and not run.spec.by_1_1:
                    by_this_plan.add(charge.email)
        for email, credits in paid.items():
            if credits > 1 and len(keys[email]) > 1 and email in by_this_plan:
                rows = sorted(row for key in keys[email] for row in rows_of.get(key, []))
                found.append(
                    Violation("charged_twice", f"rows {rows} share an email and were paid {credits} times")
                )
    return found


def _paid_sent_again(sim: World_, rows_of: dict[str, list[int]]) -> list[Violation]:
    """Enrichment requests for a lead that left after the service charged a run's earlier
    request for it, a credit it kept: a lead a run paid for is found, never sent again
    (sent again, it is free only when it has an email the service dedupes it by)."""
    found: list[Violation] = []
    for name, account in sim.network.accounts.items():
        kept = account.kept_by_request()
        paid: dict[str, float] = {}
        for charge in account.charges:
            if charge.amount > 0 and charge.request >= 0 and kept.get(charge.request, 0) > 0:
                paid[charge.key] = min(paid.get(charge.key, charge.at), charge.at)
        for s in sim.network.sent:
            if (
                s.method == "POST"
                and s.key in paid
                and s.at > paid[s.key]
                and sim.runs[s.process].process.account == name
            ):
                found.append(
                    Violation(
                        "paid_lead_sent_again",
                        f"rows {rows_of.get(s.key)} sent again (request #{s.number} at {s.at:.3f} s, "
                        f"run {s.process + 1}) after the service kept a credit for them at {paid[s.key]:.3f} s",
                    )
                )
    return found


def _run_checks(
    sim: World_,
    observed: Observed,
    rows_of: dict[str, list[int]],
    rows: int,
    kept_by_request: dict[int, int],
    records: dict[str, Record],
) -> list[Violation]:
    found: list[Violation] = []
    process, name = observed.process, f"run {observed.process.index + 1}"
    sent = [s for s in sim.network.sent if s.process == process.index]
    if process.stop_iteration is not None:
        # Leaving the loop stops the run where it is; a cancellation reaches the run's
        # tasks on the loop's next turn, so what they send in that turn is not late.
        grace = 0 if observed.spec.stop is not None and observed.spec.stop.kind.startswith("break") else 1
        late = [s for s in sent if s.method == "POST" and s.iteration > process.stop_iteration + grace]
        if late:
            found.append(
                Violation(
                    "sent_after_stop",
                    f"{name} was stopped at {_when(sim, process)}; then sent request(s) "
                    + ", ".join(f"#{s.number} at {s.at:.3f} s" for s in late),
                )
            )
    kept = sum(kept_by_request.get(s.number, 0) for s in sent)
    spec = observed.spec
    held = {r.id for r in sim.network.account(process.account).records}
    foreign = [o.index for o in observed.outcomes if o.lead is not None and o.lead.id not in held]
    if foreign:
        found.append(
            Violation(
                "resumed_under_another_account",
                f"{name} reports rows {foreign} with records its account ({process.account}) does not hold",
            )
        )
    if spec.max_credits is not None:
        limit = _auto_budget(observed, sent) if spec.max_credits == "auto" else spec.max_credits
        if limit is not None and kept > limit:
            found.append(
                Violation(
                    "over_max_credits",
                    f"{name} kept {kept} credits, max_credits={spec.max_credits} ({limit})",
                )
            )
    if observed.preview is not None and kept > observed.preview.credits_at_most:
        found.append(
            Violation(
                "over_preview",
                f"{name} kept {kept} credits, its preview said at most {observed.preview.credits_at_most}",
            )
        )
    if observed.completed:
        charged = sum(o.charged for o in observed.outcomes)
        maybe = sum(o.maybe_charged for o in observed.outcomes)
        # A lead reported charged with an older record no reader could rule out (`_stale`)
        # was paid for only if the service kept a credit for the run's request for it
        # (stored later than the run looked), or else never.
        stale = _stale(sim, observed, sent, records)
        paid = {s.key for s in sent if s.key is not None and kept_by_request.get(s.number, 0) > 0}
        low = charged - len(stale) - _taken_from_writer(sim, observed)
        if not low <= kept <= charged - len(stale - paid) + maybe:
            found.append(
                Violation(
                    "credits_misreported",
                    f"{name} reports {charged} charged and {maybe} maybe charged; the service kept {kept}",
                )
            )
        indices = sorted(o.index for o in observed.outcomes)
        if indices != list(range(rows)):
            found.append(Violation("run_failed", f"{name} ended with outcomes for rows {indices}"))
    stopped = spec.stop is not None and (spec.stop.kind != "kill" or process.dead)
    # A run may refuse to start (the usage or the preview it needs could not be read):
    # the user gets the error, and nothing was sent.
    refused = isinstance(observed.raised, LeadEnrichError) and not any(s.method == "POST" for s in sent)
    if (
        not process.dead
        and observed.raised is not None
        and not refused
        and not (stopped and isinstance(observed.raised, (asyncio.CancelledError, KeyboardInterrupt)))
    ):
        found.append(Violation("run_failed", f"{name} raised {observed.raised!r}"))
    if not stopped and not observed.completed and not process.dead and observed.raised is None:
        found.append(Violation("run_failed", f"{name} did not end"))
    if observed.errors:
        found.append(Violation("run_failed", f"{name}: " + "; ".join(observed.errors)))
    if not isinstance(observed.checkpoint, Resume):
        found.append(Violation("unreadable_checkpoint", f"after {name}: {observed.checkpoint}"))
        return found
    for key, lead in observed.checkpoint.records.items():
        record = records.get(lead.id)
        if record is None or (record.key != key and not lead.deduped):
            found.append(
                Violation(
                    "checkpoint_disagrees",
                    f"after {name}: rows {rows_of.get(key)} done with {lead.id}, which the service did not store for them",
                )
            )
    for key, job_id in observed.checkpoint.jobs.items():
        job = sim.service.jobs.get(job_id)
        if job is None or job.key != key:
            found.append(
                Violation(
                    "checkpoint_disagrees",
                    f"after {name}: rows {rows_of.get(key)} have job {job_id}, not theirs",
                )
            )
    return found


# What the plan allows a stamp to be off, and its stamps to be apart, before it tells two
# records apart (leadenrich/_bulk/service_time.py): twice 3 s, and the stamps' resolution.
_MARGIN = 6.0
# The resolution of the stamps as written.
_RESOLUTION = {"whole_minutes": 60.0, "whole_seconds": 1.0}
# How far a record stored before a request can be from it and still pass for its own:
# the plan's margin, a jittered node's 3 s either way, a `Date` header's truncation to
# the second and the request's way there.
_JITTER = {"jittered": 6.0, "two_nodes": 6.0}


def _tied(sim: World_, key: str) -> bool:
    """Whether the lead has two records whose stamps, as the service wrote them, no reader
    can tell apart (none, or closer than the plan's margin): the plan then leaves the lead
    maybe charged rather than take one on a guess (docs/reliability.md, known limits)."""
    service = sim.service
    stamps = [service.stamp(r.created) for r in service.records if r.key == key]
    written = sorted(datetime.fromisoformat(stamp).timestamp() for stamp in stamps if stamp is not None)
    if len(written) < len(stamps):
        return len(stamps) > 1
    # The stamps as written (to the minute, jittered): what the plan reads.
    margin = _RESOLUTION.get(service.settings.stamps, 0.0) + _MARGIN
    return any(later - earlier <= margin for earlier, later in pairwise(written))


def _unsettled(sim: World_, rows_of: dict[str, list[int]], by_row: dict[int, BulkOutcome]) -> list[Violation]:
    """Leads the last run, with no fault, still left `maybe_charged`, where something could
    have settled them."""
    found: list[Violation] = []
    kept = sim.service.kept_by_request()
    queued_maybe = any(run.spec.strategy == "async" or run.spec.legacy for run in sim.runs[:-1])
    excused: set[str] = set()  # emails of leads left maybe charged that no client could settle
    for key, rows in rows_of.items():
        outcome = by_row.get(rows[0])
        if outcome is None or not outcome.maybe_charged:
            continue
        email = _email(sim, rows[0])
        if _tied(sim, key):
            excused.add(email)
            continue
        posts = [s for s in sim.network.sent if s.key == key and s.method == "POST"]
        if _older_twin(sim, key, posts):
            # A record of the very same lead stored before it was sent, which only a `Date`
            # header (a front end's clock) can tell from its own: not taken, not ruled out.
            excused.add(email)
            continue
        if queued_maybe and (not posts or kept.get(posts[-1].number, 0) <= 0):
            # Its last start may have been a job creation, which the service then made into
            # no record: never taken in, failed, or deduped. Nothing the client can see
            # tells that from a job still waiting in the queue, but a later job that ran.
            excused.add(email)
            continue
        found.append(
            Violation(
                "lead_unsettled", f"row {rows[0]} is left maybe charged by the last run: {outcome.error}"
            )
        )
    for index, outcome in by_row.items():
        # A lead kept back for a lead of its email left maybe charged ends with that one: it
        # waits only where that one's wait is excused.
        kept_back = outcome.status == "skipped" and "same email" in str(outcome.error)
        if kept_back and _email(sim, index) not in excused:
            found.append(
                Violation(
                    "lead_unsettled",
                    f"row {index} is kept back by the last run for a lead of its email: {outcome.error}",
                )
            )
    return found


def _auto_budget(observed: Observed, sent: list[Sent]) -> int | None:
    """What the account had left, as the service last told the run before its first
    enrichment left (a refund may come between the run's start and its reading)."""
    first = min((s.at for s in sent if s.method == "POST"), default=float("inf"))
    reads = [left for at, left in observed.process.credits_read if at <= first]
    return reads[-1] if reads else observed.credits_left


def _email(sim: World_, index: int) -> str:
    return (sim.schedule.rows[index].email or "").strip().lower()


def _older_twin(sim: World_, key: str, posts: list[Sent]) -> bool:
    """Whether the service holds a record of the lead's very input that no request of the
    schedule stored (the account had it before), while its last request found none of its
    own to store (failed, or never taken in)."""
    made = {c.ref for c in sim.service.charges if c.amount > 0 and c.request != WRITER}
    earlier = [r for r in sim.service.records if r.key == key and r.id not in made]
    kept = sim.service.kept_by_request()
    return bool(earlier) and bool(posts) and kept.get(posts[-1].number, 0) <= 0


def _stale(sim: World_, observed: Observed, sent: list[Sent], records: dict[str, Record]) -> set[str]:
    """The keys of the leads reported charged with a record the service stored before the
    run's first request for them, where no reader could know better: a record stored
    within the stamps' margin, and within what the run's freshest stamp lagged the
    service's clock by (`_lag`), before a lost request left passes for the one that
    request stored, and the plan takes it rather than pay again (docs/reliability.md).
    Stamps with no offset, none at all, or a `Date` header behind the stamps read the
    clock no closer, so any earlier record may pass (whether that request was stored
    later, paid for, or never). Every other lead reported charged must have been paid for
    by this run's requests."""
    window = _window(sim)
    written = _writers(sim)
    first_sent: dict[str, float] = {}
    for s in sent:
        if s.key is not None:
            first_sent.setdefault(s.key, s.at)
    stale: set[str] = set()
    for outcome, at in zip(observed.outcomes, observed.times, strict=True):
        lead = outcome.lead
        if outcome.charged and lead is not None and lead.id in records:
            record = records[lead.id]
            early = first_sent.get(record.key, float("inf")) - record.created
            if (
                early > 0
                and record.id not in written
                and (early <= window or early <= window + _lag(sim, observed, at))
            ):
                stale.add(record.key)
    return stale


_STAMP = re.compile(rb'"created_at": ?"([^"]+)"')


def _lag(sim: World_, observed: Observed, until: float) -> float:
    """How far behind the service's clock the run's freshest stamp was when it came, of
    the answers the run had by `until` (true seconds): every stamp is written no later
    than it is sent, so no reader of them knows the service's clock closer than that. A
    record of a lead stored that much before its lost request left reads, to any reader,
    as maybe stored after it."""
    offset = sim.service.settings.clock_offset
    lag = float("inf")
    for at, answer in observed.process.answered:
        if at > until:
            break
        body = answer.body
        if isinstance(body, str):
            body = body.encode()
        text = body if isinstance(body, bytes) else json.dumps(body).encode()
        for match in _STAMP.finditer(text):
            stamp = datetime.fromisoformat(match.group(1).decode())
            if stamp.tzinfo is not None:
                written = (stamp - EPOCH).total_seconds() - offset
                lag = min(lag, at - written)
    return lag


def _taken_from_writer(sim: World_, observed: Observed) -> int:
    """The leads the run reports charged with a record another program stored after (or
    within the plan's margin before) the run's first request for the lead left: the run's
    own request was charged, or deduped against that record; no reader can tell which."""
    keys = {r.id: r.key for r in sim.service.records}
    return sum(
        outcome.charged
        and outcome.lead is not None
        and _written_after(sim, keys.get(outcome.lead.id, ""), outcome.lead.id)
        for outcome in observed.outcomes
    )


def _written_after(sim: World_, key: str, got: str | None) -> bool:
    """Whether `got` is a record of the lead that another program stored after (or within
    the plan's margin before) the runs' first request for the lead left: no reader can
    tell it from the record that request paid for (see the module's text)."""
    record = next((r for r in sim.service.records if r.id == got), None)
    if record is None or record.id not in _writers(sim) or record.key != key:
        return False
    posts = [s.at for s in sim.network.sent if s.key == key and s.method == "POST"]
    return bool(posts) and record.created >= min(posts) - _window(sim)


def _writers(sim: World_) -> set[str]:
    """The records another program's requests stored (`Schedule.writer`)."""
    return {c.ref for c in sim.service.charges if c.request == WRITER and c.amount > 0}


def _window(sim: World_) -> float:
    """How long before a lost request left a record of its lead may have been stored and
    still pass for its own (see `_stale`)."""
    settings = sim.service.settings
    if settings.stamps in ("none", "naive_local") or settings.date_offset < 0:
        return float("inf")
    stamps = settings.stamps
    return _RESOLUTION.get(stamps, 0.0) + _MARGIN + _JITTER.get(stamps, 0.0) + 6.0


def _when(sim: World_, process: object) -> str:
    return f"loop iteration {getattr(process, 'stop_iteration', '?')}"
