"""leadenrich: the typed Python SDK for the Lead Enrichment Developer API v1.

Public names load on first use (PEP 562), so `import leadenrich` stays cheap for scripts
and the command line; type checkers and editors see ordinary imports.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._lazy import load
from ._version import __version__ as __version__

if TYPE_CHECKING:
    # What type checkers and editors see: `X as X` marks each as exported.
    from ._bulk.iteration import AsyncBulkIterator as AsyncBulkIterator
    from ._bulk.options import BulkOptions as BulkOptions
    from ._bulk.preview import BulkPreview as BulkPreview
    from ._bulk.preview import PreviewRow as PreviewRow
    from ._bulk.results import BulkOutcome as BulkOutcome
    from ._bulk.results import BulkResult as BulkResult
    from ._client import AsyncLeadEnrich as AsyncLeadEnrich
    from ._client import LeadEnrich as LeadEnrich
    from ._clock import ServiceClock as ServiceClock
    from ._config import ClientSettings as ClientSettings
    from ._errors import APIConnectionError as APIConnectionError
    from ._errors import APIResponseValidationError as APIResponseValidationError
    from ._errors import APIStatusError as APIStatusError
    from ._errors import APITimeoutError as APITimeoutError
    from ._errors import AuthenticationError as AuthenticationError
    from ._errors import InternalServerError as InternalServerError
    from ._errors import InvalidRequestError as InvalidRequestError
    from ._errors import JobFailedError as JobFailedError
    from ._errors import LeadEnrichError as LeadEnrichError
    from ._errors import NotFoundError as NotFoundError
    from ._errors import PermissionDeniedError as PermissionDeniedError
    from ._errors import PollTimeoutError as PollTimeoutError
    from ._errors import QuotaExceededError as QuotaExceededError
    from ._errors import RateLimitError as RateLimitError
    from ._errors import UnprocessableEntityError as UnprocessableEntityError
    from ._models import ApiCalls as ApiCalls
    from ._models import BuyingCommitteeMember as BuyingCommitteeMember
    from ._models import CompanyOverview as CompanyOverview
    from ._models import EmailFindIn as EmailFindIn
    from ._models import EmailFindOut as EmailFindOut
    from ._models import EngagementPlaybook as EngagementPlaybook
    from ._models import EnrichJobCreated as EnrichJobCreated
    from ._models import Enrichment as Enrichment
    from ._models import Health as Health
    from ._models import IntentSignals as IntentSignals
    from ._models import JobCompletedEvent as JobCompletedEvent
    from ._models import JobOut as JobOut
    from ._models import LeadDeleted as LeadDeleted
    from ._models import LeadIn as LeadIn
    from ._models import LeadOut as LeadOut
    from ._models import LeadPage as LeadPage
    from ._models import MobileCredits as MobileCredits
    from ._models import MobileFindIn as MobileFindIn
    from ._models import MobileFindOut as MobileFindOut
    from ._models import MonthlyLeads as MonthlyLeads
    from ._models import TechStack as TechStack
    from ._models import UsageOut as UsageOut
    from ._models import ValidationErrorItem as ValidationErrorItem
    from ._ratelimit import RateLimits as RateLimits
    from ._resources.email import AsyncEmail as AsyncEmail
    from ._resources.email import Email as Email
    from ._resources.jobs import AsyncJobs as AsyncJobs
    from ._resources.jobs import Jobs as Jobs
    from ._resources.leads import AsyncLeads as AsyncLeads
    from ._resources.leads import Leads as Leads
    from ._resources.mobile import AsyncMobile as AsyncMobile
    from ._resources.mobile import Mobile as Mobile
    from ._response import APIResponse as APIResponse
    from ._saved_run import read_checkpoint as read_checkpoint
    from ._shared_budget import SharedBudget as SharedBudget
    from ._types import DataFrameLike as DataFrameLike
    from ._types import LeadDict as LeadDict
    from ._types import PersonQuery as PersonQuery

# Where each public name is imported from, the first time it is used. A test checks that
# it names what the imports above do.
_SOURCES: dict[str, str] = {
    "AsyncBulkIterator": "._bulk.iteration",
    "BulkOptions": "._bulk.options",
    "BulkPreview": "._bulk.preview",
    "PreviewRow": "._bulk.preview",
    "BulkOutcome": "._bulk.results",
    "BulkResult": "._bulk.results",
    "AsyncLeadEnrich": "._client",
    "LeadEnrich": "._client",
    "ServiceClock": "._clock",
    "ClientSettings": "._config",
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
    "APIResponse": "._response",
    # The types of client.leads, .jobs, .email and .mobile, for annotations (the client
    # makes them): public here, so that help(), the reference and pickles name them here.
    "AsyncEmail": "._resources.email",
    "Email": "._resources.email",
    "AsyncJobs": "._resources.jobs",
    "Jobs": "._resources.jobs",
    "AsyncLeads": "._resources.leads",
    "Leads": "._resources.leads",
    "AsyncMobile": "._resources.mobile",
    "Mobile": "._resources.mobile",
    "read_checkpoint": "._saved_run",
    "SharedBudget": "._shared_budget",
    "DataFrameLike": "._types",
    "LeadDict": "._types",
    "PersonQuery": "._types",
}


def __getattr__(name: str) -> Any:
    return load(__name__, _SOURCES, name)


def __dir__() -> list[str]:
    return sorted(["__version__", *_SOURCES])


if not TYPE_CHECKING:
    # Built from the table, which type checkers do not read: they take the imports above.
    __all__ = __dir__()
