"""Client settings: as given, then resolved once from them and the environment, and frozen."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast

import httpx
from typing_extensions import TypedDict

from ._clock import ServiceClock
from ._errors import LeadEnrichError
from ._logs import logger
from ._ratelimit import RateLimits
from ._retry import RetryPolicy
from ._signatures import UNCHANGED, keywords_from
from ._validate import (
    DEFAULT_CONNECT_TIMEOUT,
    checked_headers,
    checked_timeout,
    integer,
    is_header_value,
    seconds,
)
from ._version import __version__

__all__ = [
    "DEFAULT_MAX_RETRIES",
    "DEFAULT_MAX_RETRY_AFTER",
    "DEFAULT_RATE_LIMITS",
    "DEFAULT_TIMEOUT",
    "DEFAULT_UPSTREAM_FULL_RETRIES",
    "ClientOptions",
    "ClientSettings",
    "SentHeaders",
    "changed",
    "resolve",
    "settings_keywords",
]

DEFAULT_TIMEOUT = httpx.Timeout(30.0, connect=DEFAULT_CONNECT_TIMEOUT)
"""30 s to read an answer, 5 s to connect."""
DEFAULT_MAX_RETRIES = 2
DEFAULT_MAX_RETRY_AFTER = 60.0
DEFAULT_RATE_LIMITS = RateLimits()
"""The spec's per-key limits, paced by every client unless told otherwise."""
DEFAULT_UPSTREAM_FULL_RETRIES = 20
LONG_RUNNING_READ_TIMEOUT = 100.0
"""Service seconds: sync enrich and re-enrich hold the connection open up to ~90 s."""

API_PREFIX = "/api/v1"
USER_AGENT = f"leadenrich-python/{__version__}"
_LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})


class ClientSettings(TypedDict, total=False):
    """The settings `with_options` can change in a copy of a client; see the client's arguments.

    A client keeps the settings it was given as one of these, so a setting added here (and
    to the constructor) is forwarded by `with_options` with no other change.

    Examples:
        >>> patient = client.with_options(timeout=120, max_retries=5)
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


settings_keywords = keywords_from(ClientSettings, dict.fromkeys(ClientSettings.__annotations__, UNCHANGED))
"""Shows the keys of `ClientSettings` in `with_options`'s run-time signature, each
`<unchanged>` by default."""


def changed(settings: ClientSettings, changes: Mapping[str, Any]) -> ClientSettings:
    """`settings` with `changes` applied; unknown names are a TypeError naming the known ones."""
    known = list(ClientSettings.__annotations__)
    unknown = sorted(set(changes) - set(known))
    if unknown:
        raise TypeError(
            f"with_options() got unknown setting(s) {', '.join(unknown)}; it takes {', '.join(known)}"
        )
    given = dict(changes)
    headers = given.get("default_headers")
    ours = settings.get("default_headers")
    if headers is not None and ours:
        given["default_headers"] = {**ours, **headers}
    return cast("ClientSettings", {**settings, **given})


class SentHeaders:
    """A client's request headers, by whether a request is authenticated and has a body,
    each merged once with the headers of the httpx client it goes through.

    httpx's `build_request` merges the httpx client's headers into every request's, one
    header at a time: with the rest of it, 9 us of a call more than the request built
    from headers merged once (benchmarks/overhead.py measured the SDK 1.10x raw httpx
    then, 0.98x since). The merge here gives the same headers in the same order, and is
    done again only when the httpx client's headers are not the ones merged last (a
    user's `http_client` may change them between calls; the SDK's own pools all have
    httpx's).
    """

    def __init__(self, ours: Mapping[tuple[bool, bool], httpx.Headers]) -> None:
        self._ours = ours
        # The httpx client's headers as merged last, and the merges; one tuple, replaced
        # whole, so a thread reading it never sees one without the other.
        self._merged: tuple[list[tuple[bytes, bytes]] | None, dict[tuple[bool, bool], httpx.Headers]] = (
            None,
            {},
        )

    def of(self, http: httpx.Client | httpx.AsyncClient, auth: bool, body: bool) -> httpx.Headers:
        """The headers a request of this shape sends through `http`: its headers, then
        ours (ours replace any of the same name, case-insensitively)."""
        theirs = http.headers
        raw = theirs.raw
        seen, merged = self._merged
        if raw != seen:
            merged = {}
            for shape, ours in self._ours.items():
                merged[shape] = both = httpx.Headers(theirs)
                both.update(ours)
            self._merged = (raw, merged)
        return merged[auth, body]


@dataclass(frozen=True)
class ClientOptions:
    """A client's settings resolved and checked: all its requests, retries and waits read.

    `with_options` resolves a new one from `settings` with the changes applied.
    """

    # The key is left out of the repr, as are the headers that carry it, and out of
    # `settings`: repr(vars(client)) and tracebacks that show locals must not print it.
    settings: ClientSettings = field(repr=False)
    """The settings as given but for the key (`api_key` holds it), with the address and the
    clock resolved: what a copy starts from."""
    api_key: str = field(repr=False)
    base_url: str
    """Scheme, host and any path prefix, ending in /api/v1."""
    timeout: httpx.Timeout
    long_timeout: httpx.Timeout
    headers: Mapping[str, str]
    auth_headers: Mapping[str, str] = field(repr=False)
    sent_headers: SentHeaders = field(repr=False)
    """The headers of a request, by whether it is authenticated and has a body."""
    retry: RetryPolicy
    clock: ServiceClock
    rate_limits: RateLimits | None


def resolve(settings: ClientSettings) -> ClientOptions:
    """`settings` checked, completed from the environment, and resolved.

    A setting left out takes the constructor's default; `api_key` and `base_url` left out
    are read from the environment.
    """
    clock = _clock(settings.get("clock"))
    key, raw_url = (
        _setting(settings.get("api_key"), "api_key"),
        _setting(settings.get("base_url"), "base_url"),
    )
    if key is None or raw_url is None:
        # Both at once when both are missing, rather than one error per run.
        raise _not_given([name for name, value in (("api_key", key), ("base_url", raw_url)) if value is None])
    if any(c.isspace() for c in key):
        raise LeadEnrichError("api_key contains whitespace; copy the key exactly as the dashboard showed it")
    if not is_header_value(key):
        # Else httpx fails on the first call, with a UnicodeEncodeError (a zero-width
        # space pasted along with the key is invisible, and not whitespace).
        raise LeadEnrichError(
            "api_key contains characters an HTTP header cannot carry; copy the key exactly as the dashboard showed it"
        )
    url = _base_url(raw_url)
    headers = {
        "User-Agent": USER_AGENT,
        "Accept": "application/json",
        **checked_headers(settings.get("default_headers"), "default_headers"),
    }
    timeout = checked_timeout(settings.get("timeout", DEFAULT_TIMEOUT))
    if clock.scale != 1.0 and httpx.URL(url).host not in _LOOPBACK:
        # A scaled clock is for a fake server: against the service it would poll, pace
        # and back off far too fast.
        logger.warning(
            "the client's clock runs at scale %g but base_url is not on this machine: "
            "unset LEADENRICH_TIME_SCALE (or pass no clock) for the real service",
            clock.scale,
        )
    retry = RetryPolicy(
        integer("max_retries", settings.get("max_retries", DEFAULT_MAX_RETRIES), 0),
        seconds("max_retry_after", settings.get("max_retry_after", DEFAULT_MAX_RETRY_AFTER)),
        integer(
            "upstream_full_retries", settings.get("upstream_full_retries", DEFAULT_UPSTREAM_FULL_RETRIES), 0
        ),
    )
    rate_limits = settings.get("rate_limits", DEFAULT_RATE_LIMITS)
    if rate_limits is not None and not isinstance(rate_limits, RateLimits):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(f"rate_limits must be a RateLimits or None, got {type(rate_limits).__name__}")
    auth_headers = {**headers, "Authorization": f"Bearer {key}"}
    return ClientOptions(
        # Kept resolved, so a copy does not read the environment again.
        settings=cast(
            "ClientSettings",
            {**{k: v for k, v in settings.items() if k != "api_key"}, "base_url": url, "clock": clock},
        ),
        api_key=key,
        base_url=url,
        timeout=timeout,
        long_timeout=_long(timeout, clock),
        headers=headers,
        auth_headers=auth_headers,
        sent_headers=SentHeaders(
            {
                (auth, body): httpx.Headers(
                    {
                        **(auth_headers if auth else headers),
                        **({"Content-Type": "application/json"} if body else {}),
                    }
                )
                for auth in (False, True)
                for body in (False, True)
            }
        ),
        retry=retry,
        clock=clock,
        rate_limits=rate_limits,
    )


def _base_url(given: str) -> str:
    url = given.rstrip("/")
    if not url.startswith(("http://", "https://")):
        raise LeadEnrichError(f"base_url must start with http:// or https://, got {url!r}")
    try:
        httpx.URL(url)
    except httpx.InvalidURL as exc:
        raise LeadEnrichError(f"base_url is not a valid URL: {exc}") from None
    return url if url.endswith(API_PREFIX) else url + API_PREFIX


_ENVIRONMENT = {"api_key": "LEADENRICH_API_KEY", "base_url": "LEADENRICH_BASE_URL"}
_TIME_SCALE = "LEADENRICH_TIME_SCALE"


def _clock(clock: object) -> ServiceClock:
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
    message = (
        f"no {' or '.join(names)} given: pass {passes} to the client or set the {variables} "
        f"environment variable{plural}"
    )
    if "api_key" in names:
        # Most often a newcomer's first run, before they have a key: say what works without one.
        message += (
            '. To try the SDK without a key, use the bundled fake server (pip install "leadenrich[fake]"): '
            "`leadenrich.testing.connect()` gives a client of it in place of `LeadEnrich()`, or run "
            "`leadenrich fake-server` in a shell and export the variables it prints"
        )
    return LeadEnrichError(message)


def _long(timeout: httpx.Timeout, clock: ServiceClock) -> httpx.Timeout:
    # The service holds the answer up to ~90 of its seconds; the read timeout is real time.
    long_read = clock.real_seconds(LONG_RUNNING_READ_TIMEOUT)
    read = timeout.read
    if read is None or read >= long_read:
        return timeout
    return httpx.Timeout(connect=timeout.connect, read=long_read, write=timeout.write, pool=timeout.pool)
