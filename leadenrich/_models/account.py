"""The caller's account: usage, quota and credit balances, and the health check."""

from typing import Any, cast

from pydantic import Field, model_validator

from .._display import html_fields
from .base import ResponseModel

__all__ = ["ApiCalls", "Health", "MobileCredits", "MonthlyLeads", "UsageOut"]


class MonthlyLeads(ResponseModel):
    """The monthly enrichment quota and what was used of it.

    Examples:
        >>> quota = client.usage().monthly_leads
        >>> None if quota.effective_limit is None else quota.effective_limit - quota.used
        988
    """

    included: int | None = Field(description="Leads included in the plan this month; null when unlimited.")
    credits_added: int = Field(description="Leads added by credit packs.")
    effective_limit: int | None = Field(description="included + credits_added; null when unlimited.")
    used: int = Field(description="Leads enriched (and email hits) this month.")


class MobileCredits(ResponseModel):
    """The mobile-lookup credit pool.

    Examples:
        >>> client.usage().mobile_credits.balance
        99
    """

    purchased: int = Field(description="Mobile credits bought.")
    used: int = Field(description="Mobile credits spent on settled lookups.")
    balance: int = Field(description="Mobile credits left.")


class ApiCalls(ResponseModel):
    """API requests counted this month.

    Examples:
        >>> calls = client.usage().api_calls_this_month
        >>> calls.this_key, calls.total
        (12, 40)
    """

    total: int = Field(description="Requests by every key of the account.")
    this_key: int = Field(description="Requests by the key making this call.")


class UsageOut(ResponseModel):
    """Quota, credit balances and request counts of the current month.

    Examples:
        >>> usage = client.usage()
        >>> usage.monthly_leads.used, usage.mobile_credits.balance
        (12, 50)
    """

    tier: str = Field(description="The account's plan, such as `growth`.")
    monthly_leads: MonthlyLeads = Field(description="The enrichment quota.")
    mobile_credits: MobileCredits = Field(description="The mobile credit pool.")
    api_calls_this_month: ApiCalls = Field(description="Request counts.")

    def _repr_html_(self) -> str:
        """What Jupyter shows: the plan, the credits used and left, the requests."""
        leads, mobile, calls = self.monthly_leads, self.mobile_credits, self.api_calls_this_month
        limit = "no limit" if leads.effective_limit is None else f"{leads.effective_limit}"
        left = "" if leads.effective_limit is None else f", {max(0, leads.effective_limit - leads.used)} left"
        return html_fields(
            f"Usage this month ({self.tier})",
            [
                ("enrichments", f"{leads.used} of {limit}{left}"),
                (
                    "mobile credits",
                    f"{mobile.balance} left ({mobile.used} used of {mobile.purchased} bought)",
                ),
                ("API calls", f"{calls.total} ({calls.this_key} with this key)"),
            ],
        )


class Health(ResponseModel):
    """The answer of the liveness check. The spec does not show its body: whatever the
    service sends is kept, and a bare string becomes `status`.

    Examples:
        >>> client.health().status
        'ok'
        >>> Health.model_validate({"status": "ok", "version": "1.0.0"}).version
        '1.0.0'
        >>> Health.model_validate("ok").status
        'ok'
    """

    status: str | None = Field(
        default=None, description="The service's own word for its state, such as `ok`."
    )

    @model_validator(mode="before")
    @classmethod
    def _wrap(cls, value: Any) -> Any:
        if value is None:
            return {}
        if isinstance(value, str):
            return {"status": value}
        if isinstance(value, dict):
            return cast("dict[str, Any]", value)
        return {"value": value}
