"""`leadenrich mcp`: the MCP server, on a client made from the connection options or on
the bundled fake server. Imported only when the command runs; the server itself needs
the `mcp` extra, which this module names when it is missing."""

from __future__ import annotations

import argparse
import functools
import signal
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from .. import AsyncLeadEnrich, LeadEnrichError
from ._commands import client_settings
from ._exit_codes import CLIError, ExitCode
from ._messages import shell_advice

if TYPE_CHECKING:
    from types import FrameType

    from .._mcp import ServerState

__all__ = ["mcp"]

INSTALL = "pip install 'leadenrich[mcp]'"


def mcp(args: argparse.Namespace) -> int:
    try:
        import anyio

        from .._mcp import CreditCap, ServerState, serve
    except ModuleNotFoundError as exc:
        if (exc.name or "").partition(".")[0] not in ("mcp", "anyio"):
            raise
        raise CLIError(
            f"`leadenrich mcp` needs the mcp extra, which is not installed: {INSTALL}", ExitCode.ERROR
        ) from None
    if args.fake and (args.api_key or args.base_url):
        raise CLIError(
            "--fake serves the bundled fake server with its own key: leave out --api-key and --base-url"
        )
    with ExitStack() as stack:
        checkpoints = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="leadenrich-mcp-")))
        client = _fake_client(args, stack) if args.fake else _client(args)
        state = ServerState(
            client=client,
            cap=CreditCap(args.max_credits),
            confirm_above=args.confirm_above,
            checkpoints=checkpoints,
        )
        _announce(args, state)
        previous = signal.signal(signal.SIGINT, _interrupt)
        try:
            anyio.run(functools.partial(serve, state, args.transport, host=args.host, port=args.port))
        finally:
            signal.signal(signal.SIGINT, previous)
    return ExitCode.OK


def _interrupt(signum: int, frame: FrameType | None) -> NoReturn:
    """Ctrl-C: KeyboardInterrupt where the program is, which main() reports as 130.

    Over HTTP, uvicorn takes the Ctrl-C, stops the server, and raises it again as the
    server returns, under the handler it found. That must be this one: a SIGINT ignored
    at start (a command a shell starts in the background) was ignored again, and the
    command exited 0; Python's own handler is one asyncio's runner replaces with one that
    only cancels the main task, which a task about to end may never see."""
    raise KeyboardInterrupt


def _client(args: argparse.Namespace) -> AsyncLeadEnrich:
    try:
        return AsyncLeadEnrich(**client_settings(args))
    except LeadEnrichError as exc:
        raise CLIError(shell_advice(str(exc))) from None


def _fake_client(args: argparse.Namespace, stack: ExitStack) -> AsyncLeadEnrich:
    from ..testing import FakeServer, async_client_for

    fake = stack.enter_context(FakeServer(time_scale=args.time_scale))
    settings = client_settings(args)
    settings.pop("api_key", None)
    return async_client_for(fake, **settings)


def _announce(args: argparse.Namespace, state: ServerState) -> None:
    # On stderr: over stdio, stdout is the protocol's.
    cap = "no cap" if state.cap.limit is None else f"a cap of {state.cap.limit} credits"
    where = "stdio" if args.transport == "stdio" else f"http://{args.host}:{args.port}/mcp"
    fake = " against the bundled fake server" if args.fake else ""
    print(f"leadenrich mcp: serving on {where}{fake}, with {cap}", file=sys.stderr, flush=True)
