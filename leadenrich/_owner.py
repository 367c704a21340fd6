"""Whose a checkpoint is: the service and the account its leads were sent to.

A checkpoint's leads were sent, and maybe charged, on one account of one service. A rerun
with another key, or against another `base_url` (the bundled fake server, then the real
service), would look its leads up where they are not, and send again what the first
account was charged for. So each checkpoint names its owner, and a run refuses another's.

The account is named by a keyed hash of the API key (HMAC-SHA256, the key as the HMAC
key): the same key always gives the same name, and the name gives nothing of the key.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

__all__ = ["Owner"]

_PURPOSE = b"leadenrich checkpoint owner v1"


@dataclass(frozen=True)
class Owner:
    service: str
    """The service's address (the client's `base_url`)."""
    account: str
    """The key's name: 16 hex digits of HMAC-SHA256(key, purpose)."""

    @classmethod
    def of(cls, base_url: str, api_key: str) -> Owner:
        digest = hmac.new(api_key.encode(), _PURPOSE, hashlib.sha256).hexdigest()
        return cls(base_url.rstrip("/"), digest[:16])
