"""client.email: work-email discovery."""

from __future__ import annotations

from .. import _endpoints
from .._models import EmailFindOut
from ._protocols import AsyncSend, SyncSend

__all__ = ["AsyncEmail", "Email"]


class Email:
    """Find work emails: `client.email`.

    Examples:
        >>> client.email.find(linkedin_url="https://www.linkedin.com/in/ada").state  # doctest: +SKIP
        'found'
    """

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
    ) -> EmailFindOut:
        """Find a person's work email. Charged one enrichment credit on a hit, nothing on a miss.

        Pass `linkedin_url` alone, or `first_name` + `last_name` + (`company_name` or
        `domain`); any other combination raises InvalidRequestError before sending.

        Examples:
            >>> result = client.email.find(first_name="Ada", last_name="Lovelace", domain="acme.com")  # doctest: +SKIP
            >>> result.email if result.found else "no email"  # doctest: +SKIP
            'ada.lovelace@acme.com'
        """
        return self._send(
            _endpoints.find_email(
                linkedin_url=linkedin_url,
                first_name=first_name,
                last_name=last_name,
                company_name=company_name,
                domain=domain,
            )
        )


class AsyncEmail:
    """Find work emails: `client.email` of the async client.

    Examples:
        >>> result = await client.email.find(linkedin_url="https://www.linkedin.com/in/ada")  # doctest: +SKIP
    """

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
    ) -> EmailFindOut:
        """Find a person's work email; see [`Email.find`][leadenrich._resources.email.Email.find].

        Examples:
            >>> result = await client.email.find(linkedin_url="https://linkedin.com/in/ada")  # doctest: +SKIP
        """
        return await self._send(
            _endpoints.find_email(
                linkedin_url=linkedin_url,
                first_name=first_name,
                last_name=last_name,
                company_name=company_name,
                domain=domain,
            )
        )
