"""Base classes shared by every model: strict requests, lenient responses."""

from collections.abc import Iterator
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict

from .._display import brief

__all__ = ["Model", "RequestModel", "ResponseModel"]


# defer_build: validators are built on first use, not at import, which keeps
# `import leadenrich` cheap for scripts and the command line.


class Model(BaseModel):
    """What every model of the SDK has: `to_dict()` and `to_json()`, openai-python's
    names for pydantic's `model_dump()` and `model_dump_json()`."""

    def to_dict(
        self,
        *,
        mode: Literal["python", "json"] = "python",
        exclude_unset: bool = False,
        exclude_defaults: bool = False,
        exclude_none: bool = False,
    ) -> dict[str, Any]:
        """The model as a dict, nested models as dicts, unknown fields the service sent
        included: `model_dump()`.

        Args:
            mode: `"json"` for values JSON can hold (timestamps as ISO 8601 strings).
            exclude_unset: Leave out the fields the body did not hold.
            exclude_defaults: Leave out the fields at their default.
            exclude_none: Leave out the fields that are None.

        Examples:
            >>> from leadenrich import LeadIn
            >>> LeadIn(company="Acme", domain="acme.com").to_dict(exclude_none=True)
            {'company': 'Acme', 'domain': 'acme.com'}
        """
        return self.model_dump(
            mode=mode,
            exclude_unset=exclude_unset,
            exclude_defaults=exclude_defaults,
            exclude_none=exclude_none,
        )

    def to_json(
        self,
        *,
        indent: int | None = 2,
        exclude_unset: bool = False,
        exclude_defaults: bool = False,
        exclude_none: bool = False,
    ) -> str:
        """The model as JSON text, indented by 2 (`indent=None` for one line):
        `model_dump_json()`.

        Examples:
            >>> from leadenrich import LeadIn
            >>> print(LeadIn(company="Acme", domain="acme.com").to_json(exclude_none=True))
            {
              "company": "Acme",
              "domain": "acme.com"
            }
        """
        return self.model_dump_json(
            indent=indent,
            exclude_unset=exclude_unset,
            exclude_defaults=exclude_defaults,
            exclude_none=exclude_none,
        )


class RequestModel(Model):
    """A body the SDK sends: unknown fields and loose types are rejected.

    Strictness catches a typo such as ``compnay=`` before anything is sent or charged.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="forbid", strict=True, str_strip_whitespace=True, defer_build=True
    )


class ResponseModel(Model):
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
