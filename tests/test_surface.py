"""Both clients expose the same public methods with the same parameters."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import leadenrich
import leadenrich._models
import leadenrich.testing
from leadenrich import AsyncLeadEnrich, LeadEnrich

NAMESPACES = ("leads", "jobs", "email", "mobile")


def public_methods(obj: Any) -> dict[str, inspect.Signature]:
    return {
        name: inspect.signature(member)
        for name, member in inspect.getmembers(obj, callable)
        if not name.startswith("_")
    }


def comparable(signature: inspect.Signature) -> list[tuple[str, Any, Any]]:
    # Annotations differ on purpose (httpx.Client vs httpx.AsyncClient); names, kinds and
    # defaults must not.
    return [(p.name, p.kind, p.default) for p in signature.parameters.values()]


def test_same_methods_and_parameters() -> None:
    sync_client = LeadEnrich("k", base_url="https://api.test")
    async_client = AsyncLeadEnrich("k", base_url="https://api.test")
    pairs = [(sync_client, async_client)] + [
        (getattr(sync_client, n), getattr(async_client, n)) for n in NAMESPACES
    ]
    for sync_obj, async_obj in pairs:
        sync_methods, async_methods = public_methods(sync_obj), public_methods(async_obj)
        sync_names = set(sync_methods) - {"close"}
        async_names = set(async_methods) - {"aclose"}
        assert sync_names == async_names, type(sync_obj).__name__
        for name in sync_names:
            assert comparable(sync_methods[name]) == comparable(async_methods[name]), f"{name} differs"


def test_async_methods_are_coroutines_except_iterators() -> None:
    async_client = AsyncLeadEnrich("k", base_url="https://api.test")
    for namespace in (async_client, *(getattr(async_client, n) for n in NAMESPACES)):
        for name, method in inspect.getmembers(namespace, callable):
            if name.startswith("_") or name == "with_options":
                continue
            expected = name not in ("iter", "enrich_iter")
            assert inspect.iscoroutinefunction(method) is expected, name


def test_public_api_names_are_exported() -> None:
    names = [
        "LeadEnrich",
        "AsyncLeadEnrich",
        "RateLimits",
        "LeadIn",
        "Enrichment",
        "LeadOut",
        "EnrichJobCreated",
        "JobOut",
        "EmailFindIn",
        "EmailFindOut",
        "MobileFindIn",
        "MobileFindOut",
        "UsageOut",
        "CompanyOverview",
        "TechStack",
        "IntentSignals",
        "BuyingCommitteeMember",
        "EngagementPlaybook",
        "MonthlyLeads",
        "MobileCredits",
        "ApiCalls",
        "ValidationErrorItem",
        "JobCompletedEvent",
        "Health",
        "LeadPage",
        "LeadDeleted",
        "LeadEnrichError",
        "InvalidRequestError",
        "APIConnectionError",
        "APITimeoutError",
        "APIStatusError",
        "AuthenticationError",
        "QuotaExceededError",
        "PermissionDeniedError",
        "NotFoundError",
        "UnprocessableEntityError",
        "RateLimitError",
        "InternalServerError",
        "APIResponseValidationError",
        "JobFailedError",
        "PollTimeoutError",
        "BulkPreview",
        "PreviewRow",
    ]
    assert [n for n in names if not hasattr(leadenrich, n)] == []
    assert issubclass(leadenrich.InvalidRequestError, ValueError)
    assert issubclass(leadenrich.APITimeoutError, leadenrich.APIConnectionError)


def type_checking_imports(package: ModuleType) -> dict[str, str]:
    """What the package imports for type checkers only: each name and its module."""
    assert package.__file__ is not None
    tree = ast.parse(Path(package.__file__).read_text(encoding="utf-8"))
    [block] = [
        node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
    ]
    return {
        alias.asname or alias.name: "." * node.level + (node.module or "")
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


@pytest.mark.parametrize("package", [leadenrich, leadenrich._models, leadenrich.testing])
def test_type_checkers_see_the_names_the_package_loads(package: ModuleType) -> None:
    # Each name is written twice: imported for type checkers (which cannot read a table),
    # and in the table the package loads it by at run time. They must agree.
    assert type_checking_imports(package) == package._SOURCES
    assert set(package._SOURCES) <= set(package.__all__)
