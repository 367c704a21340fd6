"""The words of the command's messages: the SDK's advice in command-line terms, and never a key."""

from __future__ import annotations

import re
from collections.abc import Sequence
from contextvars import ContextVar

__all__ = ["one_line", "options_for_keywords", "plural", "redact", "remember_secrets", "shell_advice"]


# The SDK's advice speaks Python; on the command line the same advice names the options
# and commands. Phrases first, then the keyword arguments left in them.
_CLI_PHRASES = (
    ("check the key given as api_key=", "check the key given with --api-key"),
    (" to the client", ""),
    (
        "among client.leads.iter() (every page: the spec does not say their order)",
        "in 'leadenrich leads list' (every page)",
    ),
    ("client.usage() shows", "'leadenrich usage' shows"),
    ("run enrich_many again with the same checkpoint", "run the same command again"),
    ("max_credits=", "--max-credits "),
    (
        "`leadenrich.testing.connect()` gives a client of it in place of `LeadEnrich()`, or run "
        "`leadenrich fake-server` in a shell and export the variables it prints",
        "run `leadenrich fake-server` in another terminal and export the variables it prints",
    ),
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


def plural(count: int, noun: str) -> str:
    """`1 lead`, `2 leads`."""
    return f"{count} {noun}{'' if count == 1 else 's'}"
