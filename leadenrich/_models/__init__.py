"""The spec's schemas as pydantic models."""

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
