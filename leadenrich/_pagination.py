"""Paging through GET /leads with limit and skip."""

from __future__ import annotations

from ._errors import InvalidRequestError
from ._models import LeadPage

__all__ = ["check_page_size", "next_skip"]


def check_page_size(page_size: object) -> int:
    if isinstance(page_size, bool) or not isinstance(page_size, int):
        raise TypeError(f"page_size must be an int, got {type(page_size).__name__}")
    if page_size < 1:
        raise InvalidRequestError(f"page_size must be >= 1, got {page_size}")
    return page_size


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
