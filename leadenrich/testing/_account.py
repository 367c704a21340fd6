"""One account and its keys: a plan, its balances and each key's sliding windows.

Plain data with the arithmetic of the spec's limits; `Accounts` holds them and calls
this under the state's lock.
"""

from __future__ import annotations

import math
import secrets
from collections import deque
from dataclasses import dataclass, field
from typing import Literal

from .._models import ApiCalls, MobileCredits, MonthlyLeads, UsageOut
from ._records import ApiError
from ._settings import FakeSettings

__all__ = ["Account", "ApiKey", "Bucket", "new_key"]

Bucket = Literal["sync", "async"]


def new_key() -> str:
    """A key in the service's format: the live prefix, then the secret."""
    return "le_live_" + secrets.token_hex(16)


@dataclass(eq=False)
class Account:
    """One user: a plan, the enrichment pool, the mobile pool, and its keys."""

    name: str
    tier: str
    monthly_leads: int | None
    credits_added: int
    mobile_purchased: int
    leads_used: int = 0
    mobile_used: int = 0
    mobile_held: int = 0
    keys: list[ApiKey] = field(default_factory=list["ApiKey"])

    @property
    def effective_limit(self) -> int | None:
        return None if self.monthly_leads is None else self.monthly_leads + self.credits_added

    def check_enrichment_pool(self) -> None:
        """402 unless one more enrichment (or email hit) fits the month's limit."""
        limit = self.effective_limit
        if limit is not None and self.leads_used >= limit:
            raise ApiError(
                402,
                f"monthly lead limit reached ({self.leads_used} of {limit} used): "
                "buy a credit pack to continue",
            )

    def check_mobile_pool(self) -> None:
        """402 unless a mobile credit is free (pending lookups hold one each)."""
        if self.mobile_used + self.mobile_held >= self.mobile_purchased:
            raise ApiError(
                402,
                f"mobile credit limit reached ({self.mobile_purchased} purchased, {self.mobile_used} used, "
                f"{self.mobile_held} held by pending lookups): buy a mobile credit pack to continue",
            )

    def usage(self, key: ApiKey) -> UsageOut:
        return UsageOut(
            tier=self.tier,
            monthly_leads=MonthlyLeads(
                included=self.monthly_leads,
                credits_added=self.credits_added,
                effective_limit=self.effective_limit,
                used=self.leads_used,
            ),
            mobile_credits=MobileCredits(
                purchased=self.mobile_purchased,
                used=self.mobile_used,
                balance=self.mobile_purchased - self.mobile_used,
            ),
            api_calls_this_month=ApiCalls(total=sum(k.calls for k in self.keys), this_key=key.calls),
        )


@dataclass(eq=False)
class ApiKey:
    """One key: its account, its request count and its two sliding windows."""

    secret: str
    account: Account
    calls: int = 0
    windows: dict[Bucket, deque[float]] = field(
        default_factory=lambda: {"sync": deque[float](), "async": deque[float]()}
    )

    def admit(self, bucket: Bucket, settings: FakeSettings, now: float) -> None:
        """Count one request in `bucket`, or raise the per-key 429 without counting it."""
        limit = settings.sync_per_minute if bucket == "sync" else settings.async_per_minute
        window = settings.rate_window
        sent = self.windows[bucket]
        while sent and sent[0] <= now - window:
            sent.popleft()
        if len(sent) >= limit:
            # Retry-After speaks the service's seconds, as a client on this server's clock counts.
            wait = max(1, math.ceil((sent[0] + window - now) / settings.time_scale))
            raise ApiError(
                429,
                # The spec's wording to the letter, "1 seconds" included: clients may parse it.
                f"rate limit exceeded ({limit} req/min), retry in {wait} seconds",
                {"Retry-After": str(wait)},
            )
        sent.append(now)
