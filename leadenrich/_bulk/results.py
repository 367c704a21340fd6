"""What a bulk run reports: one outcome per lead, and the result that gathers them."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from .. import _lazy_models
from .._display import brief, html_fields, html_table, shorten
from .._errors import APIStatusError, LeadEnrichError
from .frames import input_columns, records_frame

if TYPE_CHECKING:
    from .._models import LeadIn, LeadOut

__all__ = ["BulkOutcome", "BulkResult", "Status"]

Status = Literal["enriched", "deduped", "failed", "skipped"]


@dataclass(frozen=True)
class BulkOutcome:
    """What happened to one lead of a bulk run.

    Attributes:
        index: The lead's position in the input (0-based).
        input: The lead as given (a LeadIn, or the raw mapping when it was invalid).
        status: `enriched`, `deduped` (an existing record, not charged), `failed`, or
            `skipped` (not started: `max_credits` was reached or the account was refused).
        lead: The enriched lead, for `enriched` and `deduped`.
        error: The typed error, for `failed` and `skipped`.
        resumed: True when the result came from the checkpoint or from the leads already
            stored on the account, rather than from an enrichment run now.
        charged: True when this run spent a credit on the lead.
        maybe_charged: True for a failed lead whose answer was lost (a dropped connection,
            a timeout, a 5xx, an unreadable 2xx) and that was not found among the stored
            leads either, or whose job was created but not seen to its end: the service
            may still have charged it. The checkpoint keeps it, so a resumed run polls its
            job or looks it up again rather than sending it.
        duplicate_of: For a row identical to an earlier one (the same lead once
            validated), the earlier row's index: the lead was enriched once, and this
            copy shares its outcome, never charged on its own.
        job_id: The enrichment job the service created for the lead (the `async`
            strategy), when one is known.

    Examples:
        >>> for outcome in client.leads.enrich_iter(rows):
        ...     print(outcome.index, outcome.status, outcome.lead.id if outcome.ok else outcome.error)
        0 enriched ld_9b57d127c8a50a88
    """

    index: int
    input: LeadIn | Mapping[str, Any]
    status: Status
    lead: LeadOut | None = None
    error: LeadEnrichError | None = None
    resumed: bool = False
    charged: bool = False
    maybe_charged: bool = False
    duplicate_of: int | None = None
    job_id: str | None = None

    @property
    def ok(self) -> bool:
        """True when the lead was enriched (now, earlier, or as a dedupe).

        Examples:
            >>> retry = [outcome.input for outcome in result if not outcome.ok]
        """
        return self.lead is not None

    def __repr__(self) -> str:
        # The lead's short repr or the error, and the flags that are set: the input and
        # the full enrichment are one attribute away.
        parts = [f"index={self.index}", f"status={self.status!r}"]
        if self.lead is not None:
            parts.append(f"lead={self.lead!r}")
        if self.error is not None:
            parts.append(f"error={brief(self.error, _ERROR_LIMIT)!r}")
        parts.extend(
            f"{flag}=True" for flag in ("resumed", "charged", "maybe_charged") if getattr(self, flag)
        )
        return f"BulkOutcome({', '.join(parts)})"

    def _repr_html_(self) -> str:
        """What Jupyter shows: the lead given, its status, the record or the error, the charge."""
        lead = self.lead
        return html_fields(
            f"Lead {self.index}: {self.status}",
            [
                ("company", _given(self, "company")),
                ("domain", _given(self, "domain")),
                ("lead", lead.id if lead is not None else None),
                ("score", f"{lead.enrichment.opportunity_score}/100" if lead is not None else None),
                ("error", shorten(str(self.error), _ERROR_LIMIT) if self.error is not None else None),
                ("charged", "yes" if self.charged else "maybe" if self.maybe_charged else "no"),
                ("from", "an earlier run (the checkpoint)" if self.resumed else None),
                ("repeats row", self.duplicate_of),
                ("job", self.job_id),
            ],
        )


@dataclass
class BulkResult:
    """Every outcome of a bulk run, in input order, with counts and tabular exports.

    Examples:
        >>> result = client.leads.enrich_many(rows)
        >>> result.succeeded, result.failed, result.credits_spent
        (198, 2, 190)
        >>> result.to_pandas().head()
    """

    outcomes: list[BulkOutcome] = field(default_factory=list[BulkOutcome])

    def __post_init__(self) -> None:
        self.outcomes.sort(key=lambda outcome: outcome.index)

    def __iter__(self) -> Iterator[BulkOutcome]:
        return iter(self.outcomes)

    def __len__(self) -> int:
        return len(self.outcomes)

    @property
    def succeeded(self) -> int:
        """Leads that have an enriched record (including dedupes and resumed ones).

        Examples:
            >>> result.succeeded
            198
        """
        return sum(1 for o in self.outcomes if o.ok)

    @property
    def failed(self) -> int:
        """Leads that were tried and failed.

        Examples:
            >>> result.failed
            2
        """
        return sum(1 for o in self.outcomes if o.status == "failed")

    @property
    def deduped(self) -> int:
        """Leads answered with an existing record, without a charge.

        Examples:
            >>> result.deduped
            8
        """
        return sum(1 for o in self.outcomes if o.status == "deduped")

    @property
    def skipped(self) -> int:
        """Leads not started (max_credits reached, or the account was refused).

        Examples:
            >>> client.leads.enrich_many(rows, max_credits=10).skipped
            190
        """
        return sum(1 for o in self.outcomes if o.status == "skipped")

    @property
    def duplicates(self) -> int:
        """Rows identical to an earlier row, which share its outcome and cost nothing.

        Examples:
            >>> client.leads.enrich_many([row, row]).duplicates
            1
        """
        return sum(1 for o in self.outcomes if o.duplicate_of is not None)

    @property
    def resumed(self) -> int:
        """Leads whose result came from the checkpoint or the account's stored leads.

        Examples:
            >>> client.leads.enrich_many(rows, checkpoint="run.jsonl").resumed
            150
        """
        return sum(1 for o in self.outcomes if o.resumed)

    @property
    def credits_spent(self) -> int:
        """Enrichment credits this run spent.

        Examples:
            >>> result.credits_spent
            190
        """
        return sum(1 for o in self.outcomes if o.charged)

    @property
    def leads(self) -> list[LeadOut]:
        """The enriched leads, in input order.

        Examples:
            >>> best = max(result.leads, key=lambda lead: lead.enrichment.opportunity_score)
        """
        return [o.lead for o in self.outcomes if o.lead is not None]

    @property
    def errors(self) -> list[BulkOutcome]:
        """The outcomes that failed or were skipped.

        Examples:
            >>> for outcome in result.errors:
            ...     print(outcome.index, outcome.status, outcome.error)
            7 failed invalid lead: domain is missing
        """
        return [o for o in self.outcomes if o.error is not None]

    def __repr__(self) -> str:
        # Counts only: every outcome is in `outcomes`, and a table in to_pandas().
        counts = ", ".join(f"{name}={getattr(self, name)}" for name in _COUNTS)
        count = len(self.outcomes)
        return f"BulkResult(outcomes=<{count} outcome{'' if count == 1 else 's'}>, {counts})"

    def _repr_html_(self) -> str:
        """What Jupyter shows: the counts, the credits spent, and the first outcomes."""
        rows = [
            (
                o.index,
                o.status,
                _given(o, "company"),
                _given(o, "domain"),
                o.lead.id if o.lead is not None else None,
                o.lead.enrichment.opportunity_score if o.lead is not None else None,
                shorten(str(o.error), _ERROR_LIMIT) if o.error is not None else None,
            )
            for o in self.outcomes[:_HTML_ROWS]
        ]
        more = len(self.outcomes) - len(rows)
        caption = (
            f"{len(self.outcomes)} leads: {self.succeeded} succeeded ({self.deduped} deduped), "
            f"{self.failed} failed, {self.skipped} not started; {self.credits_spent} credits spent"
        )
        table = html_table(_HTML_COLUMNS, rows, caption=caption)
        tail = f"<p>…and {more} more: <code>result.to_pandas()</code> shows every lead.</p>" if more else ""
        return f"<div>{table}{tail}</div>"

    def to_records(self) -> list[dict[str, Any]]:
        """One flat dict per lead: position, status, the input, then the enrichment as columns.

        Nested objects become `parent_child` columns; lists of strings are joined with
        "; " and lists of objects (the buying committee) become JSON, so the records
        write straight to CSV.

        Examples:
            >>> first = result.to_records()[0]
            >>> first["input_company"], first["status"], first["opportunity_score"]
            ('Acme', 'enriched', 72)
        """
        return [_record(outcome) for outcome in self.outcomes]

    def to_pandas(self) -> Any:
        """The records as a `pandas.DataFrame` (pandas is imported only here).

        Integer columns with gaps, such as the score of a failed lead, are pandas'
        nullable `Int64`, so that the others stay whole numbers.

        Raises:
            ImportError: pandas is not installed (`pip install "leadenrich[notebook]"`).

        Examples:
            >>> result.to_pandas()[["input_company", "status", "opportunity_score"]]
        """
        return records_frame(self.to_records(), "BulkResult.to_pandas()")


_COUNTS = ("succeeded", "failed", "deduped", "skipped", "resumed", "credits_spent")
_ERROR_LIMIT = 100
_HTML_ROWS = 10
_HTML_COLUMNS = ("#", "status", "company", "domain", "lead", "score", "error")


def _given(outcome: BulkOutcome, name: str) -> object:
    given = outcome.input
    return getattr(given, name, None) if isinstance(given, _lazy_models.LeadIn) else given.get(name)


def _record(outcome: BulkOutcome) -> dict[str, Any]:
    record: dict[str, Any] = {
        "index": outcome.index,
        "status": outcome.status,
        "duplicate_of": outcome.duplicate_of,
    }
    record.update(input_columns(outcome.input))
    lead = outcome.lead
    record["lead_id"] = lead.id if lead is not None else None
    record["created_at"] = lead.created_at.isoformat() if lead is not None and lead.created_at else None
    if lead is not None:
        _flatten(lead.enrichment.model_dump(), "", record)
    record["error_type"] = type(outcome.error).__name__ if outcome.error is not None else None
    record["error_status"] = outcome.error.status_code if isinstance(outcome.error, APIStatusError) else None
    record["error"] = str(outcome.error) if outcome.error is not None else None
    return record


def _flatten(value: Mapping[str, Any], prefix: str, into: dict[str, Any]) -> None:
    for key, item in value.items():
        name = f"{prefix}{key}"
        if isinstance(item, Mapping):
            _flatten(item, f"{name}_", into)  # pyright: ignore[reportUnknownArgumentType]
        elif isinstance(item, list) and all(isinstance(x, str) for x in item):  # pyright: ignore[reportUnknownVariableType]
            into[name] = "; ".join(item)  # pyright: ignore[reportUnknownArgumentType]
        elif isinstance(item, list):
            into[name] = json.dumps(item)
        else:
            into[name] = item
