"""A lost lead's lookup, page by page: what ends it, and what rules a record out.

The spec shows neither the listing's order nor how a service pages it, and a service may
store leads while a lookup reads: these drive `Scan` with the pages such services give.
"""

from __future__ import annotations

from leadenrich._bulk import lookup
from leadenrich._bulk.checkpoint import fingerprint
from leadenrich._bulk.lookup import Scan, Wanted
from leadenrich._bulk.service_time import ServiceTime
from leadenrich._models import LeadIn, LeadOut, LeadPage
from tests.helpers import lead_out

ACME = {"company": "Acme", "domain": "acme.com", "email": "ada@acme.com"}
KEY = fingerprint(LeadIn.model_validate(ACME))


def record(lead_id: str, created: str | None, **input: str) -> LeadOut:
    body = lead_out(lead_id, input=input or {"company": f"Other {lead_id}", "domain": f"{lead_id}.com"})
    if created is not None:
        body["created_at"] = created
    return LeadOut.model_validate(body)


def page(*leads: LeadOut) -> LeadPage:
    # A bare list, as a service that says nothing of what follows serves it.
    return LeadPage.model_validate([lead.model_dump(mode="json") for lead in leads])


def others(first: int, count: int) -> list[LeadOut]:
    """Other leads, newest first, a minute apart."""
    return [record(f"ld_{n}", f"2026-06-01T10:{59 - n % 60:02d}:00.5Z") for n in range(first, first + count)]


def earlier_runs_scan(after: str | None = None) -> Scan:
    """A lookup for a lead an earlier run sent without hearing back."""
    time = ServiceTime(1.0)
    want = Wanted(0.0, None, LeadOut.model_validate(lead_out(created_at=after)).created_at if after else None)
    return Scan({KEY: want}, time, lambda: 0.0)


def test_a_page_of_records_already_read_does_not_end_the_lookup() -> None:
    # Newest first, and 100 leads stored between the two reads: the page at skip=100 is
    # the first page again, pushed down. The lead's record is on the page after it.
    scan = earlier_runs_scan()
    first = others(0, 100)
    assert scan.next_page() == (100, 0)
    scan.read(page(*first))
    assert scan.next_page() == (100, 100)
    scan.read(page(*first[50:], *others(100, 50)))
    assert scan.next_page() == (100, 200)
    scan.read(page(record("ld_own", "2026-06-01T09:00:00.5Z", **ACME)))
    assert scan.broken is None
    own = scan.found[KEY].unread
    assert isinstance(own, LeadOut)
    assert own.id == "ld_own"


def test_a_listing_that_serves_its_first_page_for_every_skip_ends_as_unreadable() -> None:
    # A service that ignores `skip` would serve page one for ever; what it holds past it
    # is unknown, so the lookup ends with the reason (the plan then sends nothing again).
    scan = earlier_runs_scan()
    first = others(0, 100)
    scan.read(page(*first))
    assert scan.next_page() == (100, 100)
    scan.read(page(*first))
    assert scan.next_page() is None
    assert scan.broken is not None
    assert "skip=100" in str(scan.broken)


def test_an_earlier_runs_lead_is_ruled_out_by_after_only_with_stamps_that_have_an_offset() -> None:
    # Local time without an offset steps back an hour when summer time ends: the lead's
    # own record, stored after the step, reads an hour older than the latest record the
    # earlier run had received (`after`), and must still count.
    naive = earlier_runs_scan(after="2026-11-01T01:59:00.123456")
    naive.read(page(record("ld_own", "2026-11-01T01:00:30.654321", **ACME)))
    assert naive.found[KEY].unread is not None
    aware = earlier_runs_scan(after="2026-11-01T01:59:00.123456Z")
    aware.read(page(record("ld_old", "2026-11-01T01:00:30.654321Z", **ACME)))
    assert aware.found[KEY].unread is None


def test_the_lookups_of_a_run_fingerprint_each_record_once() -> None:
    # Every lookup reads the listing again: a record read before keeps the fingerprint
    # first made of it (a record's input never changes), and a run that reads millions
    # keeps at most _KEYS_KEPT of them, starting afresh past that.
    keys: dict[str, str] = {}
    listing = page(*others(0, 3), record("ld_own", "2026-06-01T09:00:00.5Z", **ACME))
    first = Scan({KEY: Wanted(0.0, None)}, ServiceTime(1.0), lambda: 0.0, keys=keys)
    first.read(listing)
    assert keys == {lead.id: fingerprint(lead.input) for lead in listing.items}
    # Told (falsely) that another record is the lead's: a later lookup takes the memo's word.
    keys["ld_0"], keys["ld_own"] = KEY, "someone else"
    later = Scan({KEY: Wanted(0.0, None)}, ServiceTime(1.0), lambda: 0.0, keys=keys)
    later.read(listing)
    own = later.found[KEY].unread
    assert isinstance(own, LeadOut)
    assert own.id == "ld_0", "the later lookup fingerprinted the records again"

    full = {f"ld_old{n}": "x" for n in range(lookup._KEYS_KEPT)}  # pyright: ignore[reportPrivateUsage]
    Scan({KEY: Wanted(0.0, None)}, ServiceTime(1.0), lambda: 0.0, keys=full).read(listing)
    assert len(full) == 4, "the memo grew past its bound"
