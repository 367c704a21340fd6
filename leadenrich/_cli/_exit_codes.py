"""The exit codes, and which one an exception raised by a command means.

Standard library only at import: the exit-code table feeds `leadenrich --help`, and the
SDK's exception classes are imported only once there is an exception to classify.
"""

from __future__ import annotations

import os
from enum import IntEnum

from ._messages import shell_advice

__all__ = ["CODES_VARIABLE", "EXIT_CODES", "CLIError", "ExitCode", "classify", "codes_asked", "status"]

CODES_VARIABLE = "LEADENRICH_EXIT_CODES"
"""Deprecated, gone in 2.0: "1.0" gives 1.0's exit codes where 1.2 changed them (a
script written for 1.0 keeps working while it is changed); "2.0" (what 1.1 offered, to
have today's codes) or unset: the codes of EXIT_CODES."""


class ExitCode(IntEnum):
    OK = 0
    ERROR = 1
    USAGE = 2
    AUTH = 3
    QUOTA = 4
    RATE_LIMITED = 5
    NOT_FOUND = 6
    CONNECTION = 7
    JOB = 8
    CANNOT_PAY = 9
    STILL_RUNNING = 10
    CHECKPOINT_IN_USE = 11
    INTERRUPTED = 130


# One short line each, as `leadenrich --help` lists them; docs/cli.md has each in full.
EXIT_CODES: tuple[tuple[ExitCode, str], ...] = (
    (ExitCode.OK, "success (a search that finds nothing too)"),
    (ExitCode.ERROR, "any other error (a 5xx); enrich-file: a lead failed or was not started"),
    (ExitCode.USAGE, "bad usage or input (a 422 too), no API key or address"),
    (ExitCode.AUTH, "the key was refused (401) or the plan has no API access (403)"),
    (ExitCode.QUOTA, "quota or credits exhausted (402)"),
    (ExitCode.RATE_LIMITED, "rate limited (429), still after the retries"),
    (ExitCode.NOT_FOUND, "no such lead, job or lookup (404)"),
    (ExitCode.CONNECTION, "the service could not be reached or did not answer in time"),
    (ExitCode.JOB, "an enrichment job failed"),
    (ExitCode.CANNOT_PAY, "preview, enrich-file: the credits left do not cover the run"),
    (ExitCode.STILL_RUNNING, "--wait gave up while the job or lookup still runs"),
    (ExitCode.CHECKPOINT_IN_USE, "enrich-file: another run holds the checkpoint"),
    (ExitCode.INTERRUPTED, "interrupted (Ctrl-C)"),
)


class CLIError(Exception):
    """A failure the command itself detected, with the exit code it means."""

    def __init__(
        self, message: str, code: ExitCode = ExitCode.USAGE, *, in_1_0: ExitCode | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.in_1_0 = in_1_0
        """The exit code 1.0 gave the same failure, where today's differs (see `status`)."""


# The codes of 1.2 that 1.0 gave otherwise, for LEADENRICH_EXIT_CODES=1.0, and what each tells.
_IN_1_0 = {ExitCode.STILL_RUNNING: ExitCode.JOB}
_WHY = {
    ExitCode.STILL_RUNNING: "still running, look again later",
    ExitCode.CONNECTION: "the service out of reach",
    ExitCode.CANNOT_PAY: "the credits left do not cover the run",
}


def codes_asked() -> str:
    """The exit codes asked for: "2.0" (today's) unless CODES_VARIABLE says "1.0"."""
    value = os.environ.get(CODES_VARIABLE, "").strip() or "2.0"
    if value not in ("1.0", "2.0"):
        raise CLIError(
            f"{CODES_VARIABLE} must be 1.0 (1.0's exit codes, until 2.0) or 2.0 (today's, as when it "
            f"is not set), not {value!r}"
        )
    return value


def status(exc: BaseException, code: ExitCode) -> tuple[int, str | None]:
    """The exit status of `exc`, classified `code`, and a note for the user where
    LEADENRICH_EXIT_CODES=1.0 asks for 1.0's code and today's differs: the script that
    set it learns what to change before 2.0, which drops the setting."""
    old = exc.in_1_0 if isinstance(exc, CLIError) and exc.in_1_0 is not None else _IN_1_0.get(code)
    if old is None or codes_asked() == "2.0":
        return code, None
    return old, (
        f"exit status {int(old)}, 1.0's, as {CODES_VARIABLE}=1.0 asks; without it {int(code)} "
        f"({_WHY[code]}), the only code from 2.0"
    )


def classify(exc: BaseException) -> tuple[ExitCode, str]:
    """The exit code and the message of an exception raised by a command."""
    if isinstance(exc, CLIError):
        return exc.code, exc.message
    import leadenrich as sdk

    message = shell_advice(str(exc))
    if isinstance(exc, sdk.PollTimeoutError):
        if isinstance(exc.last, sdk.JobOut):
            message += f"; follow it with: leadenrich jobs get {exc.last.job_id} --wait"
        elif isinstance(exc.last, sdk.MobileFindOut):
            message += f"; follow it with: leadenrich mobile get {exc.last.lookup_id} --wait"
    codes: tuple[tuple[type[BaseException] | tuple[type[BaseException], ...], ExitCode], ...] = (
        ((sdk.InvalidRequestError, sdk.UnprocessableEntityError), ExitCode.USAGE),
        ((sdk.AuthenticationError, sdk.PermissionDeniedError), ExitCode.AUTH),
        (sdk.QuotaExceededError, ExitCode.QUOTA),
        (sdk.RateLimitError, ExitCode.RATE_LIMITED),
        (sdk.NotFoundError, ExitCode.NOT_FOUND),
        (sdk.APIConnectionError, ExitCode.CONNECTION),
        (sdk.JobFailedError, ExitCode.JOB),
        (sdk.PollTimeoutError, ExitCode.STILL_RUNNING),
        (sdk.LeadEnrichError, ExitCode.ERROR),
    )
    if isinstance(exc, sdk.LeadEnrichError) and isinstance(exc, BlockingIOError):
        # The SDK's refusal to take a checkpoint another run holds (it would block).
        return ExitCode.CHECKPOINT_IN_USE, message
    for kinds, code in codes:
        if isinstance(exc, kinds):
            return code, message
    if isinstance(exc, OSError):
        where = f": {exc.filename}" if exc.filename else ""
        return ExitCode.ERROR, f"{exc.strerror or message}{where}"
    return ExitCode.ERROR, f"unexpected {type(exc).__name__}: {message}"
