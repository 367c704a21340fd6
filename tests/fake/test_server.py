"""The runner: a real port, quick start and stop, isolation, latency, and light imports."""

from __future__ import annotations

import inspect
import statistics
import subprocess
import sys
import time

import httpx
import pytest

from leadenrich.testing import FakeServer, async_client_for, client_for
from tests.helpers import MakeServer, api_client, lead


def test_url_is_the_base_without_the_api_prefix() -> None:
    with FakeServer() as server:
        assert server.url.startswith("http://127.0.0.1:")
        assert not server.url.endswith("/api/v1")
        assert server.api_url == server.url + "/api/v1"
        assert server.running
        assert str(server.settings.time_scale) in repr(server)
        with httpx.Client(trust_env=False, verify=False) as http:
            assert http.get(server.api_url + "/health").status_code == 200
        url = server.url
    assert not server.running
    with httpx.Client(trust_env=False, verify=False) as http, pytest.raises(httpx.ConnectError):
        http.get(url + "/api/v1/health")


def test_start_and_stop_without_a_context_manager() -> None:
    server = FakeServer().start()
    try:
        with api_client(server) as http:
            assert http.get("/usage").status_code == 200
    finally:
        server.stop()
    server.stop()  # stopping twice is harmless


@pytest.mark.anyio
async def test_async_with_starts_and_stops_it() -> None:
    async with FakeServer() as server, async_client_for(server) as client:
        assert server.running
        assert (await client.usage()).tier == "growth"
    assert not server.running


def test_a_mistyped_client_setting_is_refused(server: FakeServer) -> None:
    with pytest.raises(TypeError, match="timeot"):
        client_for(server, timeot=5)  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
    # help() and Jupyter show the settings it takes, and which the server gives.
    shown = inspect.signature(async_client_for)
    assert list(shown.parameters)[:3] == ["server", "api_key", "base_url"]
    assert repr(shown.parameters["api_key"].default) == "<the server's>"
    assert shown.parameters["max_retries"].default == 2


def test_servers_are_independent() -> None:
    with FakeServer() as first, FakeServer() as second:
        assert first.url != second.url
        assert first.api_key != second.api_key
        with api_client(first, second.api_key) as http:
            assert http.get("/usage").status_code == 401


def test_a_taken_port_is_a_clear_error(server: FakeServer) -> None:
    port = int(server.url.rsplit(":", 1)[1])
    with pytest.raises(RuntimeError, match="did not start"):
        FakeServer(port=port).start()


def test_start_and_stop_take_milliseconds() -> None:
    FakeServer().start().stop()  # the first start imports fastapi and uvicorn
    started = time.monotonic()
    for _ in range(5):
        with FakeServer():
            pass
    assert (time.monotonic() - started) / 5 < 0.1


def test_loopback_requests_do_not_pay_the_40ms_delay(server: FakeServer, http: httpx.Client) -> None:
    http.get("/usage")
    timings = []
    for _ in range(15):
        started = time.perf_counter()
        http.post("/email/find", json={"first_name": "A", "last_name": "Nobody", "domain": "x.com"})
        timings.append(time.perf_counter() - started)
    assert statistics.median(timings) < 0.02


def test_stopping_cancels_running_work_and_refunds_it(make_server: MakeServer) -> None:
    server = make_server(enrichment_seconds=(1000.0, 1000.0))
    with api_client(server) as http:
        job_id = http.post("/leads/enrich", json={"lead": lead()}).json()["job_id"]
    assert server.state.wait_until(lambda: server.state.jobs()[0].status == "running")
    assert server.state.charged("enrichment") == 1
    started = time.monotonic()
    server.stop()
    assert time.monotonic() - started < 2
    [job] = server.state.jobs()
    assert (job.job_id, job.status) == (job_id, "failed")
    assert job.error is not None
    assert job.error["code"] == "server_stopped"
    assert server.state.charged("enrichment") == 0
    assert server.state.in_flight == 0


def test_unknown_paths_are_404_and_wrong_methods_405(http: httpx.Client) -> None:
    assert http.get("/nothing").status_code == 404
    assert http.put("/usage").status_code == 405


def _modules_after(statement: str) -> set[str]:
    code = f"import sys; {statement}; print(' '.join(sorted(sys.modules)))"
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return set(output.split())


def test_importing_the_testing_package_does_not_load_the_web_stack() -> None:
    loaded = _modules_after("from leadenrich.testing import FakeServer, FakeSettings")
    assert not {"fastapi", "uvicorn", "starlette"} & loaded


def test_importing_the_pytest_plugin_loads_nothing_heavy() -> None:
    loaded = _modules_after("import leadenrich.testing.pytest_plugin")
    assert not {"fastapi", "uvicorn", "starlette", "pydantic", "httpx", "leadenrich.testing._server"} & loaded
