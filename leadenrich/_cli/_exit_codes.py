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
"""Which exit codes the command gives where 2.0's differ from 1.x's: "1.0" (1.x's
default) or "2.0" (2.0's, asked for now)."""


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


EXIT_CODES: tuple[tuple[ExitCode, str], ...] = (
    (ExitCode.OK, "success (an email or mobile search that finds nothing is a success too)"),
    (
        ExitCode.ERROR,
        "any other error, such as a 5xx from the service; enrich-file: a lead failed or was not "
        f"started, or (until 2.0, see {CODES_VARIABLE}) the service was out of reach",
    ),
    (
        ExitCode.USAGE,
        "invalid usage or input: a bad option, no API key or base URL, a lead or search "
        "rejected before sending, a 422 from the service",
    ),
    (ExitCode.AUTH, "authentication or permission: 401 (bad or missing key), 403 (plan without API access)"),
    (ExitCode.QUOTA, "quota or credits exhausted (402)"),
    (ExitCode.RATE_LIMITED, "rate limited (429), still after the retries"),
    (ExitCode.NOT_FOUND, "not found (404): no such lead, job or lookup on this account"),
    (
        ExitCode.CONNECTION,
        "the service could not be reached, or did not answer in time; enrich-file too, with "
        f"{CODES_VARIABLE}=2.0 (the default from 2.0)",
    ),
    (
        ExitCode.JOB,
        "an enrichment job ended failed: it is over, and the message gives its error; until 2.0, "
        "also --wait giving up",
    ),
    (ExitCode.CANNOT_PAY, "preview: the credits left do not cover what the run may charge"),
    (
        ExitCode.STILL_RUNNING,
        "--wait gave up (--wait-timeout) while the job or lookup is still running; the message "
        f"says how to follow it (with {CODES_VARIABLE}=2.0, the default from 2.0; 8 until then)",
    ),
    (
        ExitCode.CHECKPOINT_IN_USE,
        "enrich-file: another run holds the checkpoint and has not ended; no lead was sent (run "
        "the same command again once it has: it goes on from what that run recorded)",
    ),
    (
        ExitCode.INTERRUPTED,
        "interrupted (Ctrl-C), fake-server included; fake-server stopped by SIGTERM (a service "
        "manager's stop) exits 0",
    ),
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
        """The exit code 1.x gives the same failure, where 2.0's differs (see `status`)."""


# The 2.0 exit codes a failure always gave otherwise in 1.x, and what each 2.0 code tells.
_IN_1_0 = {ExitCode.STILL_RUNNING: ExitCode.JOB}
_WHY = {
    ExitCode.STILL_RUNNING: "still running, look again later",
    ExitCode.CONNECTION: "the service out of reach",
}


def codes_asked() -> str:
    """The exit codes asked for: "1.0" unless CODES_VARIABLE says "2.0"."""
    value = os.environ.get(CODES_VARIABLE, "").strip() or "1.0"
    if value not in ("1.0", "2.0"):
        raise CLIError(
            f"{CODES_VARIABLE} must be 1.0 (1.x's exit codes, the default) or 2.0 (the codes 2.0 "
            f"gives, asked for now), not {value!r}"
        )
    return value


def status(exc: BaseException, code: ExitCode) -> tuple[int, str | None]:
    """The exit status of `exc`, classified `code`, and a note for the user where 1.x's
    code is given and 2.0's differs: a script written for 1.0 keeps working through 1.x,
    and learns what to change before 2.0."""
    old = exc.in_1_0 if isinstance(exc, CLIError) and exc.in_1_0 is not None else _IN_1_0.get(code)
    if old is None or codes_asked() == "2.0":
        return code, None
    return old, (
        f"exit status {int(old)}, as 1.x gives it here; 2.0 exits {int(code)} ({_WHY[code]}): "
        f"set {CODES_VARIABLE}=2.0 to have it now"
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
