"""What results look like: short reprs that name the key fields, and HTML for Jupyter.

The objects come from real calls on the fake server, through each client.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from leadenrich import (
    BulkResult,
    CompanyOverview,
    EmailFindOut,
    JobFailedError,
    JobOut,
    LeadIn,
    LeadOut,
    LeadPage,
    MobileFindOut,
    TechStack,
)
from leadenrich.testing import FakeServer
from tests.helpers import call

from .conftest import PATIENT, Client

pytestmark = pytest.mark.anyio

ACME = {"company": "Acme", "domain": "acme.com", "name": "Ada Lovelace", "email": "ada@acme.com"}
PERSON = {"first_name": "Ada", "last_name": "Lovelace", "domain": "acme.com"}
# A private class is a leading underscore and a capital, such as _LeadEcho.
PRIVATE_CLASS = re.compile(r"\b_[A-Z]\w*")
LIMIT = 200


def assert_readable(obj: object, *expected: str, limit: int = LIMIT) -> str:
    text = repr(obj)
    assert len(text) <= limit, f"{len(text)} characters: {text}"
    assert not PRIVATE_CLASS.search(text), text
    for part in expected:
        assert part in text, f"{part!r} not in {text}"
    assert len(str(obj)) <= limit
    return text


async def test_a_lead_shows_its_id_company_and_score(client: Client) -> None:
    lead: LeadOut = await call(client.leads.enrich_sync(ACME))
    score = lead.enrichment.opportunity_score
    assert_readable(
        lead,
        f"id={lead.id!r}",
        "company='Acme'",
        "domain='acme.com'",
        f"opportunity_score={score}",
        "deduped=False",
    )
    assert_readable(lead.enrichment, f"opportunity_score={score}", "industry=")
    assert repr(lead.input).startswith("LeadIn(")
    # The full data is one attribute away, uncut, and pydantic's own behaviour is intact.
    summary = lead.enrichment.company_overview.summary
    assert summary is not None
    assert summary in lead.model_dump_json()
    assert LeadOut.model_validate(lead.model_dump()) == lead
    assert len(repr(lead.enrichment.company_overview)) <= LIMIT
    for member in lead.enrichment.buying_committee:
        assert_readable(member)


async def test_a_finished_job_shows_its_status_and_lead(client: Client) -> None:
    created = await call(client.leads.enrich({"company": "Initech", "domain": "initech.com"}))
    job: JobOut = await call(client.jobs.wait(created.job_id, **PATIENT))
    assert job.result is not None
    assert_readable(
        job, f"job_id={created.job_id!r}", "status='done'", f"result=LeadOut(id={job.result.id!r}"
    )
    assert "created_at" not in repr(job)
    assert job.created_at is not None


async def test_a_failed_job_shows_its_error_cut_short(client: Client) -> None:
    with pytest.raises(JobFailedError) as raised:
        await call(client.leads.enrich_and_wait({"company": "Gone", "domain": "gone.fail"}, **PATIENT))
    assert_readable(raised.value.job, "status='failed'", "error={'code': 'enrichment_failed'")


async def test_lookups_show_their_state_and_answer(client: Client) -> None:
    found: EmailFindOut = await call(client.email.find(**PERSON))
    assert found.email is not None
    assert_readable(found, "state='found'", f"email={found.email!r}")
    lookup: MobileFindOut = await call(client.mobile.find_and_wait(**PERSON, **PATIENT))
    assert lookup.mobile is not None
    assert_readable(lookup, f"lookup_id={lookup.lookup_id!r}", "state='settled'", f"mobile={lookup.mobile!r}")


async def test_a_page_shows_how_many_leads_and_which(client: Client, server: FakeServer) -> None:
    leads = [
        await call(client.leads.enrich_sync({"company": f"C{i}", "domain": f"c{i}.com"})) for i in range(4)
    ]
    page: LeadPage = await call(client.leads.list(limit=10))
    text = assert_readable(page, "<4 leads: ")
    assert sum(lead.id in text for lead in leads) == 3
    assert len(page.items) == 4


async def test_a_bulk_result_shows_counts_and_each_outcome_its_lead_or_error(client: Client) -> None:
    rows: list[Any] = [{"company": f"Co{i}", "domain": f"co{i}.com"} for i in range(11)]
    rows.append({"company": "Gone", "domain": "gone.fail"})
    result: BulkResult = await call(client.leads.enrich_many(rows))
    assert (result.succeeded, result.failed) == (11, 1)
    assert_readable(
        result,
        "outcomes=<12 outcomes>",
        "succeeded=11",
        "failed=1",
        f"credits_spent={result.credits_spent}",
        limit=150,
    )
    first, failed = result.outcomes[0], result.outcomes[-1]
    assert first.lead is not None
    assert_readable(
        first, "index=0", "status='enriched'", f"lead=LeadOut(id={first.lead.id!r}", "charged=True"
    )
    assert_readable(failed, "index=11", "status='failed'", "error=InternalServerError('502")
    assert "gone.fail" in str(failed.error)  # the full message stays on the error


async def test_a_bulk_result_in_jupyter_is_counts_credits_and_a_small_table(client: Client) -> None:
    rows: list[Any] = [{"company": f"Co{i}", "domain": f"co{i}.com"} for i in range(12)]
    rows[0] = {"company": "<b>Bold & Co</b>", "domain": "bold.com"}
    rows.append({"company": "Gone", "domain": "gone.fail"})
    result: BulkResult = await call(client.leads.enrich_many(rows))
    html = result._repr_html_()
    assert (
        f"13 leads: 12 succeeded (0 deduped), 1 failed, 0 not started; {result.credits_spent} credits spent"
        in html
    )
    assert html.count("<tr>") == 1 + 10  # the header and the first ten outcomes
    assert "…and 3 more" in html
    assert "&lt;b&gt;Bold &amp; Co&lt;/b&gt;" in html
    assert "<b>Bold" not in html
    first = result.outcomes[1].lead
    assert first is not None
    assert f"<td>{first.id}</td><td>{first.enrichment.opportunity_score}</td>" in html
    # One outcome renders too: the lead given, its status, its record or its error.
    one = result.outcomes[1]._repr_html_()
    assert one.startswith("<div><strong>Lead 1: enriched</strong>")
    assert f"<td style='text-align:left'>{first.id}</td>" in one
    assert "<th style='text-align:left'>charged</th><td style='text-align:left'>yes</td>" in one
    failed = result.outcomes[-1]._repr_html_()
    assert "Lead 12: failed" in failed
    assert "gone.fail" in failed
    assert "<th style='text-align:left'>charged</th><td style='text-align:left'>no</td>" in failed


async def test_a_lead_in_jupyter_is_company_score_rationale_and_tags(client: Client) -> None:
    lead: LeadOut = await call(client.leads.enrich_sync(ACME))
    enrichment = lead.enrichment
    assert enrichment.score_rationale
    assert enrichment.tags
    html = lead._repr_html_()
    assert "<strong>Acme</strong> (acme.com)" in html
    assert f"{enrichment.opportunity_score}/100" in html
    assert enrichment.score_rationale.replace("'", "&#x27;") in html
    for tag in enrichment.tags:
        assert f">{tag}</span>" in html


def test_an_echoed_lead_is_a_leadin_in_repr_and_errors() -> None:
    body = {"id": "ld_1", "input": {"company": "Acme", "domain": "https://acme.com", "x": 1}}
    echoed = LeadOut.model_validate({**body, "enrichment": _minimal_enrichment()}).input
    assert isinstance(echoed, LeadIn)
    assert repr(echoed).startswith("LeadIn(")
    assert not PRIVATE_CLASS.search(repr(echoed))
    with pytest.raises(ValueError, match=r"validation error for LeadIn\b") as raised:
        type(echoed).model_validate({"domain": "acme.com"})
    assert not PRIVATE_CLASS.search(str(raised.value))


def _minimal_enrichment() -> dict[str, Any]:
    return {
        "company_overview": {},
        "tech_stack": {},
        "intent_signals": {},
        "engagement_playbook": {},
        "opportunity_score": 50,
    }


def test_long_values_are_cut_and_say_so() -> None:
    summary = "Acme's robots " * 40
    overview = CompanyOverview(summary=summary, industry="Robotics")
    text = assert_readable(overview, "industry='Robotics'", "summary=\"Acme's robots ")
    assert text.endswith('…")')
    assert overview.summary == summary  # cut in the repr only
    stack = TechStack(cloud=[f"Cloud {n}" for n in range(40)])
    assert_readable(stack, "cloud=['Cloud 0', 'Cloud 1'", "more]")
    page = LeadPage.model_validate({"items": [], "total": 0})
    assert repr(page) == "LeadPage(items=[], total=0)"
