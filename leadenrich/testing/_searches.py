"""Searches: work emails (found at once) and mobile lookups (pending, then settled or refunded)."""

from __future__ import annotations

import threading

from .._models import EmailFindIn, EmailFindOut, MobileFindIn, MobileFindOut
from . import _content
from ._accounts import Accounts
from ._records import Caller, stamp
from ._settings import FakeSettings
from ._stored import StoredLookup, new_id, owned

__all__ = ["Searches"]


class Searches:
    """Every mobile lookup by id, oldest first; email searches leave only their charge.

    A part of FakeState: every method takes the state's lock.
    """

    def __init__(self, settings: FakeSettings, cond: threading.Condition, accounts: Accounts) -> None:
        self._settings = settings
        self._cond = cond
        self._accounts = accounts
        self._lookups: dict[str, StoredLookup] = {}

    def find_email(self, caller: Caller, query: EmailFindIn) -> EmailFindOut:
        """A hit (one enrichment credit) or a free miss; 402 when the pool is empty."""
        with self._cond:
            self._accounts.account(caller.user).check_enrichment_pool()
            contact = _content.contact_name(query)
            if not self._settings.email_found(query):
                return EmailFindOut(state="not_found", contact=contact, message="no work email found")
            email = _content.email_address(query)
            status, score = _content.email_quality(query)
            self._accounts.charge("email", caller, f"email:{email}")
            self._cond.notify_all()
            return EmailFindOut(
                state="found",
                email=email,
                email_status=status,
                email_score=score,
                source="service_verified",
                contact=contact,
            )

    def create_lookup(self, caller: Caller, query: MobileFindIn) -> tuple[MobileFindOut, float]:
        """A pending lookup holding one mobile credit, and the real seconds until it settles."""
        with self._cond:
            account = self._accounts.account(caller.user)
            account.check_mobile_pool()
            account.mobile_held += 1
            lookup = StoredLookup(
                new_id("mob"),
                caller.user,
                caller.key,
                "pending",
                _content.contact_name(query),
                stamp(self._settings),
                query,
            )
            self._lookups[lookup.id] = lookup
            self._cond.notify_all()
        low, high = self._settings.mobile_lookup_seconds
        api_seconds = low + (high - low) * _content.fraction(query.model_dump_json())
        return lookup.out(), self._settings.real_seconds(api_seconds)

    def settle(self, lookup_id: str) -> None:
        """Settle with a number (the held credit is charged) or refund it."""
        with self._cond:
            lookup = self._lookups[lookup_id]
            if lookup.state != "pending":
                return
            account = self._accounts.account(lookup.user)
            account.mobile_held -= 1
            if self._settings.mobile_found(lookup.query):
                lookup.state, lookup.mobile = "settled", _content.mobile_number(lookup.query)
                self._accounts.charge("mobile", Caller(lookup.key, lookup.user), lookup.id)
            else:
                lookup.state = "refunded"
            self._cond.notify_all()

    def owned(self, caller: Caller, lookup_id: str) -> MobileFindOut:
        """The caller's lookup, or a 404."""
        with self._cond:
            return owned(self._lookups, caller, lookup_id, "lookup").out()

    def outs(self, user: str | None) -> list[MobileFindOut]:
        """Every mobile lookup (of `user`, when given), oldest first."""
        with self._cond:
            return [m.out() for m in self._lookups.values() if user is None or m.user == user]
