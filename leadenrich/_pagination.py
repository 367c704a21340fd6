"""Paging through GET /leads with limit and skip: the listing a page of `leads.list()`
carries, so that the page can ask for the next one (`LeadPage.next_page()`), and what
`leads.iter()` walks."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from . import _endpoints, _lazy_models
from ._endpoints import Call, Extras, with_extras
from ._errors import InvalidRequestError, LeadEnrichError, UnprocessableEntityError
from ._validate import integer

if TYPE_CHECKING:
    from ._models import LeadOut, LeadPage
    from ._models.pages import Awaited
    from ._resources._link import AsyncLink, SyncLink

__all__ = ["DEFAULT_LIMIT", "AsyncListing", "PageLimit", "SyncListing", "check_page_size", "next_skip"]


def check_page_size(page_size: object) -> int:
    return integer("page_size", page_size, 1)


DEFAULT_LIMIT = 50
"""The spec's default `limit` of GET /leads: a page of at most this many is one any
service serves."""


class PageLimit:
    """The `limit` a scan of the whole listing asks for: `wanted` until the service refuses
    a page that large (a 422: the spec gives `limit` a default of 50 and no upper bound),
    then none, so that the service serves its own default page, which it cannot refuse."""

    def __init__(self, wanted: int) -> None:
        self.value: int | None = wanted

    def refused(self, error: LeadEnrichError) -> bool:
        """Whether `error` refused the page's size: then the same page is asked for again,
        with no `limit`."""
        if self.value is None or not isinstance(error, UnprocessableEntityError):
            return False
        self.value = None
        return True


def next_skip(page: LeadPage[Any], page_size: int | None, skip: int) -> int | None:
    """The `skip` of the next page, or None after the last one.

    The spec does not show the listing's shape, so whatever the page says about what
    follows decides, in this order: a `has_more` flag, a `next` link (present, even
    null), a `total` or `count` of all the leads, an echoed `limit` (a service that caps
    the page size lower says so that way, and a full capped page is not the last). A
    page that says none of these (a bare list) is the last only when it is empty: a
    service may cap the page size without saying so, and a short page would then be
    taken for the last. That costs one request, for the empty page, at the end.
    """
    served = len(page.items)
    if served == 0:
        return None
    extra = page.model_extra or {}
    following = skip + served
    has_more = extra.get("has_more")
    if isinstance(has_more, bool):
        return following if has_more else None
    if "next" in extra:
        return following if extra["next"] else None
    for name in ("total", "count"):
        total = extra.get(name)
        if isinstance(total, int) and not isinstance(total, bool):
            return following if following < total else None
    echoed = extra.get("limit")
    if isinstance(echoed, int) and not isinstance(echoed, bool) and echoed > 0:
        return following if served >= min(page_size or echoed, echoed) else None
    return following


@dataclass(frozen=True)
class _Listing:
    """A page of `GET /leads` asked for: its size, where it starts and the per-call
    options, which the next page is asked with too."""

    limit: int
    skip: int
    extras: Extras | None

    def call(self) -> Call[LeadPage[Any]]:
        """The request of this page; the page it answers knows this listing."""

        def parse(body: bytes) -> LeadPage[Any]:
            return _lazy_models.LeadPage.model_validate_json(body, context=self)

        listed = with_extras(_endpoints.list_leads(self.limit, self.skip), self.extras)
        return replace(listed, parse=parse)

    def after(self, page: LeadPage[Any], /) -> int | None:
        return next_skip(page, self.limit, self.skip)

    def following(self, page: LeadPage[Any]) -> Call[LeadPage[Any]]:
        """The request of the page after `page`; InvalidRequestError after the last one."""
        skip = self.after(page)
        if skip is None:
            raise InvalidRequestError(
                "this is the last page of the listing (page.has_next_page() is False); "
                "client.leads.iter() goes through every lead without pages"
            )
        return replace(self, skip=skip).call()

    def __deepcopy__(self, memo: dict[int, object]) -> _Listing:
        # A copy of a page goes on with the same client, as the page does.
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # A page pickled (to another process) leaves its client behind: it unpickles
        # as a page of no listing, whose has_next_page() is False.
        return (type(None), ())


@dataclass(frozen=True)
class SyncListing(_Listing):
    """The listing of a page of `LeadEnrich`."""

    link: SyncLink

    def next(self, page: LeadPage[Any], /) -> LeadPage:
        return self.link.request(self.following(page))

    def pages(self, page: LeadPage, /) -> Iterator[LeadPage]:
        while True:
            yield page
            if not page.has_next_page():
                return
            page = page.next_page()

    def leads(self) -> Iterator[LeadOut]:
        """Every lead from this listing's page on, asking for each page as it is reached."""
        for page in self.pages(self.link.request(self.call())):
            yield from page.items


@dataclass(frozen=True)
class AsyncListing(_Listing):
    """The listing of a page of `AsyncLeadEnrich`."""

    link: AsyncLink

    async def next(self, page: LeadPage[Any], /) -> LeadPage[Awaited]:
        return await self.link.request(self.following(page))

    async def pages(self, page: LeadPage[Awaited], /) -> AsyncIterator[LeadPage[Awaited]]:
        while True:
            yield page
            if not page.has_next_page():
                return
            page = await page.next_page()

    async def leads(self) -> AsyncIterator[LeadOut]:
        """Every lead from this listing's page on, asking for each page as it is reached."""
        async for page in self.pages(await self.link.request(self.call())):
            for lead in page.items:
                yield lead
