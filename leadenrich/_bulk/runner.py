"""Running a bulk enrichment: a thread pool for the sync client, tasks for the async one.

Both runners keep `concurrency` leads in flight, absorb 429s by waiting (a 429 is never
charged), look up the account's stored leads before calling an ambiguous failure a
failure, and stream each outcome as it completes. Everything else is the Plan's.
"""

from __future__ import annotations

import contextlib
import logging
import random
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from datetime import datetime, timezone
from itertools import islice
from typing import TYPE_CHECKING, Any, Literal

from .._clock import ServiceClock
from .._config import LONG_RUNNING_READ_TIMEOUT
from .._errors import APIConnectionError, InvalidRequestError, LeadEnrichError, RateLimitError
from .._models import LeadIn, LeadOut
from .._retry import UPSTREAM_FULL_BACKOFF
from .._validate import integer, seconds
from .checkpoint import Checkpoint, Resume
from .inputs import Item, read_items
from .plan import Plan, is_ambiguous, match_stored
from .progress import ProgressOption, Reporter, reporter
from .results import BulkOutcome

if TYPE_CHECKING:
    import asyncio
    import os

__all__ = ["Strategy", "arun", "prepare", "run"]

logger = logging.getLogger("leadenrich")

Strategy = Literal["sync", "async"]
"""`sync`: one blocking enrich request per lead. `async`: create a job, then poll it."""

# How many stored leads a lookup reads, newest first, before giving up on a match.
_SCAN_IN_RUN = 200
_SCAN_ON_RESUME = 5000


@dataclass(frozen=True)
class Run:
    plan: Plan
    checkpoint: Checkpoint | None
    concurrency: int
    progress: ProgressOption


def prepare(
    leads: Any,
    *,
    concurrency: int,
    max_credits: int | None,
    checkpoint: str | os.PathLike[str] | None,
    progress: ProgressOption,
    strategy: str,
    poll_interval: float | None,
) -> Run:
    """Validate the options and the input, and read the checkpoint: nothing is sent yet."""
    integer("concurrency", concurrency, 1)
    if max_credits is not None:
        integer("max_credits", max_credits, 0)
    if strategy not in ("sync", "async"):
        raise InvalidRequestError(f"strategy must be 'sync' or 'async', got {strategy!r}")
    if poll_interval is not None:
        seconds("poll_interval", poll_interval, positive=True)
    items = read_items(leads)
    store = Checkpoint(checkpoint) if checkpoint is not None else None
    resume = store.load() if store is not None else Resume()
    return Run(Plan(items, resume, max_credits, store), store, concurrency, progress)


# 429s are waited out, since they are refused before any work and never charged, but not
# forever: a service that answers nothing else (a throttled key, a proxy) would hold the
# run for good. Each round already includes the client's own retries.
_RATE_LIMITED_ROUNDS = 10


def _rate_limited(plan: Plan, item: Item, error: RateLimitError, rounds: int) -> BulkOutcome | None:
    """The lead's outcome once it met 429s round after round (and stop starting others),
    or None to wait and send it again."""
    if rounds < _RATE_LIMITED_ROUNDS:
        return None
    plan.stop(LeadEnrichError(f"not started: the service kept answering 429 ({error})"))
    return plan.failed(item, error)


def _wanted(plan: Plan) -> dict[str, datetime]:
    return {key: since for key, (_, since) in plan.uncertain.items()}


def _settle_delay(plan: Plan, clock: ServiceClock) -> float:
    """How long to wait before looking up the leads an earlier run sent without an answer.

    The service may still be enriching a lead sent moments ago (a sync enrichment runs up
    to ~90 s) and stores it only when done: looked up sooner, it would not be found yet,
    and sending it again would charge it twice.
    """
    # The checkpoint's times are wall-clock times: the window is compared in real seconds.
    delay = plan.settle_delay(clock.real_seconds(LONG_RUNNING_READ_TIMEOUT)) / clock.scale
    if delay > 0:
        logger.warning(
            "%s of the checkpoint sent without an answer moments ago; waiting %.0f s for the "
            "service to finish before looking them up, so that none is paid for twice",
            _count(len(plan.uncertain), "lead"),
            delay,
        )
    return delay


# How often a worker waiting for a lost answer's lead to be stored checks for a stop.
_SETTLE_STEP = 1.0


def _settle_steps(plan: Plan, item: Item, error: LeadEnrichError) -> Iterator[float]:
    """Sleeps before looking up a lead whose connection broke after it was sent.

    The service may still be enriching it (up to ~90 s) and stores it only when done:
    looked up sooner, it would be reported as maybe charged. The wait counts from the
    failure, the latest the request can have gone out. An answer that came (a 5xx, an
    unreadable 2xx) means the service is done: no wait. A stopped run ends the wait: the
    lookup then happens at once, and a rerun looks again later.
    """
    if not isinstance(error, APIConnectionError) or plan.stopped:
        return
    logger.info(
        "lead %d: the connection broke after it was sent; looking it up in %.0f s, once the "
        "service must be done with it",
        item.index,
        LONG_RUNNING_READ_TIMEOUT,
    )
    remaining = LONG_RUNNING_READ_TIMEOUT
    while remaining > 0 and not plan.stopped:
        step = min(remaining, _SETTLE_STEP)
        remaining -= step
        yield step


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _rate_limit_pause(error: RateLimitError) -> float:
    base = error.retry_after if error.retry_after is not None else UPSTREAM_FULL_BACKOFF
    return max(base, 0.0) + random.uniform(0.0, 0.5)


def run(
    run_: Run,
    enrich: Callable[[LeadIn], LeadOut],
    stored: Callable[[], Iterator[LeadOut]],
    clock: ServiceClock,
) -> Iterator[BulkOutcome]:
    """Run the plan on a thread pool, yielding outcomes as they complete."""
    plan = run_.plan
    report = reporter(run_.progress, plan.total)

    def lookup(wanted: dict[str, datetime], limit: int) -> dict[str, LeadOut]:
        return match_stored(wanted, islice(stored(), limit))

    def found(item: Item, sent: datetime, error: LeadEnrichError) -> LeadOut | None:
        for step in _settle_steps(plan, item, error):
            clock.sleep(step)
        with contextlib.suppress(LeadEnrichError):  # not found, then: reported maybe_charged
            return lookup({item.key: sent}, _SCAN_IN_RUN).get(item.key)
        return None

    def attempt(item: Item) -> BulkOutcome:
        assert item.lead is not None
        if (skipped := plan.sending(item)) is not None:
            return skipped
        rounds = 0
        while True:
            sent = datetime.now(timezone.utc)
            try:
                lead = enrich(item.lead)
            except RateLimitError as exc:
                rounds += 1
                if (outcome := _rate_limited(plan, item, exc, rounds)) is not None:
                    return outcome
                clock.sleep(_rate_limit_pause(exc))
                continue
            except LeadEnrichError as exc:
                return plan.failed(item, exc, found=found(item, sent, exc) if is_ambiguous(exc) else None)
            return plan.succeeded(item, lead)

    try:
        for outcome in plan.ready:
            report.update(outcome)
            yield outcome
        if plan.uncertain:
            if (delay := _settle_delay(plan, clock)) > 0:
                clock.sleep(delay)
            try:
                recovered = plan.recovered(lookup(_wanted(plan), _SCAN_ON_RESUME))
            except LeadEnrichError as exc:
                recovered = plan.unresolved(exc)
            for outcome in recovered:
                report.update(outcome)
                yield outcome
        yield from _pool(plan, attempt, run_.concurrency, report)
    finally:
        report.close()
        if run_.checkpoint is not None:
            run_.checkpoint.close()


def _pool(
    plan: Plan, attempt: Callable[[Item], BulkOutcome], concurrency: int, report: Reporter
) -> Iterator[BulkOutcome]:
    pool = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="leadenrich-bulk")
    running: dict[Future[BulkOutcome], Item] = {}
    abandoning = False
    try:
        while True:
            while len(running) < concurrency and (item := plan.next()) is not None:
                running[pool.submit(attempt, item)] = item
            for outcome in plan.skipped():
                report.update(outcome)
                yield outcome
            if not running:
                break
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                del running[future]
                outcome = future.result()
                report.update(outcome)
                yield outcome
    except KeyboardInterrupt:
        plan.stop(LeadEnrichError("not started: the run was interrupted"))
        if running:
            # A second Ctrl-C, from the moment the user is told of it, escapes this wait;
            # the checkpoint then knows they started.
            abandoning = True
            with contextlib.suppress(OSError, ValueError):  # no stderr: still finish them
                print(
                    f"leadenrich: finishing {_count(len(running), 'enrichment')} already paid for; "
                    "press Ctrl-C again to abandon them",
                    file=sys.stderr,
                )
            wait(running)
            abandoning = False
        raise
    finally:
        # Also reached when the caller stops iterating: let started leads finish (and be
        # written to the checkpoint) rather than losing what they were charged for.
        plan.stop(LeadEnrichError("not started: the run was stopped"))
        pool.shutdown(wait=not abandoning, cancel_futures=True)


async def arun(
    run_: Run,
    enrich: Callable[[LeadIn], Awaitable[LeadOut]],
    stored: Callable[[], AsyncIterator[LeadOut]],
    clock: ServiceClock,
) -> AsyncIterator[BulkOutcome]:
    """Run the plan as asyncio tasks, yielding outcomes as they complete."""
    import asyncio

    plan = run_.plan
    report = reporter(run_.progress, plan.total)

    async def lookup(wanted: dict[str, datetime], limit: int) -> dict[str, LeadOut]:
        leads: list[LeadOut] = []
        async for lead in stored():
            leads.append(lead)
            if len(leads) >= limit:
                break
        return match_stored(wanted, leads)

    async def found(item: Item, sent: datetime, error: LeadEnrichError) -> LeadOut | None:
        for step in _settle_steps(plan, item, error):
            await clock.asleep(step)
        with contextlib.suppress(LeadEnrichError):  # not found, then: reported maybe_charged
            return (await lookup({item.key: sent}, _SCAN_IN_RUN)).get(item.key)
        return None

    async def attempt(item: Item) -> BulkOutcome:
        assert item.lead is not None
        if (skipped := plan.sending(item)) is not None:
            return skipped
        rounds = 0
        while True:
            sent = datetime.now(timezone.utc)
            try:
                lead = await enrich(item.lead)
            except RateLimitError as exc:
                rounds += 1
                if (outcome := _rate_limited(plan, item, exc, rounds)) is not None:
                    return outcome
                await clock.asleep(_rate_limit_pause(exc))
                continue
            except LeadEnrichError as exc:
                return plan.failed(
                    item, exc, found=await found(item, sent, exc) if is_ambiguous(exc) else None
                )
            return plan.succeeded(item, lead)

    running: set[asyncio.Task[BulkOutcome]] = set()
    try:
        for outcome in plan.ready:
            report.update(outcome)
            yield outcome
        if plan.uncertain:
            if (delay := _settle_delay(plan, clock)) > 0:
                await clock.asleep(delay)
            try:
                recovered = plan.recovered(await lookup(_wanted(plan), _SCAN_ON_RESUME))
            except LeadEnrichError as exc:
                recovered = plan.unresolved(exc)
            for outcome in recovered:
                report.update(outcome)
                yield outcome
        while True:
            while len(running) < run_.concurrency and (item := plan.next()) is not None:
                running.add(asyncio.ensure_future(attempt(item)))
            for outcome in plan.skipped():
                report.update(outcome)
                yield outcome
            if not running:
                break
            done, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                outcome = task.result()
                report.update(outcome)
                yield outcome
    except asyncio.CancelledError:
        if running:
            with contextlib.suppress(OSError, ValueError):  # no stderr: still finish them
                print(
                    f"leadenrich: finishing {_count(len(running), 'enrichment')} already started; "
                    "cancel again to abandon them",
                    file=sys.stderr,
                )
        raise
    finally:
        plan.stop(LeadEnrichError("not started: the run was stopped"))
        await _finish(running)
        report.close()
        if run_.checkpoint is not None:
            run_.checkpoint.close()


async def _finish(running: set[asyncio.Task[BulkOutcome]]) -> None:
    """Wait for the leads in flight when a run stops (cancelled, or no longer iterated).

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
