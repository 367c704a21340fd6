"""client.mobile: mobile-number lookups."""

from __future__ import annotations

from collections.abc import Callable

from .. import _endpoints
from .._clock import ServiceClock
from .._models import MobileFindOut
from .._polling import DEFAULT_LOOKUP_TIMEOUT, Deadline, Waiter, async_wait, wait
from ._protocols import AsyncSend, SyncSend

__all__ = ["AsyncMobile", "Mobile"]


class Mobile:
    """Look up mobile numbers: `client.mobile`.

    Examples:
        >>> client.mobile.find_and_wait(linkedin_url="https://www.linkedin.com/in/ada").state  # doctest: +SKIP
        'settled'
    """

    def __init__(self, send: SyncSend, clock: ServiceClock) -> None:
        self._send = send
        self._clock = clock

    def find(
        self,
        *,
        linkedin_url: str | None = None,
        first_name: str | None = None,
        last_name: str | None = None,
        company_name: str | None = None,
        domain: str | None = None,
    ) -> MobileFindOut:
        """Start a mobile lookup; returns at once in state `pending`.

        Same keyword rule as `email.find`. Charged one mobile credit only when the lookup
        settles with a number.

        Examples:
            >>> lookup = client.mobile.find(linkedin_url="https://linkedin.com/in/ada")  # doctest: +SKIP
            >>> lookup.state  # doctest: +SKIP
            'pending'
        """
        return self._send(
            _endpoints.find_mobile(
                linkedin_url=linkedin_url,
                first_name=first_name,
                last_name=last_name,
                company_name=company_name,
                domain=domain,
            )
        )

    def get(self, lookup_id: str) -> MobileFindOut:
        """The current state of a lookup: `pending`, `settled` (with `mobile`) or `refunded`.

        Examples:
            >>> client.mobile.get("mob_123").mobile  # doctest: +SKIP
            '+14155550123'
        """
        return self._send(_endpoints.get_mobile(lookup_id))

    def wait(
        self,
        lookup_id: str,
        *,
        timeout: float = DEFAULT_LOOKUP_TIMEOUT,
        poll_interval: float | None = None,
        on_progress: Callable[[MobileFindOut], object] | None = None,
    ) -> MobileFindOut:
        """Poll a lookup until it is `settled` (number found) or `refunded` (none; free).

        Same schedule and deadline rules as [`Jobs.wait`][leadenrich._resources.jobs.Jobs.wait]
        (300 s by default); past the deadline raises PollTimeoutError with `.last`.

        Examples:
            >>> lookup = client.mobile.wait(pending.lookup_id)  # doctest: +SKIP
            >>> lookup.mobile if lookup.state == "settled" else "no number"  # doctest: +SKIP
        """
        return self._wait(lookup_id, _waiter(lookup_id, timeout, poll_interval, on_progress, self._clock))

    def find_and_wait(
        self,
        *,
        linkedin_url: str | None = None,
        first_name: str | None = None,
        last_name: str | None = None,
        company_name: str | None = None,
        domain: str | None = None,
        timeout: float = DEFAULT_LOOKUP_TIMEOUT,
        poll_interval: float | None = None,
        on_progress: Callable[[MobileFindOut], object] | None = None,
    ) -> MobileFindOut:
        """Start a lookup and wait for it to settle or be refunded.

        Examples:
            >>> lookup = client.mobile.find_and_wait(linkedin_url="https://linkedin.com/in/ada")  # doctest: +SKIP
            >>> lookup.state  # doctest: +SKIP
            'settled'
        """
        waiter = _waiter("", timeout, poll_interval, on_progress, self._clock)
        with waiter.sending():
            pending = self._send(
                _endpoints.find_mobile(
                    linkedin_url=linkedin_url,
                    first_name=first_name,
                    last_name=last_name,
                    company_name=company_name,
                    domain=domain,
                ),
                waiter.deadline,
            )
        waiter.what = f"mobile lookup {pending.lookup_id}"
        if waiter.observe(pending):
            return pending
        # The lookup was pending a moment ago: polling at once would only spend a request.
        self._clock.sleep(waiter.next_delay())
        return self._wait(pending.lookup_id, waiter)

    def _wait(self, lookup_id: str, waiter: Waiter[MobileFindOut]) -> MobileFindOut:
        call = _endpoints.get_mobile(lookup_id)
        return wait(lambda deadline: self._send(call, deadline), waiter)


def _waiter(
    lookup_id: str,
    timeout: float,
    poll_interval: float | None,
    on_progress: Callable[[MobileFindOut], object] | None,
    clock: ServiceClock,
) -> Waiter[MobileFindOut]:
    what = f"mobile lookup {lookup_id}" if lookup_id else "mobile lookup"
    return Waiter[MobileFindOut](what, Deadline(timeout, clock), poll_interval, on_progress)


class AsyncMobile:
    """Look up mobile numbers: `client.mobile` of the async client.

    Examples:
        >>> lookup = await client.mobile.find_and_wait(linkedin_url="https://www.linkedin.com/in/ada")  # doctest: +SKIP
    """

    def __init__(self, send: AsyncSend, clock: ServiceClock) -> None:
        self._send = send
        self._clock = clock

    async def find(
        self,
        *,
        linkedin_url: str | None = None,
        first_name: str | None = None,
        last_name: str | None = None,
        company_name: str | None = None,
        domain: str | None = None,
    ) -> MobileFindOut:
        """Start a mobile lookup; see [`Mobile.find`][leadenrich._resources.mobile.Mobile.find].

        Examples:
            >>> lookup = await client.mobile.find(linkedin_url="https://linkedin.com/in/ada")  # doctest: +SKIP
        """
        return await self._send(
            _endpoints.find_mobile(
                linkedin_url=linkedin_url,
                first_name=first_name,
                last_name=last_name,
                company_name=company_name,
                domain=domain,
            )
        )

    async def get(self, lookup_id: str) -> MobileFindOut:
        """The current state of a lookup.

        Examples:
            >>> lookup = await client.mobile.get("mob_123")  # doctest: +SKIP
        """
        return await self._send(_endpoints.get_mobile(lookup_id))

    async def wait(
        self,
        lookup_id: str,
        *,
        timeout: float = DEFAULT_LOOKUP_TIMEOUT,
        poll_interval: float | None = None,
        on_progress: Callable[[MobileFindOut], object] | None = None,
    ) -> MobileFindOut:
        """Poll a lookup until it is `settled` or `refunded`; see [`Mobile.wait`][leadenrich._resources.mobile.Mobile.wait].

        Examples:
            >>> lookup = await client.mobile.wait(pending.lookup_id)  # doctest: +SKIP
        """
        return await self._wait(
            lookup_id, _waiter(lookup_id, timeout, poll_interval, on_progress, self._clock)
        )

    async def find_and_wait(
        self,
        *,
        linkedin_url: str | None = None,
        first_name: str | None = None,
        last_name: str | None = None,
        company_name: str | None = None,
        domain: str | None = None,
        timeout: float = DEFAULT_LOOKUP_TIMEOUT,
        poll_interval: float | None = None,
        on_progress: Callable[[MobileFindOut], object] | None = None,
    ) -> MobileFindOut:
        """Start a lookup and wait for it to settle or be refunded.

        Examples:
            >>> lookup = await client.mobile.find_and_wait(linkedin_url="https://linkedin.com/in/ada")  # doctest: +SKIP
        """
        waiter = _waiter("", timeout, poll_interval, on_progress, self._clock)
        with waiter.sending():
            pending = await self._send(
                _endpoints.find_mobile(
                    linkedin_url=linkedin_url,
                    first_name=first_name,
                    last_name=last_name,
                    company_name=company_name,
                    domain=domain,
                ),
                waiter.deadline,
            )
        waiter.what = f"mobile lookup {pending.lookup_id}"
        if waiter.observe(pending):
            return pending
        await self._clock.asleep(waiter.next_delay())
        return await self._wait(pending.lookup_id, waiter)

    async def _wait(self, lookup_id: str, waiter: Waiter[MobileFindOut]) -> MobileFindOut:
        call = _endpoints.get_mobile(lookup_id)
        return await async_wait(lambda deadline: self._send(call, deadline), waiter)
