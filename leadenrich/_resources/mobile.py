"""client.mobile: mobile-number lookups."""

from __future__ import annotations

from .. import _endpoints
from .._models import MobileFindOut
from ._protocols import AsyncSend, SyncSend

__all__ = ["AsyncMobile", "Mobile"]


class Mobile:
    """Look up mobile numbers: `client.mobile`."""

    def __init__(self, send: SyncSend) -> None:
        self._send = send

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

        Example:
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

        Example:
            >>> client.mobile.get("mob_123").mobile  # doctest: +SKIP
            '+14155550123'
        """
        return self._send(_endpoints.get_mobile(lookup_id))


class AsyncMobile:
    """Look up mobile numbers: `client.mobile` of the async client."""

    def __init__(self, send: AsyncSend) -> None:
        self._send = send

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

        Example:
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

        Example:
            >>> lookup = await client.mobile.get("mob_123")  # doctest: +SKIP
        """
        return await self._send(_endpoints.get_mobile(lookup_id))
