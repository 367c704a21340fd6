"""Running a bulk enrichment: a thread pool for the sync client, tasks for the async one.

Both runners keep `Batch.tasks` tasks in flight, perform the I/O each task's work asks
for, sleep while the Plan has nothing to start yet, and stream each outcome as it
settles. Every decision is the Plan's; the work of a task is written once (steps.py),
and so is what both runners do around it (`_start`: the checkpoint loaded, the budget,
the plan; `_Run.task`: a task's effects performed one after another).
"""

from __future__ import annotations

import contextlib
import contextvars
import sys
from collections.abc import AsyncGenerator, Callable, Generator, Iterable, Iterator
from concurrent.futures import ALL_COMPLETED, FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from .. import _endpoints
from .._clock import Deadline, ServiceClock
from .._errors import InvalidRequestError, LeadEnrichError
from .._job_steps import enrich_and_wait, wait_job
from .._polling import DEFAULT_JOB_TIMEOUT, Waiter
from .._steps import Apart, Blocking, Pause, Send, Steps, Written
from .._validate import integer, seconds
from .checkpoint import Checkpoint, Resume
from .inputs import Item, read_items
from .options import DEFAULT_CONCURRENCY, MaxCredits, Strategy, credits_left, wants_auto
from .ownership import confirm
from .plan import Plan
from .progress import ProgressOption, Reporter, reporter
from .queue_ahead import QueueAhead, places_ahead
from .results import BulkOutcome
from .steps import Driver
from .tasks import Task

if TYPE_CHECKING:
    import asyncio
    import os

    from .._models import JobOut, LeadOut
    from .._resources._link import AsyncLink, Link, SyncLink
    from .iteration import Halt

__all__ = ["Batch", "Workers", "aiterate", "iterate", "prepare"]

T = TypeVar("T")


@dataclass(frozen=True)
class Batch:
    """A validated bulk input and its options, not started: nothing is read from disk or sent yet."""

    items: list[Item]
    checkpoint: Checkpoint | None
    max_credits: int | Literal["auto"] | None
    concurrency: int
    progress: ProgressOption
    strategy: Strategy
    poll_interval: float | None = None
    ahead: QueueAhead | None = None
    """The jobs the async strategy keeps queued at the service beyond `concurrency`."""

    @property
    def tasks(self) -> int:
        """Leads in flight at once: those running, and those queued ahead of a free slot.

        None of the latter once the service refused a queued job: a lead beyond
        `concurrency` would then only wait for a slot, and a stop no longer holds it back.
        """
        return self.concurrency + (self.ahead.places if self.ahead is not None else 0)

    def plan(self, resume: Resume, clock: ServiceClock, max_credits: int | None) -> Plan:
        return Plan(self.items, resume, max_credits, self.checkpoint, clock, jobs=self.strategy == "async")


def prepare(
    leads: Any,
    *,
    concurrency: int = DEFAULT_CONCURRENCY,
    max_credits: MaxCredits = None,
    checkpoint: str | os.PathLike[str] | None = None,
    progress: ProgressOption = None,
    strategy: str = "sync",
    poll_interval: float | None = None,
    client_slots: int | None = None,
) -> Batch:
    """Validate the options (those of `BulkOptions`, with their defaults) and the input:
    nothing is read from disk or sent yet.

    `client_slots`: the enrichments the client runs at once (None: no limit of its own).
    """
    integer("concurrency", concurrency, 1)
    if max_credits is not None and not wants_auto(max_credits):
        integer("max_credits", max_credits, 0)
    if strategy not in ("sync", "async"):
        raise InvalidRequestError(f"strategy must be 'sync' or 'async', got {strategy!r}")
    if poll_interval is not None:
        seconds("poll_interval", poll_interval, positive=True)
    items = read_items(leads)
    store = Checkpoint(checkpoint) if checkpoint is not None else None
    chosen: Strategy = "async" if strategy == "async" else "sync"
    ahead = places_ahead(chosen, concurrency, client_slots)
    queue = QueueAhead(ahead) if ahead else None
    return Batch(items, store, max_credits, concurrency, progress, chosen, poll_interval, queue)


def _calls(batch: Batch, plan: Plan, link: Link) -> dict[str, Callable[..., Steps[Any]]]:
    """What each effect of a task's work (steps.py) asks of the client, as steps."""

    def enrich(item: Item) -> Steps[LeadOut]:
        assert item.lead is not None
        if batch.strategy == "sync":
            sync = replace(
                _endpoints.enrich_sync(item.lead),
                before_send=partial(plan.leaving, item),
                on_date=plan.service_date,
            )
            lead: LeadOut = yield Send(sync)
            return lead
        # Each poll tells the plan the job's stamps: the service's clock, as this run made it.
        seen = partial(plan.job_seen, item)
        waiter: Waiter[JobOut] = Waiter(
            "enrichment job", Deadline(DEFAULT_JOB_TIMEOUT, link.clock), batch.poll_interval, seen
        )

        def created(job_id: str) -> Future[None] | None:
            return plan.job_created(item, job_id)

        create = replace(
            _endpoints.enrich(item.lead), before_send=partial(plan.leaving, item), on_date=plan.service_date
        )
        return (yield from enrich_and_wait(link, create, waiter, created, batch.ahead))

    def poll(job_id: str) -> Steps[JobOut]:
        return wait_job(link, job_id, batch.poll_interval)

    def page(limit: int | None, skip: int) -> Steps[Any]:
        return (yield Send(replace(_endpoints.list_leads(limit, skip), on_date=plan.service_date)))

    def pause(seconds: float) -> Steps[None]:
        for step in plan.pause(seconds):
            yield Pause(step)

    def written(line: Future[None] | None) -> Steps[None]:
        if line is not None:
            yield Written(line)

    return {"enrich": enrich, "poll": poll, "page": page, "pause": pause, "written": written}


def _budget(batch: Batch) -> Steps[int | None]:
    """The credits a run may spend: what the account has left, for `max_credits="auto"`."""
    if batch.max_credits != "auto":
        return batch.max_credits
    return credits_left((yield Send(_endpoints.usage())))


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _emit(report: Reporter, outcomes: Iterable[BulkOutcome]) -> Iterator[BulkOutcome]:
    for outcome in outcomes:
        report.update(outcome)
        yield outcome


def _notice(message: str) -> None:
    with contextlib.suppress(OSError, ValueError):  # no stderr: still finish them
        print(f"leadenrich: {message}", file=sys.stderr)


def _start(batch: Batch, link: Link) -> Steps[_Run]:
    """Take the checkpoint (before anything is sent: another run may hold it) and read it,
    ask for the budget, and make the plan, its reporter and its calls."""
    store = batch.checkpoint
    resume = Resume()
    if store is not None:
        resume = yield Blocking(store.take)
        yield from confirm(store, resume, link.owner, adopt=True)
    plan = batch.plan(resume, link.clock, (yield from _budget(batch)))
    report = reporter(batch.progress, plan.total)
    if link.telemetry is not None:
        report = link.telemetry.counted(report)
    return _Run(plan, report, _calls(batch, plan, link))


@dataclass(frozen=True)
class _Run:
    plan: Plan
    report: Reporter
    calls: dict[str, Callable[..., Steps[Any]]]

    def task(self, task: Task) -> Steps[list[BulkOutcome]]:
        """What one task does, written once for both runners; each effect is a run of its
        own, so a slot it takes is given back before the next."""
        driver = Driver(self.plan, task)
        while (effect := driver.next()) is not None:
            try:
                driver.reply((yield Apart(self.calls[effect.name](*effect.args))))
            except LeadEnrichError as exc:
                driver.fail(exc)
        return driver.outcomes


class Workers(ThreadPoolExecutor):
    """The blocking runner's threads, and its wait for them. The bulk simulation gives
    `iterate` workers of its own, which take turns with its event loop, so that the
    runner's own logic (its stop, its Ctrl-C, its shutdown) runs on simulated time."""

    def wait(
        self, futures: set[Future[T]], timeout: float | None = None, return_when: str = ALL_COMPLETED
    ) -> tuple[set[Future[T]], set[Future[T]]]:
        return wait(futures, timeout, return_when)


def _threads(workers: int) -> Workers:
    return Workers(max_workers=workers, thread_name_prefix="leadenrich-bulk")


def iterate(
    batch: Batch, link: SyncLink, workers: Callable[[int], Workers] = _threads
) -> Generator[BulkOutcome, None, None]:
    """Run the plan on a thread pool (`workers` makes it), yielding outcomes as they settle."""
    store = batch.checkpoint
    try:
        run = link.run(_start(batch, link))
    except BaseException:
        if store is not None:
            store.close()
        raise
    try:
        yield from _emit(run.report, run.plan.ready)
        yield from _pool(
            run.plan, lambda task: link.run(run.task(task)), batch, run.report, link.clock, workers
        )
    finally:
        try:
            run.report.close()
        finally:
            # Even when a Ctrl-C lands as the run closes: a notebook's kernel lives on, and
            # a checkpoint it still held would refuse every later run in it.
            if store is not None:
                store.close()


def _pool(
    plan: Plan,
    execute: Callable[[Task], list[BulkOutcome]],
    batch: Batch,
    report: Reporter,
    clock: ServiceClock,
    workers: Callable[[int], Workers],
) -> Iterator[BulkOutcome]:
    pool = workers(batch.tasks)
    running: set[Future[list[BulkOutcome]]] = set()
    abandoning = False
    try:
        while True:
            while len(running) < batch.tasks and (task := plan.next()) is not None:
                # In the caller's context: its current span is the parent of the task's.
                running.add(pool.submit(contextvars.copy_context().run, execute, task))
            yield from _emit(report, plan.leftovers())
            idle = plan.idle()
            if not running and idle is None:
                break
            if not running:
                assert idle is not None
                clock.sleep(idle)
                continue
            # With a worker free, wake when a parked lead falls due; otherwise on a result.
            timeout = idle if len(running) < batch.tasks else None
            real = clock.real_seconds(timeout) if timeout is not None else None
            done, running = pool.wait(running, timeout=real, return_when=FIRST_COMPLETED)
            for future in done:
                yield from _emit(report, future.result())
    except KeyboardInterrupt:
        plan.stop(LeadEnrichError("not started: the run was interrupted"))
        if running:
            # A second Ctrl-C, from the moment the user is told of it, escapes this wait;
            # the checkpoint then knows they started.
            abandoning = True
            _notice(
                f"finishing {_count(len(running), 'enrichment')} already paid for; "
                "press Ctrl-C again to abandon them"
            )
            pool.wait(running)
            abandoning = False
        raise
    finally:
        # Also reached when the caller stops iterating: let started leads finish (and be
        # written to the checkpoint) rather than losing what they were charged for.
        plan.stop(LeadEnrichError("not started: the run was stopped"))
        pool.shutdown(wait=not abandoning, cancel_futures=True)


async def aiterate(
    batch: Batch, link: AsyncLink, halt: Halt | None = None
) -> AsyncGenerator[BulkOutcome, None]:
    """Run the plan as asyncio tasks, yielding outcomes as they settle; `halt` stops it
    from outside (its iterator was dropped).

    The checkpoint is read and written on threads: the event loop never waits for the disk.
    """
    import asyncio

    store = batch.checkpoint
    try:
        run = await link.run(_start(batch, link))
    except BaseException:
        if store is not None:
            # Also after a cancellation while the checkpoint was being taken on its thread:
            # the close waits for the take, and lets go of what it took.
            await _let_go(store)
        raise
    plan, report = run.plan, run.report
    if halt is not None:
        halt.bind(plan)
    running: set[asyncio.Task[list[BulkOutcome]]] = set()
    try:
        for outcome in _emit(report, plan.ready):
            yield outcome
        while True:
            while len(running) < batch.tasks and (task := plan.next()) is not None:
                running.add(asyncio.ensure_future(link.run(run.task(task))))
            for outcome in _emit(report, plan.leftovers()):
                yield outcome
            idle = plan.idle()
            if not running and idle is None:
                break
            if not running:
                await link.clock.asleep(idle or 0.0)
                continue
            timeout = idle if len(running) < batch.tasks else None
            real = link.clock.real_seconds(timeout) if timeout is not None else None
            done, running = await asyncio.wait(running, timeout=real, return_when=asyncio.FIRST_COMPLETED)
            for finished in done:
                for outcome in _emit(report, finished.result()):
                    yield outcome
    except asyncio.CancelledError:
        if running:
            _notice(
                f"finishing {_count(len(running), 'enrichment')} already started; cancel again to abandon them"
            )
        raise
    finally:
        plan.stop(LeadEnrichError("not started: the run was stopped"))
        try:
            await _finish(running)
        finally:
            try:
                report.close()
            finally:
                if store is not None:
                    await _let_go(store)


async def _let_go(store: Checkpoint) -> None:
    """Write what is queued and let go of the checkpoint, on a thread, waiting for it
    through any cancellation: the run is over once its checkpoint is free, so a run
    started right after it finds it free."""
    import asyncio

    closing = asyncio.ensure_future(asyncio.to_thread(store.close))
    cancelled: asyncio.CancelledError | None = None
    while not closing.done():
        try:
            await asyncio.wait([closing])
        except asyncio.CancelledError as exc:
            cancelled = exc
    if cancelled is not None:
        raise cancelled
    closing.result()


async def _finish(running: set[asyncio.Task[list[BulkOutcome]]]) -> None:
    """Wait for the tasks in flight when a run stops (cancelled, or no longer iterated).

    Their requests were sent, so the service may be enriching and charging them whatever
    the client does. Cancelling them would only lose the answer: a run resumed before
    the service finished would not find them among the stored leads and would send them
    again, charging twice. Finished, they are written to the checkpoint. A second
    cancellation abandons them; they then stay "started" in the checkpoint, and a
    resumed run looks them up before sending them again.
    """
    import asyncio

    if not running:
        return
    try:
        await asyncio.shield(asyncio.gather(*running, return_exceptions=True))
    except asyncio.CancelledError:
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
        raise
