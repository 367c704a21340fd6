"""Journal: what happened on the fake server (requests, charges, callbacks), for tests to read.

It owns the lock and the condition FakeState extends, so that `wait_until` wakes up on
every change, whether to the journal or to the accounts, leads, jobs and lookups.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

from ._records import CallbackDelivery, Caller, Charge, ChargeKind, RequestRecord, utcnow

__all__ = ["Journal"]


class Journal:
    """The log half of FakeState; every method is safe to call from any thread."""

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.RLock())
        self._requests: list[RequestRecord] = []
        self._charges: list[Charge] = []
        self._callbacks: list[CallbackDelivery] = []
        self._received: dict[str, list[Any]] = {}

    def record_request(self, token: str | None, method: str, path: str, status_code: int) -> None:
        with self._cond:
            self._requests.append(RequestRecord(method, path, status_code, token, utcnow()))
            self._cond.notify_all()

    def _record_charge(self, kind: ChargeKind, caller: Caller, ref: str, amount: int) -> None:
        # Called by FakeState under the lock, next to the balance it moves.
        self._charges.append(Charge(kind, amount, caller.key, caller.user, ref, utcnow()))

    def record_callback(self, delivery: CallbackDelivery) -> None:
        with self._cond:
            self._callbacks.append(delivery)
            self._cond.notify_all()

    def record_received(self, name: str, body: Any) -> None:
        with self._cond:
            self._received.setdefault(name, []).append(body)
            self._cond.notify_all()

    def requests(self) -> list[RequestRecord]:
        """Every request answered so far, oldest first (health included)."""
        with self._cond:
            return list(self._requests)

    def status_counts(self, key: str | None) -> dict[int, int]:
        """How many requests `key` made, by response status (None: requests without a key)."""
        with self._cond:
            return dict(Counter(r.status_code for r in self._requests if r.key == key))

    def charges(
        self, *, key: str | None = None, user: str | None = None, kind: ChargeKind | None = None
    ) -> list[Charge]:
        """Every charge and refund, oldest first, optionally only those of a key, user or kind."""
        with self._cond:
            return [
                c
                for c in self._charges
                if (key is None or c.key == key)
                and (user is None or c.user == user)
                and (kind is None or c.kind == kind)
            ]

    def charged(self, kind: ChargeKind, *, key: str | None = None, user: str | None = None) -> int:
        """Net credits of `kind` spent (charges minus refunds)."""
        return sum(c.amount for c in self.charges(key=key, user=user, kind=kind))

    def callbacks(self) -> list[CallbackDelivery]:
        """Every callback delivery attempt, in order."""
        with self._cond:
            return list(self._callbacks)

    def received_callbacks(self, name: str = "default") -> list[Any]:
        """The bodies POSTed to the built-in receiver `server.callback_url(name)`."""
        with self._cond:
            return list(self._received.get(name, []))

    def wait_until(self, predicate: Callable[[], bool], timeout: float = 5.0) -> bool:
        """Block until `predicate()` is true (re-checked after every change); False on timeout.

        Example:
            >>> server.state.wait_until(lambda: len(server.state.callbacks()) == 1)  # doctest: +SKIP
            True
        """
        with self._cond:
            return self._cond.wait_for(predicate, timeout)
