"""Serving an ASGI app with uvicorn on a background thread, and stopping it quickly.

uvicorn binds the socket itself (port 0 picks a free one): a socket made by hand without
IPPROTO_TCP, or without TCP_NODELAY on accepted connections, adds ~40 ms to every
response on loopback.

uvicorn's own loop notices a stop request within 0.1 s and then sleeps another 0.1 s
before draining connections; a test suite that starts a server per test would spend
most of its time there. `_QuickServer` wakes up at once and drains in milliseconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from ._faults import TRANSPORT

__all__ = ["ServerThread"]

_POLL = 0.002


def _protocol(on_connection: Callable[[int], None] | None) -> type[H11Protocol]:
    """uvicorn's h11 protocol, telling `on_connection` of every connection opened (+1) and
    closed (-1), and with each connection's transport in its requests' `scope["state"]`:
    the only way for the app to drop a connection without an answer (an exception or an
    unfinished answer makes uvicorn log an error or answer 500).

    A class per server: uvicorn takes a class and builds it with arguments of its own.
    """

    class Protocol(H11Protocol):
        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            # A copy per connection: the scope's state is copied from it for each request.
            self.app_state = {**self.app_state, TRANSPORT: transport}
            if on_connection is not None:
                on_connection(1)

        def connection_lost(self, exc: Exception | None) -> None:
            super().connection_lost(exc)
            if on_connection is not None:
                on_connection(-1)

    return Protocol


class _QuickServer(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, graceful_seconds: float) -> None:
        super().__init__(config)
        self._graceful_seconds = graceful_seconds
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wakeup: asyncio.Event | None = None

    async def main_loop(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._wakeup = asyncio.Event()
        counter = 0
        while not await self.on_tick(counter):
            counter = (counter + 1) % 864000
            try:
                await asyncio.wait_for(self._wakeup.wait(), 0.1)
            except asyncio.TimeoutError:
                continue

    def request_exit(self) -> None:
        """Ask the server to stop; safe from any thread."""
        self.should_exit = True
        loop, wakeup = self._loop, self._wakeup
        if loop is not None and wakeup is not None and not loop.is_closed():
            # The loop may close between the check and the call: it is stopping anyway.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(wakeup.set)

    async def shutdown(self, sockets: Any = None) -> None:
        for server in self.servers:
            server.close()
        for connection in list(self.server_state.connections):
            connection.shutdown()
        deadline = time.monotonic() + self._graceful_seconds
        # uvicorn offers nothing to await for "every connection closed": poll, briefly.
        while (self.server_state.connections or self.server_state.tasks) and time.monotonic() < deadline:  # noqa: ASYNC110
            await asyncio.sleep(_POLL)
        for task in list(self.server_state.tasks):
            task.cancel()
        await self.lifespan.shutdown()


class ServerThread:
    """One uvicorn server on a daemon thread."""

    def __init__(
        self,
        app: Any,
        host: str,
        port: int,
        *,
        graceful_seconds: float,
        on_connection: Callable[[int], None] | None = None,
    ) -> None:
        config = uvicorn.Config(
            app,
            host=host,
            port=port,
            log_config=None,
            log_level="warning",
            access_log=False,
            lifespan="on",
            ws="none",
            http=_protocol(on_connection),
        )
        self._server = _QuickServer(config, graceful_seconds)
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="leadenrich-fake-server", daemon=True)

    def _run(self) -> None:
        try:
            asyncio.run(self._server.serve())
        except BaseException as exc:  # SystemExit too: uvicorn exits when it cannot bind
            self._error = exc

    def start(self, timeout: float = 10.0) -> int:
        """Serve; returns the port bound once the server accepts connections."""
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                reason = f": {self._error!r}" if self._error is not None else ""
                raise RuntimeError(f"the fake server did not start{reason} (see the uvicorn log above)")
            time.sleep(_POLL)
        sockets = self._server.servers[0].sockets
        return int(sockets[0].getsockname()[1])

    def stop(self, timeout: float = 10.0) -> None:
        self._server.request_exit()
        self._thread.join(timeout)
        if self._thread.is_alive():
            self._server.force_exit = True
            self._thread.join(timeout)
