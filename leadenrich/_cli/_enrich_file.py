"""`leadenrich enrich-file`: a CSV of leads in, a CSV or JSON Lines file of results out."""

from __future__ import annotations

import argparse
import contextlib
import csv
import os
import sys
import threading
import time
from collections import Counter
from collections.abc import Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, NoReturn, TextIO

from .. import (
    APIConnectionError,
    APIStatusError,
    AuthenticationError,
    BulkOutcome,
    BulkResult,
    InvalidRequestError,
    LeadEnrich,
    LeadEnrichError,
    LeadIn,
    PermissionDeniedError,
    QuotaExceededError,
    UnprocessableEntityError,
    read_checkpoint,
)
from ._commands import connect
from ._exit_codes import CLIError, ExitCode, classify
from ._messages import one_line, plural, shell_advice
from ._output import as_json

__all__ = [
    "LeadRows",
    "checkpoint_for",
    "column_order",
    "enrich_file",
    "nested_record",
    "output_format",
    "read_leads",
    "records",
]

Format = Literal["csv", "jsonl"]

_FORMATS: dict[str, Format] = {".csv": "csv", ".jsonl": "jsonl"}
_FIELDS = frozenset(LeadIn.model_fields)
_REQUIRED = ("company", "domain")
_DELIMITERS = ",;\t"
# The thread name prefix of the SDK's bulk runner (leadenrich/_bulk/runner.py).
_WORKERS = "leadenrich-bulk"
_IDLE_EXIT = 0.5
# The account refused (every lead would be refused alike), or the rows themselves.
_REFUSED = (AuthenticationError, PermissionDeniedError, QuotaExceededError)
_INVALID = (InvalidRequestError, UnprocessableEntityError)
# Failures that no lead of the run would get past: met by the estimate, nothing is sent.
_NO_RUN = (*_REFUSED, APIConnectionError)
_NOTHING_TWICE = "nothing is paid twice"


@dataclass(frozen=True)
class LeadRows:
    """The leads of an input file, and the line each came from (for messages)."""

    rows: list[dict[str, str]]
    lines: list[int]


def enrich_file(args: argparse.Namespace) -> int:
    source, target = Path(args.input), Path(args.output)
    kind = output_format(target)
    checkpoint = Path(args.checkpoint) if args.checkpoint else checkpoint_for(target)
    _check_paths(source, target, checkpoint)
    leads = read_leads(source)
    with connect(args) as client:
        if not args.no_estimate:
            print(_estimate(client, leads, checkpoint, args.max_credits), file=sys.stderr, flush=True)
        try:
            result, unreachable = _enrich(client, leads, args, checkpoint)
        except KeyboardInterrupt:
            _interrupted(leads, target, kind, checkpoint)
    _write(result, target, kind, checkpoint)
    print(summary(result, target), file=sys.stderr)
    if unreachable is not None:
        raise CLIError(
            f"{shell_advice(str(unreachable.error))}; the run stopped at line {_line(unreachable, leads)} "
            f"of {source}, with {result.succeeded} of {plural(len(result), 'lead')} enriched: run the "
            f"same command again once the service answers ({_NOTHING_TWICE})",
            ExitCode.CONNECTION,
            in_1_0=ExitCode.ERROR,  # 1.0 tried every lead: each failed
        )
    return _verdict(result, leads, source, target)


def _enrich(
    client: LeadEnrich, leads: LeadRows, args: argparse.Namespace, checkpoint: Path
) -> tuple[BulkResult, BulkOutcome | None]:
    """The run's result; a lead that could not reach the service stops it, and is returned.

    An outage is not a lead's fault: every lead after it would fail alike, and a script
    must tell it from a bad row by the exit code.
    """
    seen: dict[int, BulkOutcome] = {}
    unreachable: BulkOutcome | None = None
    outcomes = client.leads.enrich_iter(
        leads.rows,
        concurrency=args.concurrency,
        max_credits=args.max_credits,
        checkpoint=checkpoint,
        progress=sys.stderr.isatty(),
    )
    try:
        for outcome in outcomes:
            seen[outcome.index] = outcome
            if outcome.status == "failed" and isinstance(outcome.error, APIConnectionError):
                unreachable = outcome
                break
    finally:
        # Closed here, not when collected: the run starts no new lead, and lets the leads
        # in flight finish into the checkpoint, where a Ctrl-C still reaches it.
        if isinstance(outcomes, Generator):
            outcomes.close()
    if unreachable is None:
        return BulkResult(list(seen.values())), None
    # The leads not seen are in the checkpoint if they finished as the run closed.
    saved = read_checkpoint(leads.rows, checkpoint)
    return BulkResult([seen.get(outcome.index, outcome) for outcome in saved]), unreachable


def _write(result: BulkResult, target: Path, kind: Format, checkpoint: Path) -> None:
    try:
        write_records(records(result, kind), target, kind)
    except OSError as exc:
        raise CLIError(
            f"cannot write {target}: {exc.strerror or exc}; the results are saved in {checkpoint}: "
            "run the same command again to write them",
            ExitCode.ERROR,
        ) from None


def records(result: BulkResult, kind: Format) -> list[dict[str, Any]]:
    """The output's records: flat columns for CSV, the nested structure for JSON Lines."""
    if kind == "csv":
        return [_for_the_shell(record) for record in result.to_records()]
    return [nested_record(outcome) for outcome in result]


def nested_record(outcome: BulkOutcome) -> dict[str, Any]:
    """One lead's outcome as JSON keeps it: the input, the whole lead and the error as objects."""
    given = outcome.input
    error = outcome.error
    return {
        "index": outcome.index,
        "status": outcome.status,
        "input": given.model_dump(mode="json") if isinstance(given, LeadIn) else dict(given),
        "lead": outcome.lead.model_dump(mode="json") if outcome.lead is not None else None,
        "error": None
        if error is None
        else {
            "type": type(error).__name__,
            "status": error.status_code if isinstance(error, APIStatusError) else None,
            "message": shell_advice(str(error)),
        },
        "charged": outcome.charged,
        "maybe_charged": outcome.maybe_charged,
        "resumed": outcome.resumed,
    }


def _estimate(client: LeadEnrich, leads: LeadRows, checkpoint: Path, max_credits: int | str | None) -> str:
    """The preview's one line. A refused account or an unreachable service stops the
    command there, before any lead is sent, with the exit code of that failure, and so do
    credits that cannot pay for the run when no --max-credits says how far to go; any other
    failure leaves the estimate out, and the run goes on."""
    try:
        ahead = client.leads.preview_many(leads.rows, checkpoint=checkpoint, progress=sys.stderr.isatty())
    except _NO_RUN as exc:
        code, message = classify(exc)
        # 1.0 went on without the estimate: out of reach, every lead failed (exit 1); a
        # refused account refused the leads too (the same 3 or 4).
        in_1_0 = ExitCode.ERROR if code is ExitCode.CONNECTION else None
        raise CLIError(f"{message}; no lead was sent", code, in_1_0=in_1_0) from None
    except LeadEnrichError as exc:
        return f"leadenrich: no estimate: {one_line(shell_advice(str(exc)))}"
    if not ahead.enough and max_credits is None:
        # Sent anyway, the leads past the credits left would each meet a 402.
        if ahead.fits:
            advice = f"run with --max-credits auto to enrich the {plural(ahead.fits, 'lead')} that fit"
        else:
            advice = "the account has no enrichment credits left this month ('leadenrich usage' shows them)"
        raise CLIError(
            f"{ahead.summary()}; no lead was sent: {advice}",
            ExitCode.CANNOT_PAY,
            in_1_0=ExitCode.QUOTA,  # 1.0 sent them, and the leads past the credits met a 402
        )
    return f"leadenrich: estimate: {ahead.summary()}"


def _for_the_shell(record: dict[str, Any]) -> dict[str, Any]:
    # The error column is read by people who ran a command, not by Python programmers.
    if isinstance(record.get("error"), str):
        record["error"] = shell_advice(record["error"])
    return record


def _interrupted(leads: LeadRows, target: Path, kind: Format, checkpoint: Path) -> NoReturn:
    resume = f"the finished leads are saved in {checkpoint}: run the same command again to go on"
    if _busy_workers():
        # A second Ctrl-C abandoned the leads in flight, as the SDK offered. Exiting
        # normally would wait for their threads (up to ~90 s each) and turn a third
        # Ctrl-C into a traceback; the checkpoint is synced line by line, so leave now.
        # Those threads may still append to the checkpoint: it is not read here.
        print(
            f"leadenrich: interrupted; the leads in flight were abandoned (the next run looks "
            f"them up before sending them again); {resume}, or add --max-credits 0 to only write "
            f"{target} from it, starting no lead",
            file=sys.stderr,
            flush=True,
        )
        os._exit(ExitCode.INTERRUPTED)
    so_far = read_checkpoint(leads.rows, checkpoint)
    _write(so_far, target, kind, checkpoint)
    done = so_far.succeeded
    raise CLIError(
        f"interrupted; wrote {target} with {done} of {plural(len(so_far), 'lead')} finished so far; {resume}",
        ExitCode.INTERRUPTED,
    ) from None


def _busy_workers() -> bool:
    # After the first Ctrl-C the SDK has let the leads in flight finish, but its idle
    # workers may take a moment to notice the pool shut down: give them that moment.
    deadline = time.monotonic() + _IDLE_EXIT
    for thread in threading.enumerate():
        if thread.name.startswith(_WORKERS):
            thread.join(max(0.0, deadline - time.monotonic()))
    return any(thread.name.startswith(_WORKERS) and thread.is_alive() for thread in threading.enumerate())


def output_format(target: Path) -> Format:
    """The format the output's extension asks for; a usage error for any other."""
    kind = _FORMATS.get(target.suffix.lower())
    if kind is None:
        raise CLIError(
            f"cannot tell the output format of {target}: name it .csv or .jsonl (one JSON record per line)"
        )
    return kind


def checkpoint_for(target: Path) -> Path:
    return target.with_name(target.name + ".checkpoint.jsonl")


def _check_paths(source: Path, target: Path, checkpoint: Path) -> None:
    folder = target.parent
    if not folder.is_dir():
        raise CLIError(f"cannot write {target}: the folder {folder} does not exist")
    if source.resolve() in (target.resolve(), checkpoint.resolve()):
        raise CLIError(f"the output and the checkpoint must not be the input file {source}")
    if checkpoint.resolve() == target.resolve():
        raise CLIError(f"the checkpoint must be another file than the output {target}")


def read_leads(source: Path) -> LeadRows:
    """The rows of a CSV file as dicts of LeadIn fields; usage errors for unusable files."""
    try:
        with source.open(newline="", encoding="utf-8-sig") as handle:
            return _read(handle, source)
    except FileNotFoundError:
        raise CLIError(f"no such file: {source}") from None
    except UnicodeDecodeError:
        raise CLIError(f"{source} is not UTF-8 text: save it as CSV UTF-8") from None
    except OSError as exc:
        raise CLIError(f"cannot read {source}: {exc.strerror or exc}") from None


def _read(handle: TextIO, source: Path) -> LeadRows:
    first = handle.readline()
    handle.seek(0)
    # Spreadsheets in many locales save "CSV" with semicolons: follow the header row.
    delimiter = max(_DELIMITERS, key=first.count) if first.strip() else ","
    # Strict: a quote closed in the middle of a value is an error, not a value guessed at.
    reader = csv.reader(handle, delimiter=delimiter, strict=True)
    start = 1  # the line the record being read starts on
    try:
        header = next(reader, None)
        if header is None or not any(cell.strip() for cell in header):
            raise CLIError(
                f"{source} has no header row: the first row names the columns (company, domain, ...)"
            )
        columns = _columns(header, source)
        rows: list[dict[str, str]] = []
        lines: list[int] = []
        start = reader.line_num + 1
        for cells in reader:
            if any(cell.strip() for cell in cells):
                rows.append(_lead(columns, cells, f"{source} line {start}", reader.line_num))
                lines.append(start)
            start = reader.line_num + 1
    except csv.Error as exc:
        raise CLIError(f"{source} line {start}: {_unreadable(exc)}") from None
    return LeadRows(rows, lines)


def _unreadable(exc: csv.Error) -> str:
    text = str(exc)
    if "end of data" in text:
        return f"a quote opened here is never closed: {_QUOTES}"
    if "expected after" in text:
        return f"a value goes on after its closing quote: {_QUOTES}"
    return text


_QUOTES = 'a quoted value ends with its quote, and a quote inside a value is written twice ("")'


def _columns(header: Sequence[str], source: Path) -> list[str]:
    """The lead field each column gives (other columns keep their own names, and are ignored)."""
    columns = [_field_name(cell) for cell in header]
    absent = [name for name in _REQUIRED if name not in columns]
    if absent:
        raise CLIError(
            f"{source} has no {' or '.join(absent)} column (its columns: {', '.join(header)}); "
            f"name the columns like the lead fields: {', '.join(LeadIn.model_fields)}"
        )
    for name in _FIELDS.intersection(columns):
        where = [position for position, column in enumerate(columns, 1) if column == name]
        if len(where) > 1:
            named = " and ".join(repr(header[position - 1].strip()) for position in where)
            raise CLIError(
                f"{source}: the header gives the lead's {name} in columns "
                f"{' and '.join(map(str, where))} ({named}): keep one of them"
            )
    return columns


def _field_name(header: str) -> str:
    return header.strip().lower().replace(" ", "_").replace("-", "_")


def _lead(columns: Sequence[str], cells: Sequence[str], where: str, last_line: int) -> dict[str, str]:
    lead: dict[str, str] = {}
    for name, cell in zip(columns, cells, strict=False):
        value = cell.strip()
        if name in _FIELDS and value:
            if "\n" in value or "\r" in value:
                # No lead field holds a line break: a quote opened before it was not
                # closed where it should have been, and swallowed the rows after it.
                raise CLIError(
                    f"{where}: the {name} value runs on to line {last_line} ({value.splitlines()[0]!r}...): "
                    f"a quote there is not closed where it should be; {_QUOTES}"
                )
            lead[name] = value
    return lead


def column_order(records: Iterable[Mapping[str, Any]]) -> list[str]:
    """Every key of the records, each placed after the key it follows in its record.

    A failed lead has no enrichment columns: taking keys in first-seen order would put
    them after the error columns whenever the first lead failed.
    """
    columns: list[str] = []
    for record in records:
        previous: str | None = None
        for key in record:
            if key not in columns:
                at = 0 if previous is None else columns.index(previous) + 1
                columns.insert(at, key)
            previous = key
    return columns


def write_records(records: list[dict[str, Any]], target: Path, kind: Format) -> None:
    # Written beside the target and moved over it: an interrupted write never leaves half a file.
    partial = target.with_name(f".{target.name}.partial")
    try:
        with partial.open("w", newline="", encoding="utf-8") as handle:
            if kind == "csv":
                _write_csv(records, handle)
            else:
                handle.writelines(as_json(record) + "\n" for record in records)
        os.replace(partial, target)
    except BaseException:
        with contextlib.suppress(OSError):
            partial.unlink()
        raise


def _write_csv(records: list[dict[str, Any]], handle: TextIO) -> None:
    if not records:
        return
    writer = csv.DictWriter(handle, fieldnames=column_order(records))
    writer.writeheader()
    writer.writerows(records)


def summary(result: BulkResult, target: Path) -> str:
    counts = Counter(outcome.status for outcome in result)
    resumed = sum(1 for outcome in result if outcome.resumed)
    notes = [f"{resumed} from an earlier run"] if resumed else []
    if counts["deduped"]:
        notes.append(f"{counts['deduped']} already stored")
    enriched = f"{result.succeeded} enriched" + (f" ({', '.join(notes)})" if notes else "")
    parts = [enriched, f"{counts['failed']} failed"]
    if counts["skipped"]:
        parts.append(f"{counts['skipped']} not started")
    return (
        f"leadenrich: {plural(len(result), 'lead')}: {', '.join(parts)}; "
        f"{plural(result.credits_spent, 'credit')} spent; wrote {target}"
    )


def _verdict(result: BulkResult, leads: LeadRows, source: Path, target: Path) -> int:
    """OK, or the error naming the most telling failure, with advice that fits the failures."""
    problems = [outcome for outcome in result if outcome.status in ("failed", "skipped")]
    if not problems:
        return ExitCode.OK
    refused = _refusal(problems)
    first = refused[0] if refused else next((o for o in problems if o.status == "failed"), problems[0])
    code = refused[1] if refused else ExitCode.ERROR
    where = "column" if target.suffix.lower() == ".csv" else "field"
    count = f"{len(problems)} of {plural(len(result), 'lead')} not enriched"
    if len(problems) == 1:
        named = f"{count}, on line {_line(first, leads)} of {source}"
    else:
        named = f"{count} (see the error {where} of {target}), the first on line {_line(first, leads)} of {source}"
    # A refusal's reason says what to do (the key, the plan, the credits): a rerun alone
    # cannot help, nor can it for a row refused before sending.
    advice = "" if refused is not None else _advice(problems, source)
    raise CLIError(f"{named}: {_reason(first)}{advice}", code)


def _refusal(problems: list[BulkOutcome]) -> tuple[BulkOutcome, ExitCode] | None:
    """The first lead the account was refused for, and the exit code of that refusal."""
    for outcome in problems:
        if isinstance(outcome.error, _REFUSED):
            return outcome, classify(outcome.error)[0]
    return None


def _advice(problems: list[BulkOutcome], source: Path) -> str:
    """Rows refused before sending want mending; the others, another run."""
    invalid = sum(1 for outcome in problems if isinstance(outcome.error, _INVALID))
    others = len(problems) - invalid
    if not others:
        return f"; correct {'the row' if invalid == 1 else f'the {invalid} rows'} in {source}"
    if not invalid:
        return f"; run the same command again to retry {'it' if others == 1 else 'them'}: {_NOTHING_TWICE}"
    rows = "the invalid row" if invalid == 1 else f"the {invalid} invalid rows"
    return (
        f"; correct {rows} in {source}, and run the same command again to retry the other "
        f"{plural(others, 'lead')}: {_NOTHING_TWICE}"
    )


def _reason(outcome: BulkOutcome) -> str:
    # The first sentence: what the SDK adds after it (not sent again, where to look) is
    # what a rerun does by itself.
    return shell_advice(str(outcome.error)).split(". ", 1)[0].rstrip(".")


def _line(outcome: BulkOutcome, leads: LeadRows) -> int:
    return leads.lines[outcome.index]
