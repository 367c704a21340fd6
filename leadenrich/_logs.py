"""The `leadenrich` logger, and `LEADENRICH_LOG=debug|info` to show it without configuring logging.

Without the variable the SDK only logs to its logger and leaves handlers to the
application, as a library should: nothing is printed and the root logger is untouched.
"""

from __future__ import annotations

import logging
import os
import threading
import warnings

import httpx

from ._response import elapsed_of

__all__ = ["log_failure", "log_request", "log_response", "logger", "setup_from_environment"]

logger = logging.getLogger("leadenrich")

ENVIRONMENT_VARIABLE = "LEADENRICH_LOG"
_LEVELS = {"debug": logging.DEBUG, "info": logging.INFO}
_FORMAT = "[%(asctime)s %(levelname)s %(name)s] %(message)s"

_lock = threading.Lock()
_done = False


def setup_from_environment() -> None:
    """Show the logger's records on stderr when LEADENRICH_LOG asks for it; once per process.

    Run when the first client is made rather than on import, so importing the SDK never
    changes logging.
    """
    global _done
    if _done:
        return
    with _lock:
        if _done:
            return
        _done = True
        value = os.environ.get(ENVIRONMENT_VARIABLE, "").strip()
        if not value:
            return
        level = _LEVELS.get(value.lower())
        if level is None:
            warnings.warn(
                f"{ENVIRONMENT_VARIABLE}={value!r} is ignored: set it to debug or info",
                stacklevel=4,
            )
            return
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter(_FORMAT))
        logger.addHandler(handler)
        logger.setLevel(level)


def _target(request: httpx.Request) -> str:
    return f"{request.method} {request.url.raw_path.decode('ascii', 'replace')}"


def log_request(request: httpx.Request, secret: str) -> None:
    """DEBUG: what is about to be sent, the key masked."""
    headers = {name: _masked(name, value, secret) for name, value in request.headers.items()}
    logger.debug("sending %s headers=%s body=%d bytes", _target(request), headers, len(request.content))


def log_response(response: httpx.Response) -> None:
    """INFO: one line per answer (method, path and query, status, elapsed)."""
    elapsed_ms = elapsed_of(response).total_seconds() * 1000
    logger.info(
        "%s -> %d %s (%.0f ms)",
        _target(response.request),
        response.status_code,
        response.reason_phrase,
        elapsed_ms,
    )
    if logger.isEnabledFor(logging.DEBUG):
        logger.debug("response headers=%s", dict(response.headers.items()))


def log_failure(request: httpx.Request, error: BaseException) -> None:
    """INFO: an attempt that got no answer."""
    logger.info("%s -> no answer: %s", _target(request), type(error).__name__)


def _masked(name: str, value: str, secret: str) -> str:
    if name.lower() == "authorization":
        scheme, _, _credential = value.partition(" ")
        return f"{scheme} ***" if _credential else "***"
    return value.replace(secret, "***") if secret else value
