"""A per-key budget shared through a real Redis by many processes."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import multiprocessing
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
import respx

from leadenrich import (
    AsyncLeadEnrich,
    InvalidRequestError,
    LeadDict,
    LeadEnrich,
    LeadEnrichError,
    PollTimeoutError,
    RateLimits,
    ServiceClock,
    SharedBudget,
)
from leadenrich._ratelimit import Pacer
from leadenrich._redis_pacing import SharedPacing
from leadenrich.testing import FakeServer, ManualClock
from tests.conftest import BASE, KEY
from tests.helpers import call, max_in_window, usage_sent_at
from tests.redis_server import LateAnswers, RedisServer
from tests.shared_budget_workers import book_places, hold_enrichment_slots, paced_calls

# Worker processes forked from a server process that has imported the SDK and the workers
# once, not spawned: each spawned worker imported them anew, 0.36 s of CPU apiece. A fork of
# the test process itself is not safe, as the fake server's thread runs in it.
PROCESSES = multiprocessing.get_context("forkserver")
PROCESSES.set_forkserver_preload(["tests.shared_budget_workers"])
REAL = ServiceClock()
"""The pacers below run on the real clock: Redis counts real seconds."""
LEAD: LeadDict = {"company": "Acme", "domain": "acme.com"}


def test_a_url_is_a_shared_budget_and_its_password_never_shows() -> None:
    limits = RateLimits(shared="redis://:hunter2@cache:6379/0")
    assert limits.shared == SharedBudget("redis://:hunter2@cache:6379/0")
    assert "hunter2" not in repr(limits)
    assert "***" in repr(limits)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"url": "http://cache:6379"}, "must start with redis://"),
        ({"url": "redis://c", "on_failure": "ignore"}, "'local' or 'raise'"),
        ({"url": "redis://c", "timeout": 0}, "SharedBudget.timeout must be a number of seconds > 0"),
        ({"url": "redis://c", "lease": -1}, "SharedBudget.lease"),
        ({"url": "redis://c", "prefix": ""}, "prefix must be a non-empty str"),
    ],
)
def test_bad_settings_are_refused_with_what_to_do(options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidRequestError, match=message):
        SharedBudget(**options)


def test_shared_must_be_a_url_or_a_shared_budget() -> None:
    with pytest.raises(TypeError, match="Redis URL, a SharedBudget or None, got int"):
        RateLimits(shared=6379)  # type: ignore[arg-type]


def test_import_leadenrich_does_not_import_redis() -> None:
    code = (
        "import sys, leadenrich\n"
        "leadenrich.LeadEnrich('k', base_url='https://api.test', "
        "rate_limits=leadenrich.RateLimits(shared='redis://127.0.0.1:1/0'))\n"
        "assert 'redis' not in sys.modules, sorted(m for m in sys.modules if m.startswith('redis'))\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("cls", [LeadEnrich, AsyncLeadEnrich])
def test_a_shared_budget_without_redis_py_says_how_to_install_it_when_the_client_is_made(
    cls: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "redis", None)  # as if redis-py were not installed
    limits = RateLimits(shared="redis://127.0.0.1:1/0")
    with pytest.raises(ModuleNotFoundError) as missing:
        cls("k", base_url="https://api.test", rate_limits=limits)
    message = str(missing.value)
    assert message == (
        'RateLimits(shared=...) needs redis-py, which the redis extra installs: pip install "leadenrich[redis]"'
    )
    assert missing.value.name == "redis"
    assert missing.value.__cause__ is None
    assert missing.value.__context__ is None


def test_redis_keys_are_a_hash_of_the_api_key(redis_url: str) -> None:
    import redis

    key = "le_live_secret_key_0123456789"
    pacer = Pacer(RateLimits(shared=redis_url), REAL, key)
    pacer.reserve("sync")
    assert pacer.slots.acquire(timeout=1)
    pacer.slots.release()
    with redis.Redis.from_url(redis_url, decode_responses=True) as client:
        names = sorted(str(name) for name in client.keys("*"))
    digest = hashlib.sha256(key.encode()).hexdigest()[:32]
    # The slot's lease is gone; its token is remembered as given back.
    assert names == [f"leadenrich:{digest}:given_back", f"leadenrich:{digest}:sync"]
    assert not any(key in name or "secret" in name for name in names)
    pacer.close()


def test_the_shared_window_books_like_the_local_one(redis_url: str) -> None:
    limits = RateLimits(sync_per_minute=5, period=1.0)
    local = Pacer(limits, REAL, "k")
    shared = Pacer(replace(limits, shared=redis_url), REAL, "k")
    expected = [local.reserve("sync") for _ in range(12)]
    got = [shared.reserve("sync") for _ in range(12)]
    assert expected[:5] == [0.0] * 5
    assert got == pytest.approx(expected, abs=0.05)
    shared.close()


def test_a_slot_released_by_an_async_client_is_free_at_once_elsewhere(redis_url: str) -> None:
    # A 60 s lease: only the release itself can free the slot in time.
    limits = RateLimits(concurrent_enrichments=1, shared=SharedBudget(redis_url, lease=60))
    async_side, sync_side = Pacer(limits, REAL, "k"), Pacer(limits, REAL, "k")

    async def hold_then_release() -> None:
        assert await async_side.async_slots.acquire()
        assert not sync_side.slots.acquire(timeout=0.05)
        async_side.async_slots.release()
        await async_side.aclose()

    asyncio.run(hold_then_release())
    assert sync_side.slots.acquire(timeout=5)
    sync_side.slots.release()
    sync_side.close()


def test_an_interrupt_as_redis_grants_a_slot_gives_its_lease_back(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ctrl-C landing as the lease was granted: the slot is not kept, and neither is the
    # lease, which would otherwise hold the slot from every process for its 60 s.
    limits = RateLimits(concurrent_enrichments=1, shared=SharedBudget(redis_url, lease=60))
    interrupted, other = Pacer(limits, REAL, "interrupted"), Pacer(limits, REAL, "interrupted")
    granting = SharedPacing.try_acquire

    def granted_then_interrupted(self: SharedPacing, token: str) -> bool | None:
        assert granting(self, token)
        raise KeyboardInterrupt

    monkeypatch.setattr(SharedPacing, "try_acquire", granted_then_interrupted)
    with pytest.raises(KeyboardInterrupt):
        interrupted.slots.acquire(timeout=5)
    monkeypatch.undo()
    assert other.slots.acquire(timeout=10)
    other.slots.release()
    for pacer in (interrupted, other):
        pacer.close()


def test_an_async_client_books_in_redis_from_one_event_loop_after_another(
    redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    # A script that runs one asyncio.run() per command, on one client: Redis's
    # connections belong to the loop that opened them.
    import redis

    pacer = Pacer(RateLimits(sync_per_minute=100, concurrent_enrichments=1, shared=redis_url), REAL, "loops")

    async def book() -> None:
        for _ in range(3):
            assert await pacer.areserve("sync") == 0.0
        assert await pacer.async_slots.acquire()
        pacer.async_slots.release()

    with caplog.at_level(logging.WARNING, logger="leadenrich"):
        for _ in range(3):
            asyncio.run(book())
    digest = hashlib.sha256(b"loops").hexdigest()[:32]
    with redis.Redis.from_url(redis_url) as client:
        assert client.llen(f"leadenrich:{digest}:sync") == 9
    assert _warnings(caplog) == []
    pacer.close()


def test_with_options_copies_book_in_the_same_redis_window(
    redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    import redis

    with FakeServer() as server:
        limits = replace(server.rate_limits, sync_per_minute=3, shared=redis_url)
        with LeadEnrich(server.api_key, base_url=server.url, rate_limits=limits) as client:
            with client.with_options(max_retries=0) as copy:
                copy.usage()
            # Closing the copy left the original's connection to Redis open.
            client.usage()
            client.with_options(timeout=10).usage()
            with redis.Redis.from_url(redis_url) as direct:
                (key,) = direct.keys("*:sync")
                assert direct.llen(key) == 3
        assert _warnings(caplog) == []
        assert server.state.status_counts(server.api_key) == {200: 3}


def _run(target: Any, processes: int, *args: Any) -> list[Any]:
    """Run `processes` workers, all let go at once by one event; what each one put out."""
    go = PROCESSES.Event()
    out = PROCESSES.Queue()
    workers = [PROCESSES.Process(target=target, args=(*args, go, out)) for _ in range(processes)]
    for worker in workers:
        worker.start()
    go.set()
    results = [out.get(timeout=120) for _ in workers]
    for worker in workers:
        worker.join(30)
        assert worker.exitcode == 0
    return results


def test_processes_booking_at_once_never_book_more_than_the_limit_in_any_window(redis_url: str) -> None:
    # The exact property, free of how fast this machine delivers requests: 4 processes book
    # 15 places each, all at once, in one 10-a-window budget. Only booked, never waited
    # for, so the window can be long: its 12 s of margin dwarf any booking's round trip.
    limits = RateLimits(sync_per_minute=10, period=600, shared=SharedBudget(redis_url, on_failure="raise"))
    booked = sorted(place for places in _run(book_places, 4, limits, 15) for place in places)
    assert len(booked) == 60
    # Any 11 places in a row span more than the service's window, however the bounds fall.
    assert all(later[0] - earlier[1] >= 600 for earlier, later in zip(booked, booked[10:], strict=False))
    # ...and no further apart than the client's window (612.05 s) needs: 60 places fill 6
    # windows, so the last is 5 windows after the first (plus the time taken to book).
    assert booked[-1][1] - booked[0][0] < 5 * 612.1 + 10


def _paced_calls(
    kind: str, server: FakeServer, limits: RateLimits, max_retries: int
) -> tuple[int, dict[int, int]]:
    """4 processes x 30 calls on a 60-a-window key, all started at once: the 429s the
    workers were left with, and the statuses the server answered."""
    args = (kind, server.url, server.api_key, limits, 30, max_retries)
    limited = sum(_run(paced_calls, 4, *args))
    return limited, server.state.status_counts(server.api_key)


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_four_processes_on_one_key_share_its_budget(redis_url: str, kind: str) -> None:
    # Real time: a burst of 60 reaches the server spread over however long this machine
    # takes to deliver it, so a rare 429 is possible at the window's edge; what holds on
    # any machine is that every call succeeds once (the exact booking is checked above).
    with FakeServer(time_scale=0.04) as server:
        limits = replace(server.rate_limits, shared=SharedBudget(redis_url))
        limited, counts = _paced_calls(kind, server, limits, max_retries=2)
        assert limited == 0
        assert counts[200] == 120


def test_without_the_shared_budget_the_same_processes_meet_429s() -> None:
    # The control of the tests above: each process paces only itself, so the 120 calls
    # all go in the first window and at least 60 are refused.
    with FakeServer(time_scale=0.04) as server:
        limited, counts = _paced_calls("sync", server, server.rate_limits, max_retries=0)
        assert limited == counts[429] >= 60
        assert counts[200] + counts[429] == 120


@pytest.mark.parametrize("cls", [LeadEnrich, AsyncLeadEnrich])
def test_a_killed_worker_frees_its_enrichment_slots_within_its_lease(redis_url: str, cls: Any) -> None:
    # A live worker renews its leases every third of one; a dead one's run out within a
    # lease. Both are read from the leases in Redis, on Redis's clock. The refusal is asked
    # for while the holder's leases are seen to be good for longer than the asking takes,
    # so a holder that this busy machine leaves without the CPU for a moment cannot run
    # one out in the middle (it did once with a wait of 1.5 leases of 1 s). Redis is given
    # 5 s to answer: a later answer sends a client to local pacing, which has free slots.
    # Leases of 6 s: a holder left without the CPU for 3 s (a fresh clone's suite at a load
    # of 14) let its leases of 3 s run out, and the refusal asked for meanwhile was not.
    lease = 6.0
    # Jobs run 20 s (4000 s scaled): the holder keeps its 5 slots until it is killed. The
    # platform here runs more than 5 at once, so what waits is the client, not the server.
    with FakeServer(enrichment_seconds=(4000.0, 4000.0), max_concurrent_enrichments=10) as server:
        limits = replace(
            server.rate_limits,
            concurrent_enrichments=5,
            shared=SharedBudget(redis_url, lease=lease, timeout=5.0),
        )
        holder = PROCESSES.Process(target=hold_enrichment_slots, args=(server.url, server.api_key, limits))
        holder.start()
        try:
            assert server.state.wait_until(lambda: len(server.state.jobs()) == 5, 60)
            taken = _slot_leases(redis_url, server.api_key)
            assert len(taken) == 5
            assert _eventually(lambda: _renewed(taken, _slot_leases(redis_url, server.api_key)), 5 * lease), (
                "the live holder did not renew its leases"
            )
            busy_message = "all 5 enrichment slots of every client sharing this key's budget stayed busy"
            with pytest.raises(PollTimeoutError, match=f"{busy_message}.*nothing was sent") as busy:
                _enrich_and_wait(cls, server, limits, timeout=lease / 3)
            assert busy.value.last is None
            assert len(server.state.jobs()) == 5
        finally:
            holder.kill()
            holder.join(10)
        # Nothing renews the holder's leases now: within a lease a slot is had, a job
        # created and polled (it runs past the timeout).
        with pytest.raises(PollTimeoutError) as waited:
            _enrich_and_wait(cls, server, limits, timeout=1.5 * lease)
        assert waited.value.last is not None
        assert len(server.state.jobs()) == 6


def _slot_leases(redis_url: str, api_key: str) -> dict[str, float]:
    """The enrichment slot leases taken in Redis: token -> when it runs out (Redis's clock)."""
    import redis

    digest = hashlib.sha256(api_key.encode()).hexdigest()[:32]
    with redis.Redis.from_url(redis_url, decode_responses=True) as client:
        leases = client.zrange(f"leadenrich:{digest}:slots", 0, -1, withscores=True)
    return {str(token): float(ends) for token, ends in leases}


def _renewed(before: dict[str, float], now: dict[str, float]) -> bool:
    return all(now.get(token, ends) > ends for token, ends in before.items())


def _eventually(predicate: Callable[[], bool], timeout: float) -> bool:
    """Whether `predicate()` became true within `timeout` real seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)  # the poll interval: Redis does not tell of a renewal
    return True


def _enrich_and_wait(cls: Any, server: FakeServer, limits: RateLimits, timeout: float) -> None:
    # On the server's clock, so the polls come at its pace: the window and the deadline,
    # given in real seconds, are counted in its seconds.
    clock = server.clock
    options: dict[str, Any] = {
        "rate_limits": replace(limits, period=limits.period / clock.scale),
        "clock": clock,
    }
    timeout /= clock.scale
    if cls is LeadEnrich:
        with LeadEnrich(server.api_key, base_url=server.url, **options) as client:
            client.leads.enrich_and_wait(LEAD, timeout=timeout)
        return

    async def main() -> None:
        async with AsyncLeadEnrich(server.api_key, base_url=server.url, **options) as client:
            await client.leads.enrich_and_wait(LEAD, timeout=timeout)

    asyncio.run(main())


def _usage_calls(cls: Any, server: FakeServer, limits: RateLimits, calls: int) -> None:
    if cls is LeadEnrich:
        with LeadEnrich(server.api_key, base_url=server.url, rate_limits=limits, max_retries=0) as client:
            for _ in range(calls):
                client.usage()
        return

    async def main() -> None:
        async with AsyncLeadEnrich(
            server.api_key, base_url=server.url, rate_limits=limits, max_retries=0
        ) as c:
            for _ in range(calls):
                await c.usage()

    asyncio.run(main())


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "leadenrich" and r.levelno >= logging.WARNING]


@pytest.mark.parametrize("cls", [LeadEnrich, AsyncLeadEnrich])
def test_redis_stopped_mid_run_paces_locally_with_one_warning_until_it_is_back(
    own_redis: RedisServer, cls: Any, caplog: pytest.LogCaptureFixture
) -> None:
    import redis

    caplog.set_level(logging.INFO, logger="leadenrich")
    with FakeServer() as server:
        # recheck=0: every request asks Redis again, and still only one warning is logged.
        limits = replace(server.rate_limits, shared=SharedBudget(own_redis.url, timeout=0.2, recheck=0.0))
        _usage_calls(cls, server, limits, 10)
        own_redis.stop()
        _usage_calls(cls, server, limits, 10)
        _enrich_and_wait(cls, server, limits, timeout=60)  # the slots fall back to local ones
        own_redis.start()
        _usage_calls(cls, server, limits, 10)
        # Nothing lost, nothing sent twice, no 429; one warning for the whole process.
        counts = server.state.status_counts(server.api_key)
        assert set(counts) == {200, 202}
        assert counts[202] == 1
        assert len(server.state.jobs()) == 1
        assert server.state.jobs()[0].status == "done"
        (warning,) = _warnings(caplog)
        assert "did not answer" in warning
        assert own_redis.url in warning
        # Back, Redis books the places again (in a window of its own: it came back empty).
        assert f"the shared budget at {own_redis.url} answers again" in caplog.messages
        with redis.Redis.from_url(own_redis.url) as client:
            (key,) = client.keys("*:sync")
            assert client.llen(key) == 10


@pytest.mark.parametrize("cls", [LeadEnrich, AsyncLeadEnrich])
def test_a_frozen_redis_costs_one_timeout_then_local_pacing_until_recheck(
    own_redis: RedisServer, cls: Any, caplog: pytest.LogCaptureFixture
) -> None:
    import redis

    with FakeServer() as server:
        limits = replace(server.rate_limits, shared=SharedBudget(own_redis.url, timeout=0.2, recheck=3600))
        _usage_calls(cls, server, limits, 3)
        own_redis.pause()
        try:
            _usage_calls(cls, server, limits, 3)
        finally:
            own_redis.resume()
        assert server.state.status_counts(server.api_key) == {200: 6}
        assert len(_warnings(caplog)) == 1
        with redis.Redis.from_url(own_redis.url) as client:
            client.flushall()
            # Within `recheck` of the failure, clients of this budget leave Redis alone...
            _usage_calls(cls, server, limits, 1)
            assert client.keys("*") == []
            # ...and a budget that rechecks at once books there again.
            again = replace(server.rate_limits, shared=SharedBudget(own_redis.url, timeout=0.2, recheck=0))
            _usage_calls(cls, server, again, 1)
            assert len(client.keys("*:sync")) == 1


@pytest.mark.parametrize("cls", [LeadEnrich, AsyncLeadEnrich])
def test_on_failure_raise_sends_nothing_when_redis_is_away(own_redis: RedisServer, cls: Any) -> None:
    with FakeServer() as server:
        limits = replace(
            server.rate_limits, shared=SharedBudget(own_redis.url, timeout=0.2, on_failure="raise")
        )
        own_redis.stop()
        with pytest.raises(LeadEnrichError, match=r"did not answer .*nothing was sent"):
            _usage_calls(cls, server, limits, 1)
        assert server.state.status_counts(server.api_key) == {}


def _break(redis_server: RedisServer, fault: str) -> None:
    if fault == "restarted":
        redis_server.stop()
    elif fault == "frozen":
        redis_server.pause()
    else:
        import redis

        with redis.Redis.from_url(redis_server.url) as client:
            client.flushall()


def _mend(redis_server: RedisServer, fault: str) -> None:
    if fault == "restarted":
        redis_server.start()  # empty: it keeps nothing on disk
    elif fault == "frozen":
        redis_server.resume()


@pytest.mark.anyio
@pytest.mark.parametrize("fault", ["restarted", "flushed", "frozen"])
@pytest.mark.parametrize("cls", [LeadEnrich, AsyncLeadEnrich])
async def test_a_client_never_sends_more_than_the_limit_in_a_window_whatever_redis_does(
    own_redis: RedisServer, api: respx.MockRouter, clock: ManualClock, cls: Any, fault: str
) -> None:
    # The exact property, read on the client's ManualClock, whose waits end at once while
    # Redis counts its real seconds: Redis's answers and the client's time disagree, as
    # they do after any fault. What holds the client to the limit is its own window, which
    # records every place it takes: 5 sends before Redis is stopped (flushed, frozen),
    # 5 while it is, 5 after it is back.
    sent_at = usage_sent_at(api, clock)
    # recheck=0: every request asks Redis, so each one meets the fault and the recovery.
    budget = SharedBudget(own_redis.url, timeout=0.25, recheck=0)
    client = cls(KEY, base_url=BASE, clock=clock, rate_limits=RateLimits(sync_per_minute=5, shared=budget))
    for step in (_break, _mend, None):
        for _ in range(5):
            await call(client.usage())
        if step is not None:
            step(own_redis, fault)
    await call(client.aclose() if cls is AsyncLeadEnrich else client.close())
    assert len(sent_at) == 15
    assert max_in_window(sent_at, 60.0) <= 5


def test_redis_back_from_an_outage_counts_the_places_taken_without_it(own_redis: RedisServer) -> None:
    # One process books 3 places while Redis is stopped, then one more once it is back:
    # Redis (restarted empty) learns of the 3, so another process gets the 1 place left
    # in that window, not 5. Only booked, never waited for: the 600 s window dwarfs any
    # booking's round trip.
    # Redis gets 5 s to answer: only the stop may send a booking to local pacing.
    budget = SharedBudget(own_redis.url, timeout=5.0, recheck=0)
    limits = RateLimits(sync_per_minute=5, period=600, shared=budget)
    first, second = Pacer(limits, REAL, "k"), Pacer(limits, REAL, "k")

    def place(pacer: Pacer) -> float:
        wait = pacer.reserve("sync")
        assert wait is not None
        return REAL.now() + wait

    own_redis.stop()
    places = [place(first) for _ in range(3)]
    own_redis.start()
    places.append(place(first))
    places += [place(second) for _ in range(5)]
    for pacer in (first, second):
        pacer.close()
    assert max_in_window(places, 600) == 5
    # The second process's last 4 wait a window (612.05 s: the client's window) after
    # the first 4 places, taken within the time this test ran.
    assert min(places[-4:]) >= max(places[:4]) + 600


def test_a_token_given_back_before_its_acquire_arrives_is_never_granted(redis_url: str) -> None:
    # The give-back of an unanswered ACQUIRE may reach Redis first (another connection,
    # another route): the ACQUIRE that comes after must not take the slot for its lease.
    pacing = SharedPacing(SharedBudget(redis_url, lease=60), "k", {}, slots=1)
    assert pacing.drop(["late"])
    assert pacing.try_acquire("late") is False
    assert pacing.try_acquire("another") is True
    pacing.close()


@pytest.mark.parametrize(
    ("kind", "fault"),
    # Not an async client and a frozen Redis: redis-py's asyncio client resets a connection
    # whose answer timed out, and a frozen Redis drops the command unread. Over a network,
    # a command already read runs all the same, which is what the late answers play.
    [("sync", "frozen"), ("sync", "late answers"), ("async", "late answers")],
)
def test_a_lease_whose_grant_went_unanswered_is_given_back(
    own_redis: RedisServer, kind: str, fault: str
) -> None:
    # Redis runs a client's ACQUIRE, but the answer comes after the client stopped waiting
    # and went on with a local slot (frozen by SIGSTOP, Redis runs it only when it wakes).
    # The lease granted would keep the key's only slot from every other process for its
    # 60 s; the client gives it back by its token. The other process's Redis is allowed
    # 5 s to answer: it never goes local, so its slot is one taken in Redis.
    with LateAnswers(own_redis) as relay:
        url = relay.url if fault == "late answers" else own_redis.url
        # 1 s to answer: what Redis takes on a busy machine, which the client waits out
        # once, frozen, and each give-back it tries after.
        budget = SharedBudget(url, lease=60, timeout=1.0, recheck=0)
        limits = RateLimits(concurrent_enrichments=1, shared=budget)
        asking = Pacer(limits, REAL, "k")
        other = Pacer(replace(limits, shared=SharedBudget(own_redis.url, lease=60, timeout=5.0)), REAL, "k")

        def stop_answering() -> None:
            relay.hold() if fault == "late answers" else own_redis.pause()

        def answer_again() -> None:
            relay.release() if fault == "late answers" else own_redis.resume()

        def other_takes_the_slot() -> None:
            assert other.slots.acquire(timeout=30)
            assert len(_slot_leases(own_redis.url, "k")) == 1
            other.slots.release()
            other.close()

        async def asynchronously() -> None:
            # Connected first, so the ACQUIRE itself is what goes unanswered.
            assert await asking.async_slots.acquire()
            asking.async_slots.release()
            stop_answering()
            try:
                assert await asking.async_slots.acquire()
            finally:
                answer_again()
            await asyncio.to_thread(other_takes_the_slot)
            asking.async_slots.release()
            await asking.aclose()

        if kind == "async":
            asyncio.run(asynchronously())
            return
        assert asking.slots.acquire(timeout=10)
        asking.slots.release()
        stop_answering()
        try:
            assert asking.slots.acquire(timeout=10)
        finally:
            answer_again()
        other_takes_the_slot()
        asking.slots.release()
        asking.close()
