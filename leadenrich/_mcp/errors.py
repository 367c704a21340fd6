"""SDK errors as tool errors an agent can act on: the SDK's message (which never holds the
key: the SDK masks it), then what to do."""

from __future__ import annotations

from leadenrich import (
    APIConnectionError,
    AuthenticationError,
    InvalidRequestError,
    LeadEnrichError,
    NotFoundError,
    PermissionDeniedError,
    QuotaExceededError,
    RateLimitError,
    UnprocessableEntityError,
)

__all__ = ["advice"]


def advice(exc: LeadEnrichError, *, charged: str) -> str:
    """The SDK's message, what to do next, and what the call cost (`charged`)."""
    return f"{exc} | What to do: {_what_to_do(exc)} | Credits: {charged}"


def _what_to_do(exc: LeadEnrichError) -> str:
    if isinstance(exc, RateLimitError):
        wait = f"{exc.retry_after:g} s" if exc.retry_after else "a few seconds"
        return (
            f"the service is rate limiting this key and the server already waited out what its "
            f"retries allow; wait {wait}, then call again"
        )
    if isinstance(exc, QuotaExceededError):
        return (
            "the account's quota or credits are spent: ask the person to add credits (a credit "
            "pack in the dashboard), then call again; get_usage shows which pool is empty"
        )
    if isinstance(exc, (UnprocessableEntityError, InvalidRequestError)):
        return "fix the field the message names and call again"
    if isinstance(exc, NotFoundError):
        return (
            "check the id: it must be one this account's calls returned (list_leads shows the stored leads)"
        )
    if isinstance(exc, (AuthenticationError, PermissionDeniedError)):
        return (
            "the server's API key or plan was refused: calling again will not help; tell the person "
            "running the server to check LEADENRICH_API_KEY and the plan"
        )
    if isinstance(exc, APIConnectionError):
        return (
            "the service could not be reached or did not answer in time; try again later, and before "
            "enriching the same lead again look for it with list_leads"
        )
    return "try again later; if it keeps failing, tell the person running the server"
