"""Runs: enrichment runs from admission (charged, holding a slot) to the lead stored or refunded.

A run is what sync enrich, re-enrich and an async job all do; the waiting between
admission and the end happens in the runtime, between calls into this part.
"""

from __future__ import annotations

import threading
from typing import Any

from .._models import LeadIn, LeadOut
from . import _content
from ._accounts import Accounts
from ._lead_store import LeadStore
from ._records import Caller, Follow, Run, stamp
from ._settings import FakeSettings
from ._slots import Slots
from ._stored import StoredLead, new_id

__all__ = ["Runs"]


class Runs:
    """The runs still open, and the emails they are enriching.

    A part of FakeState: every method takes the state's lock.
    """

    def __init__(
        self,
        settings: FakeSettings,
        cond: threading.Condition,
        accounts: Accounts,
        slots: Slots,
        store: LeadStore,
    ) -> None:
        self._settings = settings
        self._cond = cond
        self._accounts = accounts
        self._slots = slots
        self._store = store
        self._open: set[str] = set()
        self._emails: dict[tuple[str, str], str] = {}
        """(user, email) -> the first open run with that email, for `same_email_in_flight`."""

    def running(self, ref: str) -> bool:
        """Whether the run `ref` was admitted and has not ended yet."""
        with self._cond:
            return ref in self._open

    def admit(
        self,
        caller: Caller,
        lead: LeadIn,
        ref: str,
        lead_id: str,
        *,
        refresh: bool = False,
        slot: bool = True,
    ) -> Run:
        """A run, charged (unless a free re-enrichment) and, when `slot`, holding a slot;
        402 and 429 charge nothing."""
        with self._cond:
            charged = not (refresh and self._settings.re_enrich_charge == "free")
            if charged:
                self._accounts.account(caller.user).check_enrichment_pool()
            if slot:
                self._slots.take(ref)
            if charged:
                self._accounts.charge("enrichment", caller, ref)
            self._open.add(ref)
            email = self._email_key(caller.user, lead.email)
            if email is not None and not refresh:
                self._emails.setdefault(email, ref)
            self._cond.notify_all()
        low, high = self._settings.enrichment_seconds
        api_seconds = low + (high - low) * _content.fraction(lead.domain, lead.email, lead.name)
        return Run(
            ref=ref,
            lead_id=lead_id,
            caller=caller,
            lead=lead,
            seconds=self._settings.real_seconds(api_seconds),
            fails=bool(self._settings.enrichment_fails(lead)),
            refresh=refresh,
            charged=charged,
        )

    def follow(self, user: str, email: str | None) -> Follow | None:
        """Under `same_email_in_flight="dedupe"`, the run to wait for, if one has this email."""
        key = self._email_key(user, email)
        if self._settings.same_email_in_flight != "dedupe" or key is None:
            return None
        with self._cond:
            ref = self._emails.get(key)
        return Follow(ref) if ref is not None else None

    def admit_sync(self, caller: Caller, lead: LeadIn) -> LeadOut | Run | Follow:
        """The deduped record, a run to wait for first, or a charged run holding a slot."""
        with self._cond:
            duplicate = self._store.with_email(caller.user, lead.email)
            if duplicate is not None:
                return duplicate.out(deduped=True)
            follow = self.follow(caller.user, lead.email)
            if follow is not None:
                return follow
            lead_id = new_id("ld")
            return self.admit(caller, lead, lead_id, lead_id)

    def admit_re_enrich(self, caller: Caller, lead_id: str) -> Run:
        with self._cond:
            lead = self._store.owned(caller, lead_id)
            return self.admit(caller, lead.input, lead.id, lead.id, refresh=True)

    def finish(self, run: Run) -> LeadOut | dict[str, Any]:
        """End a run: free its slot, then store the lead, or refund and return the error."""
        with self._cond:
            self._release(run)
            if run.fails:
                if run.charged:
                    self._accounts.charge("enrichment", run.caller, run.ref, -1)
                return {
                    "code": "enrichment_failed",
                    "message": f"could not enrich {run.lead.domain}: no company data was found for this domain",
                    "refunded": run.charged,
                }
            tier = self._accounts.account(run.caller.user).tier
            stored = self._store.get(run.lead_id) if run.refresh else None
            if stored is not None:
                stored.runs += 1
                stored.enrichment = _content.enrichment_for(stored.input, stored.runs)
                stored.tier = tier
                return stored.out()
            lead = StoredLead(
                run.lead_id,
                run.caller.user,
                run.lead,
                _content.enrichment_for(run.lead),
                tier,
                stamp(self._settings),
            )
            if not run.refresh:
                # A lead deleted while it was being re-enriched stays deleted.
                self._store.add(lead)
            return lead.out()

    def abandon(self, run: Run) -> None:
        """A run cut short (the server is stopping): free the slot and refund."""
        with self._cond:
            self._release(run)
            if run.charged:
                self._accounts.charge("enrichment", run.caller, run.ref, -1)

    def _release(self, run: Run) -> None:
        """The run is over: its slot (or its place in the queue) and its email are free."""
        self._slots.release(run.ref)
        self._open.discard(run.ref)
        email = self._email_key(run.caller.user, run.lead.email)
        if email is not None and self._emails.get(email) == run.ref:
            del self._emails[email]
        self._cond.notify_all()

    def _email_key(self, user: str, email: str | None) -> tuple[str, str] | None:
        """The key runs in flight are matched by, compared as `dedupe_emails` says."""
        return (user, self._store.matched(email)) if email and email.strip() else None
