"""The default outcome rules: which enrichments fail, which searches miss.

Every rule depends on the request alone, so a test picks its outcome by its input. The
trigger values are documented in docs/testing.md; anything else succeeds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .._models import EmailFindIn, LeadIn, MobileFindIn

__all__ = ["email_found", "enrichment_fails", "mobile_found"]

FAILING_DOMAIN_SUFFIXES = (".fail", ".invalid")
NO_EMAIL_NAME = "nobody"
NO_MOBILE_NAME = "landline"


def enrichment_fails(lead: LeadIn) -> bool:
    """A lead whose domain ends in `.fail` or `.invalid` cannot be enriched."""
    return lead.domain.lower().rstrip(".").endswith(FAILING_DOMAIN_SUFFIXES)


def email_found(query: EmailFindIn) -> bool:
    """Found, except for last name `Nobody`, a profile `/in/nobody...`, or a `.invalid` domain."""
    return not _is(query, NO_EMAIL_NAME)


def mobile_found(query: MobileFindIn) -> bool:
    """Settled, except for everyone email_found misses and last name `Landline` or `/in/landline...`."""
    return not (_is(query, NO_EMAIL_NAME) or _is(query, NO_MOBILE_NAME))


def _is(query: EmailFindIn | MobileFindIn, name: str) -> bool:
    if (query.last_name or "").strip().lower() == name:
        return True
    if f"/in/{name}" in (query.linkedin_url or "").lower():
        return True
    return (query.domain or "").lower().rstrip(".").endswith(".invalid")
