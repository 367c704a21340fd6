"""What a namespace is given of its client: the request path, and the state they share.

A namespace does not import the client (it sits below it): the client hands each of its
namespaces one link, and a method that sends several requests gives the link its steps
(`_steps.py`) to perform, blocking or awaited.
"""

from __future__ import annotations

from contextlib import AsyncExitStack, ExitStack
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from .._clock import ServiceClock
from .._help import as_documented
from .._owner import Owner
from .._polling import JobDurations
from .._steps import Stepper, Steps
from .._telemetry import instrument
from ._protocols import AsyncRawRequest, AsyncRequest, AsyncSlot, SyncRawRequest, SyncRequest, SyncSlot

if TYPE_CHECKING:
    from .._otel import Telemetry

__all__ = ["AsyncLink", "AsyncNamespace", "Link", "Namespace", "SyncLink", "SyncNamespace"]

T = TypeVar("T")


@dataclass(frozen=True)
class Link:
    """What both clients give their namespaces alike."""

    clock: ServiceClock
    durations: JobDurations
    """The job durations learnt, shared by every wait on the client."""
    slots: int | None
    """How many enrichments the client's slots let run at once (None: no limit)."""
    owner: Owner
    """The service and account the client's requests go to: a checkpoint's owner."""
    telemetry: Telemetry | None
    """Where the client's spans and metrics go; None when telemetry is off."""


@dataclass(frozen=True)
class SyncLink(Link):
    """A blocking client's request path."""

    request: SyncRequest
    request_raw: SyncRawRequest
    slot: SyncSlot

    def run(self, steps: Steps[T]) -> T:
        """Perform `steps` and return what they end in."""
        stepper = Stepper(steps)
        with ExitStack() as held:
            try:
                while (step := stepper.next()) is not None:
                    try:
                        stepper.reply(step.perform(self, held))
                    except Exception as exc:
                        stepper.fail(exc)
            finally:
                # Steps left half-way (an interrupt, a cancellation) end before their slot.
                stepper.close()
        return stepper.result


@dataclass(frozen=True)
class AsyncLink(Link):
    """An asyncio client's request path."""

    request: AsyncRequest
    request_raw: AsyncRawRequest
    slot: AsyncSlot

    async def run(self, steps: Steps[T]) -> T:
        """Perform `steps` and return what they end in; cancellable at every step."""
        stepper = Stepper(steps)
        async with AsyncExitStack() as held:
            try:
                while (step := stepper.next()) is not None:
                    try:
                        stepper.reply(await step.aperform(self, held))
                    except Exception as exc:
                        stepper.fail(exc)
            finally:
                # Steps left half-way (an interrupt, a cancellation) end before their slot.
                stepper.close()
        return stepper.result


class Namespace:
    """A namespace of a client (`client.jobs`, `client.jobs.with_raw_response`...), on its
    link: shown by `help()` as the API reference shows it."""

    def __init_subclass__(cls, spans: str | None = None, **kwargs: object) -> None:
        """Each namespace is shown by `help()` as the API reference shows it, and its public
        methods' spans are named `spans.method` (`client.jobs.wait` -> `jobs.wait`)."""
        super().__init_subclass__(**kwargs)
        as_documented(cls)
        if spans is not None:
            instrument(cls, spans)


as_documented(Namespace)


class SyncNamespace(Namespace):
    """A namespace of `LeadEnrich`."""

    def __init__(self, link: SyncLink) -> None:
        """Made by the client: reach it as an attribute of a `LeadEnrich` (`client.leads`)."""
        self._link = link


class AsyncNamespace(Namespace):
    """A namespace of `AsyncLeadEnrich`."""

    def __init__(self, link: AsyncLink) -> None:
        """Made by the client: reach it as an attribute of an `AsyncLeadEnrich` (`client.leads`)."""
        self._link = link
