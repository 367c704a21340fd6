"""Client settings: resolved once from arguments and the environment, then frozen."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, cast

import httpx
from typing_extensions import TypedDict

from ._clock import ServiceClock
from ._errors import InvalidRequestError, LeadEnrichError
from ._ratelimit import RateLimits
from ._validate import seconds
from ._version import __version__

__all__ = [
    "DEFAULT_MAX_RETRIES",
    "DEFAULT_TIMEOUT",
    "ClientOptions",
    "ClientSettings",
    "Settings",
    "resolve_clock",
    "resolve_options",
]

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


class ClientSettings(TypedDict, total=False):
    """The settings `with_options` can change in a copy of a client; see the client's arguments.

    Examples:
        >>> patient = client.with_options(timeout=120, max_retries=5)  # doctest: +SKIP
    """

    api_key: str
    base_url: str
    timeout: float | httpx.Timeout
    max_retries: int
    default_headers: Mapping[str, str] | None
    """Merged into the original's: a header given here replaces one of the same name."""
    rate_limits: RateLimits | None
    """A copy given other limits (or another key) gets a budget of its own."""
    max_retry_after: float
    upstream_full_retries: int
    clock: ServiceClock | None
    """The service's clock; a copy on another clock gets a budget of its own."""


@dataclass(frozen=True)
class Settings:
    """A client's constructor settings, the key and address resolved: copies start from them.

    One field per key of ClientSettings, so a setting added to both is forwarded by
    `with_options` with no other change.
    """

    api_key: str | None = field(repr=False)
    base_url: str | None
    timeout: float | httpx.Timeout
    max_retries: int
    default_headers: Mapping[str, str] | None
    rate_limits: RateLimits | None
    max_retry_after: float
    upstream_full_retries: int
    clock: ServiceClock | None

    def changed(self, changes: Mapping[str, Any]) -> Settings:
        """These settings with `changes` applied; unknown names are a TypeError naming the known ones."""
        known = [f.name for f in fields(self)]
        unknown = sorted(set(changes) - set(known))
        if unknown:
            raise TypeError(
                f"with_options() got unknown setting(s) {', '.join(unknown)}; it takes {', '.join(known)}"
            )
        given = dict(changes)
        headers = given.get("default_headers")
        if headers is not None and self.default_headers:
            given["default_headers"] = {**self.default_headers, **headers}
        return replace(self, **given)


@dataclass(frozen=True)
class ClientOptions:
    # The key is left out of the repr, as are the headers that carry it: repr(vars(client))
    # and tracebacks that show locals must not print it.
    api_key: str = field(repr=False)
    base_url: str
    """Scheme, host and any path prefix, ending in /api/v1."""
    timeout: httpx.Timeout
    long_timeout: httpx.Timeout
    headers: Mapping[str, str]
    auth_headers: Mapping[str, str] = field(repr=False)


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
    headers = {
        "User-Agent": USER_AGENT,
        "Accept": "application/json",
        **checked_headers(default_headers, "default_headers"),
    }
    return ClientOptions(
        api_key=key,
        base_url=url,
        timeout=checked_timeout(timeout),
        long_timeout=_long(checked_timeout(timeout), clock),
        headers=headers,
        auth_headers={**headers, "Authorization": f"Bearer {key}"},
    )


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


def checked_headers(given: object, name: str) -> dict[str, str]:
    # Checked here, not on the first call, where a bad header is a UnicodeEncodeError or
    # an h11 error that reads like a broken connection.
    if given is None:
        return {}
    if not isinstance(given, Mapping):
        raise TypeError(f"{name} must be a mapping of str to str, got {type(given).__name__}")
    headers: dict[str, str] = {}
    for header, value in cast("Mapping[object, object]", given).items():
        if not isinstance(header, str) or not isinstance(value, str):
            raise TypeError(f"{name} must map str names to str values")
        if not _HEADER_NAME.fullmatch(header) or not _header_value(value):
            # The value is not shown: it may be a credential of its own.
            raise InvalidRequestError(f"{name}[{header!r}] cannot be sent as an HTTP header (ASCII only)")
        headers[header] = value
    return headers


def _header_value(value: str) -> bool:
    return all(" " <= c <= "~" or c == "\t" for c in value)


def checked_timeout(value: object) -> httpx.Timeout:
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
