"""The iterators `enrich_iter` returns, and the runs a client finishes before it closes.

Leaving `async for` with `break` does not close an async generator: Python closes it
later, from the event loop's finalizer, by which time `async with client` may have
closed the connection pool under the leads still in flight. So each client keeps its
open runs, and closing the client first finishes them (their leads are paid for, and
get written to the checkpoint). `async with` on the iterator finishes them on leaving
the block, whatever the client does.

What the loop drops is the iterator, not the run: an iterator nobody holds any more (the
`async for` that held it was left) starts nothing more at once, as the blocking
iterator does when its generator is dropped, while the leads in flight finish.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import AsyncGenerator, AsyncIterator, Generator, Iterator
from types import TracebackType
from typing import TYPE_CHECKING

from typing_extensions import Self

from .._errors import LeadEnrichError

if TYPE_CHECKING:
    # A client makes its registry of open runs when it is made: the results stay unloaded
    # until a bulk run needs them.
    from .plan import Plan
    from .results import BulkOutcome

__all__ = ["AsyncBulkIterator", "AsyncOpenIterations", "Halt", "OpenIterations"]


class Halt:
    """Stops a run from outside it: before its plan is made, or once it is (thread-safe:
    a finalizer may call it)."""

    def __init__(self) -> None:
        self._plan: Plan | None = None
        self._left = False

    def bind(self, plan: Plan) -> None:
        self._plan = plan
        if self._left:
            self.left()

    def left(self) -> None:
        """The iteration was left unfinished: nothing more starts."""
        self._left = True
        if self._plan is not None:
            self._plan.stop(LeadEnrichError("not started: the iteration was left"))


class AsyncBulkIterator(AsyncIterator["BulkOutcome"]):
    """The outcomes of an async bulk run, as they settle (`AsyncLeads.enrich_iter`).

    Leaving the iteration early (`break`, an exception, a cancelled task) starts no new
    lead; the leads in flight finish and are written to the checkpoint when the
    iterator is closed: on leaving `async with`, on `await aclose()`, or, at the
    latest, when the client is closed.

    Examples:
        >>> async with client.leads.enrich_iter(rows, checkpoint="run.jsonl") as outcomes:
        ...     async for outcome in outcomes:
        ...         if outcome.status == "failed":
        ...             break
    """

    def __init__(
        self, outcomes: AsyncGenerator[BulkOutcome, None], iterations: AsyncOpenIterations, halt: Halt
    ) -> None:
        self._outcomes = outcomes
        self._iterations = iterations
        self._halt = halt
        iterations.add(outcomes)

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> BulkOutcome:
        try:
            return await self._outcomes.__anext__()
        except StopAsyncIteration:
            self._iterations.discard(self._outcomes)
            raise

    async def aclose(self) -> None:
        """Start nothing more, and wait for the leads in flight to finish and be written down.

        Examples:
            >>> await outcomes.aclose()
        """
        try:
            await self._outcomes.aclose()
        finally:
            self._iterations.discard(self._outcomes)

    def __del__(self) -> None:
        # Dropped before its end (a `break` out of the `async for` that held it): nothing
        # more leaves, as when the blocking iterator is dropped. The client still finishes
        # the leads in flight when it closes.
        self._halt.left()

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
        self._runs: set[AsyncGenerator[BulkOutcome, None]] = set()

    def add(self, run: AsyncGenerator[BulkOutcome, None]) -> None:
        self._runs.add(run)

    def discard(self, run: AsyncGenerator[BulkOutcome, None]) -> None:
        self._runs.discard(run)

    async def aclose(self) -> None:
        for run in list(self._runs):
            try:
                await run.aclose()
            finally:
                self._runs.discard(run)


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
