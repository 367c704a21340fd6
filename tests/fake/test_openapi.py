"""The OpenAPI document: version, paths, and component schemas that match the SDK's models."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from pydantic import BaseModel

import leadenrich
from leadenrich.testing import FakeServer

ENDPOINTS = {
    ("get", "/api/v1/health"),
    ("post", "/api/v1/leads/enrich"),
    ("get", "/api/v1/jobs/{job_id}"),
    ("get", "/api/v1/leads"),
    ("get", "/api/v1/leads/{lead_id}"),
    ("delete", "/api/v1/leads/{lead_id}"),
    ("post", "/api/v1/leads/{lead_id}/re-enrich"),
    ("post", "/api/v1/email/find"),
    ("post", "/api/v1/mobile/find"),
    ("get", "/api/v1/mobile/find/{lookup_id}"),
    ("get", "/api/v1/usage"),
}
MODELS = [
    "ApiCalls",
    "BuyingCommitteeMember",
    "CompanyOverview",
    "EmailFindIn",
    "EmailFindOut",
    "EngagementPlaybook",
    "EnrichJobCreated",
    "Enrichment",
    "Health",
    "IntentSignals",
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
]


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    with FakeServer() as server, httpx.Client(trust_env=False, verify=False) as http:
        response = http.get(server.url + "/openapi.json")
    assert response.status_code == 200
    return response.json()


def test_declares_openapi_3_1_and_api_version_1_0_0(document: dict[str, Any]) -> None:
    assert document["openapi"] == "3.1.0"
    assert document["info"]["version"] == "1.0.0"


def test_lists_every_endpoint_and_nothing_else(document: dict[str, Any]) -> None:
    operations = {(method, path) for path, item in document["paths"].items() for method in item}
    assert operations == ENDPOINTS


def test_every_endpoint_but_health_declares_bearer_auth(document: dict[str, Any]) -> None:
    [scheme] = document["components"]["securitySchemes"].values()
    assert (scheme["type"], scheme["scheme"]) == ("http", "bearer")
    for path, item in document["paths"].items():
        for operation in item.values():
            assert bool(operation.get("security")) == (path != "/api/v1/health"), path


def test_enrich_declares_both_modes_and_its_errors(document: dict[str, Any]) -> None:
    operation = document["paths"]["/api/v1/leads/enrich"]["post"]
    responses = operation["responses"]
    assert {"200", "202", "401", "402", "403", "422", "429", "502"} <= set(responses)
    assert responses["202"]["content"]["application/json"]["schema"]["$ref"].endswith("/EnrichJobCreated")
    assert responses["200"]["content"]["application/json"]["schema"]["$ref"].endswith("/LeadOut")
    assert "Retry-After" in responses["429"]["headers"]
    [mode] = [p for p in operation["parameters"] if p["name"] == "mode"]
    assert mode["in"] == "query"
    assert not mode.get("required", False)
    assert set(mode["schema"]["enum"]) == {"sync", "async"}
    assert mode["schema"]["default"] == "async"


def test_list_bounds_are_documented(document: dict[str, Any]) -> None:
    parameters = {p["name"]: p["schema"] for p in document["paths"]["/api/v1/leads"]["get"]["parameters"]}
    assert parameters["limit"] == {**parameters["limit"], "minimum": 1, "maximum": 500, "default": 50}
    assert parameters["skip"] == {**parameters["skip"], "minimum": 0, "default": 0}


@pytest.mark.parametrize("name", MODELS)
def test_component_schemas_agree_with_the_sdk_models(document: dict[str, Any], name: str) -> None:
    model: type[BaseModel] = getattr(leadenrich, name)
    expected = model.model_json_schema()
    actual = document["components"]["schemas"][name]
    assert set(actual.get("properties", {})) == set(expected.get("properties", {}))
    assert set(actual.get("required", [])) == set(expected.get("required", []))


def test_the_422_entry_is_exactly_loc_msg_type(document: dict[str, Any]) -> None:
    schema = document["components"]["schemas"]["ValidationError"]
    expected = leadenrich.ValidationErrorItem.model_json_schema()
    assert set(schema["properties"]) == set(expected["properties"]) == {"loc", "msg", "type"}
    assert set(schema["required"]) == {"loc", "msg", "type"}
