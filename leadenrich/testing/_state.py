"""FakeState: the server's memory, and every rule of the spec that changes it.

One re-entrant lock (the Journal's) guards everything: the server's event loop and test
threads both read and write here. Nothing in this module waits or does I/O, so the lock is only ever
held for a few microseconds; the waiting (enrichment time, lookup time) happens in the
app, between calls into this class.
"""

from __future__ import annotations

import math
import secrets
import time
from collections import deque
from typing import Any

from .._models import (
    EmailFindIn,
    EmailFindOut,
    JobOut,
    LeadIn,
    LeadOut,
    MobileFindIn,
    MobileFindOut,
    UsageOut,
)
from . import _content
from ._accounts import Account, ApiKey, Bucket, new_key
from ._journal import Journal
from ._records import ApiError, Caller, ChargeKind, Follow, Run, utcnow
from ._settings import API_TIERS, FakeSettings, check_tier
from ._stored import StoredJob, StoredLead, StoredLookup

__all__ = ["DEFAULT", "FakeState", "upstream_full"]

AUTH_DETAIL = (
    "missing or invalid API key: pass your key as a Bearer token in the Authorization header "
    "(Authorization: Bearer <API_KEY>)"
)


class _Default:
    def __repr__(self) -> str:
        return "DEFAULT"


DEFAULT: Any = _Default()
"""Stands for "the settings' value" where None already means "unlimited"."""


def _count(name: str, value: object, hint: str = "") -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be an int >= 0{hint}, got {value!r}")


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


def _id(prefix: str) -> str:
    return f"{prefix}_{secrets.token_hex(8)}"


class FakeState(Journal):
    """Accounts, leads, jobs and lookups, plus a log of requests, charges and callbacks.

    Tests read it through `server.state`; every method is safe to call from any thread.

    Examples:
        >>> server.state.charged("enrichment", key=server.api_key)  # doctest: +SKIP
        1
    """

    def __init__(self, settings: FakeSettings) -> None:
        super().__init__()
        self.settings = settings
        self._accounts: dict[str, Account] = {}
        self._keys: dict[str, ApiKey] = {}
        self._leads: dict[str, StoredLead] = {}
        self._jobs: dict[str, StoredJob] = {}
        self._lookups: dict[str, StoredLookup] = {}
        self._in_flight = 0
        self._peak_in_flight = 0
        self._slotted: set[str] = set()
        """The runs holding a platform slot."""
        self._waiting: deque[str] = deque()
        """Jobs past their intake time waiting for a slot, oldest first (`queue` admission)."""
        self._open_runs: set[str] = set()
        self._running_emails: dict[tuple[str, str], str] = {}
        """(user, email) -> the first open run with that email, for `same_email_in_flight`."""

    def add_key(
        self,
        tier: str | None = None,
        *,
        user: str | None = None,
        monthly_leads: int | None = DEFAULT,
        credits: int | None = None,
        mobile_credits: int | None = None,
    ) -> str:
        """A new key; see FakeServer.add_key."""
        with self._cond:
            account = self._accounts.get(user) if user is not None else None
            if account is not None:
                given = [
                    name
                    for name, value in (
                        ("tier", tier),
                        ("credits", credits),
                        ("mobile_credits", mobile_credits),
                    )
                    if value is not None
                ] + (["monthly_leads"] if monthly_leads is not DEFAULT else [])
                if given:
                    raise ValueError(
                        f"user {user!r} already exists, so its plan and balances are set: pass only "
                        f"user={user!r} to add a key to it (got {', '.join(given)} too)"
                    )
            else:
                account = self._new_account(user, tier, monthly_leads, credits, mobile_credits)
            key = ApiKey(new_key(), account)
            account.keys.append(key)
            self._keys[key.secret] = key
            return key.secret

    def _new_account(
        self,
        user: str | None,
        tier: str | None,
        monthly_leads: int | None,
        credits: int | None,
        mobile_credits: int | None,
    ) -> Account:
        s = self.settings
        tier = s.tier if tier is None else tier
        check_tier("tier", tier)
        if monthly_leads is DEFAULT:
            monthly_leads = s.monthly_leads
        credits = s.credits if credits is None else credits
        mobile_credits = s.mobile_credits if mobile_credits is None else mobile_credits
        _count("credits", credits)
        _count("mobile_credits", mobile_credits)
        if monthly_leads is not None:
            _count("monthly_leads", monthly_leads, " or None for unlimited")
        name = user if user is not None else f"user_{len(self._accounts) + 1}"
        while name in self._accounts:
            name += "_"
        account = Account(name, tier, monthly_leads, credits, mobile_credits)
        self._accounts[name] = account
        return account

    def add_credits(self, user: str, *, credits: int = 0, mobile_credits: int = 0) -> None:
        """Buy packs for `user`: `credits` leads and `mobile_credits` mobile credits more."""
        _count("credits", credits)
        _count("mobile_credits", mobile_credits)
        with self._cond:
            account = self._account(user)
            account.credits_added += credits
            account.mobile_purchased += mobile_credits
            self._cond.notify_all()

    def user_of(self, key: str) -> str:
        """The account (user) name a key belongs to."""
        with self._cond:
            found = self._keys.get(key)
            if found is None:
                raise KeyError(f"no such key: {key[:12]}...")
            return found.account.name

    def keys_of(self, user: str) -> list[str]:
        """Every key of an account, oldest first."""
        with self._cond:
            return [k.secret for k in self._account(user).keys]

    def _account(self, user: str) -> Account:
        account = self._accounts.get(user)
        if account is None:
            raise KeyError(f"no such user: {user!r}")
        return account

    def authenticate(self, token: str | None, bucket: Bucket | None) -> Caller:
        """401 for an unknown key, 403 for a plan without API access, 429 over the key's rate.

        Every request that carries a known key is counted in the month's API calls,
        whatever its outcome; a request the rate limit rejects is not counted in the window.
        """
        with self._cond:
            key = self._keys.get(token) if token else None
            if key is None:
                raise ApiError(401, AUTH_DETAIL, {"WWW-Authenticate": "Bearer"})
            key.calls += 1
            account = key.account
            if account.tier not in API_TIERS:
                raise ApiError(
                    403,
                    f"the {account.tier} plan does not include API access: "
                    "upgrade to Growth, Scale or Enterprise",
                )
            if bucket is not None:
                key.admit(bucket, self.settings, time.monotonic())
            return Caller(key.secret, account.name)

    def _take_slot(self, ref: str) -> None:
        if self._in_flight >= self.settings.max_concurrent_enrichments:
            raise upstream_full(self.settings)
        self._slotted.add(ref)
        self._in_flight += 1
        self._peak_in_flight = max(self._peak_in_flight, self._in_flight)

    def _release(self, run: Run) -> None:
        """The run is over: its slot (or its place in the queue) and its email are free."""
        if run.ref in self._slotted:
            self._slotted.discard(run.ref)
            self._in_flight -= 1
        if run.ref in self._waiting:
            self._waiting.remove(run.ref)
        self._open_runs.discard(run.ref)
        email = self._email_key(run.caller.user, run.lead.email)
        if email is not None and self._running_emails.get(email) == run.ref:
            del self._running_emails[email]

    def _charge(self, kind: ChargeKind, caller: Caller, ref: str, amount: int = 1) -> None:
        account = self._accounts[caller.user]
        if kind == "mobile":
            account.mobile_used += amount
        else:
            account.leads_used += amount
        self._record_charge(kind, caller, ref, amount)

    def _duplicate(self, user: str, email: str | None) -> StoredLead | None:
        if not email:
            return None
        same = self._same_email
        wanted = same(email)
        for lead in self._leads.values():
            if lead.user == user and lead.input.email and same(lead.input.email) == wanted:
                return lead
        return None

    def _same_email(self, email: str) -> str:
        return email if self.settings.dedupe_emails == "exact" else email.strip().lower()

    def _email_key(self, user: str, email: str | None) -> tuple[str, str] | None:
        """The key runs in flight are matched by, compared as `dedupe_emails` says."""
        return (user, self._same_email(email)) if email and email.strip() else None

    def _follow(self, user: str, email: str | None) -> Follow | None:
        """Under `same_email_in_flight="dedupe"`, the run to wait for, if one has this email."""
        key = self._email_key(user, email)
        if self.settings.same_email_in_flight != "dedupe" or key is None:
            return None
        ref = self._running_emails.get(key)
        return Follow(ref) if ref is not None else None

    def _admit(
        self,
        caller: Caller,
        lead: LeadIn,
        ref: str,
        lead_id: str,
        *,
        refresh: bool = False,
        slot: bool = True,
    ) -> Run:
        """A run, charged (unless a free re-enrichment) and, when `slot`, holding a slot."""
        account = self._accounts[caller.user]
        charged = not (refresh and self.settings.re_enrich_charge == "free")
        if charged:
            account.check_enrichment_pool()
        if slot:
            self._take_slot(ref)
        if charged:
            self._charge("enrichment", caller, ref)
        self._open_runs.add(ref)
        email = self._email_key(caller.user, lead.email)
        if email is not None and not refresh:
            self._running_emails.setdefault(email, ref)
        low, high = self.settings.enrichment_seconds
        api_seconds = low + (high - low) * _content.fraction(lead.domain, lead.email, lead.name)
        return Run(
            ref=ref,
            lead_id=lead_id,
            caller=caller,
            lead=lead,
            seconds=self.settings.real_seconds(api_seconds),
            fails=bool(self.settings.enrichment_fails(lead)),
            refresh=refresh,
            charged=charged,
        )

    def running(self, ref: str) -> bool:
        """Whether the run `ref` was admitted and has not ended yet."""
        with self._cond:
            return ref in self._open_runs

    def admit_sync(self, caller: Caller, lead: LeadIn) -> LeadOut | Run | Follow:
        """The deduped record, a run to wait for first, or a charged run holding a slot
        (402 and 429 charge nothing)."""
        with self._cond:
            duplicate = self._duplicate(caller.user, lead.email)
            if duplicate is not None:
                return duplicate.out(deduped=True)
            follow = self._follow(caller.user, lead.email)
            if follow is not None:
                return follow
            lead_id = _id("ld")
            run = self._admit(caller, lead, lead_id, lead_id)
            self._cond.notify_all()
            return run

    def admit_re_enrich(self, caller: Caller, lead_id: str) -> Run:
        with self._cond:
            lead = self._owned(self._leads, caller, lead_id, "lead")
            run = self._admit(caller, lead.input, lead.id, lead.id, refresh=True)
            self._cond.notify_all()
            return run

    def create_job(
        self, caller: Caller, lead: LeadIn, callback_url: str | None
    ) -> tuple[JobOut, Run | Follow | None]:
        """A queued job and what it does next (a charged run, or a run to wait for), or a
        job already done with the deduped record.

        Under `job_admission="upstream_full"` the run takes its slot now (429 when none
        is free); under `queue` it waits for one in `start_job`.
        """
        with self._cond:
            job_id = _id("job")
            now = utcnow()
            duplicate = self._duplicate(caller.user, lead.email)
            plan: Run | Follow | None
            if duplicate is not None:
                job = StoredJob(job_id, caller.user, caller.key, "done", now, callback_url, now, now)
                job.result = duplicate.out(deduped=True)
                plan = None
            else:
                plan = self._follow(caller.user, lead.email)
                if plan is None:
                    slot = self.settings.job_admission == "upstream_full"
                    plan = self._admit(caller, lead, job_id, _id("ld"), slot=slot)
                job = StoredJob(job_id, caller.user, caller.key, "queued", now, callback_url)
            self._jobs[job_id] = job
            self._cond.notify_all()
            return job.out(), plan

    def follow_job(self, job_id: str, caller: Caller, lead: LeadIn) -> Run | Follow | None:
        """A job whose same-email run has ended: done with that lead (deduped, free), or
        another run to wait for, or its own run (which queues for a slot). A job the
        quota no longer allows fails, charged nothing."""
        with self._cond:
            job = self._jobs[job_id]
            duplicate = self._duplicate(caller.user, lead.email)
            if duplicate is not None:
                job.status, job.result = "done", duplicate.out(deduped=True)
                job.started_at = job.finished_at = utcnow()
                self._cond.notify_all()
                return None
            follow = self._follow(caller.user, lead.email)
            if follow is not None:
                return follow
            try:
                return self._admit(caller, lead, job_id, _id("ld"), slot=False)
            except ApiError as exc:
                job.status, job.finished_at = "failed", utcnow()
                job.error = {"code": "quota_exceeded", "message": exc.detail, "refunded": False}
                self._cond.notify_all()
                return None

    def start_job(self, run: Run) -> bool:
        """Move the job to `running` if its run holds a slot or can take one now (the
        oldest waiting job first); False while it must stay `queued`."""
        with self._cond:
            if run.ref not in self._slotted:
                if run.ref not in self._waiting:
                    self._waiting.append(run.ref)
                busy = self._in_flight >= self.settings.max_concurrent_enrichments
                if busy or self._waiting[0] != run.ref:
                    return False
                self._waiting.popleft()
                self._take_slot(run.ref)
            job = self._jobs[run.ref]
            job.status = "running"
            job.started_at = utcnow()
            self._cond.notify_all()
            return True

    def finish_job(self, run: Run) -> JobOut:
        with self._cond:
            outcome = self.finish(run)
            job = self._jobs[run.ref]
            job.finished_at = utcnow()
            if isinstance(outcome, LeadOut):
                job.status, job.result = "done", outcome
            else:
                job.status, job.error = "failed", outcome
            self._cond.notify_all()
            return job.out()

    def finish(self, run: Run) -> LeadOut | dict[str, Any]:
        """End a run: free its slot, then store the lead, or refund and return the error."""
        with self._cond:
            self._release(run)
            self._cond.notify_all()
            if run.fails:
                if run.charged:
                    self._charge("enrichment", run.caller, run.ref, -1)
                return {
                    "code": "enrichment_failed",
                    "message": f"could not enrich {run.lead.domain}: no company data was found for this domain",
                    "refunded": run.charged,
                }
            tier = self._accounts[run.caller.user].tier
            stored = self._leads.get(run.lead_id) if run.refresh else None
            if stored is not None:
                stored.runs += 1
                stored.enrichment = _content.enrichment_for(stored.input, stored.runs)
                stored.tier = tier
                return stored.out()
            lead = StoredLead(
                run.lead_id, run.caller.user, run.lead, _content.enrichment_for(run.lead), tier, utcnow()
            )
            if not run.refresh:
                # A lead deleted while it was being re-enriched stays deleted.
                self._leads[lead.id] = lead
            return lead.out()

    def abandon(self, run: Run) -> None:
        """A run cut short (the server is stopping): free the slot and refund."""
        with self._cond:
            self._release(run)
            if run.charged:
                self._charge("enrichment", run.caller, run.ref, -1)
            self._stop_job(run.ref, refunded=run.charged)
            self._cond.notify_all()

    def abandon_job(self, job_id: str) -> None:
        """A job cut short before it had a run (it was waiting for one with its email)."""
        with self._cond:
            self._stop_job(job_id, refunded=False)
            self._cond.notify_all()

    def _stop_job(self, job_id: str, *, refunded: bool) -> None:
        job = self._jobs.get(job_id)
        if job is not None and job.status in ("queued", "running"):
            job.status, job.finished_at = "failed", utcnow()
            job.error = {"code": "server_stopped", "message": "the fake server stopped", "refunded": refunded}

    def job_out(self, job_id: str) -> JobOut:
        """A job as it stands, whoever owns it."""
        with self._cond:
            return self._jobs[job_id].out()

    def _owned(self, table: dict[str, Any], caller: Caller, item_id: str, what: str) -> Any:
        item = table.get(item_id)
        if item is None or item.user != caller.user:
            raise ApiError(404, f"{what} {item_id!r} not found")
        return item

    def job(self, caller: Caller, job_id: str) -> JobOut:
        with self._cond:
            job: StoredJob = self._owned(self._jobs, caller, job_id, "job")
            return job.out()

    def lead(self, caller: Caller, lead_id: str) -> LeadOut:
        with self._cond:
            lead: StoredLead = self._owned(self._leads, caller, lead_id, "lead")
            return lead.out()

    def delete_lead(self, caller: Caller, lead_id: str) -> None:
        with self._cond:
            self._owned(self._leads, caller, lead_id, "lead")
            del self._leads[lead_id]
            self._cond.notify_all()

    def page(self, caller: Caller, limit: int, skip: int) -> tuple[list[LeadOut], int]:
        """One page of the account's leads in the settings' `list_order` (by creation;
        re-enrichment does not move a lead), and how many there are."""
        with self._cond:
            mine = [lead for lead in self._leads.values() if lead.user == caller.user]
            if self.settings.list_order == "newest_first":
                mine.reverse()
            return [lead.out() for lead in mine[skip : skip + limit]], len(mine)

    def usage(self, caller: Caller) -> UsageOut:
        with self._cond:
            key = self._keys[caller.key]
            return key.account.usage(key)

    def find_email(self, caller: Caller, query: EmailFindIn) -> EmailFindOut:
        """A hit (one enrichment credit) or a free miss; 402 when the pool is empty."""
        with self._cond:
            self._accounts[caller.user].check_enrichment_pool()
            contact = _content.contact_name(query)
            if not self.settings.email_found(query):
                return EmailFindOut(state="not_found", contact=contact, message="no work email found")
            email = _content.email_address(query)
            status, score = _content.email_quality(query)
            self._charge("email", caller, f"email:{email}")
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
            account = self._accounts[caller.user]
            account.check_mobile_pool()
            account.mobile_held += 1
            lookup = StoredLookup(
                _id("mob"), caller.user, caller.key, "pending", _content.contact_name(query), utcnow(), query
            )
            self._lookups[lookup.id] = lookup
            self._cond.notify_all()
            low, high = self.settings.mobile_lookup_seconds
            api_seconds = low + (high - low) * _content.fraction(query.model_dump_json())
            return lookup.out(), self.settings.real_seconds(api_seconds)

    def settle_lookup(self, lookup_id: str) -> None:
        """Settle with a number (the held credit is charged) or refund it."""
        with self._cond:
            lookup = self._lookups[lookup_id]
            if lookup.state != "pending":
                return
            account = self._accounts[lookup.user]
            account.mobile_held -= 1
            if self.settings.mobile_found(lookup.query):
                lookup.state, lookup.mobile = "settled", _content.mobile_number(lookup.query)
                self._charge("mobile", Caller(lookup.key, lookup.user), lookup.id)
            else:
                lookup.state = "refunded"
            self._cond.notify_all()

    def lookup(self, caller: Caller, lookup_id: str) -> MobileFindOut:
        with self._cond:
            lookup: StoredLookup = self._owned(self._lookups, caller, lookup_id, "lookup")
            return lookup.out()

    def jobs(self, *, user: str | None = None) -> list[JobOut]:
        """Every job, oldest first."""
        with self._cond:
            return [j.out() for j in self._jobs.values() if user is None or j.user == user]

    def leads(self, *, user: str | None = None) -> list[LeadOut]:
        """Every stored lead, oldest first."""
        with self._cond:
            return [lead.out() for lead in self._leads.values() if user is None or lead.user == user]

    def lookups(self, *, user: str | None = None) -> list[MobileFindOut]:
        """Every mobile lookup, oldest first."""
        with self._cond:
            return [m.out() for m in self._lookups.values() if user is None or m.user == user]

    @property
    def in_flight(self) -> int:
        """Enrichments holding a platform slot right now."""
        with self._cond:
            return self._in_flight

    @property
    def peak_in_flight(self) -> int:
        """The most enrichments that were ever in flight at once."""
        with self._cond:
            return self._peak_in_flight
