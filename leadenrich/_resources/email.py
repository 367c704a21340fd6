"""client.email: work-email discovery."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from typing_extensions import Unpack

from .. import _endpoints
from .._endpoints import per_call
from .._response import APIResponse
from .._types import ExtraHeaders, ExtraQuery, PersonQuery, RequestTimeout, person_keywords
from ._link import AsyncNamespace, SyncNamespace

if TYPE_CHECKING:
    from .._models import EmailFindOut

__all__ = ["AsyncEmail", "AsyncEmailWithRawResponse", "Email", "EmailWithRawResponse"]


class Email(SyncNamespace, spans="email"):
    """Find work emails: `client.email`.

    Examples:
        >>> client.email.find(linkedin_url="https://www.linkedin.com/in/ada").state
        'found'
    """

    @cached_property
    def with_raw_response(self) -> EmailWithRawResponse:
        """The same methods, returning the HTTP response: `client.email.with_raw_response.find(...)`."""
        return EmailWithRawResponse(self._link)

    @person_keywords
    def find(
        self,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
        **person: Unpack[PersonQuery],
    ) -> EmailFindOut:
        """Find a person's work email. Charged one enrichment credit on a hit, nothing on a miss.

        Pass `linkedin_url` alone, or `first_name` + `last_name` + (`company_name` or
        `domain`) (the keys of [`PersonQuery`][leadenrich.PersonQuery]); any other
        combination raises InvalidRequestError before sending.

        Examples:
            >>> result = client.email.find(first_name="Ada", last_name="Lovelace", domain="acme.com")
            >>> result.email if result.found else "no email"
            'ada.lovelace@acme.com'
        """
        return self._link.request(
            per_call(_endpoints.find_email(**person), timeout, extra_headers, extra_query)
        )


class EmailWithRawResponse(SyncNamespace, spans="email.with_raw_response"):
    """`client.email.with_raw_response`: each call returns an [`APIResponse`][leadenrich.APIResponse].

    Examples:
        >>> raw = client.email.with_raw_response.find(linkedin_url="https://linkedin.com/in/ada")
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
    ) -> APIResponse[EmailFindOut]:
        """[`Email.find`][leadenrich.Email.find], with the HTTP response.

        Examples:
            >>> raw = client.email.with_raw_response.find(linkedin_url="https://linkedin.com/in/ada")
            >>> raw.status_code, raw.parse()
        """
        return self._link.request_raw(
            per_call(_endpoints.find_email(**person), timeout, extra_headers, extra_query)
        )


class AsyncEmail(AsyncNamespace, spans="email"):
    """Find work emails: `client.email` of the async client.

    Examples:
        >>> result = await client.email.find(linkedin_url="https://www.linkedin.com/in/ada")
    """

    @cached_property
    def with_raw_response(self) -> AsyncEmailWithRawResponse:
        """The same methods, returning the HTTP response: `await client.email.with_raw_response.find(...)`."""
        return AsyncEmailWithRawResponse(self._link)

    @person_keywords
    async def find(
        self,
        *,
        timeout: RequestTimeout = None,
        extra_headers: ExtraHeaders = None,
        extra_query: ExtraQuery = None,
        **person: Unpack[PersonQuery],
    ) -> EmailFindOut:
        """[`Email.find`][leadenrich.Email.find], awaitable.

        Examples:
            >>> result = await client.email.find(linkedin_url="https://linkedin.com/in/ada")
        """
        return await self._link.request(
            per_call(_endpoints.find_email(**person), timeout, extra_headers, extra_query)
        )


class AsyncEmailWithRawResponse(AsyncNamespace, spans="email.with_raw_response"):
    """`client.email.with_raw_response` of the async client: each call returns an [`APIResponse`][leadenrich.APIResponse].

    Examples:
        >>> raw = await client.email.with_raw_response.find(linkedin_url="https://linkedin.com/in/ada")
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
    ) -> APIResponse[EmailFindOut]:
        """[`EmailWithRawResponse.find`][leadenrich._resources.email.EmailWithRawResponse.find], awaitable.

        Examples:
            >>> raw = await client.email.with_raw_response.find(linkedin_url="https://linkedin.com/in/ada")
            >>> raw.status_code, raw.parse()
        """
        return await self._link.request_raw(
            per_call(_endpoints.find_email(**person), timeout, extra_headers, extra_query)
        )
