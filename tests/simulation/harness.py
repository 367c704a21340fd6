"""Running a schedule: the world, its service, the checkpoint's disk, and each run of the
user's program as a process on a loop of its own.

Each run is the real bulk runner (`prepare`, `aiterate` and `AsyncBulkIterator`, or the
blocking client's `iterate` in the user's thread: threaded.py; the Plan and its task
steps) on a `SimClient`, with the real checkpoint file on a disk whose syncs the world
decides (disk.py): a line is on disk once the disk has synced it, a kill loses the lines
not synced yet and may tear the one being written. After the schedule's runs the world
goes quiet for an hour, and two to four last runs with no fault and no stop show what the
others left.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import random
from collections.abc import Callable, Generator
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any
from unittest import mock

from leadenrich._bulk.checkpoint import Checkpoint
from leadenrich._bulk.emails import EmailTurns
from leadenrich._bulk.iteration import AsyncBulkIterator, Halt, OpenIterations
from leadenrich._bulk.preview import BulkPreview, Draft, preview
from leadenrich._bulk.results import BulkOutcome
from leadenrich._bulk.runner import aiterate, iterate, prepare
from leadenrich._errors import LeadEnrichError

from .clock import SimClock, SimLoop, Stuck, World
from .disk import Disk, FileJournal, directory
from .network import Killed, Network, Process, SimClient
from .schedule import RunSpec, Schedule, Stop
from .service import WRITER, Service
from .threaded import UserThread

__all__ = ["Observed", "World", "simulate"]

QUIET = 3600.0
"""The world's time before the last run: every request of the others has ended by then."""
LAST_RUNS = 4
"""At most this many fault-free runs end a schedule: once faults stop, every lead ends
within them (liveness)."""
_HTTP: Any = None


@dataclass
class Observed:
    """What one run of the user's program saw, and when it stopped."""

    spec: RunSpec
    process: Process
    outcomes: list[BulkOutcome] = field(default_factory=list[BulkOutcome])
    times: list[float] = field(default_factory=list[float])
    """When each outcome reached the user's program."""
    started: float = 0.0
    stopped: float | None = None
    """When the user stopped (or killed) the run."""
    completed: bool = False
    """The iteration ended on its own: every row has its outcome."""
    raised: BaseException | None = None
    preview: BulkPreview | None = None
    credits_left: int | None = None
    """What the account had left when the run started (`max_credits="auto"` reads it)."""
    errors: list[str] = field(default_factory=list[str])
    checkpoint: Any = None
    """The checkpoint as the next run reads it (a Resume), or why it could not be read."""
    inherited: bool = False
    """The checkpoint held lines of earlier runs when the run started."""


@dataclass
class World_:
    """Everything one schedule's simulation made, for the checks and the trace."""

    schedule: Schedule
    world: World
    service: Service
    network: Network
    disk: Disk
    runs: list[Observed]
    log: list[str]


def simulate(schedule: Schedule, *, trace: bool = False) -> World_:
    """Run `schedule` and return what happened."""
    global _HTTP
    if _HTTP is None:
        import httpx

        _HTTP = httpx.AsyncClient(verify=False)
    rng = random.Random(schedule.seed)
    random.seed(schedule.seed)  # the SDK's own jitter (back-offs, lookups' retries)
    world = World()
    service = Service(world, schedule.service, schedule.failing)
    for row, age in schedule.earlier:
        service.store_earlier(row.given(), age)
    for row, at in schedule.writer:
        world.at(at, partial(_other_program, service, row.given()))
    network = Network(
        world, service, dict(schedule.faults), dict(schedule.read_faults), random.Random(rng.random())
    )
    with directory() as where:
        disk = Disk(world, random.Random(rng.random()), where)
        log: list[str] = []
        sim = World_(schedule, world, service, network, disk, [], log)
        handler = _Trace(world, log) if trace else None
        logger = logging.getLogger("leadenrich")
        if handler is not None:
            logger.addHandler(handler)
            logger.setLevel(logging.INFO)
        # The cycle collector runs when allocation counts say, and those differ between a
        # schedule run alone and the same one run after thousands of others; a finalizer it
        # calls (an iterator nobody holds stops its run) would come at another step. Without
        # it a seed replays the same alone and in a batch.
        collecting = gc.isenabled()
        gc.disable()
        try:
            # Two last runs: what the first leaves maybe charged (its own lost answers, a
            # gateway in front of the service timing out for good), the second looks up.
            specs = [*schedule.runs, RunSpec(strategy="sync", gap=QUIET), RunSpec(strategy="sync")]
            for index, spec in enumerate(specs):
                world.run_until(world.now + spec.gap)
                process = Process(index, clean=index >= len(schedule.runs))
                sim.runs.append(_run(sim, spec, process, random.Random(rng.random())))
            # A last run may have had to send a lead itself (the one before met the
            # account's quota with it), and meet the gateway there: the next one settles it.
            while len(sim.runs) < len(schedule.runs) + LAST_RUNS and _sent_and_left_unsettled(sim):
                process = Process(len(sim.runs), clean=True)
                sim.runs.append(_run(sim, RunSpec(strategy="sync"), process, random.Random(rng.random())))
        finally:
            if collecting:
                gc.enable()
            if handler is not None:
                logger.removeHandler(handler)
    return sim


def _other_program(service: Service, lead: dict[str, Any]) -> None:
    """Another program on the account enriches `lead` (sync), its answer unread here."""
    service.take("POST", "/leads/enrich", {"mode": "sync"}, {"lead": lead}, WRITER, lambda answer: None)


def _sent_and_left_unsettled(sim: World_) -> bool:
    """Whether the last run sent an enrichment and left a lead `maybe_charged`."""
    last = sim.runs[-1]
    sent = any(s.process == last.process.index and s.method == "POST" for s in sim.network.sent)
    return sent and any(outcome.maybe_charged for outcome in last.outcomes)


class _Trace(logging.Handler):
    def __init__(self, world: World, log: list[str]) -> None:
        super().__init__(logging.INFO)
        self.world = world
        self.out = log

    def emit(self, record: logging.LogRecord) -> None:
        self.out.append(f"{self.world.now:10.3f}  sdk: {record.getMessage()}")


def _run(sim: World_, spec: RunSpec, process: Process, rng: random.Random) -> Observed:
    schedule, world = sim.schedule, sim.world
    loop = SimLoop(world, rng)
    observed = Observed(spec, process)
    journal = sim.disk.journal(process, spec.disk_full)
    observed.inherited = bool(journal.read())
    # Another account's key matters on a checkpoint an earlier run wrote; a run that starts
    # the checkpoint makes it its account's (a shrunk schedule may leave it the first).
    process.account = spec.account if observed.inherited else "own"
    client = SimClient(
        api_key=f"le_live_{process.account}_simulated_key",
        base_url="http://service.invalid",
        http_client=_HTTP,
        clock=SimClock(
            world, schedule.client_wall_offset + sum(r.wall_step for r in schedule.runs[: process.index + 1])
        ),
        timeout=spec.read_timeout,
    )
    client.network = sim.network
    client.process = process
    rows = [row.given() for row in schedule.rows]
    observed.started = world.now
    quota = sim.service.settings.quota
    observed.credits_left = None if quota is None else max(0, quota - sim.service.used)

    async def program() -> None:
        async with client:
            link = client.leads._link  # pyright: ignore[reportPrivateUsage]
            checkpoint = Checkpoint(journal=journal)
            if spec.preview:
                draft = Draft.read(rows, checkpoint, None)
                observed.preview = await link.run(preview(draft, False, link.owner))
                observed.credits_left = None if quota is None else max(0, quota - sim.service.used)
            batch = prepare(
                rows,
                concurrency=spec.concurrency,
                max_credits=spec.max_credits,
                strategy=spec.strategy,
                poll_interval=spec.poll_interval,
                progress=False,
                client_slots=link.slots,
            )
            batch = replace(batch, checkpoint=checkpoint)
            iterations = client.leads._iterations  # pyright: ignore[reportPrivateUsage]

            def outcomes() -> AsyncBulkIterator:
                # What enrich_iter does, with the checkpoint on the simulated disk.
                halt = Halt()
                return AsyncBulkIterator(aiterate(batch, link, halt), iterations, halt)

            await _consume(spec, process, loop, outcomes, observed)

    def threaded() -> None:
        """The user's program on the blocking client: `enrich_iter`'s loop in its thread."""
        thread = UserThread(loop, process)
        client.clock.blocking = thread.sleep  # type: ignore[attr-defined]
        if spec.stop is not None and spec.stop.kind in ("cancel", "cancel_twice", "kill"):
            _arrange(spec.stop, sim, observed, journal, loop, thread)
        link = thread.link(client.leads._link)  # pyright: ignore[reportPrivateUsage]
        iterations = OpenIterations()
        try:
            checkpoint = Checkpoint(journal=journal)
            if spec.preview:
                draft = Draft.read(rows, checkpoint, None)
                observed.preview = link.run(preview(draft, False, link.owner))
                observed.credits_left = None if quota is None else max(0, quota - sim.service.used)
            batch = prepare(
                rows,
                concurrency=spec.concurrency,
                max_credits=spec.max_credits,
                strategy=spec.strategy,
                poll_interval=spec.poll_interval,
                progress=False,
                client_slots=link.slots,
            )
            batch = replace(batch, checkpoint=checkpoint)

            def outcomes() -> Generator[BulkOutcome, None, None]:
                # What the blocking client's enrich_iter does, with the checkpoint on the
                # simulated disk.
                run = iterate(batch, link, thread.workers(link))
                iterations.track(run)
                return run

            _consume_blocking(spec, process, loop, thread, outcomes, observed)
        finally:
            try:
                # What LeadEnrich.close does, and then the interpreter's exit, which waits
                # for the pool's threads (a second Ctrl-C abandoned them, not ended them).
                iterations.close()
                thread.block(client.aclose())
                pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
                if pending:
                    thread.block(asyncio.wait(pending))
            finally:
                thread.ended = True

    plan_of_1_1 = ExitStack()
    if spec.by_1_1:
        # 1.1's plan: a lead left maybe charged let go of its email (1.2 keeps it held).
        plan_of_1_1.enter_context(mock.patch.object(EmailTurns, "keep", EmailTurns.release))
    if spec.runner == "threaded":
        try:
            threaded()
        except Killed:
            pass
        except Stuck as exc:
            observed.raised = exc
        except BaseException as exc:  # a Ctrl-C the run let through; the checks judge it
            observed.raised = exc
    else:
        task = loop.create_task(program())
        if spec.stop is not None and spec.stop.kind in ("cancel", "cancel_twice", "kill"):
            _arrange(spec.stop, sim, observed, journal, loop, task)
        try:
            loop.run_until_complete(task)
        except asyncio.CancelledError:
            observed.raised = asyncio.CancelledError()
        except RuntimeError as exc:
            if not process.dead:
                observed.raised = exc
        except Stuck as exc:
            observed.raised = exc
        except BaseException as exc:  # the checks report it
            observed.raised = exc
    plan_of_1_1.close()
    if process.dead:
        _wind_down(loop)
    else:
        pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
        if pending:
            observed.errors.append(f"{len(pending)} task(s) still pending when the program ended")
            _wind_down(loop)
        observed.errors += [str(context.get("message")) for context in loop.errors]
        loop.run_until_complete(loop.shutdown_asyncgens())
        if journal.held:
            observed.errors.append("the program ended with its run still holding the checkpoint")
    loop.close()
    journal.close()  # the process is over: the OS lets go of what it held
    sim.disk.settled()
    if spec.legacy:
        sim.disk.as_written_by_1_0()
    elif spec.by_1_1:
        sim.disk.as_written_by_1_1()
    try:
        observed.checkpoint = Checkpoint(sim.disk.path).load()
    except LeadEnrichError as exc:
        observed.checkpoint = exc
    return observed


def _arrange(
    stop: Stop,
    sim: World_,
    observed: Observed,
    journal: FileJournal,
    loop: SimLoop,
    task: asyncio.Task[None] | UserThread,
) -> None:
    """Cancel or kill the run when `stop` says: so long after its start, or after its
    `count`-th request left or answer was lost. A threaded run's cancel is a Ctrl-C."""
    world, process = sim.world, observed.process

    def done() -> bool:
        return task.ended if isinstance(task, UserThread) else task.done()

    def interrupt() -> None:
        if isinstance(task, UserThread):
            task.interrupt()
        else:
            task.cancel()

    def cancel() -> None:
        if done():
            return
        if process.stop_iteration is None:
            process.stop_iteration, observed.stopped = loop.iteration, world.now
        interrupt()
        if stop.kind == "cancel_twice":
            world.after(stop.again, again)

    def again() -> None:
        if not done():
            interrupt()

    def kill() -> None:
        if not done():
            observed.stopped = world.now
            sim.network.kill(process)
            journal.kill()
            loop.stop()

    act = kill if stop.kind == "kill" else cancel
    if stop.trigger == "start":
        world.at(observed.started + stop.at, act)
        return
    seen = {"request": 0, "loss": 0}

    def watch(event: str) -> None:
        seen[event] += 1
        if event == stop.trigger and seen[event] == stop.count:
            world.after(stop.at, act)

    process.watch = watch


def _took(outcome: BulkOutcome, spec: RunSpec, process: Process, loop: SimLoop, observed: Observed) -> bool:
    """Keep the outcome the user's loop got; True when the user leaves the loop now."""
    stop = spec.stop
    observed.outcomes.append(outcome)
    observed.times.append(loop.world.now)
    if stop is None or stop.kind not in ("break", "break_close") or len(observed.outcomes) < stop.outcomes:
        return False
    process.stop_iteration, observed.stopped = loop.iteration, loop.world.now
    return True


async def _consume(
    spec: RunSpec,
    process: Process,
    loop: SimLoop,
    outcomes: Callable[[], AsyncBulkIterator],
    observed: Observed,
) -> None:
    stop = spec.stop

    def take(outcome: BulkOutcome) -> bool:
        return _took(outcome, spec, process, loop, observed)

    if stop is not None and stop.kind == "break_close":
        async with outcomes() as iterator:
            async for outcome in iterator:
                if take(outcome):
                    return
        observed.completed = True
        return
    # The iterator is held by the loop alone: leaving it drops the last reference.
    async for outcome in outcomes():
        if take(outcome):
            break
    else:
        observed.completed = True
    if stop is not None and stop.kind == "break":
        await asyncio.sleep(stop.linger)


def _consume_blocking(
    spec: RunSpec,
    process: Process,
    loop: SimLoop,
    thread: UserThread,
    outcomes: Callable[[], Generator[BulkOutcome, None, None]],
    observed: Observed,
) -> None:
    """`_consume` for the blocking client: `for outcome in client.leads.enrich_iter(...)`."""
    stop = spec.stop

    def take(outcome: BulkOutcome) -> bool:
        return _took(outcome, spec, process, loop, observed)

    if stop is not None and stop.kind == "break_close":
        with contextlib.closing(outcomes()) as iterator:
            for outcome in iterator:
                if take(outcome):
                    return
        observed.completed = True
        return
    # The generator is held by the loop alone: leaving it drops the last reference, and
    # it is closed on the spot (its leads in flight finish there).
    for outcome in outcomes():
        if take(outcome):
            break
    else:
        observed.completed = True
    if stop is not None and stop.kind == "break":
        thread.sleep(stop.linger)


def _wind_down(loop: SimLoop) -> None:
    """End what a killed process left (nothing it does reaches the world any more), or a
    program that ended with tasks still pending."""
    loop.frozen = True
    for _ in range(50):
        pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
        if not pending:
            break
        for t in pending:
            t.cancel()
        with contextlib.suppress(Stuck, Killed, RuntimeError):
            loop.run_until_complete(asyncio.sleep(0))
    with contextlib.suppress(Stuck, Killed, RuntimeError):
        loop.run_until_complete(loop.shutdown_asyncgens())
