"""The iterators `enrich_iter` returns, and the runs a client finishes before it closes.

Leaving `async for` with `break` does not close an async generator: Python closes it
later, from the event loop's finalizer, by which time `async with client` may have
closed the connection pool under the leads still in flight. So each client keeps its
open runs, and closing the client first finishes them (their leads are paid for, and
get written to the checkpoint). `async with` on the iterator finishes them on leaving
the block, whatever the client does.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import AsyncGenerator, AsyncIterator, Generator, Iterator
from types import TracebackType
from typing import TYPE_CHECKING

from typing_extensions import Self

if TYPE_CHECKING:
    # A client makes its registry of open runs when it is made: the results stay unloaded
    # until a bulk run needs them.
    from .results import BulkOutcome

__all__ = ["AsyncBulkIterator", "AsyncOpenIterations", "OpenIterations"]


class AsyncBulkIterator(AsyncIterator["BulkOutcome"]):
    """The outcomes of an async bulk run, as they settle (`AsyncLeads.enrich_iter`).

    Leaving the iteration early (`break`, an exception, a cancelled task) starts no new
    lead; the leads in flight finish and are written to the checkpoint when the
    iterator is closed: on leaving `async with`, on `await aclose()`, or, at the
    latest, when the client is closed.

    Examples:
        >>> async with client.leads.enrich_iter(rows, checkpoint="run.jsonl") as outcomes:  # doctest: +SKIP
        ...     async for outcome in outcomes:
        ...         if outcome.status == "failed":
        ...             break
    """

    def __init__(self, outcomes: AsyncGenerator[BulkOutcome, None], iterations: AsyncOpenIterations) -> None:
        self._outcomes = outcomes
        self._iterations = iterations
        iterations.add(self)

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> BulkOutcome:
        try:
            return await self._outcomes.__anext__()
        except StopAsyncIteration:
            self._iterations.discard(self)
            raise

    async def aclose(self) -> None:
        """Start nothing more, and wait for the leads in flight to finish and be written down.

        Examples:
            >>> await outcomes.aclose()  # doctest: +SKIP
        """
        try:
            await self._outcomes.aclose()
        finally:
            self._iterations.discard(self)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.aclose()


class AsyncOpenIterations:
    """The async runs of one client not yet finished; held strongly, so none is left to
    the garbage collector's timing."""

    def __init__(self) -> None:
        self._runs: set[AsyncBulkIterator] = set()

    def add(self, run: AsyncBulkIterator) -> None:
        self._runs.add(run)

    def discard(self, run: AsyncBulkIterator) -> None:
        self._runs.discard(run)

    async def aclose(self) -> None:
        for run in list(self._runs):
            await run.aclose()


class OpenIterations:
    """The sync runs of one client not yet finished. Held weakly: a generator nobody
    holds is closed at once, on the spot (its leads in flight finish there)."""

    def __init__(self) -> None:
        self._runs: weakref.WeakSet[Generator[BulkOutcome, None, None]] = weakref.WeakSet()

    def track(self, run: Generator[BulkOutcome, None, None]) -> Iterator[BulkOutcome]:
        self._runs.add(run)
        return run

    def close(self) -> None:
        for run in list(self._runs):
            # One being iterated on another thread right now finishes there instead.
            with contextlib.suppress(ValueError):
                run.close()
