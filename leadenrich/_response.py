"""APIResponse: what `with_raw_response` returns, the HTTP exchange with its parsed model one call away."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import httpx

__all__ = ["APIResponse", "elapsed_of"]

T = TypeVar("T")

_UNPARSED: Any = object()


def elapsed_of(response: httpx.Response) -> datetime.timedelta:
    """httpx's time for the exchange; zero for a response a transport built with its body
    already read (httpx.MockTransport), which httpx does not time."""
    try:
        return response.elapsed
    except RuntimeError:
        return datetime.timedelta(0)


class APIResponse(Generic[T]):
    """The HTTP response of one call, from `client.<resource>.with_raw_response.<method>(...)`.

    The status was already checked: an error status raised its usual error, so this is
    always a success. `parse()` gives the model the plain method returns.

    Examples:
        >>> raw = client.leads.with_raw_response.get("ld_123")
        >>> raw.status_code, raw.headers.get("x-request-id"), raw.retries_taken
        (200, 'req_8f2c', 0)
        >>> lead = raw.parse()
    """

    http_response: httpx.Response
    """The `httpx.Response`, body already read."""
    retries_taken: int
    """How many times the request was sent again before this answer (0 when it was not)."""

    def __init__(
        self, http_response: httpx.Response, parse: Callable[[httpx.Response], T], retries_taken: int
    ) -> None:
        self.http_response = http_response
        self.retries_taken = retries_taken
        self._parse = parse
        self._parsed: T = _UNPARSED

    @property
    def status_code(self) -> int:
        """The HTTP status.

        Examples:
            >>> raw.status_code
            200
        """
        return self.http_response.status_code

    @property
    def headers(self) -> httpx.Headers:
        """The response headers (case-insensitive), such as `Retry-After` or a request id.

        Examples:
            >>> raw.headers.get("retry-after")
        """
        return self.http_response.headers

    @property
    def elapsed(self) -> datetime.timedelta:
        """Time from sending the last attempt to reading the whole answer (zero for a
        response an `httpx.MockTransport` built, which httpx does not time).

        Examples:
            >>> raw.elapsed.total_seconds()
        """
        return elapsed_of(self.http_response)

    @property
    def http_request(self) -> httpx.Request:
        """The `httpx.Request` of the attempt that got this answer (its Authorization header holds the key).

        Examples:
            >>> raw.http_request.url
        """
        return self.http_response.request

    @property
    def url(self) -> httpx.URL:
        """The URL the request went to.

        Examples:
            >>> str(raw.url)
        """
        return self.http_response.url

    @property
    def method(self) -> str:
        """The HTTP method.

        Examples:
            >>> raw.method
            'GET'
        """
        return self.http_response.request.method

    @property
    def content(self) -> bytes:
        """The body as bytes.

        Examples:
            >>> len(raw.content)
        """
        return self.http_response.content

    @property
    def text(self) -> str:
        """The body as text.

        Examples:
            >>> raw.text[:80]
        """
        return self.http_response.text

    def json(self) -> Any:
        """The body decoded from JSON, without the model.

        Examples:
            >>> raw.json()["id"]
        """
        return self.http_response.json()

    def parse(self) -> T:
        """The model the plain method returns, built once and then cached.

        Raises:
            APIResponseValidationError: The body does not fit the model.


        Examples:
            >>> raw.parse().id
        """
        if self._parsed is _UNPARSED:
            self._parsed = self._parse(self.http_response)
        return self._parsed

    def __repr__(self) -> str:
        response = self.http_response
        return (
            f"<APIResponse [{response.status_code} {response.reason_phrase}] {self.method} {self.url.path}>"
        )
