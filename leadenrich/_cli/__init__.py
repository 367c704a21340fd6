"""The `leadenrich` command line.

Start-up time matters for `leadenrich --help`: building the parser needs only the
standard library, and a command imports the SDK (httpx, pydantic) when it runs.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from importlib import import_module

from ._exit_codes import CLIError, ExitCode, classify, codes_asked, status
from ._messages import one_line, remember_secrets
from ._parser import build_parser

__all__ = ["main"]

Handler = Callable[[argparse.Namespace], int]

# Where each command's handler lives; the module is imported when the command runs.
_HANDLERS: dict[str, tuple[str, str]] = {
    "enrich": ("._commands", "enrich"),
    "enrich-file": ("._enrich_file", "enrich_file"),
    "preview": ("._preview", "preview"),
    "email.find": ("._commands", "email_find"),
    "mobile.find": ("._commands", "mobile_find"),
    "mobile.get": ("._commands", "mobile_get"),
    "usage": ("._commands", "usage"),
    "health": ("._commands", "health"),
    "jobs.get": ("._commands", "jobs_get"),
    "leads.list": ("._commands", "leads_list"),
    "leads.get": ("._commands", "leads_get"),
    "leads.delete": ("._commands", "leads_delete"),
    "fake-server": ("._fake_server", "fake_server"),
    "mcp": ("._mcp", "mcp"),
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    remember_secrets(arguments, os.environ.get("LEADENRICH_API_KEY"))
    parser = build_parser()
    args = parser.parse_args(arguments)
    try:
        codes_asked()  # a bad setting fails before anything is sent
    except CLIError as exc:
        return _report(exc)
    command: str | None = getattr(args, "command", None)
    if command is None:
        parser.print_help(sys.stderr)
        return ExitCode.USAGE
    return _run(command, args)


def _run(command: str, args: argparse.Namespace) -> int:
    module, name = _HANDLERS[command]
    try:
        handler: Handler = getattr(import_module(module, __name__), name)
        return handler(args)
    except KeyboardInterrupt:
        return _report(CLIError("interrupted", ExitCode.INTERRUPTED))
    except BrokenPipeError:
        # The reader (`| head`) went away: nothing left to say, and nowhere to say it.
        _silence_stdout()
        return ExitCode.ERROR
    except Exception as exc:
        return _report(exc)


def _report(exc: BaseException) -> int:
    code, message = classify(exc)
    label = "leadenrich" if code is ExitCode.INTERRUPTED else "leadenrich: error"
    print(f"{label}: {one_line(message)}", file=sys.stderr, flush=True)
    exit_status, note = status(exc, code)
    if note is not None:
        print(f"leadenrich: note: {note}", file=sys.stderr, flush=True)
    return exit_status


def _silence_stdout() -> None:
    # Python flushes stdout once more at exit, which would fail on the closed pipe again.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        return
