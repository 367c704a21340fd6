"""Run the bulk simulation from a shell.

python -m tests.simulation --seed 1234               # replay one seed: shrink it, tell its story
python -m tests.simulation --schedules 1000000 -j 2   # explore seeds 0..N-1 on 2 processes
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from collections import Counter

from .explore import Failure, explore, report


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
    args = parser.parse_args()
    if args.seed is not None:
        story, _, violations = report(args.seed, shrunk=not args.no_shrink)
        print(story)
        return 1 if violations else 0
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
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
