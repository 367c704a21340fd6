"""Deterministic, realistic content: enrichment records, emails, phone numbers, durations.

Everything is drawn from a random generator seeded with a hash of the input, so one
domain always yields one company record, and a test can assert on what it got back.
"""

from __future__ import annotations

import hashlib
import random
import re

from .._models import (
    BuyingCommitteeMember,
    CompanyOverview,
    EmailFindIn,
    EngagementPlaybook,
    Enrichment,
    IntentSignals,
    LeadIn,
    MobileFindIn,
    TechStack,
)
from . import _vocabulary as words

__all__ = [
    "contact_name",
    "email_address",
    "email_quality",
    "enrichment_for",
    "fraction",
    "mobile_number",
]


def _rng(*parts: object) -> random.Random:
    digest = hashlib.sha256("\x1f".join(str(p).strip().lower() for p in parts).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def fraction(*parts: object) -> float:
    """A number in [0, 1) fixed by `parts`: picks a duration within a range."""
    return _rng("duration", *parts).random()


def _sample(rng: random.Random, pool: tuple[str, ...], low: int, high: int) -> list[str]:
    return rng.sample(pool, rng.randint(low, high))


def enrichment_for(lead: LeadIn, run: int = 0) -> Enrichment:
    """The enrichment record of `lead`.

    The company part (size, industry, stack, products, committee) depends on the domain
    only; the signals and the score also on `run`, so a re-enrichment looks fresh.
    """
    company = _rng("company", lead.domain)
    industry = company.choice(sorted(words.INDUSTRIES))
    size = company.choice(words.SIZES)
    stack = TechStack(
        cloud=_sample(company, words.CLOUD, 1, 2),
        crm=_sample(company, words.CRM, 1, 1),
        security=_sample(company, words.SECURITY, 1, 3),
        infrastructure=_sample(company, words.INFRA, 2, 4),
        other=_sample(company, words.OTHER, 2, 4),
    )
    brand = lead.company.split()[0] if lead.company.split() else lead.company
    products = [f"{brand} {word}" for word in _sample(company, words.PRODUCT_WORDS, 1, 3)]
    roles = _pairs(company)
    firsts, lasts = company.sample(words.FIRST, len(roles)), company.sample(words.LAST, len(roles))
    committee = [
        BuyingCommitteeMember(
            name=f"{first} {last}",
            title=title,
            role=role,
            linkedin_url=f"https://www.linkedin.com/in/{first.lower()}-{last.lower()}-{company.randint(10, 99)}",
        )
        for (title, role), first, last in zip(roles, firsts, lasts, strict=True)
    ]
    pains = list(words.INDUSTRIES[industry])
    company.shuffle(pains)

    fresh = _rng("signals", lead.domain, run)
    hiring = [f"Hiring {role}" for role in _sample(fresh, words.ROLES_HIRED, 0, 3)]
    news = [
        f"{lead.company} "
        + template.format(
            round=fresh.choice(words.ROUNDS),
            city=fresh.choice(words.CITIES),
            product=products[0],
            partner=fresh.choice(words.CLOUD),
        )
        for template in _sample(fresh, words.NEWS, 0, 2)
    ]
    signals = IntentSignals(
        hiring_signals=hiring,
        recent_news=news,
        content_published=[
            t.format(topic=fresh.choice(words.TOPICS)) for t in _sample(fresh, words.CONTENT, 0, 2)
        ],
        events_attended=_sample(fresh, words.EVENTS, 0, 2),
    )
    score = max(0, min(100, 25 + 8 * len(hiring) + 10 * len(news) + fresh.randint(0, 30) + _seniority(lead)))
    return Enrichment(
        company_overview=CompanyOverview(
            company_size=size,
            industry=industry,
            summary=(
                f"{lead.company} ({lead.domain}) is {_article(industry)} {industry.lower()} company "
                f"with {size} employees, running on {stack.cloud[0]} and selling {_listed(products)}."
            ),
        ),
        tech_stack=stack,
        products=products,
        intent_signals=signals,
        buying_committee=committee,
        pain_points=pains[: company.randint(1, len(pains))],
        engagement_playbook=_playbook(lead, fresh, industry, pains[0], products[0]),
        opportunity_score=score,
        score_rationale=_rationale(industry, size, hiring, news),
        tags=_tags(lead, industry, size, score),
    )


def _pairs(rng: random.Random) -> list[tuple[str, str]]:
    pairs = list(words.COMMITTEE)
    rng.shuffle(pairs)
    return pairs[: rng.randint(2, 4)]


def _seniority(lead: LeadIn) -> int:
    title = (lead.title or "").lower()
    if re.search(r"\b(chief|ceo|cto|cfo|coo|ciso|founder|president)\b", title):
        return 20
    if re.search(r"\b(vp|vice president|head|director)\b", title):
        return 12
    return 5 if title else 0


def _playbook(lead: LeadIn, rng: random.Random, industry: str, pain: str, product: str) -> EngagementPlaybook:
    first = (lead.name or "").split()[0] if (lead.name or "").split() else "there"
    return EngagementPlaybook(
        timing=rng.choice(words.TIMING),
        opening_line=f"Hi {first}, teams at {lead.company} often tell us they are held back by {pain}.",
        value_prop=f"Tackle {pain} for {industry.lower()} teams without replacing {product}.",
        case_study_angle=f"A peer {industry.lower()} company that tackled {pain} in one quarter.",
    )


def _rationale(industry: str, size: str, hiring: list[str], news: list[str]) -> str:
    # The score is a field of its own: repeating it here would print it twice wherever both show.
    reasons = [f"{size} employees"]
    if hiring:
        reasons.append(f"{len(hiring)} open hiring signal{'s' if len(hiring) > 1 else ''}")
    if news:
        reasons.append(f"{len(news)} recent news item{'s' if len(news) > 1 else ''}")
    return f"{_article(industry).capitalize()} {industry.lower()} company with {_listed(reasons)}."


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _article(word: str) -> str:
    # A vowel letter stands for a vowel sound in every industry name; numbers and words like
    # "hour" or "user" never reach this.
    return "an" if re.match(r"[aeiou]", word, re.IGNORECASE) else "a"


def _tags(lead: LeadIn, industry: str, size: str, score: int) -> list[str]:
    small = size in words.SIZES[:3]
    tags = [
        f"industry:{industry.lower().replace(' ', '-')}",
        "segment:smb" if small else "segment:enterprise",
    ]
    if lead.title:
        tags.append("persona:executive" if _seniority(lead) >= 20 else "persona:practitioner")
    tags.append("priority:high" if score >= 70 else "priority:medium" if score >= 40 else "priority:low")
    return tags


def _name_parts(query: EmailFindIn | MobileFindIn) -> tuple[str, str]:
    if query.first_name and query.last_name:
        return query.first_name.strip(), query.last_name.strip()
    slug = (query.linkedin_url or "").rstrip("/").rsplit("/", 1)[-1]
    words = [w for w in re.split(r"[-_.]+", slug) if w.isalpha()]
    if len(words) >= 2:
        return words[0].capitalize(), words[1].capitalize()
    return (words[0].capitalize() if words else "Alex"), "Morgan"


def contact_name(query: EmailFindIn | MobileFindIn) -> str:
    """The person's display name, from the names given or the profile URL."""
    first, last = _name_parts(query)
    return f"{first} {last}"


def _domain(query: EmailFindIn | MobileFindIn) -> str:
    if query.domain:
        return query.domain.strip().lower()
    if query.company_name:
        return re.sub(r"[^a-z0-9]+", "", query.company_name.lower()) + ".com"
    return _rng("email-domain", query.linkedin_url).choice(words.EMAIL_DOMAINS)


def email_address(query: EmailFindIn) -> str:
    """The work email found for `query`: first.last@domain."""
    first, last = _name_parts(query)
    local = ".".join(re.sub(r"[^a-z0-9]", "", part.lower()) for part in (first, last))
    return f"{local}@{_domain(query)}"


def email_quality(query: EmailFindIn) -> tuple[str, float]:
    """The status and confidence score of the email found for `query`."""
    rng = _rng("email-quality", query.model_dump_json())
    status = rng.choices(("verified", "catch_all", "risky"), weights=(7, 2, 1))[0]
    low, high = {"verified": (90, 99), "catch_all": (60, 85), "risky": (30, 55)}[status]
    return status, float(rng.randint(low, high))


def mobile_number(query: MobileFindIn) -> str:
    """An E.164 number from the ranges reserved for fiction (UK 07700 900xxx, US 555-01xx)."""
    rng = _rng("mobile", query.model_dump_json())
    if _domain(query).endswith((".uk", ".co.uk")):
        return f"+447700900{rng.randint(0, 999):03d}"
    return f"+1{rng.choice(words.US_AREA_CODES)}55501{rng.randint(0, 99):02d}"
