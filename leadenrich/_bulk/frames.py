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

    Every missing value is pandas' `NA`, whatever the column: the columns take pandas'
    nullable types (`Int64`, `Float64`, `boolean`, `string`), so that a score with gaps
    stays a whole number and `None` and `NaN` never stand side by side for one thing.
    """
    try:
        # Through import_module: pandas is optional and its types are not ours to need.
        pandas: Any = import_module("pandas")
    except ImportError as exc:
        raise ImportError(
            f'{owner} needs pandas: pip install "leadenrich[notebook]" (or pandas alone)'
        ) from exc
    frame = pandas.DataFrame.from_records(records).convert_dtypes()
    # A column of mixed or no values stays `object`, where pandas keeps the None.
    for column in frame.select_dtypes(include="object").columns:
        frame[column] = frame[column].where(frame[column].notna(), pandas.NA)
    return frame
