"""Client settings: resolved once from arguments and the environment, then frozen."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import cast

import httpx

from ._clock import ServiceClock
from ._errors import LeadEnrichError
from ._validate import seconds
from ._version import __version__

__all__ = ["DEFAULT_MAX_RETRIES", "DEFAULT_TIMEOUT", "ClientOptions", "resolve_clock", "resolve_options"]

DEFAULT_TIMEOUT = httpx.Timeout(30.0, connect=5.0)
"""30 s to read an answer, 5 s to connect."""
DEFAULT_MAX_RETRIES = 2
DEFAULT_MAX_RETRY_AFTER = 60.0
DEFAULT_UPSTREAM_FULL_RETRIES = 20
LONG_RUNNING_READ_TIMEOUT = 100.0
"""Service seconds: sync enrich and re-enrich hold the connection open up to ~90 s."""

API_PREFIX = "/api/v1"
USER_AGENT = f"leadenrich-python/{__version__}"
_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
"""A header name: an RFC 9110 token."""


@dataclass(frozen=True)
class ClientOptions:
    api_key: str
    base_url: str
    """Scheme, host and any path prefix, ending in /api/v1."""
    timeout: httpx.Timeout
    long_timeout: httpx.Timeout
    headers: Mapping[str, str]
    auth_headers: Mapping[str, str]


def resolve_options(
    api_key: str | None,
    base_url: str | None,
    timeout: float | httpx.Timeout,
    default_headers: Mapping[str, str] | None,
    clock: ServiceClock,
) -> ClientOptions:
    key, raw_url = _setting(api_key, "api_key"), _setting(base_url, "base_url")
    if key is None or raw_url is None:
        # Both at once when both are missing, rather than one error per run.
        raise _not_given([name for name, value in (("api_key", key), ("base_url", raw_url)) if value is None])
    if any(c.isspace() for c in key):
        raise LeadEnrichError("api_key contains whitespace; copy the key exactly as the dashboard showed it")
    if not _header_value(key):
        # Else httpx fails on the first call, with a UnicodeEncodeError (a zero-width
        # space pasted along with the key is invisible, and not whitespace).
        raise LeadEnrichError(
            "api_key contains characters an HTTP header cannot carry; copy the key exactly as the dashboard showed it"
        )
    url = raw_url.rstrip("/")
    if not url.startswith(("http://", "https://")):
        raise LeadEnrichError(f"base_url must start with http:// or https://, got {url!r}")
    try:
        httpx.URL(url)
    except httpx.InvalidURL as exc:
        raise LeadEnrichError(f"base_url is not a valid URL: {exc}") from None
    if not url.endswith(API_PREFIX):
        url += API_PREFIX
    headers = {"User-Agent": USER_AGENT, "Accept": "application/json", **_checked_headers(default_headers)}
    return ClientOptions(
        api_key=key,
        base_url=url,
        timeout=_timeout(timeout),
        long_timeout=_long(_timeout(timeout), clock),
        headers=headers,
        auth_headers={**headers, "Authorization": f"Bearer {key}"},
    )


def with_timeout(
    options: ClientOptions, timeout: float | httpx.Timeout, clock: ServiceClock
) -> ClientOptions:
    value = _timeout(timeout)
    return replace(options, timeout=value, long_timeout=_long(value, clock))


_ENVIRONMENT = {"api_key": "LEADENRICH_API_KEY", "base_url": "LEADENRICH_BASE_URL"}
_TIME_SCALE = "LEADENRICH_TIME_SCALE"


def resolve_clock(clock: object) -> ServiceClock:
    """The clock given, else one at `$LEADENRICH_TIME_SCALE` (set by `leadenrich fake-server`)."""
    if clock is not None:
        if not isinstance(clock, ServiceClock):
            raise TypeError(f"clock must be a ServiceClock or None, got {type(clock).__name__}")
        return clock
    raw = os.environ.get(_TIME_SCALE, "").strip()
    if not raw:
        return ServiceClock()
    try:
        return ServiceClock(float(raw))
    except (ValueError, LeadEnrichError):
        raise LeadEnrichError(
            f"{_TIME_SCALE} must be a number above 0 (the fake server's --time-scale), got {raw!r}; "
            "unset it to talk to the real service"
        ) from None


def _setting(value: str | None, name: str) -> str | None:
    """The value given, else the environment's; None when neither is a non-blank string."""
    if value is None:
        value = os.environ.get(_ENVIRONMENT[name])
    elif not isinstance(value, str):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(f"{name} must be a str, got {type(value).__name__}")
    return value.strip() if value is not None and value.strip() else None


def _not_given(names: list[str]) -> LeadEnrichError:
    passes = " and ".join(f"{name}=..." for name in names)
    variables = " and ".join(_ENVIRONMENT[name] for name in names)
    plural = "s" if len(names) > 1 else ""
    return LeadEnrichError(
        f"no {' or '.join(names)} given: pass {passes} to the client or set the {variables} "
        f"environment variable{plural}"
    )


def _checked_headers(given: object) -> dict[str, str]:
    # Checked here, not on the first call, where a bad header is a UnicodeEncodeError or
    # an h11 error that reads like a broken connection.
    if given is None:
        return {}
    if not isinstance(given, Mapping):
        raise TypeError(f"default_headers must be a mapping of str to str, got {type(given).__name__}")
    headers: dict[str, str] = {}
    for name, value in cast("Mapping[object, object]", given).items():
        if not isinstance(name, str) or not isinstance(value, str):
            raise TypeError("default_headers must map str names to str values")
        if not _HEADER_NAME.fullmatch(name) or not _header_value(value):
            # The value is not shown: it may be a credential of its own.
            raise LeadEnrichError(f"default_headers[{name!r}] cannot be sent as an HTTP header (ASCII only)")
        headers[name] = value
    return headers


def _header_value(value: str) -> bool:
    return all(" " <= c <= "~" or c == "\t" for c in value)


def _timeout(value: object) -> httpx.Timeout:
    if isinstance(value, httpx.Timeout):
        for part in ("connect", "read", "write", "pool"):
            limit = getattr(value, part)
            if limit is not None:
                seconds(f"timeout.{part}", limit)
        return value
    total = seconds("timeout", value, positive=True)
    return httpx.Timeout(total, connect=min(total, DEFAULT_TIMEOUT.connect or 5.0))


def _long(timeout: httpx.Timeout, clock: ServiceClock) -> httpx.Timeout:
    # The service holds the answer up to ~90 of its seconds; the read timeout is real time.
    long_read = clock.real_seconds(LONG_RUNNING_READ_TIMEOUT)
    read = timeout.read
    if read is None or read >= long_read:
        return timeout
    return httpx.Timeout(connect=timeout.connect, read=long_read, write=timeout.write, pool=timeout.pool)
