"""The spec's schemas as pydantic models.

Each name loads its own module on first use (PEP 562), so a call that needs the lead
models does not define the job, lookup and account ones too: every model class costs
import time, even with its validator deferred.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._lazy import load

if TYPE_CHECKING:
    from .account import ApiCalls as ApiCalls
    from .account import Health as Health
    from .account import MobileCredits as MobileCredits
    from .account import MonthlyLeads as MonthlyLeads
    from .account import UsageOut as UsageOut
    from .jobs import JOB_TERMINAL_STATUSES as JOB_TERMINAL_STATUSES
    from .jobs import EnrichJobCreated as EnrichJobCreated
    from .jobs import JobCompletedEvent as JobCompletedEvent
    from .jobs import JobOut as JobOut
    from .leads import BuyingCommitteeMember as BuyingCommitteeMember
    from .leads import CompanyOverview as CompanyOverview
    from .leads import EngagementPlaybook as EngagementPlaybook
    from .leads import Enrichment as Enrichment
    from .leads import EnrichRequest as EnrichRequest
    from .leads import IntentSignals as IntentSignals
    from .leads import LeadDeleted as LeadDeleted
    from .leads import LeadIn as LeadIn
    from .leads import LeadOut as LeadOut
    from .leads import TechStack as TechStack
    from .lookups import MOBILE_TERMINAL_STATES as MOBILE_TERMINAL_STATES
    from .lookups import EmailFindIn as EmailFindIn
    from .lookups import EmailFindOut as EmailFindOut
    from .lookups import MobileFindIn as MobileFindIn
    from .lookups import MobileFindOut as MobileFindOut
    from .pages import LeadPage as LeadPage
    from .validation import ValidationErrorItem as ValidationErrorItem

# Where each name is imported from, the first time it is used: what the imports above
# name (a test checks it).
_SOURCES: dict[str, str] = {
    "ApiCalls": ".account",
    "Health": ".account",
    "MobileCredits": ".account",
    "MonthlyLeads": ".account",
    "UsageOut": ".account",
    "EnrichJobCreated": ".jobs",
    "JOB_TERMINAL_STATUSES": ".jobs",
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
    "TechStack": ".leads",
    "EmailFindIn": ".lookups",
    "EmailFindOut": ".lookups",
    "MOBILE_TERMINAL_STATES": ".lookups",
    "MobileFindIn": ".lookups",
    "MobileFindOut": ".lookups",
    "LeadPage": ".pages",
    "ValidationErrorItem": ".validation",
}


def __getattr__(name: str) -> Any:
    return load(__name__, _SOURCES, name)


if not TYPE_CHECKING:
    __all__ = sorted(_SOURCES)
