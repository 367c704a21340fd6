"""The platform's enrichment slots, shared by every key, and the jobs queued for one."""

from __future__ import annotations

import math
import threading
from collections import deque

from ._records import ApiError
from ._settings import FakeSettings

__all__ = ["Slots", "upstream_full"]


def upstream_full(settings: FakeSettings) -> ApiError:
    """The 429 of a platform whose enrichment slots are all busy."""
    # Retry-After speaks the service's seconds, as a client on this server's clock counts.
    wait = max(1, math.ceil(settings.upstream_retry_after))
    slots = settings.max_concurrent_enrichments
    busy = (
        "the platform's only enrichment slot is busy"
        if slots == 1
        else f"all {slots} enrichment slots of the platform are busy"
    )
    return ApiError(429, f"upstream_full: {busy}; retry in a few seconds", {"Retry-After": str(wait)})


class Slots:
    """`max_concurrent_enrichments` slots, each held by one run (a job id or a lead id).

    A part of FakeState: every method takes the state's lock.
    """

    def __init__(self, settings: FakeSettings, cond: threading.Condition) -> None:
        self._settings = settings
        self._cond = cond
        self._held: set[str] = set()
        self._peak = 0
        self._waiting: deque[str] = deque()
        """Jobs past their intake time waiting for a slot, oldest first (`queue` admission)."""

    @property
    def in_flight(self) -> int:
        """Runs holding a slot right now."""
        with self._cond:
            return len(self._held)

    @property
    def peak_in_flight(self) -> int:
        """The most runs that ever held a slot at once."""
        with self._cond:
            return self._peak

    def take(self, ref: str) -> None:
        """A slot for `ref`, or the `upstream_full` 429 when none is free."""
        with self._cond:
            if len(self._held) >= self._settings.max_concurrent_enrichments:
                raise upstream_full(self._settings)
            self._held.add(ref)
            self._peak = max(self._peak, len(self._held))
            self._cond.notify_all()

    def take_in_turn(self, ref: str) -> bool:
        """Whether `ref` holds a slot now: it queues for one and gets it once one is free
        and every job that queued before it has had one."""
        with self._cond:
            if ref in self._held:
                return True
            if ref not in self._waiting:
                self._waiting.append(ref)
            if len(self._held) >= self._settings.max_concurrent_enrichments or self._waiting[0] != ref:
                return False
            self._waiting.popleft()
            self.take(ref)
            return True

    def release(self, ref: str) -> None:
        """`ref` is over: its slot, or its place in the queue, is free."""
        with self._cond:
            self._held.discard(ref)
            if ref in self._waiting:
                self._waiting.remove(ref)
            self._cond.notify_all()
