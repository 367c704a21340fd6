"""The argument parser. Standard library only, so that `leadenrich --help` stays fast.

Each command names its handler (`command=...`); the handlers live in modules that import
the SDK, and are imported only when their command runs.
"""

from __future__ import annotations

import argparse
from typing import Any, NoReturn, Protocol

from .. import __version__
from ._exit_codes import EXIT_CODES
from ._mcp_options import add_mcp_command
from ._messages import redact

__all__ = ["build_parser"]


class _Commands(Protocol):
    # What add_subparsers() returns, without naming argparse's private class.
    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...


_EPILOG = """\
environment:
  LEADENRICH_API_KEY   the API key, when --api-key is not given (preferred: a key on the
                       command line shows in the shell history and process list)
  LEADENRICH_BASE_URL  the service's address, when --base-url is not given

exit codes:
{codes}

An error is one line on stderr starting "leadenrich: error:"; the key is never printed.
The documentation's command-line page has each exit code in full.
Try it without a key: `leadenrich fake-server` prints what to export.
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # One line, like every other error, with where to read the usage.
        self.exit(2, f"leadenrich: error: {redact(message)}; see '{self.prog} --help'\n")


def build_parser() -> argparse.ArgumentParser:
    codes = "\n".join(f"  {int(code):<4} {text}" for code, text in EXIT_CODES)
    parser = _Parser(
        prog="leadenrich",
        description="Enrich leads and find emails and mobile numbers with the Lead Enrichment API v1.",
        epilog=_EPILOG.format(codes=codes),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        parents=[_connection_options(suppress=False)],
    )
    parser.add_argument("--version", action="version", version=f"leadenrich {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    _enrich(commands)
    _enrich_file(commands)
    _preview(commands)
    _email(commands)
    _mobile(commands)
    _simple(commands, "usage", "this month's quota, credits and request counts")
    _simple(commands, "health", "check that the service is up (needs no API key)")
    _jobs(commands)
    _leads(commands)
    _fake_server(commands)
    add_mcp_command(commands, _command, time_scale=_time_scale)
    return parser


def _connection_options(*, suppress: bool) -> argparse.ArgumentParser:
    # Accepted before and after the command. A command's copy defaults to SUPPRESS so that
    # it never overwrites a value given before the command with None.
    parent = argparse.ArgumentParser(add_help=False)
    group = parent.add_argument_group("connection options")
    default = argparse.SUPPRESS if suppress else None
    group.add_argument(
        "--api-key", metavar="KEY", default=default, help="API key (default: $LEADENRICH_API_KEY)"
    )
    group.add_argument(
        "--base-url",
        metavar="URL",
        default=default,
        help="the service's address (default: $LEADENRICH_BASE_URL)",
    )
    group.add_argument(
        "--timeout",
        type=_positive_float,
        metavar="SECONDS",
        default=default,
        help="seconds to wait for each answer (default: 30; a synchronous enrichment gets at least 100)",
    )
    group.add_argument(
        "--max-retries",
        type=_count,
        metavar="N",
        default=default,
        help="retries of rate-limited or failed requests (default: 2; 0 reports a 429 at once)",
    )
    return parent


def _command(
    commands: _Commands, name: str, summary: str, description: str | None = None
) -> argparse.ArgumentParser:
    return commands.add_parser(
        name,
        help=summary,
        description=description or summary[0].upper() + summary[1:] + ".",
        parents=[_connection_options(suppress=True)],
    )


def _json_option(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--json", action="store_true", help="print the answer as JSON instead of readable lines"
    )


def _wait_options(command: argparse.ArgumentParser, what: str, wait_flag: bool = True) -> None:
    if wait_flag:
        command.add_argument("--wait", action="store_true", help=f"poll until the {what} has finished")
    command.add_argument(
        "--wait-timeout",
        type=_positive_float,
        default=300.0,
        metavar="SECONDS",
        help=f"with --wait: give up after SECONDS (default: %(default)g); the {what} goes on",
    )
    command.add_argument(
        "--poll-interval",
        type=_positive_float,
        metavar="SECONDS",
        help=(
            "with --wait: the pause between polls, every one (default: the SDK's schedule: a "
            "job started by this command is first looked at 1 s old, then by its age; "
            "anything else at pauses growing from 1 s)"
        ),
    )


def _person_options(command: argparse.ArgumentParser) -> None:
    group = command.add_argument_group(
        "who", "either --linkedin-url alone, or --first-name and --last-name with --company-name or --domain"
    )
    group.add_argument("--linkedin-url", metavar="URL", help="the person's profile URL")
    group.add_argument("--first-name", metavar="NAME")
    group.add_argument("--last-name", metavar="NAME")
    group.add_argument("--company-name", metavar="NAME", help="the company the person works for")
    group.add_argument("--domain", metavar="DOMAIN", help="the company's bare domain, such as acme.com")


def _enrich(commands: _Commands) -> None:
    command = _command(
        commands,
        "enrich",
        "enrich one lead",
        "Enrich one lead. By default this starts an asynchronous job and prints its id "
        "(follow it with `leadenrich jobs get ID --wait`): just the id when the output is not "
        "a terminal, so that J=$(leadenrich enrich ...) captures it; --sync waits in one request "
        "(typically 20-40 s) and --wait starts a job and polls it. One enrichment credit is "
        "spent, none when the contact's email is already known (the stored lead is returned).",
    )
    lead = command.add_argument_group("the lead")
    lead.add_argument("--company", required=True, help="company name (required)")
    lead.add_argument("--domain", required=True, help="company domain, bare: acme.com (required)")
    lead.add_argument("--name", help="the contact's full name")
    lead.add_argument("--email", help="the contact's email (a known email returns the stored lead, free)")
    lead.add_argument("--title", help="the contact's job title")
    lead.add_argument("--linkedin-url", metavar="URL", help="the contact's profile URL")
    mode = command.add_mutually_exclusive_group()
    mode.add_argument("--sync", action="store_true", help="enrich in one blocking request")
    mode.add_argument("--wait", action="store_true", help="start a job and poll it until it has finished")
    command.add_argument(
        "--callback-url",
        metavar="URL",
        help="without --sync or --wait: where the service POSTs the finished job",
    )
    _wait_options(command, "job", wait_flag=False)
    output = command.add_mutually_exclusive_group()
    output.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="print only the id: of the job, or with --sync or --wait of the lead",
    )
    output.add_argument(
        "--json", action="store_true", help="print the answer as JSON instead of readable lines"
    )
    command.set_defaults(command="enrich")


def _enrich_file(commands: _Commands) -> None:
    command = _command(
        commands,
        "enrich-file",
        "enrich every lead of a CSV file",
        "Enrich every lead of a CSV file and write the results as CSV or JSON Lines. The "
        "columns are named like the lead's fields (company and domain required; name, email, "
        "title, linkedin_url); other columns are ignored and empty cells are missing values. "
        "Every finished lead is saved to a checkpoint file as it completes: running the same "
        "command again skips the leads already enriched, so they are never paid for twice. "
        "Ctrl-C lets the leads in flight finish (they are paid for) before it stops. Exits 1 "
        "when a lead failed or was not started, 7 when the service is out of reach, 9 when the "
        "estimate says the credits left do not cover the run (nothing is sent); the output file "
        "is written whenever a lead was sent.",
    )
    command.add_argument("input", metavar="INPUT.csv", help="the leads, one per row, with a header row")
    command.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="OUTPUT",
        help="where to write the results: a .csv file, or a .jsonl file (one JSON record per line)",
    )
    command.add_argument(
        "--concurrency",
        type=_positive_int,
        default=5,
        metavar="N",
        help="leads in flight at once (default: %(default)s, the platform's limit)",
    )
    command.add_argument(
        "--max-credits",
        type=_credits,
        metavar="N",
        help=(
            "start no new lead once N credits could be spent, or 'auto': once the credits the "
            "account has left are spent; the rest are reported as not started"
        ),
    )
    command.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="the resume file (default: OUTPUT.checkpoint.jsonl, next to the output); delete it to start over",
    )
    command.add_argument(
        "--no-estimate",
        action="store_true",
        help="start at once, without first printing what the run may charge (as `leadenrich preview` does)",
    )
    command.set_defaults(command="enrich-file")


def _preview(commands: _Commands) -> None:
    command = _command(
        commands,
        "preview",
        "show what enrich-file would charge for a CSV file, charging nothing",
        "Show what `enrich-file` would charge for a CSV file (the same columns), and whether the "
        "account can pay, without enriching anything: the rows it would refuse, the rows that "
        "repeat an earlier row, the rows done in the checkpoint, and the rows whose email the "
        "account already has (the service returns those free) are counted apart from the rows "
        "to enrich, one credit each at most. It reads the account's usage and its stored leads. "
        "Exits 0 when the credits left cover the run, 9 when they do not.",
    )
    command.add_argument("input", metavar="INPUT.csv", help="the leads, one per row, with a header row")
    command.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="the checkpoint the run will use (enrich-file's default: OUTPUT.checkpoint.jsonl)",
    )
    command.add_argument(
        "--max-stored",
        type=_count,
        metavar="N",
        help="read at most N of the account's stored leads to find known emails (default: 10000)",
    )
    _json_option(command)
    command.set_defaults(command="preview")


def _email(commands: _Commands) -> None:
    group = commands.add_parser("email", help="work-email discovery", description="Work-email discovery.")
    actions = group.add_subparsers(title="actions", metavar="ACTION", required=True)
    find = _command(
        actions,
        "find",
        "find a person's work email",
        "Find a person's work email. One enrichment credit is spent on a hit, none on a miss.",
    )
    _person_options(find)
    _json_option(find)
    find.set_defaults(command="email.find")


def _mobile(commands: _Commands) -> None:
    group = commands.add_parser("mobile", help="mobile-number lookups", description="Mobile-number lookups.")
    actions = group.add_subparsers(title="actions", metavar="ACTION", required=True)
    find = _command(
        actions,
        "find",
        "start a mobile-number lookup",
        "Start a mobile-number lookup; it is pending for a while (--wait polls it). One mobile "
        "credit is spent when a number is found, none otherwise.",
    )
    _person_options(find)
    _wait_options(find, "lookup")
    _json_option(find)
    find.set_defaults(command="mobile.find")
    get = _command(actions, "get", "show a mobile lookup")
    get.add_argument("lookup_id", metavar="ID", help="the lookup id printed by `mobile find`")
    _wait_options(get, "lookup")
    _json_option(get)
    get.set_defaults(command="mobile.get")


def _simple(commands: _Commands, name: str, summary: str) -> None:
    command = _command(commands, name, summary)
    _json_option(command)
    command.set_defaults(command=name)


def _jobs(commands: _Commands) -> None:
    group = commands.add_parser("jobs", help="enrichment jobs", description="Asynchronous enrichment jobs.")
    actions = group.add_subparsers(title="actions", metavar="ACTION", required=True)
    get = _command(
        actions,
        "get",
        "show an enrichment job",
        "Show an enrichment job and, once it is done, its lead. With --wait, a job that ends failed "
        "exits 8, one still running when --wait-timeout runs out 10.",
    )
    get.add_argument("job_id", metavar="ID", help="the job id printed by `enrich`")
    _wait_options(get, "job")
    _json_option(get)
    get.set_defaults(command="jobs.get")


def _leads(commands: _Commands) -> None:
    group = commands.add_parser("leads", help="stored leads", description="The account's enriched leads.")
    actions = group.add_subparsers(title="actions", metavar="ACTION", required=True)
    listing = _command(actions, "list", "list stored leads, in the service's order")
    listing.add_argument(
        "--limit", type=_positive_int, default=50, metavar="N", help="leads per page (default: %(default)s)"
    )
    listing.add_argument(
        "--skip", type=_count, default=0, metavar="N", help="leads to skip first (default: %(default)s)"
    )
    _json_option(listing)
    listing.set_defaults(command="leads.list")
    get = _command(actions, "get", "show a stored lead")
    get.add_argument("lead_id", metavar="ID")
    _json_option(get)
    get.set_defaults(command="leads.get")
    delete = _command(actions, "delete", "delete a stored lead")
    delete.add_argument("lead_id", metavar="ID")
    _json_option(delete)
    delete.set_defaults(command="leads.delete")


def _fake_server(commands: _Commands) -> None:
    command = commands.add_parser(
        "fake-server",
        help="serve the fake Lead Enrichment API until Ctrl-C",
        description=(
            "Serve the bundled fake of the Lead Enrichment API v1 (needs the `fake` extra: "
            "pip install 'leadenrich[fake]'). Prints the base URL and a ready API key (Growth unless --tier says otherwise)."
        ),
    )
    command.add_argument("--host", default="127.0.0.1", help="address to listen on (default: %(default)s)")
    command.add_argument(
        "--port", type=_port, default=0, help="port to listen on; 0 picks a free one (default)"
    )
    command.add_argument(
        "--time-scale",
        type=_time_scale,
        default=1.0,
        metavar="X",
        help="multiply every duration by X: 1.0 is real time (default), 0.01 makes a 30 s enrichment take 0.3 s",
    )
    account = command.add_argument_group("the ready key's account (to try a 402 or a 403)")
    account.add_argument(
        "--tier",
        default="growth",
        help="its plan: growth (default), scale or enterprise; free or starter are refused with 403",
    )
    account.add_argument(
        "--monthly-leads",
        type=_count,
        metavar="N",
        help="its enrichments a month (default: 1000); 0 answers every enrichment 402",
    )
    account.add_argument(
        "--credits",
        type=_count,
        metavar="N",
        help="enrichment credits bought beyond the month's (default: 0)",
    )
    account.add_argument("--mobile-credits", type=_count, metavar="N", help="mobile credits (default: 100)")
    command.add_argument(
        "--open",
        action="append",
        default=[],
        metavar="POINT=VALUE",
        help=(
            "how to read a point the spec leaves open, such as list_shape=bare; repeat it for "
            "several (the testing page of the documentation lists them; a wrong one lists them too)"
        ),
    )
    command.set_defaults(command="fake-server")


def _port(value: str) -> int:
    try:
        port = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {value!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, got {port}")
    return port


def _positive_float(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {value!r}") from None
    if not number > 0 or number == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number of seconds > 0, got {value}")
    return number


def _integer(value: str, minimum: int) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {value!r}") from None
    if number < minimum:
        raise argparse.ArgumentTypeError(f"must be {minimum} or more, got {number}")
    return number


def _time_scale(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {value!r}") from None
    if not 0 < number < float("inf"):
        raise argparse.ArgumentTypeError(
            f"must be a number > 0 (1 is real time, 0.01 makes a 30 s enrichment take 0.3 s), got {value}"
        )
    return number


def _positive_int(value: str) -> int:
    return _integer(value, 1)


def _count(value: str) -> int:
    return _integer(value, 0)


def _credits(value: str) -> int | str:
    if value.strip().lower() == "auto":
        return "auto"
    try:
        return _integer(value, 0)
    except argparse.ArgumentTypeError as exc:
        raise argparse.ArgumentTypeError(f"{exc}, or 'auto'") from None
