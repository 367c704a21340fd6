"""Asynchronous enrichment jobs and their completion callback."""

from datetime import datetime
from typing import Any, ClassVar, Final

from pydantic import Field

from .base import ResponseModel
from .leads import LeadOut

__all__ = ["JOB_TERMINAL_STATUSES", "EnrichJobCreated", "JobCompletedEvent", "JobOut"]

JOB_TERMINAL_STATUSES: Final = frozenset({"done", "failed"})


class EnrichJobCreated(ResponseModel):
    """The answer to an asynchronous enrich request (HTTP 202).

    Examples:
        >>> job = client.leads.enrich({"company": "Acme", "domain": "acme.com"})
        >>> job.status
        'queued'
    """

    job_id: str = Field(description="Poll it with `jobs.get` or `jobs.wait`.")
    status: str = Field(default="queued", description="Always `queued` on creation.")


class JobOut(ResponseModel):
    """The state of an enrichment job.

    `status` is one of `queued`, `running`, `done` or `failed`; a status the SDK does not
    know yet is kept as a plain string rather than rejected.

    Examples:
        >>> job = client.jobs.get(created.job_id)
        >>> job.result.enrichment.opportunity_score if job.status == "done" else job.status
        72
    """

    __repr_fields__: ClassVar[tuple[str, ...] | None] = ("job_id", "status", "result", "error")

    job_id: str = Field(description="The job's identifier.")
    status: str = Field(description="One of `queued`, `running`, `done`, `failed`.")
    kind: str = Field(default="lead.enrich", description="Always `lead.enrich`.")
    created_at: datetime | None = Field(default=None, description="When the job was created.")
    started_at: datetime | None = Field(default=None, description="When the job started running.")
    finished_at: datetime | None = Field(default=None, description="When the job finished.")
    result: LeadOut | None = Field(default=None, description="The enriched lead, once the job produced one.")
    error: dict[str, Any] | None = Field(
        default=None, description="Why the job failed: a free-form object with arbitrary keys."
    )
    callback_url: str | None = Field(default=None, description="The callback URL given at creation.")

    @property
    def is_terminal(self) -> bool:
        """True once the job is `done` or `failed` and will not change again.

        Examples:
            >>> JobOut(job_id="job_1", status="running").is_terminal
            False
        """
        return self.status in JOB_TERMINAL_STATUSES


class JobCompletedEvent(ResponseModel):
    """The body POSTed to a job's `callback_url` when it finishes.

    Parse one with [`parse_event`][leadenrich.webhooks.parse_event]. Payloads are not
    signed yet: confirm with `jobs.get(event.job_id)` before acting on one.

    Examples:
        >>> from leadenrich.webhooks import parse_event
        >>> event = parse_event(request_body)
        >>> job = client.jobs.get(event.job_id)
        >>> job.result.id if job.status == "done" else job.error
        'ld_123'
    """

    __repr_fields__: ClassVar[tuple[str, ...] | None] = ("job_id", "status", "result", "error")

    job_id: str = Field(description="The job that finished.")
    kind: str = Field(description="Always `lead.enrich`.")
    status: str = Field(description="`done` when completed, `failed` when the job failed.")
    created_at: datetime = Field(description="When the job was created.")
    finished_at: datetime = Field(description="When the job finished.")
    result: LeadOut | None = Field(default=None, description="The enriched lead; null when the job failed.")
    error: dict[str, Any] | None = Field(
        default=None, description="Null on success; why the job failed otherwise."
    )
