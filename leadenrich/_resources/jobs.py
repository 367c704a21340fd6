"""client.jobs: asynchronous enrichment jobs."""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING

from .. import _endpoints
from .._clock import Deadline
from .._endpoints import per_call
from .._polling import DEFAULT_JOB_TIMEOUT, Waiter, poll
from .._response import APIResponse
from .._steps import Pause, Steps
from .._types import ExtraHeaders, ExtraQuery, RequestTimeout
from ._link import AsyncNamespace, Link, SyncNamespace

if TYPE_CHECKING:
    from .._models import JobOut

__all__ = ["AsyncJobs", "AsyncJobsWithRawResponse", "Jobs", "JobsWithRawResponse"]


class Jobs(SyncNamespace, spans="jobs"):
    """Read enrichment jobs: `client.jobs`.

    Examples:
        >>> created = client.leads.enrich({"company": "Acme", "domain": "acme.com"})
        >>> client.jobs.wait(created.job_id).status
        'done'
    """

    @cached_property
    def with_raw_response(self) -> JobsWithRawResponse:
        """The same methods, returning the HTTP response: `client.jobs.with_raw_response.get(job_id)`."""
        return JobsWithRawResponse(self._link)

    def get(
        self,
        job_id: str,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> JobOut:
        """The current state of a job: `queued`, `running`, `done` (with `result`) or `failed`.

        Examples:
            >>> job = client.jobs.get("job_123")
            >>> job.status, job.result is not None
            ('done', True)
        """
        return self._link.request(per_call(_endpoints.get_job(job_id), timeout, extra_headers, extra_query))

    def wait(
        self,
        job_id: str,
        *,
        timeout: float = DEFAULT_JOB_TIMEOUT,
        poll_interval: float | None = None,
        on_progress: Callable[[JobOut], object] | None = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> JobOut:
        """Poll a job until it is `done` or `failed`, and return it.

        With `poll_interval`, the job is polled that often: first when it is that old
        (at once when it is older), then `poll_interval` apart. Without it, a job this
        client created is first looked at when it is a second old (a deduped job is done
        at once; the look is left out once the client's last three jobs each took
        longer), then polled by its age: near the shortest duration its jobs take, then
        each answer due at 1.1 times the age of the one before, so the job is noticed
        within 10 % of its duration. Any other job is polled at once, then 1 s apart,
        growing 1.5x per poll up to 5 s. A 429 is waited out. Past `timeout` seconds (300
        by default) raises PollTimeoutError, whose `.last` is the last JobOut seen. A
        failed job is returned, not raised: check `job.status` (or use
        `leads.enrich_and_wait`). Here `timeout` is the deadline of the whole wait; each
        poll has the client's request timeout.

        Examples:
            >>> job = client.jobs.wait(created.job_id, timeout=120)
            >>> job.result.enrichment.opportunity_score if job.status == "done" else job.error
        """
        return self._link.run(
            _wait(self._link, job_id, timeout, poll_interval, on_progress, extra_headers, extra_query)
        )


def _wait(
    link: Link,
    job_id: str,
    timeout: float,
    poll_interval: float | None,
    on_progress: Callable[[JobOut], object] | None,
    extra_headers: ExtraHeaders,
    extra_query: ExtraQuery,
) -> Steps[JobOut]:
    """What `wait` does, written once for both clients."""
    deadline = Deadline(timeout, link.clock)
    waiter: Waiter[JobOut] = Waiter(f"enrichment job {job_id}", deadline, poll_interval, on_progress)
    waiter.follow(link.durations, job_id)
    call = per_call(_endpoints.get_job(job_id), None, extra_headers, extra_query)
    if (early := waiter.until_first_poll()) > 0:
        yield Pause(early)
    return (yield from poll(waiter, call))


class JobsWithRawResponse(SyncNamespace, spans="jobs.with_raw_response"):
    """`client.jobs.with_raw_response`: each call returns an [`APIResponse`][leadenrich.APIResponse].

    Examples:
        >>> raw = client.jobs.with_raw_response.get("job_123")
        >>> raw.headers.get("retry-after"), raw.retries_taken
    """

    def get(
        self,
        job_id: str,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> APIResponse[JobOut]:
        """[`Jobs.get`][leadenrich.Jobs.get], with the HTTP response.

        Examples:
            >>> raw = client.jobs.with_raw_response.get("job_123")
            >>> raw.status_code, raw.parse()
        """
        return self._link.request_raw(
            per_call(_endpoints.get_job(job_id), timeout, extra_headers, extra_query)
        )


class AsyncJobs(AsyncNamespace, spans="jobs"):
    """Read enrichment jobs: `client.jobs` of the async client.

    Examples:
        >>> job = await client.jobs.wait(created.job_id)
    """

    @cached_property
    def with_raw_response(self) -> AsyncJobsWithRawResponse:
        """The same methods, returning the HTTP response: `await client.jobs.with_raw_response.get(job_id)`."""
        return AsyncJobsWithRawResponse(self._link)

    async def get(
        self,
        job_id: str,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> JobOut:
        """[`Jobs.get`][leadenrich.Jobs.get], awaitable.

        Examples:
            >>> job = await client.jobs.get("job_123")
        """
        return await self._link.request(
            per_call(_endpoints.get_job(job_id), timeout, extra_headers, extra_query)
        )

    async def wait(
        self,
        job_id: str,
        *,
        timeout: float = DEFAULT_JOB_TIMEOUT,
        poll_interval: float | None = None,
        on_progress: Callable[[JobOut], object] | None = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> JobOut:
        """[`Jobs.wait`][leadenrich.Jobs.wait], awaitable; cancelling the awaiting
        task stops the polling at once.

        Examples:
            >>> job = await client.jobs.wait(created.job_id)
        """
        return await self._link.run(
            _wait(self._link, job_id, timeout, poll_interval, on_progress, extra_headers, extra_query)
        )


class AsyncJobsWithRawResponse(AsyncNamespace, spans="jobs.with_raw_response"):
    """`client.jobs.with_raw_response` of the async client: each call returns an [`APIResponse`][leadenrich.APIResponse].

    Examples:
        >>> raw = await client.jobs.with_raw_response.get("job_123")
        >>> raw.headers.get("retry-after"), raw.retries_taken
    """

    async def get(
        self,
        job_id: str,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> APIResponse[JobOut]:
        """[`JobsWithRawResponse.get`][leadenrich._resources.jobs.JobsWithRawResponse.get], awaitable.

        Examples:
            >>> raw = await client.jobs.with_raw_response.get("job_123")
            >>> raw.status_code, raw.parse()
        """
        return await self._link.request_raw(
            per_call(_endpoints.get_job(job_id), timeout, extra_headers, extra_query)
        )
