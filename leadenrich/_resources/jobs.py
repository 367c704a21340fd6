"""client.jobs: asynchronous enrichment jobs."""

from __future__ import annotations

from collections.abc import Callable

from .. import _endpoints
from .._clock import ServiceClock
from .._models import JobOut
from .._polling import DEFAULT_JOB_TIMEOUT, Deadline, JobDurations, Waiter, async_wait, wait
from ._protocols import AsyncSend, SyncSend

__all__ = ["AsyncJobs", "Jobs"]


class Jobs:
    """Read enrichment jobs: `client.jobs`.

    Examples:
        >>> created = client.leads.enrich({"company": "Acme", "domain": "acme.com"})  # doctest: +SKIP
        >>> client.jobs.wait(created.job_id).status  # doctest: +SKIP
        'done'
    """

    def __init__(self, send: SyncSend, durations: JobDurations, clock: ServiceClock) -> None:
        self._send = send
        self._durations = durations
        self._clock = clock

    def get(self, job_id: str) -> JobOut:
        """The current state of a job: `queued`, `running`, `done` (with `result`) or `failed`.

        Examples:
            >>> job = client.jobs.get("job_123")  # doctest: +SKIP
            >>> job.status, job.result is not None  # doctest: +SKIP
            ('done', True)
        """
        return self._send(_endpoints.get_job(job_id))

    def wait(
        self,
        job_id: str,
        *,
        timeout: float = DEFAULT_JOB_TIMEOUT,
        poll_interval: float | None = None,
        on_progress: Callable[[JobOut], object] | None = None,
    ) -> JobOut:
        """Poll a job until it is `done` or `failed`, and return it.

        A job this client created is polled by its age: first near the shortest duration
        its jobs take, then each answer due at 1.1 times the age of the one before, so
        the job is noticed within 10 % of its duration; never closer than `poll_interval`
        (1 s by default). Any other job is polled at once, then `poll_interval` apart,
        growing 1.5x per poll up to 5x that. A 429 is waited out. Past `timeout` seconds
        (300 by default) raises PollTimeoutError, whose `.last` is the last JobOut seen. A
        failed job is returned, not raised: check `job.status` (or use
        `leads.enrich_and_wait`).

        Examples:
            >>> job = client.jobs.wait(created.job_id, timeout=120)  # doctest: +SKIP
            >>> job.result.enrichment.opportunity_score if job.status == "done" else job.error  # doctest: +SKIP
        """
        waiter = Waiter[JobOut](
            f"enrichment job {job_id}", Deadline(timeout, self._clock), poll_interval, on_progress
        )
        waiter.follow(self._durations, job_id)
        call = _endpoints.get_job(job_id)
        if (early := waiter.until_first_poll()) > 0:
            self._clock.sleep(early)
        return wait(lambda deadline: self._send(call, deadline), waiter)


class AsyncJobs:
    """Read enrichment jobs: `client.jobs` of the async client.

    Examples:
        >>> job = await client.jobs.wait(created.job_id)  # doctest: +SKIP
    """

    def __init__(self, send: AsyncSend, durations: JobDurations, clock: ServiceClock) -> None:
        self._send = send
        self._durations = durations
        self._clock = clock

    async def get(self, job_id: str) -> JobOut:
        """The current state of a job.

        Examples:
            >>> job = await client.jobs.get("job_123")  # doctest: +SKIP
        """
        return await self._send(_endpoints.get_job(job_id))

    async def wait(
        self,
        job_id: str,
        *,
        timeout: float = DEFAULT_JOB_TIMEOUT,
        poll_interval: float | None = None,
        on_progress: Callable[[JobOut], object] | None = None,
    ) -> JobOut:
        """Poll a job until it is `done` or `failed`; see [`Jobs.wait`][leadenrich._resources.jobs.Jobs.wait].

        Cancelling the awaiting task stops the polling at once.

        Examples:
            >>> job = await client.jobs.wait(created.job_id)  # doctest: +SKIP
        """
        waiter = Waiter[JobOut](
            f"enrichment job {job_id}", Deadline(timeout, self._clock), poll_interval, on_progress
        )
        waiter.follow(self._durations, job_id)
        call = _endpoints.get_job(job_id)
        if (early := waiter.until_first_poll()) > 0:
            await self._clock.asleep(early)
        return await async_wait(lambda deadline: self._send(call, deadline), waiter)
