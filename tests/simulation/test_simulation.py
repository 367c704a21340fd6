"""The bulk simulation in the test suite: a batch of seeds, and every schedule that ever failed.

`pytest` runs `SCHEDULES` seeds (in chunks, spread over the workers); CI runs a batch of
10,000 more as a step of its own (`python -m tests.simulation`, see .ci/run). A failure
names its seed and the command that replays it, shrunk, with the story of what happened.
Every schedule that ever failed stays here as it was shrunk (regressions.py), so it keeps
its meaning whatever becomes of the generator.
"""

from __future__ import annotations

import os

import pytest

from .explore import explore, replay_command, report, run
from .regressions import PINNED, Pinned
from .schedule import draw

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
