"""The waiting half of the fake server: enrichment runs, jobs, lookups and callbacks.

It lives on the server's event loop; FakeState holds the facts. Background tasks are
kept in a set (so they are not garbage-collected mid-flight) and cancelled at shutdown,
when their runs are refunded.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

import httpx

from .._models import JobCompletedEvent, JobOut, LeadOut
from .._version import __version__
from ._records import ApiError, CallbackDelivery, Run, utcnow
from ._state import FakeState

__all__ = ["Runtime"]

logger = logging.getLogger("leadenrich.testing")


class Runtime:
    """Background work of one app instance."""

    def __init__(self, state: FakeState) -> None:
        self.state = state
        self.settings = state.settings
        self._tasks: set[asyncio.Task[None]] = set()
        self._client: httpx.AsyncClient | None = None

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            logger.error("fake server background task failed", exc_info=task.exception())

    async def run_blocking(self, run: Run) -> LeadOut:
        """Wait out a sync enrichment or re-enrichment; a failed one is a 502 (refunded)."""
        try:
            await asyncio.sleep(run.seconds)
        except asyncio.CancelledError:
            self.state.abandon(run)
            raise
        outcome = self.state.finish(run)
        if isinstance(outcome, LeadOut):
            return outcome
        raise ApiError(502, f"enrichment_failed: {outcome['message']}; the credit was refunded")

    async def run_job(self, run: Run, callback_url: str | None) -> None:
        try:
            await asyncio.sleep(self.settings.real_seconds(self.settings.queued_seconds))
            self.state.start_job(run.ref)
            await asyncio.sleep(run.seconds)
        except asyncio.CancelledError:
            self.state.abandon(run)
            raise
        job = self.state.finish_job(run)
        if callback_url is not None:
            await self.deliver(job, callback_url)

    async def settle(self, lookup_id: str, seconds: float) -> None:
        await asyncio.sleep(seconds)
        self.state.settle_lookup(lookup_id)

    async def deliver(self, job: JobOut, url: str) -> None:
        """POST the completion event once; whatever happens is recorded, nothing is retried."""
        event = JobCompletedEvent(
            job_id=job.job_id,
            kind=job.kind,
            status=job.status,
            created_at=job.created_at or utcnow(),
            finished_at=job.finished_at or utcnow(),
            result=job.result,
            error=job.error,
        )
        payload = event.model_dump(mode="json")
        try:
            response = await self._http().post(url, json=payload)
        except httpx.HTTPError as exc:
            delivery = CallbackDelivery(job.job_id, url, payload, None, f"{type(exc).__name__}: {exc}")
        else:
            delivery = CallbackDelivery(job.job_id, url, payload, response.status_code, None)
        self.state.record_callback(delivery)

    def _http(self) -> httpx.AsyncClient:
        if self._client is None:
            # trust_env=False: a proxy from the environment must not swallow loopback callbacks.
            self._client = httpx.AsyncClient(
                timeout=self.settings.callback_timeout,
                trust_env=False,
                headers={"User-Agent": f"leadenrich-fake-server/{__version__}"},
            )
        return self._client

    async def aclose(self) -> None:
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._client is not None:
            await self._client.aclose()
            self._client = None
