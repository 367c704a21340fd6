"""The blocking runner in the simulation: the user's thread and the workers, in turn.

`iterate` and its `_pool` run for real in the user's thread (the main one), as a user's
blocking loop runs them. Where they would block (the pool's wait, the clock's sleep, the
start of the run, a client call), the user's thread runs the process's event loop
instead, and the world moves on until what it waits for is there; the leads' task steps
run as tasks on that loop, through the async client's link. So only one of them runs at
a time, in an order the seed decides: the runner's own logic (its stop, its Ctrl-C, its
shutdown, the order it emits in) is exercised, the sync client's request path is not.

A Ctrl-C is a `KeyboardInterrupt` raised in the user's thread where it blocks; a kill
ends the thread where it blocks (`Killed`), and the OS ends the workers with it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import FIRST_COMPLETED, CancelledError, Future
from dataclasses import fields
from typing import Any, TypeVar

from leadenrich._bulk.runner import Workers
from leadenrich._resources._link import AsyncLink, SyncLink
from leadenrich._steps import Steps

from .clock import SimLoop
from .network import Killed, Process

__all__ = ["UserThread"]

T = TypeVar("T")


class UserThread:
    """The user's thread of a threaded run: it blocks by running the process's loop."""

    def __init__(self, loop: SimLoop, process: Process) -> None:
        self.loop = loop
        self.process = process
        self.interrupted = False
        """A Ctrl-C arrived and has not been raised yet."""
        self.ended = False

    def interrupt(self) -> None:
        """A Ctrl-C (the world's event): raised where the user's thread blocks; the loop
        stops at the end of this turn, as the signal lands between two bytecodes."""
        if self.ended:
            return
        self.interrupted = True
        self.loop.stop()

    def block(self, awaitable: Awaitable[T]) -> T:
        """Wait for `awaitable` as a blocking call would: the world moves on meanwhile."""
        try:
            self._raise_pending()
        except BaseException:
            if asyncio.iscoroutine(awaitable):
                awaitable.close()  # never started: the call did not happen
            raise
        main = asyncio.ensure_future(awaitable, loop=self.loop)
        try:
            result = self.loop.run_until_complete(main)
        except RuntimeError:
            if main.done():
                raise
            # Stopped before it finished: the process was killed, or a Ctrl-C came.
            main.cancel()
            self._raise_pending()
            raise
        self._raise_pending()
        return result

    def _raise_pending(self) -> None:
        if self.process.dead:
            raise Killed
        if self.interrupted:
            self.interrupted = False
            raise KeyboardInterrupt

    def sleep(self, seconds: float) -> None:
        self.block(asyncio.sleep(seconds))

    def link(self, link: AsyncLink) -> TurnLink:
        """The blocking link `iterate` is given: the async one's, performed in turn."""
        made = TurnLink(**{f.name: getattr(link, f.name) for f in fields(AsyncLink)})
        object.__setattr__(made, "thread", self)
        object.__setattr__(made, "inner", link)
        object.__setattr__(made, "deferring", False)
        return made

    def workers(self, link: TurnLink) -> Callable[[int], Workers]:
        return lambda workers: TurnWorkers(self, link)


class TurnLink(SyncLink):
    """A SyncLink whose `run` blocks the user's thread on the async link's run, or (for a
    worker's task) hands the run to the loop as a task."""

    thread: UserThread
    inner: AsyncLink
    deferring: bool

    def run(self, steps: Steps[T]) -> T:
        run = self.inner.run(steps)
        if self.deferring:
            return run  # type: ignore[return-value]  # a worker's: made a task by TurnWorkers
        return self.thread.block(run)


class TurnWorkers(Workers):
    """The pool's workers as tasks on the loop; its waits run the loop in the user's thread."""

    def __init__(self, thread: UserThread, link: TurnLink) -> None:  # no threads to make
        self._thread = thread
        self._link = link
        self._tasks: dict[Future[Any], asyncio.Task[Any]] = {}

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        object.__setattr__(self._link, "deferring", True)
        try:
            run: Coroutine[Any, Any, Any] = fn(*args, **kwargs)
        finally:
            object.__setattr__(self._link, "deferring", False)
        future: Future[Any] = Future()
        future.set_running_or_notify_cancel()
        self._tasks[future] = self._thread.loop.create_task(run)
        return future

    def wait(
        self, futures: set[Future[T]], timeout: float | None = None, return_when: str = "ALL_COMPLETED"
    ) -> tuple[set[Future[T]], set[Future[T]]]:
        tasks = [self._tasks[f] for f in futures if not f.done()]
        if tasks:
            when = asyncio.FIRST_COMPLETED if return_when == FIRST_COMPLETED else asyncio.ALL_COMPLETED
            self._thread.block(asyncio.wait(tasks, timeout=timeout, return_when=when))
        for future in futures:
            self._settle(future)
        done = {f for f in futures if f.done()}
        return done, futures - done

    def _settle(self, future: Future[Any]) -> None:
        task = self._tasks[future]
        if future.done() or not task.done():
            return
        if task.cancelled():
            # A running future cannot be cancelled: it ends with the error a cancelled one raises.
            future.set_exception(CancelledError())
        elif (error := task.exception()) is not None:
            future.set_exception(error)
        else:
            future.set_result(task.result())

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        # Every submitted lead has started (the pool has a worker for each); a killed
        # process's workers end with it.
        pending = [t for t in self._tasks.values() if not t.done()]
        if wait and pending and not self._thread.process.dead:
            self._thread.block(asyncio.wait(pending))
