"""Methods that send several requests and wait between them, written once for both clients.

Such a method (a wait, a search and its wait, an enrichment and its polls) is a generator
of the steps it needs: it yields a step and gets back what the step gave, or has its error
raised where it yielded. A step knows how it is done blocking (`perform`) and awaited
(`aperform`); the sync client's link performs each one, the async client's awaits it
(`_resources/_link.py`), so every decision between the steps is made in one place.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator
from concurrent.futures import Future
from contextlib import AbstractAsyncContextManager, AbstractContextManager, AsyncExitStack, ExitStack
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

if TYPE_CHECKING:
    from ._clock import Deadline, ServiceClock
    from ._endpoints import Call

__all__ = [
    "Apart",
    "AsyncRunner",
    "Blocking",
    "Hold",
    "Pause",
    "Send",
    "Step",
    "Stepper",
    "Steps",
    "SyncRunner",
    "Written",
]

T = TypeVar("T")


class SyncRunner(Protocol):
    """What a step is performed with on the blocking client."""

    @property
    def clock(self) -> ServiceClock: ...
    def request(self, call: Call[T], deadline: Deadline | None = None, /) -> T: ...
    def slot(self, deadline: Deadline | None, /) -> AbstractContextManager[None]: ...
    def run(self, steps: Steps[T], /) -> T: ...


class AsyncRunner(Protocol):
    """What a step is awaited with on the asyncio client."""

    @property
    def clock(self) -> ServiceClock: ...
    def request(self, call: Call[T], deadline: Deadline | None = None, /) -> Awaitable[T]: ...
    def slot(self, deadline: Deadline | None, /) -> AbstractAsyncContextManager[None]: ...
    def run(self, steps: Steps[T], /) -> Awaitable[T]: ...


class Step(Protocol):
    """One thing the steps ask for; `held` keeps what must last until the steps end."""

    def perform(self, runner: SyncRunner, held: ExitStack) -> Any: ...
    async def aperform(self, runner: AsyncRunner, held: AsyncExitStack) -> Any: ...


Steps = Generator[Step, Any, T]
"""Steps that end in a T."""


@dataclass(frozen=True)
class Send(Generic[T]):
    """Send `call`; with a deadline, no wait on its way (pacing, back-off) ends past it."""

    call: Call[T]
    deadline: Deadline | None = None

    def perform(self, runner: SyncRunner, held: ExitStack) -> T:
        return runner.request(self.call, self.deadline)

    async def aperform(self, runner: AsyncRunner, held: AsyncExitStack) -> T:
        return await runner.request(self.call, self.deadline)


@dataclass(frozen=True)
class Pause:
    """Wait this many of the service's seconds."""

    seconds: float

    def perform(self, runner: SyncRunner, held: ExitStack) -> None:
        runner.clock.sleep(self.seconds)

    async def aperform(self, runner: AsyncRunner, held: AsyncExitStack) -> None:
        await runner.clock.asleep(self.seconds)


@dataclass(frozen=True)
class Hold:
    """Take one of the client's enrichment slots, until the steps end."""

    deadline: Deadline | None

    def perform(self, runner: SyncRunner, held: ExitStack) -> None:
        held.enter_context(runner.slot(self.deadline))

    async def aperform(self, runner: AsyncRunner, held: AsyncExitStack) -> None:
        await held.enter_async_context(runner.slot(self.deadline))


@dataclass(frozen=True)
class Written:
    """Wait until `line` (a checkpoint line being written on another thread) is on disk."""

    line: Future[None]

    def perform(self, runner: SyncRunner, held: ExitStack) -> None:
        self.line.result()

    async def aperform(self, runner: AsyncRunner, held: AsyncExitStack) -> None:
        import asyncio

        await asyncio.wrap_future(self.line)


@dataclass(frozen=True)
class Blocking(Generic[T]):
    """Call `work`, which blocks (the disk): on a thread of its own for the asyncio client."""

    work: Callable[[], T]

    def perform(self, runner: SyncRunner, held: ExitStack) -> T:
        return self.work()

    async def aperform(self, runner: AsyncRunner, held: AsyncExitStack) -> T:
        import asyncio

        return await asyncio.to_thread(self.work)


@dataclass(frozen=True)
class Apart(Generic[T]):
    """Perform `steps` as a run of their own: a slot they hold is given back when they end."""

    steps: Steps[T]

    def perform(self, runner: SyncRunner, held: ExitStack) -> T:
        return runner.run(self.steps)

    async def aperform(self, runner: AsyncRunner, held: AsyncExitStack) -> T:
        return await runner.run(self.steps)


class Stepper(Generic[T]):
    """Walks through `steps`: the client performs each one and reports how it went."""

    def __init__(self, steps: Steps[T]) -> None:
        self._steps = steps
        self._reply: Any = None
        self._error: Exception | None = None

    def next(self) -> Step | None:
        """The next step to perform, or None once the steps are done (see `result`)."""
        error, self._error = self._error, None
        reply, self._reply = self._reply, None
        try:
            return self._steps.send(reply) if error is None else self._steps.throw(error)
        except StopIteration as done:
            self.result: T = done.value
            return None

    def reply(self, value: object) -> None:
        self._reply = value

    def fail(self, error: Exception) -> None:
        self._error = error

    def close(self) -> None:
        """End steps left half-way (an interrupt, a cancellation): their `finally` runs now."""
        self._steps.close()
