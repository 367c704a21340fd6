"""Readable output: aligned `key  value` lines for people; JSON is the models' own dump."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, cast

from .. import (
    EmailFindOut,
    EnrichJobCreated,
    Health,
    JobOut,
    LeadDeleted,
    LeadOut,
    LeadPage,
    MobileFindOut,
    UsageOut,
)

__all__ = [
    "as_json",
    "created_job",
    "deleted",
    "email",
    "health",
    "job",
    "lead",
    "lead_page",
    "mobile",
    "pairs",
    "usage",
]

Row = tuple[str, object]


def pairs(rows: Iterable[Row]) -> str:
    """`key  value` lines with the values aligned; empty values are left out.

    A value of several lines (one per committee member, say) continues under the first.
    """
    shown = [(key, _text(value)) for key, value in rows if not _empty(value)]
    if not shown:
        return ""
    width = max(len(key) for key, _ in shown)
    lines: list[str] = []
    for key, text in shown:
        first, *rest = text.splitlines() or [""]
        lines.append(f"{key:<{width}}  {first}".rstrip())
        lines.extend(f"{'':<{width}}  {line}" for line in rest)
    return "\n".join(lines)


def _empty(value: object) -> bool:
    if value is None:
        return True
    if isinstance(value, (str, list, tuple, dict)):
        return len(value) == 0  # pyright: ignore[reportUnknownArgumentType]
    return False


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, datetime):
        return value.isoformat(sep=" ", timespec="seconds")
    if isinstance(value, (list, tuple)):
        return ", ".join(_text(item) for item in cast("Sequence[object]", value))
    if isinstance(value, Mapping):
        mapping = cast("Mapping[object, object]", value)
        return ", ".join(f"{key}: {_text(item)}" for key, item in mapping.items())
    return str(value)


def _extras(model: Health | LeadDeleted) -> list[Row]:
    # Bodies the spec does not show: whatever else the service sent is worth seeing.
    return [(key.replace("_", " "), value) for key, value in (model.model_extra or {}).items()]


def lead(record: LeadOut) -> str:
    given = record.input
    enrichment = record.enrichment
    overview = enrichment.company_overview
    stack = enrichment.tech_stack
    signals = enrichment.intent_signals
    playbook = enrichment.engagement_playbook
    contact = ", ".join(part for part in (given.name, given.title) if part)
    size = f"{overview.company_size} people" if overview.company_size else None
    committee = "\n".join(
        ", ".join(part for part in (member.name, member.title) if part)
        + (f" ({member.role})" if member.role else "")
        for member in enrichment.buying_committee
    )
    rows: list[Row] = [
        ("lead", record.id),
        ("deduped", "yes: the stored lead, not charged" if record.deduped else None),
        ("company", f"{given.company} ({given.domain})"),
        ("contact", contact),
        ("email", given.email),
        ("linkedin", given.linkedin_url),
        ("industry", overview.industry),
        ("size", size),
        ("summary", overview.summary),
        ("products", enrichment.products),
        ("cloud", stack.cloud),
        ("crm", stack.crm),
        ("security", stack.security),
        ("infrastructure", stack.infrastructure),
        ("other tech", stack.other),
        ("hiring", signals.hiring_signals),
        ("recent news", signals.recent_news),
        ("content", signals.content_published),
        ("events", signals.events_attended),
        ("pain points", enrichment.pain_points),
        ("score", f"{enrichment.opportunity_score}/100"),
        ("why", enrichment.score_rationale),
        ("timing", playbook.timing),
        ("opening line", playbook.opening_line),
        ("value prop", playbook.value_prop),
        ("case study", playbook.case_study_angle),
        ("committee", committee),
        ("tags", enrichment.tags),
        ("tier", record.tier),
        ("created", record.created_at),
        ("message", record.message),
    ]
    return pairs(rows)


def created_job(created: EnrichJobCreated) -> str:
    return pairs([("job", created.job_id), ("status", created.status)])


def job(record: JobOut) -> str:
    text = pairs(
        [
            ("job", record.job_id),
            ("status", record.status),
            ("kind", record.kind),
            ("created", record.created_at),
            ("started", record.started_at),
            ("finished", record.finished_at),
            ("callback", record.callback_url),
            ("error", record.error),
        ]
    )
    if record.result is not None:
        text += "\n\n" + lead(record.result)
    return text


def email(found: EmailFindOut) -> str:
    return pairs(
        [
            ("state", found.state),
            ("email", found.email),
            ("email status", found.email_status),
            ("email score", _number(found.email_score)),
            ("source", found.source),
            ("contact", found.contact),
            ("message", found.message),
        ]
    )


def _number(value: float | None) -> str | None:
    if value is None:
        return None
    return f"{value:g}"


def mobile(lookup: MobileFindOut) -> str:
    return pairs(
        [
            ("lookup", lookup.lookup_id),
            ("state", lookup.state),
            ("mobile", lookup.mobile),
            ("contact", lookup.contact),
            ("created", lookup.created_at),
        ]
    )


def usage(account: UsageOut) -> str:
    quota = account.monthly_leads
    if quota.effective_limit is None:
        leads = f"{quota.used} this month (no limit)"
    else:
        included = "unlimited" if quota.included is None else str(quota.included)
        leads = (
            f"{quota.used} of {quota.effective_limit} this month "
            f"({included} included, {quota.credits_added} from credit packs)"
        )
    credits = account.mobile_credits
    calls = account.api_calls_this_month
    return pairs(
        [
            ("plan", account.tier),
            ("leads used", leads),
            ("mobile credits", f"{credits.balance} left ({credits.used} used of {credits.purchased} bought)"),
            ("api calls", f"{calls.total} this month, {calls.this_key} with this key"),
        ]
    )


def health(status: Health) -> str:
    return pairs([("status", status.status), *_extras(status)])


def deleted(answer: LeadDeleted) -> str:
    # The spec does not show this body: believe a service that says it did not delete.
    key = "not deleted" if answer.deleted is False else "deleted"
    return pairs([(key, answer.id), ("message", answer.message), *_extras(answer)])


_COLUMNS = ("ID", "COMPANY", "DOMAIN", "CONTACT", "SCORE", "CREATED")


def lead_page(page: LeadPage, skip: int) -> str:
    if not page.items:
        return "no leads" if skip == 0 else f"no leads after the first {'one' if skip == 1 else skip}"
    rows: list[Sequence[str]] = [_COLUMNS]
    for record in page.items:
        created = record.created_at.strftime("%Y-%m-%d %H:%M") if record.created_at else ""
        rows.append(
            (
                record.id,
                record.input.company,
                record.input.domain,
                record.input.name or "",
                str(record.enrichment.opportunity_score),
                created,
            )
        )
    widths = [max(len(row[column]) for row in rows) for column in range(len(_COLUMNS))]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in rows
    ]
    total = (page.model_extra or {}).get("total")
    shown = f"lead {skip + 1}" if len(page.items) == 1 else f"leads {skip + 1}-{skip + len(page.items)}"
    lines.append("")
    lines.append(f"{shown} of {total}" if isinstance(total, int) else shown)
    return "\n".join(lines)


def as_json(value: Any) -> str:
    """JSON for what is not a model (the records of enrich-file)."""
    return json.dumps(value, ensure_ascii=False, default=str)
