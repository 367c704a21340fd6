"""The `mcp` command's options. Standard library only, like the rest of the parser."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, Protocol

__all__ = ["DEFAULT_MAX_CREDITS", "add_mcp_command"]

DEFAULT_MAX_CREDITS = 10
"""What the server may charge in its life unless told otherwise: a handful of leads."""


class _NewCommand(Protocol):
    # The parser's own way to add a command with the connection options.
    def __call__(
        self, commands: Any, name: str, summary: str, description: str | None = None
    ) -> argparse.ArgumentParser: ...


def add_mcp_command(commands: Any, new_command: _NewCommand, *, time_scale: Callable[[str], float]) -> None:
    """Add `mcp` with the parser's `new_command` (the connection options come with it) and
    its check of a time scale (fake-server's)."""
    command = new_command(
        commands,
        "mcp",
        "serve the API as tools for AI agents (Model Context Protocol)",
        "Serve the Lead Enrichment API as tools for AI agents over the Model Context Protocol, "
        "on stdio (what desktop hosts start) or streamable HTTP. Needs the `mcp` extra: "
        "pip install 'leadenrich[mcp]'. Every charging call is checked against a spending cap "
        "for the server's life (--max-credits) before anything is sent.",
    )
    command.add_argument(
        "--max-credits",
        type=_cap,
        default=DEFAULT_MAX_CREDITS,
        metavar="N",
        help="credits the server may charge in its life, all kinds together, or 'none' for no cap "
        "(default: %(default)s)",
    )
    command.add_argument(
        "--confirm-above",
        type=_confirm,
        default=1,
        metavar="N",
        help="ask the person first (where the host can ask) before a call that may charge more than "
        "N credits; 0 asks before every charging call, 'never' never asks (default: %(default)s)",
    )
    command.add_argument(
        "--transport",
        choices=("stdio", "http"),
        default="stdio",
        help="stdio (default), or streamable HTTP on --host and --port at /mcp",
    )
    command.add_argument("--host", default="127.0.0.1", help="with --transport http (default: %(default)s)")
    command.add_argument(
        "--port", type=_port, default=8000, help="with --transport http (default: %(default)s)"
    )
    command.add_argument(
        "--fake",
        action="store_true",
        help="serve against the bundled fake server (needs the `fake` extra too): no key needed",
    )
    command.add_argument(
        "--time-scale",
        type=time_scale,
        default=0.1,
        metavar="X",
        help="with --fake: the fake's durations times X (default: %(default)s, a 30 s enrichment in 3 s)",
    )
    command.set_defaults(command="mcp")


def _whole(value: str, words: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number or {words}: {value!r}") from None
    if number < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, or {words}, got {number}")
    return number


def _cap(value: str) -> int | None:
    return None if value.strip().lower() == "none" else _whole(value, "'none'")


def _confirm(value: str) -> int | None:
    return None if value.strip().lower() == "never" else _whole(value, "'never'")


def _port(value: str) -> int:
    port = _whole(value, "a port")
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1 to 65535, got {port}")
    return port
