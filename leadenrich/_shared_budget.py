"""`SharedBudget`: the settings of a per-key budget kept in Redis for every process on a key.

What they drive is in `_redis_pacing.py`, imported only when a client is given one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit, urlunsplit

from ._errors import InvalidRequestError
from ._validate import seconds

__all__ = ["OnFailure", "SharedBudget", "as_shared_budget", "masked_url"]

OnFailure = Literal["local", "raise"]

_SCHEMES = ("redis", "rediss", "unix")


@dataclass(frozen=True, repr=False)
class SharedBudget:
    """A per-key budget shared through Redis (or Valkey) by every client on the key.

    Give it to `RateLimits(shared=...)`: every process whose client names the same Redis
    and the same API key paces itself against one sliding window per bucket, so a fleet
    of workers never sends more than the limits in any window. Needs the `redis` extra
    (`pip install "leadenrich[redis]"`): a client given a budget without it raises
    `ModuleNotFoundError` when it is made.

    Attributes:
        url: The Redis address: `redis://host:6379/0`, `rediss://` for TLS, or
            `unix:///path/to/redis.sock`. A password in it never shows in a repr or a log.
        on_failure: What a client does when Redis does not answer within `timeout`:
            `"local"` paces the client alone on its own window, which holds every place
            it took (one warning on the `leadenrich` logger), and asks Redis again after
            `recheck` seconds, telling it of the places taken meanwhile; `"raise"` raises
            `LeadEnrichError` before anything is sent.
        timeout: Seconds to wait for Redis to connect or answer.
        lease: Seconds an enrichment slot stays taken if its process dies; a live
            process renews its leases every third of that.
        recheck: Seconds of local pacing after a failure before Redis is asked again.
        enrichment_slots: Share the concurrent-enrichment slots too, so the fleet runs at
            most `RateLimits.concurrent_enrichments` enrichments at once.
        prefix: The start of the Redis key names; the rest is a hash of the API key.

    Examples:
        >>> SharedBudget("redis://:secret@cache:6379/0")
        SharedBudget('redis://:***@cache:6379/0', on_failure='local')
    """

    url: str
    on_failure: OnFailure = "local"
    timeout: float = 0.5
    lease: float = 15.0
    recheck: float = 5.0
    enrichment_slots: bool = True
    prefix: str = "leadenrich"

    def __post_init__(self) -> None:
        if not isinstance(self.url, str):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(f"SharedBudget.url must be a str, got {type(self.url).__name__}")
        if urlsplit(self.url).scheme not in _SCHEMES:
            raise InvalidRequestError(
                f"SharedBudget.url must start with redis://, rediss:// or unix://, "
                f"got {masked_url(self.url)!r}; for example 'redis://localhost:6379/0'"
            )
        if self.on_failure not in ("local", "raise"):
            raise InvalidRequestError(
                f"SharedBudget.on_failure must be 'local' or 'raise', got {self.on_failure!r}"
            )
        seconds("SharedBudget.timeout", self.timeout, positive=True)
        seconds("SharedBudget.lease", self.lease, positive=True)
        seconds("SharedBudget.recheck", self.recheck)
        if not self.prefix or not isinstance(self.prefix, str):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise InvalidRequestError("SharedBudget.prefix must be a non-empty str")

    def __repr__(self) -> str:
        return f"SharedBudget({masked_url(self.url)!r}, on_failure={self.on_failure!r})"


def as_shared_budget(value: SharedBudget | str | None) -> SharedBudget | None:
    """`RateLimits.shared` as given (a URL or a SharedBudget) as a SharedBudget."""
    if value is None or isinstance(value, SharedBudget):
        return value
    if isinstance(value, str):  # pyright: ignore[reportUnnecessaryIsInstance]
        return SharedBudget(value)
    raise TypeError(
        f"RateLimits.shared must be a Redis URL, a SharedBudget or None, got {type(value).__name__}"
    )


def masked_url(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is not None:
        user = parts.username or ""
        host = parts.netloc.rpartition("@")[2]
        url = urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))
    # redis-py reads a password from the query too (`redis://host/0?password=...`).
    return re.sub(r"(?i)([?&]password=)[^&#]*", r"\1***", url)
