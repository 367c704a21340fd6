"""Faults a test asks for by name: the next requests to a path meet them, whatever the rates."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from fnmatch import fnmatchcase

from ._records import FaultKind

__all__ = ["ScriptedFault", "ScriptedFaults"]


@dataclass
class ScriptedFault:
    method: str
    path: str
    """A glob on the request path, such as `/api/v1/jobs/*`."""
    kind: FaultKind
    status: int
    left: int


class ScriptedFaults:
    """The faults still to play, first asked first played; safe from any thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._queue: list[ScriptedFault] = []

    def add(self, method: str, path: str, kind: FaultKind, *, status: int, times: int) -> None:
        """Play `kind` on the next `times` requests matching; see FakeServer.fail_next."""
        if not isinstance(times, int) or times < 1:  # pyright: ignore[reportUnnecessaryIsInstance]
            raise ValueError(f"times must be an int >= 1, got {times!r}")
        if kind == "server_error" and status not in (500, 502, 503):
            raise ValueError(
                f"a server_error's status is 500, 502 or 503, got {status!r}; use kind='refused'"
            )
        with self._lock:
            self._queue.append(ScriptedFault(method.upper(), path, kind, status, times))

    @property
    def pending(self) -> bool:
        with self._lock:
            return bool(self._queue)

    def take(self, method: str, path: str) -> ScriptedFault | None:
        with self._lock:
            for fault in self._queue:
                if fault.method == method and fnmatchcase(path, fault.path):
                    fault.left -= 1
                    if fault.left == 0:
                        self._queue.remove(fault)
                    return fault
        return None
