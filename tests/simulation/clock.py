"""Virtual time: the world's clock, an asyncio loop that runs on it, and the SDK's clock.

The world keeps one heap of timed events (the service's work, answers on their way, the
disk's syncs, the user's actions) and the current time. An event loop made for one run
(a process) asks the world for the next moment anything happens instead of sleeping, so
an hour of the service passes in microseconds, and in the same order every time. The
loop also mixes the order of the callbacks that are ready at once (seeded), so a seed
explores the interleavings a real machine may produce.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import random
import selectors
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from typing import Any

from leadenrich import ServiceClock

__all__ = ["EPOCH", "SimClock", "SimLoop", "Stuck", "World"]

EPOCH = datetime(2026, 6, 1, tzinfo=timezone.utc)
"""The true date at the world's time 0."""


class Stuck(Exception):
    """Nothing can happen any more and the run has not ended: a real run would hang."""


class World:
    """The true time and every event yet to happen, across the runs of one schedule."""

    def __init__(self) -> None:
        self.now = 0.0
        self._events: list[tuple[float, int, Callable[[], None]]] = []
        self._order = itertools.count()

    def at(self, when: float, event: Callable[[], None]) -> None:
        heapq.heappush(self._events, (max(when, self.now), next(self._order), event))

    def after(self, seconds: float, event: Callable[[], None]) -> None:
        self.at(self.now + seconds, event)

    def next_time(self) -> float | None:
        return self._events[0][0] if self._events else None

    def step(self, until: float) -> bool:
        """Run the events due by `until` at their time (those at the earliest moment only,
        so a loop sees their effects before time moves on); True if any ran."""
        if not self._events or self._events[0][0] > until:
            return False
        moment = self._events[0][0]
        self.now = max(self.now, moment)
        while self._events and self._events[0][0] <= moment:
            _, _, event = heapq.heappop(self._events)
            event()
        return True

    def run_until(self, until: float) -> None:
        """Let the world go on alone (no process of the user's running) until `until`."""
        while self.step(until):
            pass
        self.now = max(self.now, until)


class _Selector(selectors.BaseSelector):
    """Stands for the OS: 'waiting for I/O' moves the world's time to the next event."""

    def __init__(self, world: World, loop: SimLoop) -> None:
        self._world = world
        self._loop = loop
        self._keys: dict[Any, selectors.SelectorKey] = {}

    def register(self, fileobj: Any, events: int, data: Any = None) -> selectors.SelectorKey:
        key = selectors.SelectorKey(fileobj, id(fileobj), events, data)
        self._keys[fileobj] = key
        return key

    def unregister(self, fileobj: Any) -> selectors.SelectorKey:
        return self._keys.pop(fileobj)

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        self._loop.iteration += 1
        world = self._world
        if self._loop.frozen:
            # A killed process's leftovers: its time does not move, and nothing it does
            # reaches the world.
            self._loop.frozen_iterations += 1
            if self._loop.frozen_iterations > 500:
                raise Stuck("a killed process's tasks would not end")
            return []
        if timeout is None:
            # Nothing ready, no timer: only the world can wake the loop.
            if not world.step(float("inf")):
                raise Stuck("no task can go on and nothing is scheduled")
        elif timeout <= 0:
            world.step(world.now)
        elif not world.step(world.now + timeout):
            world.now += timeout
        self._loop.mix()
        return []

    def get_map(self) -> Any:
        return self._keys

    def close(self) -> None:
        self._keys.clear()


class SimLoop(asyncio.SelectorEventLoop):
    """An asyncio loop on the world's time, mixing the order of ready callbacks (seeded)."""

    def __init__(self, world: World, rng: random.Random) -> None:
        self.iteration = 0
        self.frozen = False
        self.frozen_iterations = 0
        self.world = world
        self._world = world
        self._rng = rng
        super().__init__(_Selector(world, self))
        self.set_default_executor(_INLINE)
        self.errors: list[dict[str, Any]] = []

    def time(self) -> float:
        return self._world.now

    def mix(self) -> None:
        ready: Any = self._ready  # type: ignore[attr-defined]
        if len(ready) > 1 and self._rng.random() < 0.5:
            handles = list(ready)
            self._rng.shuffle(handles)
            ready.clear()
            ready.extend(handles)

    def call_exception_handler(self, context: dict[str, Any]) -> None:
        # Kept for the run's checks: a killed process leaves tasks pending on purpose.
        self.errors.append(context)

    # No self-pipe: nothing wakes this loop from another thread.
    def _make_self_pipe(self) -> None:
        pass

    def _close_self_pipe(self) -> None:
        pass

    def _write_to_self(self) -> None:
        pass


class _Inline(ThreadPoolExecutor):
    """An executor that runs the work at once, in order, on no thread: a checkpoint kept
    in memory needs none, and a thread would make the run depend on the OS's timing."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        done: Future[Any] = Future()
        try:
            done.set_result(fn(*args, **kwargs))
        except BaseException as exc:
            done.set_exception(exc)
        return done

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        pass


_INLINE = _Inline()
"""One for every loop: it holds nothing (making a ThreadPoolExecutor asks the OS how many
CPUs it has)."""


class SimClock(ServiceClock):
    """The SDK's clock on the world's time (the service's seconds are the world's), with
    this machine's wall clock `offset` seconds off the true date."""

    def __init__(self, world: World, offset: float = 0.0) -> None:
        super().__init__(1.0)
        self._world = world
        self._offset = offset
        self.blocking: Callable[[float], None] | None = None
        """How the user's thread sleeps in a threaded run (its loop runs meanwhile)."""

    def _real_now(self) -> float:
        return self._world.now

    def _real_sleep(self, real_seconds: float) -> None:
        if self.blocking is None:
            raise AssertionError("only the threaded runner's own loop sleeps blocking")
        self.blocking(real_seconds)

    async def _real_asleep(self, real_seconds: float) -> None:
        await asyncio.sleep(real_seconds)

    def _wall(self) -> datetime:
        return EPOCH + timedelta(seconds=self._world.now + self._offset)
