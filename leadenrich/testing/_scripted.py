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

    def add(self, fault: ScriptedFault) -> None:
        with self._lock:
            self._queue.append(fault)

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
