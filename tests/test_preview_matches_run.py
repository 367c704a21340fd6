"""The preview's "at most" is what the enrich_many that follows it really charges.

A 200-row input with all four kinds of free rows: invalid, identical to an earlier row,
done in the checkpoint, and an email the account already has. Copies of a row share its
one result (the bulk rule for identical rows), so the run charges exactly the new rows.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from leadenrich import AsyncLeadEnrich, LeadEnrich
from leadenrich.testing import FakeServer
from tests.helpers import call

pytestmark = pytest.mark.anyio

# 20-40 ms enrichments: the test waits out about 120 of them.
QUICK: dict[str, Any] = {"enrichment_seconds": (4.0, 8.0)}


@pytest.fixture(params=["ignore_case", "exact"])
def server(request: pytest.FixtureRequest) -> Iterator[FakeServer]:
    # However the service compares emails, the preview's bound must hold exactly here.
    with FakeServer(**QUICK, dedupe_emails=request.param) as server:
        yield server


@pytest.fixture(params=["sync", "async"])
async def client(request: pytest.FixtureRequest, server: FakeServer) -> AsyncIterator[Any]:
    cls = LeadEnrich if request.param == "sync" else AsyncLeadEnrich
    made = cls(api_key=server.api_key, base_url=server.url, rate_limits=server.rate_limits)
    yield made
    if isinstance(made, AsyncLeadEnrich):
        await made.aclose()
    else:
        made.close()


def rows_of_every_kind() -> tuple[list[dict[str, str]], list[dict[str, str]], list[dict[str, str]]]:
    """(the input, the leads an earlier run finished, the leads the account already holds)."""
    new = [{"company": f"New{n}", "domain": f"new{n}.com"} for n in range(60)]
    new += [
        {"company": f"Mail{n}", "domain": f"mail{n}.com", "email": f"p{n}@mail{n}.com"} for n in range(25)
    ]
    done = [{"company": f"Done{n}", "domain": f"done{n}.com", "name": f"D {n}"} for n in range(35)]
    held = [{"company": f"Old{n}", "domain": f"old{n}.com", "email": f"k{n}@known.com"} for n in range(30)]
    # Same email as a held lead, otherwise another lead: the service returns the held one.
    known = [
        {"company": f"Known{n}", "domain": f"known{n}.com", "email": f"k{n}@known.com"} for n in range(30)
    ]
    invalid = [{"company": f"NoDomain{n}"} for n in range(10)] + [
        {"company": f"Scheme{n}", "domain": f"https://scheme{n}.com"} for n in range(10)
    ]
    rows = new + done + known + invalid
    # Copies of new, done, known and invalid rows, spread through the input.
    copies = [dict(rows[n]) for n in range(0, len(rows), 5)][:30]
    mixed: list[dict[str, str]] = []
    for n, row in enumerate(rows):
        mixed.append(row)
        if n % 5 == 4 and copies:
            mixed.append(copies.pop(0))
    mixed += copies
    assert len(mixed) == 200
    return mixed, done, held


async def test_the_previews_at_most_is_the_charge_of_the_run_that_follows(
    client: Any, server: FakeServer, tmp_path: Path
) -> None:
    rows, done, held = rows_of_every_kind()
    checkpoint = tmp_path / "run.jsonl"
    for lead in held:
        await call(client.leads.enrich_sync(lead))
    earlier = await call(client.leads.enrich_many(done, checkpoint=checkpoint, progress=False))
    assert earlier.credits_spent == len(done)

    preview = await call(client.leads.preview_many(rows, checkpoint=checkpoint, progress=False))
    assert (preview.invalid, preview.in_checkpoint, preview.stored, preview.new) == (20, 35, 30, 85)
    assert preview.duplicates == 30
    assert len(preview) == 200
    assert preview.credits_at_most == 85
    assert preview.enough

    books = server.state.charged("enrichment")
    result = await call(client.leads.enrich_many(rows, checkpoint=checkpoint, progress=False))
    charged = server.state.charged("enrichment") - books

    statuses = {
        "invalid": {"failed"},
        "checkpoint": {"enriched", "deduped"},
        "stored": {"deduped"},
        "new": {"enriched"},
    }
    for row, outcome in zip(preview, result, strict=True):
        if row.status in statuses:
            assert outcome.status in statuses[row.status], (row, outcome)
            assert outcome.charged is row.may_charge, (row, outcome)
    copies_charged = sum(
        1
        for row, outcome in zip(preview, result, strict=True)
        if row.status == "duplicate" and outcome.charged
    )
    assert charged == result.credits_spent == preview.credits_at_most, (
        f"{copies_charged} copies were charged again"
    )
