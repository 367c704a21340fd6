"""Injected faults played on the wire: an answer refused, dropped, late or spoilt.

Which request meets which fault is decided in _fault_plan.py. Dropping a connection
needs the socket's transport, which uvicorn does not give the app: the server thread's
protocol puts it in each request's `scope["state"]` under TRANSPORT.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import cast

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ._fault_plan import Fault, FaultPlan
from ._slots import upstream_full
from ._state import FakeState

__all__ = ["TRANSPORT", "serve_with_faults"]

Recording = Callable[[Send], Send]
"""Wraps a send so the journal records the answer's status (see _app.py)."""
_Note = Callable[[str], None]

TRANSPORT = "leadenrich.transport"

_PHRASES = {500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable"}
# A dropped connection is noticed by the protocol on the next loop iteration; this bounds
# the wait for it should the transport already be gone.
_DISCONNECT_WAIT = 1.0


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
        state.journal.record_fault(fault.kind, method, path, token, detail)

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
    elif fault.kind == "taken_late":
        seconds = state.settings.slow_seconds
        note(f"taken in {seconds:g} s late")
        # As a service too busy to take a request in: the client may give up meanwhile,
        # and the request is still processed (and charged) once its turn comes.
        turn = asyncio.get_running_loop().time() + seconds
        gone = await _leaves_within(seconds, receive)
        await asyncio.sleep(turn - asyncio.get_running_loop().time())
        await app(scope, replay, recording(_swallow if gone else send))
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
