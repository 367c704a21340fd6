"""Exit codes, and how an exception becomes one line on stderr and one of them.

Standard library only at import: the exit-code table feeds `leadenrich --help`, and the
SDK's exception classes are imported only once there is an exception to classify.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from contextvars import ContextVar
from enum import IntEnum

__all__ = [
    "EXIT_CODES",
    "CLIError",
    "ExitCode",
    "classify",
    "one_line",
    "options_for_keywords",
    "redact",
    "remember_secrets",
    "shell_advice",
]


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
    INTERRUPTED = 130


EXIT_CODES: tuple[tuple[ExitCode, str], ...] = (
    (ExitCode.OK, "success (an email or mobile search that finds nothing is a success too)"),
    (
        ExitCode.ERROR,
        "any other error, such as a 5xx from the service; enrich-file: a lead failed or was not started",
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
    (ExitCode.CONNECTION, "the service could not be reached, or did not answer in time"),
    (ExitCode.JOB, "an enrichment job failed, or --wait gave up (--wait-timeout)"),
    (ExitCode.CANNOT_PAY, "preview: the credits left do not cover what the run may charge"),
    (
        ExitCode.INTERRUPTED,
        "interrupted (Ctrl-C), fake-server included; fake-server stopped by SIGTERM (a service "
        "manager's stop) exits 0",
    ),
)


class CLIError(Exception):
    """A failure the command itself detected, with the exit code it means."""

    def __init__(self, message: str, code: ExitCode = ExitCode.USAGE) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


# The SDK's advice speaks Python; on the command line the same advice names the options
# and commands. Phrases first, then the keyword arguments left in them.
_CLI_PHRASES = (
    ("the client sends the key", "leadenrich sends the key"),
    ("check the key given as api_key=", "check the key given with --api-key"),
    (" to the client", ""),
    (
        "among client.leads.iter() (every page: the spec does not say their order)",
        "in 'leadenrich leads list' (every page)",
    ),
    ("client.usage() shows", "'leadenrich usage' shows"),
)
_CONNECTION_KEYWORDS = ("api_key", "base_url")


def options_for_keywords(message: str, keywords: Sequence[str]) -> str:
    """`message` with the SDK keyword arguments named in it (`base_url`, `base_url=...`)
    written as the options that set them (`--base-url`)."""
    pattern = r"\b(" + "|".join(keywords) + r")\b(?:=(?:\.\.\.)?)?"
    return re.sub(pattern, lambda m: "--" + m[1].replace("_", "-"), message)


def shell_advice(message: str) -> str:
    """`message` with the SDK's Python advice put in command-line terms."""
    for python, shell in _CLI_PHRASES:
        message = message.replace(python, shell)
    return options_for_keywords(message, _CONNECTION_KEYWORDS)


# Keys the user typed or exported, so that an error never echoes one, even one argparse
# quotes back from a mistyped option.
_SECRETS: ContextVar[tuple[str, ...]] = ContextVar("leadenrich_cli_secrets", default=())
_KEY_PATTERN = re.compile(r"le_live_\w+")
_SHORTEST_SECRET = 6


def remember_secrets(argv: Sequence[str], env_key: str | None) -> None:
    """Note the API keys in `argv` (after --api-key) and the environment for `redact`."""
    found: list[str] = [env_key] if env_key else []
    for position, argument in enumerate(argv):
        if argument == "--api-key" and position + 1 < len(argv):
            found.append(argv[position + 1])
        elif argument.startswith("--api-key="):
            found.append(argument.partition("=")[2])
    _SECRETS.set(tuple(s for s in found if len(s.strip()) >= _SHORTEST_SECRET))


def redact(text: str) -> str:
    for secret in _SECRETS.get():
        text = text.replace(secret, "***")
    return _KEY_PATTERN.sub("***", text)


def one_line(text: str) -> str:
    return redact(" ".join(text.split()))


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
        ((sdk.JobFailedError, sdk.PollTimeoutError), ExitCode.JOB),
        (sdk.LeadEnrichError, ExitCode.ERROR),
    )
    for kinds, code in codes:
        if isinstance(exc, kinds):
            return code, message
    if isinstance(exc, OSError):
        where = f": {exc.filename}" if exc.filename else ""
        return ExitCode.ERROR, f"{exc.strerror or message}{where}"
    return ExitCode.ERROR, f"unexpected {type(exc).__name__}: {message}"
