"""The checkpoint as a JSONL file (what the SDK writes) or as SQLite in WAL mode: how fast
each records a run's facts and gives them back, at 100,000 leads.

Both keep the same facts: each lead `started`, then `finished` with the record a real
enrichment of the fake server returns (about 2.6 KB of JSON). The JSONL side is the SDK's
own `CheckpointFile` (its writer thread, one fsync a batch) and `Checkpoint.load`; the
SQLite side is the smallest port of it: one row a fact in a WAL database with
`synchronous=FULL` (a commit is on disk when it returns, as a synced line is), a
transaction a batch, and the same parser over the rows read back in order.

    python benchmarks/checkpoint_store.py [--leads 100000] [--repeat 5] [--batch 100] [--dir FOLDER]

It prints, for each store, the medians of `--repeat` runs:
- a synced batch of 5 `started` lines (a run with 5 leads in flight waits for their
  starts before it sends them): how long until it is on disk;
- writing every lead's two facts, `--batch` lines a sync;
- reading them back: the lines parsed as JSON only, and a whole `Resume` (each record
  validated as a LeadOut, as a rerun and `preview_many` do), in wall and CPU time;
- the size on disk.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from leadenrich._bulk.checkpoint import Checkpoint, Resume
from leadenrich._bulk.checkpoint_file import CheckpointFile
from leadenrich.testing import FakeServer, client_for

LATENCY_BATCHES = 200


def a_record() -> dict[str, Any]:
    """The record of a real enrichment by the fake server, as the checkpoint keeps it."""
    with FakeServer() as server, client_for(server) as client:
        lead = client.leads.enrich_sync({"company": "Acme Robotics", "domain": "acme-robotics.com"})
    return lead.model_dump(mode="json")


def facts(leads: int, record: dict[str, Any]) -> Iterator[str]:
    """Each lead's `started` and `finished` lines, a lead after the other."""
    at = "2026-11-22T10:00:00+00:00"
    for n in range(leads):
        key = f"{n:020x}"
        yield json.dumps({"event": "started", "key": key, "index": n, "as_job": False, "at": at}) + "\n"
        lead = {**record, "id": f"ld_{n:08d}"}
        yield (
            json.dumps(
                {"event": "finished", "key": key, "index": n, "status": "enriched", "at": at, "lead": lead},
                separators=(",", ":"),
            )
            + "\n"
        )


class JsonlStore:
    name = "JSONL"

    def __init__(self, path: Path) -> None:
        self.path = path.with_suffix(".jsonl")
        self._file: CheckpointFile | None = None

    def open(self) -> None:
        self._file = CheckpointFile(self.path)
        self._file.take()

    def write(self, lines: list[str]) -> None:
        assert self._file is not None
        pending = [self._file.append(line) for line in lines]
        for written in pending:
            written.result()

    def close(self) -> None:
        assert self._file is not None
        self._file.close()

    def raw(self) -> int:
        return sum(1 for line in CheckpointFile(self.path).read().splitlines() if json.loads(line))

    def resume(self) -> Resume:
        return Checkpoint(self.path).load()

    def size(self) -> int:
        return self.path.stat().st_size


class SqliteStore:
    name = "SQLite WAL"

    def __init__(self, path: Path) -> None:
        self.path = path.with_suffix(".sqlite")
        self._db: sqlite3.Connection | None = None

    def open(self) -> None:
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("CREATE TABLE IF NOT EXISTS facts (seq INTEGER PRIMARY KEY, entry TEXT NOT NULL)")

    def write(self, lines: list[str]) -> None:
        assert self._db is not None
        self._db.execute("BEGIN")
        self._db.executemany("INSERT INTO facts (entry) VALUES (?)", [(line,) for line in lines])
        self._db.execute("COMMIT")

    def close(self) -> None:
        assert self._db is not None
        self._db.close()

    def _rows(self) -> list[str]:
        reader = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
        try:
            return [entry for (entry,) in reader.execute("SELECT entry FROM facts ORDER BY seq")]
        finally:
            reader.close()

    def raw(self) -> int:
        return sum(1 for entry in self._rows() if json.loads(entry))

    def resume(self) -> Resume:
        # The same parser as the file's, over the rows in the order they were written.
        checkpoint, resume = Checkpoint(self.path), Resume()
        for number, entry in enumerate(self._rows(), 1):
            checkpoint._apply(entry, number, resume)  # pyright: ignore[reportPrivateUsage]
        return resume

    def size(self) -> int:
        return sum(p.stat().st_size for p in self.path.parent.glob(self.path.name + "*"))


Store = JsonlStore | SqliteStore


def timed(work: Callable[[], object]) -> tuple[float, float]:
    """The wall time and the CPU time `work` took."""
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - wall, time.process_time() - cpu


def latency(store: Store, line: str) -> float:
    """The median time a batch of 5 lines takes to be on disk."""
    store.open()
    try:
        return statistics.median(timed(lambda: store.write([line] * 5))[0] for _ in range(LATENCY_BATCHES))
    finally:
        store.close()


def write_all(store: Store, lines: list[str], batch: int) -> None:
    store.open()
    try:
        for start in range(0, len(lines), batch):
            store.write(lines[start : start + batch])
    finally:
        store.close()


def measure(kind: type[Store], folder: Path, lines: list[str], batch: int) -> dict[str, float]:
    """One run of every measure, in a folder of its own, removed after."""
    with tempfile.TemporaryDirectory(dir=folder) as place:
        store = kind(Path(place) / "run")
        figures = {"latency": latency(kind(Path(place) / "latency"), lines[0])}
        figures["write"] = timed(lambda: write_all(store, lines, batch))[0]
        figures["raw"] = timed(store.raw)[0]
        figures["resume"], figures["resume_cpu"] = timed(store.resume)
        figures["size"] = store.size()
        figures["done"] = len(store.resume().done)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description="The checkpoint as JSONL or SQLite, at 100,000 leads.")
    parser.add_argument("--leads", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--batch", type=int, default=100, help="lines a sync when writing them all")
    parser.add_argument(
        "--dir", type=Path, default=None, help="where to write (default: the temporary folder)"
    )
    args = parser.parse_args()
    lines = list(facts(args.leads, a_record()))
    print(
        f"{args.leads} leads, {len(lines)} lines; medians of {args.repeat} runs, the two stores taking turns"
    )
    kinds: tuple[type[Store], ...] = (JsonlStore, SqliteStore)
    runs: dict[type[Store], list[dict[str, float]]] = {kind: [] for kind in kinds}
    for _ in range(args.repeat):
        for kind in kinds:
            runs[kind].append(measure(kind, args.dir or Path(tempfile.gettempdir()), lines, args.batch))
    for kind in kinds:

        def median(name: str, kind: type[Store] = kind) -> float:
            return statistics.median(run[name] for run in runs[kind])

        assert median("done") == args.leads, f"{kind.name}: not every lead was read back"
        print(
            f"{kind.name:11s} batch of 5 synced {median('latency') * 1000:5.2f} ms"
            f" | write all {median('write'):5.2f} s | read lines {median('raw'):5.2f} s"
            f" | resume {median('resume'):5.2f} s ({median('resume_cpu'):5.2f} s CPU)"
            f" | {median('size') / 1e6:5.1f} MB"
        )


if __name__ == "__main__":
    main()
