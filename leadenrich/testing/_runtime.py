"""The waiting half of the fake server: enrichment runs, jobs, lookups and callbacks.

It lives on the server's event loop; the parts of FakeState hold the facts. Background tasks are
kept in a set (so they are not garbage-collected mid-flight) and cancelled at shutdown,
when their runs are refunded.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

import httpx

from .. import __version__
from .._models import JobCompletedEvent, JobOut, LeadIn, LeadOut
from ._records import ApiError, CallbackDelivery, Caller, Follow, Run, stamp
from ._settings import FakeSettings
from ._state import FakeState

__all__ = ["Runtime"]

logger = logging.getLogger("leadenrich.testing")


def sync_failure(settings: FakeSettings, why: str, *, refunded: bool) -> ApiError:
    """The answer to a failed sync enrichment or re-enrichment, per `sync_failure`."""
    if settings.sync_failure == "500_text":
        return ApiError(500, "Internal Server Error", plain=True)
    refund = "the credit was refunded" if refunded else "nothing was charged"
    if settings.sync_failure == "503_json":
        return ApiError(503, f"enrichment unavailable: {why}; {refund}")
    return ApiError(502, f"enrichment_failed: {why}; {refund}")


class Runtime:
    """Background work of one app instance."""

    def __init__(self, state: FakeState) -> None:
        self.state = state
        self.settings = state.settings
        self._tasks: set[asyncio.Task[Any]] = set()
        self._client: httpx.AsyncClient | None = None
        self._change: asyncio.Event | None = None

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            logger.error("fake server background task failed", exc_info=task.exception())

    def _changed(self) -> None:
        """A run ended or a job took a slot: whoever waits on one re-checks."""
        if self._change is not None:
            self._change.set()
            self._change = None

    async def _until(self, ready: Callable[[], bool]) -> None:
        # Every change of slots or runs happens on this loop and calls _changed, so
        # checking, then waiting for the next change, misses none.
        while not ready():
            if self._change is None:
                self._change = asyncio.Event()
            await self._change.wait()

    async def _ended(self, ref: str) -> None:
        await self._until(lambda: not self.state.runs.running(ref))

    async def enrich_sync(self, caller: Caller, lead: LeadIn) -> LeadOut:
        """Sync mode: the deduped record at once, or after the same-email run it waits
        for, or a run of its own."""
        outcome = self.state.runs.admit_sync(caller, lead)
        while isinstance(outcome, Follow):
            await self._ended(outcome.ref)
            outcome = self.state.runs.admit_sync(caller, lead)
        if isinstance(outcome, LeadOut):
            return outcome
        return await self.run_blocking(outcome)

    async def run_blocking(self, run: Run) -> LeadOut:
        """Wait out a sync enrichment or re-enrichment; a failed one is answered as the
        settings' `sync_failure` says (refunded in every case)."""
        try:
            await asyncio.sleep(run.seconds)
        except asyncio.CancelledError:
            self.state.runs.abandon(run)
            self._changed()
            raise
        outcome = self.state.runs.finish(run)
        self._changed()
        if isinstance(outcome, LeadOut):
            return outcome
        raise sync_failure(self.settings, outcome["message"], refunded=run.charged)

    async def behind_gateway(self, work: Coroutine[Any, Any, LeadOut]) -> LeadOut:
        """`work` (a sync enrichment or re-enrichment), answered through the front end of
        `gateway_timeout_seconds`: past that, a 504 while the work goes on, storing and
        charging the lead all the same."""
        limit = self.settings.gateway_timeout_seconds
        if limit is None:
            return await work
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)  # cancelled at shutdown like the others
        task.add_done_callback(self._after_gateway)
        try:
            done, _ = await asyncio.wait({task}, timeout=self.settings.real_seconds(limit))
        except asyncio.CancelledError:
            task.cancel()  # the caller hung up before the front end gave up: as without one
            raise
        if not done:
            raise ApiError(504, "<html><body><h1>504 Gateway Time-out</h1></body></html>", plain=True)
        return task.result()

    def _after_gateway(self, task: asyncio.Task[LeadOut]) -> None:
        self._tasks.discard(task)
        if not task.cancelled():
            task.exception()  # a failure nobody waits for any more was answered already: a 504

    async def run_job(
        self, job_id: str, caller: Caller, lead: LeadIn, plan: Run | Follow, callback_url: str | None
    ) -> None:
        """A job from `queued` to its end: the intake time, then (if it waits for a run
        with its email) that run, then a slot, then the enrichment."""
        step: Run | Follow | None = plan
        try:
            await asyncio.sleep(self.settings.real_seconds(self.settings.queued_seconds))
            while isinstance(step, Follow):
                await self._ended(step.ref)
                step = self.state.async_jobs.follow(job_id, caller, lead)
            if step is not None:
                run = step
                await self._until(lambda: self.state.async_jobs.start(run))
                self._changed()  # the next job in the queue may take a slot too
                await asyncio.sleep(run.seconds)
        except asyncio.CancelledError:
            if isinstance(step, Run):
                self.state.async_jobs.abandon(step)
            else:
                self.state.async_jobs.abandon_unstarted(job_id)
            self._changed()
            raise
        if step is None:
            job = self.state.async_jobs.out(job_id)
        else:
            job = self.state.async_jobs.finish(step)
            self._changed()
        if callback_url is not None and (
            job.status == "done" or self.settings.failed_job_callback == "posted"
        ):
            await self.deliver(job, callback_url)

    async def settle(self, lookup_id: str, seconds: float) -> None:
        await asyncio.sleep(seconds)
        self.state.searches.settle(lookup_id)

    async def deliver(self, job: JobOut, url: str) -> None:
        """POST the completion event once; whatever happens is recorded, nothing is retried."""
        event = JobCompletedEvent(
            job_id=job.job_id,
            kind=job.kind,
            status=job.status,
            created_at=job.created_at or stamp(self.settings),
            finished_at=job.finished_at or stamp(self.settings),
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
        self.state.journal.record_callback(delivery)

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
