"""Checked by pyright and mypy (see tests/test_typing.py), never run.

Each line ending in an ignore comment must be an error for both checkers: the checks
run with unused ignores reported, so a line that stops being an error fails the test.
"""

from __future__ import annotations

import httpx
from typing_extensions import assert_type

from leadenrich import (
    APIResponse,
    AsyncLeadEnrich,
    BulkResult,
    EmailFindOut,
    LeadDict,
    LeadEnrich,
    LeadOut,
    LeadPage,
    MobileFindOut,
    PersonQuery,
    UsageOut,
)
from leadenrich._models.pages import Awaited
from leadenrich.testing import FakeServer, async_client_for, client_for, connect


def sync_client(client: LeadEnrich, rows: list[dict[str, str]]) -> None:
    assert_type(client.leads.enrich_sync({"company": "Acme", "domain": "acme.com"}), LeadOut)
    client.leads.enrich_sync({"compnay": "Acme", "domain": "acme.com"})  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    client.leads.enrich({"domain": "acme.com"})  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    client.leads.enrich_and_wait({"company": "Acme", "domain": "acme.com", "titel": "CTO"})  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    lead: LeadDict = {"company": "Acme", "domain": "acme.com", "email": "ada@acme.com"}
    client.leads.enrich_sync(lead)
    typo: LeadDict = {"company": "Acme", "domian": "acme.com"}  # type: ignore[typeddict-item, typeddict-unknown-key]  # pyright: ignore[reportAssignmentType]
    client.leads.enrich_sync(typo)
    assert_type(client.email.find(first_name="Ada", last_name="Lovelace", domain="acme.com"), EmailFindOut)
    client.email.find(frist_name="Ada", last_name="Lovelace", domain="acme.com")  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
    client.mobile.find(linkedin_ur="https://linkedin.com/in/ada")  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
    client.mobile.find_and_wait(linkedin_url="https://linkedin.com/in/ada", compnay_name="Acme")  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
    person: PersonQuery = {"linkedin_url": "https://linkedin.com/in/ada"}
    assert_type(client.mobile.find_and_wait(**person, timeout=60), MobileFindOut)
    # Rows read from a file are any mapping: bulk input takes them as they are.
    assert_type(client.leads.enrich_many(rows), BulkResult)
    client.leads.enrich_many(42)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    # The keywords a run-time signature shows are the TypedDict's, for type checkers too.
    assert_type(client.leads.enrich_many(rows, concurrency=3, strategy="async"), BulkResult)
    client.leads.enrich_many(rows, concurency=3)  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
    client.leads.enrich_iter(rows, strategy="fast")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    raw = client.leads.with_raw_response.get("ld_1", timeout=5)
    assert_type(raw, APIResponse[LeadOut])
    assert_type(raw.parse(), LeadOut)
    assert_type(client.with_raw_response.usage().parse(), UsageOut)
    client.leads.get("ld_1", extra_headers={"X-Trace": 1})  # type: ignore[dict-item]  # pyright: ignore[reportArgumentType]
    client.with_options(max_retrys=3)  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
    assert_type(client.with_options(max_retries=3, default_headers={"X-Team": "a"}), LeadEnrich)
    LeadEnrich(http_client=httpx.Client())
    LeadEnrich(http_client=httpx.AsyncClient())  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    page = client.leads.list(limit=10)
    assert_type(page.next_page(), LeadPage)
    for each in page.iter_pages():
        assert_type(each, LeadPage)
    assert_type(client.leads.with_raw_response.list().parse().next_page(), LeadPage)


async def async_client(client: AsyncLeadEnrich) -> None:
    assert_type(await client.leads.enrich_sync({"company": "Acme", "domain": "acme.com"}), LeadOut)
    await client.leads.enrich_sync({"compnay": "Acme", "domain": "acme.com"})  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    await client.email.find(frist_name="Ada", last_name="Lovelace", domain="acme.com")  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
    raw = await client.email.with_raw_response.find(linkedin_url="https://linkedin.com/in/ada")
    assert_type(raw, APIResponse[EmailFindOut])
    assert_type(client.with_options(timeout=5), AsyncLeadEnrich)
    AsyncLeadEnrich(http_client=httpx.AsyncClient())
    AsyncLeadEnrich(http_client=httpx.Client())  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    # A page of the async client is awaited for the next one.
    page = await client.leads.list(limit=10)
    assert_type(await page.next_page(), LeadPage[Awaited])
    async for each in page.iter_pages():
        assert_type(each, LeadPage[Awaited])
    len(page.next_page())  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


async def on_a_fake_server(server: FakeServer) -> None:
    # The clients bound to a fake server take the client's settings, and no typo of one.
    assert_type(client_for(server, timeout=5), LeadEnrich)
    assert_type(async_client_for(server, max_retries=0), AsyncLeadEnrich)
    async_client_for(server, timeot=5)  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
    client_for(server, max_retrys=0)  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
    with connect(max_retrys=0):  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
        pass
    async with FakeServer() as started:
        assert_type(started, FakeServer)
