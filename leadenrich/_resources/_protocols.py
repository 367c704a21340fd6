"""How a resource namespace reaches its client's request path."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager, AbstractContextManager
from typing import Protocol, TypeVar

from .._clock import Deadline
from .._endpoints import Call
from .._response import APIResponse

__all__ = ["AsyncRawSend", "AsyncSend", "AsyncSlot", "SyncRawSend", "SyncSend", "SyncSlot"]

T = TypeVar("T")


class SyncSend(Protocol):
    """Sends a call; with a deadline, no wait on its way (pacing, back-off) ends past it."""

    def __call__(self, call: Call[T], deadline: Deadline | None = None, /) -> T: ...


class AsyncSend(Protocol):
    """Sends a call; with a deadline, no wait on its way (pacing, back-off) ends past it."""

    def __call__(self, call: Call[T], deadline: Deadline | None = None, /) -> Awaitable[T]: ...


class SyncRawSend(Protocol):
    def __call__(self, call: Call[T], /) -> APIResponse[T]: ...


class AsyncRawSend(Protocol):
    def __call__(self, call: Call[T], /) -> Awaitable[APIResponse[T]]: ...


SyncSlot = Callable[[Deadline | None], AbstractContextManager[None]]
"""Holds one of the client's enrichment slots for the duration of a `with` block."""
AsyncSlot = Callable[[Deadline | None], AbstractAsyncContextManager[None]]
"""Holds one of the client's enrichment slots for the duration of an `async with` block."""
