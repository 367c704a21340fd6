"""The bulk simulation in the test suite: a batch of seeds, and every schedule that ever failed.

`pytest` runs `SCHEDULES` seeds (in chunks, spread over the workers); CI runs a batch of
10,000 more as a step of its own (`python -m tests.simulation`, see .ci/run). A failure
names its seed and the command that replays it, shrunk, with the story of what happened.
Every schedule that ever failed stays here as it was shrunk (regressions.py), so it keeps
its meaning whatever becomes of the generator.
"""

from __future__ import annotations

import os
from dataclasses import replace

import pytest

from .explore import explore, replay_command, report, run
from .regressions import PINNED, Pinned
from .schedule import Fault, RunSpec, Stop, draw
from .trace import trace

SCHEDULES = int(os.environ.get("LEADENRICH_SIM_SCHEDULES", "100"))
"""Seeds explored by `pytest` (LEADENRICH_SIM_SCHEDULES sets another number)."""
_CHUNK = 25


@pytest.mark.parametrize("start", range(0, SCHEDULES, _CHUNK))
def test_schedules_keep_every_rule(start: int) -> None:
    failures = list(explore(range(start, min(start + _CHUNK, SCHEDULES))))
    if failures:
        first = failures[0]
        story, _, _ = report(first.seed)
        pytest.fail(
            f"{len(failures)} schedule(s) broke a rule; the first, seed {first.seed}, replays with "
            f"`{replay_command(first.seed)}`:\n\n{story}",
            pytrace=False,
        )


@pytest.mark.parametrize("pinned", PINNED, ids=[pinned.name for pinned in PINNED])
def test_every_schedule_that_ever_failed_keeps_every_rule(pinned: Pinned) -> None:
    sim, violations = run(pinned.schedule)
    assert violations == [], f"{pinned.name} (found by seed {pinned.seed}): {pinned.why}"
    assert sim.runs[-1].completed, "the last run did not end"


def test_a_seed_replays_the_same_alone_and_after_others() -> None:
    """A failure is only worth its seed if the seed replays it: the same requests at the
    same moments, however many schedules ran before it in the process."""

    def requests(seed: int) -> list[tuple[float, int, str, str]]:
        sim, _ = run(draw(seed))
        return [(s.at, s.iteration, s.method, s.path) for s in sim.network.sent]

    seeds = range(40, 60)
    alone = {seed: requests(seed) for seed in seeds}
    for seed in reversed(seeds):
        assert requests(seed) == alone[seed], f"seed {seed} sent other requests the second time"
    assert any(len(sent) > 5 for sent in alone.values())


def test_a_threaded_schedule_replays_the_same_story() -> None:
    """The blocking runner's user thread and the checkpoint's writer thread are real, and
    take turns with the world: a threaded schedule (a break, a Ctrl-C twice, a kill with
    lines still unsynced) tells the same story every time, down to its checkpoint file."""
    base = draw(356)
    schedule = replace(
        base,
        runs=(
            RunSpec(concurrency=3, stop=Stop("break", outcomes=2, linger=5.0), runner="threaded"),
            RunSpec(concurrency=2, stop=Stop("cancel_twice", at=1.0, again=3.0), runner="threaded"),
            RunSpec(stop=Stop("kill", at=0.5, trigger="request"), runner="threaded"),
            RunSpec(concurrency=4, runner="threaded"),
        ),
        faults=tuple((n, Fault("upstream_full" if n % 2 else "drop_after")) for n in range(0, 12, 3)),
    )

    def story() -> tuple[list[str], list[tuple[float, int, str, str]], list[object]]:
        sim, violations = run(schedule, traced=True)
        assert violations == []
        sent = [(s.at, s.iteration, s.method, s.path) for s in sim.network.sent]
        return trace(sim), sent, [run.checkpoint for run in sim.runs]

    first = story()
    assert [run.runner for run in schedule.runs] == ["threaded"] * 4
    assert any("kills the process" in line for line in first[0])
    assert len(first[1]) > 5
    for _ in range(3):
        assert story() == first
