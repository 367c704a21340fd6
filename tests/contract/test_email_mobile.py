"""Email discovery and mobile lookups through both clients."""

from __future__ import annotations

import re

import pytest

from leadenrich import EmailFindOut, InvalidRequestError, MobileFindOut
from leadenrich.testing import FakeServer
from tests.helpers import call

from .conftest import PATIENT, Client

pytestmark = pytest.mark.anyio

ADA = {"first_name": "Ada", "last_name": "Lovelace", "domain": "acme.com"}


async def test_an_email_hit_is_charged(client: Client, server: FakeServer) -> None:
    found = await call(client.email.find(**ADA))
    assert isinstance(found, EmailFindOut)
    assert found.found
    assert (found.email, found.source) == ("ada.lovelace@acme.com", "service_verified")
    assert server.state.charged("email") == 1
    assert (await call(client.usage())).monthly_leads.used == 1


async def test_an_email_miss_is_free(client: Client, server: FakeServer) -> None:
    missed = await call(client.email.find(linkedin_url="https://www.linkedin.com/in/nobody"))
    assert missed.state == "not_found"
    assert not missed.found
    assert server.state.charges() == []


async def test_an_invalid_combination_is_refused_before_sending(client: Client, server: FakeServer) -> None:
    with pytest.raises(InvalidRequestError):
        await call(client.email.find(first_name="Ada"))
    with pytest.raises(InvalidRequestError):
        await call(client.mobile.find(linkedin_url="https://linkedin.com/in/ada", domain="acme.com"))
    assert server.state.requests() == []


async def test_a_lookup_is_pending_then_settled_and_charged(client: Client, server: FakeServer) -> None:
    pending = await call(client.mobile.find(**ADA))
    assert isinstance(pending, MobileFindOut)
    assert pending.state == "pending"
    assert not pending.is_terminal
    assert server.state.charges() == []
    settled = await call(client.mobile.wait(pending.lookup_id, **PATIENT))
    assert settled.state == "settled"
    assert settled.mobile is not None
    assert re.fullmatch(r"\+[1-9]\d{7,14}", settled.mobile)
    assert settled.created_at == pending.created_at
    assert server.state.charged("mobile") == 1
    credits = (await call(client.usage())).mobile_credits
    assert (credits.used, credits.balance) == (1, credits.purchased - 1)


async def test_no_number_is_refunded(client: Client, server: FakeServer) -> None:
    refunded = await call(
        client.mobile.find_and_wait(first_name="Bo", last_name="Landline", domain="acme.com", **PATIENT)
    )
    assert refunded.state == "refunded"
    assert refunded.mobile is None
    assert server.state.charges() == []
