"""BulkPreview on its own: counts, verdict, repr, the Jupyter summary and the exports."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import pytest

from leadenrich import BulkPreview, InvalidRequestError, LeadIn, PreviewRow, UsageOut
from leadenrich._bulk.scan_progress import scan_reporter


def usage(limit: int | None, used: int) -> UsageOut:
    return UsageOut.model_validate(
        {
            "tier": "growth",
            "monthly_leads": {"included": limit, "credits_added": 0, "effective_limit": limit, "used": used},
            "mobile_credits": {"purchased": 0, "used": 0, "balance": 0},
            "api_calls_this_month": {"total": 3, "this_key": 3},
        }
    )


def lead(n: int, email: str | None = None) -> LeadIn:
    return LeadIn(company=f"Co{n}", domain=f"co{n}.com", email=email)


ROWS = [
    PreviewRow(0, lead(0), "new"),
    PreviewRow(1, lead(0), "duplicate", duplicate_of=0),
    PreviewRow(2, {"company": "X"}, "invalid", error=InvalidRequestError("invalid lead: domain is missing")),
    PreviewRow(3, lead(3, "a@co3.com"), "stored", stored_lead_id="ld_1"),
    PreviewRow(4, lead(4), "checkpoint"),
    PreviewRow(5, lead(5, "a@co3.com"), "new", same_email_as=3),
]
SINCE = datetime(2026, 3, 2, 9, 30, tzinfo=timezone.utc)


def make(limit: int | None = 1000, used: int = 0, **kwargs: Any) -> BulkPreview:
    return BulkPreview(ROWS, usage(limit, used), **{"stored_read": 40, "stored_since": SINCE, **kwargs})


def test_counts_and_an_account_that_can_pay() -> None:
    preview = make(listing_complete=True)
    assert (preview.new, preview.duplicates, preview.invalid, preview.stored, preview.in_checkpoint) == (
        2,
        1,
        1,
        1,
        1,
    )
    assert (preview.credits_at_most, preview.credits_left, preview.enough, preview.fits) == (2, 1000, True, 2)
    assert repr(preview) == "BulkPreview(rows=6, new=2, credits_at_most=2, credits_left=1000, enough=True)"
    assert preview.summary() == (
        "6 leads: 2 to enrich, 1 already stored, 1 in the checkpoint, 1 repeated, 1 invalid; "
        "at most 2 credits, 1000 left: enough"
    )
    assert preview.looked_back() == "read all 40 stored leads, back to 2026-03-02"


@pytest.mark.parametrize(("limit", "used", "left", "fits"), [(10, 9, 1, 1), (10, 10, 0, 0), (10, 12, 0, 0)])
def test_not_enough_says_how_many_fit(limit: int, used: int, left: int, fits: int) -> None:
    preview = make(limit, used)
    assert (preview.credits_left, preview.enough, preview.fits) == (left, False, fits)
    assert preview.verdict == f"not enough: {fits} of 2 leads to enrich fit"
    assert "not the whole listing" in preview.looked_back()


def test_one_lead_to_enrich_is_one_lead() -> None:
    preview = BulkPreview([PreviewRow(0, lead(0), "new")], usage(10, 10))
    assert preview.verdict == "not enough: 0 of 1 lead to enrich fit"
    assert (
        preview.summary()
        == "1 lead: 1 to enrich; at most 1 credit, 0 left: not enough: 0 of 1 lead to enrich fit"
    )


def test_no_limit_is_enough() -> None:
    preview = make(None)
    assert (preview.credits_left, preview.enough, preview.fits) == (None, True, 2)
    assert preview.summary().endswith("at most 2 credits, no limit: enough")


def test_the_jupyter_summary_escapes_and_colours_the_verdict() -> None:
    shown = make(1, 0)._repr_html_()
    assert "BulkPreview of 6 leads" in shown
    assert "color:#b00" in shown
    assert "not enough: 1 of 2 leads to enrich fit" in shown
    assert "<td>credits at most</td><td style='text-align:right'>2</td>" in shown
    assert "color:green" in make()._repr_html_()


def test_a_row_reads_short_and_renders_in_a_notebook() -> None:
    assert repr(ROWS[1]) == "PreviewRow(index=1, status='duplicate', duplicate_of=0)"
    assert repr(ROWS[2]) == (
        "PreviewRow(index=2, status='invalid', error=InvalidRequestError('invalid lead: domain is missing'))"
    )
    assert "Co0" not in repr(ROWS[0])  # the input is one attribute away, not in the repr
    shown = ROWS[3]._repr_html_()
    assert shown.startswith("<div><strong>Row 3: stored</strong><table>")
    assert "<th style='text-align:left'>stored lead</th><td style='text-align:left'>ld_1</td>" in shown
    assert "<td style='text-align:left'>nothing</td>" in shown
    assert "repeats row" not in shown  # fields that are not set are left out


def test_usage_renders_in_a_notebook() -> None:
    shown = usage(1000, 3)._repr_html_()
    assert shown.startswith("<div><strong>Usage this month (growth)</strong>")
    assert "<td style='text-align:left'>3 of 1000, 997 left</td>" in shown
    assert "no limit" in usage(None, 3)._repr_html_()


def test_records_and_the_dataframe() -> None:
    preview = make()
    records = preview.to_records()
    assert [r["status"] for r in records] == ["new", "duplicate", "invalid", "stored", "checkpoint", "new"]
    assert [r["may_charge"] for r in records] == [True, False, False, False, False, True]
    assert records[1]["duplicate_of"] == 0
    assert records[2]["input_company"] == "X"
    assert records[2]["error"] == "invalid lead: domain is missing"
    assert records[3]["stored_lead_id"] == "ld_1"
    assert records[5]["same_email_as"] == 3
    frame = preview.to_pandas()
    assert list(frame["index"]) == list(range(6))
    # Whole numbers with gaps stay whole: nullable Int64, not floats.
    assert str(frame["duplicate_of"].dtype) == "Int64"
    totals = preview.totals()
    assert totals["stored_since"] == SINCE.isoformat()
    assert (totals["rows"], totals["credits_at_most"], totals["enough"]) == (6, 2, True)


def test_progress_of_the_reading(capsys: pytest.CaptureFixture[str]) -> None:
    seen: list[int] = []
    reporter = scan_reporter(seen.append)
    reporter.update(100)
    reporter.close()
    assert seen == [100]
    silent = scan_reporter(False)
    silent.update(100)
    silent.close()
    bar = scan_reporter(True)
    bar.update(100)
    bar.update(250)
    bar.close()
    err = capsys.readouterr().err
    assert "stored leads: 250 read [" in err


def test_how_far_back_when_nothing_was_read() -> None:
    assert (
        make(stored_read=0, stored_since=None, listing_complete=True).looked_back()
        == "the account has no stored lead"
    )
    assert make(stored_read=0, stored_since=None).looked_back() == "no stored lead was read: max_stored is 0"
    bare = BulkPreview([PreviewRow(0, lead(0), "new")], usage(10, 0))
    assert bare.looked_back() == "no stored lead was read: no lead to enrich has an email"
