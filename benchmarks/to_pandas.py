"""What `to_pandas()` costs now that every column takes pandas' nullable types.

Builds a bulk run's records in memory (no server: the export is the subject), as
`BulkResult.to_records()` gives them, with one lead in ten failed (its enrichment
columns missing), and times the frame three ways: 1.1's (`from_records`, then `Int64`
for whole numbers with gaps), today's (`records_frame`: `convert_dtypes`, one NA), and
`from_records` alone for scale. Medians of `--repeat` runs, and today's over 1.1's.

    python benchmarks/to_pandas.py [--rows 1000] [--repeat 15]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import pandas

from leadenrich._bulk.frames import records_frame


def records(rows: int) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for n in range(rows):
        failed = n % 10 == 7
        record: dict[str, Any] = {
            "index": n,
            "status": "failed" if failed else "enriched",
            "input_company": f"Co{n}",
            "input_domain": f"co{n}.com",
            "input_name": None if n % 3 else f"Person {n}",
            "lead_id": None if failed else f"ld_{n:016x}",
            "error": "invalid lead: domain is missing" if failed else None,
            "charged": not failed,
        }
        for column in range(40):
            record[f"enrichment_{column}"] = None if failed else f"value {column}"
        record["opportunity_score"] = None if failed else n % 100
        record["company_overview_founded_year"] = None if failed else 1990 + n % 30
        found.append(record)
    return found


def as_in_1_1(found: list[dict[str, Any]]) -> Any:
    frame = pandas.DataFrame.from_records(found)
    for column in frame.columns:
        values = [r.get(column) for r in found]
        present = [v for v in values if v is not None]
        whole = all(isinstance(v, int) and not isinstance(v, bool) for v in present)
        if present and whole and len(present) < len(values):
            frame[column] = frame[column].astype("Int64")
    return frame


def median_ms(make: Callable[[], object], repeat: int) -> float:
    times: list[float] = []
    for _ in range(repeat):
        started = time.perf_counter()
        make()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description="What to_pandas() costs.")
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    found = records(args.rows)
    old = median_ms(lambda: as_in_1_1(found), args.repeat)
    new = median_ms(lambda: records_frame(found, "bench"), args.repeat)
    bare = median_ms(lambda: pandas.DataFrame.from_records(found), args.repeat)
    print(f"{args.rows} records of {len(found[0])} columns, median of {args.repeat}:")
    print(f"  1.1 (from_records, Int64 where needed)  {old:8.1f} ms")
    print(f"  now (convert_dtypes, one NA)            {new:8.1f} ms   {new / old:.2f}x 1.1's")
    print(f"  from_records alone                      {bare:8.1f} ms")


if __name__ == "__main__":
    main()
