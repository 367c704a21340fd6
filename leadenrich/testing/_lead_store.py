"""LeadStore: the enriched leads of every account, their listing, and matching by email."""

from __future__ import annotations

import threading

from .._models import LeadOut
from ._records import Caller
from ._settings import FakeSettings
from ._stored import StoredLead, owned

__all__ = ["LeadStore"]


class LeadStore:
    """Leads by id, in the order they were created.

    A part of FakeState: every method takes the state's lock.
    """

    def __init__(self, settings: FakeSettings, cond: threading.Condition) -> None:
        self._settings = settings
        self._cond = cond
        self._leads: dict[str, StoredLead] = {}

    def add(self, lead: StoredLead) -> None:
        with self._cond:
            self._leads[lead.id] = lead
            self._cond.notify_all()

    def get(self, lead_id: str) -> StoredLead | None:
        """The lead, whoever owns it; None once deleted."""
        with self._cond:
            return self._leads.get(lead_id)

    def owned(self, caller: Caller, lead_id: str) -> StoredLead:
        """The caller's lead, or a 404."""
        with self._cond:
            return owned(self._leads, caller, lead_id, "lead")

    def out(self, caller: Caller, lead_id: str) -> LeadOut:
        with self._cond:
            return self.owned(caller, lead_id).out()

    def delete(self, caller: Caller, lead_id: str) -> None:
        with self._cond:
            self.owned(caller, lead_id)
            del self._leads[lead_id]
            self._cond.notify_all()

    def page(self, caller: Caller, limit: int, skip: int) -> tuple[list[LeadOut], int]:
        """One page of the account's leads in the settings' `list_order` (by creation;
        re-enrichment does not move a lead), and how many there are."""
        with self._cond:
            mine = [lead for lead in self._leads.values() if lead.user == caller.user]
            if self._settings.list_order == "newest_first":
                mine.reverse()
            return [lead.out() for lead in mine[skip : skip + limit]], len(mine)

    def outs(self, user: str | None) -> list[LeadOut]:
        """Every stored lead (of `user`, when given), oldest first."""
        with self._cond:
            return [lead.out() for lead in self._leads.values() if user is None or lead.user == user]

    def with_email(self, user: str, email: str | None) -> StoredLead | None:
        """The account's lead with this email, compared as `dedupe_emails` says."""
        if not email:
            return None
        wanted = self.matched(email)
        with self._cond:
            for lead in self._leads.values():
                if lead.user == user and lead.input.email and self.matched(lead.input.email) == wanted:
                    return lead
        return None

    def matched(self, email: str) -> str:
        """The form two emails are compared in: as written, or trimmed and in lower case."""
        return email if self._settings.dedupe_emails == "exact" else email.strip().lower()
