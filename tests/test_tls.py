"""The TLS context of the clients the SDK builds: loaded once per process, verifying."""

from __future__ import annotations

import ssl

import certifi
import pytest

from leadenrich import LeadEnrich
from leadenrich._tls import shared_tls


def verifies(context: ssl.SSLContext) -> bool:
    return context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname


def transport_context(client: LeadEnrich) -> ssl.SSLContext:
    """What the client's httpx pool verifies with (httpx's and httpcore's own attributes)."""
    context = client._http._transport._pool._ssl_context  # type: ignore[attr-defined]  # pyright: ignore[reportPrivateUsage, reportUnknownMemberType, reportAttributeAccessIssue, reportUnknownVariableType]
    assert isinstance(context, ssl.SSLContext)
    return context


def test_every_client_verifies_with_one_context_loaded_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", certifi.where())
    context = shared_tls()
    assert verifies(context)
    assert context.cert_store_stats()["x509_ca"] > 100, "the CA bundle was not loaded"
    with (
        LeadEnrich("le_live_x", base_url="https://api.example.com") as remote,
        LeadEnrich("le_live_x", base_url="http://127.0.0.1:8000") as local,
    ):
        assert transport_context(remote) is context
        # A copy shares the pool, and may speak TLS where the original spoke plain HTTP.
        assert transport_context(local.with_options(base_url="https://api.example.com")) is context


def test_another_ca_bundle_in_the_environment_gets_its_own_context(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", certifi.where())
    default = shared_tls()
    monkeypatch.delenv("SSL_CERT_FILE")
    monkeypatch.setenv("SSL_CERT_DIR", ssl.get_default_verify_paths().openssl_capath)
    by_directory = shared_tls()
    assert by_directory is not default
    assert verifies(by_directory)


def test_a_client_given_its_own_http_client_keeps_it() -> None:
    import httpx

    with (
        httpx.Client(verify=False) as http,
        LeadEnrich("le_live_x", base_url="https://a.test", http_client=http) as client,
    ):
        assert transport_context(client) is not shared_tls()
        assert not verifies(transport_context(client))
