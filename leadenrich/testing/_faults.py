"""Injected faults: which request meets which, and how each is played on the wire.

A request's fault depends only on the seed, the request itself (method, path, query and
body, never the key) and how many times that same request came before, so a run of the
same requests meets the same faults whatever order concurrent requests arrive in. The
exception is an `upstream_full` burst, which refuses the enrichment requests that arrive
next, whichever they are.

Dropping a connection needs the socket's transport, which uvicorn does not give the app:
the server thread's protocol puts it in each request's `scope["state"]` under TRANSPORT.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ._records import FaultKind
from ._settings import FakeSettings
from ._state import FakeState, upstream_full

__all__ = ["TRANSPORT", "Fault", "FaultPlan", "applies", "faults_enabled", "serve_with_faults"]

Recording = Callable[[Send], Send]
"""Wraps a send so the journal records the answer's status (see _ServerApp)."""
_Note = Callable[[str], None]

TRANSPORT = "leadenrich.transport"

_API = "/api/v1/"
_EXEMPT = frozenset({"/api/v1/health"})
_STATUSES = (500, 502, 503)
_PHRASES = {500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable"}
# The kinds in the order their rates share out [0, 1).
_KINDS: tuple[tuple[FaultKind, str], ...] = (
    ("server_error", "server_error_rate"),
    ("drop_before", "drop_before_rate"),
    ("drop_after", "drop_after_rate"),
    ("slow", "slow_rate"),
    ("malformed", "malformed_rate"),
    ("upstream_full", "upstream_full_rate"),
)
# A dropped connection is noticed by the protocol on the next loop iteration; this bounds
# the wait for it should the transport already be gone.
_DISCONNECT_WAIT = 1.0


@dataclass(frozen=True)
class Fault:
    kind: FaultKind
    status: int = 0
    html: bool = False
    """server_error: an HTML error page (as a proxy sends) instead of a JSON body."""
    truncate: bool = False
    """malformed: cut the body in half (otherwise a junk prefix goes before it)."""


def faults_enabled(settings: FakeSettings) -> bool:
    """Whether any fault rate is set (scripted faults are played either way)."""
    return any(getattr(settings, rate) > 0 for _, rate in _KINDS)


def applies(path: str) -> bool:
    """Faults hit the API's endpoints; health (and the fake's own callback receiver) never."""
    return path.startswith(_API) and path not in _EXEMPT


def runs_enrichment(method: str, path: str) -> bool:
    """The requests an upstream_full burst refuses: enrich (both modes) and re-enrich."""
    return method == "POST" and (path == "/api/v1/leads/enrich" or path.endswith("/re-enrich"))


class FaultPlan:
    """Decides the fault of each request; safe to call from any thread."""

    def __init__(self, state: FakeState) -> None:
        self._state = state
        self._settings = state.settings
        self._lock = threading.Lock()
        self._seen: Counter[str] = Counter()
        self._burst_left = 0

    def decide(self, method: str, path: str, query: bytes, body: bytes) -> Fault | None:
        scripted = self._state.scripted.take(method, path)
        if scripted is not None:
            return Fault(scripted.kind, status=scripted.status)
        if not faults_enabled(self._settings):
            return None
        enrichment = runs_enrichment(method, path)
        digest = hashlib.sha256(b"\0".join([method.encode(), path.encode(), query, body])).hexdigest()
        with self._lock:
            occurrence = self._seen[digest]
            self._seen[digest] += 1
            if enrichment and self._burst_left > 0:
                self._burst_left -= 1
                return Fault("upstream_full")
        rng = random.Random(f"{self._settings.fault_seed}:{digest}:{occurrence}")
        draw = rng.random()
        for kind, rate in _KINDS:
            share: float = getattr(self._settings, rate)
            if draw >= share:
                draw -= share
                continue
            if kind == "upstream_full":
                if not enrichment:
                    return None
                with self._lock:
                    self._burst_left = self._settings.upstream_full_burst - 1
            status = rng.choice(_STATUSES)
            return Fault(kind, status=status, html=rng.random() < 0.5, truncate=rng.random() < 0.5)
        return None


async def serve_with_faults(
    app: ASGIApp,
    plan: FaultPlan,
    state: FakeState,
    scope: Scope,
    receive: Receive,
    send: Send,
    recording: Recording,
    token: str | None,
) -> None:
    """Serve one API request through `app`, with the fault `plan` picks for it.

    The journal records the status the app answered even when a fault then loses or
    spoils it, so a request processed and then dropped is still in `state.requests()`.
    """
    method, path = cast("str", scope["method"]), cast("str", scope["path"])
    body = await _read_body(receive)
    if body is None:
        return
    fault = plan.decide(method, path, cast("bytes", scope.get("query_string", b"")), body)
    replay = _replay(body, receive)
    transport = cast("dict[str, object]", scope.get("state") or {}).get(TRANSPORT)
    if not isinstance(transport, asyncio.Transport) and fault is not None and fault.kind.startswith("drop"):
        fault = None  # served by something other than FakeServer's thread: nothing to drop
    if fault is None:
        await app(scope, replay, recording(send))
        return

    def note(detail: str) -> None:
        state.record_fault(fault.kind, method, path, token, detail)

    if fault.kind == "drop_before":
        note("dropped before processing")
        await _drop(transport, receive)
    elif fault.kind == "server_error":
        note(f"{fault.status} {'html' if fault.html else 'json'}")
        await _server_error(fault, recording(send))
    elif fault.kind == "refused":
        note(f"{fault.status}, unprocessed")
        detail = json.dumps({"detail": f"an injected {fault.status}, nothing was done"}).encode()
        await _respond(recording(send), fault.status, detail, "application/json", {})
    elif fault.kind == "upstream_full":
        note("429 upstream_full")
        error = upstream_full(state.settings)
        body = json.dumps({"detail": error.detail}).encode()
        await _respond(recording(send), 429, body, "application/json", error.headers)
    elif fault.kind == "drop_after":
        await app(scope, replay, recording(_swallow))
        note("processed, then dropped")
        await _drop(transport, receive)
    elif fault.kind == "slow":
        await app(scope, replay, recording(_late(send, receive, state.settings.slow_seconds, note)))
    else:
        await app(scope, replay, recording(_malformed(send, fault.truncate, note)))


async def _read_body(receive: Receive) -> bytes | None:
    """The whole request body (it is part of what picks the fault); None if the client left."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunks.append(cast("bytes", message.get("body", b"")))
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    given = False

    async def replay() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def _drop(transport: object, receive: Receive) -> None:
    """Abort the connection: the client gets no answer at all."""
    assert isinstance(transport, asyncio.Transport)
    transport.abort()
    # Returning before the protocol has seen the loss would make uvicorn answer 500.
    await _leaves_within(_DISCONNECT_WAIT, receive)


async def _swallow(message: Message) -> None:
    """The answer of a request whose connection will be dropped: it never leaves."""


def _late(send: Send, receive: Receive, seconds: float, note: _Note) -> Send:
    gone = False

    async def late(message: Message) -> None:
        nonlocal gone
        if message["type"] == "http.response.start":
            note(f"{seconds:g} s late")
            # A client that gave up meanwhile gets nothing; waiting on for it would keep
            # the request alive until the server stops, and cancel it noisily then.
            gone = await _leaves_within(seconds, receive)
        if not gone:
            await send(message)

    return late


async def _leaves_within(seconds: float, receive: Receive) -> bool:
    async def disconnected() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass

    try:
        await asyncio.wait_for(disconnected(), seconds)
    except asyncio.TimeoutError:
        return False
    return True


def _malformed(send: Send, truncate: bool, note: _Note) -> Send:
    """Break the JSON body of a 2xx answer; any other answer passes unchanged."""
    start: Message | None = None
    chunks: list[bytes] = []

    async def garble(message: Message) -> None:
        nonlocal start
        if message["type"] == "http.response.start" and _is_json_success(message):
            start = message
            return
        if start is None or message["type"] != "http.response.body":
            await send(message)
            return
        chunks.append(cast("bytes", message.get("body", b"")))
        if message.get("more_body", False):
            return
        body = b"".join(chunks)
        # Half of a JSON object is never valid JSON; neither is the anti-XSSI prefix some
        # gateways put before a body.
        broken = body[: len(body) // 2] if truncate else b")]}',\n" + body
        note("truncated" if truncate else "junk before the JSON")
        headers = [(k, v) for k, v in _headers(start) if k.lower() != b"content-length"]
        await send({**start, "headers": [*headers, (b"content-length", str(len(broken)).encode())]})
        await send({"type": "http.response.body", "body": broken, "more_body": False})

    return garble


def _headers(message: Message) -> list[tuple[bytes, bytes]]:
    return list(cast("list[tuple[bytes, bytes]]", message.get("headers", [])))


def _is_json_success(start: Message) -> bool:
    status = cast("int", start["status"])
    return 200 <= status < 300 and any(
        k.lower() == b"content-type" and b"json" in v for k, v in _headers(start)
    )


async def _server_error(fault: Fault, send: Send) -> None:
    phrase = _PHRASES[fault.status]
    if fault.html:
        page = (
            f"<html>\r\n<head><title>{fault.status} {phrase}</title></head>\r\n<body>\r\n"
            f"<center><h1>{fault.status} {phrase}</h1></center>\r\n<hr><center>nginx</center>\r\n"
            "</body>\r\n</html>\r\n"
        )
        await _respond(send, fault.status, page.encode(), "text/html", {})
    else:
        detail = json.dumps({"detail": f"{phrase.lower()}: an injected fault, nothing was done"})
        await _respond(send, fault.status, detail.encode(), "application/json", {})


async def _respond(send: Send, status: int, body: bytes, media_type: str, headers: dict[str, str]) -> None:
    raw = [(b"content-type", media_type.encode()), (b"content-length", str(len(body)).encode())]
    raw += [(k.lower().encode(), v.encode()) for k, v in headers.items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body, "more_body": False})
