"""The ASGI application of one server: its runtime, its request log, its faults, and the
spec's order of checks around the endpoints (_routes.py), which one FastAPI app serves."""

from __future__ import annotations

import threading
import warnings
from typing import Literal, cast
from urllib.parse import parse_qs

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ._fault_plan import FaultPlan, applies, faults_enabled
from ._faults import serve_with_faults
from ._records import ApiError
from ._routes import API_VERSION, CALLER, RUNTIME, receive_callback, router, run_mode
from ._runtime import Runtime
from ._settings import FakeSettings
from ._state import FakeState
from ._thread import ServerThread
from ._unknown_fields import known_fields_only

__all__ = ["build_app", "serve"]

_API = "/api/v1/"
_PUBLIC = frozenset({"/api/v1/health"})
_ENRICH = "/api/v1/leads/enrich"


def _bucket(method: str, path: str, query: bytes, settings: FakeSettings) -> Literal["sync", "async"]:
    # Async job creation has its own bucket; everything else, a rejected mode included,
    # counts against the sync one.
    if method == "POST" and path == _ENRICH:
        raw = parse_qs(query.decode("latin-1")).get("mode", ["async"])[-1]
        return "async" if run_mode(raw, settings) == "async" else "sync"
    return "sync"


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
        self.faults = FaultPlan(settings, runtime.state.scripted)
        self._rates = faults_enabled(settings)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        scope[RUNTIME] = self.runtime
        state = self.runtime.state
        token = _token(scope)
        method, path = cast("str", scope["method"]), cast("str", scope["path"])
        recorded = False

        def recording(outgoing: Send) -> Send:
            async def send_and_record(message: Message) -> None:
                nonlocal recorded
                if message["type"] == "http.response.start" and not recorded:
                    recorded = True
                    state.journal.record_request(token, method, path, cast("int", message["status"]))
                await outgoing(message)

            return send_and_record

        state.journal.record_serving(1)
        try:
            if applies(path) and (self._rates or state.scripted.pending):
                await serve_with_faults(self._api, self.faults, state, scope, receive, send, recording, token)
            else:
                await self._api(scope, receive, recording(send))
        except Exception:
            if not recorded:
                state.journal.record_request(token, method, path, 500)
            raise
        finally:
            state.journal.record_serving(-1)

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
                scope[CALLER] = state.accounts.authenticate(
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


def serve(state: FakeState, host: str, port: int) -> tuple[ServerThread, int]:
    """`state`'s app served on a background thread, and the port it listens on."""
    # Sync enrichments in progress at stop get a moment (a few API seconds) to finish.
    graceful = min(1.0, state.settings.real_seconds(5.0))
    thread = ServerThread(
        build_app(state), host, port, graceful_seconds=graceful, on_connection=state.journal.record_connection
    )
    return thread, thread.start()


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
    app.add_api_route("/_fake/callbacks/{name}", receive_callback, methods=["POST"], include_in_schema=False)
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
