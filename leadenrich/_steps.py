"""Methods that send several requests and wait between them, written once for both clients.

Such a method (a wait, a search and its wait, an enrichment and its polls) is a generator
of the steps it needs: a `Send` gets the answer back, or has its error raised where it
was yielded; a number is a pause of that many of the service's seconds. The sync client
performs each step blocking and the async client awaits it (`_resources/_link.py`), so
every decision between the steps is made in one place.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from ._clock import Deadline
    from ._endpoints import Call

__all__ = ["Send", "Step", "Stepper", "Steps"]

T = TypeVar("T")


@dataclass(frozen=True)
class Send(Generic[T]):
    """Send `call`; with a deadline, no wait on its way (pacing, back-off) ends past it."""

    call: Call[T]
    deadline: Deadline | None = None


Step = Send[Any] | float
Steps = Generator[Step, Any, T]
"""Steps that end in a T."""


class Stepper(Generic[T]):
    """Walks through `steps`: the client performs each one and reports how it went."""

    def __init__(self, steps: Steps[T]) -> None:
        self._steps = steps
        self._reply: Any = None
        self._error: Exception | None = None

    def next(self) -> Step | None:
        """The next step to perform, or None once the steps are done (see `result`)."""
        error, self._error = self._error, None
        try:
            return self._steps.send(self._reply) if error is None else self._steps.throw(error)
        except StopIteration as done:
            self.result: T = done.value
            return None
        finally:
            self._reply = None

    def reply(self, value: object) -> None:
        self._reply = value

    def fail(self, error: Exception) -> None:
        self._error = error
