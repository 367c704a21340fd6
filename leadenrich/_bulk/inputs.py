"""Turning what the caller passed (LeadIn objects, dicts, a DataFrame) into numbered leads."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from .. import _lazy_models
from .._endpoints import coerce_lead
from .._errors import InvalidRequestError
from .checkpoint import fingerprint

if TYPE_CHECKING:
    from .._models import LeadIn

__all__ = ["Item", "read_items"]


@dataclass(frozen=True)
class Item:
    """One lead of the input, numbered, with its checkpoint key or why it is invalid."""

    index: int
    given: LeadIn | Mapping[str, Any]
    lead: LeadIn | None
    key: str
    invalid: InvalidRequestError | None = None
    duplicate_of: int | None = None
    """The index of the earlier row this one repeats (the same lead once validated)."""


def read_items(leads: Any) -> list[Item]:
    """Number the leads and validate each; invalid ones are kept with their error."""
    rows = _rows(leads)
    seen: dict[str, int] = {}
    items: list[Item] = []
    for index, row in enumerate(rows):
        try:
            lead = coerce_lead(row)
        except (InvalidRequestError, TypeError) as exc:
            error = exc if isinstance(exc, InvalidRequestError) else InvalidRequestError(str(exc))
            given: Mapping[str, Any] = (
                cast("Mapping[str, Any]", row) if isinstance(row, Mapping) else {"value": row}
            )
            items.append(Item(index, given, None, f"invalid#{index}", error))
            continue
        key = fingerprint(lead)
        # The same lead twice is one lead: enriched once, and every copy gets its outcome.
        items.append(Item(index, lead, lead, key, duplicate_of=seen.get(key)))
        seen.setdefault(key, index)
    return items


def _rows(leads: Any) -> list[Any]:
    to_dict = getattr(leads, "to_dict", None)
    if callable(to_dict) and hasattr(leads, "columns"):
        return _frame_rows(leads, cast("list[dict[str, Any]]", to_dict("records")))
    if isinstance(leads, (str, bytes, Mapping)) or not isinstance(leads, Iterable):
        kind = type(cast("object", leads)).__name__
        # Not a TypeError: `leads` is annotated `... | Any` (a DataFrame has no type to
        # name), so no type checker flags a wrong value here; refuse it like a bad lead.
        raise InvalidRequestError(
            "leads must be an iterable of LeadIn objects or dicts, or a pandas DataFrame with LeadIn columns, "
            f"got {kind}"
        )
    rows: list[Any] = list(leads)  # pyright: ignore[reportUnknownArgumentType]
    return rows


def _frame_rows(frame: Any, records: list[dict[str, Any]]) -> list[Any]:
    # A DataFrame often carries other columns (owner, notes...): only LeadIn's are used.
    columns = [str(c) for c in frame.columns]
    absent = [name for name in ("company", "domain") if name not in columns]
    if absent:
        raise InvalidRequestError(
            f"the DataFrame has no {' or '.join(absent)} column (it has: {', '.join(columns) or 'none'}); "
            "rename the columns to LeadIn's field names"
        )
    fields = set(_lazy_models.LeadIn.model_fields)
    return [{k: v for k, v in record.items() if k in fields and not _missing(v)} for record in records]


def _missing(value: Any) -> bool:
    # Empty DataFrame cells arrive as NaN (or None): they mean "no value", not "nan".
    return value is None or (isinstance(value, float) and math.isnan(value))
