"""Work-email discovery and mobile-number lookup."""

from datetime import datetime
from typing import ClassVar, Final

from pydantic import Field, model_validator

from .base import RequestModel, ResponseModel

__all__ = [
    "MOBILE_TERMINAL_STATES",
    "EmailFindIn",
    "EmailFindOut",
    "MobileFindIn",
    "MobileFindOut",
]

MOBILE_TERMINAL_STATES: Final = frozenset({"settled", "refunded"})

_COMBINATION_HELP = "pass either linkedin_url alone, or first_name + last_name + (company_name or domain)"


class _PersonQuery(RequestModel):
    linkedin_url: str | None = Field(default=None, description="The person's profile URL.")
    first_name: str | None = Field(default=None, description="The person's first name.")
    last_name: str | None = Field(default=None, description="The person's last name.")
    company_name: str | None = Field(default=None, description="The company the person works for.")
    domain: str | None = Field(default=None, description="The company's bare domain, such as `acme.com`.")

    @model_validator(mode="after")
    def _valid_combination(self) -> "_PersonQuery":
        by_profile = bool(self.linkedin_url)
        by_name = bool(self.first_name and self.last_name and (self.company_name or self.domain))
        others = [n for n in ("first_name", "last_name", "company_name", "domain") if getattr(self, n)]
        if by_profile and others:
            raise ValueError(
                f"linkedin_url must be given alone, but {', '.join(others)} {'was' if len(others) == 1 else 'were'} given too: "
                f"{_COMBINATION_HELP}"
            )
        if not (by_profile or by_name):
            given = ", ".join(others) or "nothing"
            raise ValueError(f"not a valid combination (got {given}): {_COMBINATION_HELP}")
        return self


class EmailFindIn(_PersonQuery):
    """Who to find a work email for.

    Valid input is `linkedin_url` alone, or `first_name` + `last_name` + (`company_name`
    or `domain`).

    Examples:
        >>> EmailFindIn(first_name="Ada", last_name="Lovelace", domain="acme.com").domain
        'acme.com'
    """


class MobileFindIn(_PersonQuery):
    """Who to look up a mobile number for; same rule as [`EmailFindIn`][leadenrich.EmailFindIn].

    Examples:
        >>> MobileFindIn(linkedin_url="https://www.linkedin.com/in/ada-lovelace").linkedin_url
        'https://www.linkedin.com/in/ada-lovelace'
    """


class EmailFindOut(ResponseModel):
    """The result of an email search: `found` (one credit charged) or `not_found` (free).

    Examples:
        >>> result = client.email.find(first_name="Ada", last_name="Lovelace", domain="acme.com")
        >>> result.email if result.found else result.state
        'ada.lovelace@acme.com'
    """

    __repr_fields__: ClassVar[tuple[str, ...] | None] = (
        "state",
        "email",
        "email_status",
        "email_score",
        "message",
    )

    state: str = Field(description="`found` on a hit, `not_found` on a miss (no credit charged on a miss).")
    email: str | None = Field(default=None, description="The work email, on a hit.")
    email_status: str | None = Field(
        default=None, description="For example `verified`, `catch_all`, `risky`."
    )
    email_score: float | None = Field(default=None, description="0-100 confidence; provider-dependent.")
    source: str | None = Field(default=None, description="Always `service_verified` on a hit.")
    contact: str | None = Field(default=None, description="Not documented by the service.")
    message: str | None = Field(default=None, description="A message from the service, if any.")

    @property
    def found(self) -> bool:
        """True on a hit.

        Examples:
            >>> EmailFindOut(state="not_found").found
            False
        """
        return self.state == "found"


class MobileFindOut(ResponseModel):
    """A mobile lookup: `pending`, then `settled` (number found, charged) or `refunded` (free).

    Examples:
        >>> lookup = client.mobile.find_and_wait(linkedin_url="https://linkedin.com/in/ada")
        >>> lookup.mobile if lookup.state == "settled" else None
        '+14155550123'
    """

    __repr_fields__: ClassVar[tuple[str, ...] | None] = ("lookup_id", "state", "mobile", "contact")

    lookup_id: str = Field(description="Poll it with `mobile.get` or `mobile.wait`.")
    state: str = Field(
        description="`pending`, `settled` (number found) or `refunded` (no number; not charged)."
    )
    contact: str | None = Field(default=None, description="Not documented by the service.")
    mobile: str | None = Field(default=None, description="E.164 phone number; present only when settled.")
    created_at: datetime | None = Field(default=None, description="When the lookup was created.")

    @property
    def is_terminal(self) -> bool:
        """True once the lookup is `settled` or `refunded`.

        Examples:
            >>> MobileFindOut(lookup_id="mob_1", state="pending").is_terminal
            False
        """
        return self.state in MOBILE_TERMINAL_STATES
