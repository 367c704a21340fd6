"""Paging through GET /leads with limit and skip."""

from __future__ import annotations

from ._models import LeadPage
from ._validate import integer

__all__ = ["check_page_size", "next_skip"]


def check_page_size(page_size: object) -> int:
    return integer("page_size", page_size, 1)


def next_skip(page: LeadPage, page_size: int, skip: int) -> int | None:
    """The `skip` of the next page, or None after the last one.

    A page shorter than asked is the last, unless the service said it caps the page
    size lower (by echoing a smaller `limit`), in which case a full capped page is not.
    """
    served = len(page.items)
    echoed = (page.model_extra or {}).get("limit")
    full = min(page_size, echoed) if isinstance(echoed, int) and echoed > 0 else page_size
    if served == 0 or served < full:
        return None
    return skip + served
