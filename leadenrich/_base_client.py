"""The request path shared by both clients: build, pace, send, map errors, parse, retry.

Everything that does not wait lives in plain functions used by both classes; the sync and
async classes differ only where they send or sleep.
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import AsyncGenerator, Callable, Generator, Mapping
from contextlib import asynccontextmanager, contextmanager
from functools import cached_property
from types import FunctionType
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import httpx
import tenacity
from typing_extensions import Self, Unpack

from . import _lazy_models
from ._clock import Deadline, ServiceClock
from ._config import (
    DEFAULT_MAX_RETRIES,
    DEFAULT_MAX_RETRY_AFTER,
    DEFAULT_RATE_LIMITS,
    DEFAULT_TIMEOUT,
    DEFAULT_UPSTREAM_FULL_RETRIES,
    ClientOptions,
    ClientSettings,
    changed,
    resolve,
    settings_keywords,
)
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
from ._logs import log_failure, log_request, log_response, logger, setup_from_environment
from ._loop_pools import LoopPools
from ._owner import Owner
from ._polling import CutShort, JobDurations
from ._ratelimit import Pacer, RateLimits
from ._response import APIResponse
from ._retry import RetryRun
from ._telemetry import for_client as telemetry_for_client
from ._tls import shared_tls
from ._validate import describe

if TYPE_CHECKING:
    from pydantic import ValidationError

    from ._otel import Telemetry

__all__ = ["AsyncAPIClient", "SyncAPIClient"]

T = TypeVar("T")

# Failures that happen before a single byte of the request left this machine.
_NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout, httpx.UnsupportedProtocol)


# httpx's own ways of building a request, which `build_request` does as they do.
_HTTPX_BUILDERS = (httpx.Client.build_request, httpx.AsyncClient.build_request)


def build_request(
    http: httpx.Client | httpx.AsyncClient, options: ClientOptions, call: Call[Any]
) -> httpx.Request:
    """The request `call` sends through `http`: what `http.build_request` makes of it.

    Built here rather than by httpx, which merges the client's headers into each
    request's anew: `options.sent_headers` keeps them merged. The URL is absolute, so
    the client's `base_url` plays no part; its query parameters and cookies are added as
    httpx adds them. A client of a class that builds requests its own way (one that
    signs them, say) builds them.
    """
    headers = options.sent_headers.of(http, call.auth, call.body is not None)
    params = call.params
    timeout = options.long_timeout if call.runs_enrichment else options.timeout
    extras = call.extras
    if extras is not None:
        # Case-insensitively, so a call's "accept" replaces the client's "Accept".
        merged = httpx.Headers(headers)
        merged.update(extras.headers)
        headers = merged
        if extras.query:
            params = {**(params or {}), **extras.query}
        if extras.timeout is not None:
            # Taken as given, even below the 100 s a sync enrichment may need: the caller chose it.
            timeout = extras.timeout
    url = options.base_url + call.path
    if type(http).build_request not in _HTTPX_BUILDERS:
        request = http.build_request(
            call.method, url, params=params, content=call.body, headers=headers, timeout=timeout
        )
    else:
        if http.params:
            params = http.params.merge(params)
        request = httpx.Request(
            call.method,
            url,
            params=params,
            content=call.body,
            headers=headers,
            cookies=http.cookies,
            extensions={"timeout": timeout.as_dict()},
        )
    if logger.isEnabledFor(logging.DEBUG):
        log_request(request, options.api_key)
    return request


def connection_error(exc: httpx.RequestError, request: httpx.Request) -> APIConnectionError:
    if logger.isEnabledFor(logging.INFO):
        log_failure(request, exc)
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


def received(call: Call[Any], response: httpx.Response, options: ClientOptions) -> httpx.Response:
    """The response to `call` when its status is a success; its typed error otherwise."""
    if call.on_date is not None and (date := response.headers.get("date")) is not None:
        call.on_date(date)
    return check_status(response, options)


def check_status(response: httpx.Response, options: ClientOptions) -> httpx.Response:
    """The response when its status is a success; its typed error otherwise."""
    if logger.isEnabledFor(logging.INFO):
        log_response(response)
    if not response.is_success:
        raise status_error(response, secret=options.api_key)
    return response


def parse_response(call: Call[T], response: httpx.Response) -> T:
    try:
        return call.parse(response.content)
    except _lazy_models.ValidationError as exc:
        raise _validation_failure(call, response, exc) from None


def _validation_failure(
    call: Call[Any], response: httpx.Response, exc: ValidationError
) -> APIResponseValidationError:
    message = (
        f"{response.status_code} response to {call.method} {response.request.url.path} "
        f"does not fit {exc.title}: {describe(exc)}"
    )
    return APIResponseValidationError(message, response=response)


def raw_response(call: Call[T], response: httpx.Response, retries: int) -> APIResponse[T]:
    return APIResponse(response, functools.partial(parse_response, call), retries)


_HttpClient = TypeVar("_HttpClient", httpx.Client, httpx.AsyncClient)


class _BaseClient(Generic[_HttpClient]):
    """The constructor, settings, pacing and copies: the parts of a client that never wait."""

    _http_class: type[_HttpClient]
    """What the client sends through when it is given no `http_client`."""

    def __init__(
        self,
        api_key: str | None = None,
        *,
        base_url: str | None = None,
        timeout: float | httpx.Timeout = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        http_client: _HttpClient | None = None,
        default_headers: Mapping[str, str] | None = None,
        rate_limits: RateLimits | None = DEFAULT_RATE_LIMITS,
        max_retry_after: float = DEFAULT_MAX_RETRY_AFTER,
        upstream_full_retries: int = DEFAULT_UPSTREAM_FULL_RETRIES,
        clock: ServiceClock | None = None,
    ) -> None:
        setup_from_environment()
        given = ClientSettings(
            timeout=timeout,
            max_retries=max_retries,
            default_headers=default_headers,
            rate_limits=rate_limits,
            max_retry_after=max_retry_after,
            upstream_full_retries=upstream_full_retries,
            clock=clock,
        )
        # Left out when not given, so `resolve` reads them from the environment.
        if api_key is not None:
            given["api_key"] = api_key
        if base_url is not None:
            given["base_url"] = base_url
        self._options = resolve(given)
        self._pacer = _new_pacer(self._options)
        self._owns_pacer = True
        self._owns_http = http_client is None
        self._http: _HttpClient = (
            http_client if http_client is not None else self._http_class(verify=shared_tls())
        )
        # Shared by the client and its copies, as the connection pool is.
        self._durations = JobDurations()
        self._telemetry = telemetry_for_client()
        self._share()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # Python names the constructor's function when it refuses an argument
        # ("_BaseClient.__init__() got an unexpected keyword argument 'default_query'"):
        # each client class gets the one constructor under its own name instead.
        type.__setattr__(cls, "__init__", _constructor_of(cls))

    def _share(self) -> None:
        """Make the rest of what the client shares with its copies (a subclass adds to it)."""

    @property
    def base_url(self) -> str:
        """The API's base address, ending in `/api/v1`.

        Examples:
            >>> LeadEnrich(base_url="https://api.example.com").base_url
            'https://api.example.com/api/v1'
        """
        return self._options.base_url

    @property
    def max_retries(self) -> int:
        """How many times a retryable failure is retried.

        Examples:
            >>> client.with_options(max_retries=5).max_retries
            5
        """
        return self._options.retry.max_retries

    @property
    def timeout(self) -> httpx.Timeout:
        """The timeout of every call (sync enrich and re-enrich wait at least 100 s to read).

        Examples:
            >>> client.timeout.read, client.timeout.connect
            (30.0, 5.0)
        """
        return self._options.timeout

    @property
    def rate_limits(self) -> RateLimits | None:
        """The per-key budget the client paces itself to, or None when pacing is off.

        Examples:
            >>> client.rate_limits.sync_per_minute
            60
        """
        return self._pacer.limits if self._pacer is not None else None

    @property
    def clock(self) -> ServiceClock:
        """The service's clock: every wait the SDK makes counts in its seconds.

        Examples:
            >>> client.clock.scale
            1.0
        """
        return self._options.clock

    @settings_keywords
    def with_options(self, **changes: Unpack[ClientSettings]) -> Self:
        """A copy of this client that differs only in the settings given.

        Takes any of the constructor's settings but `http_client`: `api_key`, `base_url`,
        `timeout`, `max_retries`, `default_headers` (merged into this client's),
        `rate_limits`, `max_retry_after`, `upstream_full_retries` and `clock`.

        The copy shares the connection pool, and the rate-limit budget and enrichment
        slots unless it is given other `rate_limits`, another `api_key` or another `clock`.
        Closing the copy leaves the pool (and a shared budget's connections to Redis) open;
        closing the original closes them. A copy with a budget of its own closes that one.
        `copy.copy(client)` is `client.with_options()`.

        Raises:
            TypeError: A setting that is not one of those above.

        Examples:
            >>> patient = client.with_options(timeout=120, max_retries=5)
            >>> tagged = client.with_options(default_headers={"X-Team": "growth"})
        """
        options = resolve(changed({**self._options.settings, "api_key": self._options.api_key}, changes))
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        for name in list(clone.__dict__):
            # The namespaces are bound to the client that made them: the copy makes its own.
            if isinstance(getattr(type(self), name, None), cached_property):
                del clone.__dict__[name]
        clone._options = options
        ours = self._options
        # A copy on the same budget shares its pacer, which the original closes.
        clone._owns_pacer = not (
            options.rate_limits is ours.rate_limits
            and options.api_key == ours.api_key
            and options.clock is ours.clock
        )
        if clone._owns_pacer:
            clone._pacer = _new_pacer(options)
        clone._owns_http = False
        return clone

    def __copy__(self) -> Self:
        return self.with_options()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(base_url={self.base_url!r}, max_retries={self.max_retries})"

    def _link_state(self) -> tuple[ServiceClock, JobDurations, int | None, Owner, Telemetry | None]:
        """What a namespace's link reads of its client, sync or async alike: the clock, the
        job durations, how many enrichments the client's slots let run at once (None
        without pacing), whose account its requests go to, and its telemetry."""
        slots = self._pacer.limits.concurrent_enrichments if self._pacer is not None else None
        owner = Owner.of(self._options.base_url, self._options.api_key)
        return self._options.clock, self._durations, slots, owner, self._telemetry

    def _pace_delay(self, call: Call[Any], deadline: Deadline | None) -> float:
        if self._pacer is None or call.bucket is None:
            return 0.0
        return _in_time(self._pacer.reserve(call.bucket, _within(deadline)), deadline)

    async def _apace_delay(self, call: Call[Any], deadline: Deadline | None) -> float:
        if self._pacer is None or call.bucket is None:
            return 0.0
        return _in_time(await self._pacer.areserve(call.bucket, _within(deadline)), deadline)

    def _new_run(self, call: Call[Any], deadline: Deadline | None) -> RetryRun:
        return RetryRun(self._options.retry, call, deadline, self._telemetry)


def _constructor_of(cls: type) -> Callable[..., None]:
    """`_BaseClient.__init__`, as `cls.__init__`: the same code and defaults, with the class's
    own httpx client as `http_client` (written `_HttpClient`, a private type variable that
    `help()` and the API reference would show)."""
    init: FunctionType = vars(_BaseClient)["__init__"]
    named = FunctionType(init.__code__, init.__globals__, init.__name__, init.__defaults__, init.__closure__)
    named.__kwdefaults__ = init.__kwdefaults__
    http: type = inspect.getattr_static(cls, "_http_class")
    named.__annotations__ = {
        **init.__annotations__,
        "http_client": f"{http.__module__}.{http.__qualname__} | None",
    }
    named.__doc__ = init.__doc__
    named.__qualname__ = f"{cls.__qualname__}.__init__"
    return named


def _new_pacer(options: ClientOptions) -> Pacer | None:
    limits = options.rate_limits
    return Pacer(limits, options.clock, options.api_key) if limits is not None else None


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


class SyncAPIClient(_BaseClient[httpx.Client]):
    """The blocking request path."""

    _http_class = httpx.Client

    def _request(self, call: Call[T], deadline: Deadline | None = None) -> T:
        return parse_response(call, self._exchange(call, deadline)[0])

    def _request_raw(self, call: Call[T]) -> APIResponse[T]:
        return raw_response(call, *self._exchange(call, None))

    def _exchange(self, call: Call[Any], deadline: Deadline | None) -> tuple[httpx.Response, int]:
        """The successful response, and how many retries it took."""
        if call.runs_enrichment:
            with self._enrichment_slot(deadline):
                return self._send(call, deadline)
        return self._send(call, deadline)

    def _send(self, call: Call[Any], deadline: Deadline | None) -> tuple[httpx.Response, int]:
        try:
            return self._attempt(call, deadline), 0
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
            timeout=self.clock.real_seconds(deadline.remaining()) if deadline is not None else None
        ):
            raise _no_slot(self._pacer, deadline)
        try:
            yield
        finally:
            slots.release()

    def _attempt(self, call: Call[Any], deadline: Deadline | None, resend: int = 0) -> httpx.Response:
        request = build_request(self._http, self._options, call)
        if (delay := self._pace_delay(call, deadline)) > 0:
            self.clock.sleep(delay)
        if call.before_send is not None:
            call.before_send()
        if self._telemetry is None:
            return received(call, _sent(self._http, request), self._options)
        with self._telemetry.attempt(request, call, delay, resend) as attempt:
            return attempt.answered(received(call, _sent(self._http, request), self._options))

    def _retry(
        self, call: Call[Any], first: LeadEnrichError, deadline: Deadline | None
    ) -> tuple[httpx.Response, int]:
        run = self._new_run(call, deadline)
        pending = [first]

        def attempt() -> httpx.Response:
            run.attempts += 1
            if pending:
                raise pending.pop()
            return self._attempt(call, deadline, run.attempts - 1)

        retrying = tenacity.Retrying(sleep=self.clock.sleep, **run.tenacity_options())
        with run.deadline_guard():
            response: httpx.Response = retrying(attempt)
        return response, run.attempts - 1

    def close(self) -> None:
        """Close the connection pool (unless it was passed in as `http_client`).

        Examples:
            >>> client = LeadEnrich()
            >>> client.close()
        """
        if self._owns_http:
            self._http.close()
        if self._owns_pacer and self._pacer is not None:
            self._pacer.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class AsyncAPIClient(_BaseClient[httpx.AsyncClient]):
    """The asyncio request path; it never blocks the event loop."""

    _http_class = httpx.AsyncClient

    def _share(self) -> None:
        # A pool the client made is one per event loop; one given to it is used as it is.
        self._pools = (
            LoopPools(self._http, functools.partial(httpx.AsyncClient, verify=shared_tls()))
            if self._owns_http
            else None
        )

    async def _request(self, call: Call[T], deadline: Deadline | None = None) -> T:
        return parse_response(call, (await self._exchange(call, deadline))[0])

    async def _request_raw(self, call: Call[T]) -> APIResponse[T]:
        return raw_response(call, *await self._exchange(call, None))

    async def _exchange(self, call: Call[Any], deadline: Deadline | None) -> tuple[httpx.Response, int]:
        """The successful response, and how many retries it took."""
        if call.runs_enrichment:
            async with self._enrichment_slot(deadline):
                return await self._send(call, deadline)
        return await self._send(call, deadline)

    async def _send(self, call: Call[Any], deadline: Deadline | None) -> tuple[httpx.Response, int]:
        try:
            return await self._attempt(call, deadline), 0
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
                await asyncio.wait_for(slots.acquire(), self.clock.real_seconds(deadline.remaining()))
            except asyncio.TimeoutError:
                raise _no_slot(self._pacer, deadline) from None
        try:
            yield
        finally:
            slots.release()

    async def _attempt(self, call: Call[Any], deadline: Deadline | None, resend: int = 0) -> httpx.Response:
        http = self._http if self._pools is None else await self._pools.current()
        request = build_request(http, self._options, call)
        if (delay := await self._apace_delay(call, deadline)) > 0:
            await self.clock.asleep(delay)
        if call.before_send is not None:
            call.before_send()
        if self._telemetry is None:
            return received(call, await _asent(http, request), self._options)
        with self._telemetry.attempt(request, call, delay, resend) as attempt:
            return attempt.answered(received(call, await _asent(http, request), self._options))

    async def _retry(
        self, call: Call[Any], first: LeadEnrichError, deadline: Deadline | None
    ) -> tuple[httpx.Response, int]:
        run = self._new_run(call, deadline)
        pending = [first]

        async def attempt() -> httpx.Response:
            run.attempts += 1
            if pending:
                raise pending.pop()
            return await self._attempt(call, deadline, run.attempts - 1)

        retrying = tenacity.AsyncRetrying(sleep=self.clock.asleep, **run.tenacity_options())
        with run.deadline_guard():
            response: httpx.Response = await retrying(attempt)
        return response, run.attempts - 1

    async def aclose(self) -> None:
        """Close the connection pool (unless it was passed in as `http_client`).

        Examples:
            >>> client = AsyncLeadEnrich()
            >>> await client.aclose()
        """
        if self._owns_http and self._pools is not None:
            await self._pools.aclose()
        if self._owns_pacer and self._pacer is not None:
            await self._pacer.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()


def _sent(http: httpx.Client, request: httpx.Request) -> httpx.Response:
    try:
        return http.send(request)
    except httpx.RequestError as exc:
        raise connection_error(exc, request) from exc


async def _asent(http: httpx.AsyncClient, request: httpx.Request) -> httpx.Response:
    try:
        return await http.send(request)
    except httpx.RequestError as exc:
        raise connection_error(exc, request) from exc
