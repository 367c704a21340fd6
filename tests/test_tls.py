"""The TLS contexts of the clients the SDK builds: loaded once, and never trusting more."""

from __future__ import annotations

import ssl
import urllib.request

import certifi
import pytest

from leadenrich._tls import tls_for

PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")


@pytest.fixture(autouse=True)
def no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    assert urllib.request.getproxies() == {}


def verifies(context: ssl.SSLContext) -> bool:
    return context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname


def test_https_clients_share_one_verifying_context_loaded_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", certifi.where())
    first = tls_for("https://api.example.com/api/v1")
    assert verifies(first)
    assert first.cert_store_stats()["x509_ca"] > 100, "the CA bundle was not loaded"
    assert tls_for("https://other.example.com/api/v1") is first


def test_another_ca_bundle_in_the_environment_gets_its_own_context(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", certifi.where())
    default = tls_for("https://api.example.com/api/v1")
    monkeypatch.delenv("SSL_CERT_FILE")
    monkeypatch.setenv("SSL_CERT_DIR", ssl.get_default_verify_paths().openssl_capath)
    by_directory = tls_for("https://api.example.com/api/v1")
    assert by_directory is not default
    assert verifies(by_directory)


def test_a_plain_http_client_loads_no_ca_and_so_trusts_no_certificate() -> None:
    context = tls_for("http://127.0.0.1:8000/api/v1")
    assert verifies(context), "a TLS connection made anyway must fail, not skip the check"
    assert context.cert_store_stats()["x509_ca"] == 0


def test_a_plain_http_client_behind_a_proxy_verifies_as_an_https_one(monkeypatch: pytest.MonkeyPatch) -> None:
    # The proxy itself may be reached over TLS.
    monkeypatch.setenv("HTTP_PROXY", "https://proxy.example.com:3128")
    assert tls_for("http://api.example.com/api/v1") is tls_for("https://api.example.com/api/v1")
