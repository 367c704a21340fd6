"""The tools: one function per thing an agent does, each on the async client.

A charging tool holds its credits on the cap before its request leaves, and settles them
from the answer (`charges.py`); a tool that only reads charges nothing. Every failure is
a tool error with the SDK's message and what to do (`errors.py`), never a crash.
"""

from __future__ import annotations

from typing import Annotated, Any, cast

from mcp.server.mcpserver import Context
from pydantic import Field

from leadenrich import (
    BulkResult,
    EmailFindIn,
    JobOut,
    LeadEnrichError,
    LeadIn,
    LeadOut,
    MobileFindIn,
    MobileFindOut,
    PersonQuery,
    PollTimeoutError,
)

from .approval import BatchApproval, EmailApproval, EnrichApproval, MobileApproval, require
from .cap import Hold
from .charges import email_charge, job_charge, job_note, mobile_charge, mobile_note
from .results import (
    BatchOutcome,
    BatchReport,
    CreditReport,
    EmailReport,
    JobReport,
    LeadList,
    MobileReport,
    PreviewReport,
    PreviewRowReport,
    UsageReport,
)
from .state import ServerState, state_of

__all__ = [
    "enrich_lead",
    "enrich_leads",
    "find_email",
    "find_mobile",
    "get_job",
    "get_lead",
    "get_mobile_lookup",
    "get_usage",
    "list_leads",
    "preview_batch",
]

MAX_BATCH = 25
"""The most leads one enrich_leads call takes: a batch an agent can follow, five at a time."""

Ctx = Context[ServerState, Any]
WaitSeconds = Annotated[
    float,
    Field(
        ge=0,
        le=600,
        description="How long to wait for the end, in seconds (0: answer at once with the current state).",
    ),
]
Batch = Annotated[list[LeadIn], Field(min_length=1, max_length=MAX_BATCH)]


async def enrich_lead(
    lead: LeadIn, ctx: Ctx, approval: EnrichApproval, wait_seconds: WaitSeconds = 60
) -> JobReport:
    require(approval)
    state = state_of(ctx)
    hold = state.hold(1, "enrich_lead")
    try:
        created = await state.client.leads.enrich(lead)
    except LeadEnrichError as exc:
        raise state.failure(exc, hold) from None
    # The job has an id from here on: its credit settles when it is seen to end, now or later.
    state.cap.keep(created.job_id, hold)
    return await _job_report(state, created.job_id, wait_seconds, started=True)


async def get_job(
    job_id: Annotated[str, Field(min_length=1, description="The job_id enrich_lead returned.")],
    ctx: Ctx,
    wait_seconds: WaitSeconds = 0,
) -> JobReport:
    return await _job_report(state_of(ctx), job_id, wait_seconds)


async def _job_report(
    state: ServerState, job_id: str, wait_seconds: float, *, started: bool = False
) -> JobReport:
    jobs = state.client.jobs
    try:
        job = await (jobs.wait(job_id, timeout=wait_seconds) if wait_seconds > 0 else jobs.get(job_id))
    except PollTimeoutError as exc:
        job = exc.last if isinstance(exc.last, JobOut) else await jobs.get(job_id)
    except LeadEnrichError as exc:
        raise state.failure(exc, started=_started("job", job_id, "get_job") if started else None) from None
    return JobReport(job=job, credits=_settle(state, job_id, job_charge(job), job_note(job)))


def _settle(state: ServerState, key: str, charge: int | None, note: str) -> CreditReport:
    """What a look at a job or lookup (`key`) charged: its open hold settled once it has
    ended (`charge`), still held while it runs; free for anything else."""
    if charge is None:
        return state.credits(0, 1 if state.cap.is_open(key) else 0, note)
    hold = state.cap.take(key)
    if hold is None:
        return state.credits(
            0, 0, f"looking is free (what this server starts is counted once, when first seen to end); {note}"
        )
    state.cap.settle(hold, charge)
    return state.credits(charge, 0, note)


async def find_email(person: EmailFindIn, ctx: Ctx, approval: EmailApproval) -> EmailReport:
    require(approval)
    state = state_of(ctx)
    hold = state.hold(1, "find_email")
    try:
        found = await state.client.email.find(**_query(person))
    except LeadEnrichError as exc:
        raise state.failure(exc, hold) from None
    charged = email_charge(found)
    state.cap.settle(hold, charged)
    note = "found: one enrichment credit charged" if charged else "not found: nothing charged"
    return EmailReport(result=found, credits=state.credits(charged, 0, note))


async def find_mobile(
    person: MobileFindIn, ctx: Ctx, approval: MobileApproval, wait_seconds: WaitSeconds = 60
) -> MobileReport:
    require(approval)
    state = state_of(ctx)
    hold = state.hold(1, "find_mobile")
    try:
        pending = await state.client.mobile.find(**_query(person))
    except LeadEnrichError as exc:
        raise state.failure(exc, hold) from None
    state.cap.keep(pending.lookup_id, hold)
    return await _lookup_report(state, pending.lookup_id, wait_seconds, started=True)


async def get_mobile_lookup(
    lookup_id: Annotated[str, Field(min_length=1, description="The lookup_id find_mobile returned.")],
    ctx: Ctx,
    wait_seconds: WaitSeconds = 0,
) -> MobileReport:
    return await _lookup_report(state_of(ctx), lookup_id, wait_seconds)


async def _lookup_report(
    state: ServerState, lookup_id: str, wait_seconds: float, *, started: bool = False
) -> MobileReport:
    mobile = state.client.mobile
    try:
        if wait_seconds > 0:
            lookup = await mobile.wait(lookup_id, timeout=wait_seconds)
        else:
            lookup = await mobile.get(lookup_id)
    except PollTimeoutError as exc:
        lookup = exc.last if isinstance(exc.last, MobileFindOut) else await mobile.get(lookup_id)
    except LeadEnrichError as exc:
        lost = _started("lookup", lookup_id, "get_mobile_lookup") if started else None
        raise state.failure(exc, started=lost) from None
    return MobileReport(
        lookup=lookup, credits=_settle(state, lookup_id, mobile_charge(lookup), mobile_note(lookup))
    )


def _started(what: str, key: str, follow: str) -> str:
    return (
        f"the {what} {key} was started and its credit stays held against the server's cap until "
        f"it is seen to end: call {follow} with it to follow it"
    )


def _query(person: EmailFindIn | MobileFindIn) -> PersonQuery:
    return cast("PersonQuery", person.model_dump(exclude_none=True))


async def get_lead(
    lead_id: Annotated[str, Field(min_length=1, description="A stored lead's id (LeadOut.id).")], ctx: Ctx
) -> LeadOut:
    state = state_of(ctx)
    try:
        return await state.client.leads.get(lead_id)
    except LeadEnrichError as exc:
        raise state.failure(exc) from None


async def list_leads(
    ctx: Ctx,
    limit: Annotated[int, Field(ge=1, le=100, description="Leads per page.")] = 20,
    skip: Annotated[int, Field(ge=0, description="Leads to skip first.")] = 0,
) -> LeadList:
    state = state_of(ctx)
    try:
        page = await state.client.leads.list(limit=limit, skip=skip)
    except LeadEnrichError as exc:
        raise state.failure(exc) from None
    return LeadList(items=page.items, skip=skip, has_more=page.has_next_page())


async def get_usage(ctx: Ctx) -> UsageReport:
    state = state_of(ctx)
    try:
        usage = await state.client.usage()
    except LeadEnrichError as exc:
        raise state.failure(exc) from None
    return UsageReport(usage=usage, cap=state.cap_report())


async def preview_batch(leads: Batch, ctx: Ctx) -> PreviewReport:
    state = state_of(ctx)
    try:
        preview = await state.client.leads.preview_many(leads, checkpoint=state.checkpoint_for(leads))
    except LeadEnrichError as exc:
        raise state.failure(exc) from None
    rows = [
        PreviewRowReport(
            index=row.index,
            status=row.status,
            may_charge=row.may_charge,
            error=None if row.error is None else str(row.error),
        )
        for row in preview.rows
    ]
    return PreviewReport(
        rows=rows,
        credits_at_most=preview.credits_at_most,
        account_credits_left=preview.credits_left,
        cap=state.cap_report(),
        summary=preview.summary(),
    )


async def enrich_leads(leads: Batch, ctx: Ctx, approval: BatchApproval) -> BatchReport:
    require(approval)
    state = state_of(ctx)
    # As many credits as the cap has left, up to one a lead: the run starts no lead past
    # them (max_credits), and the rest are reported skipped.
    hold = state.cap.hold_up_to(len(leads), "enrich_leads")
    try:
        result = await state.client.leads.enrich_many(
            leads, max_credits=hold.credits, checkpoint=state.checkpoint_for(leads)
        )
    except LeadEnrichError as exc:
        raise state.failure(exc, hold) from None
    outcomes = [
        BatchOutcome(
            index=outcome.index,
            status=outcome.status,
            lead=outcome.lead,
            error=None if outcome.error is None else str(outcome.error),
            charged=outcome.charged,
            maybe_charged=outcome.maybe_charged,
            resumed=outcome.resumed,
        )
        for outcome in result
    ]
    charged = sum(outcome.charged for outcome in result)
    maybe = sum(outcome.maybe_charged for outcome in result)
    state.cap.settle(hold, charged + maybe)
    return BatchReport(
        outcomes=outcomes, credits=state.credits(charged, 0, _batch_note(result, hold, charged, maybe))
    )


def _batch_note(result: BulkResult, hold: Hold, charged: int, maybe: int) -> str:
    parts = [f"{charged} charged"]
    free = [
        ("deduped (stored records, free)", result.deduped),
        ("resumed from an earlier call of this batch or the stored leads (free)", result.resumed),
        ("failed", result.failed),
    ]
    parts += [f"{count} {label}" for label, count in free if count]
    if maybe:
        parts.append(f"{maybe} whose answer was lost (counted against the cap: they may have been charged)")
    skipped = result.skipped
    if skipped:
        parts.append(
            f"{skipped} skipped: the server's cap allowed {hold.credits} credits for this batch; "
            "calling again with the same leads resumes free and enriches the rest if the cap allows"
        )
    return "; ".join(parts)
