"""Request bodies under `unknown_fields="ignore"`: fields the spec does not list are dropped
before the app validates the body, as a lenient service would."""

from __future__ import annotations

import json
from typing import Any, cast

from pydantic import BaseModel
from starlette.types import Message, Receive

from .._models import EmailFindIn, EnrichRequest, LeadIn, MobileFindIn

__all__ = ["known_fields_only"]

# Each body the API takes, by path, and the model of each of its nested objects.
_BODIES: dict[str, tuple[type[BaseModel], dict[str, type[BaseModel]]]] = {
    "/api/v1/leads/enrich": (EnrichRequest, {"lead": LeadIn}),
    "/api/v1/email/find": (EmailFindIn, {}),
    "/api/v1/mobile/find": (MobileFindIn, {}),
}


async def known_fields_only(path: str, receive: Receive) -> Receive:
    """`receive` with the body's unknown fields dropped; unchanged for other paths or for
    a body that is not a JSON object (the app then rejects it as usual)."""
    shape = _BODIES.get(path)
    if shape is None:
        return receive
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return _replay(None, message, receive)
        chunks.append(cast("bytes", message.get("body", b"")))
        if not message.get("more_body", False):
            break
    body = b"".join(chunks)
    try:
        parsed: Any = json.loads(body)
    except ValueError:
        return _replay(body, None, receive)
    if isinstance(parsed, dict):
        model, nested = shape
        kept = _known(model, cast("dict[str, Any]", parsed))
        for name, inner in nested.items():
            if isinstance(kept.get(name), dict):
                kept[name] = _known(inner, cast("dict[str, Any]", kept[name]))
        body = json.dumps(kept).encode()
    return _replay(body, None, receive)


def _known(model: type[BaseModel], body: dict[str, Any]) -> dict[str, Any]:
    names = set(model.model_fields) | {f.alias for f in model.model_fields.values() if f.alias}
    return {key: value for key, value in body.items() if key in names}


def _replay(body: bytes | None, first: Message | None, receive: Receive) -> Receive:
    pending: Message | None = (
        first if body is None else {"type": "http.request", "body": body, "more_body": False}
    )

    async def replay() -> Message:
        nonlocal pending
        if pending is not None:
            message, pending = pending, None
            return message
        return await receive()

    return replay
