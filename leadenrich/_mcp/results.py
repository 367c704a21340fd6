"""What the tools return: the SDK's models, with what each call cost beside them.

Each becomes a tool's output schema (structured output), so an agent reads fields, not
prose; the `credits` of every charging tool says what the call charged and what the
server's cap has left.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from leadenrich import EmailFindOut, JobOut, LeadOut, MobileFindOut, UsageOut

__all__ = [
    "BatchOutcome",
    "BatchReport",
    "CapReport",
    "CreditReport",
    "EmailReport",
    "JobReport",
    "LeadList",
    "MobileReport",
    "PreviewReport",
    "PreviewRowReport",
    "UsageReport",
]


class CapReport(BaseModel):
    """The server's spending cap: what it allows, has seen spent and holds."""

    max_credits: int | None = Field(description="Credits this server may charge in its life; null: no cap.")
    spent: int = Field(description="Credits its calls charged so far.")
    held: int = Field(description="Credits held for jobs and lookups not settled yet.")
    left: int | None = Field(description="Credits a new call may still charge; null: no cap.")


class CreditReport(BaseModel):
    """What one call charged."""

    charged: int = Field(description="Credits this call charged (0: free, deduped or resumed).")
    held: int = Field(description="Credits held for this call's work until it is known whether it charges.")
    note: str = Field(description="Why: what the answer said about the charge.")
    cap: CapReport


class JobReport(BaseModel):
    """An enrichment job, its lead once done, and what it cost."""

    job: JobOut
    credits: CreditReport


class EmailReport(BaseModel):
    """A work-email search and what it cost."""

    result: EmailFindOut
    credits: CreditReport


class MobileReport(BaseModel):
    """A mobile-number lookup and what it cost."""

    lookup: MobileFindOut
    credits: CreditReport


class LeadList(BaseModel):
    """One page of the account's stored leads."""

    items: list[LeadOut]
    skip: int = Field(description="Leads skipped before this page.")
    has_more: bool = Field(description="True when a call with skip + limit may return more.")


class UsageReport(BaseModel):
    """The account's quota and credits, and the server's own cap."""

    usage: UsageOut
    cap: CapReport


class PreviewRowReport(BaseModel):
    """What a batch would do with one lead."""

    index: int
    status: Literal["invalid", "duplicate", "checkpoint", "stored", "new"] = Field(
        description=(
            "new: enriched, one credit at most; stored: the account has its email, returned free; "
            "duplicate: repeats an earlier row, free; checkpoint: done by an earlier batch, free; "
            "invalid: refused before sending, free."
        )
    )
    may_charge: bool
    error: str | None = None


class PreviewReport(BaseModel):
    """What enrich_leads would charge for a batch, found without charging anything."""

    rows: list[PreviewRowReport]
    credits_at_most: int = Field(description="The most the batch can charge: one per new lead.")
    account_credits_left: int | None = Field(description="Enrichment credits the account has left.")
    cap: CapReport
    summary: str


class BatchOutcome(BaseModel):
    """What happened to one lead of a batch."""

    index: int
    status: Literal["enriched", "deduped", "failed", "skipped"]
    lead: LeadOut | None = None
    error: str | None = None
    charged: bool = Field(description="This batch spent a credit on the lead.")
    maybe_charged: bool = Field(
        description="The answer was lost: the service may have charged it (counted against the cap)."
    )
    resumed: bool = Field(
        description="Taken from an earlier call of the same batch or the stored leads: free."
    )


class BatchReport(BaseModel):
    """A batch enrichment's outcomes, in input order, and what it cost."""

    outcomes: list[BatchOutcome]
    credits: CreditReport
