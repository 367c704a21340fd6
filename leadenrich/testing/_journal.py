"""Journal: what happened on the fake server (requests, charges, callbacks), for tests to read.

It is one part of FakeState and shares the state's lock (see _state.py), so that
`wait_until` wakes up on every change, whether to the journal or to any other part.
"""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

from ._records import (
    CallbackDelivery,
    Caller,
    Charge,
    ChargeKind,
    FaultKind,
    FaultRecord,
    RequestRecord,
    utcnow,
)

__all__ = ["Journal"]


class Journal:
    """The log of FakeState; every method is safe to call from any thread."""

    def __init__(self, cond: threading.Condition) -> None:
        self._cond = cond
        self._requests: list[RequestRecord] = []
        self._charges: list[Charge] = []
        self._callbacks: list[CallbackDelivery] = []
        self._received: dict[str, list[Any]] = {}
        self._faults: list[FaultRecord] = []
        self._connections = 0
        self._peak_connections = 0
        self._connections_opened = 0
        self._serving = 0
        self._peak_serving = 0

    def record_request(self, token: str | None, method: str, path: str, status_code: int) -> None:
        with self._cond:
            self._requests.append(RequestRecord(method, path, status_code, token, utcnow()))
            self._cond.notify_all()

    def record_charge(self, kind: ChargeKind, caller: Caller, ref: str, amount: int) -> None:
        """A charge (+1) or refund (-1); `Accounts.charge` calls it next to the balance it moves."""
        with self._cond:
            self._charges.append(Charge(kind, amount, caller.key, caller.user, ref, utcnow()))
            self._cond.notify_all()

    def record_fault(self, kind: FaultKind, method: str, path: str, key: str | None, detail: str) -> None:
        """A fault the server injected into a request (see FakeSettings' fault rates)."""
        with self._cond:
            self._faults.append(FaultRecord(kind, method, path, key, detail, utcnow()))
            self._cond.notify_all()

    def record_connection(self, change: int) -> None:
        """A client connection opened (+1) or closed (-1)."""
        with self._cond:
            self._connections += change
            if change > 0:
                self._connections_opened += change
                self._peak_connections = max(self._peak_connections, self._connections)
            self._cond.notify_all()

    def record_serving(self, change: int) -> None:
        """A request's handling began (+1) or ended (-1)."""
        with self._cond:
            self._serving += change
            self._peak_serving = max(self._peak_serving, self._serving)
            self._cond.notify_all()

    @property
    def serving(self) -> int:
        """Requests being handled right now."""
        with self._cond:
            return self._serving

    @property
    def peak_serving(self) -> int:
        """The most requests ever handled at once. Over HTTP/1.1 each holds a connection of
        its client, so this never passes the client's pool size (unlike `peak_connections`,
        which also counts connections the client closed a moment before the server heard)."""
        with self._cond:
            return self._peak_serving

    @property
    def connections(self) -> int:
        """Client connections open right now."""
        with self._cond:
            return self._connections

    @property
    def peak_connections(self) -> int:
        """The most client connections that were ever open at once."""
        with self._cond:
            return self._peak_connections

    @property
    def connections_opened(self) -> int:
        """Client connections accepted since the server started."""
        with self._cond:
            return self._connections_opened

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

    def faults(self, *, kind: FaultKind | None = None) -> list[FaultRecord]:
        """Every fault injected so far, oldest first, optionally only those of one kind."""
        with self._cond:
            return [f for f in self._faults if kind is None or f.kind == kind]

    def fault_counts(self) -> dict[FaultKind, int]:
        """How many faults of each kind were injected (kinds never injected are left out)."""
        with self._cond:
            return dict(Counter(f.kind for f in self._faults))

    def callbacks(self) -> list[CallbackDelivery]:
        """Every callback delivery attempt, in order."""
        with self._cond:
            return list(self._callbacks)

    def received_callbacks(self, name: str = "default") -> list[Any]:
        """The bodies POSTed to the built-in receiver `server.callback_url(name)`."""
        with self._cond:
            return list(self._received.get(name, []))
