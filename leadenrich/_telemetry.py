"""Whether a client reports to OpenTelemetry, and the public calls' spans.

Telemetry is on for a client made once the application has set an OpenTelemetry tracer
or meter provider (the `otel` extra installs the API), unless `LEADENRICH_TELEMETRY=off`.
A provider can only be set by code that imported the API, so while it is not imported
nothing is: a client without telemetry neither imports OpenTelemetry nor makes a span,
and each of its calls checks one attribute (`Link.telemetry`) to know it.

What is reported, and how, lives in `_otel.py`, loaded only when telemetry is on.
"""

from __future__ import annotations

import functools
import inspect
import os
import sys
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._otel import Telemetry

__all__ = ["ENVIRONMENT_VARIABLE", "for_client", "instrument"]

ENVIRONMENT_VARIABLE = "LEADENRICH_TELEMETRY"
_VALUES = ("on", "off", "personal")

# Their work runs as the caller iterates, after the call returned: a span of the call
# would end before it. Their requests' spans nest under the caller's current span.
_ITERATORS = frozenset({"iter", "enrich_iter"})


def for_client() -> Telemetry | None:
    """What a client made now reports to, or None: read when each client is made."""
    value = os.environ.get(ENVIRONMENT_VARIABLE, "").strip().lower()
    if value == "off":
        return None
    if value and value not in _VALUES:
        warnings.warn(
            f"{ENVIRONMENT_VARIABLE}={value!r} is not one of {', '.join(_VALUES)}: taken as 'on'",
            stacklevel=4,
        )
    if "opentelemetry.trace" not in sys.modules and "opentelemetry.metrics" not in sys.modules:
        return None
    from ._otel import provided

    return provided(personal=value == "personal")


def instrument(cls: type, prefix: str, only: tuple[str, ...] | None = None) -> None:
    """Give each public method `cls` defines (or those named in `only`) a span named
    `prefix.method` when telemetry is on.

    The methods read their instance's `_link.telemetry`: one attribute check when it is off.
    """
    for name, member in list(vars(cls).items()):
        if name.startswith("_") or name in _ITERATORS or not inspect.isfunction(member):
            continue
        if only is not None and name not in only:
            continue
        span = f"{prefix}.{name}" if prefix else name
        traced = _atraced(member, span) if inspect.iscoroutinefunction(member) else _traced(member, span)
        setattr(cls, name, traced)


def _traced(method: Callable[..., Any], span: str) -> Callable[..., Any]:
    @functools.wraps(method)
    def traced(self: Any, *args: Any, **kwargs: Any) -> Any:
        telemetry: Telemetry | None = self._link.telemetry
        if telemetry is None:
            return method(self, *args, **kwargs)
        with telemetry.call(span) as call:
            return call.returned(method(self, *args, **kwargs))

    return traced


def _atraced(method: Callable[..., Any], span: str) -> Callable[..., Any]:
    @functools.wraps(method)
    async def traced(self: Any, *args: Any, **kwargs: Any) -> Any:
        telemetry: Telemetry | None = self._link.telemetry
        if telemetry is None:
            return await method(self, *args, **kwargs)
        with telemetry.call(span) as call:
            return call.returned(await method(self, *args, **kwargs))

    return traced
