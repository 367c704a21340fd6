"""The mutation gate: every mutant of the money rules (mutants.py) must break a rule.

python -m tests.simulation.mutate                    # every mutant, 10,000 schedules each at most
python -m tests.simulation.mutate --only slack_zeroed --schedules 2000
python -m tests.simulation.mutate --explored-only    # a kill must come from exploring seeds

Each mutant is applied to a copy of the package in a directory of its own, and the
simulation runs there in a subprocess (`python -m tests.simulation --pinned --until-first`),
with the copy first on the path: the pinned schedules first (a cheap early kill), then
seeds from 0 until one breaks a rule. `--jobs` mutants run at once, one process each.
Exits 1 when a mutant not argued equivalent survives, or a run went wrong.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .mutants import MUTANTS, PACKAGE, Mutant
from .regressions import PINNED

_ROOT = PACKAGE.parent


def _line(mutant: Mutant, result: str, detail: str, seconds: float) -> str:
    return f"{mutant.name:40} {result:9} {detail} ({seconds:.0f} s)"


def main() -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.simulation.mutate",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--schedules", type=int, default=10_000, help="seeds explored per mutant at most")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="mutants run at once")
    parser.add_argument("--only", action="append", help="this mutant only (repeatable)")
    parser.add_argument(
        "--explored-only",
        action="store_true",
        help="skip the pinned schedules: a kill then shows the generator finds a bug of that shape",
    )
    args = parser.parse_args()
    chosen = [m for m in MUTANTS if not args.only or m.name in args.only]
    unknown = set(args.only or ()) - {m.name for m in MUTANTS}
    if unknown:
        parser.error(f"no mutant named {', '.join(sorted(unknown))}; see tests/simulation/mutants.py")
    for mutant in chosen:
        mutant.applied((PACKAGE / mutant.file).read_text())  # each old text occurs once
    first = "" if args.explored_only else f"the {len(PINNED)} pinned schedules first, then "
    print(f"{len(chosen)} mutants; each: {first}up to {args.schedules} seeds from 0, until a rule breaks")
    began = time.perf_counter()
    killed, failing = 0, 0
    with ThreadPoolExecutor(args.jobs) as pool:
        runs = [(m, pool.submit(_run, m, args.schedules, not args.explored_only)) for m in chosen]
        for mutant, future in runs:
            result, detail, seconds = future.result()
            if result == "killed":
                killed += 1
            elif result == "survived" and mutant.equivalent:
                detail = f"equivalent: {mutant.equivalent}"
            else:
                failing += 1
            print(
                _line(mutant, result.upper() if result == "survived" else result, detail, seconds), flush=True
            )
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(
        f"score: {killed}/{len(chosen)} killed; in {time.perf_counter() - began:.0f} s, "
        f"{used.ru_utime + used.ru_stime:.0f} s of CPU"
    )
    return 1 if failing else 0


def _run(mutant: Mutant, schedules: int, pinned: bool) -> tuple[str, str, float]:
    """Whether the simulation killed `mutant` ("killed", "survived" or "error"), how (or
    what went wrong), and the wall seconds it took."""
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix=f"mutant-{mutant.name}-") as where:
        copy = Path(where) / "leadenrich"
        shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
        target = copy / mutant.file
        target.write_text(mutant.applied(target.read_text()))
        # `python -m` puts its working directory first on the path: the copy's parent.
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([where, str(_ROOT)])}
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "tests.simulation",
                *(["--pinned"] if pinned else []),
                "--until-first",
                "--schedules",
                str(schedules),
            ],
            cwd=where,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
    seconds = time.perf_counter() - began
    first = next((line for line in done.stdout.splitlines() if line.startswith("first failure: ")), None)
    if done.returncode == 1 and first is not None:
        return "killed", first.removeprefix("first failure: "), seconds
    if done.returncode == 0:
        return "survived", f"after {schedules} schedules", seconds
    tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
    return "error", f"exit {done.returncode}: {tail}", seconds


if __name__ == "__main__":
    sys.exit(main())
