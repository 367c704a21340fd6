"""What doing one task takes, written once for both runners.

A task's work is a generator that yields the I/O it needs (send a lead, poll a job,
read a page of stored leads, pause, wait for a checkpoint line to reach the disk) and
gets the answer, or the error, back. The sync runner performs each effect blocking and
the async runner awaits it; every decision stays in the Plan.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any, Literal

from .._errors import LeadEnrichError
from .plan import Plan
from .results import BulkOutcome
from .tasks import Lookup, NotSent, Poll, Send, Task

__all__ = ["Driver", "Effect", "work"]


@dataclass(frozen=True)
class Effect:
    """One piece of I/O a task asks its runner for."""

    name: Literal["enrich", "poll", "page", "pause", "written"]
    args: tuple[Any, ...]


Work = Generator[Effect, Any, list[BulkOutcome]]


def work(plan: Plan, task: Task) -> Work:
    """The work of `task`; its return value is the outcomes it settled."""
    if isinstance(task, Send):
        return (yield from _send(plan, task))
    if isinstance(task, Poll):
        return (yield from _poll(plan, task))
    return (yield from _look(plan, task))


def _send(plan: Plan, task: Send) -> Work:
    item = task.item
    skipped, started = plan.sending(item)
    if skipped:
        return skipped
    if started is not None:
        try:
            yield Effect("written", (started,))
        except LeadEnrichError as exc:
            return plan.unsent(item, exc)
    while True:
        try:
            lead = yield Effect("enrich", (item,))
        except NotSent:
            return plan.not_sent(item)
        except LeadEnrichError as exc:
            step = plan.failed(item, exc)
            if isinstance(step, list):
                return step
            yield Effect("pause", (step,))
            if plan.stopped:
                return plan.not_sent(item)
            continue
        return plan.succeeded(item, lead)


def _poll(plan: Plan, task: Poll) -> Work:
    try:
        job = yield Effect("poll", (task.job_id,))
    except LeadEnrichError as exc:
        return plan.polled(task, None, exc)
    return plan.polled(task, job, None)


def _look(plan: Plan, task: Lookup) -> Work:
    scan = plan.scan(task)
    while (page := scan.next_page()) is not None:
        try:
            scan.read((yield Effect("page", page)))
        except LeadEnrichError as exc:
            delay = scan.retry(exc)
            if delay is None:
                return plan.looked_up(task, scan, exc)
            yield Effect("pause", (delay,))
    return plan.looked_up(task, scan, None)


class Driver:
    """Steps one task's work: the runner performs each effect and reports back."""

    def __init__(self, plan: Plan, task: Task) -> None:
        self._work = work(plan, task)
        self._reply: Any = None
        self._error: LeadEnrichError | None = None
        self.outcomes: list[BulkOutcome] = []

    def next(self) -> Effect | None:
        """The next effect to perform, or None once the work is done (see `outcomes`)."""
        try:
            if self._error is not None:
                error, self._error = self._error, None
                return self._work.throw(error)
            return self._work.send(self._reply)
        except StopIteration as done:
            self.outcomes = done.value
            return None

    def reply(self, value: Any) -> None:
        self._reply = value

    def fail(self, error: LeadEnrichError) -> None:
        self._error = error
