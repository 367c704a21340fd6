"""The `leadenrich` command: fast help, clear errors, and `fake-server` until Ctrl-C."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator

import httpx
import pytest

from leadenrich._cli import main

CLI = [sys.executable, "-m", "leadenrich._cli"]


def test_help_imports_no_web_stack() -> None:
    code = (
        "import sys\n"
        "from leadenrich._cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit as exit:\n    assert exit.code == 0\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(result.stdout.split())
    assert "fake-server" in result.stdout
    assert not {"fastapi", "uvicorn", "starlette", "pydantic", "httpx"} & loaded


@pytest.fixture
def without_fastapi(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if the fake extra were not installed."""
    monkeypatch.setitem(sys.modules, "fastapi", None)  # `import fastapi` now fails
    for module in ("leadenrich.testing._app", "leadenrich.testing._thread"):
        monkeypatch.delitem(sys.modules, module, raising=False)


@pytest.mark.usefixtures("without_fastapi")
def test_without_the_fake_extra_the_server_says_how_to_install_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from leadenrich.testing import FakeServer

    with pytest.raises(ModuleNotFoundError, match=r"needs fastapi, .*pip install 'leadenrich\[fake\]'$"):
        FakeServer().start()
    handler = signal.getsignal(signal.SIGINT)
    assert main(["fake-server"]) == 1
    assert signal.getsignal(signal.SIGINT) is handler  # Ctrl-C still reaches the caller
    err = capsys.readouterr().err
    assert err.startswith("leadenrich: error: the fake server needs fastapi")
    assert len(err.splitlines()) == 1


def test_no_command_prints_help_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "fake-server" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["fake-server", "--port", "70000"], "0 to 65535"),
        (["fake-server", "--port", "http"], "not a port"),
        (["fake-server", "--time-scale", "soon"], "argument --time-scale: not a number: 'soon'"),
        (["fake-server", "--time-scale", "0"], "argument --time-scale: must be a number > 0"),
        (["fake-server", "--time-scale", "-1"], "argument --time-scale: must be a number > 0"),
    ],
)
def test_bad_arguments_exit_2(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.startswith("leadenrich: error: ")
    assert len(err.splitlines()) == 1


def test_a_busy_port_is_one_line_naming_it(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        handler = signal.getsignal(signal.SIGINT)
        assert main(["fake-server", "--port", str(port)]) == 1
    assert signal.getsignal(signal.SIGINT) is handler
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"leadenrich: error: cannot listen on 127.0.0.1:{port}: address already in use; "
        "choose another --port, or 0 for a free one\n"
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--tier", "gold"], "--tier must be one of free, starter, growth, scale, enterprise; got 'gold'"),
        (
            ["--open", "list_shape=flat"],
            "--open list_shape=flat: list_shape is one of items, bare, leads, data, results",
        ),
        (
            ["--open", "colour=blue"],
            "--open colour=blue: no open point 'colour'; the points and their values: job_admission: queue, upstream_full; ",
        ),
    ],
)
def test_a_wrong_account_or_open_point_exits_2_before_serving(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["fake-server", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"leadenrich: error: {message}")
    assert len(captured.err.splitlines()) == 1


def serve(*flags: str) -> Iterator[tuple[subprocess.Popen[str], str, str]]:
    """`leadenrich fake-server` with `flags`, running; its URL and ready key."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [*CLI, "fake-server", "--time-scale", "0.01", *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    lines: list[str] = []
    for line in process.stdout:
        lines.append(line)
        if line.startswith("Press Ctrl-C"):
            break
    text = "".join(lines)
    url = re.search(r"running at (http://127\.0\.0\.1:\d+)", text)
    key = re.search(r"API key \(\w+\): (le_live_\w+)", text)
    assert url, text
    assert key, text
    assert f"export LEADENRICH_BASE_URL={url[1]}" in text
    assert f"export LEADENRICH_API_KEY={key[1]}" in text
    try:
        yield process, url[1], key[1]
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=10)


@pytest.fixture
def served() -> Iterator[tuple[subprocess.Popen[str], str, str]]:
    yield from serve()


def test_fake_server_takes_an_account_and_open_points_from_the_shell() -> None:
    # A 402 and a bare list to try from a shell; a 403 from --tier starter, the same way.
    flags = (
        "--tier",
        "scale",
        "--monthly-leads",
        "0",
        "--open",
        "list_shape=bare",
        "--open",
        "list-order=oldest_first",
    )
    for process, url, key in serve(*flags):
        with httpx.Client(base_url=url + "/api/v1", trust_env=False, verify=False) as http:
            auth = {"Authorization": f"Bearer {key}"}
            usage = http.get("/usage", headers=auth).json()
            assert (usage["tier"], usage["monthly_leads"]["effective_limit"]) == ("scale", 0)
            refused = http.post(
                "/leads/enrich", json={"lead": {"company": "Acme", "domain": "acme.com"}}, headers=auth
            )
            assert refused.status_code == 402
            assert http.get("/leads", headers=auth).json() == []
        process.send_signal(signal.SIGTERM)


@pytest.mark.parametrize(("stop", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 0)])
def test_fake_server_serves_until_interrupted(
    served: tuple[subprocess.Popen[str], str, str], stop: int, code: int
) -> None:
    process, url, key = served
    with httpx.Client(base_url=url + "/api/v1", trust_env=False, verify=False) as http:
        assert http.get("/health").json() == {"status": "ok", "version": "1.0.0"}
        usage = http.get("/usage", headers={"Authorization": f"Bearer {key}"})
    assert usage.status_code == 200
    assert usage.json()["tier"] == "growth"
    process.send_signal(stop)
    out, err = process.communicate(timeout=10)
    assert process.returncode == code  # Ctrl-C is an interruption, as the exit-code table says
    assert "stopped" in out
    assert "Traceback" not in err
