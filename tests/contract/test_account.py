"""Health, usage, authentication and plans, through both clients."""

from __future__ import annotations

import pytest

from leadenrich import (
    AuthenticationError,
    Health,
    PermissionDeniedError,
    QuotaExceededError,
    UsageOut,
)
from leadenrich.testing import FakeServer
from tests.helpers import call

from .conftest import Client, MakeClient

pytestmark = pytest.mark.anyio


async def test_health_is_ok_and_counts_nothing(client: Client, server: FakeServer) -> None:
    health = await call(client.health())
    assert isinstance(health, Health)
    assert health.status == "ok"
    assert health.model_extra == {"version": "1.0.0"}
    usage = await call(client.usage())
    assert usage.api_calls_this_month.this_key == 1
    [health_request, _] = server.state.requests()
    assert (health_request.path, health_request.key) == ("/api/v1/health", None)


async def test_usage_reports_quota_credits_and_calls(make_client: MakeClient, server: FakeServer) -> None:
    key = server.add_key("scale", monthly_leads=300, credits=20, mobile_credits=5)
    second = make_client(server, server.add_key(user=server.user_of(key)))
    client = make_client(server, key)
    await call(second.usage())
    usage = await call(client.usage())
    assert isinstance(usage, UsageOut)
    assert usage.tier == "scale"
    assert (usage.monthly_leads.included, usage.monthly_leads.credits_added) == (300, 20)
    assert (usage.monthly_leads.effective_limit, usage.monthly_leads.used) == (320, 0)
    assert (usage.mobile_credits.purchased, usage.mobile_credits.used, usage.mobile_credits.balance) == (
        5,
        0,
        5,
    )
    assert (usage.api_calls_this_month.total, usage.api_calls_this_month.this_key) == (2, 1)


async def test_an_unknown_key_is_an_authentication_error(make_client: MakeClient, server: FakeServer) -> None:
    wrong = "le_live_" + "0" * 32
    client = make_client(server, wrong, max_retries=0)
    with pytest.raises(AuthenticationError) as raised:
        await call(client.usage())
    assert raised.value.status_code == 401
    assert "Bearer" in raised.value.detail
    assert wrong not in str(raised.value)
    assert server.state.status_counts(wrong) == {401: 1}


@pytest.mark.parametrize("tier", ["free", "starter"])
async def test_plans_without_api_access_are_permission_errors(
    make_client: MakeClient, server: FakeServer, tier: str
) -> None:
    client = make_client(server, server.add_key(tier), max_retries=0)  # type: ignore[arg-type]
    with pytest.raises(PermissionDeniedError) as raised:
        await call(client.leads.enrich_sync({"company": "Acme", "domain": "acme.com"}))
    assert raised.value.status_code == 403
    assert server.state.charges() == []


async def test_an_empty_pool_is_a_quota_error(make_client: MakeClient, server: FakeServer) -> None:
    key = server.add_key(monthly_leads=0, credits=0, mobile_credits=0)
    client = make_client(server, key, max_retries=0)
    with pytest.raises(QuotaExceededError) as enrich:
        await call(client.leads.enrich({"company": "Acme", "domain": "acme.com"}))
    assert "credit pack" in enrich.value.detail
    with pytest.raises(QuotaExceededError):
        await call(client.email.find(first_name="Ada", last_name="Lovelace", domain="acme.com"))
    with pytest.raises(QuotaExceededError):
        await call(client.mobile.find(first_name="Ada", last_name="Lovelace", domain="acme.com"))
    assert server.state.charges() == []
    server.add_credits(key, credits=1)
    job = await call(client.leads.enrich({"company": "Acme", "domain": "acme.com"}))
    assert job.status == "queued"
