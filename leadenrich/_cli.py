"""The `leadenrich` command line.

Start-up time matters for `leadenrich --help`: this module imports only the standard
library; each subcommand imports what it needs when it runs.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from types import FrameType

__all__ = ["main"]

Handler = Callable[[argparse.Namespace], int]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return 2
    return handler(args)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="leadenrich", description="Tools of the leadenrich SDK for the Lead Enrichment API v1."
    )
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    # One function per subcommand configures its parser and sets its handler.
    _fake_server_command(
        commands.add_parser(
            "fake-server",
            help="serve the fake Lead Enrichment API until Ctrl-C",
            description=(
                "Serve the bundled fake of the Lead Enrichment API v1 (needs the `fake` extra: "
                "pip install 'leadenrich[fake]'). Prints the base URL and a ready Growth API key."
            ),
        )
    )
    return parser


def _fake_server_command(command: argparse.ArgumentParser) -> None:
    command.add_argument("--host", default="127.0.0.1", help="address to listen on (default: %(default)s)")
    command.add_argument(
        "--port", type=_port, default=0, help="port to listen on; 0 picks a free one (default)"
    )
    command.add_argument(
        "--time-scale",
        type=float,
        default=1.0,
        metavar="X",
        help="multiply every duration by X: 1.0 is real time (default), 0.01 makes a 30 s enrichment take 0.3 s",
    )
    command.set_defaults(handler=_fake_server)


def _port(value: str) -> int:
    try:
        port = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {value!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, got {port}")
    return port


def _fake_server(args: argparse.Namespace) -> int:
    try:
        from .testing import FakeServer
    except ImportError as exc:
        return _fail(f"{exc}; install the fake extra: pip install 'leadenrich[fake]'")
    try:
        server = FakeServer(host=args.host, port=args.port, time_scale=args.time_scale)
    except ValueError as exc:
        return _fail(str(exc), status=2)

    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    try:
        server.start()
    except ImportError as exc:
        return _fail(f"{exc}; install the fake extra: pip install 'leadenrich[fake]'")
    except RuntimeError as exc:
        return _fail(str(exc))
    try:
        _announce(server.url, server.api_key, server.settings.tier, args.time_scale)
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
        f"\n"
        f"API docs: {url}/docs   OpenAPI: {url}/openapi.json\n"
        f"Press Ctrl-C to stop.",
        flush=True,
    )


def _fail(message: str, *, status: int = 1) -> int:
    print(f"leadenrich: error: {message}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
