"""The commands that call the API, one function each. Imported only when one runs."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Generator
from contextlib import contextmanager
from typing import TypeVar, cast

from pydantic import BaseModel

from .. import (
    ClientSettings,
    InvalidRequestError,
    JobFailedError,
    LeadDict,
    LeadEnrich,
    LeadEnrichError,
    PersonQuery,
)
from . import _output
from ._exit_codes import CLIError, ExitCode
from ._messages import options_for_keywords, shell_advice

__all__ = [
    "client_settings",
    "connect",
    "email_find",
    "enrich",
    "health",
    "jobs_get",
    "leads_delete",
    "leads_get",
    "leads_list",
    "mobile_find",
    "mobile_get",
    "usage",
]

M = TypeVar("M", bound=BaseModel)

_LEAD_FIELDS = ("name", "email", "title", "company", "domain", "linkedin_url")
# The health check needs no key, but the client insists on one; it is never sent there.
_NO_KEY = "unused-by-health"


def connect(args: argparse.Namespace, *, needs_key: bool = True) -> LeadEnrich:
    """A client from the connection options; for an option not given (None), the SDK
    falls back on the environment or on its own default."""
    try:
        return LeadEnrich(**client_settings(args, needs_key=needs_key))
    except LeadEnrichError as exc:
        raise CLIError(shell_advice(str(exc))) from None


def client_settings(args: argparse.Namespace, *, needs_key: bool = True) -> ClientSettings:
    """The connection options given, for either client."""
    given = {
        "api_key": getattr(args, "api_key", None) if needs_key else _NO_KEY,
        "base_url": getattr(args, "base_url", None),
        "timeout": getattr(args, "timeout", None),
        "max_retries": getattr(args, "max_retries", None),
    }
    return cast("ClientSettings", {name: value for name, value in given.items() if value is not None})


def _show(args: argparse.Namespace, model: M, render: Callable[[M], str]) -> None:
    print(model.model_dump_json(indent=2) if args.json else render(model))


def _hint(args: argparse.Namespace, text: str) -> None:
    # Advice for people, on stderr: stdout stays the answer alone.
    if not args.json:
        print(text, file=sys.stderr)


def _person(args: argparse.Namespace) -> PersonQuery:
    # Each option is stored under its keyword's name (--first-name as first_name).
    return cast("PersonQuery", {name: getattr(args, name) for name in PersonQuery.__annotations__})


@contextmanager
def _search_options() -> Generator[None, None, None]:
    # The SDK checks the combination before sending anything; its message names keyword
    # arguments, which are options here.
    try:
        yield
    except InvalidRequestError as exc:
        raise CLIError(options_for_keywords(str(exc), list(PersonQuery.__annotations__))) from None


def enrich(args: argparse.Namespace) -> int:
    # The options are checked by the SDK when it validates the lead, as for any dict.
    lead = cast(
        "LeadDict", {name: value for name in _LEAD_FIELDS if (value := getattr(args, name)) is not None}
    )
    if args.callback_url is not None and (args.sync or args.wait):
        raise CLIError("--callback-url needs the default mode: leave out --sync and --wait")
    with connect(args) as client:
        if args.sync or args.wait:
            if args.sync:
                done = client.leads.enrich_sync(lead)
            else:
                done = client.leads.enrich_and_wait(
                    lead, timeout=args.wait_timeout, poll_interval=args.poll_interval
                )
            if args.quiet:
                print(done.id)
            else:
                _show(args, done, _output.lead)
        else:
            created = client.leads.enrich(lead, callback_url=args.callback_url)
            # As gh does: a script capturing stdout (J=$(leadenrich enrich ...)) gets the id
            # alone, a person at a terminal gets labelled lines.
            if args.quiet or (not args.json and not sys.stdout.isatty()):
                print(created.job_id)
            else:
                _show(args, created, _output.created_job)
            if not args.quiet:
                _hint(args, f"follow it with: leadenrich jobs get {created.job_id} --wait")
    return ExitCode.OK


def email_find(args: argparse.Namespace) -> int:
    with connect(args) as client, _search_options():
        _show(args, client.email.find(**_person(args)), _output.email)
    return ExitCode.OK


def mobile_find(args: argparse.Namespace) -> int:
    with connect(args) as client, _search_options():
        if args.wait:
            lookup = client.mobile.find_and_wait(
                **_person(args), timeout=args.wait_timeout, poll_interval=args.poll_interval
            )
        else:
            lookup = client.mobile.find(**_person(args))
    _show(args, lookup, _output.mobile)
    if not lookup.is_terminal:
        _hint(args, f"follow it with: leadenrich mobile get {lookup.lookup_id} --wait")
    return ExitCode.OK


def mobile_get(args: argparse.Namespace) -> int:
    with connect(args) as client:
        if args.wait:
            lookup = client.mobile.wait(
                args.lookup_id, timeout=args.wait_timeout, poll_interval=args.poll_interval
            )
        else:
            lookup = client.mobile.get(args.lookup_id)
    _show(args, lookup, _output.mobile)
    return ExitCode.OK


def usage(args: argparse.Namespace) -> int:
    with connect(args) as client:
        _show(args, client.usage(), _output.usage)
    return ExitCode.OK


def health(args: argparse.Namespace) -> int:
    with connect(args, needs_key=False) as client:
        _show(args, client.health(), _output.health)
    return ExitCode.OK


def jobs_get(args: argparse.Namespace) -> int:
    with connect(args) as client:
        if args.wait:
            job = client.jobs.wait(args.job_id, timeout=args.wait_timeout, poll_interval=args.poll_interval)
        else:
            job = client.jobs.get(args.job_id)
    _show(args, job, _output.job)
    if args.wait and job.status == "failed":
        raise JobFailedError(job)
    return ExitCode.OK


def leads_list(args: argparse.Namespace) -> int:
    with connect(args) as client:
        page = client.leads.list(limit=args.limit, skip=args.skip)
    _show(args, page, lambda page: _output.lead_page(page, args.skip))
    return ExitCode.OK


def leads_get(args: argparse.Namespace) -> int:
    with connect(args) as client:
        _show(args, client.leads.get(args.lead_id), _output.lead)
    return ExitCode.OK


def leads_delete(args: argparse.Namespace) -> int:
    with connect(args) as client:
        _show(args, client.leads.delete(args.lead_id), _output.deleted)
    return ExitCode.OK
