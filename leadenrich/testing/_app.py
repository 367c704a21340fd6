"""The ASGI application: the spec's endpoints, with the SDK's models on the wire."""

from __future__ import annotations

import json
import threading
import warnings
from typing import Annotated, Any, Literal, cast
from urllib.parse import parse_qs

from fastapi import APIRouter, Depends, FastAPI, Path, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .._models import (
    EmailFindIn,
    EmailFindOut,
    EnrichJobCreated,
    Health,
    JobOut,
    LeadDeleted,
    LeadOut,
    LeadPage,
    MobileFindIn,
    MobileFindOut,
    UsageOut,
)
from .._models.leads import EnrichRequest
from ._faults import FaultPlan, applies, faults_enabled, serve_with_faults
from ._records import ApiError, Caller
from ._runtime import Runtime
from ._settings import FakeSettings
from ._shapes import delete_body, health_body, invalid, listing, page_bounds
from ._state import FakeState
from ._unknown_fields import known_fields_only

__all__ = ["build_app"]

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


_RUNTIME = "leadenrich.runtime"
_CALLER = "leadenrich.caller"
_API = "/api/v1/"
_PUBLIC = frozenset({"/api/v1/health"})
_ENRICH = "/api/v1/leads/enrich"


def _runtime(request: Request) -> Runtime:
    return cast("Runtime", request.scope[_RUNTIME])


def _mode(raw: str, settings: FakeSettings) -> Literal["sync", "async"] | None:
    """The mode an enrich request runs in; None when `unknown_mode` rejects it."""
    if raw == "sync":
        return "sync"
    if raw == "async":
        return "async"
    return None if settings.unknown_mode == "reject" else settings.unknown_mode


def _bucket(method: str, path: str, query: bytes, settings: FakeSettings) -> Literal["sync", "async"]:
    # Async job creation has its own bucket; everything else, a rejected mode included,
    # counts against the sync one.
    if method == "POST" and path == _ENRICH:
        raw = parse_qs(query.decode("latin-1")).get("mode", ["async"])[-1]
        return "async" if _mode(raw, settings) == "async" else "sync"
    return "sync"


async def _authenticate(
    request: Request, credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]
) -> Caller:
    # The server authenticated the request before the app parsed anything (see
    # _ServerApp._serve_api); `credentials` is here for the OpenAPI document.
    return cast("Caller", request.scope[_CALLER])


Authenticated = Annotated[Caller, Depends(_authenticate)]


def _json(model: BaseModel, status_code: int = 200, *, exclude_none: bool = False) -> Response:
    return Response(
        model.model_dump_json(exclude_none=exclude_none),
        status_code=status_code,
        media_type="application/json",
    )


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
    run_as = _mode(mode, runtime.state.settings)
    if run_as is None:
        raise invalid(("query", "mode"), "Input should be 'sync' or 'async'", "literal_error", mode)
    if run_as == "sync":
        return _json(await runtime.enrich_sync(caller, body.lead))
    job, plan = runtime.state.create_job(caller, body.lead, body.callback_url)
    if plan is not None:
        runtime.spawn(runtime.run_job(job.job_id, caller, body.lead, plan, body.callback_url))
    elif body.callback_url is not None:
        runtime.spawn(runtime.deliver(job, body.callback_url))
    return _json(EnrichJobCreated(job_id=job.job_id, status="queued"), 202)


@router.get("/jobs/{job_id}", response_model=JobOut, tags=["jobs"], responses={**_COMMON, **_NOT_FOUND})
async def get_job(request: Request, job_id: str, caller: Authenticated) -> Response:
    """The state of an enrichment job."""
    return _json(_runtime(request).state.job(caller, job_id))


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
    items, total = _runtime(request).state.page(caller, limit, skip)
    return listing(request, settings.list_shape, items, total, limit, skip)


@router.get("/leads/{lead_id}", response_model=LeadOut, tags=["leads"], responses={**_COMMON, **_NOT_FOUND})
async def get_lead(request: Request, lead_id: str, caller: Authenticated) -> Response:
    """A stored lead."""
    return _json(_runtime(request).state.lead(caller, lead_id))


@router.delete(
    "/leads/{lead_id}", response_model=LeadDeleted, tags=["leads"], responses={**_COMMON, **_NOT_FOUND}
)
async def delete_lead(request: Request, lead_id: str, caller: Authenticated) -> Response:
    """Delete a stored lead: `{id, deleted: true}` by default (see `delete_body`)."""
    state = _runtime(request).state
    lead = state.lead(caller, lead_id)
    state.delete_lead(caller, lead_id)
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
    run = runtime.state.admit_re_enrich(caller, lead_id)
    return _json(await runtime.run_blocking(run))


@router.post("/email/find", response_model=EmailFindOut, tags=["email"], responses={**_COMMON, **_QUOTA})
async def find_email(request: Request, body: EmailFindIn, caller: Authenticated) -> Response:
    """Find a work email: one enrichment credit on a hit, free on a miss."""
    return _json(_runtime(request).state.find_email(caller, body))


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
    lookup, seconds = runtime.state.create_lookup(caller, body)
    runtime.spawn(runtime.settle(lookup.lookup_id, seconds))
    return _json(lookup, 202)


@router.get(
    "/mobile/find/{lookup_id}",
    response_model=MobileFindOut,
    tags=["mobile"],
    responses={**_COMMON, **_NOT_FOUND},
)
async def get_lookup(request: Request, lookup_id: str, caller: Authenticated) -> Response:
    """The state of a mobile lookup."""
    return _json(_runtime(request).state.lookup(caller, lookup_id))


@router.get("/usage", response_model=UsageOut, tags=["account"], responses=_COMMON)
async def usage(request: Request, caller: Authenticated) -> Response:
    """Quota, balances and this month's request counts."""
    return _json(_runtime(request).state.usage(caller))


async def _receive_callback(
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
    _runtime(request).state.record_received(name, body)
    return Response(status_code=status)


async def _on_api_error(request: Request, exc: Exception) -> Response:
    return _error_response(cast("ApiError", exc))


def _error_response(error: ApiError) -> Response:
    if error.plain:
        return PlainTextResponse(error.detail, status_code=error.status_code, headers=error.headers)
    return JSONResponse({"detail": error.detail}, status_code=error.status_code, headers=error.headers)


async def _on_validation_error(request: Request, exc: Exception) -> Response:
    # FastAPI adds `input`, `ctx` and `url`; the spec's entries are exactly loc, msg, type.
    errors = cast("RequestValidationError", exc).errors()
    detail = [
        {"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")), "type": str(e.get("type", ""))}
        for e in errors
    ]
    return JSONResponse({"detail": detail}, status_code=422)


class _ServerApp:
    """One server's face of the shared app: its runtime, its request log, its faults, its
    lifespan.

    Recording at response start (not after the body) means a client that has its answer
    always finds the request in `server.state.requests()`.
    """

    def __init__(self, app: FastAPI, runtime: Runtime) -> None:
        self.app = app
        self.runtime = runtime
        settings = runtime.state.settings
        self.faults = FaultPlan(settings) if faults_enabled(settings) else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        scope[_RUNTIME] = self.runtime
        state = self.runtime.state
        token = _token(scope)
        method, path = cast("str", scope["method"]), cast("str", scope["path"])
        recorded = False

        def recording(outgoing: Send) -> Send:
            async def send_and_record(message: Message) -> None:
                nonlocal recorded
                if message["type"] == "http.response.start" and not recorded:
                    recorded = True
                    state.record_request(token, method, path, cast("int", message["status"]))
                await outgoing(message)

            return send_and_record

        state.record_serving(1)
        try:
            if self.faults is not None and applies(path):
                await serve_with_faults(self._api, self.faults, state, scope, receive, send, recording, token)
            else:
                await self._api(scope, receive, recording(send))
        except Exception:
            if not recorded:
                state.record_request(token, method, path, 500)
            raise
        finally:
            state.record_serving(-1)

    async def _api(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The spec's order: the key (401), the plan (403) and the key's rate (429)
        before anything of the request is parsed, so a request without a valid key gets
        401 whatever its body, path or method. Then, under `unknown_fields="ignore"`, the
        body loses the fields the spec does not list."""
        method, path = cast("str", scope["method"]), cast("str", scope["path"])
        if path.startswith(_API) and path not in _PUBLIC:
            state = self.runtime.state
            query = cast("bytes", scope.get("query_string", b""))
            try:
                scope[_CALLER] = state.authenticate(
                    _token(scope), _bucket(method, path, query, state.settings)
                )
            except ApiError as error:
                await _error_response(error)(scope, receive, send)
                return
            if state.settings.unknown_fields == "ignore":
                receive = await known_fields_only(path, receive)
        await self.app(scope, receive, send)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        # The shared FastAPI app has no startup or shutdown work; this server's runtime has.
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await self.runtime.aclose()
                await send({"type": "lifespan.shutdown.complete"})
                return


def _token(scope: Scope) -> str | None:
    for name, value in cast("list[tuple[bytes, bytes]]", scope.get("headers", [])):
        if name.lower() == b"authorization":
            scheme, _, credentials = value.decode("latin-1").partition(" ")
            if scheme.lower() != "bearer":
                return None
            return credentials.strip() or None
    return None


_shared: FastAPI | None = None
_shared_lock = threading.Lock()


def shared_app() -> FastAPI:
    """The FastAPI app, built once per process: building it (its OpenAPI document above
    all) takes ~90 ms, too much to repeat for every test's server."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = _new_app()
        return _shared


def build_app(state: FakeState) -> ASGIApp:
    """The ASGI app of one server, serving `state`."""
    return _ServerApp(shared_app(), Runtime(state))


def _new_app() -> FastAPI:
    app = FastAPI(
        title="Lead Enrichment Developer API (leadenrich fake server)",
        version=API_VERSION,
        description="The bundled fake of the Lead Enrichment Developer API v1, for tests and development.",
        openapi_url="/openapi.json",
        docs_url="/docs",
        redoc_url=None,
    )
    app.include_router(router)
    app.add_api_route("/_fake/callbacks/{name}", _receive_callback, methods=["POST"], include_in_schema=False)
    app.add_exception_handler(ApiError, _on_api_error)
    app.add_exception_handler(RequestValidationError, _on_validation_error)
    _build_schemas(app)
    return app


def _build_schemas(app: FastAPI) -> None:
    # The SDK's models defer building their validators; FastAPI then builds its request
    # adapters on first use, outside the block where it silences pydantic's warning about
    # the parameter alias it sets. Generating the OpenAPI document here builds them all
    # up front, in a quiet block, instead of warning (an error under -W error) mid-request.
    with warnings.catch_warnings():
        warnings.filterwarnings(
            "ignore", message=r"The '\w+' attribute with value .* was provided to the `Field\(\)`"
        )
        schema = app.openapi()
    # The 422 entries this server sends carry exactly the spec's three keys.
    validation_error = schema["components"]["schemas"]["ValidationError"]
    validation_error["properties"] = {
        name: validation_error["properties"][name] for name in ("loc", "msg", "type")
    }
