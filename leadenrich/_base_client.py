"""The request path shared by both clients: build, pace, send, map errors, parse, retry.

Everything that does not wait lives in plain functions used by both classes; the sync and
async classes differ only where they send or sleep.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncGenerator, Generator, Mapping
from contextlib import asynccontextmanager, contextmanager
from typing import Any, TypeVar

import httpx
import tenacity
from pydantic import ValidationError
from typing_extensions import Self

from ._clock import ServiceClock
from ._config import ClientOptions, resolve_clock, resolve_options, with_timeout
from ._endpoints import Call
from ._errors import (
    APIConnectionError,
    APIResponseValidationError,
    APIStatusError,
    APITimeoutError,
    LeadEnrichError,
    PollTimeoutError,
    status_error,
)
from ._polling import CutShort, Deadline, JobDurations
from ._ratelimit import Pacer, RateLimits
from ._retry import RetryPolicy, RetryRun
from ._validate import describe, integer, seconds

__all__ = ["AsyncAPIClient", "SyncAPIClient"]

T = TypeVar("T")

logger = logging.getLogger("leadenrich")

_LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})

# Failures that happen before a single byte of the request left this machine.
_NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout, httpx.UnsupportedProtocol)


def build_request(
    http: httpx.Client | httpx.AsyncClient, options: ClientOptions, call: Call[Any]
) -> httpx.Request:
    headers = dict(options.auth_headers if call.auth else options.headers)
    if call.body is not None:
        headers["Content-Type"] = "application/json"
    return http.build_request(
        call.method,
        options.base_url + call.path,
        params=call.params,
        content=call.body,
        headers=headers,
        timeout=options.long_timeout if call.runs_enrichment else options.timeout,
    )


def connection_error(exc: httpx.RequestError, request: httpx.Request) -> APIConnectionError:
    sent = not isinstance(exc, _NOT_SENT)
    cls = APITimeoutError if isinstance(exc, httpx.TimeoutException) else APIConnectionError
    what = "timed out" if cls is APITimeoutError else "failed"
    stage = "after the request was sent" if sent else "before the request was sent"
    detail = str(exc) or type(exc).__name__
    if isinstance(exc, (httpx.ConnectError, httpx.ConnectTimeout)):
        # No connection at all: most often the address is wrong or the service is down.
        origin = f"{request.url.scheme}://{request.url.netloc.decode()}"
        detail += f"; check that base_url ({origin}) is right and the service is up"
    return cls(
        f"{request.method} {request.url.path} {what} {stage}: {detail}",
        request=request,
        request_sent=sent,
    )


def process_response(call: Call[T], response: httpx.Response, options: ClientOptions) -> T:
    if logger.isEnabledFor(logging.DEBUG):
        logger.debug("%s %s -> %d", call.method, response.request.url.path, response.status_code)
    if not response.is_success:
        raise status_error(response, secret=options.api_key)
    try:
        return call.parse(response.content)
    except ValidationError as exc:
        raise _validation_failure(call, response, exc) from None


def _validation_failure(
    call: Call[Any], response: httpx.Response, exc: ValidationError
) -> APIResponseValidationError:
    message = (
        f"{response.status_code} response to {call.method} {response.request.url.path} "
        f"does not fit {exc.title}: {describe(exc)}"
    )
    return APIResponseValidationError(message, response=response)


class _BaseClient:
    """Settings, pacing and copies: the parts of a client that never wait."""

    _options: ClientOptions
    _policy: RetryPolicy
    _clock: ServiceClock
    _pacer: Pacer | None
    _owns_http: bool
    _owns_pacer: bool
    _durations: JobDurations

    def _configure(
        self,
        api_key: str | None,
        base_url: str | None,
        timeout: float | httpx.Timeout,
        max_retries: int,
        default_headers: Mapping[str, str] | None,
        rate_limits: RateLimits | None,
        max_retry_after: float,
        upstream_full_retries: int,
        clock: ServiceClock | None,
    ) -> None:
        self._clock = clock = resolve_clock(clock)
        self._options = resolve_options(api_key, base_url, timeout, default_headers, clock)
        if clock.scale != 1.0 and httpx.URL(self._options.base_url).host not in _LOOPBACK:
            # A scaled clock is for a fake server: against the service it would poll, pace
            # and back off far too fast.
            logger.warning(
                "the client's clock runs at scale %g but base_url is not on this machine: "
                "unset LEADENRICH_TIME_SCALE (or pass no clock) for the real service",
                clock.scale,
            )
        self._policy = _policy(max_retries, max_retry_after, upstream_full_retries)
        if rate_limits is not None and not isinstance(rate_limits, RateLimits):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(f"rate_limits must be a RateLimits or None, got {type(rate_limits).__name__}")
        self._pacer = Pacer(rate_limits, clock, self._options.api_key) if rate_limits is not None else None
        self._owns_pacer = True
        self._durations = JobDurations()

    @property
    def base_url(self) -> str:
        """The API's base address, ending in `/api/v1`.

        Examples:
            >>> LeadEnrich(base_url="https://api.example.com").base_url  # doctest: +SKIP
            'https://api.example.com/api/v1'
        """
        return self._options.base_url

    @property
    def max_retries(self) -> int:
        """How many times a retryable failure is retried.

        Examples:
            >>> client.with_options(max_retries=5).max_retries  # doctest: +SKIP
            5
        """
        return self._policy.max_retries

    @property
    def timeout(self) -> httpx.Timeout:
        """The timeout of every call (sync enrich and re-enrich wait at least 100 s to read).

        Examples:
            >>> client.timeout.read, client.timeout.connect  # doctest: +SKIP
            (30.0, 5.0)
        """
        return self._options.timeout

    @property
    def rate_limits(self) -> RateLimits | None:
        """The per-key budget the client paces itself to, or None when pacing is off.

        Examples:
            >>> client.rate_limits.sync_per_minute  # doctest: +SKIP
            60
        """
        return self._pacer.limits if self._pacer is not None else None

    @property
    def clock(self) -> ServiceClock:
        """The service's clock: every wait the SDK makes counts in its seconds.

        Examples:
            >>> client.clock.scale  # doctest: +SKIP
            1.0
        """
        return self._clock

    def with_options(
        self,
        *,
        timeout: float | httpx.Timeout | None = None,
        max_retries: int | None = None,
        max_retry_after: float | None = None,
        upstream_full_retries: int | None = None,
    ) -> Self:
        """A copy of this client that differs only in the options given.

        The copy shares the connection pool and the rate-limit budget with this client.
        Closing the copy leaves the pool (and a shared budget's connections to Redis)
        open; closing the original closes them.

        Examples:
            >>> patient = client.with_options(timeout=120, max_retries=5)  # doctest: +SKIP
        """
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        if timeout is not None:
            clone._options = with_timeout(self._options, timeout, self._clock)
        clone._policy = _policy(
            self._policy.max_retries if max_retries is None else max_retries,
            self._policy.max_retry_after if max_retry_after is None else max_retry_after,
            self._policy.upstream_full_retries if upstream_full_retries is None else upstream_full_retries,
        )
        clone._owns_http = False
        clone._owns_pacer = False
        clone._bind_resources()
        return clone

    def _bind_resources(self) -> None:
        """Attach the resource namespaces (leads, jobs, ...) to this client."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(base_url={self.base_url!r}, max_retries={self.max_retries})"

    def _pace_delay(self, call: Call[Any], deadline: Deadline | None) -> float:
        if self._pacer is None or call.bucket is None:
            return 0.0
        return _in_time(self._pacer.reserve(call.bucket, _within(deadline)), deadline)

    async def _async_pace_delay(self, call: Call[Any], deadline: Deadline | None) -> float:
        if self._pacer is None or call.bucket is None:
            return 0.0
        return _in_time(await self._pacer.areserve(call.bucket, _within(deadline)), deadline)

    def _new_run(self, call: Call[Any], deadline: Deadline | None) -> RetryRun:
        return RetryRun(self._policy, call, deadline)


def _policy(max_retries: object, max_retry_after: object, upstream_full_retries: object) -> RetryPolicy:
    return RetryPolicy(
        integer("max_retries", max_retries, 0),
        seconds("max_retry_after", max_retry_after),
        integer("upstream_full_retries", upstream_full_retries, 0),
    )


def _within(deadline: Deadline | None) -> float | None:
    return deadline.remaining() if deadline is not None else None


def _in_time(delay: float | None, deadline: Deadline | None) -> float:
    """The pacer's wait, or the wait's timeout when the pacer's next place is past it."""
    if delay is None:
        assert deadline is not None  # the pacer refuses a place only past a deadline
        raise CutShort(
            f"when the per-key budget allowed its next request only after the {deadline.timeout:g} s deadline"
        )
    return delay


def _no_slot(pacer: Pacer, deadline: Deadline | None) -> PollTimeoutError:
    waited = f"{deadline.timeout:g} s" if deadline is not None else "the wait"
    slots = pacer.limits.concurrent_enrichments
    busy = "the enrichment slot" if slots == 1 else f"all {slots} enrichment slots"
    owner = "every client sharing this key's budget" if pacer.shares_slots else "this client"
    return PollTimeoutError(f"{busy} of {owner} stayed busy for {waited}; nothing was sent", last=None)


class SyncAPIClient(_BaseClient):
    """The blocking request path."""

    _http: httpx.Client

    def _request(self, call: Call[T], deadline: Deadline | None = None) -> T:
        if call.runs_enrichment:
            with self._enrichment_slot(deadline):
                return self._send(call, deadline)
        return self._send(call, deadline)

    def _send(self, call: Call[T], deadline: Deadline | None) -> T:
        try:
            return self._attempt(call, deadline)
        except (APIConnectionError, APIStatusError) as first:
            return self._retry(call, first, deadline)

    @contextmanager
    def _enrichment_slot(self, deadline: Deadline | None) -> Generator[None, None, None]:
        if self._pacer is None:
            yield
            return
        slots = self._pacer.slots
        # Semaphores count real seconds; the deadline, the service's.
        if not slots.acquire(
            timeout=self._clock.real_seconds(deadline.remaining()) if deadline is not None else None
        ):
            raise _no_slot(self._pacer, deadline)
        try:
            yield
        finally:
            slots.release()

    def _attempt(self, call: Call[T], deadline: Deadline | None) -> T:
        request = build_request(self._http, self._options, call)
        if (delay := self._pace_delay(call, deadline)) > 0:
            self._clock.sleep(delay)
        try:
            response = self._http.send(request)
        except httpx.RequestError as exc:
            raise connection_error(exc, request) from exc
        return process_response(call, response, self._options)

    def _retry(self, call: Call[T], first: LeadEnrichError, deadline: Deadline | None) -> T:
        run = self._new_run(call, deadline)
        pending = [first]

        def attempt() -> T:
            run.attempts += 1
            if pending:
                raise pending.pop()
            return self._attempt(call, deadline)

        retrying = tenacity.Retrying(sleep=self._clock.sleep, **run.tenacity_options())
        with run.deadline_guard():
            return retrying(attempt)

    def close(self) -> None:
        """Close the connection pool (unless it was passed in as `http_client`).

        Examples:
            >>> client = LeadEnrich()  # doctest: +SKIP
            >>> client.close()  # doctest: +SKIP
        """
        if self._owns_http:
            self._http.close()
        if self._owns_pacer and self._pacer is not None:
            self._pacer.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class AsyncAPIClient(_BaseClient):
    """The asyncio request path; it never blocks the event loop."""

    _http: httpx.AsyncClient

    async def _request(self, call: Call[T], deadline: Deadline | None = None) -> T:
        if call.runs_enrichment:
            async with self._enrichment_slot(deadline):
                return await self._send(call, deadline)
        return await self._send(call, deadline)

    async def _send(self, call: Call[T], deadline: Deadline | None) -> T:
        try:
            return await self._attempt(call, deadline)
        except (APIConnectionError, APIStatusError) as first:
            return await self._retry(call, first, deadline)

    @asynccontextmanager
    async def _enrichment_slot(self, deadline: Deadline | None) -> AsyncGenerator[None, None]:
        if self._pacer is None:
            yield
            return
        slots = self._pacer.async_slots
        if deadline is None:
            await slots.acquire()
        else:
            import asyncio

            try:
                await asyncio.wait_for(slots.acquire(), self._clock.real_seconds(deadline.remaining()))
            except asyncio.TimeoutError:
                raise _no_slot(self._pacer, deadline) from None
        try:
            yield
        finally:
            slots.release()

    async def _attempt(self, call: Call[T], deadline: Deadline | None) -> T:
        request = build_request(self._http, self._options, call)
        if (delay := await self._async_pace_delay(call, deadline)) > 0:
            await self._clock.asleep(delay)
        try:
            response = await self._http.send(request)
        except httpx.RequestError as exc:
            raise connection_error(exc, request) from exc
        return process_response(call, response, self._options)

    async def _retry(self, call: Call[T], first: LeadEnrichError, deadline: Deadline | None) -> T:
        run = self._new_run(call, deadline)
        pending = [first]

        async def attempt() -> T:
            run.attempts += 1
            if pending:
                raise pending.pop()
            return await self._attempt(call, deadline)

        retrying = tenacity.AsyncRetrying(sleep=self._clock.asleep, **run.tenacity_options())
        with run.deadline_guard():
            return await retrying(attempt)

    async def aclose(self) -> None:
        """Close the connection pool (unless it was passed in as `http_client`).

        Examples:
            >>> client = AsyncLeadEnrich()  # doctest: +SKIP
            >>> await client.aclose()  # doctest: +SKIP
        """
        if self._owns_http:
            await self._http.aclose()
        if self._owns_pacer and self._pacer is not None:
            await self._pacer.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()
