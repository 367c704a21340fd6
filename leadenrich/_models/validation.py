"""The entries of a 422 response."""

from pydantic import Field

from .base import ResponseModel

__all__ = ["ValidationErrorItem"]


class ValidationErrorItem(ResponseModel):
    """One entry of a 422 body's ``detail`` array (the spec's ValidationError).

    Examples:
        >>> item = ValidationErrorItem(loc=["body", "lead", "domain"], msg="Field required", type="missing")
        >>> ".".join(str(part) for part in item.loc)
        'body.lead.domain'
    """

    loc: list[str | int] = Field(
        default_factory=list[str | int], description="Where the invalid value is, from the outside in."
    )
    msg: str = Field(description="What is wrong with it.")
    type: str = Field(description="A machine-readable error type, such as `missing`.")
