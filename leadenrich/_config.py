"""Client settings: resolved once from arguments and the environment, then frozen."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace

import httpx

from ._errors import LeadEnrichError
from ._validate import seconds
from ._version import __version__

__all__ = ["DEFAULT_MAX_RETRIES", "DEFAULT_TIMEOUT", "ClientOptions", "resolve_options"]

DEFAULT_TIMEOUT = httpx.Timeout(30.0, connect=5.0)
"""30 s to read an answer, 5 s to connect."""
DEFAULT_MAX_RETRIES = 2
DEFAULT_MAX_RETRY_AFTER = 60.0
DEFAULT_UPSTREAM_FULL_RETRIES = 20
LONG_RUNNING_READ_TIMEOUT = 100.0
"""Sync enrich and re-enrich hold the connection open up to ~90 s."""

API_PREFIX = "/api/v1"
USER_AGENT = f"leadenrich-python/{__version__}"


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
) -> ClientOptions:
    key = _setting(api_key, "api_key", "LEADENRICH_API_KEY")
    if any(c.isspace() for c in key):
        raise LeadEnrichError("api_key contains whitespace; copy the key exactly as the dashboard showed it")
    url = _setting(base_url, "base_url", "LEADENRICH_BASE_URL").rstrip("/")
    if not url.startswith(("http://", "https://")):
        raise LeadEnrichError(f"base_url must start with http:// or https://, got {url!r}")
    if not url.endswith(API_PREFIX):
        url += API_PREFIX
    headers = {"User-Agent": USER_AGENT, "Accept": "application/json", **(default_headers or {})}
    return ClientOptions(
        api_key=key,
        base_url=url,
        timeout=_timeout(timeout),
        long_timeout=_long(_timeout(timeout)),
        headers=headers,
        auth_headers={**headers, "Authorization": f"Bearer {key}"},
    )


def with_timeout(options: ClientOptions, timeout: float | httpx.Timeout) -> ClientOptions:
    value = _timeout(timeout)
    return replace(options, timeout=value, long_timeout=_long(value))


def _setting(value: str | None, name: str, env: str) -> str:
    if value is None:
        value = os.environ.get(env)
    if value is None or not value.strip():
        raise LeadEnrichError(
            f"no {name} given: pass {name}=... to the client or set the {env} environment variable"
        )
    return value.strip()


def _timeout(value: object) -> httpx.Timeout:
    if isinstance(value, httpx.Timeout):
        return value
    total = seconds("timeout", value, positive=True)
    return httpx.Timeout(total, connect=min(total, DEFAULT_TIMEOUT.connect or 5.0))


def _long(timeout: httpx.Timeout) -> httpx.Timeout:
    read = timeout.read
    if read is None or read >= LONG_RUNNING_READ_TIMEOUT:
        return timeout
    return httpx.Timeout(
        connect=timeout.connect, read=LONG_RUNNING_READ_TIMEOUT, write=timeout.write, pool=timeout.pool
    )
