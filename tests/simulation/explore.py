"""Exploring schedules, shrinking a failing one, and telling what happened.

A failing schedule is shrunk by delta debugging over its parts (runs, faults, rows,
stops, options, the service's readings): each part is dropped or set to its plainest
value in turn, and the change is kept when the schedule still breaks the same rule. The
result reads as a short story, replayed exactly by its seed.
"""

from __future__ import annotations

import contextlib
import gc
import io
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, fields, replace

from .harness import World_, simulate
from .invariants import Violation, check
from .schedule import Fault, Row, RunSpec, Schedule, draw
from .service import ServiceSettings
from .trace import trace

__all__ = ["Failure", "explore", "replay_command", "report", "run", "shrink"]


def run(schedule: Schedule, *, traced: bool = False) -> tuple[World_, list[Violation]]:
    # The SDK tells a stopped run's user on stderr what it finishes: not the checks' business.
    with contextlib.redirect_stderr(io.StringIO()):
        sim = simulate(schedule, trace=traced)
    return sim, check(sim)


@dataclass(frozen=True)
class Failure:
    seed: int
    violations: tuple[Violation, ...]

    @property
    def names(self) -> frozenset[str]:
        return frozenset(v.name for v in self.violations)


def explore(seeds: Iterable[int]) -> Iterator[Failure]:
    """The seeds whose schedule breaks a rule."""
    for n, seed in enumerate(seeds, 1):
        violations = _checked(seed)
        if violations:
            yield Failure(seed, tuple(violations))
        # What survived its schedule's collection (a cache entry, a cycle it held on to)
        # is collected with the older generations now and then.
        if n % 64 == 0:
            gc.collect(1 if n % 1024 else 2)


def _checked(seed: int) -> list[Violation]:
    """The rules `seed`'s schedule breaks. The collector stays off through the checks too,
    and collects what the schedule left once its world is dropped: collected while the
    checks still held the world, all of it was traversed and moved to the older
    generations, which took twice the collector's time (0.49 ms a schedule, not 0.24)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        violations = run(draw(seed))[1]
    finally:
        if collecting:
            gc.enable()
    gc.collect(0)
    return violations


def replay_command(seed: int) -> str:
    return f"python -m tests.simulation --seed {seed}"


def shrink(schedule: Schedule, keeps: Callable[[list[Violation]], bool]) -> Schedule:
    """The smallest schedule found by dropping or plainening parts of `schedule` one at a
    time while `keeps` holds for its violations."""
    sim, violations = run(schedule)
    assert keeps(violations), "the schedule does not fail to begin with"
    # A fault for a request that is never sent changes nothing.
    posts = sim.network.enrichments
    reads = len(sim.network.sent) - posts
    current = replace(
        schedule,
        faults=tuple((n, f) for n, f in schedule.faults if n < posts),
        read_faults=tuple((n, f) for n, f in schedule.read_faults if n < reads),
    )
    changed = True
    while changed:
        changed = False
        for candidate in _simpler(current):
            if keeps(run(candidate)[1]):
                current, changed = candidate, True
                break
    return current


def _simpler(s: Schedule) -> Iterator[Schedule]:
    for i in range(len(s.runs)):
        if len(s.runs) > 1:
            yield replace(s, runs=s.runs[:i] + s.runs[i + 1 :])
    for name in ("faults", "read_faults"):
        faults: tuple[tuple[int, Fault], ...] = getattr(s, name)
        for i in range(len(faults)):
            yield replace(s, **{name: faults[:i] + faults[i + 1 :]})
    for i in range(len(s.rows)):
        if len(s.rows) > 1:
            yield replace(s, rows=s.rows[:i] + s.rows[i + 1 :])
    for name in ("earlier", "writer"):
        leads: tuple[tuple[Row, float], ...] = getattr(s, name)
        for i in range(len(leads)):
            yield replace(s, **{name: leads[:i] + leads[i + 1 :]})
    for domain in sorted(s.failing):
        yield replace(s, failing=s.failing - {domain})
    for i, spec in enumerate(s.runs):
        for plainer in _plainer_run(spec):
            yield replace(s, runs=(*s.runs[:i], plainer, *s.runs[i + 1 :]))
    default = ServiceSettings()
    for field in fields(ServiceSettings):
        if getattr(s.service, field.name) != getattr(default, field.name):
            yield replace(s, service=replace(s.service, **{field.name: getattr(default, field.name)}))
    if s.client_wall_offset:
        yield replace(s, client_wall_offset=0.0)
    for name in ("faults", "read_faults"):
        faults = getattr(s, name)
        for i, (n, fault) in enumerate(faults):
            if fault.seconds and fault.seconds != round(fault.seconds):
                rounded = (n, replace(fault, seconds=float(round(fault.seconds))))
                yield replace(s, **{name: (*faults[:i], rounded, *faults[i + 1 :])})


def _plainer_run(spec: RunSpec) -> Iterator[RunSpec]:
    default = RunSpec()
    if spec.stop is not None:
        yield replace(spec, stop=None)
        for name in ("at", "again", "linger"):
            value = getattr(spec.stop, name)
            if value and value != round(value):
                yield replace(spec, stop=replace(spec.stop, **{name: float(round(value))}))
    for name in ("max_credits", "preview", "poll_interval", "read_timeout", "strategy", "runner"):
        if getattr(spec, name) != getattr(default, name):
            yield replace(spec, **{name: getattr(default, name)})
    if spec.concurrency > 1:
        yield replace(spec, concurrency=spec.concurrency - 1)
    if spec.gap and spec.gap != round(spec.gap):
        yield replace(spec, gap=float(round(spec.gap)))
    if spec.wall_step:
        yield replace(spec, wall_step=0.0)


def report(
    seed: int, schedule: Schedule | None = None, *, shrunk: bool = True
) -> tuple[str, Schedule, list[Violation]]:
    """The story of a failing seed: the command that replays it, the schedule (shrunk to
    the fewest parts that still break the same rules), and what happened, in order."""
    original = schedule or draw(seed)
    _, violations = run(original)
    names = {v.name for v in violations}
    small = original
    if violations and shrunk:
        small = shrink(original, lambda found: bool(names & {v.name for v in found}))
    sim, found = run(small, traced=True)
    lines = [
        f"seed {seed}: {', '.join(sorted(names)) or 'no violation'}",
        f"replay: {replay_command(seed)}",
        "",
        "schedule" + (" (shrunk)" if small is not original else "") + ":",
        *(f"  {line}" for line in small.describe()),
        "",
        "what happened (the world's seconds):",
        *(f"  {line}" for line in trace(sim)),
        "",
        "broken:",
        *(f"  {v}" for v in found),
    ]
    return "\n".join(lines), small, found


def literal(schedule: Schedule) -> str:
    """`schedule` as Python source, to pin it as a regression test."""
    return repr(schedule)
