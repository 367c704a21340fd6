"""A page of the stored leads (`GET /leads`), and the listing it goes on through.

Apart from `leads.py`, whose models the first enrichment needs and this page does not:
a generic model and a protocol cost that call about 1.5 ms more to define.
"""

from collections.abc import AsyncIterator, Coroutine, Iterator
from typing import Any, Generic, Protocol, cast, overload

from pydantic import Field, PrivateAttr, ValidationInfo, model_validator
from typing_extensions import Self, TypeVar

from .._display import Shown, brief
from .base import ResponseModel
from .leads import LeadOut

__all__ = ["Awaited", "Blocking", "LeadPage", "Listing"]


_LIST_KEYS = ("items", "leads", "data", "results")


class Blocking:
    """What `LeadPage` means: a page of `LeadEnrich`, whose next page is returned."""


class Awaited:
    """`LeadPage[Awaited]`: a page of `AsyncLeadEnrich`, whose next page is awaited."""


Client = TypeVar("Client", Blocking, Awaited, default=Blocking)


class Listing(Protocol):
    """The listing a page of `leads.list()` came from, and how it goes on
    (`leadenrich/_pagination.py`: one for each client)."""

    def after(self, page: "LeadPage[Any]", /) -> int | None:
        """The `skip` of the page after `page`; None after the last page."""
        ...

    def next(self, page: "LeadPage[Any]", /) -> Any:
        """The page after `page` (awaitable on the async client)."""
        ...

    def pages(self, page: "LeadPage[Any]", /) -> Any:
        """`page` and every page after it (an async iterator on the async client)."""
        ...


class LeadPage(ResponseModel, Generic[Client]):
    """One page of `GET /leads`. Iterating a page yields its leads.

    The service may answer with a bare list or with an object that holds the leads under
    `items`, `leads`, `data` or `results`; other keys of that object (a total, say) are
    kept as extra attributes.

    A page from `leads.list()` knows the listing it is part of: `has_next_page()`,
    `next_page()` and `iter_pages()` go on from it, with the page size and the per-call
    options it was asked with. On the async client, `next_page()` is awaited and
    `iter_pages()` is an async iterator (type checkers see such a page as
    `LeadPage[Awaited]`). `leads.iter()` goes through every lead without pages.

    Examples:
        >>> page = client.leads.list(limit=20)
        >>> [lead.id for lead in page]
        >>> while page.has_next_page():
        ...     page = page.next_page()
    """

    items: list[LeadOut] = Field(default_factory=list[LeadOut], description="The leads of this page.")
    _listing: Listing | None = PrivateAttr(default=None)

    @model_validator(mode="before")
    @classmethod
    def _unwrap(cls, value: Any) -> Any:
        if isinstance(value, list):
            return {"items": value}  # pyright: ignore[reportUnknownVariableType]
        if isinstance(value, dict):
            body = cast("dict[str, Any]", value)
            for key in _LIST_KEYS:
                if isinstance(body.get(key), list):
                    rest = {k: v for k, v in body.items() if k != key}
                    return {**rest, "items": body[key]}
        return cast("Any", value)

    @model_validator(mode="after")
    def _listed(self, info: ValidationInfo) -> Self:
        # `leads.list()` validates its page with the listing it asked as the context.
        if info.context is not None:
            self._listing = cast("Listing", info.context)
        return self

    def __repr_args__(self) -> Iterator[tuple[str | None, Any]]:
        # How many leads and the first ids, not every lead whole.
        ids = ", ".join(lead.id for lead in self.items[:3]) + (", …" if len(self.items) > 3 else "")
        count = len(self.items)
        yield "items", Shown(f"<{count} lead{'' if count == 1 else 's'}: {ids}>" if count else "[]")
        for key, value in (self.model_extra or {}).items():
            yield key, brief(value)

    def __iter__(self) -> Iterator[LeadOut]:  # type: ignore[override]  # pyright: ignore[reportIncompatibleMethodOverride]
        """Iterate over the leads of this page."""
        return iter(self.items)

    def __len__(self) -> int:
        """The number of leads on this page."""
        return len(self.items)

    def __eq__(self, other: object) -> bool:
        # The same leads and extras make the same page, whichever listing it came from.
        if not isinstance(other, LeadPage):
            return NotImplemented
        return self.__dict__ == other.__dict__ and self.model_extra == other.model_extra

    def has_next_page(self) -> bool:
        """Whether the listing goes on after this page.

        Whatever the page says decides (a `has_more` flag, a `next` link, a `total`); a
        bare list of leads goes on unless it is empty, since a service may serve fewer
        leads than asked without saying so. False for a page not from `leads.list()`.

        Examples:
            >>> page = client.leads.list(limit=100)
            >>> page.has_next_page()
            True
        """
        return self._listing is not None and self._listing.after(self) is not None

    @overload
    def next_page(self: "LeadPage[Blocking]") -> "LeadPage[Blocking]": ...
    @overload
    def next_page(self: "LeadPage[Awaited]") -> "Coroutine[Any, Any, LeadPage[Awaited]]": ...
    def next_page(self) -> Any:
        """The page after this one, with the same page size and per-call options (awaitable
        on the async client).

        Raises:
            InvalidRequestError: This is the last page (`has_next_page()` is False).
            TypeError: The page is not from `leads.list()` (it was built from a body), so
                there is no listing to go on with.

        Examples:
            >>> page = client.leads.list(limit=100)
            >>> if page.has_next_page():
            ...     page = page.next_page()
            >>> page = await page.next_page()  # the async client
        """
        if self._listing is None:
            raise TypeError(
                "this LeadPage was not returned by leads.list(), so it has no next page to ask "
                "for: call client.leads.list(limit=..., skip=...)"
            )
        return self._listing.next(self)

    @overload
    def iter_pages(self: "LeadPage[Blocking]") -> "Iterator[LeadPage[Blocking]]": ...
    @overload
    def iter_pages(self: "LeadPage[Awaited]") -> "AsyncIterator[LeadPage[Awaited]]": ...
    def iter_pages(self) -> Any:
        """This page and every page after it, each asked for as the iteration reaches it
        (an async iterator on the async client). A page not from `leads.list()` is the
        only one.

        Examples:
            >>> for page in client.leads.list(limit=100).iter_pages():
            ...     print(len(page))
            >>> async for page in (await client.leads.list(limit=100)).iter_pages():
            ...     print(len(page))
        """
        if self._listing is None:
            return iter((self,))
        return self._listing.pages(self)
