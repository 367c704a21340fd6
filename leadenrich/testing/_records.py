"""What the fake server remembers for tests to read, and the error it answers with."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any, Literal

from .._models import LeadIn

if TYPE_CHECKING:
    from ._settings import FakeSettings

__all__ = [
    "ApiError",
    "CallbackDelivery",
    "Caller",
    "Charge",
    "ChargeKind",
    "FaultKind",
    "FaultRecord",
    "Follow",
    "RequestRecord",
    "Run",
    "stamp",
    "utcnow",
]

ChargeKind = Literal["enrichment", "email", "mobile"]
FaultKind = Literal[
    "server_error",
    "drop_before",
    "drop_after",
    "slow",
    "malformed",
    "upstream_full",
    "refused",
    "taken_late",
]


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


_SKEW = {"in_step": timedelta(0), "behind": timedelta(minutes=-5), "ahead": timedelta(minutes=5)}
_LOCAL = timezone(timedelta(hours=-5))


def stamp(settings: FakeSettings) -> datetime:
    """The service's clock now, as it writes its stamps (`service_clock`, `timestamps`)."""
    now = utcnow() + _SKEW[settings.service_clock]
    return now if settings.timestamps == "utc" else now.astimezone(_LOCAL).replace(tzinfo=None)


class ApiError(Exception):
    """An error answer: `{"detail": detail}` with `status_code` and `headers`, or
    `detail` as plain text when `plain` is true."""

    def __init__(
        self, status_code: int, detail: str, headers: Mapping[str, str] | None = None, *, plain: bool = False
    ) -> None:
        super().__init__(f"{status_code}: {detail}")
        self.status_code = status_code
        self.detail = detail
        self.headers = dict(headers or {})
        self.plain = plain


@dataclass(frozen=True)
class RequestRecord:
    """One request the server answered."""

    method: str
    path: str
    status_code: int
    key: str | None
    """The bearer token presented (known or not); None when there was none."""
    at: datetime


@dataclass(frozen=True)
class FaultRecord:
    """One fault the server injected (see the fault settings of FakeSettings)."""

    kind: FaultKind
    method: str
    path: str
    key: str | None
    """The bearer token the request carried, or None."""
    detail: str
    """What exactly: `503 html`, `truncated`, `1 s late`..."""
    at: datetime


@dataclass(frozen=True)
class Charge:
    """One movement of a balance: `amount` is +1 for a charge, -1 for a refund."""

    kind: ChargeKind
    amount: int
    key: str
    user: str
    ref: str
    """The job, lead or lookup id it was for (`email:<address>` for an email hit)."""
    at: datetime


@dataclass(frozen=True)
class CallbackDelivery:
    """One attempt to POST a job's completion event to its callback_url (never retried)."""

    job_id: str
    url: str
    payload: dict[str, Any]
    status_code: int | None
    """The receiver's answer; None when it could not be reached."""
    error: str | None
    """Why it could not be reached."""

    @property
    def delivered(self) -> bool:
        """True when the receiver answered 2xx."""
        return self.status_code is not None and 200 <= self.status_code < 300


@dataclass(frozen=True)
class Caller:
    """An authenticated request's key and the account (user) it belongs to."""

    key: str
    user: str


@dataclass(frozen=True)
class Run:
    """An admitted enrichment run: charged, and holding one of the platform's slots."""

    ref: str
    """What the charge is for: the job id (async) or the lead id (sync, re-enrich)."""
    lead_id: str
    """The lead it stores (a new id) or refreshes (re-enrich)."""
    caller: Caller
    lead: LeadIn
    seconds: float
    """How long it runs, in real seconds."""
    fails: bool
    refresh: bool = False
    """True for a re-enrichment of the stored lead `lead_id`."""
    charged: bool = True
    """False for a free re-enrichment: nothing to refund if it fails."""


@dataclass(frozen=True)
class Follow:
    """An enrichment that waits for the run `ref` with the same email, then is deduped."""

    ref: str
