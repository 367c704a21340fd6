"""client.mobile: mobile-number lookups."""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING

from typing_extensions import Unpack

from .. import _endpoints
from .._clock import ServiceClock
from .._endpoints import per_call
from .._polling import DEFAULT_LOOKUP_TIMEOUT, Deadline, Waiter, async_wait, wait
from .._response import APIResponse
from .._types import ExtraHeaders, ExtraQuery, PersonQuery, RequestTimeout
from ._protocols import AsyncRawSend, AsyncSend, SyncRawSend, SyncSend

if TYPE_CHECKING:
    from .._models import MobileFindOut

__all__ = ["AsyncMobile", "AsyncMobileWithRawResponse", "Mobile", "MobileWithRawResponse"]


class Mobile:
    """Look up mobile numbers: `client.mobile`.

    Examples:
        >>> client.mobile.find_and_wait(linkedin_url="https://www.linkedin.com/in/ada").state  # doctest: +SKIP
        'settled'
    """

    def __init__(self, send: SyncSend, raw: SyncRawSend, clock: ServiceClock) -> None:
        self._send = send
        self._raw = raw
        self._clock = clock

    @cached_property
    def with_raw_response(self) -> MobileWithRawResponse:
        """The same methods, returning the HTTP response: `client.mobile.with_raw_response.get(lookup_id)`."""
        return MobileWithRawResponse(self._raw)

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
            >>> lookup = client.mobile.find(linkedin_url="https://linkedin.com/in/ada")  # doctest: +SKIP
            >>> lookup.state  # doctest: +SKIP
            'pending'
        """
        return self._send(per_call(_endpoints.find_mobile(**person), timeout, extra_headers, extra_query))

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
            >>> client.mobile.get("mob_123").mobile  # doctest: +SKIP
            '+14155550123'
        """
        return self._send(per_call(_endpoints.get_mobile(lookup_id), timeout, extra_headers, extra_query))

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

        Same schedule and deadline rules as [`Jobs.wait`][leadenrich._resources.jobs.Jobs.wait]
        (300 s by default); past the deadline raises PollTimeoutError with `.last`.

        Examples:
            >>> lookup = client.mobile.wait(pending.lookup_id)  # doctest: +SKIP
            >>> lookup.mobile if lookup.state == "settled" else "no number"  # doctest: +SKIP
        """
        waiter = _waiter(lookup_id, timeout, poll_interval, on_progress, self._clock)
        return self._wait(lookup_id, waiter, extra_headers, extra_query)

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

        `timeout` is the deadline of the whole wait, as for `wait`.

        Examples:
            >>> lookup = client.mobile.find_and_wait(linkedin_url="https://linkedin.com/in/ada")  # doctest: +SKIP
            >>> lookup.state  # doctest: +SKIP
            'settled'
        """
        waiter = _waiter("", timeout, poll_interval, on_progress, self._clock)
        with waiter.sending():
            pending = self._send(
                per_call(_endpoints.find_mobile(**person), None, extra_headers, extra_query), waiter.deadline
            )
        waiter.what = f"mobile lookup {pending.lookup_id}"
        if waiter.observe(pending):
            return pending
        # The lookup was pending a moment ago: polling at once would only spend a request.
        self._clock.sleep(waiter.next_delay())
        return self._wait(pending.lookup_id, waiter, extra_headers, extra_query)

    def _wait(
        self,
        lookup_id: str,
        waiter: Waiter[MobileFindOut],
        extra_headers: ExtraHeaders,
        extra_query: ExtraQuery,
    ) -> MobileFindOut:
        call = per_call(_endpoints.get_mobile(lookup_id), None, extra_headers, extra_query)
        return wait(lambda deadline: self._send(call, deadline), waiter)


def _waiter(
    lookup_id: str,
    timeout: float,
    poll_interval: float | None,
    on_progress: Callable[[MobileFindOut], object] | None,
    clock: ServiceClock,
) -> Waiter[MobileFindOut]:
    what = f"mobile lookup {lookup_id}" if lookup_id else "mobile lookup"
    return Waiter(what, Deadline(timeout, clock), poll_interval, on_progress)


class MobileWithRawResponse:
    """`client.mobile.with_raw_response`: each call returns an [`APIResponse`][leadenrich.APIResponse].

    Examples:
        >>> raw = client.mobile.with_raw_response.get("mob_123")  # doctest: +SKIP
        >>> raw.headers.get("retry-after"), raw.retries_taken  # doctest: +SKIP
    """

    def __init__(self, raw: SyncRawSend) -> None:
        self._raw = raw

    def find(
        self,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
        **person: Unpack[PersonQuery],
    ) -> APIResponse[MobileFindOut]:
        """[`Mobile.find`][leadenrich._resources.mobile.Mobile.find], with the HTTP response.

        Examples:
            >>> raw = client.mobile.with_raw_response.find(linkedin_url="https://linkedin.com/in/ada")  # doctest: +SKIP
            >>> raw.status_code, raw.parse()  # doctest: +SKIP
        """
        return self._raw(per_call(_endpoints.find_mobile(**person), timeout, extra_headers, extra_query))

    def get(
        self,
        lookup_id: str,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
    ) -> APIResponse[MobileFindOut]:
        """[`Mobile.get`][leadenrich._resources.mobile.Mobile.get], with the HTTP response.

        Examples:
            >>> raw = client.mobile.with_raw_response.get("mob_123")  # doctest: +SKIP
            >>> raw.status_code, raw.parse()  # doctest: +SKIP
        """
        return self._raw(per_call(_endpoints.get_mobile(lookup_id), timeout, extra_headers, extra_query))


class AsyncMobile:
    """Look up mobile numbers: `client.mobile` of the async client.

    Examples:
        >>> lookup = await client.mobile.find_and_wait(linkedin_url="https://www.linkedin.com/in/ada")  # doctest: +SKIP
    """

    def __init__(self, send: AsyncSend, raw: AsyncRawSend, clock: ServiceClock) -> None:
        self._send = send
        self._raw = raw
        self._clock = clock

    @cached_property
    def with_raw_response(self) -> AsyncMobileWithRawResponse:
        """The same methods, returning the HTTP response: `await client.mobile.with_raw_response.get(lookup_id)`."""
        return AsyncMobileWithRawResponse(self._raw)

    async def find(
        self,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
        **person: Unpack[PersonQuery],
    ) -> MobileFindOut:
        """Start a mobile lookup; see [`Mobile.find`][leadenrich._resources.mobile.Mobile.find].

        Examples:
            >>> lookup = await client.mobile.find(linkedin_url="https://linkedin.com/in/ada")  # doctest: +SKIP
        """
        return await self._send(
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
        """The current state of a lookup.

        Examples:
            >>> lookup = await client.mobile.get("mob_123")  # doctest: +SKIP
        """
        return await self._send(
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
        """Poll a lookup until it is `settled` or `refunded`; see [`Mobile.wait`][leadenrich._resources.mobile.Mobile.wait].

        Examples:
            >>> lookup = await client.mobile.wait(pending.lookup_id)  # doctest: +SKIP
        """
        waiter = _waiter(lookup_id, timeout, poll_interval, on_progress, self._clock)
        return await self._wait(lookup_id, waiter, extra_headers, extra_query)

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
        """Start a lookup and wait for it to settle or be refunded.

        Examples:
            >>> lookup = await client.mobile.find_and_wait(linkedin_url="https://linkedin.com/in/ada")  # doctest: +SKIP
        """
        waiter = _waiter("", timeout, poll_interval, on_progress, self._clock)
        with waiter.sending():
            pending = await self._send(
                per_call(_endpoints.find_mobile(**person), None, extra_headers, extra_query), waiter.deadline
            )
        waiter.what = f"mobile lookup {pending.lookup_id}"
        if waiter.observe(pending):
            return pending
        await self._clock.asleep(waiter.next_delay())
        return await self._wait(pending.lookup_id, waiter, extra_headers, extra_query)

    async def _wait(
        self,
        lookup_id: str,
        waiter: Waiter[MobileFindOut],
        extra_headers: ExtraHeaders,
        extra_query: ExtraQuery,
    ) -> MobileFindOut:
        call = per_call(_endpoints.get_mobile(lookup_id), None, extra_headers, extra_query)
        return await async_wait(lambda deadline: self._send(call, deadline), waiter)


class AsyncMobileWithRawResponse:
    """`client.mobile.with_raw_response` of the async client: each call returns an [`APIResponse`][leadenrich.APIResponse].

    Examples:
        >>> raw = await client.mobile.with_raw_response.get("mob_123")  # doctest: +SKIP
        >>> raw.headers.get("retry-after"), raw.retries_taken  # doctest: +SKIP
    """

    def __init__(self, raw: AsyncRawSend) -> None:
        self._raw = raw

    async def find(
        self,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
        **person: Unpack[PersonQuery],
    ) -> APIResponse[MobileFindOut]:
        """[`Mobile.find`][leadenrich._resources.mobile.Mobile.find], with the HTTP response.

        Examples:
            >>> raw = await client.mobile.with_raw_response.find(linkedin_url="https://linkedin.com/in/ada")  # doctest: +SKIP
            >>> raw.status_code, raw.parse()  # doctest: +SKIP
        """
        return await self._raw(
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
        """[`Mobile.get`][leadenrich._resources.mobile.Mobile.get], with the HTTP response.

        Examples:
            >>> raw = await client.mobile.with_raw_response.get("mob_123")  # doctest: +SKIP
            >>> raw.status_code, raw.parse()  # doctest: +SKIP
        """
        return await self._raw(
            per_call(_endpoints.get_mobile(lookup_id), timeout, extra_headers, extra_query)
        )
