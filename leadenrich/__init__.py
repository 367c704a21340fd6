"""leadenrich: the typed Python SDK for the Lead Enrichment Developer API v1.

Public names load on first use (PEP 562), so `import leadenrich` stays cheap for scripts
and the command line; type checkers and editors see ordinary imports.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._lazy import load
from ._version import __version__

if TYPE_CHECKING:
    from ._bulk.iteration import AsyncBulkIterator
    from ._bulk.preview import BulkPreview, PreviewRow
    from ._bulk.results import BulkOutcome, BulkResult
    from ._client import (
        AsyncLeadEnrich,
        LeadEnrich,
    )
    from ._clock import ServiceClock
    from ._config import ClientSettings
    from ._errors import (
        APIConnectionError,
        APIResponseValidationError,
        APIStatusError,
        APITimeoutError,
        AuthenticationError,
        InternalServerError,
        InvalidRequestError,
        JobFailedError,
        LeadEnrichError,
        NotFoundError,
        PermissionDeniedError,
        PollTimeoutError,
        QuotaExceededError,
        RateLimitError,
        UnprocessableEntityError,
    )
    from ._models import (
        ApiCalls,
        BuyingCommitteeMember,
        CompanyOverview,
        EmailFindIn,
        EmailFindOut,
        EngagementPlaybook,
        EnrichJobCreated,
        Enrichment,
        Health,
        IntentSignals,
        JobCompletedEvent,
        JobOut,
        LeadDeleted,
        LeadIn,
        LeadOut,
        LeadPage,
        MobileCredits,
        MobileFindIn,
        MobileFindOut,
        MonthlyLeads,
        TechStack,
        UsageOut,
        ValidationErrorItem,
    )
    from ._ratelimit import (
        RateLimits,
    )
    from ._response import APIResponse
    from ._saved_run import read_checkpoint
    from ._shared_budget import (
        SharedBudget,
    )
    from ._types import DataFrameLike, LeadDict, PersonQuery

_SOURCES: dict[str, str] = {
    "AsyncBulkIterator": "._bulk.iteration",
    "BulkOutcome": "._bulk.results",
    "BulkPreview": "._bulk.preview",
    "PreviewRow": "._bulk.preview",
    "BulkResult": "._bulk.results",
    "AsyncLeadEnrich": "._client",
    "LeadEnrich": "._client",
    "APIConnectionError": "._errors",
    "APIResponseValidationError": "._errors",
    "APIStatusError": "._errors",
    "APITimeoutError": "._errors",
    "AuthenticationError": "._errors",
    "InternalServerError": "._errors",
    "InvalidRequestError": "._errors",
    "JobFailedError": "._errors",
    "LeadEnrichError": "._errors",
    "NotFoundError": "._errors",
    "PermissionDeniedError": "._errors",
    "PollTimeoutError": "._errors",
    "QuotaExceededError": "._errors",
    "RateLimitError": "._errors",
    "UnprocessableEntityError": "._errors",
    "ApiCalls": "._models",
    "BuyingCommitteeMember": "._models",
    "CompanyOverview": "._models",
    "EmailFindIn": "._models",
    "EmailFindOut": "._models",
    "EngagementPlaybook": "._models",
    "EnrichJobCreated": "._models",
    "Enrichment": "._models",
    "Health": "._models",
    "IntentSignals": "._models",
    "JobCompletedEvent": "._models",
    "JobOut": "._models",
    "LeadDeleted": "._models",
    "LeadIn": "._models",
    "LeadOut": "._models",
    "LeadPage": "._models",
    "MobileCredits": "._models",
    "MobileFindIn": "._models",
    "MobileFindOut": "._models",
    "MonthlyLeads": "._models",
    "TechStack": "._models",
    "UsageOut": "._models",
    "ValidationErrorItem": "._models",
    "RateLimits": "._ratelimit",
    "ClientSettings": "._config",
    "APIResponse": "._response",
    "DataFrameLike": "._types",
    "LeadDict": "._types",
    "PersonQuery": "._types",
    "ServiceClock": "._clock",
    "SharedBudget": "._shared_budget",
    "read_checkpoint": "._saved_run",
}


def __getattr__(name: str) -> Any:
    return load(__name__, _SOURCES, name)


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "APIConnectionError",
    "APIResponse",
    "APIResponseValidationError",
    "APIStatusError",
    "APITimeoutError",
    "ApiCalls",
    "AsyncBulkIterator",
    "AsyncLeadEnrich",
    "AuthenticationError",
    "BulkOutcome",
    "BulkPreview",
    "BulkResult",
    "BuyingCommitteeMember",
    "ClientSettings",
    "CompanyOverview",
    "DataFrameLike",
    "EmailFindIn",
    "EmailFindOut",
    "EngagementPlaybook",
    "EnrichJobCreated",
    "Enrichment",
    "Health",
    "IntentSignals",
    "InternalServerError",
    "InvalidRequestError",
    "JobCompletedEvent",
    "JobFailedError",
    "JobOut",
    "LeadDeleted",
    "LeadDict",
    "LeadEnrich",
    "LeadEnrichError",
    "LeadIn",
    "LeadOut",
    "LeadPage",
    "MobileCredits",
    "MobileFindIn",
    "MobileFindOut",
    "MonthlyLeads",
    "NotFoundError",
    "PermissionDeniedError",
    "PersonQuery",
    "PollTimeoutError",
    "PreviewRow",
    "QuotaExceededError",
    "RateLimitError",
    "RateLimits",
    "ServiceClock",
    "SharedBudget",
    "TechStack",
    "UnprocessableEntityError",
    "UsageOut",
    "ValidationErrorItem",
    "__version__",
    "read_checkpoint",
]
