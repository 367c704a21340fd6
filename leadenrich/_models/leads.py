"""Leads: what is sent for enrichment and what comes back (a page of the listing: `pages.py`)."""

from datetime import datetime
from typing import Any, ClassVar

from pydantic import ConfigDict, Field, field_validator, model_validator

from .._display import html_tags, html_text
from .base import RequestModel, ResponseModel

__all__ = [
    "BuyingCommitteeMember",
    "CompanyOverview",
    "EngagementPlaybook",
    "EnrichRequest",
    "Enrichment",
    "IntentSignals",
    "LeadDeleted",
    "LeadIn",
    "LeadOut",
    "TechStack",
]


class LeadIn(RequestModel):
    """The lead to enrich. `company` and `domain` are required.

    Examples:
        >>> LeadIn(company="Acme", domain="acme.com", name="Ada Lovelace", email="ada@acme.com")
        LeadIn(name='Ada Lovelace', email='ada@acme.com', title=None, company='Acme', domain='acme.com', linkedin_url=None)
    """

    name: str | None = Field(default=None, description="Full name of the contact.")
    email: str | None = Field(
        default=None, description="Used for dedupe against existing leads and for email validation."
    )
    title: str | None = Field(default=None, description="Job title.")
    company: str = Field(min_length=1, description="Company name.")
    domain: str = Field(
        min_length=1,
        description=(
            "Company domain, bare (no scheme), such as `acme.com`. "
            "Used for firmographics, intent signals and email discovery."
        ),
    )
    linkedin_url: str | None = Field(
        default=None, description="Profile URL; enables profile-based enrichment paths."
    )

    @field_validator("domain")
    @classmethod
    def _bare_domain(cls, value: str) -> str:
        if "://" in value or "/" in value or " " in value:
            raise ValueError(
                f"must be a bare domain such as 'acme.com', not {value!r}: drop the scheme, path and spaces"
            )
        return value


class _LeadEcho(LeadIn):
    # The lead as the server echoes it back: parsed leniently, because a response must
    # never fail on a field the server adds. Still a LeadIn for isinstance and typing.
    # Named LeadIn in its repr and in validation errors: the class is an implementation detail.
    model_config: ClassVar[ConfigDict] = ConfigDict(extra="allow", strict=False, title="LeadIn")

    @field_validator("domain")
    @classmethod
    def _bare_domain(cls, value: str) -> str:
        return value

    def __repr_name__(self) -> str:
        return "LeadIn"


class CompanyOverview(ResponseModel):
    """Firmographics of the lead's company.

    Examples:
        >>> overview = lead.enrichment.company_overview
        >>> overview.industry, overview.company_size
        ('Software', '51-200')
    """

    __repr_fields__: ClassVar[tuple[str, ...] | None] = ("company_size", "industry", "summary")

    company_size: str | None = Field(default=None, description="Bucketed headcount, such as `51-200`.")
    industry: str | None = Field(default=None, description="Primary industry classification.")
    summary: str | None = Field(default=None, description="One paragraph about the company.")


class TechStack(ResponseModel):
    """Technologies the company is known to use, by category.

    Examples:
        >>> lead.enrichment.tech_stack.cloud
        ['AWS']
    """

    __repr_fields__: ClassVar[tuple[str, ...] | None] = (
        "cloud",
        "crm",
        "security",
        "infrastructure",
        "other",
    )

    cloud: list[str] = Field(default_factory=list[str], description="Cloud providers and platforms.")
    crm: list[str] = Field(default_factory=list[str], description="CRM and sales tools.")
    security: list[str] = Field(default_factory=list[str], description="Security products.")
    infrastructure: list[str] = Field(
        default_factory=list[str], description="Infrastructure and DevOps tools."
    )
    other: list[str] = Field(default_factory=list[str], description="Everything else detected.")


class IntentSignals(ResponseModel):
    """Signals that the company may be in a buying cycle.

    Examples:
        >>> lead.enrichment.intent_signals.hiring_signals
        ['Hiring Site Reliability Engineers']
    """

    __repr_fields__: ClassVar[tuple[str, ...] | None] = (
        "hiring_signals",
        "recent_news",
        "content_published",
        "events_attended",
    )

    hiring_signals: list[str] = Field(default_factory=list[str], description="Recent hires or open roles.")
    recent_news: list[str] = Field(
        default_factory=list[str], description="News from roughly the last 90 days."
    )
    content_published: list[str] = Field(
        default_factory=list[str], description="Content the company published."
    )
    events_attended: list[str] = Field(default_factory=list[str], description="Events the company attended.")


class BuyingCommitteeMember(ResponseModel):
    """One person involved in the buying decision.

    Examples:
        >>> for member in lead.enrichment.buying_committee:
        ...     print(member.name, member.title, member.role)
        Daniel Walsh Chief Financial Officer economic buyer
    """

    __repr_fields__: ClassVar[tuple[str, ...] | None] = ("name", "title", "role", "linkedin_url")

    name: str | None = Field(default=None, description="Full name.")
    title: str | None = Field(default=None, description="Job title.")
    role: str | None = Field(
        default=None,
        description="Role in the decision, for example economic buyer, champion, technical evaluator.",
    )
    linkedin_url: str | None = Field(default=None, description="Profile URL.")


class EngagementPlaybook(ResponseModel):
    """How and when to approach the lead.

    Examples:
        >>> lead.enrichment.engagement_playbook.opening_line
        'Hi Ada, teams at Acme often tell us they are held back by unplanned downtime.'
    """

    __repr_fields__: ClassVar[tuple[str, ...] | None] = (
        "timing",
        "opening_line",
        "value_prop",
        "case_study_angle",
    )

    timing: str | None = Field(default=None, description="When to reach out.")
    opening_line: str | None = Field(default=None, description="A suggested first sentence.")
    value_prop: str | None = Field(default=None, description="The value proposition to lead with.")
    case_study_angle: str | None = Field(default=None, description="Which customer story fits best.")


class Enrichment(ResponseModel):
    """The structured enrichment record of a lead.

    Examples:
        >>> record = client.leads.enrich_sync({"company": "Acme", "domain": "acme.com"}).enrichment
        >>> record.opportunity_score, record.tags
        (72, ['industry:software', 'segment:smb'])
    """

    __repr_fields__: ClassVar[tuple[str, ...] | None] = (
        "opportunity_score",
        "company_overview.industry",
        "company_overview.company_size",
        "tags",
    )

    company_overview: CompanyOverview = Field(description="Size, industry and a summary.")
    tech_stack: TechStack = Field(description="Technologies by category.")
    products: list[str] = Field(default_factory=list[str], description="The company's products.")
    intent_signals: IntentSignals = Field(description="Hiring, news, content and events.")
    buying_committee: list[BuyingCommitteeMember] = Field(
        default_factory=list[BuyingCommitteeMember], description="People involved in the buying decision."
    )
    pain_points: list[str] = Field(default_factory=list[str], description="Likely pain points.")
    engagement_playbook: EngagementPlaybook = Field(description="How and when to engage.")
    opportunity_score: int = Field(ge=0, le=100, description="How promising the lead is, 0 to 100.")
    score_rationale: str | None = Field(default=None, description="One-sentence explanation of the score.")
    tags: list[str] = Field(
        default_factory=list[str], description="Semantic tags (persona, segment and similar)."
    )


class LeadOut(ResponseModel):
    """An enriched lead, as stored by the service.

    Examples:
        >>> lead = client.leads.enrich_sync({"company": "Acme", "domain": "acme.com"})
        >>> lead.enrichment.opportunity_score
        72
    """

    __repr_fields__: ClassVar[tuple[str, ...] | None] = (
        "id",
        "input.company",
        "input.domain",
        "enrichment.opportunity_score",
        "deduped",
    )

    id: str = Field(description="Lead identifier.")
    input: LeadIn = Field(description="The lead as submitted.")
    enrichment: Enrichment = Field(description="The enrichment record.")
    tier: str | None = Field(default=None, description="Account tier at the time of enrichment.")
    created_at: datetime | None = Field(default=None, description="When the lead was enriched.")
    deduped: bool | None = Field(
        default=None,
        description="True when the contact already existed and the existing record was returned without a charge.",
    )
    message: str | None = Field(default=None, description="A message from the service, if any.")

    @field_validator("input", mode="before")
    @classmethod
    def _lenient_input(cls, value: Any) -> Any:
        return _LeadEcho.model_validate(value) if isinstance(value, dict) else value

    def _repr_html_(self) -> str:
        """What Jupyter shows for a lead: company, score, rationale and tags."""
        given, enrichment = self.input, self.enrichment
        overview = enrichment.company_overview
        about = ", ".join(part for part in (overview.industry, overview.company_size) if part)
        rows = [
            ("score", f"{enrichment.opportunity_score}/100"),
            ("why", enrichment.score_rationale),
            ("contact", ", ".join(part for part in (given.name, given.title, given.email) if part)),
            ("company", about),
            ("lead", self.id + (" (deduped: the stored lead, not charged)" if self.deduped else "")),
        ]
        cells = "".join(
            f"<tr><th style='text-align:left'>{key}</th><td style='text-align:left'>{html_text(value)}</td></tr>"
            for key, value in rows
            if value
        )
        return (
            f"<div><strong>{html_text(given.company)}</strong> ({html_text(given.domain)})"
            f"<table>{cells}</table><div>{html_tags(enrichment.tags)}</div></div>"
        )


class LeadDeleted(ResponseModel):
    """The answer to `DELETE /leads/{lead_id}`.

    The spec does not show this body, so every field is optional and whatever the service
    sends is kept. `id` is filled with the deleted lead's id when the body does not carry it.

    Examples:
        >>> deleted = client.leads.delete("ld_123")
        >>> deleted.id, deleted.deleted
        ('ld_123', True)
    """

    id: str | None = Field(default=None, description="The id of the deleted lead.")
    deleted: bool | None = Field(
        default=None, description="Whether the lead was deleted, when the service says so."
    )
    message: str | None = Field(default=None, description="A message from the service, if any.")

    @model_validator(mode="before")
    @classmethod
    def _wrap(cls, value: Any) -> Any:
        if value is None:
            return {}
        if isinstance(value, bool):
            return {"deleted": value}
        if isinstance(value, str):
            return {"message": value}
        return value


class EnrichRequest(RequestModel):
    """The body of `POST /leads/enrich` (internal: the clients build it from their arguments)."""

    lead: LeadIn = Field(description="The lead to enrich.")
    callback_url: str | None = Field(
        default=None, description="Where to POST the result when an async job finishes; ignored in sync mode."
    )

    @field_validator("callback_url")
    @classmethod
    def _absolute_http_url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("http://", "https://")):
            raise ValueError(f"must be an absolute http:// or https:// URL, not {value!r}")
        return value
