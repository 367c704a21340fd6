"""The TLS context of the httpx clients the SDK builds (never of one the user passes).

Loading a CA bundle takes about 25 ms, and httpx loads one for every client it builds.
So the context is built once per process, on first use, and shared by every client (an
`SSLContext` is safe to share between threads and clients). It is the one httpx would
build: a client of a plain-HTTP fake server gets it too, since `with_options` may point
a copy, which shares the connection pool, at an https address.
"""

from __future__ import annotations

import os
import ssl
import threading

__all__ = ["shared_tls"]

_lock = threading.Lock()
_verifying: dict[tuple[str, str], ssl.SSLContext] = {}


def shared_tls() -> ssl.SSLContext:
    """The verifying context of this process: the CAs of `SSL_CERT_FILE`, else of
    `SSL_CERT_DIR`, else certifi's, as httpx chooses; one for each value of those
    variables."""
    where = (os.environ.get("SSL_CERT_FILE", ""), os.environ.get("SSL_CERT_DIR", ""))
    with _lock:
        context = _verifying.get(where)
        if context is None:
            context = _verifying[where] = _load(*where)
    return context


def _load(cert_file: str, cert_dir: str) -> ssl.SSLContext:
    # The same choice, in the same order, as httpx's create_ssl_context(verify=True).
    if cert_file:
        return ssl.create_default_context(cafile=cert_file)
    if cert_dir:
        return ssl.create_default_context(capath=cert_dir)
    import certifi  # httpx's own dependency

    return ssl.create_default_context(cafile=certifi.where())
