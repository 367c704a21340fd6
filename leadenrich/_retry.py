"""What is retried, after how long, and what is never re-sent.

The decisions are pure (`RetryPolicy.delay`); tenacity drives the loop. The first attempt
of every call runs outside tenacity, so a call that succeeds pays nothing for retries.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Generator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import tenacity

from ._endpoints import Call
from ._errors import (
    APIConnectionError,
    APIStatusError,
    InternalServerError,
    LeadEnrichError,
    NotFoundError,
    RateLimitError,
)
from ._polling import CutShort

if TYPE_CHECKING:
    from ._clock import Deadline
    from ._otel import Telemetry

__all__ = ["RetryPolicy", "RetryRun"]

logger = logging.getLogger("leadenrich")

UPSTREAM_FULL_BACKOFF = 2.0
_BACKOFF_BASE = 0.5
_BACKOFF_CAP = 8.0

# Why a charging call is not sent again, by how its attempt ended.
_LOST_ANSWER = (
    "It was not sent again: the service may have accepted and charged it before the answer was lost"
)
# A 5xx may carry the service's own account of the charge ("the credit was refunded"):
# this sentence follows it, so it must agree with it whichever way it went.
_SERVER_ERROR = (
    "It was not sent again: a 5xx can come after a charge, and only the service's own words "
    "(such as a refund) tell whether this one was charged"
)
# Where the service's words say so, the one piece of advice is theirs: nothing to look up.
_SERVER_ERROR_REFUNDED = (
    "It was not sent again: the service says the credit was refunded, so nothing was charged "
    "or stored for it (nothing to look up)"
)


@dataclass(frozen=True)
class RetryPolicy:
    """The retry settings of one client (copies from `with_options` get their own)."""

    max_retries: int
    """Retries of per-key 429s, connection failures and (for GET and DELETE) 5xx and timeouts."""
    max_retry_after: float
    """A Retry-After above this many seconds is not waited out: the 429 surfaces at once."""
    upstream_full_retries: int
    """Retries of the platform's `upstream_full` 429 (transient load), counted on their own."""

    def delay(self, error: LeadEnrichError, call: Call[Any], run: RetryRun) -> float | None:
        """Seconds to wait before the next attempt, or None to surface `error` now."""
        if self.max_retries <= 0:
            return None
        if isinstance(error, RateLimitError):
            return self._rate_limited(error, run)
        if isinstance(error, APIConnectionError):
            retryable = not error.request_sent or call.idempotent
        else:
            retryable = isinstance(error, InternalServerError) and call.idempotent
        if not retryable or run.retries >= self.max_retries:
            return None
        run.retries += 1
        return _backoff(run.retries)

    def _rate_limited(self, error: RateLimitError, run: RetryRun) -> float | None:
        retry_after = error.retry_after
        if retry_after is not None and retry_after > self.max_retry_after:
            return None
        if error.upstream_full:
            if run.upstream_retries >= self.upstream_full_retries or not run.call.retry_upstream_full:
                return None
            run.upstream_retries += 1
            return max(UPSTREAM_FULL_BACKOFF, retry_after or 0.0) + random.uniform(0.0, 0.5)
        if run.retries >= self.max_retries:
            return None
        run.retries += 1
        if retry_after is None:
            return _backoff(run.retries)
        return retry_after + random.uniform(0.0, min(1.0, 0.1 * retry_after + 0.1))


def _backoff(retry: int) -> float:
    # Exponential with jitter: 0.25-0.5 s, 0.5-1 s, 1-2 s ... at most 8 s.
    ceiling = min(_BACKOFF_CAP, _BACKOFF_BASE * 2 ** (retry - 1))
    return random.uniform(ceiling / 2, ceiling)


def _ambiguous(error: LeadEnrichError) -> bool:
    """The request may have reached the service and been acted on (a refund says it was not)."""
    return (isinstance(error, APIConnectionError) and error.request_sent) or (
        isinstance(error, InternalServerError) and not error.refunded
    )


def _add_sentence(error: LeadEnrichError, sentence: str) -> None:
    if sentence not in error.message:
        error.message = f"{error.message.rstrip().rstrip('.')}. {sentence}."


def explain_final(error: LeadEnrichError, call: Call[Any], run: RetryRun) -> None:
    """Add what the caller needs to know to the error a call ends with."""
    if call.charge_hint is not None and isinstance(error, InternalServerError) and error.refunded:
        _add_sentence(error, _SERVER_ERROR_REFUNDED)
    elif call.charge_hint is not None and _ambiguous(error):
        why = _SERVER_ERROR if isinstance(error, InternalServerError) else _LOST_ANSWER
        _add_sentence(error, f"{why}; {call.charge_hint}")
    elif call.method == "DELETE" and isinstance(error, NotFoundError) and run.sent_ambiguously:
        _add_sentence(error, "An earlier attempt, whose answer was lost, has probably deleted it")


@dataclass
class RetryRun:
    """The state of one call's retries: tenacity hooks that ask the policy."""

    policy: RetryPolicy
    call: Call[Any]
    deadline: Deadline | None = None
    """A wait's deadline: no back-off that would end past it is started."""
    telemetry: Telemetry | None = None
    retries: int = 0
    upstream_retries: int = 0
    attempts: int = 0
    sent_ambiguously: bool = False
    """An earlier attempt may have been acted on, though its answer was lost."""
    _next_delay: float = field(default=0.0, repr=False)
    _cut_short: float | None = field(default=None, repr=False)

    def should_retry(self, state: tenacity.RetryCallState) -> bool:
        assert state.outcome is not None
        error = state.outcome.exception()
        if not isinstance(error, LeadEnrichError):
            return False
        delay = self.policy.delay(error, self.call, self)
        if delay is not None and self.deadline is not None and delay > self.deadline.remaining():
            self._cut_short = delay
            delay = None
        if delay is None:
            explain_final(error, self.call, self)
            error.attempts = self.attempts
            return False
        self.sent_ambiguously = self.sent_ambiguously or _ambiguous(error)
        self._next_delay = delay
        return True

    def wait(self, state: tenacity.RetryCallState) -> float:
        return self._next_delay

    def log(self, state: tenacity.RetryCallState) -> None:
        assert state.outcome is not None
        error = state.outcome.exception()
        reason = _reason(error)
        if self.telemetry is not None:
            self.telemetry.retrying(reason, self._next_delay, self.attempts + 1)
        logger.info(
            "retrying %s %s after %s in %.2f s (attempt %d)",
            self.call.method,
            self.call.path,
            reason,
            self._next_delay,
            self.attempts + 1,
        )

    @contextmanager
    def deadline_guard(self) -> Generator[None, None, None]:
        """Turn the error whose retry the deadline ruled out into the wait's timeout."""
        try:
            yield
        except LeadEnrichError as exc:
            if self._cut_short is None or self.deadline is None:
                raise
            happened = (
                f"the service answered {_reason(exc)}"
                if isinstance(exc, APIStatusError)
                else f"the request failed ({_reason(exc)})"
            )
            raise CutShort(
                f"when {happened} and a retry would have waited {self._cut_short:.3g} s, past the "
                f"{self.deadline.timeout:g} s deadline"
            ) from exc

    def tenacity_options(self) -> dict[str, Any]:
        return {
            "retry": self.should_retry,
            "wait": self.wait,
            "stop": tenacity.stop_never,
            "before_sleep": self.log,
            "reraise": True,
        }


def _reason(error: BaseException | None) -> str:
    if isinstance(error, RateLimitError):
        return "429 upstream_full" if error.upstream_full else "429 rate limit"
    if isinstance(error, APIStatusError):
        return str(error.status_code)
    return type(error).__name__
