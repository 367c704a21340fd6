"""Checks of arguments and settings (numbers, durations, timeouts, headers), with messages
that say what is allowed.

A value of the wrong type is a TypeError (a type checker would have caught it); a value of
the right type out of range is an InvalidRequestError, raised before anything is sent.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, cast

import httpx

from ._errors import InvalidRequestError

if TYPE_CHECKING:
    from pydantic import ValidationError

__all__ = [
    "DEFAULT_CONNECT_TIMEOUT",
    "checked_headers",
    "checked_timeout",
    "describe",
    "integer",
    "is_header_value",
    "seconds",
]

DEFAULT_CONNECT_TIMEOUT = 5.0
"""Seconds to connect when a timeout is one number (at most that number)."""
_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
"""A header name: an RFC 9110 token."""

# The longest wait a lock or a socket can be given: anything longer (inf included) is an
# OverflowError deep inside them, on the first call that waits rather than here.
_LONGEST = threading.TIMEOUT_MAX


def integer(name: str, value: object, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if value < minimum:
        raise InvalidRequestError(f"{name} must be >= {minimum}, got {value}")
    return value


def seconds(name: str, value: object, *, positive: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number of seconds, got {type(value).__name__}")
    if value < 0 or (positive and value == 0) or value != value:
        bound = "> 0" if positive else ">= 0"
        raise InvalidRequestError(f"{name} must be a number of seconds {bound}, got {value}")
    if value > _LONGEST:
        raise InvalidRequestError(
            f"{name} must be at most {_LONGEST:.0f} seconds (about 292 years), got {value}"
        )
    return float(value)


def checked_timeout(value: object) -> httpx.Timeout:
    if isinstance(value, httpx.Timeout):
        for part in ("connect", "read", "write", "pool"):
            limit = getattr(value, part)
            if limit is not None:
                seconds(f"timeout.{part}", limit)
        return value
    total = seconds("timeout", value, positive=True)
    return httpx.Timeout(total, connect=min(total, DEFAULT_CONNECT_TIMEOUT))


def checked_headers(given: object, name: str) -> dict[str, str]:
    # Checked here, not on the first call, where a bad header is a UnicodeEncodeError or
    # an h11 error that reads like a broken connection.
    if given is None:
        return {}
    if not isinstance(given, Mapping):
        raise TypeError(f"{name} must be a mapping of str to str, got {type(given).__name__}")
    headers: dict[str, str] = {}
    for header, value in cast("Mapping[object, object]", given).items():
        if not isinstance(header, str) or not isinstance(value, str):
            raise TypeError(f"{name} must map str names to str values")
        if not _HEADER_NAME.fullmatch(header) or not is_header_value(value):
            # The value is not shown: it may be a credential of its own.
            raise InvalidRequestError(f"{name}[{header!r}] cannot be sent as an HTTP header (ASCII only)")
        headers[header] = value
    return headers


def is_header_value(value: str) -> bool:
    return all(" " <= c <= "~" or c == "\t" for c in value)


def describe(exc: ValidationError, limit: int = 5, fields: Collection[str] = ()) -> str:
    """A pydantic error as one line: `where: what; where: what`.

    `fields` are the names the model accepts, offered when a name given is not one of them.
    """
    parts: list[str] = []
    for error in exc.errors(include_url=False)[:limit]:
        where = ".".join(str(p) for p in error["loc"])
        if error["type"] == "missing":
            parts.append(f"{where} is missing")
        elif error["type"] == "extra_forbidden":
            parts.append(f"{where} is not a field{_suggestion(str(error['loc'][-1]), fields)}")
        else:
            message = error["msg"].removeprefix("Value error, ")
            parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts)


def _suggestion(name: str, fields: Collection[str]) -> str:
    if not fields:
        return ""
    import difflib  # only for a misspelt field: not worth its import on every start

    close = difflib.get_close_matches(name, fields, n=1)
    return f" (did you mean {close[0]}?)" if close else f" (the fields are {', '.join(fields)})"
