"""Every endpoint of the API, described once: method, path, query, body, response model.

Pure functions with no I/O. They validate the caller's arguments, so bad input raises
InvalidRequestError before anything is sent, and they are shared by both clients.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Generic, TypeVar, Union, cast
from urllib.parse import quote

import httpx
from typing_extensions import Unpack

from . import _lazy_models
from ._errors import InvalidRequestError
from ._ratelimit import Bucket
from ._types import LeadDict, PersonQuery
from ._validate import checked_headers, checked_timeout, describe, integer

if TYPE_CHECKING:
    from pydantic import BaseModel

    from ._models import (
        EmailFindOut,
        EnrichJobCreated,
        Health,
        JobOut,
        LeadDeleted,
        LeadIn,
        LeadOut,
        LeadPage,
        MobileFindOut,
        UsageOut,
    )

__all__ = ["Call", "Extras", "LeadLike", "make_extras", "per_call", "with_extras"]

T = TypeVar("T")
M = TypeVar("M", bound="BaseModel")

# Union, not `|`: LeadIn is imported for type checkers only, and a string cannot be or-ed.
LeadLike = Union["LeadIn", LeadDict]
"""A LeadIn, or a dict of its fields such as ``{"company": "Acme", "domain": "acme.com"}``."""


QueryValue = str | int | float | bool


@dataclass(frozen=True)
class Extras:
    """What one call adds to the client's settings: `timeout=`, `extra_headers=`, `extra_query=`."""

    timeout: httpx.Timeout | None
    headers: Mapping[str, str]
    query: Mapping[str, QueryValue]


@dataclass(frozen=True)
class Call(Generic[T]):
    """One HTTP exchange, ready to send."""

    method: str
    path: str
    parse: Callable[[bytes], T]
    params: Mapping[str, QueryValue] | None = None
    body: bytes | None = None
    auth: bool = True
    bucket: Bucket | None = "sync"
    # Set for a POST that may spend credit, which is never re-sent once the server may
    # have accepted it: how the caller finds out whether it did, for the error to say.
    charge_hint: str | None = None
    # The request runs an enrichment while the connection stays open (up to ~90 s): it
    # takes one of the client's enrichment slots and a read timeout of at least 100 s.
    runs_enrichment: bool = False
    # False for a job created before a slot is free: an `upstream_full` refusal then says
    # the service does not queue jobs, which the caller acts on at once, not seconds later.
    retry_upstream_full: bool = True
    extras: Extras | None = None
    # Called when the request is about to leave, after any wait for a slot, the pacer or a
    # back-off: a bulk run that stopped meanwhile raises here, so nothing leaves after a stop.
    before_send: Callable[[], None] | None = None
    # Told the `Date` header of each answer: the service's clock now, as its front end
    # tells it, which a bulk run reads the stamps of its records by.
    on_date: Callable[[str], None] | None = None

    @property
    def idempotent(self) -> bool:
        """Safe to send again after an ambiguous failure."""
        return self.method in ("GET", "DELETE")


def per_call(
    call: Call[T],
    timeout: float | httpx.Timeout | None = None,
    extra_headers: Mapping[str, str] | None = None,
    extra_query: Mapping[str, QueryValue] | None = None,
) -> Call[T]:
    """`call` with one call's own timeout, headers and query parameters, checked before sending."""
    return with_extras(call, make_extras(timeout, extra_headers, extra_query))


def make_extras(
    timeout: float | httpx.Timeout | None = None,
    extra_headers: Mapping[str, str] | None = None,
    extra_query: Mapping[str, QueryValue] | None = None,
) -> Extras | None:
    """The per-call options, checked; None when none is given (the usual case, kept cheap)."""
    if timeout is None and extra_headers is None and extra_query is None:
        return None
    headers = checked_headers(extra_headers, "extra_headers")
    if any(name.lower() == "authorization" for name in headers):
        # The key is the client's: a copy with another one is with_options(api_key=...).
        raise InvalidRequestError(
            "extra_headers cannot set Authorization: use client.with_options(api_key=...)"
        )
    return Extras(
        checked_timeout(timeout) if timeout is not None else None, headers, _checked_query(extra_query)
    )


def with_extras(call: Call[T], extras: Extras | None) -> Call[T]:
    return call if extras is None else replace(call, extras=extras)


def _checked_query(given: object) -> dict[str, QueryValue]:
    if given is None:
        return {}
    if not isinstance(given, Mapping):
        raise TypeError(
            f"extra_query must be a mapping of str to str, int, float or bool, got {type(given).__name__}"
        )
    query: dict[str, QueryValue] = {}
    for name, value in cast("Mapping[object, object]", given).items():
        if not isinstance(name, str):
            raise TypeError(f"extra_query keys must be strings, got {type(name).__name__}")
        if not name:
            raise InvalidRequestError("extra_query has an empty parameter name")
        if not isinstance(value, (str, int, float)):
            # bool is an int. None is refused rather than sent as an empty value.
            raise TypeError(
                f"extra_query[{name!r}] must be a str, int, float or bool, got {type(value).__name__}"
            )
        query[name] = value
    return query


def _json_parser(model: type[M]) -> Callable[[bytes], M]:
    return model.model_validate_json


def _lenient_parser(model: type[M]) -> Callable[[bytes], M]:
    # For bodies the spec does not show: an empty body is as good as an empty object.
    def parse(content: bytes) -> M:
        if not content.strip():
            return model.model_validate(None)
        return model.model_validate_json(content)

    return parse


_PLAIN = re.compile(r"[A-Za-z0-9_~-]+")
"""Characters quote() never escapes, but the dot."""


def _segment(name: str, value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {type(value).__name__}")
    if not value.strip():
        raise InvalidRequestError(f"{name} must be a non-empty string")
    # str.split() splits on exactly the characters str.isspace() names.
    if value.split() != [value]:
        # Ids never hold whitespace: this is a captured line, a label or a stray newline
        # (`J=$(...)` in a shell), and sent as it is it would only come back a 404.
        raise InvalidRequestError(
            f"{name} must not contain spaces or line breaks, got {value!r}: pass the id alone"
        )
    if _PLAIN.fullmatch(value):
        return value  # what quote() would return, as most ids are
    # quote() leaves dots alone, and "." or ".." would climb the path; escape them too.
    escaped = quote(value, safe="")
    return escaped.replace(".", "%2E") if value in (".", "..") else escaped


def _validated(model: type[M], what: str, **values: Any) -> M:
    try:
        return model.model_validate(values)
    except _lazy_models.ValidationError as exc:
        raise InvalidRequestError(
            f"invalid {what}: {describe(exc, fields=list(model.model_fields))}"
        ) from None


def coerce_lead(lead: object) -> LeadIn:
    """A LeadIn from a LeadIn or a mapping of its fields; InvalidRequestError otherwise."""
    if isinstance(lead, _lazy_models.LeadIn):
        return lead
    if isinstance(lead, Mapping):
        return _validated(_lazy_models.LeadIn, "lead", **{str(k): v for k, v in lead.items()})  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
    raise TypeError(f"lead must be a LeadIn or a mapping of its fields, got {type(lead).__name__}")


def _enrich_body(lead: object, callback_url: str | None) -> bytes:
    request = _validated(
        _lazy_models.EnrichRequest, "enrich request", lead=coerce_lead(lead), callback_url=callback_url
    )
    return request.model_dump_json(exclude_none=True).encode()


# Where the result of a charging call whose answer was lost shows up.
_FIND_THE_LEAD = "look for the lead among client.leads.iter() (every page: the spec does not say their order) before sending it again"
_CHECK_USAGE = "client.usage() shows whether a credit was spent"


def _parse_health(content: bytes) -> Health:
    # The spec does not show the body: a plain-text answer such as `OK` is its status.
    try:
        return _lenient_parser(_lazy_models.Health)(content)
    except _lazy_models.ValidationError:
        text = content.decode("utf-8", errors="replace").strip()
        if not text or text[0] in "{[":
            raise
        return _lazy_models.Health.model_validate(text)


def health() -> Call[Health]:
    return Call("GET", "/health", _parse_health, auth=False, bucket=None)


def usage() -> Call[UsageOut]:
    return Call("GET", "/usage", _json_parser(_lazy_models.UsageOut))


def enrich(lead: object, callback_url: str | None = None) -> Call[EnrichJobCreated]:
    return Call(
        "POST",
        "/leads/enrich",
        _json_parser(_lazy_models.EnrichJobCreated),
        body=_enrich_body(lead, callback_url),
        bucket="async",
        charge_hint=_FIND_THE_LEAD,
    )


def enrich_sync(lead: object) -> Call[LeadOut]:
    return Call(
        "POST",
        "/leads/enrich",
        _json_parser(_lazy_models.LeadOut),
        params={"mode": "sync"},
        body=_enrich_body(lead, None),
        charge_hint=_FIND_THE_LEAD,
        runs_enrichment=True,
    )


def list_leads(limit: int | None = 50, skip: int = 0) -> Call[LeadPage]:
    """A page of the listing; with no `limit`, the service's default page."""
    params = {"skip": integer("skip", skip, 0)}
    if limit is not None:
        params = {"limit": integer("limit", limit, 1), **params}
    return Call("GET", "/leads", _json_parser(_lazy_models.LeadPage), params=params)


def get_lead(lead_id: str) -> Call[LeadOut]:
    return Call("GET", f"/leads/{_segment('lead_id', lead_id)}", _json_parser(_lazy_models.LeadOut))


def delete_lead(lead_id: str) -> Call[LeadDeleted]:
    path = f"/leads/{_segment('lead_id', lead_id)}"
    parse = _lenient_parser(_lazy_models.LeadDeleted)

    def parse_deleted(content: bytes) -> LeadDeleted:
        deleted = parse(content)
        if deleted.id is None:
            deleted.id = lead_id
        return deleted

    return Call("DELETE", path, parse_deleted)


def re_enrich(lead_id: str) -> Call[LeadOut]:
    segment = _segment("lead_id", lead_id)
    check = f"client.leads.get({lead_id!r}) shows whether it was re-enriched"
    return Call(
        "POST",
        f"/leads/{segment}/re-enrich",
        _json_parser(_lazy_models.LeadOut),
        charge_hint=check,
        runs_enrichment=True,
    )


def get_job(job_id: str) -> Call[JobOut]:
    return Call("GET", f"/jobs/{_segment('job_id', job_id)}", _json_parser(_lazy_models.JobOut))


def _person_body(method: str, model: type[M], what: str, person: Mapping[str, object]) -> bytes:
    """The JSON body of a search for a person, its keywords checked as a signature would."""
    # A keyword the signature does not name is a TypeError, as Python raises for any
    # function (and as a type checker reports through PersonQuery).
    unknown = [name for name in person if name not in PersonQuery.__annotations__]
    if unknown:
        import difflib  # only for a misspelt keyword: it costs import time

        close = difflib.get_close_matches(unknown[0], PersonQuery.__annotations__, n=1)
        hint = (
            f"; did you mean {close[0]}?" if close else f"; it takes {', '.join(PersonQuery.__annotations__)}"
        )
        raise TypeError(f"{method}() got an unexpected keyword argument {unknown[0]!r}{hint}")
    return _validated(model, what, **person).model_dump_json(exclude_none=True).encode()


def find_email(**person: Unpack[PersonQuery]) -> Call[EmailFindOut]:
    body = _person_body("email.find", _lazy_models.EmailFindIn, "email search", person)
    return Call(
        "POST", "/email/find", _json_parser(_lazy_models.EmailFindOut), body=body, charge_hint=_CHECK_USAGE
    )


def find_mobile(**person: Unpack[PersonQuery]) -> Call[MobileFindOut]:
    body = _person_body("mobile.find", _lazy_models.MobileFindIn, "mobile lookup", person)
    return Call(
        "POST",
        "/mobile/find",
        _json_parser(_lazy_models.MobileFindOut),
        body=body,
        charge_hint=_CHECK_USAGE,
    )


def get_mobile(lookup_id: str) -> Call[MobileFindOut]:
    return Call(
        "GET", f"/mobile/find/{_segment('lookup_id', lookup_id)}", _json_parser(_lazy_models.MobileFindOut)
    )
