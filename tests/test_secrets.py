"""The API key never shows: not in repr, not in any exception's text, not in DEBUG logs,
not in what the fake server logs or prints, whichever way a request fails."""

from __future__ import annotations

import asyncio
import json
import logging
import traceback
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
import respx

from leadenrich import AsyncLeadEnrich, LeadEnrich, LeadEnrichError, RateLimits, ServiceClock, SharedBudget
from leadenrich.testing import FakeServer
from tests.helpers import USAGE, lead_out

SCALE = 0.005
CLOCK = ServiceClock(SCALE)
"""The SDK's clock, as fast as the fake server's."""
FAULTS: dict[str, Any] = {
    "server_error_rate": 0.15,
    "drop_before_rate": 0.15,
    "drop_after_rate": 0.15,
    "slow_rate": 0.1,
    "slow_seconds": 0.3,
    "malformed_rate": 0.15,
    "upstream_full_rate": 0.1,
}
LEAD = {"company": "Acme", "domain": "acme.com"}
PERSON = {"first_name": "Ada", "last_name": "Lovelace", "domain": "acme.com"}


def everything_at_debug(caplog: pytest.LogCaptureFixture) -> None:
    """Every log record at DEBUG: the SDK's, the fake server's, uvicorn's, anyone's.

    Called again once the servers run: uvicorn sets its loggers' levels as it starts.
    """
    caplog.set_level(logging.DEBUG)
    for name in (
        "leadenrich",
        "leadenrich.testing",
        "uvicorn",
        "uvicorn.error",
        "uvicorn.access",
        "uvicorn.asgi",
    ):
        caplog.set_level(logging.DEBUG, logger=name)


@pytest.fixture
def logs(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    everything_at_debug(caplog)
    return caplog


def text_of(error: BaseException) -> str:
    """What a user could ever read of an exception: str, repr, and the whole traceback."""
    return "\n".join([str(error), repr(error), *traceback.format_exception(error)])


class Errors:
    """Runs calls that are meant to fail, keeping the text of every LeadEnrichError."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.kinds: set[str] = set()

    def collect(self, error: LeadEnrichError) -> None:
        self.texts.append(text_of(error))
        self.kinds.add(type(error).__name__)

    def run(self, call: Callable[[], Any]) -> None:
        try:
            call()
        except LeadEnrichError as exc:
            self.collect(exc)

    async def arun(self, call: Callable[[], Any]) -> None:
        try:
            await call()
        except LeadEnrichError as exc:
            self.collect(exc)


def every_call(client: Any) -> list[Callable[[], Any]]:
    return [
        client.usage,
        lambda: client.leads.enrich(LEAD),
        lambda: client.leads.enrich_sync(LEAD),
        lambda: client.leads.enrich_and_wait({"company": "Doomed", "domain": "doomed.fail"}, poll_interval=1),
        lambda: client.leads.enrich_and_wait(LEAD, timeout=0.5),
        lambda: client.leads.list(limit=10_000),
        lambda: client.leads.get("ld_missing"),
        lambda: client.leads.delete("ld_missing"),
        lambda: client.leads.re_enrich("ld_missing"),
        lambda: client.jobs.get("job_missing"),
        lambda: client.jobs.wait("job_missing", timeout=1),
        lambda: client.email.find(**PERSON),
        lambda: client.email.find(first_name="Ada"),
        lambda: client.mobile.find(**PERSON),
        lambda: client.mobile.find_and_wait(**PERSON, timeout=0.5),
        lambda: client.mobile.get("mob_missing"),
    ]


def clients(faulty: FakeServer, clean: FakeServer, limited: FakeServer) -> dict[str, LeadEnrich]:
    """Clients that fail every documented way: a faulty server, and accounts it refuses."""
    paced = RateLimits(period=clean.settings.rate_window_seconds)
    options: dict[str, Any] = {"timeout": 0.1, "max_retries": 1, "rate_limits": paced}
    return {
        "faulty": LeadEnrich(faulty.api_key, base_url=faulty.url, **options, clock=CLOCK),
        "clean": LeadEnrich(clean.api_key, base_url=clean.url, **options, clock=CLOCK),
        "unknown key": LeadEnrich("le_live_" + "0" * 32, base_url=clean.url, **options, clock=CLOCK),
        "starter plan": LeadEnrich(clean.add_key("starter"), base_url=clean.url, **options, clock=CLOCK),
        "no quota": LeadEnrich(
            clean.add_key(monthly_leads=0, mobile_credits=0), base_url=clean.url, **options, clock=CLOCK
        ),
        "unreachable": LeadEnrich(clean.api_key, base_url="http://127.0.0.1:9", **options, clock=CLOCK),
        # Unpaced and never retried: the server's per-key limit answers 429.
        "rate limited": LeadEnrich(
            limited.api_key, base_url=limited.url, max_retries=0, rate_limits=None, clock=CLOCK
        ),
    }


def assert_nowhere(keys: list[str], *texts: str) -> None:
    for key in keys:
        secret = key.removeprefix("le_live_")
        for text in texts:
            assert key not in text
            assert secret not in text


def test_no_key_in_any_error_log_or_print_sync(
    logs: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    errors = Errors()
    with (
        FakeServer(time_scale=SCALE, fault_seed=5, **FAULTS) as faulty,
        FakeServer(time_scale=SCALE) as clean,
        # A 5-second window in real time: the per-key 429 comes however slow the machine.
        FakeServer(time_scale=SCALE, rate_window_seconds=5 / SCALE) as limited,
    ):
        everything_at_debug(logs)
        made = clients(faulty, clean, limited)
        keys = [client._options.api_key for client in made.values()]
        for name, client in made.items():
            for call in every_call(client):
                for _ in range(3 if name == "faulty" else 1):
                    errors.run(call)
            checkpoint = tmp_path / f"{len(errors.texts)}.jsonl"
            rows = [LEAD, {"company": "B", "domain": "b.fail"}]
            result = client.leads.enrich_many(rows, checkpoint=checkpoint, progress=False)
            for outcome in result.errors:
                assert outcome.error is not None
                errors.collect(outcome.error)
            assert_nowhere(keys, checkpoint.read_text(), json.dumps(result.to_records(), default=str))
            if name == "rate limited":
                # After the bulk run, which would otherwise wait out the 5-second window.
                for _ in range(limited.settings.sync_per_minute + 5):
                    errors.run(client.usage)
            assert_nowhere(keys, repr(client), repr(client.with_options(max_retries=3)))
            client.close()
        assert_nowhere(keys, repr(faulty), repr(faulty.settings))
    printed = capfd.readouterr()
    assert_nowhere(keys, *errors.texts, logs.text, printed.out, printed.err)
    # It failed every way there is, and the logs did record the requests.
    assert {
        "APIConnectionError",
        "APITimeoutError",
        "APIResponseValidationError",
        "AuthenticationError",
        "InternalServerError",
        "InvalidRequestError",
        "JobFailedError",
        "NotFoundError",
        "PermissionDeniedError",
        "PollTimeoutError",
        "QuotaExceededError",
        "RateLimitError",
        "UnprocessableEntityError",
    } <= errors.kinds
    assert any(r.name == "leadenrich" and r.levelno == logging.DEBUG for r in logs.records)
    assert any(r.name == "leadenrich" and r.levelno == logging.INFO for r in logs.records), "retries logged"


def test_no_key_in_any_error_or_log_async(
    logs: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str]
) -> None:
    errors = Errors()

    async def main(server: FakeServer) -> list[str]:
        paced = RateLimits(period=server.settings.rate_window_seconds)
        keys = [server.api_key, "le_live_" + "1" * 32]
        for key in keys:
            async with AsyncLeadEnrich(
                key, base_url=server.url, timeout=0.1, max_retries=1, rate_limits=paced, clock=CLOCK
            ) as client:
                assert_nowhere(keys, repr(client))
                for call in every_call(client):
                    for _ in range(3):
                        await errors.arun(call)
        return keys

    with FakeServer(time_scale=SCALE, fault_seed=6, **FAULTS) as server:
        everything_at_debug(logs)
        keys = asyncio.run(main(server))
    printed = capfd.readouterr()
    assert_nowhere(keys, *errors.texts, logs.text, printed.out, printed.err)
    assert {
        "APIConnectionError",
        "AuthenticationError",
        "InternalServerError",
        "NotFoundError",
    } <= errors.kinds


def test_a_key_the_service_echoes_back_is_masked(logs: pytest.LogCaptureFixture) -> None:
    # A service (or a proxy in front of it) that repeats the Authorization header in its
    # answer: the SDK's messages show *** instead.
    key = "le_live_" + "e" * 32

    def echo(request: httpx.Request) -> httpx.Response:
        header = request.headers.get("authorization", "")
        if request.url.path.endswith("/usage"):
            return httpx.Response(401, json={"detail": f"invalid key in {header!r}"})
        if request.url.path.endswith("/jobs/job_1"):
            return httpx.Response(502, text=f"<html>upstream refused {header}</html>")
        if request.url.path.endswith("/leads/ld_1"):
            return httpx.Response(
                422, json={"detail": [{"loc": ["header", header], "msg": header, "type": "x"}]}
            )
        return httpx.Response(200, json=lead_out(message=header))

    errors = Errors()
    with httpx.Client(transport=httpx.MockTransport(echo)) as http:
        client = LeadEnrich(key, base_url="https://api.test", http_client=http, max_retries=0, clock=CLOCK)
        errors.run(client.usage)
        errors.run(lambda: client.jobs.get("job_1"))
        errors.run(lambda: client.leads.get("ld_1"))
    assert len(errors.texts) == 3
    assert_nowhere([key], *errors.texts, logs.text)
    assert all("***" in text for text in errors.texts)


@pytest.mark.parametrize(
    "url",
    [
        "redis://:hunter2@127.0.0.1:{port}/0",
        "redis://ops:hunter2@127.0.0.1:{port}/0",
        # redis-py reads a password from the query as well.
        "redis://127.0.0.1:{port}/0?db=0&password=hunter2",
        "rediss://ops:hunter2@127.0.0.1:{port}/0?password=hunter2",
    ],
)
def test_a_redis_password_is_in_no_repr_log_record_or_error(
    url: str, closed_port: int, logs: pytest.LogCaptureFixture
) -> None:
    # docs/scaling.md: "never in a repr or a log record". Redis is away: the local budget
    # logs a warning and goes on, the "raise" budget raises; each names the URL.
    address = url.format(port=closed_port)
    local = SharedBudget(address, timeout=0.2, recheck=3600)
    limits = RateLimits(shared=local)
    with respx.mock(base_url="https://api.test/api/v1") as api:
        api.get("/usage").respond(200, json=USAGE)
        with LeadEnrich("le_live_" + "k" * 32, base_url="https://api.test", rate_limits=limits) as client:
            client.usage()
            shown = [repr(local), repr(limits), repr(client.rate_limits), str(limits)]
        (warning,) = [r.getMessage() for r in logs.records if r.levelno >= logging.WARNING]
        assert "did not answer" in warning
        with pytest.raises(LeadEnrichError, match="did not answer") as raised:
            LeadEnrich(
                "le_live_" + "k" * 32,
                base_url="https://api.test",
                rate_limits=RateLimits(shared=replace(local, on_failure="raise")),
            ).usage()
    assert_nowhere(["hunter2"], *shown, warning, text_of(raised.value), logs.text)
    assert all("***" in text for text in [*shown, warning, str(raised.value)])
