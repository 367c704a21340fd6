"""What an answer charged, by the spec's credit rules, and the words that say so.

One enrichment credit per enrichment run, none for a deduped lead; an email search is
charged on a hit only, a mobile lookup only once it settles with a number. Where the spec
says nothing (a failed job), the credit counts as spent: the cap errs on the side of the
account. `None` means not known yet: the hold stays open.
"""

from __future__ import annotations

from leadenrich import (
    APIConnectionError,
    APIResponseValidationError,
    APIStatusError,
    EmailFindOut,
    InternalServerError,
    JobOut,
    LeadEnrichError,
    LeadOut,
    MobileFindOut,
)

__all__ = [
    "email_charge",
    "error_charge",
    "job_charge",
    "job_note",
    "lead_charge",
    "mobile_charge",
    "mobile_note",
]


def lead_charge(lead: LeadOut) -> int:
    return 0 if lead.deduped else 1


def job_charge(job: JobOut) -> int | None:
    if job.status == "done":
        return lead_charge(job.result) if job.result is not None else 1
    if job.status == "failed":
        return 1
    return None


def job_note(job: JobOut) -> str:
    if job.status == "done" and job.result is not None and job.result.deduped:
        return "deduped: the contact was already enriched, the stored record was returned and nothing was charged"
    if job.status == "done":
        return "enriched: one enrichment credit charged"
    if job.status == "failed":
        return (
            "the job failed; its credit is counted as spent (the API does not say a failed job "
            "is refunded; get_usage shows the account's own count)"
        )
    return (
        f"the job is {job.status}: its credit stays held until it ends; call get_job with its "
        "job_id to wait for it (free: looking again never charges)"
    )


def email_charge(found: EmailFindOut) -> int:
    return 1 if found.state == "found" else 0


def mobile_charge(lookup: MobileFindOut) -> int | None:
    if lookup.state == "settled":
        return 1
    if lookup.state == "refunded":
        return 0
    return None


def mobile_note(lookup: MobileFindOut) -> str:
    if lookup.state == "settled":
        return "a number was found: one mobile credit charged"
    if lookup.state == "refunded":
        return "no number was found: nothing charged"
    return (
        f"the lookup is {lookup.state}: its mobile credit stays held until it settles; call "
        "get_mobile_lookup with its lookup_id to wait for it (free)"
    )


def error_charge(exc: LeadEnrichError) -> int | None:
    """0 when the service refused the request (nothing ran), None when it may have charged it."""
    if isinstance(exc, APIStatusError) and not isinstance(exc, InternalServerError):
        return 0  # 4xx: refused before any work
    if isinstance(exc, (APIConnectionError, InternalServerError, APIResponseValidationError)):
        return None  # the answer was lost or unreadable: the service may have run it
    return 0  # refused by the SDK before sending
