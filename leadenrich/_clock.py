"""The SDK's only ways to wait and to read time.

Every wait (pacing, retry back-off, polling) goes through these names, looked up at call
time, so tests replace them with ``monkeypatch.setattr(leadenrich._clock, "sleep", ...)``
and run instantly.
"""

from __future__ import annotations

import asyncio
import time

__all__ = ["async_sleep", "monotonic", "sleep"]

sleep = time.sleep
async_sleep = asyncio.sleep
monotonic = time.monotonic
