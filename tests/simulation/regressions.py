"""Every schedule the simulation ever found breaking a rule, as it was shrunk.

Each is kept as the schedule itself, not only as its seed: the generator may change, and a
seed would then draw another schedule. `seed` says which seed of which generator found it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .schedule import Fault, Row, RunSpec, Schedule, Stop
from .service import ServiceSettings

__all__ = ["PINNED", "Pinned"]


@dataclass(frozen=True)
class Pinned:
    name: str
    seed: int
    why: str
    """What broke, and where the cause was fixed."""
    schedule: Schedule


PINNED: list[Pinned] = []

_ = (Fault, Row, RunSpec, Stop, ServiceSettings)
