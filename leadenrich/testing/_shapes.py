"""The answers the spec does not show (health, delete, the listing and its bounds), in the
shape the settings choose: see the open points in docs/testing.md."""

from __future__ import annotations

from fastapi import Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import BaseModel

from .._models import Health, LeadDeleted, LeadOut, LeadPage
from ._open_points import DeleteBody, HealthBody, ListShape
from ._settings import FakeSettings

__all__ = ["delete_body", "health_body", "invalid", "json_body", "listing", "page_bounds"]


def json_body(model: BaseModel, status_code: int = 200, *, exclude_none: bool = False) -> Response:
    """`model` as the JSON body of an answer."""
    return Response(
        model.model_dump_json(exclude_none=exclude_none),
        status_code=status_code,
        media_type="application/json",
    )


def health_body(shape: HealthBody, version: str) -> Response:
    if shape == "text":
        return PlainTextResponse("OK")
    if shape == "empty":
        return Response(status_code=204)
    shown = version if shape == "status_version" else None
    return json_body(Health.model_validate({"status": "ok", "version": shown}), exclude_none=True)


def delete_body(shape: DeleteBody, lead: LeadOut) -> Response:
    if shape == "lead":
        return json_body(lead)
    if shape == "message":
        return JSONResponse({"message": "lead deleted"})
    if shape == "empty":
        return Response(status_code=204)
    return json_body(LeadDeleted(id=lead.id, deleted=True), exclude_none=True)


def invalid(loc: tuple[str, ...], msg: str, kind: str, value: object) -> RequestValidationError:
    """A 422 in the shape FastAPI gives one, for a check made in the endpoint."""
    return RequestValidationError([{"loc": loc, "msg": msg, "type": kind, "input": value}])


def page_bounds(settings: FakeSettings, limit: int, skip: int) -> tuple[int, int]:
    """The `limit` and `skip` to serve, or a 422, per `list_limit_bounds`."""
    top = settings.list_max_limit
    if settings.list_limit_bounds == "clamp":
        return min(max(limit, 1), top), max(skip, 0)
    if limit < 1:
        raise invalid(
            ("query", "limit"), "Input should be greater than or equal to 1", "greater_than_equal", limit
        )
    if limit > top:
        raise invalid(
            ("query", "limit"), f"Input should be less than or equal to {top}", "less_than_equal", limit
        )
    if skip < 0:
        raise invalid(
            ("query", "skip"), "Input should be greater than or equal to 0", "greater_than_equal", skip
        )
    return limit, skip


def listing(
    request: Request, shape: ListShape, items: list[LeadOut], total: int, limit: int, skip: int
) -> Response:
    """One page of `GET /leads` in the `list_shape` chosen."""
    if shape == "items":
        return json_body(
            LeadPage.model_validate({"items": items, "total": total, "limit": limit, "skip": skip})
        )
    leads = [lead.model_dump(mode="json") for lead in items]
    more = skip + len(items) < total
    if shape == "bare":
        return JSONResponse(leads)
    if shape == "leads":
        return JSONResponse({"leads": leads, "count": total})
    if shape == "data":
        return JSONResponse({"data": leads, "has_more": more})

    def at(offset: int) -> str:
        return str(request.url.include_query_params(limit=limit, skip=offset))

    return JSONResponse(
        {
            "results": leads,
            "count": total,
            "next": at(skip + len(items)) if more else None,
            "previous": at(max(0, skip - limit)) if skip > 0 else None,
        }
    )
