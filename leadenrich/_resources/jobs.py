"""client.jobs: asynchronous enrichment jobs."""

from __future__ import annotations

from .. import _endpoints
from .._models import JobOut
from ._protocols import AsyncSend, SyncSend

__all__ = ["AsyncJobs", "Jobs"]


class Jobs:
    """Read enrichment jobs: `client.jobs`."""

    def __init__(self, send: SyncSend) -> None:
        self._send = send

    def get(self, job_id: str) -> JobOut:
        """The current state of a job: `queued`, `running`, `done` (with `result`) or `failed`.

        Example:
            >>> job = client.jobs.get("job_123")  # doctest: +SKIP
            >>> job.status, job.result is not None  # doctest: +SKIP
            ('done', True)
        """
        return self._send(_endpoints.get_job(job_id))


class AsyncJobs:
    """Read enrichment jobs: `client.jobs` of the async client."""

    def __init__(self, send: AsyncSend) -> None:
        self._send = send

    async def get(self, job_id: str) -> JobOut:
        """The current state of a job.

        Example:
            >>> job = await client.jobs.get("job_123")  # doctest: +SKIP
        """
        return await self._send(_endpoints.get_job(job_id))
