"""The TLS context of the httpx clients the SDK builds (never of one the user passes).

Loading a CA bundle takes about 25 ms, and httpx loads one for every client it builds,
even a client that only ever speaks plain HTTP to a fake server on this machine. So the
verifying context is built once per process, on first use, and shared (an `SSLContext`
is safe to share between threads and clients); a plain-HTTP client gets one that loads
no CA at all and so trusts no certificate.
"""

from __future__ import annotations

import os
import ssl
import threading
import urllib.request

__all__ = ["tls_for"]

_lock = threading.Lock()
_verifying: dict[tuple[str, str], ssl.SSLContext] = {}


def tls_for(base_url: str) -> ssl.SSLContext:
    """The context a client of `base_url` verifies TLS with.

    https: the one httpx would build (the CAs of `SSL_CERT_FILE`, else `SSL_CERT_DIR`, else
    certifi's), built once per process for each value of those variables.

    http: nothing the client sends goes over TLS, unless the environment names a proxy,
    which might be reached over https; then the verifying context, as for https. Without
    one, a context with no CA: were a TLS connection made anyway, it would fail to verify
    (fail closed), never skip verifying.
    """
    if base_url.startswith("http://") and not urllib.request.getproxies():
        return ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
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
