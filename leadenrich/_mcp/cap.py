"""The spending cap: credits held before a charging request leaves, settled by its answer.

A tool holds the most its request can charge before sending it, and settles the hold
once the answer says what was charged (a deduped lead, an email not found and a refunded
lookup cost nothing). Credits spent and credits held together never pass the cap, so two
calls at once can never both take the last credit. A hold whose answer is not known yet
(a job still running, a lookup pending, an answer lost) stays held: it counts against the
cap until a later look settles it, or for the server's life.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

__all__ = ["CapReached", "CreditCap", "Hold"]


class CapReached(Exception):
    """A charging call that the cap refuses: nothing was sent."""


@dataclass
class Hold:
    """Credits held for one call (or one job or lookup) until its answer is known."""

    credits: int
    what: str
    settled: bool = False


class CreditCap:
    """Credits the server may charge in its life (`limit`; None: no cap), thread-safe."""

    def __init__(self, limit: int | None) -> None:
        if limit is not None and limit < 0:
            raise ValueError(f"the cap is a number of credits, 0 or more, got {limit}")
        self.limit = limit
        self._lock = threading.Lock()
        self._spent = 0
        self._held = 0
        # Holds that outlive their call, by the job or lookup id that settles them later.
        self._open: dict[str, Hold] = {}

    @property
    def spent(self) -> int:
        """Credits charged, as far as the answers told."""
        return self._spent

    @property
    def held(self) -> int:
        """Credits held for requests whose charge is not known yet."""
        return self._held

    @property
    def left(self) -> int | None:
        """Credits a new call may still hold (None: no cap)."""
        with self._lock:
            return self._left()

    def _left(self) -> int | None:
        return None if self.limit is None else self.limit - self._spent - self._held

    def hold(self, credits: int, what: str) -> Hold:
        """Hold `credits` for `what`, or raise CapReached (nothing held) when they do not fit."""
        with self._lock:
            left = self._left()
            if left is not None and credits > left:
                raise CapReached(self._refusal(credits, what, left))
            self._held += credits
            return Hold(credits, what)

    def hold_up_to(self, credits: int, what: str) -> Hold:
        """Hold as many of `credits` as fit, none at all when the cap is reached: a batch
        enriches that many and skips the rest (leads it finds done cost nothing)."""
        with self._lock:
            left = self._left()
            granted = credits if left is None else max(0, min(credits, left))
            self._held += granted
            return Hold(granted, what)

    def settle(self, hold: Hold, charged: int) -> None:
        """The answer is known: `charged` of the held credits were spent, the rest are free again."""
        with self._lock:
            if hold.settled:
                return
            hold.settled = True
            self._held -= hold.credits
            self._spent += min(charged, hold.credits)

    def keep(self, key: str, hold: Hold) -> None:
        """Leave `hold` open until a later look at `key` (a job or lookup id) settles it."""
        with self._lock:
            self._open[key] = hold

    def is_open(self, key: str) -> bool:
        """True while `key` (a job or lookup id) has an open hold."""
        with self._lock:
            return key in self._open

    def take(self, key: str) -> Hold | None:
        """The open hold of `key`, if this server holds one; it is no longer open."""
        with self._lock:
            return self._open.pop(key, None)

    def _refusal(self, credits: int, what: str, left: int) -> str:
        return (
            f"the server's spending cap refuses {what}: it may charge {credits} "
            f"credit{'s' if credits != 1 else ''} and {left} of the cap's {self.limit} are left "
            f"({self._spent} spent, {self._held} held for calls not settled yet); nothing was sent. "
            "Tell the person: they can restart the server with a higher --max-credits"
        )
