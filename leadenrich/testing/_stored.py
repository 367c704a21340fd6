"""What the fake server stores per account: leads, jobs and lookups, and their wire forms."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, TypeVar

from .._models import Enrichment, JobOut, LeadIn, LeadOut, MobileFindIn, MobileFindOut
from ._records import ApiError, Caller

__all__ = ["StoredJob", "StoredLead", "StoredLookup", "new_id", "owned"]


class _Owned(Protocol):
    @property
    def user(self) -> str: ...


T = TypeVar("T", bound=_Owned)


def new_id(prefix: str) -> str:
    """A fresh id in the service's format, such as `job_` and 16 hex digits."""
    return f"{prefix}_{secrets.token_hex(8)}"


def owned(table: Mapping[str, T], caller: Caller, item_id: str, what: str) -> T:
    """The item of the caller's account, or a 404 (another account's is not found either)."""
    item = table.get(item_id)
    if item is None or item.user != caller.user:
        raise not_found(what, item_id)
    return item


def not_found(what: str, item_id: str) -> ApiError:
    return ApiError(404, f"{what} {item_id!r} not found")


@dataclass(eq=False)
class StoredLead:
    id: str
    user: str
    input: LeadIn
    enrichment: Enrichment
    tier: str
    created_at: datetime
    runs: int = 0

    def out(self, *, deduped: bool = False) -> LeadOut:
        return LeadOut(
            id=self.id,
            input=self.input,
            enrichment=self.enrichment,
            tier=self.tier,
            created_at=self.created_at,
            deduped=deduped,
        )


@dataclass(eq=False)
class StoredJob:
    id: str
    user: str
    key: str
    status: str
    created_at: datetime
    callback_url: str | None
    started_at: datetime | None = None
    finished_at: datetime | None = None
    result: LeadOut | None = None
    error: dict[str, Any] | None = None

    def out(self) -> JobOut:
        return JobOut(
            job_id=self.id,
            status=self.status,
            kind="lead.enrich",
            created_at=self.created_at,
            started_at=self.started_at,
            finished_at=self.finished_at,
            result=self.result,
            error=self.error,
            callback_url=self.callback_url,
        )


@dataclass(eq=False)
class StoredLookup:
    id: str
    user: str
    key: str
    state: str
    contact: str
    created_at: datetime
    query: MobileFindIn
    mobile: str | None = None

    def out(self) -> MobileFindOut:
        return MobileFindOut(
            lookup_id=self.id,
            state=self.state,
            contact=self.contact,
            mobile=self.mobile,
            created_at=self.created_at,
        )
