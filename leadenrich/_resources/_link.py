"""What a namespace is given of its client: the request path, and the state they share.

A namespace does not import the client (it sits below it): the client hands each of its
namespaces one link, and a method that sends several requests gives the link its steps
(`_steps.py`) to perform, blocking or awaited.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from .._clock import ServiceClock
from .._polling import JobDurations
from .._steps import Send, Stepper, Steps
from ._protocols import AsyncRawSend, AsyncSend, SyncRawSend, SyncSend

__all__ = ["AsyncLink", "Link", "Namespace", "SyncLink"]

T = TypeVar("T")


@dataclass(frozen=True)
class Link:
    """What both clients give their namespaces alike."""

    clock: ServiceClock
    durations: JobDurations
    """The job durations learnt, shared by every wait on the client."""


@dataclass(frozen=True)
class SyncLink(Link):
    """A blocking client's request path."""

    request: SyncSend
    request_raw: SyncRawSend

    def run(self, steps: Steps[T]) -> T:
        """Perform `steps` and return what they end in."""
        stepper = Stepper(steps)
        while (step := stepper.next()) is not None:
            if not isinstance(step, Send):
                self.clock.sleep(step)
                continue
            try:
                stepper.reply(self.request(step.call, step.deadline))
            except Exception as exc:
                stepper.fail(exc)
        return stepper.result


@dataclass(frozen=True)
class AsyncLink(Link):
    """An asyncio client's request path."""

    request: AsyncSend
    request_raw: AsyncRawSend

    async def run(self, steps: Steps[T]) -> T:
        """Perform `steps` and return what they end in; cancellable at every step."""
        stepper = Stepper(steps)
        while (step := stepper.next()) is not None:
            if not isinstance(step, Send):
                await self.clock.asleep(step)
                continue
            try:
                stepper.reply(await self.request(step.call, step.deadline))
            except Exception as exc:
                stepper.fail(exc)
        return stepper.result


L = TypeVar("L", SyncLink, AsyncLink)


class Namespace(Generic[L]):
    """A namespace of a client (`client.jobs`, `client.jobs.with_raw_response`...), on its link."""

    def __init__(self, link: L) -> None:
        self._link: L = link
