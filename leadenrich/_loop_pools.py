"""The connection pools of an async client that made its own: one per event loop.

httpx's connections belong to the event loop that opened them. A client made once and
used from a second `asyncio.run()` (a script running one coroutine per command, a test
per event loop) would send on the first loop's connections, long closed, and fail with
"Event loop is closed" deep in httpcore. Each event loop gets a pool of its own instead,
made on its first request, and closed as that loop shuts down. An `http_client` given by
the caller is the caller's: it is used as it is, whatever the loop.
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass
from typing import Protocol

import httpx

__all__ = ["LoopPools", "closed_with_the_loop"]


class _Closeable(Protocol):
    async def aclose(self) -> None: ...


@dataclass(frozen=True)
class _Bound:
    http: httpx.AsyncClient
    closer: AsyncGenerator[None, None]


class LoopPools:
    """The pools of one client and its `with_options` copies, by event loop."""

    def __init__(self, first: httpx.AsyncClient, make: Callable[[], httpx.AsyncClient]) -> None:
        self.first = first
        """The pool made with the client: the first loop to send takes it."""
        self._make = make
        self._taken = False
        self._closed = False
        # Weak: a loop that is gone takes its (closed) pool with it.
        self._pools: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Bound] = (
            weakref.WeakKeyDictionary()
        )
        self._lock = threading.Lock()

    async def current(self) -> httpx.AsyncClient:
        """The running loop's pool, made on its first request."""
        loop = asyncio.get_running_loop()
        bound = self._pools.get(loop)
        if bound is not None:
            return bound.http
        with self._lock:
            if self._closed:
                # Closed by the caller: httpx says so, as it always did.
                return self.first
            http = self._make() if self._taken else self.first
            self._taken = True
        closer = closed_with_the_loop(http)
        # Its first step runs at once (no await before its yield): the loop now holds the
        # generator, and closes it, and with it the pool, as it shuts down.
        await closer.__anext__()
        with self._lock:
            self._pools[loop] = _Bound(http, closer)
        return http

    async def aclose(self) -> None:
        """Close the running loop's pool, and the first one if no loop took it.

        Another loop's pool closes with that loop: its connections cannot be closed from
        this one.
        """
        with self._lock:
            self._closed = True
            unused = None if self._taken else self.first
        bound = self._pools.get(asyncio.get_running_loop())
        if bound is not None:
            await bound.closer.aclose()
        if unused is not None:
            await unused.aclose()


async def closed_with_the_loop(resource: _Closeable) -> AsyncGenerator[None, None]:
    """Closes `resource` when its loop closes its async generators: `asyncio.run()` does,
    before it closes the loop, so its connections close while their loop still runs.
    Step it once on the loop (`await closer.__anext__()`) to hand it to the loop."""
    try:
        yield
    finally:
        await resource.aclose()
