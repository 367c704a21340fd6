"""Base classes shared by every model: strict requests, lenient responses."""

from collections.abc import Iterator
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from .._display import brief

__all__ = ["RequestModel", "ResponseModel"]


# defer_build: validators are built on first use, not at import, which keeps
# `import leadenrich` cheap for scripts and the command line.


class RequestModel(BaseModel):
    """A body the SDK sends: unknown fields and loose types are rejected.

    Strictness catches a typo such as ``compnay=`` before anything is sent or charged.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="forbid", strict=True, str_strip_whitespace=True, defer_build=True
    )


class ResponseModel(BaseModel):
    """A body the server returns: unknown fields are kept, never rejected.

    The API may add fields at any time; they stay readable through ``model_extra`` and
    attribute access, and they survive ``model_dump()``.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(extra="allow", defer_build=True)

    __repr_fields__: ClassVar[tuple[str, ...] | None] = None
    # What repr() shows, as attribute paths (`input.company` shows as `company=`), each
    # value cut short; missing and None values are left out. None: pydantic's full repr,
    # kept for the small bodies whose every field (and extra) is worth seeing.

    def __repr_args__(self) -> Iterator[tuple[str | None, Any]]:
        if self.__repr_fields__ is None:
            yield from super().__repr_args__()
            return
        for path in self.__repr_fields__:
            value: object = self
            for part in path.split("."):
                value = getattr(value, part, None)
            if value is not None:
                # A nested response model is already short: show it whole.
                shown = value if isinstance(value, ResponseModel) else brief(value)
                yield path.rpartition(".")[2], shown
