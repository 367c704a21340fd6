"""Base classes shared by every model: strict requests, lenient responses."""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict

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
