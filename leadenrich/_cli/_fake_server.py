"""`leadenrich fake-server`: serve the bundled fake API until Ctrl-C or SIGTERM."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from types import FrameType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..testing import FakeServer

__all__ = ["fake_server"]


def fake_server(args: argparse.Namespace) -> int:
    from ..testing import FakeServer

    try:
        server = FakeServer(host=args.host, port=args.port, time_scale=args.time_scale)
    except ValueError as exc:
        return _fail(str(exc), status=2)

    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    # Put back when done: main() also runs in-process (tests, embedding), where a handler
    # left behind would swallow the caller's Ctrl-C.
    previous = signal.signal(signal.SIGINT, on_signal), signal.signal(signal.SIGTERM, on_signal)
    try:
        return _serve(server, stop, args.time_scale)
    finally:
        signal.signal(signal.SIGINT, previous[0])
        signal.signal(signal.SIGTERM, previous[1])


def _serve(server: FakeServer, stop: threading.Event, time_scale: float) -> int:
    try:
        server.start()
    except ModuleNotFoundError as exc:  # without the fake extra; the message says how to add it
        return _fail(str(exc))
    except RuntimeError as exc:
        return _fail(str(exc))
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
    return 0


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
    print(f"leadenrich: error: {message}", file=sys.stderr)
    return status
