"""An enrichment job created and polled to its end, as steps for either client.

What `leads.enrich_and_wait` does, and what a bulk run's `async` strategy does for each
lead (which may also create its job ahead of a free slot, `_bulk/queue_ahead.py`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import replace
from typing import TYPE_CHECKING

from . import _endpoints, _lazy_models
from ._clock import Deadline
from ._endpoints import Call, with_extras
from ._errors import LeadEnrichError, RateLimitError
from ._polling import DEFAULT_JOB_TIMEOUT, Waiter, lead_of, poll
from ._resources._link import Link
from ._steps import Hold, Pause, Send, Steps, Written

if TYPE_CHECKING:
    from ._bulk.queue_ahead import QueueAhead
    from ._models import EnrichJobCreated, JobOut, LeadOut

__all__ = ["OnCreated", "enrich_and_wait", "wait_job"]

OnCreated = Callable[[str], "Future[None] | None"]
"""Told each job id as it is created; may hand back the write of a checkpoint line,
which is waited for before the first poll."""


def enrich_and_wait(
    link: Link,
    call: Call[EnrichJobCreated],
    waiter: Waiter[JobOut],
    on_created: OnCreated | None = None,
    ahead: QueueAhead | None = None,
) -> Steps[LeadOut]:
    """Send `call` (an enrich request) holding an enrichment slot, then poll its job."""
    created = (yield from _create_ahead(link, call, waiter, on_created, ahead)) if ahead else None
    started = link.clock.now() if created is not None else None
    if created is None:
        yield Hold(waiter.deadline)
        created = yield from _create(link, call, waiter, on_created)
    waiter.follow(link.durations, created.job_id, started)
    yield Pause(waiter.next_delay())
    job = yield from poll(waiter, with_extras(_endpoints.get_job(created.job_id), call.extras))
    return lead_of(job)


def _create(
    link: Link,
    call: Call[EnrichJobCreated],
    waiter: Waiter[JobOut],
    on_created: OnCreated | None,
) -> Steps[EnrichJobCreated]:
    with waiter.sending():
        created: EnrichJobCreated = yield Send(call, waiter.deadline)
    # From here on a timeout carries the job: it goes on, and was paid for.
    waiter.created(
        f"enrichment job {created.job_id}",
        _lazy_models.JobOut(job_id=created.job_id, status=created.status),
    )
    link.durations.created(created.job_id, link.clock.now())
    if on_created is not None and (line := on_created(created.job_id)) is not None:
        # Not on disk (a full disk): the job is paid for and its id is known here, so it
        # is still polled to its end; the run starts nothing more.
        with contextlib.suppress(LeadEnrichError):
            yield Written(line)
    return created


def _create_ahead(
    link: Link,
    call: Call[EnrichJobCreated],
    waiter: Waiter[JobOut],
    on_created: OnCreated | None,
    ahead: QueueAhead,
) -> Steps[EnrichJobCreated | None]:
    """Create the job before one of the client's slots is free, then wait for one
    (queue_ahead.py); None, nothing created, when the service does not queue jobs."""
    from ._bulk.queue_ahead import TakePlace  # a bulk run's: loaded with the runner

    if not (yield TakePlace(ahead)):
        return None
    try:
        created = yield from _create(link, replace(call, retry_upstream_full=False), waiter, on_created)
    except RateLimitError as exc:
        if not exc.upstream_full:
            raise
        ahead.refuse()
        return None
    else:
        # Without a deadline: the job exists, and a slot frees as the jobs before it end.
        yield Hold(None)
        return created
    finally:
        ahead.give_back()


def wait_job(link: Link, job_id: str, poll_interval: float | None) -> Steps[JobOut]:
    """Poll a job a bulk run knows of (created by an earlier run) to its end."""
    waiter: Waiter[JobOut] = Waiter(
        f"enrichment job {job_id}", Deadline(DEFAULT_JOB_TIMEOUT, link.clock), poll_interval, None
    )
    return (yield from poll(waiter, _endpoints.get_job(job_id)))
