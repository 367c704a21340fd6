"""The spec's schemas as pydantic models.

Each name loads its own module on first use (PEP 562), so a call that needs the lead
models does not define the job, lookup and account ones too: every model class costs
import time, even with its validator deferred.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._lazy import load

if TYPE_CHECKING:
    from .account import ApiCalls, Health, MobileCredits, MonthlyLeads, UsageOut
    from .jobs import JOB_TERMINAL_STATUSES, EnrichJobCreated, JobCompletedEvent, JobOut
    from .leads import (
        BuyingCommitteeMember,
        CompanyOverview,
        EngagementPlaybook,
        Enrichment,
        EnrichRequest,
        IntentSignals,
        LeadDeleted,
        LeadIn,
        LeadOut,
        LeadPage,
        TechStack,
    )
    from .lookups import MOBILE_TERMINAL_STATES, EmailFindIn, EmailFindOut, MobileFindIn, MobileFindOut
    from .validation import ValidationErrorItem

_SOURCES: dict[str, str] = {
    "ApiCalls": ".account",
    "Health": ".account",
    "MobileCredits": ".account",
    "MonthlyLeads": ".account",
    "UsageOut": ".account",
    "JOB_TERMINAL_STATUSES": ".jobs",
    "EnrichJobCreated": ".jobs",
    "JobCompletedEvent": ".jobs",
    "JobOut": ".jobs",
    "BuyingCommitteeMember": ".leads",
    "CompanyOverview": ".leads",
    "EngagementPlaybook": ".leads",
    "EnrichRequest": ".leads",
    "Enrichment": ".leads",
    "IntentSignals": ".leads",
    "LeadDeleted": ".leads",
    "LeadIn": ".leads",
    "LeadOut": ".leads",
    "LeadPage": ".leads",
    "TechStack": ".leads",
    "MOBILE_TERMINAL_STATES": ".lookups",
    "EmailFindIn": ".lookups",
    "EmailFindOut": ".lookups",
    "MobileFindIn": ".lookups",
    "MobileFindOut": ".lookups",
    "ValidationErrorItem": ".validation",
}


def __getattr__(name: str) -> Any:
    return load(__name__, _SOURCES, name)


__all__ = [
    "JOB_TERMINAL_STATUSES",
    "MOBILE_TERMINAL_STATES",
    "ApiCalls",
    "BuyingCommitteeMember",
    "CompanyOverview",
    "EmailFindIn",
    "EmailFindOut",
    "EngagementPlaybook",
    "EnrichJobCreated",
    "EnrichRequest",
    "Enrichment",
    "Health",
    "IntentSignals",
    "JobCompletedEvent",
    "JobOut",
    "LeadDeleted",
    "LeadIn",
    "LeadOut",
    "LeadPage",
    "MobileCredits",
    "MobileFindIn",
    "MobileFindOut",
    "MonthlyLeads",
    "TechStack",
    "UsageOut",
    "ValidationErrorItem",
]
