"""Jobs: async enrichments from `queued` to `done` or `failed`, around the run each one does."""

from __future__ import annotations

import threading

from .._models import JobOut, LeadIn, LeadOut
from ._lead_store import LeadStore
from ._records import ApiError, Caller, Follow, Run, stamp
from ._runs import Runs
from ._settings import FakeSettings
from ._slots import Slots
from ._stored import StoredJob, new_id, not_found, owned

__all__ = ["Jobs"]


class Jobs:
    """Every job by id, oldest first.

    A part of FakeState: every method takes the state's lock.
    """

    def __init__(
        self,
        settings: FakeSettings,
        cond: threading.Condition,
        runs: Runs,
        slots: Slots,
        store: LeadStore,
    ) -> None:
        self._settings = settings
        self._cond = cond
        self._runs = runs
        self._slots = slots
        self._store = store
        self._jobs: dict[str, StoredJob] = {}

    def create(
        self, caller: Caller, lead: LeadIn, callback_url: str | None
    ) -> tuple[JobOut, Run | Follow | None]:
        """A queued job and what it does next (a charged run, or a run to wait for), or a
        job already done with the deduped record.

        Under `job_admission="upstream_full"` the run takes its slot now (429 when none
        is free); under `queue` it waits for one in `start`.
        """
        with self._cond:
            job_id = new_id("job")
            now = stamp(self._settings)
            duplicate = self._store.with_email(caller.user, lead.email)
            plan: Run | Follow | None
            if duplicate is not None:
                job = StoredJob(job_id, caller.user, caller.key, "done", now, callback_url, now, now)
                job.result = duplicate.out(deduped=True)
                plan = None
            else:
                plan = self._runs.follow(caller.user, lead.email)
                if plan is None:
                    slot = self._settings.job_admission == "upstream_full"
                    plan = self._runs.admit(caller, lead, job_id, new_id("ld"), slot=slot)
                job = StoredJob(job_id, caller.user, caller.key, "queued", now, callback_url)
            self._jobs[job_id] = job
            self._cond.notify_all()
            return job.out(), plan

    def follow(self, job_id: str, caller: Caller, lead: LeadIn) -> Run | Follow | None:
        """A job whose same-email run has ended: done with that lead (deduped, free), or
        another run to wait for, or its own run (which queues for a slot). A job the
        quota no longer allows fails, charged nothing."""
        with self._cond:
            job = self._jobs[job_id]
            duplicate = self._store.with_email(caller.user, lead.email)
            if duplicate is not None:
                job.status, job.result = "done", duplicate.out(deduped=True)
                job.started_at = job.finished_at = stamp(self._settings)
                self._cond.notify_all()
                return None
            follow = self._runs.follow(caller.user, lead.email)
            if follow is not None:
                return follow
            try:
                return self._runs.admit(caller, lead, job_id, new_id("ld"), slot=False)
            except ApiError as exc:
                job.status, job.finished_at = "failed", stamp(self._settings)
                job.error = {"code": "quota_exceeded", "message": exc.detail, "refunded": False}
                self._cond.notify_all()
                return None

    def start(self, run: Run) -> bool:
        """Move the job to `running` if its run holds a slot or can take one now (the
        oldest waiting job first); False while it must stay `queued`."""
        with self._cond:
            if not self._slots.take_in_turn(run.ref):
                return False
            job = self._jobs[run.ref]
            job.status = "running"
            job.started_at = stamp(self._settings)
            self._cond.notify_all()
            return True

    def finish(self, run: Run) -> JobOut:
        with self._cond:
            outcome = self._runs.finish(run)
            job = self._jobs[run.ref]
            job.finished_at = stamp(self._settings)
            if isinstance(outcome, LeadOut):
                job.status, job.result = "done", outcome
            else:
                job.status, job.error = "failed", outcome
            self._cond.notify_all()
            return job.out()

    def abandon(self, run: Run) -> None:
        """A job cut short while its run was queued or running (the server is stopping)."""
        with self._cond:
            self._runs.abandon(run)
            self._stop(run.ref, refunded=run.charged)

    def abandon_unstarted(self, job_id: str) -> None:
        """A job cut short before it had a run (it was waiting for one with its email)."""
        with self._cond:
            self._stop(job_id, refunded=False)

    def _stop(self, job_id: str, *, refunded: bool) -> None:
        job = self._jobs.get(job_id)
        if job is not None and job.status in ("queued", "running"):
            job.status, job.finished_at = "failed", stamp(self._settings)
            job.error = {"code": "server_stopped", "message": "the fake server stopped", "refunded": refunded}
        self._cond.notify_all()

    def out(self, job_id: str) -> JobOut:
        """A job as it stands, whoever owns it."""
        with self._cond:
            return self._jobs[job_id].out()

    def owned(self, caller: Caller, job_id: str) -> JobOut:
        """The caller's job, or a 404 (also for one ended longer ago than the
        settings' `job_retention_seconds`)."""
        with self._cond:
            job = owned(self._jobs, caller, job_id, "job")
            if self._forgotten(job):
                raise not_found("job", job_id)
            return job.out()

    def _forgotten(self, job: StoredJob) -> bool:
        retention = self._settings.job_retention_seconds
        if retention is None or job.finished_at is None:
            return False
        ended = (stamp(self._settings) - job.finished_at).total_seconds()
        return ended > self._settings.real_seconds(retention)

    def outs(self, user: str | None) -> list[JobOut]:
        """Every job (of `user`, when given), oldest first."""
        with self._cond:
            return [j.out() for j in self._jobs.values() if user is None or j.user == user]
