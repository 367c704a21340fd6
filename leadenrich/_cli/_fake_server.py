"""`leadenrich fake-server`: serve the bundled fake API until Ctrl-C or SIGTERM."""

from __future__ import annotations

import argparse
import re
import signal
import socket
import sys
import threading
from types import FrameType
from typing import TYPE_CHECKING, Any

from ._exit_codes import ExitCode
from ._messages import one_line

if TYPE_CHECKING:
    from ..testing import FakeServer

__all__ = ["fake_server"]


def fake_server(args: argparse.Namespace) -> int:
    from ..testing import FakeServer

    try:
        settings = _settings(args)
        server = FakeServer(host=args.host, port=args.port, **settings)
    except ValueError as exc:
        # FakeSettings names its fields; here they are options: FakeSettings.tier is --tier.
        return _fail(
            re.sub(r"FakeSettings\.(\w+)", lambda m: "--" + m[1].replace("_", "-"), str(exc)), status=2
        )
    busy = _cannot_listen(args.host, args.port)
    if busy is not None:
        return _fail(busy)

    stop = threading.Event()
    signals: list[int] = []

    def on_signal(signum: int, frame: FrameType | None) -> None:
        signals.append(signum)
        stop.set()

    # Put back when done: main() also runs in-process (tests, embedding), where a handler
    # left behind would swallow the caller's Ctrl-C.
    previous = signal.signal(signal.SIGINT, on_signal), signal.signal(signal.SIGTERM, on_signal)
    try:
        _serve(server, stop, args.time_scale)
    except RuntimeError as exc:
        return _fail(str(exc))
    except ModuleNotFoundError as exc:  # without the fake extra; the message says how to add it
        return _fail(str(exc))
    finally:
        signal.signal(signal.SIGINT, previous[0])
        signal.signal(signal.SIGTERM, previous[1])
    # Ctrl-C is an interruption (130, as the exit-code table says); SIGTERM is how a
    # service manager or a script stops a server it started: a clean stop.
    return ExitCode.INTERRUPTED if signal.SIGINT in signals else ExitCode.OK


def _settings(args: argparse.Namespace) -> dict[str, Any]:
    """The FakeSettings the options ask for; ValueError, in the options' words, for a wrong one."""
    from ..testing import FakeSettings

    settings: dict[str, Any] = {"time_scale": args.time_scale, "tier": args.tier}
    for name in ("monthly_leads", "credits", "mobile_credits"):
        if getattr(args, name) is not None:
            settings[name] = getattr(args, name)
    points = FakeSettings.open_points()
    listed = "; ".join(f"{name}: {', '.join(values)}" for name, values in points.items())
    for given in args.open:
        name, _, value = given.partition("=")
        name = name.strip().replace("-", "_")
        if name not in points:
            raise ValueError(f"--open {given}: no open point {name!r}; the points and their values: {listed}")
        if value.strip() not in points[name]:
            raise ValueError(f"--open {given}: {name} is one of {', '.join(points[name])}")
        settings[name] = value.strip()
    return settings


def _cannot_listen(host: str, port: int) -> str | None:
    """Why the server could not listen on host:port, found before uvicorn logs it in its own words."""
    if port == 0:
        return None
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        with socket.socket(family, kind, proto) as probe:
            # As uvicorn does: a port left in TIME_WAIT is usable, one being listened on is not.
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        return f"cannot listen on {host}:{port}: {reason.lower()}; choose another --port, or 0 for a free one"
    return None


def _serve(server: FakeServer, stop: threading.Event, time_scale: float) -> None:
    server.start()
    try:
        _announce(server.url, server.api_key, server.settings.tier, time_scale)
        # A timed wait: a wait without timeout cannot be interrupted on Windows.
        while not stop.wait(0.5):
            continue
    finally:
        # A second Ctrl-C while stopping must not end in a traceback.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        server.stop()
    print("leadenrich fake server stopped.", flush=True)


def _announce(url: str, api_key: str, tier: str, time_scale: float) -> None:
    print(
        f"leadenrich fake server running at {url} (time scale {time_scale:g})\n"
        f"API key ({tier}): {api_key}\n"
        f"\n"
        f"  export LEADENRICH_BASE_URL={url}\n"
        f"  export LEADENRICH_API_KEY={api_key}\n"
        f"  export LEADENRICH_TIME_SCALE={time_scale:g}   # the SDK waits as fast as this server runs\n"
        f"\n"
        f"API docs: {url}/docs   OpenAPI: {url}/openapi.json\n"
        f"Press Ctrl-C to stop.",
        flush=True,
    )


def _fail(message: str, *, status: int = 1) -> int:
    print(f"leadenrich: error: {one_line(message)}", file=sys.stderr)
    return status
