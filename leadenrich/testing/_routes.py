"""The spec's endpoints, with the SDK's models on the wire, and their OpenAPI descriptions.

The request reaches an endpoint authenticated (see _app.py): the server's runtime and
the caller are in its scope, under RUNTIME and CALLER.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, cast

from fastapi import APIRouter, Depends, Path, Query, Request, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from .._models import (
    EmailFindIn,
    EmailFindOut,
    EnrichJobCreated,
    EnrichRequest,
    Health,
    JobOut,
    LeadDeleted,
    LeadOut,
    LeadPage,
    MobileFindIn,
    MobileFindOut,
    UsageOut,
)
from ._records import Caller
from ._runtime import Runtime
from ._settings import FakeSettings
from ._shapes import delete_body, health_body, invalid, json_body, listing, page_bounds

__all__ = ["API_VERSION", "CALLER", "RUNTIME", "receive_callback", "router", "run_mode"]

API_VERSION = "1.0.0"

_bearer = HTTPBearer(
    auto_error=False, description="The API key: `Authorization: Bearer <API_KEY>`", scheme_name="APIKey"
)


def _error(description: str, *, retry_after: bool = False) -> dict[str, Any]:
    response: dict[str, Any] = {
        "description": description,
        "content": {
            "application/json": {
                "schema": {
                    "type": "object",
                    "properties": {"detail": {"type": "string"}},
                    "required": ["detail"],
                }
            }
        },
    }
    if retry_after:
        response["headers"] = {
            "Retry-After": {"description": "Seconds to wait.", "schema": {"type": "integer"}}
        }
    return response


_COMMON: dict[int | str, dict[str, Any]] = {
    401: _error("API key missing or invalid"),
    403: _error("The plan does not allow API access (Growth, Scale and Enterprise do)"),
    429: _error("Rate limited: per key, or `upstream_full`", retry_after=True),
}
_QUOTA: dict[int | str, dict[str, Any]] = {402: _error("Monthly quota or credits exhausted")}
_NOT_FOUND: dict[int | str, dict[str, Any]] = {404: _error("Not found, or not owned by this key's account")}


RUNTIME = "leadenrich.runtime"
CALLER = "leadenrich.caller"


def _runtime(request: Request) -> Runtime:
    return cast("Runtime", request.scope[RUNTIME])


def run_mode(raw: str, settings: FakeSettings) -> Literal["sync", "async"] | None:
    """The mode an enrich request runs in; None when `unknown_mode` rejects it."""
    if raw == "sync":
        return "sync"
    if raw == "async":
        return "async"
    return None if settings.unknown_mode == "reject" else settings.unknown_mode


async def _authenticate(
    request: Request, credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]
) -> Caller:
    # The server authenticated the request before the app parsed anything (see
    # _app.py); `credentials` is here for the OpenAPI document.
    return cast("Caller", request.scope[CALLER])


Authenticated = Annotated[Caller, Depends(_authenticate)]


router = APIRouter(prefix="/api/v1")


@router.get("/health", response_model=Health, tags=["health"])
async def health(request: Request) -> Response:
    """Liveness: no key needed, nothing counted or charged."""
    return health_body(_runtime(request).state.settings.health_body, API_VERSION)


@router.post(
    "/leads/enrich",
    status_code=202,
    response_model=None,
    tags=["leads"],
    responses={
        202: {"model": EnrichJobCreated, "description": "Async mode: the job was queued"},
        200: {"model": LeadOut, "description": "Sync mode: the enriched (or deduped) lead"},
        502: _error("Sync mode: the enrichment failed (its credit was refunded)"),
        **_COMMON,
        **_QUOTA,
    },
)
async def enrich(
    request: Request,
    body: EnrichRequest,
    caller: Authenticated,
    mode: Annotated[
        str,
        Query(
            description="`async` (default) queues a job; `sync` blocks",
            json_schema_extra={"enum": ["sync", "async"]},
        ),
    ] = "async",
) -> Response:
    """Enrich one lead, as a job (async, 202) or inline (sync, 200)."""
    runtime = _runtime(request)
    run_as = run_mode(mode, runtime.state.settings)
    if run_as is None:
        raise invalid(("query", "mode"), "Input should be 'sync' or 'async'", "literal_error", mode)
    if run_as == "sync":
        return json_body(await runtime.behind_gateway(runtime.enrich_sync(caller, body.lead)))
    job, plan = runtime.state.async_jobs.create(caller, body.lead, body.callback_url)
    if plan is not None:
        runtime.spawn(runtime.run_job(job.job_id, caller, body.lead, plan, body.callback_url))
    elif body.callback_url is not None:
        runtime.spawn(runtime.deliver(job, body.callback_url))
    return json_body(EnrichJobCreated(job_id=job.job_id, status="queued"), 202)


@router.get("/jobs/{job_id}", response_model=JobOut, tags=["jobs"], responses={**_COMMON, **_NOT_FOUND})
async def get_job(request: Request, job_id: str, caller: Authenticated) -> Response:
    """The state of an enrichment job."""
    return json_body(_runtime(request).state.async_jobs.owned(caller, job_id))


@router.get("/leads", response_model=LeadPage, tags=["leads"], responses=_COMMON)
async def list_leads(
    request: Request,
    caller: Authenticated,
    limit: Annotated[
        int, Query(description="Page size, 1 to 500", json_schema_extra={"minimum": 1, "maximum": 500})
    ] = 50,
    skip: Annotated[int, Query(description="Leads to skip", json_schema_extra={"minimum": 0})] = 0,
) -> Response:
    """The account's leads, newest first by default: `{items, total, limit, skip}` by
    default (the settings `list_order`, `list_shape` and `list_limit_bounds` change that)."""
    settings = _runtime(request).state.settings
    limit, skip = page_bounds(settings, limit, skip)
    items, total = _runtime(request).state.lead_store.page(caller, limit, skip)
    return listing(request, settings.list_shape, items, total, limit, skip)


@router.get("/leads/{lead_id}", response_model=LeadOut, tags=["leads"], responses={**_COMMON, **_NOT_FOUND})
async def get_lead(request: Request, lead_id: str, caller: Authenticated) -> Response:
    """A stored lead."""
    return json_body(_runtime(request).state.lead_store.out(caller, lead_id))


@router.delete(
    "/leads/{lead_id}", response_model=LeadDeleted, tags=["leads"], responses={**_COMMON, **_NOT_FOUND}
)
async def delete_lead(request: Request, lead_id: str, caller: Authenticated) -> Response:
    """Delete a stored lead: `{id, deleted: true}` by default (see `delete_body`)."""
    state = _runtime(request).state
    lead = state.lead_store.out(caller, lead_id)
    state.lead_store.delete(caller, lead_id)
    return delete_body(state.settings.delete_body, lead)


@router.post(
    "/leads/{lead_id}/re-enrich",
    response_model=LeadOut,
    tags=["leads"],
    responses={
        502: _error("The enrichment failed (its credit was refunded)"),
        **_COMMON,
        **_QUOTA,
        **_NOT_FOUND,
    },
)
async def re_enrich(request: Request, lead_id: str, caller: Authenticated) -> Response:
    """Enrich a stored lead again: blocks like sync mode and charges one enrichment credit
    (unless `re_enrich_charge="free"`)."""
    runtime = _runtime(request)
    run = runtime.state.runs.admit_re_enrich(caller, lead_id)
    return json_body(await runtime.behind_gateway(runtime.run_blocking(run)))


@router.post("/email/find", response_model=EmailFindOut, tags=["email"], responses={**_COMMON, **_QUOTA})
async def find_email(request: Request, body: EmailFindIn, caller: Authenticated) -> Response:
    """Find a work email: one enrichment credit on a hit, free on a miss."""
    return json_body(_runtime(request).state.searches.find_email(caller, body))


@router.post(
    "/mobile/find",
    status_code=202,
    response_model=MobileFindOut,
    tags=["mobile"],
    responses={**_COMMON, **_QUOTA},
)
async def find_mobile(request: Request, body: MobileFindIn, caller: Authenticated) -> Response:
    """Start a mobile lookup; it settles (charged) or is refunded (free) later."""
    runtime = _runtime(request)
    lookup, seconds = runtime.state.searches.create_lookup(caller, body)
    runtime.spawn(runtime.settle(lookup.lookup_id, seconds))
    return json_body(lookup, 202)


@router.get(
    "/mobile/find/{lookup_id}",
    response_model=MobileFindOut,
    tags=["mobile"],
    responses={**_COMMON, **_NOT_FOUND},
)
async def get_lookup(request: Request, lookup_id: str, caller: Authenticated) -> Response:
    """The state of a mobile lookup."""
    return json_body(_runtime(request).state.searches.owned(caller, lookup_id))


@router.get("/usage", response_model=UsageOut, tags=["account"], responses=_COMMON)
async def usage(request: Request, caller: Authenticated) -> Response:
    """Quota, balances and this month's request counts."""
    return json_body(_runtime(request).state.accounts.usage(caller))


async def receive_callback(
    request: Request,
    name: Annotated[str, Path()],
    status: Annotated[int, Query(ge=200, le=599)] = 204,
) -> Response:
    # A receiver for job callbacks, so tests need no second server.
    raw = await request.body()
    try:
        body: Any = json.loads(raw)
    except ValueError:
        body = raw.decode(errors="replace")
    _runtime(request).state.journal.record_received(name, body)
    return Response(status_code=status)
