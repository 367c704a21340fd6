"""FakeState: the fake server's memory, made of one part per subject, and what tests read of it.

The parts: `accounts` (keys, plans, balances, charges), `slots` (the platform's
enrichment slots and the jobs queued for one), `lead_store` (leads, their listing,
matching by email), `runs` (enrichments from admission to the lead stored or refunded),
`async_jobs` (jobs around their runs), `searches` (emails and mobile lookups) and
`journal` (requests, charges, faults, callbacks). The app and the runtime call the
parts; tests read through the methods below.

One lock: FakeState makes one re-entrant `threading.Condition` and gives it to every
part. Every method of a part takes it, so an operation that spans parts (a run
checked against the quota, charged, given a slot) is atomic, and a part may call
another while holding it. Every change notifies it, so `wait_until` re-checks after
any change of any part. Nothing under the lock waits or does I/O: it is held for
microseconds, and the waiting (enrichment time, lookup time) happens in the runtime,
between calls into the parts.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from .._models import JobOut, LeadOut, MobileFindOut
from ._accounts import Accounts
from ._jobs import Jobs
from ._journal import Journal
from ._lead_store import LeadStore
from ._records import CallbackDelivery, Charge, ChargeKind, FaultKind, FaultRecord, RequestRecord
from ._runs import Runs
from ._scripted import ScriptedFaults
from ._searches import Searches
from ._settings import FakeSettings
from ._slots import Slots

__all__ = ["FakeState"]


class FakeState:
    """Accounts, leads, jobs and lookups, plus a log of requests, charges and callbacks.

    Tests read it through `server.state`; every method is safe to call from any thread.

    Examples:
        >>> server.state.charged("enrichment", key=server.api_key)
        1
    """

    def __init__(self, settings: FakeSettings) -> None:
        self.settings: FakeSettings = settings
        self._cond = threading.Condition(threading.RLock())
        self.journal: Journal = Journal(self._cond)
        """Requests, charges, faults and callbacks, as they happened."""
        self.accounts: Accounts = Accounts(settings, self._cond, self.journal)
        """Keys and plans, balances and their charges."""
        self.slots: Slots = Slots(settings, self._cond)
        """The platform's enrichment slots, and the jobs queued for one."""
        self.lead_store: LeadStore = LeadStore(settings, self._cond)
        """The enriched leads of every account."""
        self.runs: Runs = Runs(settings, self._cond, self.accounts, self.slots, self.lead_store)
        """Enrichments from admission to their end."""
        self.async_jobs: Jobs = Jobs(settings, self._cond, self.runs, self.slots, self.lead_store)
        """Async enrichment jobs, around their runs."""
        self.searches: Searches = Searches(settings, self._cond, self.accounts)
        """Email searches and mobile lookups."""
        self.scripted: ScriptedFaults = ScriptedFaults()
        """Faults asked for by name (FakeServer.fail_next), played before any rate's."""

    def wait_until(self, predicate: Callable[[], bool], timeout: float = 5.0) -> bool:
        """Block until `predicate()` is true (re-checked after every change); False on timeout.

        Examples:
            >>> server.state.wait_until(lambda: len(server.state.callbacks()) == 1)
            True
        """
        with self._cond:
            return self._cond.wait_for(predicate, timeout)

    # Accounts and keys (FakeServer adds and revokes them).

    def user_of(self, key: str) -> str:
        """The account (user) name a key belongs to."""
        return self.accounts.user_of(key)

    def keys_of(self, user: str) -> list[str]:
        """Every key of an account, oldest first."""
        return self.accounts.keys_of(user)

    # What the server holds.

    def jobs(self, *, user: str | None = None) -> list[JobOut]:
        """Every job, oldest first."""
        return self.async_jobs.outs(user)

    def leads(self, *, user: str | None = None) -> list[LeadOut]:
        """Every stored lead, oldest first."""
        return self.lead_store.outs(user)

    def lookups(self, *, user: str | None = None) -> list[MobileFindOut]:
        """Every mobile lookup, oldest first."""
        return self.searches.outs(user)

    @property
    def in_flight(self) -> int:
        """Enrichments holding a platform slot right now."""
        return self.slots.in_flight

    @property
    def peak_in_flight(self) -> int:
        """The most enrichments that were ever in flight at once."""
        return self.slots.peak_in_flight

    # What happened: the journal's records.

    def requests(self) -> list[RequestRecord]:
        """Every request answered so far, oldest first (health included)."""
        return self.journal.requests()

    def status_counts(self, key: str | None) -> dict[int, int]:
        """How many requests `key` made, by response status (None: requests without a key)."""
        return self.journal.status_counts(key)

    def charges(
        self, *, key: str | None = None, user: str | None = None, kind: ChargeKind | None = None
    ) -> list[Charge]:
        """Every charge and refund, oldest first, optionally only those of a key, user or kind."""
        return self.journal.charges(key=key, user=user, kind=kind)

    def charged(self, kind: ChargeKind, *, key: str | None = None, user: str | None = None) -> int:
        """Net credits of `kind` spent (charges minus refunds)."""
        return self.journal.charged(kind, key=key, user=user)

    def faults(self, *, kind: FaultKind | None = None) -> list[FaultRecord]:
        """Every fault injected so far, oldest first, optionally only those of one kind."""
        return self.journal.faults(kind=kind)

    def fault_counts(self) -> dict[FaultKind, int]:
        """How many faults of each kind were injected (kinds never injected are left out)."""
        return self.journal.fault_counts()

    def callbacks(self) -> list[CallbackDelivery]:
        """Every callback delivery attempt, in order."""
        return self.journal.callbacks()

    def received_callbacks(self, name: str = "default") -> list[Any]:
        """The bodies POSTed to the built-in receiver `server.callback_url(name)`."""
        return self.journal.received_callbacks(name)

    @property
    def serving(self) -> int:
        """Requests being handled right now."""
        return self.journal.serving

    @property
    def peak_serving(self) -> int:
        """The most requests ever handled at once (see `Journal.peak_serving`)."""
        return self.journal.peak_serving

    @property
    def connections(self) -> int:
        """Client connections open right now."""
        return self.journal.connections

    @property
    def peak_connections(self) -> int:
        """The most client connections that were ever open at once."""
        return self.journal.peak_connections

    @property
    def connections_opened(self) -> int:
        """Client connections accepted since the server started."""
        return self.journal.connections_opened
