"""preview_many through both clients: what each row would cost, charged nothing itself."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from leadenrich import BulkPreview, InvalidRequestError, LeadIn, UsageOut
from leadenrich._bulk.checkpoint import Checkpoint, fingerprint
from leadenrich.testing import FakeServer
from tests.helpers import MakeServer, call

from .conftest import Client, MakeClient

pytestmark = pytest.mark.anyio

# pandas is imported by the tests that use it: imported here, it cost every xdist worker
# 0.4 s of CPU before its first test.

CSV = (
    "company,domain,name,email\n"
    "Done Co,done.com,Dana,\n"  # 0: finished in the checkpoint
    "Known Co,known.com,Kim,kim@known.com\n"  # 1: a stored lead has this email
    "Fresh Co,fresh.com,Fay,fay@fresh.com\n"  # 2: new
    "No Domain Co,,Nia,\n"  # 3: invalid
    "Fresh Co,fresh.com,Fay,fay@fresh.com\n"  # 4: a copy of row 2
    "Other Co,other.com,Oz,\n"  # 5: new, no email
    "Bad Co,https://bad.com,Bo,\n"  # 6: invalid
    "Done Co,done.com,Dana,\n"  # 7: a copy of row 0
    "Fresh Two,fresh2.com,Fay,fay@fresh.com\n"  # 8: new, row 2's email on another lead
)


def usage_without_counters(usage: UsageOut) -> dict[str, Any]:
    return usage.model_dump(exclude={"api_calls_this_month"})


async def prepared(client: Client, tmp_path: Path) -> tuple[Any, Path]:
    """The CSV as a DataFrame, with a stored lead for row 1's email and row 0 in a checkpoint."""
    import pandas

    (tmp_path / "leads.csv").write_text(CSV, encoding="utf-8")
    frame = pandas.read_csv(tmp_path / "leads.csv")
    await call(
        client.leads.enrich_sync({"company": "Kim's Old Co", "domain": "old.com", "email": "kim@known.com"})
    )
    checkpoint = tmp_path / "run.jsonl"
    done = await call(
        client.leads.enrich_many(
            [{"company": "Done Co", "domain": "done.com", "name": "Dana"}],
            checkpoint=checkpoint,
            progress=False,
        )
    )
    assert done.credits_spent == 1
    return frame, checkpoint


async def test_each_row_is_classified_and_the_preview_is_charged_nothing(
    client: Client, server: FakeServer, tmp_path: Path
) -> None:
    frame, checkpoint = await prepared(client, tmp_path)
    before, charges = await call(client.usage()), server.state.charged("enrichment")
    requests = len(server.state.requests())

    preview = await call(client.leads.preview_many(frame, checkpoint=checkpoint, progress=False))

    assert isinstance(preview, BulkPreview)
    assert [row.status for row in preview] == [
        "checkpoint",
        "stored",
        "new",
        "invalid",
        "duplicate",
        "new",
        "invalid",
        "duplicate",
        "new",
    ]
    rows = preview.rows
    stored_id = next(lead.id for lead in server.state.leads() if lead.input.email == "kim@known.com")
    assert rows[1].stored_lead_id == stored_id
    assert (rows[4].duplicate_of, rows[7].duplicate_of) == (2, 0)
    assert rows[8].same_email_as == 2
    assert rows[2].same_email_as is None
    assert [row.index for row in preview if row.may_charge] == [2, 5, 8]
    assert (preview.invalid, preview.duplicates, preview.in_checkpoint, preview.stored, preview.new) == (
        2,
        2,
        1,
        1,
        3,
    )
    assert preview.credits_at_most == 3
    assert preview.credits_left == 1000 - 2
    assert (preview.enough, preview.fits, preview.verdict) == (True, 3, "enough")
    assert preview.stored_read == 2
    assert preview.listing_complete
    assert preview.stored_since == min(lead.created_at for lead in server.state.leads() if lead.created_at)

    # Charged nothing: the same usage apart from the request counters, no charge in the
    # books, and nothing but GETs sent.
    after = await call(client.usage())
    assert usage_without_counters(after) == usage_without_counters(before)
    assert after.api_calls_this_month.this_key > before.api_calls_this_month.this_key
    assert server.state.charged("enrichment") == charges
    sent = server.state.requests()[requests:]
    assert {(r.method, r.path) for r in sent} == {("GET", "/api/v1/usage"), ("GET", "/api/v1/leads")}


async def test_invalid_rows_carry_the_messages_enrich_many_gives(client: Client, server: FakeServer) -> None:
    rows: list[Any] = [
        {"company": "A"},
        {"company": "B", "domain": "https://b.com"},
        {"domain": "c.com", "extra": 1},
    ]
    preview = await call(client.leads.preview_many(rows, progress=False))
    result = await call(client.leads.enrich_many(rows, progress=False))
    assert [row.status for row in preview] == ["invalid"] * 3
    assert [str(row.error) for row in preview] == [str(outcome.error) for outcome in result]
    assert preview.credits_at_most == 0
    assert preview.stored_read == 0
    assert server.state.charged("enrichment") == 0


async def test_a_lead_sent_without_an_answer_counts_as_charged(client: Client, tmp_path: Path) -> None:
    lead = LeadIn(company="Lost Co", domain="lost.com")
    checkpoint = Checkpoint(tmp_path / "run.jsonl")
    checkpoint.take()
    checkpoint.started(f"{fingerprint(lead)}#0", 0, as_job=False)
    checkpoint.close()
    preview = await call(client.leads.preview_many([lead], checkpoint=tmp_path / "run.jsonl", progress=False))
    [row] = preview.rows
    assert (row.status, row.sent_before, preview.credits_at_most) == ("new", True, 1)


async def test_not_enough_credits_and_max_credits_auto_stops_there(
    make_server: MakeServer, make_client: MakeClient
) -> None:
    server = make_server(monthly_leads=6)
    client = make_client(server)
    rows = [{"company": f"Co{n}", "domain": f"co{n}.com"} for n in range(10)]
    await call(client.leads.enrich_sync({"company": "Spent", "domain": "spent.com"}))

    preview = await call(client.leads.preview_many(rows, progress=False))
    assert (preview.credits_at_most, preview.credits_left) == (10, 5)
    assert (preview.enough, preview.fits) == (False, 5)
    assert preview.verdict == "not enough: 5 of 10 leads to enrich fit"
    assert preview.summary().endswith("at most 10 credits, 5 left: not enough: 5 of 10 leads to enrich fit")

    result = await call(client.leads.enrich_many(rows, max_credits="auto", progress=False))
    assert result.credits_spent == 5
    assert (result.succeeded, result.skipped, result.failed) == (5, 5, 0)
    assert server.state.charged("enrichment") == 6
    assert 402 not in server.state.status_counts(server.api_key)


async def test_max_credits_auto_on_an_unlimited_account(
    make_server: MakeServer, make_client: MakeClient
) -> None:
    server = make_server(monthly_leads=None)
    client = make_client(server)
    rows = [{"company": f"Co{n}", "domain": f"co{n}.com"} for n in range(3)]
    preview = await call(client.leads.preview_many(rows, progress=False))
    assert (preview.credits_left, preview.enough, preview.fits) == (None, True, 3)
    assert "no limit: enough" in preview.summary()
    result = await call(client.leads.enrich_many(rows, max_credits="auto", progress=False))
    assert result.credits_spent == 3


@pytest.mark.parametrize("bad", ["all", "AUTO", ""])
async def test_max_credits_strings_other_than_auto_are_refused_before_sending(
    client: Client, server: FakeServer, bad: str
) -> None:
    with pytest.raises(InvalidRequestError, match=r"max_credits must be an int >= 0, None .* or 'auto'"):
        await call(client.leads.enrich_many([{"company": "A", "domain": "a.com"}], max_credits=bad))
    assert server.state.requests() == []


async def test_bad_input_is_refused_before_anything_is_sent(client: Client, server: FakeServer) -> None:
    import pandas

    with pytest.raises(InvalidRequestError, match="leads must be an iterable"):
        await call(client.leads.preview_many("acme.com"))
    with pytest.raises(InvalidRequestError, match="max_stored must be >= 0"):
        await call(client.leads.preview_many([], max_stored=-1))
    with pytest.raises(InvalidRequestError, match="has no domain column"):
        await call(client.leads.enrich_many(pandas.DataFrame({"company": ["A"]}), max_credits="auto"))
    assert server.state.requests() == []


async def seed(client: Client, server: FakeServer, count: int, emails: bool = True) -> None:
    """`count` stored leads, created as jobs: the async bucket, so the sync budget stays free."""
    for n in range(count):
        email = {"email": f"s{n}@stored.com"} if emails else {}
        await call(client.leads.enrich({"company": f"Stored{n}", "domain": f"stored{n}.com", **email}))
    assert server.state.wait_until(lambda: len(server.state.leads()) == count)


@pytest.mark.parametrize("order", ["newest_first", "oldest_first"])
async def test_max_stored_bounds_the_reading_and_says_how_far_back(
    make_server: MakeServer, make_client: MakeClient, order: str
) -> None:
    server = make_server(list_order=order)
    client = make_client(server)
    for n in range(5):
        # One at a time, so that each lead has its own created_at.
        await call(
            client.leads.enrich_sync({"company": f"S{n}", "domain": f"s{n}.com", "email": f"s{n}@s.com"})
        )
    stored = server.state.leads()  # oldest first
    first_two = stored[-2:] if order == "newest_first" else stored[:2]
    rows = [{"company": f"New{n}", "domain": f"new{n}.com", "email": f"s{n}@s.com"} for n in range(5)]

    preview = await call(client.leads.preview_many(rows, max_stored=2, progress=False))

    assert (preview.stored_read, preview.listing_complete) == (2, False)
    assert preview.stored_since == min(lead.created_at for lead in first_two if lead.created_at)
    found = {lead.input.email for lead in first_two}
    assert {row.input.email for row in preview if row.status == "stored"} == found  # type: ignore[union-attr]
    # An email stored further back than the reading went is counted as charged: an upper bound.
    assert preview.credits_at_most == 3
    assert "not the whole listing" in preview.looked_back()


async def test_the_reading_stops_once_every_email_is_found(
    make_server: MakeServer, make_client: MakeClient
) -> None:
    server = make_server(enrichment_seconds=(0.0, 0.0), queued_seconds=0.0)
    client = make_client(server)
    await seed(client, server, 150)
    newest = server.state.leads()[-1].input.email
    requests = len(server.state.requests())
    row = {"company": "X", "domain": "x.com", "email": newest}
    preview = await call(client.leads.preview_many([row], progress=False))
    listings = [r for r in server.state.requests()[requests:] if r.path == "/api/v1/leads"]
    assert len(listings) == 1
    assert preview.stored == 1
    assert preview.stored_read == 100
    assert not preview.listing_complete
    # No email to look for: no listing at all.
    requests = len(server.state.requests())
    await call(client.leads.preview_many([{"company": "Y", "domain": "y.com"}], progress=False))
    assert [r.path for r in server.state.requests()[requests:]] == ["/api/v1/usage"]


async def test_a_large_listing_is_read_within_the_per_key_budget_with_progress(
    make_server: MakeServer, make_client: MakeClient
) -> None:
    # 2 requests a window: the usage and three pages must be paced over two windows.
    server = make_server(enrichment_seconds=(0.0, 0.0), queued_seconds=0.0, sync_per_minute=2)
    client = make_client(server)
    await seed(client, server, 250, emails=False)
    counts: list[int] = []
    requests = len(server.state.requests())
    row = {"company": "X", "domain": "x.com", "email": "x@x.com"}
    preview = await call(client.leads.preview_many([row], progress=counts.append))
    assert counts == [100, 200, 250]
    assert (preview.stored_read, preview.listing_complete, preview.new) == (250, True, 1)
    sent = server.state.requests()[requests:]
    # Four requests, none refused with a 429: the pacer waited instead.
    assert [r.status_code for r in sent] == [200] * 4


async def test_rows_repeating_an_earlier_email_are_counted_as_charged(
    make_server: MakeServer, make_client: MakeClient
) -> None:
    server = make_server()
    client = make_client(server)
    rows = [
        {"company": "A", "domain": "a.com", "email": "same@a.com"},
        {"company": "A Two", "domain": "a2.com", "email": "same@a.com"},
    ]
    preview = await call(client.leads.preview_many(rows, progress=False))
    assert (preview.credits_at_most, preview.rows[1].same_email_as) == (2, 0)
    result = await call(client.leads.enrich_many(rows, concurrency=1, progress=False))
    # Sent one after the other, the second comes back deduped: the bound is not reached.
    assert result.credits_spent == server.state.charged("enrichment") == 1 <= preview.credits_at_most


@pytest.mark.parametrize(("rule", "charged"), [("ignore_case", 0), ("exact", 1)])
async def test_an_email_differing_in_case_is_counted_as_charged_whatever_the_service_does(
    make_server: MakeServer, make_client: MakeClient, rule: str, charged: int
) -> None:
    server = make_server(dedupe_emails=rule)
    client = make_client(server)
    await call(
        client.leads.enrich_sync({"company": "Kim Old", "domain": "old.com", "email": "kim@known.com"})
    )
    rows = [{"company": "Known", "domain": "known.com", "email": "Kim@Known.com"}]
    preview = await call(client.leads.preview_many(rows, progress=False))
    assert (preview.rows[0].status, preview.credits_at_most) == ("new", 1)
    books = server.state.charged("enrichment")
    result = await call(client.leads.enrich_many(rows, progress=False))
    # The bound holds under either reading of the spec, and is reached under the strict one.
    assert result.credits_spent == server.state.charged("enrichment") - books == charged
    assert result.credits_spent <= preview.credits_at_most
