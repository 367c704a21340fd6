"""Paging through GET /leads with limit and skip."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._validate import integer

if TYPE_CHECKING:
    from ._models import LeadPage

__all__ = ["check_page_size", "next_skip"]


def check_page_size(page_size: object) -> int:
    return integer("page_size", page_size, 1)


def next_skip(page: LeadPage, page_size: int, skip: int) -> int | None:
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
        return following if served >= min(page_size, echoed) else None
    return following
