"""How a resource namespace reaches its client's request path."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Protocol, TypeVar

from .._endpoints import Call

__all__ = ["AsyncSend", "SyncSend"]

T = TypeVar("T")


class SyncSend(Protocol):
    def __call__(self, call: Call[T], /) -> T: ...


class AsyncSend(Protocol):
    def __call__(self, call: Call[T], /) -> Awaitable[T]: ...
