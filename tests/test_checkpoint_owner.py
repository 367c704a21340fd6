"""A checkpoint has one owner: a run holds it from its start to its end, and a second run
on it stops before it sends anything; the OS lets go of it when its process dies.

Readers only read: `read_checkpoint` and `preview_many` leave the file as it is, even
between a live run's two writes, and the run goes on.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
from collections import Counter
from pathlib import Path

import pytest

from leadenrich import LeadEnrichError, read_checkpoint
from leadenrich._bulk.checkpoint import Checkpoint, fingerprint
from leadenrich.testing import FakeServer
from tests.bulk_worker import rows
from tests.helpers import MakeServer, call, close, collect, scaled_client
from tests.test_bulk_kill import LEADS, SCALE, entries, start_worker

pytestmark = pytest.mark.anyio


def sent_by(server: FakeServer, key: str) -> list[str]:
    """The paths of every request made with `key`."""
    return [r.path for r in server.state.requests() if r.key == key]


def leads_lines(path: Path) -> list[dict[str, object]]:
    """The checkpoint's lines about leads (not the one naming its owner)."""
    return [entry for entry in entries(path) if entry["event"] != "owner"]


def assert_each_lead_charged_once(server: FakeServer) -> None:
    stored = Counter(fingerprint(lead.input) for lead in server.state.leads())
    assert set(stored.values()) == {1}, "a lead was enriched (and charged) twice"
    assert server.state.charged("enrichment") == len(stored) == LEADS


def assert_held(error: BaseException, path: Path, by: str) -> None:
    assert isinstance(error, LeadEnrichError)
    assert isinstance(error, BlockingIOError), "a script cannot tell it from other errors"
    message = str(error)
    assert message.startswith(f"checkpoint {path} is held by {by}"), message
    assert "no lead was sent" in message
    assert "remove" not in message, "removing the checkpoint would charge its leads again"


@pytest.mark.parametrize("kind", ["sync", "async"])
async def test_a_second_run_in_the_same_process_stops_before_sending(
    make_server: MakeServer, tmp_path: Path, kind: str
) -> None:
    server = make_server(time_scale=SCALE, enrichment_seconds=(20.0, 40.0))
    path = tmp_path / "run.jsonl"
    first = scaled_client(kind, server)
    second_key = server.add_key(user=server.user_of(server.api_key))
    second = scaled_client(kind, server, key=second_key)
    outcomes = first.leads.enrich_iter(rows(LEADS), concurrency=2, checkpoint=path, progress=False)
    # The first run is under way: its first outcome is in, most of its leads are not.
    seen = [next(outcomes) if kind == "sync" else await outcomes.__anext__()]
    with pytest.raises(LeadEnrichError) as refused:
        await call(second.leads.enrich_many(rows(LEADS), checkpoint=path, progress=False))
    assert_held(refused.value, path, "another run of this process")
    assert sent_by(server, second_key) == [], "the second run sent a request"
    seen += await collect(outcomes)
    assert [o.status for o in seen] == ["enriched"] * LEADS
    # The first has ended: the checkpoint is free, and the same call takes every lead from it.
    again = await call(second.leads.enrich_many(rows(LEADS), checkpoint=path, progress=False))
    assert all(o.resumed for o in again)
    assert_each_lead_charged_once(server)
    await close(first)
    await close(second)


@pytest.mark.parametrize("kind", ["sync", "async"])
async def test_a_run_in_another_process_holds_it_until_killed(
    make_server: MakeServer, tmp_path: Path, kind: str
) -> None:
    server = make_server(time_scale=SCALE, enrichment_seconds=(20.0, 40.0))
    path = tmp_path / "run.jsonl"
    worker = start_worker(server, path, "sync", concurrency=1)
    try:
        assert server.state.wait_until(
            lambda: worker.poll() is not None or len(leads_lines(path)) >= 2, timeout=60
        )
        assert worker.poll() is None, f"the run ended (exit code {worker.returncode}) too soon"
        key = server.add_key(user=server.user_of(server.api_key))
        client = scaled_client(kind, server, key=key)
        with pytest.raises(LeadEnrichError) as refused:
            await call(client.leads.enrich_many(rows(LEADS), checkpoint=path, progress=False))
        assert_held(refused.value, path, "a run in another process")
        assert sent_by(server, key) == [], "the second run sent a request"
        # Readers are not refused: the run so far, from the file alone.
        assert read_checkpoint(rows(LEADS), path).succeeded >= 1
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=60)
        # Killed mid-run, it left the checkpoint free: the next run goes on from it.
        result = await call(client.leads.enrich_many(rows(LEADS), checkpoint=path, progress=False))
        await close(client)
    finally:
        worker.kill()
        worker.wait(timeout=60)
    assert worker.returncode == -signal.SIGKILL
    assert [o.status for o in result] == ["enriched"] * LEADS
    assert any(o.resumed for o in result)
    assert_each_lead_charged_once(server)


async def test_a_run_cancelled_while_it_takes_the_checkpoint_lets_go_of_it(
    make_server: MakeServer, tmp_path: Path
) -> None:
    # Cancelled before, while, or after its checkpoint is taken on a thread: whichever,
    # once the cancelled run has ended, the next one takes the checkpoint.
    server = make_server()
    async with scaled_client("async", server) as client:
        for steps in range(12):
            path = tmp_path / f"run{steps}.jsonl"
            run = asyncio.ensure_future(client.leads.enrich_many(rows(2), checkpoint=path, progress=False))
            for _ in range(steps):
                await asyncio.sleep(0)
            run.cancel()
            with pytest.raises(asyncio.CancelledError):
                await run
            checkpoint = Checkpoint(path)
            checkpoint.take()  # raises if the cancelled run still held it
            checkpoint.close()


def preview_by_command(server: FakeServer, path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from leadenrich._cli import main

    leads = path.with_name("leads.csv")
    leads.write_text("company,domain\n" + "".join(f"{r['company']},{r['domain']}\n" for r in rows(3)))
    code = main(
        [
            "preview",
            str(leads),
            "--checkpoint",
            str(path),
            "--base-url",
            server.url,
            "--api-key",
            server.api_key,
        ]
    )
    assert code == 0, capsys.readouterr().err
    assert "in the checkpoint  2 (free)" in capsys.readouterr().out


@pytest.mark.parametrize(
    "reader", ["read_checkpoint", "preview_many", "async preview_many", "leadenrich preview"]
)
async def test_a_reader_between_two_writes_of_a_line_leaves_the_file_as_it_was(
    server: FakeServer, tmp_path: Path, reader: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "run.jsonl"
    async with scaled_client("async", server) as client:
        await client.leads.enrich_many(rows(3), concurrency=1, checkpoint=path, progress=False)
    *earlier, last = path.read_bytes().splitlines(keepends=True)
    assert json.loads(last)["event"] == "finished"
    # The run wrote the first half of its last line, and is about to write the rest.
    half = len(last) // 2
    path.write_bytes(b"".join(earlier) + last[:half])
    before = path.read_bytes()
    if reader == "read_checkpoint":
        assert read_checkpoint(rows(3), path).succeeded == 2
    elif reader == "leadenrich preview":
        preview_by_command(server, path, capsys)
    else:
        kind = reader.split()[0] if " " in reader else "sync"
        client = scaled_client(kind, server)
        preview = await call(client.leads.preview_many(rows(3), checkpoint=path, progress=False))
        await close(client)
        assert preview.in_checkpoint == 2
    assert path.read_bytes() == before, "the reader changed the checkpoint"
    with path.open("ab") as handle:
        handle.write(last[half:])
    # The run's line is whole: a rerun takes all three leads from the checkpoint.
    async with scaled_client("async", server) as client:
        rerun = await client.leads.enrich_many(rows(3), checkpoint=path, progress=False)
    assert [o.resumed for o in rerun] == [True] * 3
    assert server.state.charged("enrichment") == 3


async def test_readers_while_a_run_writes_see_its_lines_so_far_and_the_run_goes_on(
    make_server: MakeServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.test_checkpoint_writer import SlowDisk

    server = make_server(time_scale=SCALE, enrichment_seconds=(20.0, 40.0))
    path = tmp_path / "run.jsonl"
    disk = SlowDisk(at=4)
    monkeypatch.setattr(os, "fsync", disk)
    async with scaled_client("async", server) as client:
        run = asyncio.ensure_future(
            client.leads.enrich_many(rows(LEADS), concurrency=2, checkpoint=path, progress=False)
        )
        try:
            assert await disk.reached(run), "the run ended before its fourth sync"
            # Between two syncs of the run: the readers read what it wrote so far.
            before = path.read_bytes()
            so_far = read_checkpoint(rows(LEADS), path)
            preview = await client.leads.preview_many(rows(LEADS), checkpoint=path, progress=False)
            assert path.read_bytes() == before, "a reader changed the checkpoint"
            assert preview.in_checkpoint == so_far.succeeded < LEADS
        finally:
            disk.release()
        result = await run
    assert [o.status for o in result] == ["enriched"] * LEADS
    assert_each_lead_charged_once(server)
    assert all(entry["event"] in ("owner", "started", "finished") for entry in entries(path))


# Where users keep checkpoints: a network file system, and a notebook's kernel.

_PROBE = """
import fcntl, sys
with open(sys.argv[1], "a+b") as handle:
    try:
        fcntl.lockf(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        sys.exit(3)
"""


def locked_elsewhere(path: Path) -> bool:
    """Whether another process is refused a POSIX lock on `path` (as NFS grants flock)."""
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-c", _PROBE, str(path)], check=False).returncode == 3


def test_readers_in_the_running_process_keep_its_lock_where_flock_is_posix_locks(
    make_server: MakeServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Linux NFS grants flock as a POSIX lock, which a process loses when it closes any of
    # its descriptors of the file: as here, where flock is made lockf.
    import fcntl

    monkeypatch.setattr(fcntl, "flock", fcntl.lockf)
    server = make_server(time_scale=SCALE, enrichment_seconds=(20.0, 40.0))
    path = tmp_path / "run.jsonl"
    client = scaled_client("sync", server)
    outcomes = client.leads.enrich_iter(rows(3), concurrency=1, checkpoint=path, progress=False)
    first = next(outcomes)
    assert locked_elsewhere(path), "the run does not hold its checkpoint"
    # Readers in the run's own process, between two of its leads.
    assert read_checkpoint(rows(3), path).succeeded == 1
    assert client.leads.preview_many(rows(3), checkpoint=path, progress=False).in_checkpoint == 1
    assert locked_elsewhere(path), "a reader in the run's process let go of the run's lock"
    rest = list(outcomes)
    assert [o.status for o in [first, *rest]] == ["enriched"] * 3
    assert not locked_elsewhere(path), "the run ended and still holds its checkpoint"
    client.close()


def test_a_ctrl_c_as_the_run_closes_its_checkpoint_lets_go_of_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A notebook's interrupt that lands while the run waits for its last lines to reach the
    # disk: the kernel lives on, and must be able to run on the same checkpoint again.
    import threading
    import time

    from leadenrich._bulk.checkpoint_file import CheckpointFile

    path = tmp_path / "run.jsonl"
    journal = CheckpointFile(path)
    journal.take()
    released = threading.Event()
    fsync = os.fsync

    def slow(fd: int) -> None:
        if threading.current_thread().name == "leadenrich-checkpoint":
            # Once the run waits for this line in its close, Ctrl-C.
            while not journal._closed:  # pyright: ignore[reportPrivateUsage]
                time.sleep(0.001)  # polling the close: the subject of this test
            signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)
            released.wait(timeout=30)
        fsync(fd)

    monkeypatch.setattr(os, "fsync", slow)
    # Ctrl-C as a terminal or a kernel sends it: a SIGINT to the main thread, whose
    # default handler raises KeyboardInterrupt (a test runner may have set another).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    journal.append('{"event":"started","key":"k","index":0}\n')
    try:
        with pytest.raises(KeyboardInterrupt):
            journal.close()
    finally:
        signal.signal(signal.SIGINT, previous)
        released.set()
    again = CheckpointFile(path)
    again.take()  # not refused as held by a run of this process
    again.close()
