"""Records to a pandas DataFrame, the one way every bulk table is exported."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from typing import TYPE_CHECKING, Any

from .. import _lazy_models

if TYPE_CHECKING:
    from .._models import LeadIn


__all__ = ["input_columns", "records_frame"]


def input_columns(given: LeadIn | Mapping[str, Any]) -> dict[str, Any]:
    """A row's input as `input_*` columns (the raw mapping of an invalid row)."""
    fields = given.model_dump() if isinstance(given, _lazy_models.LeadIn) else dict(given)
    return {f"input_{key}": value for key, value in fields.items()}


def records_frame(records: list[dict[str, Any]], owner: str) -> Any:
    """The records as a `pandas.DataFrame`; `owner` names the method in the ImportError.

    Integer columns with gaps are pandas' nullable `Int64`, so that the others stay whole
    numbers.
    """
    try:
        # Through import_module: pandas is optional and its types are not ours to need.
        pandas: Any = import_module("pandas")
    except ImportError as exc:
        raise ImportError(
            f'{owner} needs pandas: pip install "leadenrich[notebook]" (or pandas alone)'
        ) from exc
    frame = pandas.DataFrame.from_records(records)
    for column in frame.columns:
        values = [r.get(column) for r in records]
        present = [v for v in values if v is not None]
        whole = all(isinstance(v, int) and not isinstance(v, bool) for v in present)
        if present and whole and len(present) < len(values):
            # A missing value would otherwise turn 72 into 72.0 for every row.
            frame[column] = frame[column].astype("Int64")
    return frame
