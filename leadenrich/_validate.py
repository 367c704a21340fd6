"""Checks of numeric arguments and settings, with messages that say what is allowed.

A value of the wrong type is a TypeError (a type checker would have caught it); a value of
the right type out of range is an InvalidRequestError, raised before anything is sent.
"""

from __future__ import annotations

import threading
from collections.abc import Collection
from typing import TYPE_CHECKING

from ._errors import InvalidRequestError

if TYPE_CHECKING:
    from pydantic import ValidationError

__all__ = ["describe", "integer", "seconds"]

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
