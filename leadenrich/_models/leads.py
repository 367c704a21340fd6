"""Leads: what is sent for enrichment, what comes back, and the listing."""

from collections.abc import AsyncIterator, Coroutine, Iterator
from datetime import datetime
from typing import Any, ClassVar, Generic, Protocol, cast, overload

from pydantic import ConfigDict, Field, PrivateAttr, ValidationInfo, field_validator, model_validator
from typing_extensions import Self, TypeVar

from .._display import Shown, brief, html_tags, html_text
from .base import RequestModel, ResponseModel

__all__ = [
    "Awaited",
    "Blocking",
    "BuyingCommitteeMember",
    "CompanyOverview",
    "EngagementPlaybook",
    "EnrichRequest",
    "Enrichment",
    "IntentSignals",
    "LeadDeleted",
    "LeadIn",
    "LeadOut",
    "LeadPage",
    "Listing",
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


_LIST_KEYS = ("items", "leads", "data", "results")


class Blocking:
    """What `LeadPage` means: a page of `LeadEnrich`, whose next page is returned."""


class Awaited:
    """`LeadPage[Awaited]`: a page of `AsyncLeadEnrich`, whose next page is awaited."""


Client = TypeVar("Client", Blocking, Awaited, default=Blocking)


class Listing(Protocol):
    """The listing a page of `leads.list()` came from, and how it goes on
    (`leadenrich/_pagination.py`: one for each client)."""

    def after(self, page: "LeadPage[Any]", /) -> int | None:
        """The `skip` of the page after `page`; None after the last page."""
        ...

    def next(self, page: "LeadPage[Any]", /) -> Any:
        """The page after `page` (awaitable on the async client)."""
        ...

    def pages(self, page: "LeadPage[Any]", /) -> Any:
        """`page` and every page after it (an async iterator on the async client)."""
        ...


class LeadPage(ResponseModel, Generic[Client]):
    """One page of `GET /leads`. Iterating a page yields its leads.

    The service may answer with a bare list or with an object that holds the leads under
    `items`, `leads`, `data` or `results`; other keys of that object (a total, say) are
    kept as extra attributes.

    A page from `leads.list()` knows the listing it is part of: `has_next_page()`,
    `next_page()` and `iter_pages()` go on from it, with the page size and the per-call
    options it was asked with. On the async client, `next_page()` is awaited and
    `iter_pages()` is an async iterator (type checkers see such a page as
    `LeadPage[Awaited]`). `leads.iter()` goes through every lead without pages.

    Examples:
        >>> page = client.leads.list(limit=20)
        >>> [lead.id for lead in page]
        >>> while page.has_next_page():
        ...     page = page.next_page()
    """

    items: list[LeadOut] = Field(default_factory=list[LeadOut], description="The leads of this page.")
    _listing: Listing | None = PrivateAttr(default=None)

    @model_validator(mode="before")
    @classmethod
    def _unwrap(cls, value: Any) -> Any:
        if isinstance(value, list):
            return {"items": value}  # pyright: ignore[reportUnknownVariableType]
        if isinstance(value, dict):
            body = cast("dict[str, Any]", value)
            for key in _LIST_KEYS:
                if isinstance(body.get(key), list):
                    rest = {k: v for k, v in body.items() if k != key}
                    return {**rest, "items": body[key]}
        return cast("Any", value)

    @model_validator(mode="after")
    def _listed(self, info: ValidationInfo) -> Self:
        # `leads.list()` validates its page with the listing it asked as the context.
        if info.context is not None:
            self._listing = cast("Listing", info.context)
        return self

    def __repr_args__(self) -> Iterator[tuple[str | None, Any]]:
        # How many leads and the first ids, not every lead whole.
        ids = ", ".join(lead.id for lead in self.items[:3]) + (", …" if len(self.items) > 3 else "")
        count = len(self.items)
        yield "items", Shown(f"<{count} lead{'' if count == 1 else 's'}: {ids}>" if count else "[]")
        for key, value in (self.model_extra or {}).items():
            yield key, brief(value)

    def __iter__(self) -> Iterator[LeadOut]:  # type: ignore[override]  # pyright: ignore[reportIncompatibleMethodOverride]
        """Iterate over the leads of this page."""
        return iter(self.items)

    def __len__(self) -> int:
        """The number of leads on this page."""
        return len(self.items)

    def __eq__(self, other: object) -> bool:
        # The same leads and extras make the same page, whichever listing it came from.
        if not isinstance(other, LeadPage):
            return NotImplemented
        return self.__dict__ == other.__dict__ and self.model_extra == other.model_extra

    def has_next_page(self) -> bool:
        """Whether the listing goes on after this page.

        Whatever the page says decides (a `has_more` flag, a `next` link, a `total`); a
        bare list of leads goes on unless it is empty, since a service may serve fewer
        leads than asked without saying so. False for a page not from `leads.list()`.

        Examples:
            >>> page = client.leads.list(limit=100)
            >>> page.has_next_page()
            True
        """
        return self._listing is not None and self._listing.after(self) is not None

    @overload
    def next_page(self: "LeadPage[Blocking]") -> "LeadPage[Blocking]": ...
    @overload
    def next_page(self: "LeadPage[Awaited]") -> "Coroutine[Any, Any, LeadPage[Awaited]]": ...
    def next_page(self) -> Any:
        """The page after this one, with the same page size and per-call options (awaitable
        on the async client).

        Raises:
            InvalidRequestError: This is the last page (`has_next_page()` is False).
            TypeError: The page is not from `leads.list()` (it was built from a body), so
                there is no listing to go on with.

        Examples:
            >>> page = client.leads.list(limit=100)
            >>> if page.has_next_page():
            ...     page = page.next_page()
            >>> page = await page.next_page()  # the async client
        """
        if self._listing is None:
            raise TypeError(
                "this LeadPage was not returned by leads.list(), so it has no next page to ask "
                "for: call client.leads.list(limit=..., skip=...)"
            )
        return self._listing.next(self)

    @overload
    def iter_pages(self: "LeadPage[Blocking]") -> "Iterator[LeadPage[Blocking]]": ...
    @overload
    def iter_pages(self: "LeadPage[Awaited]") -> "AsyncIterator[LeadPage[Awaited]]": ...
    def iter_pages(self) -> Any:
        """This page and every page after it, each asked for as the iteration reaches it
        (an async iterator on the async client). A page not from `leads.list()` is the
        only one.

        Examples:
            >>> for page in client.leads.list(limit=100).iter_pages():
            ...     print(len(page))
            >>> async for page in (await client.leads.list(limit=100)).iter_pages():
            ...     print(len(page))
        """
        if self._listing is None:
            return iter((self,))
        return self._listing.pages(self)


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
