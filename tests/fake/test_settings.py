"""FakeSettings and FakeServer construction: defaults, overrides, and clear errors."""

from __future__ import annotations

import math
import re
from typing import Any

import pytest

from leadenrich import EmailFindIn, LeadIn, MobileFindIn
from leadenrich.testing import FakeServer, FakeSettings


def test_defaults_are_the_specs_limits_on_a_fast_clock() -> None:
    settings = FakeSettings()
    assert (settings.sync_per_minute, settings.async_per_minute) == (60, 600)
    assert settings.rate_window_seconds == 60
    assert settings.max_concurrent_enrichments == 5
    assert settings.enrichment_seconds == (20.0, 40.0)
    assert settings.upstream_retry_after == 2
    assert settings.tier == "growth"
    # A 40-second enrichment takes a fraction of a second.
    assert settings.real_seconds(40) < 0.5
    assert settings.rate_window == pytest.approx(60 * settings.time_scale)


def test_real_time_scale() -> None:
    settings = FakeSettings(time_scale=1.0)
    assert settings.real_seconds(30) == 30.0
    assert settings.rate_window == 60.0


@pytest.mark.parametrize(
    ("field", "value", "allowed"),
    [
        ("time_scale", 0, "> 0"),
        ("time_scale", -1.0, "> 0"),
        ("time_scale", math.nan, "> 0"),
        ("time_scale", math.inf, "> 0"),
        ("time_scale", "fast", "> 0"),
        ("enrichment_seconds", (-1.0, 5.0), ">= 0"),
        ("enrichment_seconds", (40.0, 20.0), "min <= max"),
        ("enrichment_seconds", (1.0,), "(min, max)"),
        ("mobile_lookup_seconds", (5.0, 1.0), "min <= max"),
        ("queued_seconds", -0.5, ">= 0"),
        ("upstream_retry_after", -2, ">= 0"),
        ("rate_window_seconds", 0, "> 0"),
        ("callback_timeout", 0, "> 0"),
        ("sync_per_minute", 0, ">= 1"),
        ("async_per_minute", 1.5, ">= 1"),
        ("max_concurrent_enrichments", True, ">= 1"),
        ("monthly_leads", -1, ">= 0"),
        ("credits", -3, ">= 0"),
        ("mobile_credits", -1, ">= 0"),
        ("tier", "gold", "growth"),
        ("enrichment_fails", "domain.fail", "callable"),
        ("dedupe_emails", "lower", "'ignore_case', 'exact'"),
        ("list_order", "by_id", "'newest_first', 'oldest_first'"),
    ],
)
def test_invalid_settings_name_the_setting_and_what_is_allowed(field: str, value: Any, allowed: str) -> None:
    with pytest.raises(ValueError, match=re.escape(field)) as raised:
        FakeSettings(**{field: value})
    assert allowed in str(raised.value)


def test_unlimited_monthly_leads_is_allowed() -> None:
    assert FakeSettings(monthly_leads=None).monthly_leads is None


def test_server_overrides_apply_on_top_of_settings() -> None:
    server = FakeServer(FakeSettings(max_concurrent_enrichments=2), time_scale=1.0)
    assert server.settings.time_scale == 1.0
    assert server.settings.max_concurrent_enrichments == 2


def test_unknown_override_is_a_type_error_naming_it() -> None:
    with pytest.raises(TypeError, match="time_scael"):
        FakeServer(time_scael=1.0)


def test_invalid_override_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="time_scale"):
        FakeServer(time_scale=0)


def test_url_needs_a_running_server() -> None:
    server = FakeServer()
    with pytest.raises(RuntimeError, match="not running"):
        _ = server.url


def test_a_running_server_cannot_start_twice() -> None:
    with FakeServer() as server, pytest.raises(RuntimeError, match="already running"):
        server.start()


def test_add_key_rejects_bad_tiers_and_balances() -> None:
    server = FakeServer()
    with pytest.raises(ValueError, match="tier"):
        server.add_key("gold")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="credits"):
        server.add_key(credits=-1)
    with pytest.raises(ValueError, match="monthly_leads"):
        server.add_key(monthly_leads=-5)


def test_a_second_key_of_a_user_cannot_change_its_plan() -> None:
    server = FakeServer()
    with pytest.raises(ValueError, match="already exists"):
        server.add_key("scale", user="default")


def test_keys_carry_the_live_prefix_and_are_distinct() -> None:
    server = FakeServer()
    keys = {server.api_key, server.add_key(), server.add_key("scale"), server.add_key(user="default")}
    assert len(keys) == 4
    assert all(re.fullmatch(r"le_live_[0-9a-f]{32}", key) for key in keys)


def test_default_rules_and_their_trigger_values() -> None:
    settings = FakeSettings()
    assert settings.enrichment_fails(LeadIn(company="X", domain="x.fail"))
    assert settings.enrichment_fails(LeadIn(company="X", domain="x.INVALID"))
    assert not settings.enrichment_fails(LeadIn(company="X", domain="x.com"))

    nobody = EmailFindIn(first_name="Ann", last_name="Nobody", domain="x.com")
    landline = MobileFindIn(first_name="Ann", last_name="Landline", domain="x.com")
    assert not settings.email_found(nobody)
    assert not settings.email_found(EmailFindIn(linkedin_url="https://linkedin.com/in/nobody-1"))
    assert not settings.email_found(EmailFindIn(first_name="A", last_name="B", domain="x.invalid"))
    assert settings.email_found(EmailFindIn(first_name="Ann", last_name="Landline", domain="x.com"))
    assert not settings.mobile_found(MobileFindIn(first_name="Ann", last_name="Nobody", domain="x.com"))
    assert not settings.mobile_found(landline)
    assert settings.mobile_found(MobileFindIn(first_name="Ann", last_name="Lee", domain="x.com"))
