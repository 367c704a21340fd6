"""The types of what a namespace is given of its client's request path (`_link.py`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager, AbstractContextManager
from typing import Protocol, TypeVar

from .._clock import Deadline
from .._endpoints import Call
from .._response import APIResponse

__all__ = ["AsyncRawRequest", "AsyncRequest", "AsyncSlot", "SyncRawRequest", "SyncRequest", "SyncSlot"]

T = TypeVar("T")


class SyncRequest(Protocol):
    """Sends a call; with a deadline, no wait on its way (pacing, back-off) ends past it."""

    def __call__(self, call: Call[T], deadline: Deadline | None = None, /) -> T: ...


class AsyncRequest(Protocol):
    """Sends a call; with a deadline, no wait on its way (pacing, back-off) ends past it."""

    def __call__(self, call: Call[T], deadline: Deadline | None = None, /) -> Awaitable[T]: ...


class SyncRawRequest(Protocol):
    def __call__(self, call: Call[T], /) -> APIResponse[T]: ...


class AsyncRawRequest(Protocol):
    def __call__(self, call: Call[T], /) -> Awaitable[APIResponse[T]]: ...


SyncSlot = Callable[[Deadline | None], AbstractContextManager[None]]
"""Holds one of the client's enrichment slots for the duration of a `with` block."""
AsyncSlot = Callable[[Deadline | None], AbstractAsyncContextManager[None]]
"""Holds one of the client's enrichment slots for the duration of an `async with` block."""
