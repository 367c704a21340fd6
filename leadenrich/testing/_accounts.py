"""Accounts: who may call the fake server, on which plan, and the balances each spends."""

from __future__ import annotations

import threading
import time
from typing import Any

from .._models import UsageOut
from ._account import Account, ApiKey, Bucket, new_key
from ._journal import Journal
from ._records import ApiError, Caller, ChargeKind
from ._settings import API_TIERS, FakeSettings, check_tier

__all__ = ["DEFAULT", "Accounts"]

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


class Accounts:
    """The accounts and their keys: added, revoked, authenticated, charged.

    A part of FakeState: every method takes the state's lock.
    """

    def __init__(self, settings: FakeSettings, cond: threading.Condition, journal: Journal) -> None:
        self._settings = settings
        self._cond = cond
        self._journal = journal
        self._accounts: dict[str, Account] = {}
        self._keys: dict[str, ApiKey] = {}

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
        s = self._settings
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
            account = self.account(user)
            account.credits_added += credits
            account.mobile_purchased += mobile_credits
            self._cond.notify_all()

    def revoke_key(self, key: str) -> None:
        """Revoke a key: from now on its requests get 401, as after a rotation."""
        with self._cond:
            revoked = self._keys.pop(key)
            revoked.account.keys.remove(revoked)

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
            return [k.secret for k in self.account(user).keys]

    def named(self, key_or_user: str) -> str:
        """The user a key belongs to, or `key_or_user` itself when it names a user."""
        with self._cond:
            found = self._keys.get(key_or_user)
            if found is not None:
                return found.account.name
            return self.account(key_or_user).name

    def account(self, user: str) -> Account:
        """The account of `user`; KeyError naming it when there is none."""
        with self._cond:
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
                key.admit(bucket, self._settings, time.monotonic())
            return Caller(key.secret, account.name)

    def charge(self, kind: ChargeKind, caller: Caller, ref: str, amount: int = 1) -> None:
        """Move the balance of `kind` by `amount` (a refund is -1), and log it."""
        with self._cond:
            account = self._accounts[caller.user]
            if kind == "mobile":
                account.mobile_used += amount
            else:
                account.leads_used += amount
            self._journal.record_charge(kind, caller, ref, amount)

    def usage(self, caller: Caller) -> UsageOut:
        with self._cond:
            key = self._keys[caller.key]
            return key.account.usage(key)
