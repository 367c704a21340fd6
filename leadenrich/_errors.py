"""The exception hierarchy, and how an HTTP response becomes one of its errors."""

from __future__ import annotations

import json
import math
import re
from typing import TYPE_CHECKING, Any, cast

import httpx

from . import _lazy_models

if TYPE_CHECKING:
    from ._models import JobOut, MobileFindOut, ValidationErrorItem

__all__ = [
    "APIConnectionError",
    "APIResponseValidationError",
    "APIStatusError",
    "APITimeoutError",
    "AuthenticationError",
    "InternalServerError",
    "InvalidRequestError",
    "JobFailedError",
    "LeadEnrichError",
    "NotFoundError",
    "PermissionDeniedError",
    "PollTimeoutError",
    "QuotaExceededError",
    "RateLimitError",
    "UnprocessableEntityError",
]

_EXCERPT = 200


class LeadEnrichError(Exception):
    """The base of every error the SDK raises.

    Examples:
        >>> try:
        ...     client.leads.get("ld_missing")
        ... except LeadEnrichError as exc:
        ...     print(f"enrichment failed: {exc}")
    """

    attempts: int
    """How many times the request was sent (1 when it was not retried)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        self.attempts = 1

    def __reduce__(self) -> tuple[Any, ...]:
        # Exception pickles as cls(*args), which the subclasses' keyword-only arguments
        # refuse: rebuild without __init__ and restore the attributes instead, so errors
        # cross processes (multiprocessing, Celery, joblib) with class, status and detail.
        return (_restore, (type(self), self.args), self.__dict__.copy())

    def __str__(self) -> str:
        if self.attempts > 1:
            # Inside the last sentence: "... was lost (after 3 attempts)."
            ends_sentence = self.message.endswith(".")
            body = self.message[:-1] if ends_sentence else self.message
            return f"{body} (after {self.attempts} attempts){'.' if ends_sentence else ''}"
        return self.message


def _restore(cls: type[LeadEnrichError], args: tuple[Any, ...]) -> LeadEnrichError:
    return cls.__new__(cls, *args)


class InvalidRequestError(LeadEnrichError, ValueError):
    """The call was rejected by the SDK before anything was sent (and so nothing was charged).

    Examples:
        >>> try:
        ...     client.email.find(first_name="Ada")
        ... except InvalidRequestError as exc:
        ...     print(exc)  # says which combination of keywords is valid
    """


class APIConnectionError(LeadEnrichError):
    """The service could not be reached, or the connection broke before an answer came.

    `request_sent` tells whether the request may have reached the service. When it did and
    the call charges credit, the SDK does not re-send it: check `leads.list()` or the job
    before trying again.

    Examples:
        >>> try:
        ...     client.leads.enrich_sync({"company": "Acme", "domain": "acme.com"})
        ... except APIConnectionError as exc:
        ...     if exc.request_sent:
        ...         print("may have been charged: look among client.leads.iter() first")
    """

    def __init__(self, message: str, *, request: httpx.Request, request_sent: bool) -> None:
        super().__init__(message)
        self.request = request
        self.request_sent = request_sent


class APITimeoutError(APIConnectionError):
    """The service did not answer in time.

    Examples:
        >>> try:
        ...     client.with_options(timeout=5).usage()
        ... except APITimeoutError:
        ...     print("no answer within 5 s")
    """


class APIStatusError(LeadEnrichError):
    """The service answered with an error status.

    Attributes:
        status_code: The HTTP status.
        response: The `httpx.Response`.
        detail: The `detail` of the error body: a string, the 422 list, or None.
        body: The decoded JSON body, or the text when it was not JSON.

    Examples:
        >>> try:
        ...     client.leads.get("ld_123")
        ... except APIStatusError as exc:
        ...     print(exc.status_code, exc.detail)
        404 lead 'ld_123' not found
    """

    status_code: int
    response: httpx.Response
    detail: Any
    body: Any

    def __init__(self, message: str, *, response: httpx.Response, body: Any, detail: Any) -> None:
        super().__init__(message)
        self.response = response
        self.status_code = response.status_code
        self.body = body
        self.detail = detail


class AuthenticationError(APIStatusError):
    """401: the API key is missing or invalid. Pass it as `api_key` or set `LEADENRICH_API_KEY`.

    Examples:
        >>> try:
        ...     LeadEnrich(api_key="le_live_revoked").usage()
        ... except AuthenticationError as exc:
        ...     print(exc.status_code)
        401
    """


class QuotaExceededError(APIStatusError):
    """402: the monthly quota or the credits are exhausted; a credit pack is needed.

    Examples:
        >>> try:
        ...     client.leads.enrich_sync({"company": "Acme", "domain": "acme.com"})
        ... except QuotaExceededError:
        ...     print("out of credits: buy a pack or wait for next month")
    """


class PermissionDeniedError(APIStatusError):
    """403: the account's plan does not include API access (Growth, Scale and Enterprise do).

    Examples:
        >>> try:
        ...     client.usage()
        ... except PermissionDeniedError as exc:
        ...     print(exc.detail)
    """


class NotFoundError(APIStatusError):
    """404: no such job, lead or lookup, or it belongs to another account.

    Examples:
        >>> try:
        ...     client.leads.get("ld_deleted")
        ... except NotFoundError:
        ...     print("no such lead")
    """


class UnprocessableEntityError(APIStatusError):
    """422: the service rejected the request; `.errors` lists each invalid value.

    Examples:
        >>> try:
        ...     client.leads.list(limit=1000)
        ... except UnprocessableEntityError as exc:
        ...     for item in exc.errors:
        ...         print(item.loc, item.msg)
        ['query', 'limit'] Input should be less than or equal to 500
    """

    errors: list[ValidationErrorItem]

    def __init__(self, message: str, *, response: httpx.Response, body: Any, detail: Any) -> None:
        super().__init__(message, response=response, body=body, detail=detail)
        self.errors = _validation_items(detail)


class RateLimitError(APIStatusError):
    """429: too many requests.

    Attributes:
        retry_after: Seconds the service asked to wait (its `Retry-After` header), if given.
        upstream_full: True when the platform's ceiling of concurrent enrichments was
            reached (transient load), False when this key exceeded its own rate.

    Examples:
        >>> import time
        >>> try:
        ...     client.usage()
        ... except RateLimitError as exc:
        ...     time.sleep(exc.retry_after or 2.0)
    """

    retry_after: float | None
    upstream_full: bool

    def __init__(self, message: str, *, response: httpx.Response, body: Any, detail: Any) -> None:
        super().__init__(message, response=response, body=body, detail=detail)
        self.retry_after = _retry_after(response)
        self.upstream_full = isinstance(detail, str) and detail.lstrip().lower().startswith("upstream_full")


class InternalServerError(APIStatusError):
    """5xx: the service failed. GET and DELETE were retried; a call that spends credit was not.

    Attributes:
        refunded: True when the service's own answer says the credit was refunded (a
            failed enrichment: `"enrichment_failed: ...; the credit was refunded"`), so
            nothing was charged or stored. Otherwise a 5xx may come after a charge.

    Examples:
        >>> try:
        ...     client.leads.enrich_sync({"company": "Acme", "domain": "acme.com"})
        ... except InternalServerError as exc:
        ...     print(exc.status_code, exc.refunded, exc.body)
    """

    refunded: bool

    def __init__(self, message: str, *, response: httpx.Response, body: Any, detail: Any) -> None:
        super().__init__(message, response=response, body=body, detail=detail)
        # The spec names no field for it: the service's words, as the fake and the
        # service's own failed-enrichment detail put them ("... not refunded" is not one).
        self.refunded = isinstance(detail, str) and bool(_REFUNDED.search(detail))


_REFUNDED = re.compile(r"(?<!not )\brefunded\b", re.IGNORECASE)


class APIResponseValidationError(LeadEnrichError):
    """A successful answer whose body does not fit the expected model.

    Attributes:
        response: The `httpx.Response`.
        body: The body as text.

    Examples:
        >>> try:
        ...     client.usage()
        ... except APIResponseValidationError as exc:
        ...     print(exc.response.status_code, exc.body[:200])
    """

    def __init__(self, message: str, *, response: httpx.Response) -> None:
        super().__init__(message)
        self.response = response
        self.body: str = response.text


class JobFailedError(LeadEnrichError):
    """An enrichment job ended `failed`. `.job` is the final JobOut, `.job.error` says why.

    Examples:
        >>> try:
        ...     client.leads.enrich_and_wait({"company": "Acme", "domain": "acme.com"})
        ... except JobFailedError as exc:
        ...     print(exc.job.job_id, exc.job.error)
    """

    def __init__(self, job: JobOut) -> None:
        super().__init__(f"enrichment job {job.job_id} failed: {_reason(job.error)}")
        self.job = job


def _reason(error: dict[str, Any] | None) -> str:
    # The spec does not name the keys of a job's error: show its message when it has
    # one, else the whole object.
    if not error:
        return "no reason given"
    message, code = error.get("message"), error.get("code")
    if not isinstance(message, str) or not message.strip():
        return json.dumps(error)
    reason = message.strip().rstrip(".")
    return f"{reason} ({code})" if isinstance(code, str) else reason


class PollTimeoutError(LeadEnrichError):
    """A wait reached its deadline. `.last` is the last object polled (JobOut or MobileFindOut).

    The job or lookup goes on: wait for it again with `.last`'s id.

    Examples:
        >>> try:
        ...     job = client.jobs.wait(created.job_id, timeout=60)
        ... except PollTimeoutError as exc:
        ...     job = client.jobs.wait(exc.last.job_id, timeout=300)
    """

    def __init__(self, message: str, *, last: JobOut | MobileFindOut | None) -> None:
        super().__init__(message)
        self.last = last


_STATUS_ERRORS: dict[int, type[APIStatusError]] = {
    401: AuthenticationError,
    402: QuotaExceededError,
    403: PermissionDeniedError,
    404: NotFoundError,
    422: UnprocessableEntityError,
    429: RateLimitError,
}

# What to do, for an SDK user. A 401's detail tells how to send the key, which the SDK
# does for every request: that advice is left out of the message, and the hint says
# what can be wrong with the key itself. The 402 and 403 details already say what to do,
# so theirs stand in only for a missing detail (a proxy's HTML page).
_HINTS: dict[int, str] = {
    401: (
        "check the key given as api_key= or in LEADENRICH_API_KEY: it must be whole, as the "
        "dashboard showed it, not revoked, and a key of the service at {origin}"
    )
}
_SENDING_ADVICE = re.compile(r"\b(?:pass|send|use|provide|include)\b.*\bbearer\b", re.IGNORECASE)
_FALLBACK_HINTS: dict[int, str] = {
    402: "the monthly quota or the credits are spent; client.usage() shows which",
    403: "API access needs a Growth, Scale or Enterprise plan",
}


def status_error(response: httpx.Response, *, secret: str | None = None) -> APIStatusError:
    """Build the typed error for a non-2xx response.

    `secret` (the API key) is masked wherever the service echoed it into the message.
    """
    body, detail = _decode(response)
    code = response.status_code
    cls = _STATUS_ERRORS.get(code) or (InternalServerError if code >= 500 else APIStatusError)
    summary = _summarize(detail, body)
    request = response.request
    if code == 401 and isinstance(detail, str):
        summary = _without_sending_advice(detail)
    message = (
        f"{code} {response.reason_phrase or 'error'} from {request.method} {request.url.path}: {summary}"
    )
    hint = _HINTS.get(code) or (_FALLBACK_HINTS.get(code) if not isinstance(detail, str) else None)
    if hint:
        origin = f"{request.url.scheme}://{request.url.netloc.decode()}"
        message = f"{message.rstrip().rstrip('.')}; {hint.format(origin=origin)}"
    if secret:
        message = message.replace(secret, "***")
    return cls(message, response=response, body=body, detail=detail)


def _without_sending_advice(detail: str) -> str:
    """A 401's detail cut where it starts telling how to send the key (as a Bearer token):
    the SDK does so, and that advice would tell its user otherwise."""
    clauses = re.split(r"(?<=[:;.])\s+", detail.strip())
    advice = next((at for at, clause in enumerate(clauses) if _SENDING_ADVICE.search(clause)), len(clauses))
    return " ".join(clauses[:advice]).rstrip(":;. ") or "the API key was refused"


def _decode(response: httpx.Response) -> tuple[Any, Any]:
    try:
        body: Any = response.json()
    except (ValueError, UnicodeDecodeError, RecursionError):
        # RecursionError: JSON nested too deep to decode (a hostile or broken body).
        return response.text, None
    if isinstance(body, dict):
        mapping = cast("dict[str, Any]", body)
        return mapping, mapping.get("detail")
    return body, None


def _summarize(detail: Any, body: Any) -> str:
    if isinstance(detail, str):
        return detail
    if isinstance(detail, list):
        items = _validation_items(detail)  # pyright: ignore[reportUnknownArgumentType]
        if items:
            return "; ".join(f"{'.'.join(map(str, item.loc)) or '(request)'}: {item.msg}" for item in items)
    text = body if isinstance(body, str) else json.dumps(body)
    text = " ".join(text.split())
    if not text:
        return "empty body"
    return text if len(text) <= _EXCERPT else text[:_EXCERPT] + "..."


def _validation_items(detail: Any) -> list[ValidationErrorItem]:
    if not isinstance(detail, list):
        return []
    items: list[ValidationErrorItem] = []
    for entry in detail:  # pyright: ignore[reportUnknownVariableType]
        try:
            items.append(_lazy_models.ValidationErrorItem.model_validate(entry))
        except _lazy_models.ValidationError:
            continue
    return items


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    if value is None:
        return None
    try:
        seconds = float(value.strip())
    except ValueError:
        # An HTTP-date is allowed by RFC 9110 but the spec promises integer seconds.
        return None
    # "inf" or "1e400" parse, and a wait that long overflows time.sleep (bulk runs wait
    # out whatever a 429 asks); no server means it.
    return seconds if 0 <= seconds < math.inf else None


# An uncaught error's traceback ends with the class's module and name: the one users
# import (`leadenrich.LeadEnrichError`), not this private module. Pickles name it so too.
for _public in (
    LeadEnrichError,
    InvalidRequestError,
    APIConnectionError,
    APITimeoutError,
    APIStatusError,
    AuthenticationError,
    QuotaExceededError,
    PermissionDeniedError,
    NotFoundError,
    UnprocessableEntityError,
    RateLimitError,
    InternalServerError,
    APIResponseValidationError,
    JobFailedError,
    PollTimeoutError,
):
    _public.__module__ = "leadenrich"
