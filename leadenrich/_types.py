"""Types for what callers pass in: dict shapes editors complete and type checkers check."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any, Literal, Protocol

import httpx
from typing_extensions import Required, TypedDict

from ._signatures import keywords_from

__all__ = [
    "DataFrameLike",
    "ExtraHeaders",
    "ExtraQuery",
    "LeadDict",
    "PersonQuery",
    "RequestTimeout",
    "person_keywords",
]


class LeadDict(TypedDict, total=False):
    """A lead as a dict, the fields of [`LeadIn`][leadenrich.LeadIn]: `company` and `domain` are required.

    A type checker flags a misspelt key (`{"compnay": ...}`) or a missing `company`.

    Examples:
        >>> lead: LeadDict = {"company": "Acme", "domain": "acme.com", "email": "ada@acme.com"}
    """

    company: Required[str]
    domain: Required[str]
    name: str | None
    email: str | None
    title: str | None
    linkedin_url: str | None


class PersonQuery(TypedDict, total=False):
    """The keywords that name a person for `email.find`, `mobile.find` and `mobile.find_and_wait`.

    Give `linkedin_url` alone, or `first_name` + `last_name` + (`company_name` or `domain`).

    Examples:
        >>> person: PersonQuery = {"first_name": "Ada", "last_name": "Lovelace", "domain": "acme.com"}
        >>> client.email.find(**person)
    """

    linkedin_url: str | None
    first_name: str | None
    last_name: str | None
    company_name: str | None
    domain: str | None


person_keywords = keywords_from(PersonQuery, dict.fromkeys(PersonQuery.__annotations__))
"""Shows the keys of `PersonQuery` (each None by default) in a method's run-time signature."""


class DataFrameLike(Protocol):
    """What `enrich_many` reads from a pandas (or pandas-like) DataFrame: its columns and its rows as records.

    Examples:
        >>> frame = pandas.read_csv("leads.csv")
        >>> client.leads.enrich_many(frame)
    """

    @property
    def columns(self) -> object:
        """The column names; `company` and `domain` must be among them.

        Examples:
            >>> list(frame.columns)
            ['company', 'domain', 'email']
        """
        ...

    def to_dict(self, orient: Literal["records"], /) -> list[dict[Hashable, Any]]:
        """One dict per row.

        Examples:
            >>> frame.to_dict("records")[0]
            {'company': 'Acme', 'domain': 'acme.com', 'email': 'ada@acme.com'}
        """
        ...


RequestTimeout = float | httpx.Timeout | None
"""One call's timeout, in place of the client's: seconds or an `httpx.Timeout`."""
ExtraHeaders = Mapping[str, str] | None
"""Headers added to one call (a header of the same name as the client's replaces it)."""
ExtraQuery = Mapping[str, str | int | float | bool] | None
"""Query parameters added to one call."""
