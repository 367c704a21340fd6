"""What a bulk run would charge, worked out before it runs.

Nothing here sends or waits. `preview` asks for the checkpoint's lines, the usage and the
listing as steps, which the client performs and answers (the asyncio client reads the
checkpoint on a thread); this module classifies the rows, decides which page of the
listing to read next, and sums up. The rows are read and validated exactly as
`enrich_many` reads them, and the checkpoint through the checkpoint's own reader, which
changes nothing: a run may be writing it.
"""

from __future__ import annotations

import html
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Literal

from .. import _lazy_models
from .._display import brief, html_fields, plural
from .._endpoints import Call, list_leads
from .._endpoints import usage as usage_call
from .._errors import InvalidRequestError, LeadEnrichError
from .._owner import Owner
from .._pagination import DEFAULT_LIMIT, PageLimit, next_skip
from .._steps import Blocking, Send, Steps
from .._validate import integer
from .checkpoint import Checkpoint, Resume, fingerprint
from .frames import input_columns, records_frame
from .inputs import Item, read_items
from .options import credits_left
from .ownership import confirm
from .scan_progress import ScanProgress, scan_reporter

if TYPE_CHECKING:
    from .._models import LeadIn, LeadPage, UsageOut

__all__ = [
    "BulkPreview",
    "Draft",
    "PreviewRow",
    "PreviewStatus",
    "StoredScan",
    "preview",
]

PreviewStatus = Literal["invalid", "duplicate", "checkpoint", "stored", "new"]
"""What a bulk run would do with a row: refuse it, share an earlier row's result, take it
from the checkpoint, get the stored record back free, or enrich it (one credit at most)."""

# Pages of the listing as large as the bulk runner's lookups ask for.
_PAGE_SIZE = 100


@dataclass(frozen=True, repr=False)
class PreviewRow:
    """What a bulk run would do with one row of the input, and what it could cost.

    Attributes:
        index: The row's position in the input (0-based), as in `BulkOutcome.index`.
        input: The lead as given (a LeadIn, or the raw mapping when it is invalid).
        status: `invalid` (refused before sending, free), `duplicate` (identical to an
            earlier row, whose result it shares, free), `checkpoint` (done in the
            checkpoint, free), `stored` (its email is a stored lead's: the service returns
            that record, free) or `new` (enriched: one credit at most).
        error: Why an `invalid` row is refused: the message `enrich_many` gives.
        duplicate_of: For a `duplicate`, the index of the earlier row it repeats.
        stored_lead_id: For `stored`, the id of the stored lead with that email.
        same_email_as: For `new`, the index of an earlier row with the same email but
            other fields: a separate lead, sent once the earlier one has its outcome,
            which the service returns deduped (free) if that one was stored; counted as
            charged, since it may not have been.
        sent_before: For `new`, an earlier run sent it without hearing back: a rerun looks
            it up among the stored leads first, and sends it (charged) if not found.

    Examples:
        >>> [row.index for row in preview if row.may_charge]
        [0, 3, 4]
    """

    index: int
    input: LeadIn | Mapping[str, Any]
    status: PreviewStatus
    error: InvalidRequestError | None = None
    duplicate_of: int | None = None
    stored_lead_id: str | None = None
    same_email_as: int | None = None
    sent_before: bool = False

    @property
    def may_charge(self) -> bool:
        """True when the run may spend a credit on this row (a `new` row).

        Examples:
            >>> sum(row.may_charge for row in preview)
            115
        """
        return self.status == "new"

    def __repr__(self) -> str:
        # What the row tells: its status and what explains it; the input is one attribute away.
        parts = [f"index={self.index}", f"status={self.status!r}"]
        for name in ("duplicate_of", "stored_lead_id", "same_email_as"):
            if getattr(self, name) is not None:
                parts.append(f"{name}={getattr(self, name)!r}")
        if self.sent_before:
            parts.append("sent_before=True")
        if self.error is not None:
            parts.append(f"error={brief(self.error)!r}")
        return f"PreviewRow({', '.join(parts)})"

    def _repr_html_(self) -> str:
        """What Jupyter shows: the row's lead, its status and what it may cost."""
        given = input_columns(self.input)
        return html_fields(
            f"Row {self.index}: {self.status}",
            [
                ("company", given.get("input_company")),
                ("domain", given.get("input_domain")),
                ("may charge", "one credit at most" if self.may_charge else "nothing"),
                ("repeats row", self.duplicate_of),
                ("stored lead", self.stored_lead_id),
                ("same email as row", self.same_email_as),
                ("sent before", "yes: looked up before it is sent again" if self.sent_before else None),
                ("error", self.error),
            ],
        )


@dataclass(frozen=True)
class BulkPreview:
    """What `enrich_many` would do with an input, and whether the account can pay for it.

    Counts copies of a row as free (they share the first one's result), rows done in the
    checkpoint as free, rows whose email is a stored lead's as free (the service returns
    that record, deduped), and every other valid row as one credit: `credits_at_most` is
    an upper bound, reached when no enrichment fails (a failed one is refunded).

    Attributes:
        rows: One PreviewRow per input row, in input order.
        usage: The account's usage when the preview was made.
        stored_read: How many stored leads of the account were read.
        stored_since: The oldest `created_at` among them: how far back the preview looked.
        listing_complete: True when the listing was read to its end. When it was not (the
            `max_stored` limit, or every email was found early), a row whose email is
            stored further back is counted as charged.

    Examples:
        >>> preview = client.leads.preview_many(rows, checkpoint="run.jsonl")
        >>> preview
        BulkPreview(rows=200, new=115, credits_at_most=115, credits_left=885, enough=True)
        >>> print(preview.summary())
        200 leads: 115 to enrich, 25 already stored, 30 in the checkpoint, 20 repeated, 10 invalid; at most 115 credits, 885 left: enough
    """

    rows: list[PreviewRow]
    usage: UsageOut
    stored_read: int = 0
    stored_since: datetime | None = None
    listing_complete: bool = False

    def __iter__(self) -> Iterator[PreviewRow]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def _count(self, status: PreviewStatus) -> int:
        return sum(1 for row in self.rows if row.status == status)

    @property
    def invalid(self) -> int:
        """Rows refused before sending (they are reported as failed by the run).

        Examples:
            >>> preview.invalid
            10
        """
        return self._count("invalid")

    @property
    def duplicates(self) -> int:
        """Rows identical to an earlier row: they share its result and cost nothing.

        Examples:
            >>> preview.duplicates
            20
        """
        return self._count("duplicate")

    @property
    def in_checkpoint(self) -> int:
        """Rows already done in the checkpoint: a rerun takes them from there, free.

        Examples:
            >>> preview.in_checkpoint
            30
        """
        return self._count("checkpoint")

    @property
    def stored(self) -> int:
        """Rows whose email is a stored lead's: the service returns that record, free.

        Examples:
            >>> preview.stored
            25
        """
        return self._count("stored")

    @property
    def new(self) -> int:
        """Rows the run would enrich, one credit each at most.

        Examples:
            >>> preview.new
            115
        """
        return self._count("new")

    @property
    def credits_at_most(self) -> int:
        """The most credits the run can spend: one per `new` row.

        Examples:
            >>> preview.credits_at_most
            115
        """
        return self.new

    @property
    def credits_left(self) -> int | None:
        """Enrichment credits the account has left this month (None: no limit).

        Examples:
            >>> preview.credits_left
            885
        """
        return credits_left(self.usage)

    @property
    def enough(self) -> bool:
        """True when the credits left cover `credits_at_most`.

        Examples:
            >>> preview.enough
            True
        """
        left = self.credits_left
        return left is None or left >= self.credits_at_most

    @property
    def fits(self) -> int:
        """How many of the `new` rows the credits left pay for.

        `enrich_many(max_credits="auto")` stops there: the rows after are reported skipped.

        Examples:
            >>> preview.fits
            40
        """
        left = self.credits_left
        return self.new if left is None else min(self.new, left)

    @property
    def verdict(self) -> str:
        """`enough`, or `not enough: N of M leads to enrich fit`.

        Examples:
            >>> preview.verdict
            'not enough: 40 of 115 leads to enrich fit'
        """
        if self.enough:
            return "enough"
        return f"not enough: {self.fits} of {plural(self.new, 'lead')} to enrich fit"

    def summary(self) -> str:
        """The preview in one line: the rows, the credits at most and left, the verdict.

        Examples:
            >>> print(preview.summary())
            200 leads: 115 to enrich, 25 already stored, 30 in the checkpoint, 20 repeated, 10 invalid; at most 115 credits, 885 left: enough
        """
        parts = [f"{self.new} to enrich"]
        for count, label in (
            (self.stored, "already stored"),
            (self.in_checkpoint, "in the checkpoint"),
            (self.duplicates, "repeated"),
            (self.invalid, "invalid"),
        ):
            if count:
                parts.append(f"{count} {label}")
        left = self.credits_left
        credits = plural(self.credits_at_most, "credit")
        balance = "no limit" if left is None else f"{left} left"
        return (
            f"{plural(len(self), 'lead')}: {', '.join(parts)}; at most {credits}, {balance}: {self.verdict}"
        )

    def looked_back(self) -> str:
        """How far back the stored leads were read, in words.

        Examples:
            >>> preview.looked_back()
            'read all 1200 stored leads, back to 2026-03-02'
        """
        if self.stored_read == 0:
            if self.listing_complete:
                return "the account has no stored lead"
            looked_for = any(
                row.status in ("new", "stored")
                and isinstance(row.input, _lazy_models.LeadIn)
                and row.input.email
                for row in self.rows
            )
            return "no stored lead was read: " + (
                "max_stored is 0" if looked_for else "no lead to enrich has an email"
            )
        since = f", back to {self.stored_since.date().isoformat()}" if self.stored_since else ""
        if self.listing_complete:
            return f"read all {plural(self.stored_read, 'stored lead')}{since}"
        return f"read the first {plural(self.stored_read, 'stored lead')}{since}, not the whole listing"

    def to_records(self) -> list[dict[str, Any]]:
        """One flat dict per row: position, status, the input, and what the row may cost.

        Examples:
            >>> preview.to_records()[0]["status"]
            'new'
        """
        return [_record(row) for row in self.rows]

    def to_pandas(self) -> Any:
        """The records as a `pandas.DataFrame` (pandas is imported only here).

        Raises:
            ImportError: pandas is not installed (`pip install "leadenrich[notebook]"`).

        Examples:
            >>> preview.to_pandas().query("status == 'new'")
        """
        return records_frame(self.to_records(), "BulkPreview.to_pandas()")

    def totals(self) -> dict[str, Any]:
        """The counts, the credits and the verdict, as a dict (the CLI's `--json`).

        Examples:
            >>> preview.totals()["credits_at_most"]
            115
        """
        return {
            "rows": len(self),
            "new": self.new,
            "stored": self.stored,
            "in_checkpoint": self.in_checkpoint,
            "duplicates": self.duplicates,
            "invalid": self.invalid,
            "credits_at_most": self.credits_at_most,
            "credits_left": self.credits_left,
            "enough": self.enough,
            "fits": self.fits,
            "stored_read": self.stored_read,
            "stored_since": self.stored_since.isoformat() if self.stored_since else None,
            "listing_complete": self.listing_complete,
        }

    def __repr__(self) -> str:
        return (
            f"BulkPreview(rows={len(self)}, new={self.new}, credits_at_most={self.credits_at_most}, "
            f"credits_left={self.credits_left}, enough={self.enough})"
        )

    def _repr_html_(self) -> str:
        counts = [
            ("to enrich", self.new),
            ("already stored (free)", self.stored),
            ("in the checkpoint (free)", self.in_checkpoint),
            ("repeated rows (free)", self.duplicates),
            ("invalid", self.invalid),
            ("credits at most", self.credits_at_most),
            ("credits left", "no limit" if self.credits_left is None else self.credits_left),
        ]
        cells = "".join(
            f"<tr><td>{html.escape(label)}</td><td style='text-align:right'>{value}</td></tr>"
            for label, value in counts
        )
        colour = "green" if self.enough else "#b00"
        return (
            f"<div><strong>BulkPreview of {plural(len(self), 'lead')}</strong>: "
            f"<span style='color:{colour}'>{html.escape(self.verdict)}</span>"
            f"<table>{cells}</table><small>{html.escape(self.looked_back())}</small></div>"
        )


def _record(row: PreviewRow) -> dict[str, Any]:
    record: dict[str, Any] = {"index": row.index, "status": row.status, "may_charge": row.may_charge}
    record.update(input_columns(row.input))
    record["duplicate_of"] = row.duplicate_of
    record["stored_lead_id"] = row.stored_lead_id
    record["same_email_as"] = row.same_email_as
    record["sent_before"] = row.sent_before
    record["error"] = str(row.error) if row.error is not None else None
    return record


class StoredScan:
    """Which page of `GET /leads` to read next, and the stored emails it found.

    Reads until every wanted email is found, the listing ends, or `max_stored` leads were
    read. The listing's order is not assumed: how far back it looked is the oldest
    `created_at` seen.
    """

    def __init__(self, wanted: set[str], max_stored: int | None) -> None:
        self._wanted = set(wanted)
        self._max = max_stored
        self._skip: int | None = 0
        self._limit = PageLimit(_PAGE_SIZE)
        self._size: int | None = _PAGE_SIZE
        self.found: dict[str, str] = {}
        """Wanted emails found, with the stored lead's id."""
        self.read = 0
        self.oldest: datetime | None = None
        self.complete = False

    def next_call(self) -> Call[LeadPage] | None:
        """The next page to read, or None when the scan is over."""
        if self._skip is None or not self._wanted - self.found.keys():
            return None
        size = self._limit.value
        if self._max is not None:
            left = self._max - self.read
            if left <= 0:
                return None
            if size is not None or left < DEFAULT_LIMIT:
                # A page smaller than the spec's default is one any service serves.
                size = min(size or left, left)
        self._size = size
        return list_leads(size, self._skip)

    def refused(self, error: LeadEnrichError) -> bool:
        """Whether `error` refused the page's size: the page is then asked for again."""
        return self._limit.refused(error)

    def take(self, page: LeadPage) -> int:
        """Note one page: the emails it holds, and where the next page starts; returns
        how many stored leads were read so far."""
        for lead in page.items:
            email = lead.input.email
            if email is not None and email in self._wanted:
                # The first record seen wins: any of them is what the service dedupes to.
                self.found.setdefault(email, lead.id)
            if lead.created_at is not None:
                created = _aware(lead.created_at)
                self.oldest = created if self.oldest is None else min(self.oldest, created)
        self.read += len(page.items)
        if self._skip is not None:
            self._skip = next_skip(page, self._size, self._skip)
        self.complete = self._skip is None
        return self.read


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


@dataclass
class Draft:
    """The input read and validated, and the checkpoint to read; the listing comes next."""

    items: list[Item]
    checkpoint: Checkpoint | None
    max_stored: int | None
    rows: list[PreviewRow] = field(default_factory=list[PreviewRow])
    """The rows classified as far as the input and the checkpoint tell (`classify`)."""
    wanted: set[str] = field(default_factory=set[str])
    """The emails of the rows to enrich: the listing is searched for them."""

    @classmethod
    def read(
        cls, leads: Any, checkpoint: str | os.PathLike[str] | Checkpoint | None, max_stored: int | None
    ) -> Draft:
        """Validate the input like `enrich_many`: nothing is read from disk or sent yet."""
        if max_stored is not None:
            integer("max_stored", max_stored, 0)
        items = read_items(leads)
        if checkpoint is not None and not isinstance(checkpoint, Checkpoint):
            checkpoint = Checkpoint(checkpoint)
        return cls(items, checkpoint, max_stored)

    def load(self) -> Resume:
        """What the checkpoint holds, read as a reader: it blocks (the disk), and changes
        nothing, so a run may be writing it."""
        return self.checkpoint.load() if self.checkpoint is not None else Resume()

    def classify(self, resume: Resume) -> None:
        """Classify the rows by the input and what the checkpoint holds."""
        first: dict[str, int] = {}
        rows: list[PreviewRow] = []
        records = resume.records
        for item in self.items:
            if item.lead is None:
                rows.append(PreviewRow(item.index, item.given, "invalid", error=item.invalid))
                continue
            key = fingerprint(item.lead)
            if key in first:
                rows.append(PreviewRow(item.index, item.lead, "duplicate", duplicate_of=first[key]))
                continue
            first[key] = item.index
            if key in records:
                rows.append(PreviewRow(item.index, item.lead, "checkpoint"))
            else:
                rows.append(PreviewRow(item.index, item.lead, "new", sent_before=key in resume.uncertain))
        self.rows = rows
        self.wanted = {
            row.input.email
            for row in rows
            if row.status == "new"
            and isinstance(row.input, _lazy_models.LeadIn)
            and row.input.email is not None
        }

    def scan(self) -> StoredScan:
        return StoredScan(self.wanted, self.max_stored)

    def result(self, usage: UsageOut, scan: StoredScan) -> BulkPreview:
        """The preview, once the usage and the listing have been read."""
        emails: dict[str, int] = {}
        rows: list[PreviewRow] = []
        for row in self.rows:
            email = row.input.email if isinstance(row.input, _lazy_models.LeadIn) else None
            if row.status == "new" and email is not None and email in scan.found:
                row = replace(row, status="stored", stored_lead_id=scan.found[email], sent_before=False)
            elif row.status == "new" and email is not None and email in emails:
                row = replace(row, same_email_as=emails[email])
            if email is not None and row.status != "duplicate":
                emails.setdefault(email, row.index)
            rows.append(row)
        return BulkPreview(rows, usage, scan.read, scan.oldest, scan.complete)


def preview(draft: Draft, progress: ScanProgress, owner: Owner | None = None) -> Steps[BulkPreview]:
    """`preview_many`: the checkpoint (on a thread for the asyncio client), the usage, then
    the listing page by page, as steps for either client; a checkpoint of another `owner`
    than the client's is refused before anything is sent."""
    resume = yield Blocking(draft.load)
    if draft.checkpoint is not None and owner is not None:
        yield from confirm(draft.checkpoint, resume, owner, adopt=False)
    draft.classify(resume)
    usage: UsageOut = yield Send(usage_call())
    scan = draft.scan()
    if (call := scan.next_call()) is not None:
        shown = scan_reporter(progress)
        try:
            while call is not None:
                try:
                    shown.update(scan.take((yield Send(call))))
                except LeadEnrichError as exc:
                    if not scan.refused(exc):
                        raise
                call = scan.next_call()
        finally:
            shown.close()
    return draft.result(usage, scan)
