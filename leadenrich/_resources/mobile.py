"""client.mobile: mobile-number lookups."""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING

from typing_extensions import Unpack

from .. import _endpoints
from .._clock import Deadline, ServiceClock
from .._endpoints import per_call, with_extras
from .._polling import DEFAULT_LOOKUP_TIMEOUT, Waiter, poll
from .._response import APIResponse
from .._steps import Pause, Send, Steps
from .._types import ExtraHeaders, ExtraQuery, PersonQuery, RequestTimeout, person_keywords
from ._link import AsyncNamespace, Link, SyncNamespace

if TYPE_CHECKING:
    from .._models import MobileFindOut

__all__ = ["AsyncMobile", "AsyncMobileWithRawResponse", "Mobile", "MobileWithRawResponse"]


class Mobile(SyncNamespace, spans="mobile"):
    """Look up mobile numbers: `client.mobile`.

    Examples:
        >>> client.mobile.find_and_wait(linkedin_url="https://www.linkedin.com/in/ada").state
        'settled'
    """

    @cached_property
    def with_raw_response(self) -> MobileWithRawResponse:
        """The same methods, returning the HTTP response: `client.mobile.with_raw_response.get(lookup_id)`."""
        return MobileWithRawResponse(self._link)

    @person_keywords
    def find(
        self,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
        **person: Unpack[PersonQuery],
    ) -> MobileFindOut:
        """Start a mobile lookup; returns at once in state `pending`.

        Same keyword rule as `email.find` (the keys of [`PersonQuery`][leadenrich.PersonQuery]).
        Charged one mobile credit only when the lookup settles with a number.

        Examples:
            >>> lookup = client.mobile.find(linkedin_url="https://linkedin.com/in/ada")
            >>> lookup.state
            'pending'
        """
        return self._link.request(
            per_call(_endpoints.find_mobile(**person), timeout, extra_headers, extra_query)
        )

    def get(
        self,
        lookup_id: str,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> MobileFindOut:
        """The current state of a lookup: `pending`, `settled` (with `mobile`) or `refunded`.

        Examples:
            >>> client.mobile.get("mob_123").mobile
            '+14155550123'
        """
        return self._link.request(
            per_call(_endpoints.get_mobile(lookup_id), timeout, extra_headers, extra_query)
        )

    def wait(
        self,
        lookup_id: str,
        *,
        timeout: float = DEFAULT_LOOKUP_TIMEOUT,
        poll_interval: float | None = None,
        on_progress: Callable[[MobileFindOut], object] | None = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> MobileFindOut:
        """Poll a lookup until it is `settled` (number found) or `refunded` (none; free).

        Polled at once, then `poll_interval` apart; without it, 1 s apart growing 1.5x per
        poll up to 5 s, as [`Jobs.wait`][leadenrich.Jobs.wait] polls a job
        it does not know. Past `timeout` (300 s by default) raises PollTimeoutError with `.last`.

        Examples:
            >>> lookup = client.mobile.wait(pending.lookup_id)
            >>> lookup.mobile if lookup.state == "settled" else "no number"
        """
        return self._link.run(
            _wait(self._link, lookup_id, timeout, poll_interval, on_progress, extra_headers, extra_query)
        )

    @person_keywords
    def find_and_wait(
        self,
        *,
        timeout: float = DEFAULT_LOOKUP_TIMEOUT,
        poll_interval: float | None = None,
        on_progress: Callable[[MobileFindOut], object] | None = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
        **person: Unpack[PersonQuery],
    ) -> MobileFindOut:
        """Start a lookup and wait for it to settle or be refunded.

        The first poll comes `poll_interval` (1 s by default) after the lookup was
        created; then as `wait`. `timeout` is the deadline of the whole wait.

        Examples:
            >>> lookup = client.mobile.find_and_wait(linkedin_url="https://linkedin.com/in/ada")
            >>> lookup.state
            'settled'
        """
        waiter = _waiter("mobile lookup", timeout, poll_interval, on_progress, self._link.clock)
        return self._link.run(_find_and_wait(waiter, person, extra_headers, extra_query))


def _waiter(
    what: str,
    timeout: float,
    poll_interval: float | None,
    on_progress: Callable[[MobileFindOut], object] | None,
    clock: ServiceClock,
) -> Waiter[MobileFindOut]:
    return Waiter(what, Deadline(timeout, clock), poll_interval, on_progress)


def _wait(
    link: Link,
    lookup_id: str,
    timeout: float,
    poll_interval: float | None,
    on_progress: Callable[[MobileFindOut], object] | None,
    extra_headers: ExtraHeaders,
    extra_query: ExtraQuery,
) -> Steps[MobileFindOut]:
    """What `wait` does, written once for both clients."""
    waiter = _waiter(f"mobile lookup {lookup_id}", timeout, poll_interval, on_progress, link.clock)
    return poll(waiter, per_call(_endpoints.get_mobile(lookup_id), None, extra_headers, extra_query))


def _find_and_wait(
    waiter: Waiter[MobileFindOut], person: PersonQuery, extra_headers: ExtraHeaders, extra_query: ExtraQuery
) -> Steps[MobileFindOut]:
    """What `find_and_wait` does, written once for both clients."""
    find = per_call(_endpoints.find_mobile(**person), None, extra_headers, extra_query)
    with waiter.sending():
        pending: MobileFindOut = yield Send(find, waiter.deadline)
    waiter.what = f"mobile lookup {pending.lookup_id}"
    if waiter.observe(pending):
        return pending
    # The lookup was pending a moment ago: polling at once would only spend a request.
    yield Pause(waiter.next_delay())
    return (yield from poll(waiter, with_extras(_endpoints.get_mobile(pending.lookup_id), find.extras)))


class MobileWithRawResponse(SyncNamespace, spans="mobile.with_raw_response"):
    """`client.mobile.with_raw_response`: each call returns an [`APIResponse`][leadenrich.APIResponse].

    Examples:
        >>> raw = client.mobile.with_raw_response.get("mob_123")
        >>> raw.headers.get("retry-after"), raw.retries_taken
    """

    @person_keywords
    def find(
        self,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
        **person: Unpack[PersonQuery],
    ) -> APIResponse[MobileFindOut]:
        """[`Mobile.find`][leadenrich.Mobile.find], with the HTTP response.

        Examples:
            >>> raw = client.mobile.with_raw_response.find(linkedin_url="https://linkedin.com/in/ada")
            >>> raw.status_code, raw.parse()
        """
        return self._link.request_raw(
            per_call(_endpoints.find_mobile(**person), timeout, extra_headers, extra_query)
        )

    def get(
        self,
        lookup_id: str,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> APIResponse[MobileFindOut]:
        """[`Mobile.get`][leadenrich.Mobile.get], with the HTTP response.

        Examples:
            >>> raw = client.mobile.with_raw_response.get("mob_123")
            >>> raw.status_code, raw.parse()
        """
        return self._link.request_raw(
            per_call(_endpoints.get_mobile(lookup_id), timeout, extra_headers, extra_query)
        )


class AsyncMobile(AsyncNamespace, spans="mobile"):
    """Look up mobile numbers: `client.mobile` of the async client.

    Examples:
        >>> lookup = await client.mobile.find_and_wait(linkedin_url="https://www.linkedin.com/in/ada")
    """

    @cached_property
    def with_raw_response(self) -> AsyncMobileWithRawResponse:
        """The same methods, returning the HTTP response: `await client.mobile.with_raw_response.get(lookup_id)`."""
        return AsyncMobileWithRawResponse(self._link)

    @person_keywords
    async def find(
        self,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
        **person: Unpack[PersonQuery],
    ) -> MobileFindOut:
        """[`Mobile.find`][leadenrich.Mobile.find], awaitable.

        Examples:
            >>> lookup = await client.mobile.find(linkedin_url="https://linkedin.com/in/ada")
        """
        return await self._link.request(
            per_call(_endpoints.find_mobile(**person), timeout, extra_headers, extra_query)
        )

    async def get(
        self,
        lookup_id: str,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> MobileFindOut:
        """[`Mobile.get`][leadenrich.Mobile.get], awaitable.

        Examples:
            >>> lookup = await client.mobile.get("mob_123")
        """
        return await self._link.request(
            per_call(_endpoints.get_mobile(lookup_id), timeout, extra_headers, extra_query)
        )

    async def wait(
        self,
        lookup_id: str,
        *,
        timeout: float = DEFAULT_LOOKUP_TIMEOUT,
        poll_interval: float | None = None,
        on_progress: Callable[[MobileFindOut], object] | None = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> MobileFindOut:
        """[`Mobile.wait`][leadenrich.Mobile.wait], awaitable; cancelling the
        awaiting task stops the polling at once.

        Examples:
            >>> lookup = await client.mobile.wait(pending.lookup_id)
        """
        return await self._link.run(
            _wait(self._link, lookup_id, timeout, poll_interval, on_progress, extra_headers, extra_query)
        )

    @person_keywords
    async def find_and_wait(
        self,
        *,
        timeout: float = DEFAULT_LOOKUP_TIMEOUT,
        poll_interval: float | None = None,
        on_progress: Callable[[MobileFindOut], object] | None = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
        **person: Unpack[PersonQuery],
    ) -> MobileFindOut:
        """[`Mobile.find_and_wait`][leadenrich.Mobile.find_and_wait], awaitable.

        Examples:
            >>> lookup = await client.mobile.find_and_wait(linkedin_url="https://linkedin.com/in/ada")
        """
        waiter = _waiter("mobile lookup", timeout, poll_interval, on_progress, self._link.clock)
        return await self._link.run(_find_and_wait(waiter, person, extra_headers, extra_query))


class AsyncMobileWithRawResponse(AsyncNamespace, spans="mobile.with_raw_response"):
    """`client.mobile.with_raw_response` of the async client: each call returns an [`APIResponse`][leadenrich.APIResponse].

    Examples:
        >>> raw = await client.mobile.with_raw_response.get("mob_123")
        >>> raw.headers.get("retry-after"), raw.retries_taken
    """

    @person_keywords
    async def find(
        self,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
        **person: Unpack[PersonQuery],
    ) -> APIResponse[MobileFindOut]:
        """[`MobileWithRawResponse.find`][leadenrich._resources.mobile.MobileWithRawResponse.find], awaitable.

        Examples:
            >>> raw = await client.mobile.with_raw_response.find(linkedin_url="https://linkedin.com/in/ada")
            >>> raw.status_code, raw.parse()
        """
        return await self._link.request_raw(
            per_call(_endpoints.find_mobile(**person), timeout, extra_headers, extra_query)
        )

    async def get(
        self,
        lookup_id: str,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> APIResponse[MobileFindOut]:
        """[`MobileWithRawResponse.get`][leadenrich._resources.mobile.MobileWithRawResponse.get], awaitable.

        Examples:
            >>> raw = await client.mobile.with_raw_response.get("mob_123")
            >>> raw.status_code, raw.parse()
        """
        return await self._link.request_raw(
            per_call(_endpoints.get_mobile(lookup_id), timeout, extra_headers, extra_query)
        )
