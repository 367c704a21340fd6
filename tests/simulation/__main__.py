"""Run the bulk simulation from a shell.

python -m tests.simulation --seed 1234               # replay one seed: shrink it, tell its story
python -m tests.simulation --schedules 1000000 -j 2   # explore seeds 0..N-1 on 2 processes
python -m tests.simulation --pinned --until-first     # stop at the first schedule that fails
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from collections import Counter

from .explore import Failure, explore, report, run
from .regressions import PINNED


def _batch(bounds: tuple[int, int]) -> tuple[list[Failure], float]:
    cpu = time.process_time()
    failures = list(explore(range(*bounds)))
    return failures, time.process_time() - cpu


def main() -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.simulation",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--seed", type=int, help="replay this seed: its shrunk schedule and what happened")
    parser.add_argument("--no-shrink", action="store_true", help="with --seed: the schedule as drawn")
    parser.add_argument("--schedules", type=int, default=10_000, help="how many seeds to explore")
    parser.add_argument("--start", type=int, default=0, help="the first seed")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="processes")
    parser.add_argument(
        "--pinned", action="store_true", help="first run every schedule that ever failed (regressions.py)"
    )
    parser.add_argument(
        "--until-first", action="store_true", help="stop at the first schedule that fails, and name it"
    )
    args = parser.parse_args()
    if args.seed is not None:
        story, _, violations = report(args.seed, shrunk=not args.no_shrink)
        print(story)
        return 1 if violations else 0
    pinned_failed = args.pinned and _pinned(args.until_first)
    if pinned_failed and args.until_first:
        return 1
    if args.until_first:
        return _until_first(args.start, args.schedules, args.jobs)
    if args.schedules <= 0:
        return 1 if pinned_failed else 0
    began, used = time.perf_counter(), 0.0
    step = 1000
    chunks = [
        (n, min(n + step, args.start + args.schedules))
        for n in range(args.start, args.start + args.schedules, step)
    ]
    failures: list[Failure] = []
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        for found, cpu in pool.imap_unordered(_batch, chunks):
            failures += found
            used += cpu
    seconds = time.perf_counter() - began
    kinds = Counter(name for failure in failures for name in failure.names)
    print(
        f"{args.schedules} schedules (seeds {args.start} to {args.start + args.schedules - 1}): "
        f"{len(failures)} failed, in {seconds:.1f} s ({used:.1f} s of CPU, {used / args.schedules * 1000:.2f} ms a schedule)"
    )
    for name, count in kinds.most_common():
        seeds = sorted(f.seed for f in failures if name in f.names)
        print(f"  {name}: {count} (first seeds: {', '.join(map(str, seeds[:5]))})")
    if failures:
        first = min(failures, key=lambda f: f.seed)
        print(f"replay the first: python -m tests.simulation --seed {first.seed}")
    return 1 if failures or pinned_failed else 0


def _pinned(until_first: bool) -> bool:
    """Run the pinned schedules; print the first (or every) one that fails. Whether one did."""
    failed = False
    for pinned in PINNED:
        sim, violations = run(pinned.schedule)
        names = sorted({v.name for v in violations} | (set() if sim.runs[-1].completed else {"run_failed"}))
        if names:
            print(f"first failure: pinned {pinned.name}: {', '.join(names)}")
            failed = True
            if until_first:
                break
    if not failed:
        print(f"{len(PINNED)} pinned schedules: 0 failed")
    return failed


def _until_first(start: int, schedules: int, jobs: int) -> int:
    """Explore seeds in order, in small chunks, until one fails: a chunk's seeds are all
    explored, so the first failing seed is the lowest of its chunk."""
    began, cpu = time.perf_counter(), 0.0
    step = 100
    chunks = [(n, min(n + step, start + schedules)) for n in range(start, start + schedules, step)]
    explored = 0
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        for (low, high), (found, used) in zip(chunks, pool.imap(_batch, chunks), strict=False):
            cpu += used
            if found:
                first = min(found, key=lambda f: f.seed)
                explored += first.seed - low + 1
                names = ", ".join(sorted(first.names))
                print(f"first failure: seed {first.seed} after {explored} schedules: {names}")
                print(f"{time.perf_counter() - began:.1f} s, {cpu:.1f} s of CPU")
                pool.terminate()
                return 1
            explored += high - low
    print(f"{explored} schedules (seeds {start} to {start + schedules - 1}): 0 failed")
    print(f"{time.perf_counter() - began:.1f} s, {cpu:.1f} s of CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
