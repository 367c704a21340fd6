"""The SDK's only ways to wait and to read time.

Every wait (pacing, retry back-off, polling) goes through these names, looked up at call
time, so tests replace them with ``monkeypatch.setattr(leadenrich._clock, "sleep", ...)``
and run instantly.
"""

from __future__ import annotations

import time

__all__ = ["async_sleep", "monotonic", "sleep"]

sleep = time.sleep
monotonic = time.monotonic


async def async_sleep(seconds: float) -> None:
    """asyncio.sleep, imported on first use: asyncio costs ~15 ms to import."""
    import asyncio

    await asyncio.sleep(seconds)
