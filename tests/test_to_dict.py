"""Every model has openai-python's `to_dict()` and `to_json()`: `model_dump()` and
`model_dump_json()` under the names its users reach for."""

from __future__ import annotations

import json

import pydantic
import pytest

import leadenrich
from leadenrich import JobOut, LeadIn, LeadOut
from leadenrich._models.base import Model
from tests.helpers import job_out, lead_out

MODELS = sorted(
    name
    for name in leadenrich.__all__
    if isinstance(obj := getattr(leadenrich, name), type) and issubclass(obj, pydantic.BaseModel)
)


def test_the_check_sees_every_model() -> None:
    assert {"LeadIn", "LeadOut", "LeadPage", "JobOut", "UsageOut", "ValidationErrorItem"} <= set(MODELS)
    assert len(MODELS) >= 20


@pytest.mark.parametrize("name", MODELS)
def test_every_model_has_to_dict_and_to_json(name: str) -> None:
    model = getattr(leadenrich, name)
    # The one pair of the SDK's base, which the tests below check against pydantic's.
    assert model.to_dict is Model.to_dict
    assert model.to_json is Model.to_json


def test_to_dict_is_model_dump_with_its_keywords() -> None:
    job = JobOut.model_validate(
        job_out("j", "done", result=lead_out(), created_at="2026-11-22T10:00:00Z", shard=7)
    )
    assert job.to_dict() == job.model_dump()
    assert job.to_dict()["shard"] == 7, "a field the service added is kept"
    as_json = job.to_dict(mode="json", exclude_none=True)
    assert as_json["created_at"] == "2026-11-22T10:00:00Z"
    assert "finished_at" not in as_json
    assert LeadIn(company="Acme", domain="acme.com").to_dict(exclude_defaults=True) == {
        "company": "Acme",
        "domain": "acme.com",
    }
    assert set(JobOut.model_validate({"job_id": "j", "status": "queued"}).to_dict(exclude_unset=True)) == {
        "job_id",
        "status",
    }


def test_to_json_is_indented_json_of_the_same_fields() -> None:
    lead = LeadOut.model_validate(lead_out())
    text = lead.to_json()
    assert text.startswith('{\n  "id": "ld_1"')
    assert json.loads(text) == lead.to_dict(mode="json")
    assert "\n" not in lead.to_json(indent=None)
    assert json.loads(lead.to_json(exclude_none=True)) == lead.to_dict(mode="json", exclude_none=True)
