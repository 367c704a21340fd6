"""Parsing the job-completion callback.

The service POSTs a [`JobCompletedEvent`][leadenrich.JobCompletedEvent] to the
`callback_url` of an async enrichment, once, when the job finishes. Payloads are not
signed yet: anyone who learns the URL can POST to it. Treat the body as a hint and confirm
with `client.jobs.get(event.job_id)` before acting on it.

Examples:
    >>> from leadenrich.webhooks import parse_event
    >>> event = parse_event(request_body)
    >>> job = client.jobs.get(event.job_id)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from ._errors import LeadEnrichError
from ._models import JobCompletedEvent
from ._validate import describe

__all__ = ["parse_event"]


def parse_event(body: bytes | str | Mapping[str, Any]) -> JobCompletedEvent:
    """Parse a callback body into a JobCompletedEvent.

    Args:
        body: The raw request body (bytes or str), or JSON already decoded to a mapping.

    Raises:
        LeadEnrichError: The body is not JSON, not an object, or lacks a field; the
            message names what is wrong.

    Examples:
        >>> event = parse_event(b'{"job_id": "job_1", "kind": "lead.enrich", "status": "failed",'
        ...     b' "created_at": "2026-11-22T10:00:00Z", "finished_at": "2026-11-22T10:00:31Z",'
        ...     b' "result": null, "error": {"code": "enrichment_failed"}}')
        >>> event.status, event.error
        ('failed', {'code': 'enrichment_failed'})
    """
    if isinstance(body, (bytes, str)):
        try:
            data: Any = json.loads(body)
        except (ValueError, UnicodeDecodeError, RecursionError) as exc:
            # RecursionError: nested too deep to decode, which no event is.
            raise LeadEnrichError(f"callback body is not JSON: {exc}") from None
    else:
        data = body
    if not isinstance(data, Mapping):
        raise LeadEnrichError(f"callback body must be a JSON object, got {type(data).__name__}")  # pyright: ignore[reportUnknownArgumentType]
    try:
        return JobCompletedEvent.model_validate(dict(data))  # pyright: ignore[reportUnknownArgumentType]
    except ValidationError as exc:
        raise LeadEnrichError(f"callback body is not a job-completion event: {describe(exc)}") from None
